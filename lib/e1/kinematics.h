// Forward and inverse kinematics of articulations (course E1 §2, §5, §6).
//
// eval_fk writes body poses and twists from joint coordinates; eval_ik rebuilds joint coordinates
// from body poses and twists. Neither advances time, and eval_fk does not copy the given q/qd into
// the State. Joints not in an articulation are skipped (they carry no generalised coordinates).
#pragma once

#include "core/buffer.h"
#include "core/spatial.h"
#include "e1/joints.h"
#include "e1/model.h"

namespace impulse {

/// Pose and twist of a body (body_q, body_qd conventions).
struct BodyState {
  transform X;       // world pose of the body origin
  spatial_vector v;  // (v_C [m/s], omega [rad/s]), world, v at the COM
};

/// @formula E1.2-joint-chain  Child pose and twist from the parent's and the joint's (course E1 §2, §6).
///   T_WC = T_WP T_{P,Jp} X_j(q) T_{C,Jc}^-1                 (source form X_wpj X_j inverse(X_cj))
///   v_C  = v_P + omega_P x (c_C - c_P) + R_wpj v_rel          [m/s], c_* world COMs
///   w_C  = omega_P + R_wpj omega_rel                         [rad/s]
/// (v_rel, omega_rel) = joint_twist: the joint velocity in the parent joint frame at the child COM.
/// parent: world (identity, zero twist, c_P = 0) when the joint's parent is -1.
IMPULSE_HD inline BodyState fk_joint(const BodyState& parent, vec3 parent_com_B, const transform& X_pj,
                                     const transform& X_cj, JointType t, const real* q, const real* qd,
                                     const JointAxes& ax, vec3 child_com_B) {
  transform X_wpj = transform_multiply(parent.X, X_pj);
  transform X_j = joint_transform(t, q, ax);
  BodyState c;
  c.X = transform_multiply(transform_multiply(X_wpj, X_j), transform_inverse(X_cj));
  vec3 c_pj = transform_point(X_j, transform_point(transform_inverse(X_cj), child_com_B));
  JointTwist tw = joint_twist(t, q, qd, ax, c_pj);
  vec3 c_P = transform_point(parent.X, parent_com_B), c_C = transform_point(c.X, child_com_B);
  c.v.lin = parent.v.lin + cross(parent.v.ang, c_C - c_P) + quat_rotate(X_wpj.q, tw.v);
  c.v.ang = parent.v.ang + quat_rotate(X_wpj.q, tw.omega);
  return c;
}

/// Inverse of fk_joint: joint coordinates q and velocities qd from the parent's and child's states.
IMPULSE_HD inline void ik_joint(const BodyState& parent, vec3 parent_com_B, const BodyState& child, vec3 child_com_B,
                                const transform& X_pj, const transform& X_cj, JointType t, const JointAxes& ax,
                                real* q, real* qd) {
  transform X_wpj = transform_multiply(parent.X, X_pj);
  transform X_j = transform_multiply(transform_inverse(X_wpj), transform_multiply(child.X, X_cj));
  joint_coords_from_transform(t, X_j, ax, q);
  vec3 c_P = transform_point(parent.X, parent_com_B), c_C = transform_point(child.X, child_com_B);
  vec3 c_pj = transform_point(transform_inverse(X_wpj), c_C);
  JointTwist tw;
  tw.omega = quat_rotate_inv(X_wpj.q, child.v.ang - parent.v.ang);
  tw.v = quat_rotate_inv(X_wpj.q, child.v.lin - parent.v.lin - cross(parent.v.ang, c_C - c_P));
  joint_speeds_from_twist(t, q, ax, tw, c_pj, qd);
}

/// Distance between a joint's two anchor origins in world [m]; a DISTANCE joint keeps it within
/// [joint_distance_min, joint_distance_max] under a constraint solver, although its layout is FREE's.
IMPULSE_HD inline real joint_anchor_distance(const transform& X_wp, const transform& X_pj, const transform& X_wc,
                                             const transform& X_cj) {
  return length(transform_multiply(X_wc, X_cj).p - transform_multiply(X_wp, X_pj).p);
}

/// eval_fk(model, joint_q, joint_qd, state): writes state.body_q / body_qd of every body moved by an
/// articulation from the given joint arrays (sizes joint_coord_count / joint_dof_count on the model's
/// device). state.joint_q / joint_qd are not touched. One thread per articulation.
void eval_fk(const Model& model, View<const real> joint_q, View<const real> joint_qd, State& state);

/// eval_ik(model, state, joint_q, joint_qd): rebuilds joint coordinates and velocities from
/// state.body_q / body_qd (not a target-IK planner).
void eval_ik(const Model& model, const State& state, View<real> joint_q, View<real> joint_qd);

}  // namespace impulse
