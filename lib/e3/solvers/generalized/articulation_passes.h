// The passes of the generalized-coordinate dynamics (course E3 §6) that SolverFeatherstone and
// SolverGeneralizedIntegrator share: forward kinematics, the Jacobians, the joint-space mass matrix,
// the bias accelerations with the generalized force, the Cholesky factor with its one readback, and
// the joint-coordinate step. One item per articulation walks its joints in order (parents first,
// checked by finalize), so every body, every Jacobian row and every block of H belongs to exactly
// one item. Newton lays its Featherstone matrices out the same way (articulation_J_start /
// articulation_H_start offsets into flat J and H arrays, newton/_src/solvers/featherstone/
// solver_featherstone.py) and factors one articulation per thread (eval_dense_cholesky_batched).
#pragma once

#include <cstdint>
#include <vector>

#include "core/buffer.h"
#include "core/hd.h"
#include "e1/kinematics.h"
#include "e3/solvers/generalized/featherstone_terms.h"
#include "e1/model.h"

namespace impulse {

/// The joint-tree arrays of a Model the passes read, as views a kernel can capture.
struct JointTree {
  View<const int> start, type, parent, child, q_start, qd_start;
  View<const transform> X_p, X_c;
  View<const JointAxes> axes;
  View<const vec3> com;
  View<const mat33> inertia;
  View<const real> mass;
};

inline JointTree joint_tree_of(const Model& m) {
  return {m.articulation_start.view(), m.joint_type.view(), m.joint_parent.view(), m.joint_child.view(),
          m.joint_q_start.view(),      m.joint_qd_start.view(), m.joint_X_p.view(), m.joint_X_c.view(),
          m.joint_axes.view(),         m.body_com.view(),    m.body_inertia.view(), m.body_mass.view()};
}

/// A joint's parent as fk_joint reads it: the world (p = -1) is at rest at the identity.
IMPULSE_HD inline BodyState fk_parent_of(int p, View<const transform> X, View<const spatial_vector> V) {
  if (p < 0) return {transform_identity(), spatial_vector{}};
  return {X[p], V[p]};
}

/// Articulation a's share of the forward kinematics: X[c], V[c] of each joint's child from (q, qd),
/// parents first (the item of articulation_forward_kinematics).
IMPULSE_HD inline void articulation_fk_item(const JointTree& t, std::int64_t a, View<const real> q, View<const real> qd,
                                            View<transform> X, View<spatial_vector> V) {
  for (int j = t.start[a]; j < t.start[a + 1]; ++j) {
    const int p = t.parent[j], c = t.child[j];
    BodyState cs = fk_joint(fk_parent_of(p, X, V), p >= 0 ? t.com[p] : vec3{}, t.X_p[j], t.X_c[j], JointType(t.type[j]),
                            &q[t.q_start[j]], &qd[t.qd_start[j]], t.axes[j], t.com[c]);
    X[c] = cs.X;
    V[c] = cs.v;
  }
}

/// Articulation a's bias accelerations A0 (parents first) and its generalized force (course E3 §6)
///   tau_k = joint_f_k + sum_b J_b^T F_b,  F_b = generalized_force_wrench(W_b, ..., a0_b)   [N or N m]
/// into tau[0, n) (n = its DOF from d0), on the poses X and twists V of (q, qd). Ja: its J block
/// (row-major, 6 rows per joint); jf: joint_f, read when has_jf.
IMPULSE_HD inline void articulation_force_item(const JointTree& t, std::int64_t a, int d0, int n, View<const real> q,
                                               View<const real> qd, View<const transform> X,
                                               View<const spatial_vector> V, View<spatial_vector> A0, const real* Ja,
                                               View<const spatial_vector> W, View<const real> jf, bool has_jf, vec3 g,
                                               real* tau) {
  const int j0 = t.start[a];
  for (int j = j0; j < t.start[a + 1]; ++j) {
    const int p = t.parent[j], c = t.child[j];
    A0[c] = joint_bias_acceleration(fk_parent_of(p, X, V), p >= 0 ? t.com[p] : vec3{}, p >= 0 ? A0[p] : spatial_vector{},
                                    t.X_p[j], t.X_c[j], JointType(t.type[j]), &q[t.q_start[j]], &qd[t.qd_start[j]],
                                    t.axes[j], BodyState{X[c], V[c]}, t.com[c]);
  }
  for (int k = 0; k < n; ++k) tau[k] = has_jf ? jf[d0 + k] : real(0);
  for (int j = j0; j < t.start[a + 1] && n > 0; ++j) {
    const int b = t.child[j];
    const spatial_vector F =
        generalized_force_wrench(W[b], t.mass[b], world_inertia(X[b], t.inertia[b]), V[b].ang, A0[b], g);
    const real* Jb = Ja + std::int64_t(6 * (j - j0)) * n;
    for (int k = 0; k < n; ++k)
      tau[k] += Jb[0 * n + k] * F.lin.x + Jb[1 * n + k] * F.lin.y + Jb[2 * n + k] * F.lin.z +
                Jb[3 * n + k] * F.ang.x + Jb[4 * n + k] * F.ang.y + Jb[5 * n + k] * F.ang.z;
  }
}

/// The per-articulation layout and arrays of the passes, sized once from a Model on its device.
struct ArticulationArrays {
  ArticulationArrays() = default;
  /// Throws std::invalid_argument for a model generalized_layout rejects or a wrong armature.
  ArticulationArrays(const Model& m, std::vector<real> armature);

  int articulation_count = 0;
  // (articulation_count + 1) offsets: where articulation a's J (6 joints x DOF) and H (DOF x DOF) start.
  Buffer<std::int64_t> J_start, H_start;
  Buffer<int> dof_begin, dof_end;   // (articulation_count) DOF range [begin, end) of each
  Buffer<int> body_art, body_row;   // (body_count) articulation of each body (-1: none), first row in J_a
  Buffer<real> armature;            // (dof) [kg or kg m^2]
  Buffer<real> J;                   // per articulation, row-major: 6 rows per joint, its DOF as columns [m/s or rad/s per DOF]
  Buffer<real> H;                   // per articulation, row-major: H_a, or its Cholesky factor after factor_blocks
  Buffer<real> x;                   // (dof) generalized force tau [N or N m], then a solve's result
  Buffer<transform> X;              // (body_count) body poses of the last forward_kinematics
  Buffer<spatial_vector> V;         // (body_count) body twists of the last forward_kinematics
  Buffer<spatial_vector> unit_v;    // (body_count) twists of one Jacobian column's FK
  Buffer<spatial_vector> a0;        // (body_count) bias accelerations (a_C [m/s^2], alpha [rad/s^2])
  Buffer<int> spd_failed;           // (articulation_count) 1 where a factorization since clear_failures failed
  Buffer<std::int64_t> spd_offsets; // (articulation_count + 1) exclusive scan of spd_failed: the readback
};

/// X, V of every body from (q [m or rad per coordinate], qd) (fk_joint per joint, parents first).
/// Bodies moved by no joint stay at the identity, at rest (as the host reference).
void articulation_forward_kinematics(const Model& m, ArticulationArrays& A, View<const real> q, View<const real> qd);
/// J_a column k: the twist of every body of articulation a for qd = e_k, one FK walk per column on
/// the poses A.X of the last forward_kinematics (which must have read the same q).
void articulation_jacobians(const Model& m, ArticulationArrays& A, View<const real> q);
/// Part of E3.6-featherstone (tagged on GeneralizedDynamics::mass_matrix) (course E3 §6):
///   H_a = diag(armature_a) + sum_b J_b^T I_b J_b,  I_b = diag(m_b 1, R I_B R^T)   [kg, kg m^2]
void articulation_mass_matrix(const Model& m, ArticulationArrays& A);
/// The bias accelerations A.a0 (parents first) at (q, qd) and the generalized force (course E3 §6)
///   tau_a = joint_f_a + sum_b J_b^T F_b(W_b, a0_b)        into A.x   [N or N m]
/// W: world wrenches at each COM (body_count); joint_f: one value per DOF, or empty for zero.
/// Reads A.X, A.V and A.J of the same (q, qd).
void articulation_generalized_force(const Model& m, ArticulationArrays& A, View<const real> q, View<const real> qd,
                                    View<const spatial_vector> W, View<const real> joint_f);
/// Zeroes A.spd_failed (the failures one readback reports).
void clear_failures(const Model& m, ArticulationArrays& A);
/// H_a <- its Cholesky factor L, in place; an articulation whose H_a is not SPD sets spd_failed.
void factor_blocks(const Model& m, ArticulationArrays& A);
/// A.x <- H_a^-1 A.x per articulation, with the factor of factor_blocks.
void solve_blocks(const Model& m, ArticulationArrays& A);
/// A.spd_offsets <- the exclusive scan of A.spd_failed: its last entry, on the device, counts the
/// articulations flagged since clear_failures (for a readback that carries it).
void count_failures(const Model& m, ArticulationArrays& A);
/// Throws std::runtime_error naming the first flagged articulation (not_spd_message) when failed > 0.
void throw_if_failed(const ArticulationArrays& A, std::int64_t failed);
/// The step's one readback: count_failures, the count read, then throw_if_failed.
void throw_if_not_spd(const Model& m, ArticulationArrays& A);
/// q_out = q + h N(q) v per joint (E1's integrate_joint_coords), v [m/s or rad/s per DOF].
void articulation_integrate_coords(const Model& m, const ArticulationArrays& A, View<const real> q,
                                   View<const real> v, real h, View<real> q_out);

}  // namespace impulse
