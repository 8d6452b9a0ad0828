// Reference-point changes of twists and wrenches on one rigid body (course E1 §6).
//
// All vectors are expressed in the same (world) orientation; only the reference point moves.
// The signs follow from the point definitions, not from Newton's conventions primer, which prints
// a plus sign on the torque shift (see E1.6-source-errata and chapters/e1/spatial.md).
#pragma once

#include "core/math.h"

namespace impulse {

/// @formula E1.6-ref-point-shift  Velocity of a new reference point on the same body.
///   v_new = v_old + omega x r,   r = p_new - p_old            [m/s]
/// Units: v [m/s], omega [rad/s], r [m].
IMPULSE_HD inline vec3 shift_velocity(vec3 v_old, vec3 omega, vec3 r) { return v_old + cross(omega, r); }

/// Torque about a new reference point of the same wrench: the torque half of E1.6-ref-point-shift,
/// whose tag is on shift_velocity.
///   tau_new = tau_old - r x f,   r = p_new - p_old            [N m]
/// Units: tau [N m], f [N], r [m].
IMPULSE_HD inline vec3 shift_torque(vec3 tau_old, vec3 f, vec3 r) { return tau_old - cross(r, f); }

/// @formula E1.6-moment-def  tau_O = (P - O) x f (course E1 §6).
/// Moment about O of a force f applied at P.
///   tau_O = (P - O) x f                                         [N m]
/// @param O [m] reference point
/// @param P [m] point of application
/// @param f [N] force
/// @return tau_O [N m] moment of f about O
IMPULSE_HD inline vec3 moment_about(vec3 O, vec3 P, vec3 f) { return cross(P - O, f); }

/// @formula E1.6-origin-velocity  v_B = v_C - omega x (R_WB c^B) (course E1 §6).
/// World velocity of the body origin from the COM twist.
///   r   = -R_WB c^B
///   v_B = v_C - omega x (R_WB c^B)                              [m/s]
/// Units: v_C [m/s] (world, at the COM), omega [rad/s] (world), c^B [m] (COM in body frame).
/// @param v_C [m/s] COM velocity (world)
/// @param omega [rad/s] angular velocity (world)
/// @param q [-] body orientation q_WB (x,y,z,w)
/// @param c_B [m] COM in body coordinates
/// @return v_B [m/s] velocity of the body origin (world)
IMPULSE_HD inline vec3 origin_velocity(vec3 v_C, vec3 omega, quat q, vec3 c_B) {
  return shift_velocity(v_C, omega, -quat_rotate(q, c_B));
}

/// @formula E1.6-wrench-from-point E3.8-wrench-transfer E3.8-mujoco-point-fix  COM torque of a force f applied at P with a couple tau_P.
///   tau_C = tau_P + (P - C) x f                                 [N m]
/// C is the world COM. Equivalent to shift_torque(tau_P, f, r = C - P).
IMPULSE_HD inline vec3 wrench_torque_at_com(vec3 tau_P, vec3 P, vec3 C, vec3 f) {
  return tau_P + moment_about(C, P, f);
}

}  // namespace impulse
