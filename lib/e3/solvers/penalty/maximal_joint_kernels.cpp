// Launch site of eval_body_joint over the joints of a Model (course E3 §6).
#include "e3/solvers/penalty/maximal_joint_kernels.h"

#include <stdexcept>
#include <vector>

#include "core/parallel_for.h"
#include "e3/solvers/shared/body_wrench_sum.h"
#include "e3/joints/maximal_joint.h"

namespace impulse {

void apply_penalty_joints(const Model& m, View<const transform> body_q, View<const spatial_vector> body_qd,
                          View<const real> joint_f, real ke, real kd, View<spatial_vector> on_p,
                          View<spatial_vector> on_c, View<spatial_vector> wrench) {
  if (on_p.size < m.joint_count || on_c.size < m.joint_count)
    throw std::invalid_argument("apply_penalty_joints: scratch arrays smaller than joint_count");
  auto type = m.joint_type.view();
  auto parent = m.joint_parent.view(), child = m.joint_child.view();
  auto X_p = m.joint_X_p.view(), X_c = m.joint_X_c.view();
  auto axes = m.joint_axes.view();
  auto qd_start = m.joint_qd_start.view();
  auto com = m.body_com.view();
  parallel_for(m.device, m.joint_count, IMPULSE_KERNEL((std::int64_t j), {
    int p = parent[j], c = child[j];
    bool has_p = p >= 0;
    transform Xp = has_p ? body_q[p] : transform_identity();
    JointFrames fr = joint_frames(has_p, Xp, has_p ? com[p] : vec3{}, body_q[c], com[c], X_p[j], X_c[j]);
    spatial_vector Vp = has_p ? body_qd[p] : spatial_vector{};
    const real* g = joint_f.size > 0 ? &joint_f[qd_start[j]] : nullptr;
    JointWrench w = eval_body_joint(JointType(type[j]), axes[j], fr, Vp, body_qd[c], g, ke, kd);
    on_p[j] = has_p ? w.on_parent : spatial_vector{};
    on_c[j] = w.on_child;
  }));
  // Each body adds its joints' wrenches in joint order, parent side before child side.
  const std::vector<int> parent_h = m.joint_parent.to_host(), child_h = m.joint_child.to_host();
  std::vector<int> sides(2 * parent_h.size());
  for (std::size_t j = 0; j < parent_h.size(); ++j) {
    sides[2 * j] = parent_h[j];
    sides[2 * j + 1] = child_h[j];
  }
  add_two_sided_wrenches(m.device, m.body_count, sides, on_p, on_c, wrench);
}

}  // namespace impulse
