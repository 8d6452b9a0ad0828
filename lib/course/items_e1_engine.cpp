// Registration of the E1 items implemented by the engine (model, mass, joints, FK/IK, time loop,
// integrator, importers) and the E1 exercises other than ex3 (course seed 003).
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "course/formula_call.h"
#include "course/registry.h"
#include "e1/integrator.h"
#include "e1/importers.h"
#include "e1/joints.h"
#include "e1/kinematics.h"
#include "e1/mass.h"
#include "e1/model.h"
#include "e1/time_loop.h"

namespace impulse::course {

namespace {

std::vector<double> diag(const mat33& I) { return {I.m[0][0], I.m[1][1], I.m[2][2]}; }
std::vector<double> offdiag(const mat33& I) { return {I.m[0][1], I.m[0][2], I.m[1][2]}; }

int count(const Values& v, const char* name) {
  double x = scalar(v, name);
  if (x < 0 || x != std::floor(x) || x > 1000)
    throw std::invalid_argument(std::string("input --") + name + " must be a whole number in [0, 1000]");
  return int(x);
}

// A body made of one box through the builder (the engine's path): mass, COM and inertia.
MassProperties builder_box(vec3 h, real density, vec3 offset) {
  ModelBuilder b;
  int body = b.add_body();
  ShapeConfig cfg;
  cfg.density = density;
  b.add_shape_box(body, {offset, quat_identity()}, h.x, h.y, h.z, cfg);
  Model m = b.finalize();
  return {m.body_mass.to_host()[0], m.body_com.to_host()[0], m.body_inertia.to_host()[0]};
}

void register_section1(Registry& r) {
  const char* s = "E1 §1";
  r.add(rule("E1.1-builder-finalize", "rule", "finalize(device) validates, lays out indices and copies the model to the device", s,
       "lib/e1/model.cpp: ModelBuilder::finalize"));
  r.add(rule("E1.1-builder-model-decoupled", "rule", "editing the builder does not change a finalized Model", s,
       "lib/e1/model.cpp: ModelBuilder::finalize"));
  r.add(rule("E1.1-param-update-notify", "rule", "after Model::set_gravity the solver must be notified", s,
       "lib/e1/integrator.h: SolverRigidPredictor::notify_model_changed"));
  r.add(rule("E1.1-ownership-table", "table", "who owns what: builder, Model, State, Control, Solver", s, "lib/e1/model.h"));
  r.add(rule("E1.1-state-clone", "rule", "model.state() copies the model's initial values", s, "lib/e1/model.cpp: Model::state"));
  r.add(rule("E1.1-state-no-clock", "rule", "State has no clock; the caller keeps time", s, "lib/e1/model.h: State"));
  r.add(rule("E1.1-control-clone", "rule", "model.control() clones; clone_variables=false refers to the model's arrays", s,
       "lib/e1/model.cpp: Model::control"));
  r.add(rule("E1.1-solver-step", "rule", "step(state_in, state_out, control, dt) with distinct states", s,
       "lib/e1/integrator.h: SolverRigidPredictor::step"));
  r.add(rule("E1.1-add-body-composite", "rule", "add_body = one link + one FREE joint to world + one articulation", s,
       "lib/e1/model.cpp: ModelBuilder::add_body"));
  r.add(rule("E1.1-id-spaces", "rule", "body, shape, joint IDs and coordinate starts are separate numbering spaces", s,
       "lib/e1/model.h: ModelBuilder, Model::joint_q_start"));
  r.add(rule("E1.1-shape-xform-relative", "rule", "a shape's xform is relative to its body", s,
       "lib/e1/frames.h: shape_world_transform"));
  r.add(rule("E1.1-static-shape", "rule", "a shape with body = -1 is static world geometry with no mass", s,
       "lib/e1/model.cpp: ModelBuilder::add_shape"));
  r.add(rule("E1.1-box-half-extents", "rule", "add_shape_box takes half extents", s, "lib/e1/model.cpp: add_shape_box"));
  r.add(rule("E1.1-multi-shape", "rule", "a body may own several shapes; visible/collide flags are separate from mass", s,
       "lib/e1/model.h: ShapeConfig, Model::shape_flags"));
  r.add(rule("E1.1-three-static-modes", "rule", "world shape, FIXED joint and kinematic body are different records", s,
       "lib/e1/model.h"));
  r.add(rule("E1.1-kinematic-semantics", "rule", "the integration kernel copies a kinematic body's pose and twist unchanged", s,
       "lib/e1/integrator.h: integrate_body"));
  r.add(rule("E1.1-body-flags", "rule", "body flags are DYNAMIC or KINEMATIC; there is no STATIC flag", s,
       "lib/e1/model.h: BodyFlag"));
  r.add(rule("E1.1-shape-is-static", "rule", "is_static on a shape means zero mass, not a frozen body", s,
       "lib/e1/model.cpp: shape_contributes_mass"));
}

void register_section2(Registry& r) {
  const char* s = "E1 §2";
  r.add(formula("E1.2-joint-chain", "T_WC = T_WP T_{P,Jp} X_j(q) T_{C,Jc}^-1 (revolute joint)", s,
         "lib/e1/kinematics.h: fk_joint; lib/e1/joints.h: joint_transform",
         {vector_q("parent_p", "m", "parent body origin in world"), quat_q("parent_q", "parent orientation (x,y,z,w)"),
          vector_q("pj_p", "m", "parent_xform translation"), quat_q("pj_q", "parent_xform rotation"),
          vector_q("cj_p", "m", "child_xform translation"), quat_q("cj_q", "child_xform rotation"),
          vector_q("axis", "-", "revolute axis in the joint frame"), scalar_q("angle", "rad", "joint coordinate q")},
         {vector_q("child_p", "m", "child body origin in world"), quat_q("child_q", "child orientation (x,y,z,w)")},
         [](const Values& v) {
           vec3 axis = vector3(v, "axis");
           if (length(axis) == 0) throw std::invalid_argument("input --axis must not be zero");
           JointAxes ax;
           ax.n_ang = 1;
           ax.axis[0] = normalize(axis);
           real q = scalar(v, "angle"), qd = 0;
           BodyState c = fk_joint({{vector3(v, "parent_p"), quaternion(v, "parent_q")}, {}}, {},
                                  {vector3(v, "pj_p"), quaternion(v, "pj_q")}, {vector3(v, "cj_p"), quaternion(v, "cj_q")},
                                  JointType::revolute, &q, &qd, ax, {});
           return Values{{"child_p", as_values(c.X.p)}, {"child_q", as_values(c.X.q)}};
         }));
  r.add(rule("E1.2-zup-default", "rule", "right-handed, Z-up by default; up_axis is a builder option", s,
       "lib/e1/model.h: ModelBuilder::ModelBuilder"));
  r.add(item("E1.2-gravity-default", "rule", "default gravity 9.81 m/s^2 along -up; an explicit vector is kept", s, "lib/e1/model.cpp: ModelBuilder::ModelBuilder",
         {scalar_q("up_axis", "-", "0 = x, 1 = y, 2 = z")}, {vector_q("gravity", "m/s^2", "the default gravity vector")},
         [](const Values& v) {
           double a = scalar(v, "up_axis");
           if (a != 0 && a != 1 && a != 2) throw std::invalid_argument("input --up_axis must be 0, 1 or 2");
           return Values{{"gravity", as_values(ModelBuilder(Axis(int(a))).gravity)}};
         }));
  r.add(item("E1.2-mjcf-wxyz", "rule", "MJCF quaternions are w x y z; the importer stores x y z w", s,
         "lib/e1/importers.h: quat_from_wxyz; lib/e1/importers.cpp: add_mjcf",
         {quat_q("quat_wxyz", "the MJCF body quat attribute, w first")}, {quat_q("body_q", "imported orientation (x,y,z,w)")},
         [](const Values& v) {
           const std::vector<double>& w = v.at("quat_wxyz");
           std::ostringstream doc;
           doc.precision(17);
           doc << "<mujoco><worldbody><body quat=\"" << w[0] << ' ' << w[1] << ' ' << w[2] << ' ' << w[3]
               << "\"><freejoint/><geom type=\"sphere\" size=\"0.1\"/></body></worldbody></mujoco>";
           ModelBuilder b;
           add_mjcf(b, doc.str(), {}, "--quat_wxyz");
           return Values{{"body_q", as_values(b.body_q[0].q)}};
         }));
  r.add(item("E1.2-mjcf-euler-compiler", "rule", "MJCF euler angles are read in the compiler's unit; State angles are rad", s, "lib/e1/importers.cpp: Mjcf::orientation",
         {vector_q("euler", "deg or rad", "the MJCF euler attribute"), scalar_q("degree", "-", "1: compiler angle=degree, 0: radian")},
         {quat_q("body_q", "imported orientation (x,y,z,w)")},
         [](const Values& v) {
           vec3 e = vector3(v, "euler");
           double deg = scalar(v, "degree");
           if (deg != 0 && deg != 1) throw std::invalid_argument("input --degree must be 0 or 1");
           std::ostringstream doc;
           doc.precision(17);
           doc << "<mujoco><compiler angle=\"" << (deg == 1 ? "degree" : "radian") << "\"/><worldbody><body euler=\"" << e.x
               << ' ' << e.y << ' ' << e.z << "\"><freejoint/><geom type=\"sphere\" size=\"0.1\"/></body></worldbody></mujoco>";
           ModelBuilder b;
           add_mjcf(b, doc.str(), {}, "--euler");
           return Values{{"body_q", as_values(b.body_q[0].q)}};
         }));
  r.add(rule("E1.2-up-axis-consistency", "rule", "the default ground's normal follows the up axis, opposite to gravity", s,
       "lib/e1/model.cpp: ModelBuilder::add_ground_plane"));
  r.add(rule("E1.2-units-table", "table", "SI units and conventions of positions, rotations, joint coordinates, mass, forces", s,
       "lib/core/math.h, lib/e1/model.h (field comments)"));
}

void register_section3(Registry& r) {
  const char* s = "E1 §3";
  r.add(formula("E1.3-world-com", "c^W = p_WB + R_WB c^B", s, "lib/e1/integrator.h: world_com",
         {vector_q("p", "m", "body origin in world"), quat_q("q", "body orientation (x,y,z,w)"),
          vector_q("c_B", "m", "COM in body coordinates (body_com)")},
         {vector_q("c_W", "m", "COM in world")},
         [](const Values& v) {
           return Values{{"c_W", as_values(world_com({vector3(v, "p"), quaternion(v, "q")}, vector3(v, "c_B")))}};
         }));
  r.add(rule("E1.3-inertia-frame", "rule", "body_inertia is about the COM in body axes; the step rotates into body axes", s,
       "lib/e1/integrator.h: angular_update"));
  r.add(formula("E1.3-parallel-axis", "I_O = R I_C R^T + m ((d.d) I - d d^T)", s,
         "lib/e1/mass.h: inertia_transform",
         {scalar_q("m", "kg", "mass"), vector_q("I_C_diag", "kg m^2", "principal inertia about the COM, own axes"),
          quat_q("q", "rotation of those axes into the target axes"), vector_q("d", "m", "COM to new point, target axes")},
         {vector_q("I_O_diag", "kg m^2", "I_xx, I_yy, I_zz about O"), vector_q("I_O_offdiag", "kg m^2", "I_xy, I_xz, I_yz about O")},
         [](const Values& v) {
           mat33 I = inertia_transform(mat33_diag(vector3(v, "I_C_diag")), quat_to_mat33(quaternion(v, "q")),
                                       scalar(v, "m"), vector3(v, "d"));
           return Values{{"I_O_diag", diag(I)}, {"I_O_offdiag", offdiag(I)}};
         }));
  r.add(rule("E1.3-no-diag-scaling", "rule", "the parallel-axis shift is geometric, not a uniform diagonal factor", s,
       "lib/e1/mass.h: inertia_transform"));
  r.add(formula("E1.3-combined-com", "c = sum m_i c_i / sum m_i; shift each rotated inertia to c and add", s, "lib/e1/mass.h: combine_mass",
         {scalar_q("m_a", "kg", "mass of part a"), vector_q("c_a", "m", "COM of part a"), vector_q("I_a_diag", "kg m^2", "inertia of a about c_a"),
          scalar_q("m_b", "kg", "mass of part b"), vector_q("c_b", "m", "COM of part b"), vector_q("I_b_diag", "kg m^2", "inertia of b about c_b")},
         {scalar_q("m", "kg", "total mass"), vector_q("c", "m", "combined COM"), vector_q("I_diag", "kg m^2", "diagonal about c"),
          vector_q("I_offdiag", "kg m^2", "I_xy, I_xz, I_yz about c")},
         [](const Values& v) {
           MassProperties p = combine_mass({scalar(v, "m_a"), vector3(v, "c_a"), mat33_diag(vector3(v, "I_a_diag"))},
                                           {scalar(v, "m_b"), vector3(v, "c_b"), mat33_diag(vector3(v, "I_b_diag"))});
           return Values{{"m", {p.mass}}, {"c", as_values(p.com)}, {"I_diag", diag(p.inertia)}, {"I_offdiag", offdiag(p.inertia)}};
         }));
  r.add(rule("E1.3-default-density", "rule", "default shape density 1000 kg/m^3", s, "lib/e1/model.h: ShapeConfig::density"));
  r.add(rule("E1.3-mass-accumulation", "rule", "a shape adds mass only if not static, density > 0, attached and unlocked", s,
       "lib/e1/model.cpp: shape_contributes_mass"));
  r.add(rule("E1.3-explicit-plus-shape", "rule", "shape mass is added on top of an explicit body mass", s,
       "lib/e1/model.cpp: ModelBuilder::add_shape"));
  r.add(rule("E1.3-lock-inertia", "rule", "lock_inertia stops later shapes, not fixed-joint collapse", s,
       "lib/e1/model.cpp: ModelBuilder::add_shape, collapse_fixed_joints"));
  auto box_io = std::vector<Quantity>{scalar_q("hx", "m", "half extent x"), scalar_q("hy", "m", "half extent y"),
                                      scalar_q("hz", "m", "half extent z"), scalar_q("density", "kg/m^3", "density")};
  r.add(formula("E1.3-box-mass-inertia", "m = 8 rho hx hy hz, I_xx = m/3 (hy^2 + hz^2) and cyclic", s, "lib/e1/mass.h: box_mass_properties", box_io,
         {scalar_q("mass", "kg", "box mass"), vector_q("I_diag", "kg m^2", "principal inertia about the centre")},
         [](const Values& v) {
           MassProperties p = box_mass_properties(scalar(v, "density"), scalar(v, "hx"), scalar(v, "hy"), scalar(v, "hz"));
           return Values{{"mass", {p.mass}}, {"I_diag", diag(p.inertia)}};
         }));
  r.add(item("E1.3-box-example", "example", "box h = (0.10, 0.05, 0.025) m at 1000 kg/m^3: 1 kg, I = (0.00104167, 0.00354167, 0.00416667)",
         s, "lib/e1/model.cpp: ModelBuilder::add_shape_box, finalize", box_io,
         {scalar_q("body_mass", "kg", "the body's mass"), vector_q("body_inertia_diag", "kg m^2", "diagonal of body_inertia")},
         [](const Values& v) {
           MassProperties p = builder_box({scalar(v, "hx"), scalar(v, "hy"), scalar(v, "hz")}, scalar(v, "density"), {});
           return Values{{"body_mass", {p.mass}}, {"body_inertia_diag", diag(p.inertia)}};
         }));
  auto offset_io = box_io;
  offset_io.push_back(vector_q("offset", "m", "shape position in the body"));
  r.add(item("E1.3-box-offset-example", "example", "the same box at (0.10, 0, 0): COM moves, no parallel-axis term", s, "lib/e1/model.cpp: ModelBuilder::add_shape", offset_io,
         {vector_q("body_com", "m", "COM in body coordinates"), vector_q("body_inertia_diag", "kg m^2", "diagonal of body_inertia")},
         [](const Values& v) {
           MassProperties p = builder_box({scalar(v, "hx"), scalar(v, "hy"), scalar(v, "hz")}, scalar(v, "density"),
                                          vector3(v, "offset"));
           return Values{{"body_com", as_values(p.com)}, {"body_inertia_diag", diag(p.inertia)}};
         }));
  r.add(rule("E1.3-inertia-validity", "rule", "inertia is symmetric positive definite and satisfies the triangle inequality", s,
       "lib/e1/inertia_validity.h: check_inertia"));
  r.add(rule("E1.3-inertia-corrections", "rule", "corrections (balance_inertia, bound_mass, bound_inertia) are explicit and recorded apart from the input", s,
       "lib/e1/model.h: Model::corrections; lib/e1/inertia_validity.h: balance_inertia, bound_inertia_moments"));
}

void register_section4(Registry& r) {
  const char* s = "E1 §4";
  r.add(formula("E1.4-scaling-laws", "density kept: m s^3, I s^5; mass kept: I s^2", s,
         "lib/e1/mass.h: scale_mass_properties",
         {scalar_q("mass", "kg", "mass before scaling"), scalar_q("I_xx", "kg m^2", "an inertia before scaling"),
          scalar_q("s", "-", "uniform scale factor > 0")},
         {scalar_q("mass_density_kept", "kg", "m s^3"), scalar_q("I_xx_density_kept", "kg m^2", "I s^5"),
          scalar_q("mass_mass_kept", "kg", "m"), scalar_q("I_xx_mass_kept", "kg m^2", "I s^2")},
         [](const Values& v) {
           double sc = scalar(v, "s");
           if (!(sc > 0)) throw std::invalid_argument("input --s must be positive");
           MassProperties p{scalar(v, "mass"), {}, mat33_diag({scalar(v, "I_xx"), 0, 0})};
           MassProperties a = scale_mass_properties(p, sc, true), b = scale_mass_properties(p, sc, false);
           return Values{{"mass_density_kept", {a.mass}}, {"I_xx_density_kept", {a.inertia.m[0][0]}},
                         {"mass_mass_kept", {b.mass}}, {"I_xx_mass_kept", {b.inertia.m[0][0]}}};
         }));
  r.add(rule("E1.4-native-importers", "rule", "add_urdf and add_mjcf turn files into bodies, shapes and joints", s,
       "lib/e1/importers.h: add_urdf, add_mjcf"));
  r.add(rule("E1.4-importer-table", "table", "importer options: scale, up_axis, inertials, visuals, collapse, compiler", s,
       "lib/e1/importers.h: UrdfOptions, MjcfOptions"));
  r.add(item("E1.4-explicit-inertial-scale", "rule", "explicit inertial with scale s: mass kept, COM * s, inertia * s^2", s, "lib/e1/importers.cpp: urdf_inertial, Mjcf::inertial",
         {scalar_q("mass", "kg", "URDF <mass value>"), scalar_q("com_x", "m", "URDF <inertial><origin xyz> x"),
          scalar_q("ixx", "kg m^2", "URDF <inertia ixx> (iyy = izz = ixx)"), scalar_q("scale", "-", "import scale > 0")},
         {scalar_q("body_mass", "kg", "imported mass"), vector_q("body_com", "m", "imported COM"), scalar_q("I_xx", "kg m^2", "imported I_xx")},
         [](const Values& v) {
           std::ostringstream doc;
           doc.precision(17);
           doc << "<robot name=\"r\"><link name=\"l\"><inertial><origin xyz=\"" << scalar(v, "com_x")
               << " 0 0\"/><mass value=\"" << scalar(v, "mass") << "\"/><inertia ixx=\"" << scalar(v, "ixx") << "\" iyy=\""
               << scalar(v, "ixx") << "\" izz=\"" << scalar(v, "ixx") << "\"/></inertial></link></robot>";
           UrdfOptions o;
           o.scale = scalar(v, "scale");
           ModelBuilder b;
           add_urdf(b, doc.str(), o, "--mass/--com_x/--ixx");
           const MassProperties& p = b.body_mass_properties[0];
           return Values{{"body_mass", {p.mass}}, {"body_com", as_values(p.com)}, {"I_xx", {p.inertia.m[0][0]}}};
         }));
  r.add(rule("E1.4-asset-record", "rule", "assets need a record (source, licence, units...); the repository ships none", s,
       "verify/e1/troubleshooting_test.cpp: E1_4_asset_record"));
  r.add(rule("E1.4-usd-units", "rule", "legacy USD rigid import warns on non-SI stage metadata", s,
       "python/impulse/usd.py: add_usd"));
}

void register_section5(Registry& r) {
  const char* s = "E1 §5";
  r.add(formula("E1.5-qdot-map", "qdot = N(q) v; the quaternion block is (1/2)(omega, 0) (x) q", s,
         "lib/e1/joints.h: quat_rate, integrate_joint_coords",
         {quat_q("q", "orientation (x,y,z,w)"), vector_q("omega", "rad/s", "angular velocity in the frame q maps into")},
         {quantity("qdot", "1/s", 4, "time derivative of q")},
         [](const Values& v) { return Values{{"qdot", as_values(quat_rate(quaternion(v, "q"), vector3(v, "omega")))}}; }));
  r.add(item("E1.5-joint-dof-table", "table", "q / qd sizes per joint type (FREE 7/6, BALL 4/3, D6 = axes ...)", s, "lib/e1/joints.h: joint_coord_count, joint_dof_count; lib/e1/model.cpp: finalize",
         {scalar_q("free", "-", "number of FREE joints"), scalar_q("revolute", "-", "number of REVOLUTE joints"),
          scalar_q("prismatic", "-", "number of PRISMATIC joints"), scalar_q("ball", "-", "number of BALL joints"),
          scalar_q("fixed", "-", "number of FIXED joints"), scalar_q("distance", "-", "number of DISTANCE joints"),
          scalar_q("d6_linear", "-", "linear axes of one D6 joint (0 = no D6)"),
          scalar_q("d6_angular", "-", "angular axes of that D6 joint")},
         {scalar_q("joint_coord_count", "-", "length of joint_q"), scalar_q("joint_dof_count", "-", "length of joint_qd")},
         [](const Values& v) {
           // A chain built by the engine and finalized: the sizes come from the real layout.
           ModelBuilder b;
           MassProperties unit{1, {}, mat33_diag({0.1, 0.1, 0.1})};
           int prev = -1;
           auto link = [&](auto add) {
             int c = b.add_link(transform_identity(), unit);
             add(prev, c);
             prev = c;
           };
           const transform I = transform_identity();
           for (int i = 0; i < count(v, "free"); ++i) link([&](int p, int c) { b.add_joint_free(c, I, I, p); });
           for (int i = 0; i < count(v, "revolute"); ++i) link([&](int p, int c) { b.add_joint_revolute(p, c, I, I, {0, 0, 1}); });
           for (int i = 0; i < count(v, "prismatic"); ++i) link([&](int p, int c) { b.add_joint_prismatic(p, c, I, I, {1, 0, 0}); });
           for (int i = 0; i < count(v, "ball"); ++i) link([&](int p, int c) { b.add_joint_ball(p, c); });
           for (int i = 0; i < count(v, "fixed"); ++i) link([&](int p, int c) { b.add_joint_fixed(p, c); });
           for (int i = 0; i < count(v, "distance"); ++i) link([&](int p, int c) { b.add_joint_distance(p, c, I, I, 0, 1); });
           int nl = count(v, "d6_linear"), na = count(v, "d6_angular");
           if (nl > 3 || na > 3) throw std::invalid_argument("a D6 joint has at most 3 linear and 3 angular axes");
           const vec3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
           if (nl + na > 0)
             link([&](int p, int c) {
               b.add_joint_d6(p, c, I, I, std::vector<vec3>(e, e + nl), std::vector<vec3>(e, e + na));
             });
           Model m = b.finalize();
           return Values{{"joint_coord_count", {double(m.joint_coord_count)}}, {"joint_dof_count", {double(m.joint_dof_count)}}};
         }));
  r.add(rule("E1.5-fixed-follows-parent", "rule", "FIXED has 0/0 coordinates and moves with its parent", s,
       "lib/e1/kinematics.h: fk_joint"));
  r.add(rule("E1.5-distance-constrained", "rule", "DISTANCE has FREE's 7/6 layout plus a distance range", s,
       "lib/e1/model.cpp: add_joint_distance; lib/e1/kinematics.h: joint_anchor_distance"));
  r.add(rule("E1.5-start-sentinels", "rule", "joint_q_start / joint_qd_start end in sentinels equal to the counts", s,
       "lib/e1/model.cpp: ModelBuilder::finalize"));
  r.add(rule("E1.5-index-discipline", "rule", "index q and qd through their own start tables; replicas shift them", s,
       "lib/e1/model.h: Model::joint_q_start, joint_qd_start; ModelBuilder::add_builder"));
  r.add(rule("E1.5-authoritative-state", "rule", "an array existing in State does not make it the advanced one", s,
       "lib/e1/integrator.h: SolverRigidPredictor (advances body fields only)"));
  r.add(rule("E1.5-xpbd-maximal", "rule", "a maximal-coordinate solver advances bodies; eval_ik rebuilds joint values", s,
       "lib/e1/integrator.h: SolverRigidPredictor; lib/e1/kinematics.h: eval_ik"));
  r.add(rule("E1.5-eval-fk", "rule", "eval_fk writes body fields from given q/qd; not a sync, not a step", s,
       "lib/e1/kinematics_kernels.cpp: eval_fk"));
  r.add(rule("E1.5-eval-ik", "rule", "eval_ik rebuilds q/qd from body state (no target IK)", s,
       "lib/e1/kinematics_kernels.cpp: eval_ik"));
  r.add(rule("E1.5-generalized-solvers", "rule", "a generalised-coordinate solver follows joint_q, not an edited body_q", s,
       "lib/e1/solver_joint.h: SolverJointIntegrator"));
}

void register_section6(Registry& r) {
  const char* s = "E1 §6";
  r.add(rule("E1.6-spatial-layout-table", "table", "body_qd, body_f, FREE joint_qd and joint_f: order, frame, point", s,
       "lib/e1/model.h (field comments); lib/e1/kinematics.h; lib/e1/integrator.h: gather_body_wrenches"));
  r.add(rule("E1.6-source-errata", "rule", "the primer's plus sign is wrong for r = new - old; transform_wrench's +p x f is another definition", s,
       "lib/e1/wrench_transform.h: transform_wrench; lib/e1/spatial_shift.h: shift_torque"));
  r.add(rule("E1.6-body-qd", "rule", "body_qd = (v_C, omega), world, linear velocity at the COM", s,
       "lib/e1/integrator.h: integrate_rigid_body"));
  r.add(rule("E1.6-body-f", "rule", "body_f = (f, tau_C), world, torque about the COM; an input buffer", s,
       "lib/e1/integrator.h: integrate_rigid_body"));
  r.add(rule("E1.6-free-joint-qd", "rule", "FREE joint_qd is at the child COM, expressed in the joint parent frame", s,
       "lib/e1/joints.h: joint_twist; lib/e1/kinematics.h: fk_joint"));
  r.add(rule("E1.6-free-joint-f", "rule", "FREE joint_f is world force and torque at the child COM", s,
       "lib/e1/integrator_kernels.cpp: gather_body_wrenches"));
}

void register_section7(Registry& r) {
  const char* s = "E1 §7";
  r.add(rule("E1.7-caller-time", "rule", "the caller keeps time; dt is in seconds", s, "lib/e1/time_loop.h: simulate_frame"));
  r.add(formula("E1.7-substep", "h = H / N; N steps advance one frame H", s,
         "lib/e1/time_loop.h: substep_dt",
         {scalar_q("H", "s", "frame duration"), scalar_q("N", "-", "substeps per frame")},
         {scalar_q("h", "s", "dt of each step"), scalar_q("frame_time", "s", "time after N steps of h")},
         [](const Values& v) {
           real h = substep_dt(scalar(v, "H"), count(v, "N"));
           real t = 0;
           for (int i = 0; i < count(v, "N"); ++i) t += h;
           return Values{{"h", {h}}, {"frame_time", {t}}};
         }));
  r.add(item("E1.7-substep-example", "example", "H = 1/60 s, N = 4: h = 1/240 s; a 60 Hz hold vs a 240 Hz controller", s, "lib/e1/time_loop.h: substep_dt, ControlHold",
         {scalar_q("H", "s", "frame duration"), scalar_q("N", "-", "substeps per frame")},
         {scalar_q("h", "s", "dt of each step"), scalar_q("hold_rate", "Hz", "control rate when held per frame"),
          scalar_q("substep_rate", "Hz", "control rate when written every substep")},
         [](const Values& v) {
           real H = scalar(v, "H"), h = substep_dt(H, count(v, "N"));
           return Values{{"h", {h}}, {"hold_rate", {1 / H}}, {"substep_rate", {1 / h}}};
         }));
  r.add(rule("E1.7-iterations-not-time", "rule", "solver iterations do not advance physical time", s,
       "lib/e1/time_loop.h: simulate_frame"));
  r.add(rule("E1.7-xpbd-loop-order", "rule", "per substep: clear_forces, write forces, step, swap, advance time", s,
       "lib/e1/time_loop.h: simulate_frame"));
  r.add(rule("E1.7-clear-forces", "rule", "clear_forces zeroes only the external body force buffer", s,
       "lib/e1/model.cpp: State::clear_forces"));
  r.add(rule("E1.7-reapply-forces", "rule", "persistent forces are rewritten after every clear", s,
       "lib/e1/time_loop.h: simulate_frame"));
  r.add(rule("E1.7-double-buffer-alias", "rule", "swapping buffers exchanges handles; an alias is not a snapshot", s,
       "lib/e1/time_loop.h: simulate_frame; lib/core/buffer.h"));
  r.add(rule("E1.7-state-assign", "rule", "snapshot = model.state(); snapshot.assign(state) copies every array, layout-checked", s,
       "lib/e1/model.cpp: State::assign"));
  r.add(prose("E1.7-rates-separate", "rule", "render, control and contact rates are recorded separately", s,
        "a bookkeeping recommendation for experiment records; E1 has no renderer or contact step (FrameConfig keeps "
        "frame_dt, substeps and the control hold as separate fields)"));
  r.add(prose("E1.7-cuda-graph", "rule", "CUDA graph capture binds concrete buffers; odd substep swaps need care", s,
        "impulse launches kernels directly and captures no CUDA graphs; the course defers graphs to E5"));
}

void register_section8(Registry& r) {
  const char* s = "E1 §8";
  r.add(rule("E1.8-reset-levels-table", "table", "replay, restore, re-initialise, exact continuation: different levels", s,
       "lib/e1/model.cpp: State::assign, Model::state"));
  r.add(rule("E1.8-base-reset", "rule", "the base solver reset changes no physical state", s,
       "lib/e1/integrator.h: SolverRigidPredictor::reset"));
  r.add(rule("E1.8-mujoco-reset", "rule", "a generalised backend's reset puts selected joints back to model values", s,
       "lib/e1/solver_joint.h: SolverJointIntegrator::reset (the MuJoCo-style contract without MuJoCo)"));
  r.add(rule("E1.8-body-q-prev-deprecated", "rule", "State has no body_q_prev; clone history explicitly", s,
       "lib/e1/model.h: State"));
  r.add(rule("E1.8-minimal-example", "example", "eccentric free body, one double-buffered frame, cold reset", s,
       "lib/course/scenes_e1.cpp: e1-free-body"));
}

void register_section9_10(Registry& r) {
  r.add(rule("E1.9-example-spec", "example", "the minimal example: one free box body with offset COM plus the ground, q/qd 7/6",
       "E1 §9", "lib/course/scenes_e1.cpp: e1-free-body"));
  r.add(rule("E1.9-troubleshooting-table", "table", "ten symptoms, the quantities to read, and the fix", "E1 §9",
       "verify/e1/troubleshooting_test.cpp"));
  const char* s = "E1 §10";
  r.add(rule("E1.10-predictor-scope", "rule", "the unconstrained prediction of a dynamic body: velocity, then COM", s,
       "lib/e1/integrator.h: integrate_rigid_body"));
  r.add(formula("E1.10-linear-update", "v1 = v0 + h (f/m + g); c1 = c0 + h v1", s,
         "lib/e1/integrator.h: linear_update",
         {vector_q("v", "m/s", "COM velocity"), vector_q("c", "m", "world COM"), vector_q("f", "N", "world force"),
          scalar_q("m", "kg", "mass > 0"), vector_q("g", "m/s^2", "gravity"), scalar_q("h", "s", "step")},
         {vector_q("v1", "m/s", "new COM velocity"), vector_q("c1", "m", "new COM")},
         [](const Values& v) {
           double m = scalar(v, "m");
           if (!(m > 0)) throw std::invalid_argument("input --m must be positive");
           vec3 vel = vector3(v, "v"), c = vector3(v, "c");
           linear_update(vel, c, vector3(v, "f"), 1 / m, vector3(v, "g"), scalar(v, "h"));
           return Values{{"v1", as_values(vel)}, {"c1", as_values(c)}};
         }));
  r.add(formula("E1.10-angular-update", "omega~ = R [w_B + h I^-1 (R^T tau - w_B x I w_B)]", s,
         "lib/e1/integrator.h: angular_update",
         {quat_q("q", "orientation before the step"), vector_q("omega", "rad/s", "world angular velocity"),
          vector_q("tau", "N m", "world torque about the COM"), vector_q("I_diag", "kg m^2", "principal body inertia"),
          scalar_q("h", "s", "step")},
         {vector_q("omega_tilde", "rad/s", "pre-damping world angular velocity")},
         [](const Values& v) {
           vec3 d = vector3(v, "I_diag");
           if (!(d.x > 0 && d.y > 0 && d.z > 0)) throw std::invalid_argument("input --I_diag must be positive");
           mat33 I = mat33_diag(d);
           return Values{{"omega_tilde", as_values(angular_update(quaternion(v, "q"), vector3(v, "omega"), vector3(v, "tau"),
                                                                  I, inverse(I), scalar(v, "h")))}};
         }));
  r.add(formula("E1.10-quat-update", "q1 = normalize(q + h/2 (omega~, 0) (x) q); p1 = c1 - R(q1) c^B", s, "lib/e1/integrator.h: quat_update, origin_from_com",
         {quat_q("q", "orientation before the step"), vector_q("omega_tilde", "rad/s", "world angular velocity"),
          scalar_q("h", "s", "step"), vector_q("c1", "m", "new world COM"), vector_q("c_B", "m", "COM in body coordinates")},
         {quat_q("q1", "new orientation"), vector_q("p1", "m", "new body origin")},
         [](const Values& v) {
           quat q1 = quat_update(quaternion(v, "q"), vector3(v, "omega_tilde"), scalar(v, "h"));
           return Values{{"q1", as_values(q1)}, {"p1", as_values(origin_from_com(vector3(v, "c1"), q1, vector3(v, "c_B")))}};
         }));
  r.add(rule("E1.1-contacts-sample", "rule", "a Contacts record samples the state it was collided on, not the stepped one",
       "E1 §1", "lib/e3/collision/collision_pipeline.h: CollisionPipeline::collide"));
  r.add(rule("E1.7-sample-phase", "rule", "pre-step contacts belong to the input pose; collide again for post-step geometry",
       "E1 §7", "lib/e3/collision/collision_pipeline.h: CollisionPipeline::collide, lib/e3/solvers/xpbd/solver_xpbd.h: update_contacts"));
  r.add(rule("E1.10-xpbd-not-euler", "rule", "XPBD corrects the Euler prediction: equal without constraints, not with them", s,
       "lib/e3/solvers/xpbd/solver_xpbd.h: SolverXPBD::step (predictor: lib/e1/integrator.h)"));
  r.add(rule("E1.10-angular-damping-order", "rule", "angular damping scales the output omega after the quaternion update", s,
       "lib/e1/integrator.h: damp_angular"));
  r.add(formula("E1.10-unit-check", "[h f/m] = m/s and [h I^-1 tau] = rad/s", s,
         "lib/e1/integrator.h: linear_update, angular_update",
         {scalar_q("h", "s", "step"), scalar_q("f", "N", "force"), scalar_q("m", "kg", "mass"), scalar_q("tau", "N m", "torque"),
          scalar_q("I", "kg m^2", "moment of inertia")},
         {scalar_q("dv", "m/s", "h f / m"), scalar_q("domega", "rad/s", "h tau / I")},
         [](const Values& v) {
           if (!(scalar(v, "m") > 0 && scalar(v, "I") > 0)) throw std::invalid_argument("inputs --m and --I must be positive");
           return Values{{"dv", {scalar(v, "h") * scalar(v, "f") / scalar(v, "m")}},
                         {"domega", {scalar(v, "h") * scalar(v, "tau") / scalar(v, "I")}}};
         }));
}

void register_section12(Registry& r) {
  r.add(prose("E1.12-acceptance-scope", "rule", "the course's own acceptance was static; nothing was run", "E1 §12",
        "a statement about how the course was checked; impulse's suite is the first runtime check and takes its "
        "expected values from the formulas (recorded in golden/course/e1.toml sources)"));
  r.add(prose("E1.12-next", "rule", "what E2, E3 and the experiment cases build on", "E1 §12",
        "a pointer to later chapters, with no claim to check"));
}

void register_exercises(Registry& r) {
  const char* s = "E1 §11";
  r.add(rule("E1.11-ex1", "exercise", "q/qd sizes of a FREE root with two revolute joints", s,
       "exercises/e1/E1.11-ex1.toml (key: E1.5-joint-dof-table)"));
  r.add(rule("E1.11-ex2", "exercise", "doubling the box: density-derived vs explicit-inertial scaling", s,
       "exercises/e1/E1.11-ex2.toml (keys: E1.3-box-mass-inertia, E1.4-scaling-laws)"));
  r.add(rule("E1.11-ex4", "exercise", "why 'saved = state_0' is not history, and how to snapshot", s,
       "exercises/e1/E1.11-ex4.toml"));
  r.add(rule("E1.11-ex5", "exercise", "stale joint_q after a maximal-coordinate step and what eval_ik does", s,
       "exercises/e1/E1.11-ex5.toml"));
  r.add(rule("E1.11-ex6", "exercise", "frame of 0.02 s in 5 substeps with 8 iterations; when forces are written", s,
       "exercises/e1/E1.11-ex6.toml (key: E1.7-substep)"));
  r.add(rule("E1.11-ex7", "exercise", "why a successful import does not prove SI units", s, "exercises/e1/E1.11-ex7.toml"));
  r.add(rule("E1.11-ex8", "exercise", "why an unconditional generalised reset breaks snapshot restore", s,
       "exercises/e1/E1.11-ex8.toml"));
}

}  // namespace

void register_e1_engine(Registry& r) {
  register_section1(r);
  register_section2(r);
  register_section3(r);
  register_section4(r);
  register_section5(r);
  register_section6(r);
  register_section7(r);
  register_section8(r);
  register_section9_10(r);
  register_section12(r);
  register_exercises(r);
}

}  // namespace impulse::course
