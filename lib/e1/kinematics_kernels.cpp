// Launch sites of eval_fk / eval_ik: one thread per articulation walks its joints in order (parents
// before children, checked by finalize), so each body is written once and read after it is written.
#include "core/parallel_for.h"
#include "e1/kinematics.h"

#include <stdexcept>
#include <string>

namespace impulse {

namespace {

void check_sizes(const Model& m, std::int64_t nq, std::int64_t nd, const State& s, const char* who) {
  if (nq != m.joint_coord_count || nd != m.joint_dof_count)
    throw std::invalid_argument(std::string(who) + ": joint_q has " + std::to_string(nq) + " and joint_qd " +
                                std::to_string(nd) + " entries; the model has " + std::to_string(m.joint_coord_count) +
                                " coordinates and " + std::to_string(m.joint_dof_count) + " DOF");
  if (s.body_q.size() != m.body_count || s.body_qd.size() != m.body_count)
    throw std::invalid_argument(std::string(who) + ": the State's body arrays do not match the model's body_count");
  if (s.body_q.device() != m.device || s.body_qd.device() != m.device)
    throw std::invalid_argument(std::string(who) + ": the State lives on " + device_name(s.body_q.device()) +
                                ", the model on " + device_name(m.device));
}

// The joint-tree arrays both walks read, as views a kernel can capture.
struct JointTree {
  View<const int> start, type, parent, child, q_start, qd_start;
  View<const transform> X_p, X_c;
  View<const JointAxes> axes;
  View<const vec3> com;
};

JointTree joint_tree(const Model& m) {
  return {m.articulation_start.view(), m.joint_type.view(),    m.joint_parent.view(), m.joint_child.view(),
          m.joint_q_start.view(),      m.joint_qd_start.view(), m.joint_X_p.view(),    m.joint_X_c.view(),
          m.joint_axes.view(),         m.body_com.view()};
}

// Pose and twist of a joint's parent body; the world (p = -1) is at rest at the identity.
IMPULSE_HD inline BodyState parent_state(int p, View<const transform> body_q, View<const spatial_vector> body_qd) {
  if (p < 0) return {transform_identity(), spatial_vector{}};
  return {body_q[p], body_qd[p]};
}

}  // namespace

void eval_fk(const Model& m, View<const real> joint_q, View<const real> joint_qd, State& state) {
  check_sizes(m, joint_q.size, joint_qd.size, state, "eval_fk");
  const JointTree t = joint_tree(m);
  auto body_q = state.body_q.view();
  auto body_qd = state.body_qd.view();
  parallel_for(m.device, m.articulation_count, IMPULSE_KERNEL((std::int64_t a), {
    for (int j = t.start[a]; j < t.start[a + 1]; ++j) {
      int p = t.parent[j], c = t.child[j];
      const BodyState ps = parent_state(p, body_q, body_qd);
      const vec3 pcom = p >= 0 ? t.com[p] : vec3{};
      BodyState cs = fk_joint(ps, pcom, t.X_p[j], t.X_c[j], JointType(t.type[j]), &joint_q[t.q_start[j]],
                              &joint_qd[t.qd_start[j]], t.axes[j], t.com[c]);
      body_q[c] = cs.X;
      body_qd[c] = cs.v;
    }
  }));
}

void eval_ik(const Model& m, const State& state, View<real> joint_q, View<real> joint_qd) {
  check_sizes(m, joint_q.size, joint_qd.size, state, "eval_ik");
  const JointTree t = joint_tree(m);
  auto body_q = state.body_q.view();
  auto body_qd = state.body_qd.view();
  parallel_for(m.device, m.articulation_count, IMPULSE_KERNEL((std::int64_t a), {
    for (int j = t.start[a]; j < t.start[a + 1]; ++j) {
      int p = t.parent[j], c = t.child[j];
      const BodyState ps = parent_state(p, body_q, body_qd);
      const vec3 pcom = p >= 0 ? t.com[p] : vec3{};
      ik_joint(ps, pcom, {body_q[c], body_qd[c]}, t.com[c], t.X_p[j], t.X_c[j], JointType(t.type[j]), t.axes[j],
               &joint_q[t.q_start[j]], &joint_qd[t.qd_start[j]]);
    }
  }));
}

}  // namespace impulse
