// The per-joint and per-body terms of the generalized-coordinate dynamics (course E3 §6), on plain
// data so that the host reference (GeneralizedDynamics) and the device passes of SolverFeatherstone
// call the same functions. Conventions are E1's: body twists (v at the COM, omega) in world.
#pragma once

#include "core/hd.h"
#include "core/spatial.h"
#include "e1/integrator.h"
#include "e1/joints.h"
#include "e1/kinematics.h"

namespace impulse {

/// R I_B R^T: a body's inertia about its COM in world axes [kg m^2].
IMPULSE_HD inline mat33 world_inertia(const transform& X, const mat33& I_B) {
  mat33 R = quat_to_mat33(X.q);
  return R * I_B * transpose(R);
}

/// Velocity-product (bias) acceleration of a joint's child with qdd = 0, from its parent's:
///   a_C     = a_P + alpha_P x (c_C - c_P) + omega_P x (v_C - v_P) + omega_P x R v_rel + R dv_rel
///   alpha_C = alpha_P + omega_P x R omega_rel
/// R = rotation of the parent joint frame in world, (v_rel, omega_rel) = joint_twist, and
/// dv_rel = omega_rel x (omega_rel x c_pj) for REVOLUTE and BALL (the lever c_pj turns with the joint).
/// parent: world (identity, at rest, c_P = 0, a_P = 0) when the joint's parent is -1.
/// Returns (a_C [m/s^2], alpha_C [rad/s^2]).
IMPULSE_HD inline spatial_vector joint_bias_acceleration(const BodyState& parent, vec3 parent_com_B,
                                                         const spatial_vector& parent_a0, const transform& X_pj,
                                                         const transform& X_cj, JointType t, const real* q,
                                                         const real* qd, const JointAxes& ax, const BodyState& child,
                                                         vec3 child_com_B) {
  const vec3 v_P = parent.v.lin, w_P = parent.v.ang, c_P = world_com(parent.X, parent_com_B);
  transform X_wpj = transform_multiply(parent.X, X_pj);
  vec3 c_pj = transform_point(joint_transform(t, q, ax), transform_point(transform_inverse(X_cj), child_com_B));
  JointTwist tw = joint_twist(t, q, qd, ax, c_pj);
  vec3 dv_rel = (t == JointType::revolute || t == JointType::ball) ? cross(tw.omega, cross(tw.omega, c_pj)) : vec3{};
  vec3 c_C = world_com(child.X, child_com_B);
  spatial_vector a;
  a.lin = parent_a0.lin + cross(parent_a0.ang, c_C - c_P) + cross(w_P, child.v.lin - v_P) +
          cross(w_P, quat_rotate(X_wpj.q, tw.v)) + quat_rotate(X_wpj.q, dv_rel);
  a.ang = parent_a0.ang + cross(w_P, quat_rotate(X_wpj.q, tw.omega));
  return a;
}

/// The wrench a body contributes to the generalized force, tau += J_b^T F_b (course E3 §6):
///   F_b = ( f_b + m_b g - m_b a0_b ,  tau_b - I_b alpha0_b - omega_b x I_b omega_b )   [N, N m]
/// body_f = (f_b, tau_b): world wrench at the COM; I_w: world inertia; a0: bias acceleration.
IMPULSE_HD inline spatial_vector generalized_force_wrench(const spatial_vector& body_f, real mass, const mat33& I_w,
                                                          vec3 omega, const spatial_vector& a0, vec3 g) {
  return {body_f.lin + mass * g - mass * a0.lin, body_f.ang - I_w * a0.ang - cross(omega, I_w * omega)};
}

/// Newton-Euler residual of one body, the wrench its parent joint must supply before its children's:
///   W_b = ( m a_b - f_b - m g ,  I_w alpha_b + omega x I_w omega - tau_b ),  a_b = J_b qdd + a0_b
IMPULSE_HD inline spatial_vector body_newton_euler_residual(const spatial_vector& body_f, real mass, const mat33& I_w,
                                                            vec3 omega, vec3 lin, vec3 ang, vec3 g) {
  return {mass * lin - body_f.lin - mass * g, I_w * ang + cross(omega, I_w * omega) - body_f.ang};
}

}  // namespace impulse
