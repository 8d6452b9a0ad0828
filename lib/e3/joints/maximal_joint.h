// Joints of the maximal-coordinate solvers of course E3 §6 (SolverSemiImplicit, SolverVBD, SolverPADMM).
//
// A body-coordinate solver integrates every body as a free rigid body, so a joint is not built into
// the coordinates (as in Featherstone) but held by forces between the parent's and the child's joint
// frames. The solvers read the same joint error here: SemiImplicit turns it into a penalty
// spring/damper (Newton semi_implicit/kernels_body.py eval_body_joints), VBD into an augmented-
// Lagrangian row of its block descent, PADMM into bilateral rows of its Delassus problem. Sign convention (Newton's): (f, t) is the wrench on the
// parent; the parent gets (f, t + r_p x f) and the child (-f, -(t + r_c x f)), so an error
// x_c - x_p pulls the child back towards the parent's anchor.
#pragma once

#include "core/math.h"
#include "core/spatial.h"
#include "e1/joints.h"
#include "e1/model.h"

namespace impulse {

/// Joint types a maximal-coordinate solver here attaches; FREE carries only its joint_f wrench.
IMPULSE_HD inline bool maximal_joint_supported(JointType t) {
  return t == JointType::revolute || t == JointType::ball || t == JointType::fixed || t == JointType::prismatic ||
         t == JointType::free;
}

/// Throws std::invalid_argument naming the solver, the first joint (index and label) whose type is
/// not maximal_joint_supported, and that type.
void require_maximal_joints(const Model& model, const char* solver);

/// World geometry of one joint: the two joint frames and the lever arms of their anchors.
struct JointFrames {
  transform X_wp;  // world pose of the parent joint frame (body_q[p] X_p; X_p itself for the world)
  transform X_wc;  // world pose of the child joint frame (body_q[c] X_c)
  vec3 r_p;        // [m] parent anchor minus the parent's world COM (0 for the world)
  vec3 r_c;        // [m] child anchor minus the child's world COM
};

/// Joint frames from the body poses; has_parent = false for a joint to the world (X_body_p and
/// com_p are then ignored). com_p / com_c [m] are in body coordinates.
IMPULSE_HD inline JointFrames joint_frames(bool has_parent, const transform& X_body_p, vec3 com_p,
                                           const transform& X_body_c, vec3 com_c, const transform& X_pj,
                                           const transform& X_cj) {
  JointFrames f;
  f.X_wp = has_parent ? transform_multiply(X_body_p, X_pj) : X_pj;
  f.X_wc = transform_multiply(X_body_c, X_cj);
  f.r_p = has_parent ? f.X_wp.p - transform_point(X_body_p, com_p) : vec3{};
  f.r_c = f.X_wc.p - transform_point(X_body_c, com_c);
  return f;
}

/// The constrained errors of one joint, world frame.
struct JointErrors {
  vec3 lin;     // [m] x_c - x_p; PRISMATIC: its component along the free axis removed
  vec3 ang;     // [rad] FIXED/PRISMATIC: rotation vector of the child frame relative to the parent
                // frame; REVOLUTE: the swing axis_p x axis_c (sin of the misalignment); BALL: 0
  vec3 axis_p;  // [-] world free axis of a REVOLUTE or PRISMATIC joint (parent frame), else 0
};

/// Joint errors of a REVOLUTE, BALL, FIXED or PRISMATIC joint (zero for any other type).
///   x_err = x_c - x_p;   PRISMATIC: x_err - (x_err . a_p) a_p
///   FIXED, PRISMATIC: ang = R_wp rotvec(q_wp^-1 q_wc);  REVOLUTE: ang = a_p x a_c;  BALL: ang = 0
/// a_p / a_c the joint axis carried by the parent / child frame into world.
IMPULSE_HD inline JointErrors joint_errors(JointType t, const JointAxes& axes, const JointFrames& f) {
  JointErrors e{vec3{}, vec3{}, vec3{}};
  if (t != JointType::revolute && t != JointType::ball && t != JointType::fixed && t != JointType::prismatic) return e;
  e.lin = f.X_wc.p - f.X_wp.p;
  if (t == JointType::prismatic) {
    e.axis_p = transform_vector(f.X_wp, axes.axis[0]);
    e.lin = e.lin - dot(e.lin, e.axis_p) * e.axis_p;
  }
  if (t == JointType::fixed || t == JointType::prismatic)
    e.ang = transform_vector(f.X_wp, quat_rotation_vector(quat_mul(quat_conjugate(f.X_wp.q), f.X_wc.q)));
  if (t == JointType::revolute) {
    e.axis_p = transform_vector(f.X_wp, axes.axis[0]);
    e.ang = cross(e.axis_p, transform_vector(f.X_wc, axes.axis[0]));
  }
  return e;
}

/// Newton scales the angular attachment damping down by this factor "for stability" (kernels_body.py).
constexpr real kJointAngularDampingScale = real(0.01);

/// Wrenches of one joint on its two bodies (world, about each COM).
struct JointWrench {
  spatial_vector on_parent{};  // (f [N], tau [N m]); dropped when the parent is the world
  spatial_vector on_child{};
};

/// Actuation of one joint from its control.joint_f entries g (the joint's dofs), as the wrench on
/// the parent (f, t) in the convention of this header:
///   REVOLUTE t = -g0 a_p;  PRISMATIC f = -g0 a_p;  BALL t = -sum_k g_k R_wp e_k;  FIXED none.
/// g [N m] or [N]. FREE is not handled here (its joint_f is a world wrench on the child COM).
IMPULSE_HD inline void joint_actuation(JointType t, const JointErrors& e, const JointFrames& f, const real* g,
                                       vec3& f_parent, vec3& t_parent) {
  if (t == JointType::revolute) t_parent -= g[0] * e.axis_p;
  if (t == JointType::prismatic) f_parent -= g[0] * e.axis_p;
  if (t == JointType::ball)
    for (int k = 0; k < 3; ++k) {
      vec3 ek{k == 0 ? real(1) : real(0), k == 1 ? real(1) : real(0), k == 2 ? real(1) : real(0)};
      t_parent -= g[k] * transform_vector(f.X_wp, ek);
    }
}

/// Distributes a wrench (f, t) on the parent in the convention of this header over both bodies:
/// parent (f, t + r_p x f), child (-f, -(t + r_c x f)).
IMPULSE_HD inline JointWrench joint_wrench_pair(const JointFrames& fr, vec3 f, vec3 t) {
  JointWrench w;
  w.on_parent = {f, t + cross(fr.r_p, f)};
  w.on_child = {-f, -(t + cross(fr.r_c, f))};
  return w;
}

/// The penalty joint of SolverSemiImplicit, one joint of eval_body_joints (course E3 §6, the
/// "joint" term of the single force assembly of E3.6-semiimplicit-single-pass):
///   v_err = (v_c + w_c x r_c) - (v_p + w_p x r_p),  w_err = w_c - w_p
///   f = ke x_err + kd P v_err                                  (P removes the PRISMATIC axis)
///   t = ke ang + 0.01 kd w_err'   (w_err' = w_err; REVOLUTE: minus its a_p part; BALL: t = 0)
///   plus joint_actuation(g); parent (f, t + r_p x f), child (-f, -(t + r_c x f))
/// ke [N/m] is also used as [N m/rad] on the angular error and kd [N s/m] as [N m s/rad] (Newton
/// reuses the two numbers); V_p / V_c twists (v at the COM [m/s], omega [rad/s]); V_p = 0 for
/// the world. g the joint's joint_f entries (may be null). Joint limits and target drives are not
/// modelled.
IMPULSE_HD inline JointWrench eval_body_joint(JointType t, const JointAxes& axes, const JointFrames& fr,
                                              const spatial_vector& V_p, const spatial_vector& V_c, const real* g,
                                              real ke, real kd) {
  if (!maximal_joint_supported(t) || t == JointType::free) return JointWrench{};
  JointErrors e = joint_errors(t, axes, fr);
  vec3 v_err = (V_c.lin + cross(V_c.ang, fr.r_c)) - (V_p.lin + cross(V_p.ang, fr.r_p));
  vec3 w_err = V_c.ang - V_p.ang;
  if (t == JointType::prismatic) v_err = v_err - dot(v_err, e.axis_p) * e.axis_p;
  if (t == JointType::revolute) w_err = w_err - dot(w_err, e.axis_p) * e.axis_p;
  if (t == JointType::ball) w_err = vec3{};
  vec3 f = ke * e.lin + kd * v_err;
  vec3 tq = ke * e.ang + (kJointAngularDampingScale * kd) * w_err;
  if (g) joint_actuation(t, e, fr, g, f, tq);
  return joint_wrench_pair(fr, f, tq);
}

}  // namespace impulse
