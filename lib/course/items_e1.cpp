// Registration of the E1 items (course seed 003: model, coordinates, state and time).
#include "core/spatial.h"
#include "course/formula_call.h"
#include "course/registry.h"
#include "e1/frames.h"
#include "e1/spatial_shift.h"

namespace impulse::course {

void register_e1_engine(Registry& r);  // lib/course/items_e1_engine.cpp

namespace {

void register_section2(Registry& r) {
  r.add(formula("E1.2-rigid-transform", "x^W = R_WB x^B + p_WB and T_WC = T_WB T_BC", "E1 §2", "lib/core/math.h: transform_point, transform_multiply",
         {vector_q("p", "m", "body origin in world, p_WB"), quat_q("q", "body orientation q_WB (x,y,z,w), unit"),
          vector_q("x_B", "m", "point in body coordinates")},
         {vector_q("x_W", "m", "the point in world coordinates")},
         [](const Values& v) {
           transform T{vector3(v, "p"), quaternion(v, "q")};
           return Values{{"x_W", as_values(transform_point(T, vector3(v, "x_B")))}};
         }));
  r.add(formula("E1.2-rotation-orthonormal", "R^T R = I and det R = +1 for R(q)", "E1 §2", "lib/core/math.h: quat_to_mat33",
         {quat_q("q", "unit quaternion (x,y,z,w)")},
         {scalar_q("det_R", "-", "determinant of R(q)"),
          scalar_q("orthogonality_error", "-", "max |(R^T R - I)_ij|")},
         [](const Values& v) {
           mat33 R = quat_to_mat33(quaternion(v, "q"));
           mat33 E = transpose(R) * R;
           double err = 0;
           for (int i = 0; i < 3; ++i)
             for (int j = 0; j < 3; ++j) err = std::max(err, std::abs(E.m[i][j] - (i == j ? 1.0 : 0.0)));
           return Values{{"det_R", {determinant(R)}}, {"orthogonality_error", {err}}};
         }));
  r.add(item("E1.2-point-vs-vector", "rule", "vectors are only rotated; points are rotated and translated", "E1 §2", "lib/core/math.h: transform_vector, transform_point",
         {vector_q("p", "m", "body origin in world"), quat_q("q", "body orientation (x,y,z,w)"),
          vector_q("u_B", "-", "the same three numbers read as a point [m] and as a free vector")},
         {vector_q("point_W", "m", "R u + p"), vector_q("vector_W", "-", "R u")},
         [](const Values& v) {
           transform T{vector3(v, "p"), quaternion(v, "q")};
           vec3 u = vector3(v, "u_B");
           return Values{{"point_W", as_values(transform_point(T, u))}, {"vector_W", as_values(transform_vector(T, u))}};
         }));
  r.add(item("E1.2-shape-compose", "rule", "shape world pose = body pose composed with the shape's local xform", "E1 §2", "lib/e1/frames.h: shape_world_transform",
         {vector_q("body_p", "m", "body origin in world"), quat_q("body_q", "body orientation (x,y,z,w)"),
          vector_q("shape_p", "m", "shape origin in body coordinates"), quat_q("shape_q", "shape orientation in the body")},
         {vector_q("world_p", "m", "shape origin in world"), quat_q("world_q", "shape orientation in world")},
         [](const Values& v) {
           transform X = shape_world_transform({vector3(v, "body_p"), quaternion(v, "body_q")},
                                               {vector3(v, "shape_p"), quaternion(v, "shape_q")});
           return Values{{"world_p", as_values(X.p)}, {"world_q", as_values(X.q)}};
         }));
  r.add(item("E1.2-quat-xyzw", "rule", "quaternions are (x, y, z, w), scalar last, unit; q and -q are one rotation", "E1 §2", "lib/core/math.h: quat, quat_rotate",
         {quat_q("q", "quaternion (x,y,z,w)"), vector_q("v", "-", "a vector to rotate")},
         {scalar_q("norm", "-", "|q|"), vector_q("R_q_v", "-", "rotation of v by q"), vector_q("R_minus_q_v", "-", "rotation of v by -q")},
         [](const Values& v) {
           quat q = quaternion(v, "q");
           vec3 x = vector3(v, "v");
           return Values{{"norm", {quat_norm(q)}},
                         {"R_q_v", as_values(quat_rotate(q, x))},
                         {"R_minus_q_v", as_values(quat_rotate(quat_negate(q), x))}};
         }));
}

void register_section6(Registry& r) {
  r.add(item("E1.6-linear-first", "rule", "Newton arrays are linear-first; reorder explicitly for angular-first helpers",
         "E1 §6", "lib/core/spatial.h: to_angular_first, to_linear_first",
         {vector_q("lin", "m/s", "linear part (v or f)"), vector_q("ang", "rad/s", "angular part (omega or tau)")},
         {vector_q("first", "rad/s", "first three numbers in angular-first order"),
          vector_q("second", "m/s", "last three numbers in angular-first order")},
         [](const Values& v) {
           spatial_vector_angular_first a = to_angular_first({vector3(v, "lin"), vector3(v, "ang")});
           return Values{{"first", as_values(a.ang)}, {"second", as_values(a.lin)}};
         }));
  r.add(formula("E1.6-ref-point-shift", "v_new = v_old + omega x r, tau_new = tau_old - r x f, r = p_new - p_old",
         "E1 §6", "lib/e1/spatial_shift.h: shift_velocity, shift_torque",
         {vector_q("v", "m/s", "velocity of the old reference point"), vector_q("omega", "rad/s", "angular velocity"),
          vector_q("tau", "N m", "torque about the old reference point"), vector_q("f", "N", "force"),
          vector_q("r", "m", "p_new - p_old")},
         {vector_q("v_new", "m/s", "velocity of the new reference point"),
          vector_q("tau_new", "N m", "torque about the new reference point")},
         [](const Values& v) {
           vec3 r_ = vector3(v, "r");
           return Values{{"v_new", as_values(shift_velocity(vector3(v, "v"), vector3(v, "omega"), r_))},
                         {"tau_new", as_values(shift_torque(vector3(v, "tau"), vector3(v, "f"), r_))}};
         }));
  r.add(formula("E1.6-wrench-from-point", "tau_C = tau_P + (P - C) x f", "E1 §6",
         "lib/e1/spatial_shift.h: wrench_torque_at_com",
         {vector_q("tau_P", "N m", "couple about the point of application"), vector_q("P", "m", "point of application"),
          vector_q("C", "m", "world COM"), vector_q("f", "N", "force")},
         {vector_q("tau_C", "N m", "torque about the COM")},
         [](const Values& v) {
           return Values{{"tau_C", as_values(wrench_torque_at_com(vector3(v, "tau_P"), vector3(v, "P"),
                                                                  vector3(v, "C"), vector3(v, "f")))}};
         }));
  r.add(item("E1.6-torque-example", "example", "force (0,10,0) N at (0.2,0,0) m: torque (0,0,2) N m about the COM, 0 about P",
         "E1 §6", "lib/e1/spatial_shift.h: moment_about, shift_torque",
         {vector_q("f", "N", "force"), vector_q("P", "m", "point of application"), vector_q("C", "m", "COM")},
         {vector_q("tau_C", "N m", "torque about the COM"), vector_q("tau_P", "N m", "the same wrench's torque about P")},
         [](const Values& v) {
           vec3 f = vector3(v, "f"), P = vector3(v, "P"), C = vector3(v, "C");
           vec3 tau_C = moment_about(C, P, f);
           return Values{{"tau_C", as_values(tau_C)}, {"tau_P", as_values(shift_torque(tau_C, f, P - C))}};
         }));
}

void register_exercises(Registry& r) {
  r.add(rule("E1.11-ex3", "exercise", "velocity of the body origin when the COM is at rest and the body spins", "E1 §11", "exercises/e1/E1.11-ex3.toml (key: E1.6-origin-velocity)"));
}

}  // namespace

void register_e1(Registry& r) {
  register_section2(r);
  register_section6(r);
  register_exercises(r);
  register_e1_engine(r);
}

}  // namespace impulse::course
