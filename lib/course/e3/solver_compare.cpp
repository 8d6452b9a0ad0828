// The E3 §6 summary table and the common solver driver (host code).
#include "course/e3/solver_compare.h"

#include <stdexcept>

#include "e1/integrator.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/generalized/solver_featherstone.h"
#include "e3/solvers/padmm/solver_padmm.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "e3/solvers/vbd/vbd_rigid.h"

namespace impulse {

SolverKind parse_solver_kind(const std::string& n) {
  if (n == "xpbd") return SolverKind::xpbd;
  if (n == "semi_implicit") return SolverKind::semi_implicit;
  if (n == "featherstone") return SolverKind::featherstone;
  if (n == "padmm") return SolverKind::padmm;
  if (n == "vbd") return SolverKind::vbd;
  throw std::invalid_argument("unknown solver '" + n +
                              "' (use xpbd, semi_implicit, featherstone, padmm or vbd; MuJoCo is not part of this engine)");
}

const char* solver_kind_name(SolverKind k) {
  switch (k) {
    case SolverKind::xpbd: return "xpbd";
    case SolverKind::semi_implicit: return "semi_implicit";
    case SolverKind::featherstone: return "featherstone";
    case SolverKind::padmm: return "padmm";
    case SolverKind::vbd: return "vbd";
  }
  return "?";
}

const std::vector<SolverSummaryRow>& solver_summary_table() {
  static const std::vector<SolverSummaryRow> rows = {
      {"XPBD", "prediction + position constraints; optional restitution velocity layer",
       "fixed position and restitution iterations; no multiplier carried across steps",
       "update_contacts: equivalent force from position impulses, approximate weighting", "position-level correction",
       true, true, false},
      {"SemiImplicit", "penalty on the current state + semi-implicit Euler", "one force assembly, no residual iteration",
       "none: update_contacts is an error", "penalty", true, false, false},
      {"Featherstone", "reduced-coordinate mass matrix, Cholesky + penalty",
       "direct linear solve; the mass matrix may be cached", "none per contact (joint wrenches are a different thing)",
       "penalty", true, false, false},
      {"MuJoCo-Warp", "backend constraint optimisation + the chosen integrator",
       "cost/gradient criteria or an iteration cap; acceleration warm start",
       "update_contacts, with a torque reference-point gap", "backend-regularised constraints", false, true, false},
      {"VBD", "block descent, compliant ALM", "fixed iterations; contact and pose history",
       "collect_rigid_contact_forces: force on body1", "penalty with multiplier history (compliant ALM)", true, false,
       true},
      {"Kamino PADMM", "hard-contact dual problem + Euler", "three residuals or an iteration cap; container warm start",
       "update_contacts(contacts, state): COM world wrench on body0", "hard contact, dual iteration", true, true, false},
  };
  return rows;
}

struct AnySolver::Impl {
  std::unique_ptr<SolverXPBD> xpbd;
  std::unique_ptr<SolverSemiImplicit> semi;
  std::unique_ptr<SolverFeatherstone> fs;
  std::unique_ptr<SolverPADMM> padmm;
  std::unique_ptr<SolverVBD> vbd;
  const Model* model = nullptr;
};

AnySolver::AnySolver(SolverKind kind, Model& model) : kind_(kind), impl_(std::make_unique<Impl>()) {
  impl_->model = &model;
  switch (kind) {
    case SolverKind::xpbd: impl_->xpbd = std::make_unique<SolverXPBD>(model); break;
    case SolverKind::semi_implicit: impl_->semi = std::make_unique<SolverSemiImplicit>(model); break;
    case SolverKind::featherstone: impl_->fs = std::make_unique<SolverFeatherstone>(model); break;
    case SolverKind::padmm: impl_->padmm = std::make_unique<SolverPADMM>(model); break;
    case SolverKind::vbd: impl_->vbd = std::make_unique<SolverVBD>(model); break;
  }
}
AnySolver::~AnySolver() = default;

void AnySolver::step(const State& in, State& out, const Control& c, const ContactsView* contacts, real dt) {
  if (impl_->xpbd) impl_->xpbd->step(in, out, c, contacts, dt);
  if (impl_->semi) impl_->semi->step(in, out, c, contacts, dt);
  if (impl_->fs) impl_->fs->step(in, out, c, contacts, dt);
  if (impl_->padmm) impl_->padmm->step(in, out, c, contacts, dt);
  if (impl_->vbd) impl_->vbd->step(in, out, c, contacts, dt);
}

std::vector<vec3> AnySolver::contact_forces_on_body0(ContactsView& contacts, const State& after, real dt) {
  std::vector<vec3> f;
  if (impl_->xpbd) {
    impl_->xpbd->update_contacts(contacts);
    std::vector<spatial_vector> w(static_cast<std::size_t>(contacts.force.size));
    if (!w.empty()) device_copy(w.data(), Device::cpu, contacts.force.data, impl_->model->device, sizeof(w[0]) * w.size());
    for (int i = 0; i < contact_count(contacts); ++i) f.push_back(w[i].lin);
  }
  if (impl_->semi) impl_->semi->update_contacts(contacts);
  if (impl_->fs) impl_->fs->update_contacts(contacts);
  if (impl_->padmm) {
    impl_->padmm->update_contacts(contacts, after);
    std::vector<spatial_vector> w(static_cast<std::size_t>(contacts.force.size));
    if (!w.empty()) device_copy(w.data(), Device::cpu, contacts.force.data, impl_->model->device, sizeof(w[0]) * w.size());
    for (std::size_t i = 0; i < impl_->padmm->last_rows().size(); ++i) f.push_back(w[i].lin);
  }
  if (impl_->vbd)
    for (const VbdContactForce& c : impl_->vbd->collect_rigid_contact_forces(after.body_q.to_host(),
                                                                             impl_->vbd->body_q_prev(), contacts, dt))
      f.push_back(-c.force_on_body1);
  return f;
}

struct GroundSceneStepper::Impl {
  Impl(SolverKind kind, Model& m, State& s, const PenaltyMaterial& material, GroundContactSource source)
      : model(m), state(s), solver(kind, m), next(m.state()), control(m.control()),
        fx(m.device, 8 * m.body_count + m.body_count * m.body_count, 0.01, material),
        pipe(source == GroundContactSource::pipeline),
        path(kind == SolverKind::xpbd  ? SolverPath::xpbd
             : kind == SolverKind::vbd ? SolverPath::vbd
                                       : SolverPath::semi_implicit) {
    next.assign(state);
    if (!pipe) return;
    // As the fixture: the given material, no torsional or rolling friction, no restitution.
    const std::pair<const char*, const ModelArray<real>*> columns[] = {
        {"ke", &model.shape_material_ke},
        {"kd", &model.shape_material_kd},
        {"kf", &model.shape_material_kf},
        {"ka", &model.shape_material_ka},
        {"mu", &model.shape_material_mu},
        {"mu_torsional", &model.shape_material_mu_torsional},
        {"mu_rolling", &model.shape_material_mu_rolling},
        {"restitution", &model.shape_material_restitution}};
    const real want[] = {material.ke, material.kd, material.kf, material.ka, material.mu, 0, 0, 0};
    for (int k = 0; k < 8; ++k) {
      const std::vector<real> v = columns[k].second->to_host();
      for (std::size_t i = 0; i < v.size(); ++i)
        if (v[i] != want[k])
          throw std::invalid_argument("simulate_ground_scene: shape " + std::to_string(i) + " has " +
                                      columns[k].first + " = " + std::to_string(v[i]) + ", the material " +
                                      std::to_string(want[k]) + " (build it with contact_shape_config)");
    }
    CollisionPipelineOptions options;
    options.request_contact_force = true;  // for the readback of contact_forces
    pipeline = std::make_unique<CollisionPipeline>(model, options);
    contacts = std::make_unique<Contacts>(pipeline->contacts());
  }
  Model& model;
  State& state;
  AnySolver solver;
  State next;
  Control control;
  GroundContactFixture fx;
  const bool pipe;
  const SolverPath path;
  std::unique_ptr<CollisionPipeline> pipeline;
  std::unique_ptr<Contacts> contacts;
};

GroundSceneStepper::GroundSceneStepper(SolverKind kind, Model& model, State& state, const PenaltyMaterial& material,
                                       GroundContactSource source)
    : impl_(std::make_unique<Impl>(kind, model, state, material, source)) {}

GroundSceneStepper::~GroundSceneStepper() = default;

void GroundSceneStepper::step(real h) {
  Impl& s = *impl_;
  ContactsView v;
  if (s.pipe) {
    s.pipeline->collide(s.state.body_q.view(), *s.contacts);
    fill_contact_materials(s.model, s.path, *s.contacts);
    v = s.contacts->view();
  } else {
    s.fx.generate(s.model, s.state);
    v = s.fx.view();
  }
  s.solver.step(s.state, s.next, s.control, &v, h);
  std::swap(s.state, s.next);
}

GroundSample GroundSceneStepper::sample(real t) const {
  const transform X = impl_->state.body_q.to_host()[0];
  const spatial_vector V = impl_->state.body_qd.to_host()[0];
  return {t, world_com(X, impl_->model.body_com.to_host()[0]), V.lin};
}

bool GroundSceneStepper::has_record_forces() const {
  return impl_->pipe && (impl_->solver.kind() == SolverKind::xpbd || impl_->solver.kind() == SolverKind::padmm);
}

std::vector<GroundSceneStepper::RecordForce> GroundSceneStepper::contact_forces(real dt) {
  Impl& s = *impl_;
  if (!has_record_forces())
    throw std::logic_error(std::string("GroundSceneStepper::contact_forces: no per-record force for ") +
                           solver_kind_name(s.solver.kind()) + (s.pipe ? "" : " on fixture contacts"));
  ContactsView v = s.contacts->view();
  s.solver.contact_forces_on_body0(v, s.state, dt);  // writes Contacts.force, one row per record
  const std::vector<spatial_vector> f = s.contacts->force.to_host();
  const std::vector<int> s0 = s.contacts->rigid_contact_shape0.to_host(), s1 = s.contacts->rigid_contact_shape1.to_host();
  const std::vector<int> body = s.model.shape_body.to_host();
  std::vector<RecordForce> out;
  for (int i = 0; i < s.contacts->checked_count(); ++i)
    out.push_back({s0[i] >= 0 ? body[s0[i]] : -1, s1[i] >= 0 ? body[s1[i]] : -1, f[i].lin});
  return out;
}

std::vector<GroundSample> simulate_ground_scene(SolverKind kind, Model& model, State& state,
                                                const PenaltyMaterial& material, real h, int steps, int every,
                                                const std::function<void(const State&)>& on_step,
                                                GroundContactSource source) {
  if (steps < 0 || every < 1) throw std::invalid_argument("simulate_ground_scene: steps >= 0 and every >= 1 required");
  GroundSceneStepper stepper(kind, model, state, material, source);
  std::vector<GroundSample> out{stepper.sample(0)};
  for (int i = 1; i <= steps; ++i) {
    stepper.step(h);
    if (on_step) on_step(state);
    if (i % every == 0) out.push_back(stepper.sample(i * h));
  }
  return out;
}

}  // namespace impulse
