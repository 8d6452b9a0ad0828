// Launch sites of the §10 rigid-body prediction (either backend).
#include <stdexcept>
#include <string>

#include "core/parallel_for.h"
#include "e1/integrator.h"

namespace impulse {

void integrate_bodies(const Model& m, const State& in, View<const spatial_vector> wrench, State& out, vec3 gravity,
                      real angular_damping, real h) {
  auto flags = m.body_flags.view();
  auto com = m.body_com.view();
  auto I = m.body_inertia.view();
  auto I_inv = m.body_inv_inertia.view();
  auto inv_mass = m.body_inv_mass.view();
  auto q = in.body_q.view();
  auto qd = in.body_qd.view();
  auto q_out = out.body_q.view();
  auto qd_out = out.body_qd.view();
  parallel_for(m.device, m.body_count, IMPULSE_KERNEL((std::int64_t b), {
    integrate_body(flags[b], q[b], qd[b], wrench[b], com[b], I[b], I_inv[b], inv_mass[b], gravity, angular_damping, h,
                   q_out[b], qd_out[b]);
  }));
}

void gather_body_wrenches(const Model& m, const State& s, const Control& c, View<spatial_vector> out) {
  auto f = s.body_f.view();
  parallel_for(m.device, m.body_count, IMPULSE_KERNEL((std::int64_t b), { out[b] = f[b]; }));
  if (c.joint_f.size == 0) return;
  auto type = m.joint_type.view();
  auto child = m.joint_child.view();
  auto qd_start = m.joint_qd_start.view();
  View<const real> jf = c.joint_f;
  parallel_for(m.device, m.joint_count, IMPULSE_KERNEL((std::int64_t j), {
    JointType t = JointType(type[j]);
    if (t != JointType::free && t != JointType::distance) return;
    const real* g = &jf[qd_start[j]];
    int b = child[j];
    out[b].lin += vec3{g[0], g[1], g[2]};
    out[b].ang += vec3{g[3], g[4], g[5]};
  }));
}

SolverRigidPredictor::SolverRigidPredictor(const Model& model, real damping)
    : angular_damping(damping), model_(&model), gravity_(model.gravity), wrench_(model.device, model.body_count) {}

void SolverRigidPredictor::step(const State& in, State& out, const Control& control, real dt) {
  if (&in == &out) throw std::invalid_argument("SolverRigidPredictor.step: state_in and state_out must be different States");
  if (in.body_q.size() != model_->body_count || out.body_q.size() != model_->body_count)
    throw std::invalid_argument("SolverRigidPredictor.step: State body arrays do not match the model (" +
                                std::to_string(model_->body_count) + " bodies)");
  if (in.body_q.device() != model_->device || out.body_q.device() != model_->device)
    throw std::invalid_argument(std::string("SolverRigidPredictor.step: the States must live on the model's device (") +
                                device_name(model_->device) + ")");
  if (control.joint_f.size != 0 && control.joint_f.size != model_->joint_dof_count)
    throw std::invalid_argument("SolverRigidPredictor.step: control.joint_f has the wrong length");
  // Without joint_f the wrench is body_f itself, read in place (no copy, one pass over the bodies).
  if (control.joint_f.size == 0) {
    integrate_bodies(*model_, in, in.body_f.view(), out, gravity_, angular_damping, dt);
    return;
  }
  gather_body_wrenches(*model_, in, control, wrench_.view());
  integrate_bodies(*model_, in, wrench_.view(), out, gravity_, angular_damping, dt);
}

void SolverRigidPredictor::notify_model_changed() { gravity_ = model_->gravity; }

void SolverRigidPredictor::reset(State&) const {}

}  // namespace impulse
