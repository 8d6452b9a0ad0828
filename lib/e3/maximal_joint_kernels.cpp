// Launch site of eval_body_joint over the joints of a Model (course E3 §6).
#include "e3/maximal_joint_kernels.h"

#include <stdexcept>
#include <vector>

#include "core/parallel_for.h"
#include "core/segments.h"
#include "e3/maximal_joint.h"

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
  parallel_for(m.device, m.joint_count, IMPULSE_LAMBDA(std::int64_t j) {
    int p = parent[j], c = child[j];
    bool has_p = p >= 0;
    transform Xp = has_p ? body_q[p] : transform_identity();
    JointFrames fr = joint_frames(has_p, Xp, has_p ? com[p] : vec3{}, body_q[c], com[c], X_p[j], X_c[j]);
    spatial_vector Vp = has_p ? body_qd[p] : spatial_vector{};
    const real* g = joint_f.size > 0 ? &joint_f[qd_start[j]] : nullptr;
    JointWrench w = eval_body_joint(JointType(type[j]), axes[j], fr, Vp, body_qd[c], g, ke, kd);
    on_p[j] = has_p ? w.on_parent : spatial_vector{};
    on_c[j] = w.on_child;
  });
  // Each body sums its joints' wrenches in joint order (parent side before child side of a joint)
  // through a body-grouped index, entry = 2 * joint + side: O(bodies + joints).
  const std::vector<int> parent_h = m.joint_parent.to_host(), child_h = m.joint_child.to_host();
  std::vector<int> sides(2 * parent_h.size());
  for (std::size_t j = 0; j < parent_h.size(); ++j) {
    sides[2 * j] = parent_h[j];
    sides[2 * j + 1] = child_h[j];
  }
  std::vector<std::int64_t> start_h, entry_h;
  build_segments(m.body_count, sides, start_h, entry_h);
  Buffer<std::int64_t> start(m.device, start_h), entry(m.device, entry_h);
  auto st = start.view();
  auto en = entry.view();
  parallel_for(m.device, m.body_count, IMPULSE_LAMBDA(std::int64_t b) {
    spatial_vector acc = wrench[b];
    for (std::int64_t k = st[b]; k < st[b + 1]; ++k) {
      const std::int64_t e = en[k];
      const spatial_vector& w = (e & 1) ? on_c[e >> 1] : on_p[e >> 1];
      acc.lin += w.lin;
      acc.ang += w.ang;
    }
    wrench[b] = acc;
  });
}

}  // namespace impulse
