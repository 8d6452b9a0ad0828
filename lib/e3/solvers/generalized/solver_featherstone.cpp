// SolverFeatherstone::step as passes over core primitives (course E3 §6): the shared passes of
// articulation_passes.h (FK, J, H, tau, Cholesky), then its own: the parent joint wrenches and the
// integration. The same source runs on the CPU and on a GPU.
#include "e3/solvers/generalized/solver_featherstone.h"

#include <stdexcept>
#include <string>

#include "core/parallel_for.h"
#include "e1/kinematics.h"
#include "e3/solvers/generalized/featherstone_terms.h"

namespace impulse {

SolverFeatherstone::SolverFeatherstone(const Model& model, int interval, real smoothing, std::vector<real> armature)
    : update_mass_matrix_interval(interval), friction_smoothing(smoothing), model_(&model) {
  const Model& m = model;
  const Device d = m.device;
  if (interval < 1) throw std::invalid_argument("SolverFeatherstone: update_mass_matrix_interval must be >= 1");
  A_ = ArticulationArrays(m, std::move(armature));
  auto flags = m.body_flags.to_host();
  auto mass = m.body_mass.to_host();
  bool any_dynamic = false;
  for (int b = 0; b < m.body_count; ++b) any_dynamic |= !(flags[b] & int(BodyFlag::kinematic)) && mass[b] > 0;
  if (!any_dynamic || m.joint_dof_count == 0)
    throw std::invalid_argument("SolverFeatherstone: the model has no dynamic body moved by a joint DOF (kinematic-only world)");
  if (!(smoothing > 0)) throw std::invalid_argument("SolverFeatherstone: friction_smoothing must be > 0 m/s");
  body_parent_f_ = Buffer<spatial_vector>(d, std::vector<spatial_vector>(std::size_t(m.body_count), spatial_vector{}));
  wrench_ = Buffer<spatial_vector>(d, m.body_count);
}

void SolverFeatherstone::assemble_body_forces(const State& s, const ContactsView* c, View<spatial_vector> out) {
  launch_body_forces(s, c, out);
  if (c) read_penalty_contacts_check(*model_, *c, contact_scratch_);
}

// The record's check keeps one extra slot: the factorization's failure count, read with it.
void SolverFeatherstone::launch_body_forces(const State& s, const ContactsView* c, View<spatial_vector> out) {
  articulation_forward_kinematics(*model_, A_, s.joint_q.view(), s.joint_qd.view());
  auto f = s.body_f.view();
  parallel_for(model_->device, model_->body_count, IMPULSE_KERNEL((std::int64_t b), { out[b] = f[b]; }));
  if (!c) return;
  apply_penalty_contacts(*model_, A_.X.view(), A_.V.view(), *c, friction_smoothing, contact_scratch_, out, 1);
}

// The step's one readback: the record's check (apply_penalty_contacts) with the factorization's
// failure count as its extra slot; without contacts, the count alone, on the steps that refactor.
void SolverFeatherstone::read_back(const ContactsView* c, bool refactored) {
  const Model& m = *model_;
  if (!c) {
    if (refactored) throw_if_not_spd(m, A_);
    return;
  }
  if (refactored) {
    count_failures(m, A_);
    View<int> extra = contact_scratch_.record.extra_slots();
    View<const std::int64_t> off = A_.spd_offsets.view();
    const int na = A_.articulation_count;
    parallel_for(m.device, 1, IMPULSE_KERNEL((std::int64_t), { extra[0] = static_cast<int>(off[na]); }));
  }
  read_penalty_contacts_check(m, *c, contact_scratch_);
  throw_if_failed(A_, contact_scratch_.record.extra(0));
}

// Each body's Newton-Euler residual (per body), then each articulation carries its children's
// wrenches to their parents, leaves first:
//   f_parent_b = W_b + sum over children c of (f_c, tau_c + (c_c - c_b) x f_c)
void SolverFeatherstone::eval_parent_joint_wrenches() {
  const Model& m = *model_;
  const JointTree t = joint_tree_of(m);
  const vec3 g = m.gravity;
  View<const transform> X = A_.X.view();
  View<const spatial_vector> V = A_.V.view(), W = wrench_.view(), A0 = A_.a0.view();
  View<const real> J = A_.J.view(), x = A_.x.view();
  View<const std::int64_t> J_start = A_.J_start.view();
  View<const int> d_begin = A_.dof_begin.view(), d_end = A_.dof_end.view(), art = A_.body_art.view(),
                  row = A_.body_row.view();
  auto f = body_parent_f_.view();
  parallel_for(m.device, m.body_count, IMPULSE_KERNEL((std::int64_t b), {
    real acc[6] = {0, 0, 0, 0, 0, 0};  // J_b qdd over the body's articulation's DOF (zero: moved by no joint)
    const int a = art[b];
    if (a >= 0) {
      const int d0 = d_begin[a], n = d_end[a] - d0;
      const real* Jb = &J[J_start[a] + std::int64_t(row[b]) * n];
      for (int i = 0; i < 6; ++i)
        for (int k = 0; k < n; ++k) acc[i] += Jb[i * n + k] * x[d0 + k];
    }
    const vec3 lin = vec3{acc[0], acc[1], acc[2]} + A0[b].lin, ang = vec3{acc[3], acc[4], acc[5]} + A0[b].ang;
    f[b] = body_newton_euler_residual(W[b], t.mass[b], world_inertia(X[b], t.inertia[b]), V[b].ang, lin, ang, g);
  }));
  parallel_for(m.device, A_.articulation_count, IMPULSE_KERNEL((std::int64_t a), {
    for (int j = t.start[a + 1] - 1; j >= t.start[a]; --j) {
      const int p = t.parent[j], ch = t.child[j];
      if (p < 0) continue;
      const vec3 c_ch = world_com(X[ch], t.com[ch]), c_p = world_com(X[p], t.com[p]);
      f[p].lin += f[ch].lin;
      f[p].ang += f[ch].ang + cross(c_ch - c_p, f[ch].lin);
    }
  }));
}

// qd+ = qd + h qdd, then q+ = q + h N(q) qd+ per joint (E1's integrate_joint_coords), then FK.
void SolverFeatherstone::integrate(const State& in, State& out, real h) {
  const Model& m = *model_;
  auto qd = in.joint_qd.view();
  View<const real> x = A_.x.view();
  auto qd_out = out.joint_qd.view();
  parallel_for(m.device, m.joint_dof_count, IMPULSE_KERNEL((std::int64_t k), { qd_out[k] = qd[k] + h * x[k]; }));
  articulation_integrate_coords(m, A_, in.joint_q.view(), out.joint_qd.view(), h, out.joint_q.view());
  eval_fk(m, out.joint_q.view(), out.joint_qd.view(), out);
}

void SolverFeatherstone::step(const State& in, State& out, const Control& control, const ContactsView* c, real h) {
  if (&in == &out) throw std::invalid_argument("SolverFeatherstone.step: state_in and state_out must be different States");
  if (!(h > 0)) throw std::invalid_argument("SolverFeatherstone.step: dt must be > 0 s");
  const Model& m = *model_;
  if (in.body_f.size() != m.body_count || in.joint_q.size() != m.joint_coord_count ||
      in.joint_qd.size() != m.joint_dof_count || out.joint_q.size() != m.joint_coord_count ||
      out.joint_qd.size() != m.joint_dof_count)
    throw std::invalid_argument("SolverFeatherstone.step: State arrays do not match the model");
  launch_body_forces(in, c, wrench_.view());     // FK(q, qd), body_f + penalty contacts
  articulation_jacobians(m, A_, in.joint_q.view());  // J per articulation
  const bool refactor = steps_ % update_mass_matrix_interval == 0;
  if (refactor) {                                // the cached factorization is refreshed every interval
    articulation_mass_matrix(m, A_);             // H = J^T I J + armature
    clear_failures(m, A_);
    factor_blocks(m, A_);                        // H -> L in place
    ++mass_matrix_updates_;
  }
  ++steps_;
  articulation_generalized_force(m, A_, in.joint_q.view(), in.joint_qd.view(), wrench_.view(), control.joint_f);
  solve_blocks(m, A_);                           // qdd = H^-1 tau
  eval_parent_joint_wrenches();                  // body_parent_f
  integrate(in, out, h);                         // qd+, q+, body_q/qd = FK(q+, qd+)
  read_back(c, refactor);                        // the step's one readback: record, SPD (state_out unspecified on a throw)
}

void SolverFeatherstone::update_contacts(ContactsView&) const {
  throw UpdateContactsNotImplemented("SolverFeatherstone");
}

}  // namespace impulse
