// Registration of the E1 items (course seed 003: model, coordinates, state and time).
#include "core/spatial.h"
#include "course/registry.h"
#include "e1/frames.h"
#include "e1/spatial_shift.h"

namespace impulse::course {

void register_e1_engine(Registry& r);  // lib/course/items_e1_engine.cpp

namespace {

Quantity in_vec(const char* name, const char* unit, const char* doc) { return {name, unit, 3, doc}; }
Quantity in_quat(const char* name, const char* doc) { return {name, "-", 4, doc}; }
Quantity in_scalar(const char* name, const char* unit, const char* doc) { return {name, unit, 1, doc}; }

void register_section2(Registry& r) {
  r.add({"E1.2-rigid-transform", "formula", "x^W = R_WB x^B + p_WB and T_WC = T_WB T_BC", "E1 §2",
         Status::implemented, "", "lib/core/math.h: transform_point, transform_multiply",
         {in_vec("p", "m", "body origin in world, p_WB"), in_quat("q", "body orientation q_WB (x,y,z,w), unit"),
          in_vec("x_B", "m", "point in body coordinates")},
         {{"x_W", "m", 3, "the point in world coordinates"}},
         [](const Values& v) {
           transform T{vector3(v, "p"), quaternion(v, "q")};
           return Values{{"x_W", as_values(transform_point(T, vector3(v, "x_B")))}};
         }});
  r.add({"E1.2-rotation-orthonormal", "formula", "R^T R = I and det R = +1 for R(q)", "E1 §2",
         Status::implemented, "", "lib/core/math.h: quat_to_mat33",
         {in_quat("q", "unit quaternion (x,y,z,w)")},
         {{"det_R", "-", 1, "determinant of R(q)"},
          {"orthogonality_error", "-", 1, "max |(R^T R - I)_ij|"}},
         [](const Values& v) {
           mat33 R = quat_to_mat33(quaternion(v, "q"));
           mat33 E = transpose(R) * R;
           double err = 0;
           for (int i = 0; i < 3; ++i)
             for (int j = 0; j < 3; ++j) err = std::max(err, std::abs(E.m[i][j] - (i == j ? 1.0 : 0.0)));
           return Values{{"det_R", {determinant(R)}}, {"orthogonality_error", {err}}};
         }});
  r.add({"E1.2-point-vs-vector", "rule", "vectors are only rotated; points are rotated and translated", "E1 §2",
         Status::implemented, "", "lib/core/math.h: transform_vector, transform_point",
         {in_vec("p", "m", "body origin in world"), in_quat("q", "body orientation (x,y,z,w)"),
          in_vec("u_B", "-", "the same three numbers read as a point [m] and as a free vector")},
         {{"point_W", "m", 3, "R u + p"}, {"vector_W", "-", 3, "R u"}},
         [](const Values& v) {
           transform T{vector3(v, "p"), quaternion(v, "q")};
           vec3 u = vector3(v, "u_B");
           return Values{{"point_W", as_values(transform_point(T, u))}, {"vector_W", as_values(transform_vector(T, u))}};
         }});
  r.add({"E1.2-shape-compose", "rule", "shape world pose = body pose composed with the shape's local xform", "E1 §2",
         Status::implemented, "", "lib/e1/frames.h: shape_world_transform",
         {in_vec("body_p", "m", "body origin in world"), in_quat("body_q", "body orientation (x,y,z,w)"),
          in_vec("shape_p", "m", "shape origin in body coordinates"), in_quat("shape_q", "shape orientation in the body")},
         {{"world_p", "m", 3, "shape origin in world"}, {"world_q", "-", 4, "shape orientation in world"}},
         [](const Values& v) {
           transform X = shape_world_transform({vector3(v, "body_p"), quaternion(v, "body_q")},
                                               {vector3(v, "shape_p"), quaternion(v, "shape_q")});
           return Values{{"world_p", as_values(X.p)}, {"world_q", as_values(X.q)}};
         }});
  r.add({"E1.2-quat-xyzw", "rule", "quaternions are (x, y, z, w), scalar last, unit; q and -q are one rotation", "E1 §2",
         Status::implemented, "", "lib/core/math.h: quat, quat_rotate",
         {in_quat("q", "quaternion (x,y,z,w)"), in_vec("v", "-", "a vector to rotate")},
         {{"norm", "-", 1, "|q|"}, {"R_q_v", "-", 3, "rotation of v by q"}, {"R_minus_q_v", "-", 3, "rotation of v by -q"}},
         [](const Values& v) {
           quat q = quaternion(v, "q");
           vec3 x = vector3(v, "v");
           return Values{{"norm", {quat_norm(q)}},
                         {"R_q_v", as_values(quat_rotate(q, x))},
                         {"R_minus_q_v", as_values(quat_rotate(quat_negate(q), x))}};
         }});
  r.add({"E1.2-axis-angle", "formula", "q = (a_hat sin(theta/2), cos(theta/2))", "E1 §2", Status::implemented, "",
         "lib/core/math.h: quat_from_axis_angle",
         {in_vec("axis", "-", "rotation axis (normalised)"), in_scalar("theta", "rad", "rotation angle")},
         {{"q", "-", 4, "unit quaternion (x,y,z,w)"}},
         [](const Values& v) {
           return Values{{"q", as_values(quat_from_axis_angle(vector3(v, "axis"), scalar(v, "theta")))}};
         }});
}

void register_section6(Registry& r) {
  r.add({"E1.6-linear-first", "rule", "Newton arrays are linear-first; reorder explicitly for angular-first helpers",
         "E1 §6", Status::implemented, "", "lib/core/spatial.h: to_angular_first, to_linear_first",
         {in_vec("lin", "m/s", "linear part (v or f)"), in_vec("ang", "rad/s", "angular part (omega or tau)")},
         {{"first", "rad/s", 3, "first three numbers in angular-first order"},
          {"second", "m/s", 3, "last three numbers in angular-first order"}},
         [](const Values& v) {
           spatial_vector_angular_first a = to_angular_first({vector3(v, "lin"), vector3(v, "ang")});
           return Values{{"first", as_values(a.ang)}, {"second", as_values(a.lin)}};
         }});
  r.add({"E1.6-ref-point-shift", "formula", "v_new = v_old + omega x r, tau_new = tau_old - r x f, r = p_new - p_old",
         "E1 §6", Status::implemented, "", "lib/e1/spatial_shift.h: shift_velocity, shift_torque",
         {in_vec("v", "m/s", "velocity of the old reference point"), in_vec("omega", "rad/s", "angular velocity"),
          in_vec("tau", "N m", "torque about the old reference point"), in_vec("f", "N", "force"),
          in_vec("r", "m", "p_new - p_old")},
         {{"v_new", "m/s", 3, "velocity of the new reference point"},
          {"tau_new", "N m", 3, "torque about the new reference point"}},
         [](const Values& v) {
           vec3 r_ = vector3(v, "r");
           return Values{{"v_new", as_values(shift_velocity(vector3(v, "v"), vector3(v, "omega"), r_))},
                         {"tau_new", as_values(shift_torque(vector3(v, "tau"), vector3(v, "f"), r_))}};
         }});
  r.add({"E1.6-moment-def", "formula", "tau_O = (P - O) x f", "E1 §6", Status::implemented, "",
         "lib/e1/spatial_shift.h: moment_about",
         {in_vec("O", "m", "reference point"), in_vec("P", "m", "point of application"), in_vec("f", "N", "force")},
         {{"tau_O", "N m", 3, "moment of f about O"}},
         [](const Values& v) {
           return Values{{"tau_O", as_values(moment_about(vector3(v, "O"), vector3(v, "P"), vector3(v, "f")))}};
         }});
  r.add({"E1.6-origin-velocity", "formula", "v_B = v_C - omega x (R_WB c^B)", "E1 §6", Status::implemented, "",
         "lib/e1/spatial_shift.h: origin_velocity",
         {in_vec("v_C", "m/s", "COM velocity (world)"), in_vec("omega", "rad/s", "angular velocity (world)"),
          in_quat("q", "body orientation q_WB (x,y,z,w)"), in_vec("c_B", "m", "COM in body coordinates")},
         {{"v_B", "m/s", 3, "velocity of the body origin (world)"}},
         [](const Values& v) {
           return Values{{"v_B", as_values(origin_velocity(vector3(v, "v_C"), vector3(v, "omega"),
                                                           quaternion(v, "q"), vector3(v, "c_B")))}};
         }});
  r.add({"E1.6-wrench-from-point", "formula", "tau_C = tau_P + (P - C) x f", "E1 §6", Status::implemented, "",
         "lib/e1/spatial_shift.h: wrench_torque_at_com",
         {in_vec("tau_P", "N m", "couple about the point of application"), in_vec("P", "m", "point of application"),
          in_vec("C", "m", "world COM"), in_vec("f", "N", "force")},
         {{"tau_C", "N m", 3, "torque about the COM"}},
         [](const Values& v) {
           return Values{{"tau_C", as_values(wrench_torque_at_com(vector3(v, "tau_P"), vector3(v, "P"),
                                                                  vector3(v, "C"), vector3(v, "f")))}};
         }});
  r.add({"E1.6-torque-example", "example", "force (0,10,0) N at (0.2,0,0) m: torque (0,0,2) N m about the COM, 0 about P",
         "E1 §6", Status::implemented, "", "lib/e1/spatial_shift.h: moment_about, shift_torque",
         {in_vec("f", "N", "force"), in_vec("P", "m", "point of application"), in_vec("C", "m", "COM")},
         {{"tau_C", "N m", 3, "torque about the COM"}, {"tau_P", "N m", 3, "the same wrench's torque about P"}},
         [](const Values& v) {
           vec3 f = vector3(v, "f"), P = vector3(v, "P"), C = vector3(v, "C");
           vec3 tau_C = moment_about(C, P, f);
           return Values{{"tau_C", as_values(tau_C)}, {"tau_P", as_values(shift_torque(tau_C, f, P - C))}};
         }});
}

void register_exercises(Registry& r) {
  r.add({"E1.11-ex3", "exercise", "velocity of the body origin when the COM is at rest and the body spins", "E1 §11",
         Status::implemented, "", "exercises/e1/E1.11-ex3.toml (key: E1.6-origin-velocity)", {}, {}, {}});
}

}  // namespace

void register_e1(Registry& r) {
  register_section2(r);
  register_section6(r);
  register_exercises(r);
  register_e1_engine(r);
}

}  // namespace impulse::course
