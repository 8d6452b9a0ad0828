// Registration of the E1 items implemented by the engine (model, mass, joints, FK/IK, time loop,
// integrator, importers) and the E1 exercises other than ex3 (course seed 003).
#include <cmath>
#include <sstream>
#include <stdexcept>

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

Quantity vec_q(const char* name, const char* unit, const char* doc) { return {name, unit, 3, doc}; }
Quantity quat_q(const char* name, const char* doc) { return {name, "-", 4, doc}; }
Quantity num_q(const char* name, const char* unit, const char* doc) { return {name, unit, 1, doc}; }

// A rule, table or exercise without numbers.
void rule(Registry& r, const char* id, const char* kind, const char* title, const char* section, const char* where) {
  r.add({id, kind, title, section, Status::implemented, "", where, {}, {}, {}});
}

void prose(Registry& r, const char* id, const char* kind, const char* title, const char* section, const char* reason) {
  r.add({id, kind, title, section, Status::prose_only, reason, "", {}, {}, {}});
}

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
  rule(r, "E1.1-builder-finalize", "rule", "finalize(device) validates, lays out indices and copies the model to the device", s,
       "lib/e1/model.cpp: ModelBuilder::finalize");
  rule(r, "E1.1-builder-model-decoupled", "rule", "editing the builder does not change a finalized Model", s,
       "lib/e1/model.cpp: ModelBuilder::finalize");
  rule(r, "E1.1-param-update-notify", "rule", "after Model::set_gravity the solver must be notified", s,
       "lib/e1/integrator.h: SolverRigidPredictor::notify_model_changed");
  rule(r, "E1.1-ownership-table", "table", "who owns what: builder, Model, State, Control, Solver", s, "lib/e1/model.h");
  rule(r, "E1.1-state-clone", "rule", "model.state() copies the model's initial values", s, "lib/e1/model.cpp: Model::state");
  rule(r, "E1.1-state-no-clock", "rule", "State has no clock; the caller keeps time", s, "lib/e1/model.h: State");
  rule(r, "E1.1-control-clone", "rule", "model.control() clones; clone_variables=false refers to the model's arrays", s,
       "lib/e1/model.cpp: Model::control");
  rule(r, "E1.1-solver-step", "rule", "step(state_in, state_out, control, dt) with distinct states", s,
       "lib/e1/integrator.h: SolverRigidPredictor::step");
  rule(r, "E1.1-add-body-composite", "rule", "add_body = one link + one FREE joint to world + one articulation", s,
       "lib/e1/model.cpp: ModelBuilder::add_body");
  rule(r, "E1.1-id-spaces", "rule", "body, shape, joint IDs and coordinate starts are separate numbering spaces", s,
       "lib/e1/model.h: ModelBuilder, Model::joint_q_start");
  rule(r, "E1.1-shape-xform-relative", "rule", "a shape's xform is relative to its body", s,
       "lib/e1/frames.h: shape_world_transform");
  rule(r, "E1.1-static-shape", "rule", "a shape with body = -1 is static world geometry with no mass", s,
       "lib/e1/model.cpp: ModelBuilder::add_shape");
  rule(r, "E1.1-box-half-extents", "rule", "add_shape_box takes half extents", s, "lib/e1/model.cpp: add_shape_box");
  rule(r, "E1.1-multi-shape", "rule", "a body may own several shapes; visible/collide flags are separate from mass", s,
       "lib/e1/model.h: ShapeConfig, Model::shape_flags");
  rule(r, "E1.1-three-static-modes", "rule", "world shape, FIXED joint and kinematic body are different records", s,
       "lib/e1/model.h");
  rule(r, "E1.1-kinematic-semantics", "rule", "the integration kernel copies a kinematic body's pose and twist unchanged", s,
       "lib/e1/integrator.h: integrate_body");
  rule(r, "E1.1-body-flags", "rule", "body flags are DYNAMIC or KINEMATIC; there is no STATIC flag", s,
       "lib/e1/model.h: BodyFlag");
  rule(r, "E1.1-shape-is-static", "rule", "is_static on a shape means zero mass, not a frozen body", s,
       "lib/e1/model.cpp: shape_contributes_mass");
}

void register_section2(Registry& r) {
  const char* s = "E1 §2";
  r.add({"E1.2-joint-chain", "formula", "T_WC = T_WP T_{P,Jp} X_j(q) T_{C,Jc}^-1 (revolute joint)", s, Status::implemented, "",
         "lib/e1/kinematics.h: fk_joint; lib/e1/joints.h: joint_transform",
         {vec_q("parent_p", "m", "parent body origin in world"), quat_q("parent_q", "parent orientation (x,y,z,w)"),
          vec_q("pj_p", "m", "parent_xform translation"), quat_q("pj_q", "parent_xform rotation"),
          vec_q("cj_p", "m", "child_xform translation"), quat_q("cj_q", "child_xform rotation"),
          vec_q("axis", "-", "revolute axis in the joint frame"), num_q("angle", "rad", "joint coordinate q")},
         {{"child_p", "m", 3, "child body origin in world"}, {"child_q", "-", 4, "child orientation (x,y,z,w)"}},
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
         }});
  rule(r, "E1.2-zup-default", "rule", "right-handed, Z-up by default; up_axis is a builder option", s,
       "lib/e1/model.h: ModelBuilder::ModelBuilder");
  r.add({"E1.2-gravity-default", "rule", "default gravity 9.81 m/s^2 along -up; an explicit vector is kept", s,
         Status::implemented, "", "lib/e1/model.cpp: ModelBuilder::ModelBuilder",
         {num_q("up_axis", "-", "0 = x, 1 = y, 2 = z")}, {{"gravity", "m/s^2", 3, "the default gravity vector"}},
         [](const Values& v) {
           double a = scalar(v, "up_axis");
           if (a != 0 && a != 1 && a != 2) throw std::invalid_argument("input --up_axis must be 0, 1 or 2");
           return Values{{"gravity", as_values(ModelBuilder(Axis(int(a))).gravity)}};
         }});
  r.add({"E1.2-mjcf-wxyz", "rule", "MJCF quaternions are w x y z; the importer stores x y z w", s, Status::implemented, "",
         "lib/e1/importers.h: quat_from_wxyz; lib/e1/importers.cpp: add_mjcf",
         {quat_q("quat_wxyz", "the MJCF body quat attribute, w first")}, {{"body_q", "-", 4, "imported orientation (x,y,z,w)"}},
         [](const Values& v) {
           const std::vector<double>& w = v.at("quat_wxyz");
           std::ostringstream doc;
           doc.precision(17);
           doc << "<mujoco><worldbody><body quat=\"" << w[0] << ' ' << w[1] << ' ' << w[2] << ' ' << w[3]
               << "\"><freejoint/><geom type=\"sphere\" size=\"0.1\"/></body></worldbody></mujoco>";
           ModelBuilder b;
           add_mjcf(b, doc.str(), {}, "--quat_wxyz");
           return Values{{"body_q", as_values(b.body_q[0].q)}};
         }});
  r.add({"E1.2-mjcf-euler-compiler", "rule", "MJCF euler angles are read in the compiler's unit; State angles are rad", s,
         Status::implemented, "", "lib/e1/importers.cpp: Mjcf::orientation",
         {vec_q("euler", "deg or rad", "the MJCF euler attribute"), num_q("degree", "-", "1: compiler angle=degree, 0: radian")},
         {{"body_q", "-", 4, "imported orientation (x,y,z,w)"}},
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
         }});
  rule(r, "E1.2-up-axis-consistency", "rule", "the default ground's normal follows the up axis, opposite to gravity", s,
       "lib/e1/model.cpp: ModelBuilder::add_ground_plane");
  rule(r, "E1.2-units-table", "table", "SI units and conventions of positions, rotations, joint coordinates, mass, forces", s,
       "lib/core/math.h, lib/e1/model.h (field comments)");
}

void register_section3(Registry& r) {
  const char* s = "E1 §3";
  r.add({"E1.3-world-com", "formula", "c^W = p_WB + R_WB c^B", s, Status::implemented, "", "lib/e1/integrator.h: world_com",
         {vec_q("p", "m", "body origin in world"), quat_q("q", "body orientation (x,y,z,w)"),
          vec_q("c_B", "m", "COM in body coordinates (body_com)")},
         {{"c_W", "m", 3, "COM in world"}},
         [](const Values& v) {
           return Values{{"c_W", as_values(world_com({vector3(v, "p"), quaternion(v, "q")}, vector3(v, "c_B")))}};
         }});
  rule(r, "E1.3-inertia-frame", "rule", "body_inertia is about the COM in body axes; the step rotates into body axes", s,
       "lib/e1/integrator.h: angular_update");
  r.add({"E1.3-parallel-axis", "formula", "I_O = R I_C R^T + m ((d.d) I - d d^T)", s, Status::implemented, "",
         "lib/e1/mass.h: inertia_transform",
         {num_q("m", "kg", "mass"), vec_q("I_C_diag", "kg m^2", "principal inertia about the COM, own axes"),
          quat_q("q", "rotation of those axes into the target axes"), vec_q("d", "m", "COM to new point, target axes")},
         {{"I_O_diag", "kg m^2", 3, "I_xx, I_yy, I_zz about O"}, {"I_O_offdiag", "kg m^2", 3, "I_xy, I_xz, I_yz about O"}},
         [](const Values& v) {
           mat33 I = inertia_transform(mat33_diag(vector3(v, "I_C_diag")), quat_to_mat33(quaternion(v, "q")),
                                       scalar(v, "m"), vector3(v, "d"));
           return Values{{"I_O_diag", diag(I)}, {"I_O_offdiag", offdiag(I)}};
         }});
  rule(r, "E1.3-no-diag-scaling", "rule", "the parallel-axis shift is geometric, not a uniform diagonal factor", s,
       "lib/e1/mass.h: inertia_transform");
  r.add({"E1.3-combined-com", "formula", "c = sum m_i c_i / sum m_i; shift each rotated inertia to c and add", s,
         Status::implemented, "", "lib/e1/mass.h: combine_mass",
         {num_q("m_a", "kg", "mass of part a"), vec_q("c_a", "m", "COM of part a"), vec_q("I_a_diag", "kg m^2", "inertia of a about c_a"),
          num_q("m_b", "kg", "mass of part b"), vec_q("c_b", "m", "COM of part b"), vec_q("I_b_diag", "kg m^2", "inertia of b about c_b")},
         {{"m", "kg", 1, "total mass"}, {"c", "m", 3, "combined COM"}, {"I_diag", "kg m^2", 3, "diagonal about c"},
          {"I_offdiag", "kg m^2", 3, "I_xy, I_xz, I_yz about c"}},
         [](const Values& v) {
           MassProperties p = combine_mass({scalar(v, "m_a"), vector3(v, "c_a"), mat33_diag(vector3(v, "I_a_diag"))},
                                           {scalar(v, "m_b"), vector3(v, "c_b"), mat33_diag(vector3(v, "I_b_diag"))});
           return Values{{"m", {p.mass}}, {"c", as_values(p.com)}, {"I_diag", diag(p.inertia)}, {"I_offdiag", offdiag(p.inertia)}};
         }});
  rule(r, "E1.3-default-density", "rule", "default shape density 1000 kg/m^3", s, "lib/e1/model.h: ShapeConfig::density");
  rule(r, "E1.3-mass-accumulation", "rule", "a shape adds mass only if not static, density > 0, attached and unlocked", s,
       "lib/e1/model.cpp: shape_contributes_mass");
  rule(r, "E1.3-explicit-plus-shape", "rule", "shape mass is added on top of an explicit body mass", s,
       "lib/e1/model.cpp: ModelBuilder::add_shape");
  rule(r, "E1.3-lock-inertia", "rule", "lock_inertia stops later shapes, not fixed-joint collapse", s,
       "lib/e1/model.cpp: ModelBuilder::add_shape, collapse_fixed_joints");
  auto box_io = std::vector<Quantity>{num_q("hx", "m", "half extent x"), num_q("hy", "m", "half extent y"),
                                      num_q("hz", "m", "half extent z"), num_q("density", "kg/m^3", "density")};
  r.add({"E1.3-box-mass-inertia", "formula", "m = 8 rho hx hy hz, I_xx = m/3 (hy^2 + hz^2) and cyclic", s, Status::implemented,
         "", "lib/e1/mass.h: box_mass_properties", box_io,
         {{"mass", "kg", 1, "box mass"}, {"I_diag", "kg m^2", 3, "principal inertia about the centre"}},
         [](const Values& v) {
           MassProperties p = box_mass_properties(scalar(v, "density"), scalar(v, "hx"), scalar(v, "hy"), scalar(v, "hz"));
           return Values{{"mass", {p.mass}}, {"I_diag", diag(p.inertia)}};
         }});
  r.add({"E1.3-box-example", "example", "box h = (0.10, 0.05, 0.025) m at 1000 kg/m^3: 1 kg, I = (0.00104167, 0.00354167, 0.00416667)",
         s, Status::implemented, "", "lib/e1/model.cpp: ModelBuilder::add_shape_box, finalize", box_io,
         {{"body_mass", "kg", 1, "the body's mass"}, {"body_inertia_diag", "kg m^2", 3, "diagonal of body_inertia"}},
         [](const Values& v) {
           MassProperties p = builder_box({scalar(v, "hx"), scalar(v, "hy"), scalar(v, "hz")}, scalar(v, "density"), {});
           return Values{{"body_mass", {p.mass}}, {"body_inertia_diag", diag(p.inertia)}};
         }});
  auto offset_io = box_io;
  offset_io.push_back(vec_q("offset", "m", "shape position in the body"));
  r.add({"E1.3-box-offset-example", "example", "the same box at (0.10, 0, 0): COM moves, no parallel-axis term", s,
         Status::implemented, "", "lib/e1/model.cpp: ModelBuilder::add_shape", offset_io,
         {{"body_com", "m", 3, "COM in body coordinates"}, {"body_inertia_diag", "kg m^2", 3, "diagonal of body_inertia"}},
         [](const Values& v) {
           MassProperties p = builder_box({scalar(v, "hx"), scalar(v, "hy"), scalar(v, "hz")}, scalar(v, "density"),
                                          vector3(v, "offset"));
           return Values{{"body_com", as_values(p.com)}, {"body_inertia_diag", diag(p.inertia)}};
         }});
  rule(r, "E1.3-inertia-validity", "rule", "inertia is symmetric positive definite and satisfies the triangle inequality", s,
       "lib/e1/inertia_validity.h: check_inertia");
  rule(r, "E1.3-inertia-corrections", "rule", "corrections (balance_inertia, bound_mass, bound_inertia) are explicit and recorded apart from the input", s,
       "lib/e1/model.h: Model::corrections; lib/e1/inertia_validity.h: balance_inertia, bound_inertia_moments");
}

void register_section4(Registry& r) {
  const char* s = "E1 §4";
  r.add({"E1.4-scaling-laws", "formula", "density kept: m s^3, I s^5; mass kept: I s^2", s, Status::implemented, "",
         "lib/e1/mass.h: scale_mass_properties",
         {num_q("mass", "kg", "mass before scaling"), num_q("I_xx", "kg m^2", "an inertia before scaling"),
          num_q("s", "-", "uniform scale factor > 0")},
         {{"mass_density_kept", "kg", 1, "m s^3"}, {"I_xx_density_kept", "kg m^2", 1, "I s^5"},
          {"mass_mass_kept", "kg", 1, "m"}, {"I_xx_mass_kept", "kg m^2", 1, "I s^2"}},
         [](const Values& v) {
           double sc = scalar(v, "s");
           if (!(sc > 0)) throw std::invalid_argument("input --s must be positive");
           MassProperties p{scalar(v, "mass"), {}, mat33_diag({scalar(v, "I_xx"), 0, 0})};
           MassProperties a = scale_mass_properties(p, sc, true), b = scale_mass_properties(p, sc, false);
           return Values{{"mass_density_kept", {a.mass}}, {"I_xx_density_kept", {a.inertia.m[0][0]}},
                         {"mass_mass_kept", {b.mass}}, {"I_xx_mass_kept", {b.inertia.m[0][0]}}};
         }});
  rule(r, "E1.4-native-importers", "rule", "add_urdf and add_mjcf turn files into bodies, shapes and joints", s,
       "lib/e1/importers.h: add_urdf, add_mjcf");
  rule(r, "E1.4-importer-table", "table", "importer options: scale, up_axis, inertials, visuals, collapse, compiler", s,
       "lib/e1/importers.h: UrdfOptions, MjcfOptions");
  r.add({"E1.4-explicit-inertial-scale", "rule", "explicit inertial with scale s: mass kept, COM * s, inertia * s^2", s,
         Status::implemented, "", "lib/e1/importers.cpp: urdf_inertial, Mjcf::inertial",
         {num_q("mass", "kg", "URDF <mass value>"), num_q("com_x", "m", "URDF <inertial><origin xyz> x"),
          num_q("ixx", "kg m^2", "URDF <inertia ixx> (iyy = izz = ixx)"), num_q("scale", "-", "import scale > 0")},
         {{"body_mass", "kg", 1, "imported mass"}, {"body_com", "m", 3, "imported COM"}, {"I_xx", "kg m^2", 1, "imported I_xx"}},
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
         }});
  rule(r, "E1.4-asset-record", "rule", "assets need a record (source, licence, units...); the repository ships none", s,
       "verify/e1/troubleshooting_test.cpp: E1_4_asset_record");
  prose(r, "E1.4-usd-units", "rule", "legacy USD rigid import warns on non-SI stage metadata", s,
        "impulse has no USD runtime (OpenUSD is not a dependency), so the warning branch cannot be exercised; "
        "the chapter explains the rule; exercise E1.11-ex7 is backed by the unit troubleshooting test");
}

void register_section5(Registry& r) {
  const char* s = "E1 §5";
  r.add({"E1.5-qdot-map", "formula", "qdot = N(q) v; the quaternion block is (1/2)(omega, 0) (x) q", s, Status::implemented, "",
         "lib/e1/joints.h: quat_rate, integrate_joint_coords",
         {quat_q("q", "orientation (x,y,z,w)"), vec_q("omega", "rad/s", "angular velocity in the frame q maps into")},
         {{"qdot", "1/s", 4, "time derivative of q"}},
         [](const Values& v) { return Values{{"qdot", as_values(quat_rate(quaternion(v, "q"), vector3(v, "omega")))}}; }});
  r.add({"E1.5-joint-dof-table", "table", "q / qd sizes per joint type (FREE 7/6, BALL 4/3, D6 = axes ...)", s,
         Status::implemented, "", "lib/e1/joints.h: joint_coord_count, joint_dof_count; lib/e1/model.cpp: finalize",
         {num_q("free", "-", "number of FREE joints"), num_q("revolute", "-", "number of REVOLUTE joints"),
          num_q("prismatic", "-", "number of PRISMATIC joints"), num_q("ball", "-", "number of BALL joints"),
          num_q("fixed", "-", "number of FIXED joints"), num_q("distance", "-", "number of DISTANCE joints"),
          num_q("d6_linear", "-", "linear axes of one D6 joint (0 = no D6)"),
          num_q("d6_angular", "-", "angular axes of that D6 joint")},
         {{"joint_coord_count", "-", 1, "length of joint_q"}, {"joint_dof_count", "-", 1, "length of joint_qd"}},
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
         }});
  rule(r, "E1.5-fixed-follows-parent", "rule", "FIXED has 0/0 coordinates and moves with its parent", s,
       "lib/e1/kinematics.h: fk_joint");
  rule(r, "E1.5-distance-constrained", "rule", "DISTANCE has FREE's 7/6 layout plus a distance range", s,
       "lib/e1/model.cpp: add_joint_distance; lib/e1/kinematics.h: joint_anchor_distance");
  rule(r, "E1.5-start-sentinels", "rule", "joint_q_start / joint_qd_start end in sentinels equal to the counts", s,
       "lib/e1/model.cpp: ModelBuilder::finalize");
  rule(r, "E1.5-index-discipline", "rule", "index q and qd through their own start tables; replicas shift them", s,
       "lib/e1/model.h: Model::joint_q_start, joint_qd_start; ModelBuilder::add_builder");
  rule(r, "E1.5-authoritative-state", "rule", "an array existing in State does not make it the advanced one", s,
       "lib/e1/integrator.h: SolverRigidPredictor (advances body fields only)");
  rule(r, "E1.5-xpbd-maximal", "rule", "a maximal-coordinate solver advances bodies; eval_ik rebuilds joint values", s,
       "lib/e1/integrator.h: SolverRigidPredictor; lib/e1/kinematics.h: eval_ik");
  rule(r, "E1.5-eval-fk", "rule", "eval_fk writes body fields from given q/qd; not a sync, not a step", s,
       "lib/e1/kinematics_kernels.cpp: eval_fk");
  rule(r, "E1.5-eval-ik", "rule", "eval_ik rebuilds q/qd from body state (no target IK)", s,
       "lib/e1/kinematics_kernels.cpp: eval_ik");
  rule(r, "E1.5-generalized-solvers", "rule", "a generalised-coordinate solver follows joint_q, not an edited body_q", s,
       "lib/e1/solver_joint.h: SolverJointIntegrator");
}

void register_section6(Registry& r) {
  const char* s = "E1 §6";
  rule(r, "E1.6-spatial-layout-table", "table", "body_qd, body_f, FREE joint_qd and joint_f: order, frame, point", s,
       "lib/e1/model.h (field comments); lib/e1/kinematics.h; lib/e1/integrator.h: gather_body_wrenches");
  rule(r, "E1.6-source-errata", "rule", "the primer's plus sign is wrong for r = new - old; transform_wrench's +p x f is another definition", s,
       "lib/e1/wrench_transform.h: transform_wrench; lib/e1/spatial_shift.h: shift_torque");
  rule(r, "E1.6-body-qd", "rule", "body_qd = (v_C, omega), world, linear velocity at the COM", s,
       "lib/e1/integrator.h: integrate_rigid_body");
  rule(r, "E1.6-body-f", "rule", "body_f = (f, tau_C), world, torque about the COM; an input buffer", s,
       "lib/e1/integrator.h: integrate_rigid_body");
  rule(r, "E1.6-free-joint-qd", "rule", "FREE joint_qd is at the child COM, expressed in the joint parent frame", s,
       "lib/e1/joints.h: joint_twist; lib/e1/kinematics.h: fk_joint");
  rule(r, "E1.6-free-joint-f", "rule", "FREE joint_f is world force and torque at the child COM", s,
       "lib/e1/integrator_kernels.cpp: gather_body_wrenches");
}

void register_section7(Registry& r) {
  const char* s = "E1 §7";
  rule(r, "E1.7-caller-time", "rule", "the caller keeps time; dt is in seconds", s, "lib/e1/time_loop.h: simulate_frame");
  r.add({"E1.7-substep", "formula", "h = H / N; N steps advance one frame H", s, Status::implemented, "",
         "lib/e1/time_loop.h: substep_dt",
         {num_q("H", "s", "frame duration"), num_q("N", "-", "substeps per frame")},
         {{"h", "s", 1, "dt of each step"}, {"frame_time", "s", 1, "time after N steps of h"}},
         [](const Values& v) {
           real h = substep_dt(scalar(v, "H"), count(v, "N"));
           real t = 0;
           for (int i = 0; i < count(v, "N"); ++i) t += h;
           return Values{{"h", {h}}, {"frame_time", {t}}};
         }});
  r.add({"E1.7-substep-example", "example", "H = 1/60 s, N = 4: h = 1/240 s; a 60 Hz hold vs a 240 Hz controller", s,
         Status::implemented, "", "lib/e1/time_loop.h: substep_dt, ControlHold",
         {num_q("H", "s", "frame duration"), num_q("N", "-", "substeps per frame")},
         {{"h", "s", 1, "dt of each step"}, {"hold_rate", "Hz", 1, "control rate when held per frame"},
          {"substep_rate", "Hz", 1, "control rate when written every substep"}},
         [](const Values& v) {
           real H = scalar(v, "H"), h = substep_dt(H, count(v, "N"));
           return Values{{"h", {h}}, {"hold_rate", {1 / H}}, {"substep_rate", {1 / h}}};
         }});
  rule(r, "E1.7-iterations-not-time", "rule", "solver iterations do not advance physical time", s,
       "lib/e1/time_loop.h: simulate_frame");
  rule(r, "E1.7-xpbd-loop-order", "rule", "per substep: clear_forces, write forces, step, swap, advance time", s,
       "lib/e1/time_loop.h: simulate_frame");
  rule(r, "E1.7-clear-forces", "rule", "clear_forces zeroes only the external body force buffer", s,
       "lib/e1/model.cpp: State::clear_forces");
  rule(r, "E1.7-reapply-forces", "rule", "persistent forces are rewritten after every clear", s,
       "lib/e1/time_loop.h: simulate_frame");
  rule(r, "E1.7-double-buffer-alias", "rule", "swapping buffers exchanges handles; an alias is not a snapshot", s,
       "lib/e1/time_loop.h: simulate_frame; lib/core/buffer.h");
  rule(r, "E1.7-state-assign", "rule", "snapshot = model.state(); snapshot.assign(state) copies every array, layout-checked", s,
       "lib/e1/model.cpp: State::assign");
  prose(r, "E1.7-rates-separate", "rule", "render, control and contact rates are recorded separately", s,
        "a bookkeeping recommendation for experiment records; E1 has no renderer or contact step (FrameConfig keeps "
        "frame_dt, substeps and the control hold as separate fields)");
  prose(r, "E1.7-cuda-graph", "rule", "CUDA graph capture binds concrete buffers; odd substep swaps need care", s,
        "impulse launches kernels directly and captures no CUDA graphs; the course defers graphs to E5");
}

void register_section8(Registry& r) {
  const char* s = "E1 §8";
  rule(r, "E1.8-reset-levels-table", "table", "replay, restore, re-initialise, exact continuation: different levels", s,
       "lib/e1/model.cpp: State::assign, Model::state");
  rule(r, "E1.8-base-reset", "rule", "the base solver reset changes no physical state", s,
       "lib/e1/integrator.h: SolverRigidPredictor::reset");
  rule(r, "E1.8-mujoco-reset", "rule", "a generalised backend's reset puts selected joints back to model values", s,
       "lib/e1/solver_joint.h: SolverJointIntegrator::reset (the MuJoCo-style contract without MuJoCo)");
  rule(r, "E1.8-body-q-prev-deprecated", "rule", "State has no body_q_prev; clone history explicitly", s,
       "lib/e1/model.h: State");
  rule(r, "E1.8-minimal-example", "example", "eccentric free body, one double-buffered frame, cold reset", s,
       "lib/course/scenes_e1.cpp: e1-free-body");
}

void register_section9_10(Registry& r) {
  rule(r, "E1.9-example-spec", "example", "the minimal example: one free box body with offset COM plus the ground, q/qd 7/6",
       "E1 §9", "lib/course/scenes_e1.cpp: e1-free-body");
  rule(r, "E1.9-troubleshooting-table", "table", "ten symptoms, the quantities to read, and the fix", "E1 §9",
       "verify/e1/troubleshooting_test.cpp");
  const char* s = "E1 §10";
  rule(r, "E1.10-predictor-scope", "rule", "the unconstrained prediction of a dynamic body: velocity, then COM", s,
       "lib/e1/integrator.h: integrate_rigid_body");
  r.add({"E1.10-linear-update", "formula", "v1 = v0 + h (f/m + g); c1 = c0 + h v1", s, Status::implemented, "",
         "lib/e1/integrator.h: linear_update",
         {vec_q("v", "m/s", "COM velocity"), vec_q("c", "m", "world COM"), vec_q("f", "N", "world force"),
          num_q("m", "kg", "mass > 0"), vec_q("g", "m/s^2", "gravity"), num_q("h", "s", "step")},
         {{"v1", "m/s", 3, "new COM velocity"}, {"c1", "m", 3, "new COM"}},
         [](const Values& v) {
           double m = scalar(v, "m");
           if (!(m > 0)) throw std::invalid_argument("input --m must be positive");
           vec3 vel = vector3(v, "v"), c = vector3(v, "c");
           linear_update(vel, c, vector3(v, "f"), 1 / m, vector3(v, "g"), scalar(v, "h"));
           return Values{{"v1", as_values(vel)}, {"c1", as_values(c)}};
         }});
  r.add({"E1.10-angular-update", "formula", "omega~ = R [w_B + h I^-1 (R^T tau - w_B x I w_B)]", s, Status::implemented, "",
         "lib/e1/integrator.h: angular_update",
         {quat_q("q", "orientation before the step"), vec_q("omega", "rad/s", "world angular velocity"),
          vec_q("tau", "N m", "world torque about the COM"), vec_q("I_diag", "kg m^2", "principal body inertia"),
          num_q("h", "s", "step")},
         {{"omega_tilde", "rad/s", 3, "pre-damping world angular velocity"}},
         [](const Values& v) {
           vec3 d = vector3(v, "I_diag");
           if (!(d.x > 0 && d.y > 0 && d.z > 0)) throw std::invalid_argument("input --I_diag must be positive");
           mat33 I = mat33_diag(d);
           return Values{{"omega_tilde", as_values(angular_update(quaternion(v, "q"), vector3(v, "omega"), vector3(v, "tau"),
                                                                  I, inverse(I), scalar(v, "h")))}};
         }});
  r.add({"E1.10-quat-update", "formula", "q1 = normalize(q + h/2 (omega~, 0) (x) q); p1 = c1 - R(q1) c^B", s,
         Status::implemented, "", "lib/e1/integrator.h: quat_update, origin_from_com",
         {quat_q("q", "orientation before the step"), vec_q("omega_tilde", "rad/s", "world angular velocity"),
          num_q("h", "s", "step"), vec_q("c1", "m", "new world COM"), vec_q("c_B", "m", "COM in body coordinates")},
         {{"q1", "-", 4, "new orientation"}, {"p1", "m", 3, "new body origin"}},
         [](const Values& v) {
           quat q1 = quat_update(quaternion(v, "q"), vector3(v, "omega_tilde"), scalar(v, "h"));
           return Values{{"q1", as_values(q1)}, {"p1", as_values(origin_from_com(vector3(v, "c1"), q1, vector3(v, "c_B")))}};
         }});
  rule(r, "E1.1-contacts-sample", "rule", "a Contacts record samples the state it was collided on, not the stepped one",
       "E1 §1", "lib/e3/collision/collision_pipeline.h: CollisionPipeline::collide");
  rule(r, "E1.7-sample-phase", "rule", "pre-step contacts belong to the input pose; collide again for post-step geometry",
       "E1 §7", "lib/e3/collision/collision_pipeline.h: CollisionPipeline::collide, lib/e3/solvers/xpbd/solver_xpbd.h: update_contacts");
  rule(r, "E1.10-xpbd-not-euler", "rule", "XPBD corrects the Euler prediction: equal without constraints, not with them", s,
       "lib/e3/solvers/xpbd/solver_xpbd.h: SolverXPBD::step (predictor: lib/e1/integrator.h)");
  rule(r, "E1.10-angular-damping-order", "rule", "angular damping scales the output omega after the quaternion update", s,
       "lib/e1/integrator.h: damp_angular");
  r.add({"E1.10-unit-check", "formula", "[h f/m] = m/s and [h I^-1 tau] = rad/s", s, Status::implemented, "",
         "lib/e1/integrator.h: linear_update, angular_update",
         {num_q("h", "s", "step"), num_q("f", "N", "force"), num_q("m", "kg", "mass"), num_q("tau", "N m", "torque"),
          num_q("I", "kg m^2", "moment of inertia")},
         {{"dv", "m/s", 1, "h f / m"}, {"domega", "rad/s", 1, "h tau / I"}},
         [](const Values& v) {
           if (!(scalar(v, "m") > 0 && scalar(v, "I") > 0)) throw std::invalid_argument("inputs --m and --I must be positive");
           return Values{{"dv", {scalar(v, "h") * scalar(v, "f") / scalar(v, "m")}},
                         {"domega", {scalar(v, "h") * scalar(v, "tau") / scalar(v, "I")}}};
         }});
}

void register_section12(Registry& r) {
  prose(r, "E1.12-acceptance-scope", "rule", "the course's own acceptance was static; nothing was run", "E1 §12",
        "a statement about how the course was checked; impulse's suite is the first runtime check and takes its "
        "expected values from the formulas (recorded in golden/course/e1.toml sources)");
  prose(r, "E1.12-next", "rule", "what E2, E3 and the experiment cases build on", "E1 §12",
        "a pointer to later chapters, with no claim to check");
}

void register_exercises(Registry& r) {
  const char* s = "E1 §11";
  rule(r, "E1.11-ex1", "exercise", "q/qd sizes of a FREE root with two revolute joints", s,
       "exercises/e1/E1.11-ex1.toml (key: E1.5-joint-dof-table)");
  rule(r, "E1.11-ex2", "exercise", "doubling the box: density-derived vs explicit-inertial scaling", s,
       "exercises/e1/E1.11-ex2.toml (keys: E1.3-box-mass-inertia, E1.4-scaling-laws)");
  rule(r, "E1.11-ex4", "exercise", "why 'saved = state_0' is not history, and how to snapshot", s,
       "exercises/e1/E1.11-ex4.toml");
  rule(r, "E1.11-ex5", "exercise", "stale joint_q after a maximal-coordinate step and what eval_ik does", s,
       "exercises/e1/E1.11-ex5.toml");
  rule(r, "E1.11-ex6", "exercise", "frame of 0.02 s in 5 substeps with 8 iterations; when forces are written", s,
       "exercises/e1/E1.11-ex6.toml (key: E1.7-substep)");
  rule(r, "E1.11-ex7", "exercise", "why a successful import does not prove SI units", s, "exercises/e1/E1.11-ex7.toml");
  rule(r, "E1.11-ex8", "exercise", "why an unconditional generalised reset breaks snapshot restore", s,
       "exercises/e1/E1.11-ex8.toml");
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
