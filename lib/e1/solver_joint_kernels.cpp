// Launch sites of SolverJointIntegrator (either backend): one thread per joint.
#include <stdexcept>

#include "core/parallel_for.h"
#include "e1/kinematics.h"
#include "e1/solver_joint.h"

namespace impulse {

void SolverJointIntegrator::step(const State& in, State& out, const Control&, real dt) {
  const Model& m = *model_;
  if (&in == &out) throw std::invalid_argument("SolverJointIntegrator.step: state_in and state_out must differ");
  auto type = m.joint_type.view();
  auto child = m.joint_child.view();
  auto X_c = m.joint_X_c.view();
  auto axes = m.joint_axes.view();
  auto qs = m.joint_q_start.view();
  auto ds = m.joint_qd_start.view();
  auto com = m.body_com.view();
  auto q = in.joint_q.view();
  auto qd = in.joint_qd.view();
  auto q_out = out.joint_q.view();
  auto qd_out = out.joint_qd.view();
  parallel_for(m.device, m.joint_count, IMPULSE_KERNEL((std::int64_t j), {
    vec3 c_jc = transform_point(transform_inverse(X_c[j]), com[child[j]]);
    integrate_joint_coords(JointType(type[j]), &q[qs[j]], &qd[ds[j]], axes[j], c_jc, dt, &q_out[qs[j]]);
    for (int k = ds[j]; k < ds[j + 1]; ++k) qd_out[k] = qd[k];
  }));
  eval_fk(m, out.joint_q.view(), out.joint_qd.view(), out);
}

void SolverJointIntegrator::reset(State& s, const std::vector<int>& mask) const {
  const Model& m = *model_;
  if (!mask.empty() && int(mask.size()) != m.joint_count)
    throw std::invalid_argument("SolverJointIntegrator.reset: mask has " + std::to_string(mask.size()) +
                                " entries, the model has " + std::to_string(m.joint_count) + " joints");
  Buffer<int> sel(m.device, mask.empty() ? std::vector<int>(m.joint_count, 1) : mask);
  auto selv = sel.view();
  auto qs = m.joint_q_start.view();
  auto ds = m.joint_qd_start.view();
  auto q0 = m.joint_q.view();
  auto qd0 = m.joint_qd.view();
  auto q = s.joint_q.view();
  auto qd = s.joint_qd.view();
  parallel_for(m.device, m.joint_count, IMPULSE_KERNEL((std::int64_t j), {
    if (!selv[j]) return;
    for (int k = qs[j]; k < qs[j + 1]; ++k) q[k] = q0[k];
    for (int k = ds[j]; k < ds[j + 1]; ++k) qd[k] = qd0[k];
  }));
  eval_fk(m, s.joint_q.view(), s.joint_qd.view(), s);
}

}  // namespace impulse
