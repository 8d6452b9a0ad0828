// The unconstrained rigid-body prediction stage (course E1 §10), one body at a time.
//
// Velocities are world COM linear velocity and world angular velocity (body_qd); wrenches are world
// force and torque about the COM (body_f). Semi-implicit Euler: the new velocity moves the COM.
#pragma once

#include "core/spatial.h"
#include "e1/joints.h"
#include "e1/model.h"

namespace impulse {

/// @formula E1.10-linear-update E1.10-unit-check E3.4-predict-linear  Semi-implicit Euler for the COM (course E1 §10).
///   v_{n+1} = v_n + h (f_n / m + g)          [m/s]
///   c_{n+1} = c_n + h v_{n+1}                [m]
/// inv_mass [1/kg]; gravity g [m/s^2] is applied only when inv_mass > 0; f [N] world; h [s].
IMPULSE_HD inline void linear_update(vec3& v, vec3& c, vec3 f, real inv_mass, vec3 g, real h) {
  v = v + h * (inv_mass * f + (inv_mass > 0 ? g : vec3{}));
  c = c + h * v;
}

/// @formula E1.10-angular-update E3.4-predict-angular  Angular velocity with the gyroscopic term in the body frame (course E1 §10).
///   omega_B       = R^T omega_W
///   omega_tilde_W = R [ omega_B + h I_B^-1 ( R^T tau_W - omega_B x (I_B omega_B) ) ]     [rad/s]
/// R = R(q_n) (the orientation before the update); I_B [kg m^2] about the COM in body axes; tau_W [N m].
/// Returns the pre-damping omega_tilde_W.
IMPULSE_HD inline vec3 angular_update(quat q, vec3 omega_W, vec3 tau_W, const mat33& I_B, const mat33& I_B_inv, real h) {
  vec3 w_B = quat_rotate_inv(q, omega_W);
  vec3 t_B = quat_rotate_inv(q, tau_W) - cross(w_B, I_B * w_B);
  return quat_rotate(q, w_B + h * (I_B_inv * t_B));
}

/// @formula E1.10-quat-update  Orientation update with the world angular velocity on the left (course E1 §10).
///   q_{n+1} = normalize( q_n + (h/2) (omega_tilde_W, 0) (x) q_n )
/// (the quaternion block of E1.5-qdot-map, one explicit step, renormalised).
IMPULSE_HD inline quat quat_update(quat q, vec3 omega_tilde_W, real h) {
  quat d = quat_rate(q, omega_tilde_W);
  return quat_normalize({q.x + h * d.x, q.y + h * d.y, q.z + h * d.z, q.w + h * d.w});
}

/// The last line of E1.10-quat-update (tagged on quat_update): body origin from the new COM: p_{B,n+1} = c_{n+1} - R(q_{n+1}) c^B   [m].
IMPULSE_HD inline vec3 origin_from_com(vec3 c_W, quat q, vec3 c_B) { return c_W - quat_rotate(q, c_B); }

/// @formula E1.3-world-com  World COM of a body: c^W = p_WB + R_WB c^B   [m] (course E1 §3).
IMPULSE_HD inline vec3 world_com(const transform& body_q, vec3 c_B) { return transform_point(body_q, c_B); }

/// @formula E1.10-angular-damping-order E3.4-angular-damping  The output angular velocity is damped after the new
/// quaternion was computed from the undamped omega_tilde (course E1 §10):
///   omega_{n+1} = omega_tilde_W (1 - angular_damping h)        angular_damping [1/s]
IMPULSE_HD inline vec3 damp_angular(vec3 omega_tilde_W, real angular_damping, real h) {
  return (1 - angular_damping * h) * omega_tilde_W;
}

/// @formula E1.10-predictor-scope  integrate_rigid_body: one dynamic body through one step h [s]
/// (course E1 §10). Velocity first (linear_update, angular_update), then the COM, then the
/// quaternion (quat_update), the origin (origin_from_com) and last the damping (damp_angular).
/// Scope: the unconstrained prediction; kinematic bodies do not come here (integrate_body copies them).
IMPULSE_HD inline void integrate_rigid_body(const transform& q, const spatial_vector& qd, const spatial_vector& f,
                                            vec3 c_B, const mat33& I_B, const mat33& I_B_inv, real inv_mass,
                                            vec3 gravity, real angular_damping, real h, transform& q_out,
                                            spatial_vector& qd_out) {
  vec3 v = qd.lin;
  vec3 c = world_com(q, c_B);
  linear_update(v, c, f.lin, inv_mass, gravity, h);
  vec3 w = angular_update(q.q, qd.ang, f.ang, I_B, I_B_inv, h);
  quat r = quat_update(q.q, w, h);
  q_out = {origin_from_com(c, r, c_B), r};
  qd_out = {v, damp_angular(w, angular_damping, h)};
}

/// @formula E1.1-kinematic-semantics  Per-body step: a KINEMATIC body's pose and twist are copied to
/// the output unchanged (forces and gravity ignored); a dynamic body goes through integrate_rigid_body.
IMPULSE_HD inline void integrate_body(int flags, const transform& q, const spatial_vector& qd, const spatial_vector& f,
                                      vec3 c_B, const mat33& I_B, const mat33& I_B_inv, real inv_mass, vec3 gravity,
                                      real angular_damping, real h, transform& q_out, spatial_vector& qd_out) {
  if (flags & int(BodyFlag::kinematic)) {
    q_out = q;
    qd_out = qd;
    return;
  }
  integrate_rigid_body(q, qd, f, c_B, I_B, I_B_inv, inv_mass, gravity, angular_damping, h, q_out, qd_out);
}

/// Launches integrate_body over every body: state_out.body_q/qd from state_in and the wrenches.
void integrate_bodies(const Model& model, const State& state_in, View<const spatial_vector> wrench, State& state_out,
                      vec3 gravity, real angular_damping, real h);

/// Wrench per body = state.body_f + Control.joint_f of its FREE/DISTANCE parent joint (world force
/// and torque at the child COM, the course's §6 convention), written into out (body_count).
void gather_body_wrenches(const Model& model, const State& state, const Control& control, View<spatial_vector> out);

/// The §10 prediction as a solver: step(state_in, state_out, control, dt) advances every body by
/// dt without constraints. Gravity is cached from the model at construction: after
/// Model::set_gravity call notify_model_changed(). The caller keeps time; reset(state) is the base
/// reset and changes no state array. The Model must outlive the solver.
class SolverRigidPredictor {
 public:
  explicit SolverRigidPredictor(const Model& model, real angular_damping = 0);
  real angular_damping;  // [1/s]
  void step(const State& state_in, State& state_out, const Control& control, real dt);
  void notify_model_changed();
  void reset(State& state) const;
  vec3 gravity() const { return gravity_; }

 private:
  const Model* model_;
  vec3 gravity_;
  Buffer<spatial_vector> wrench_;
};

}  // namespace impulse
