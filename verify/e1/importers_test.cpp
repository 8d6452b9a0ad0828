// Tests of lib/e1/importers.h and lib/e1/xml.h (course E1 §2, §4). The documents are written inline:
// the repository ships no asset files (E1.4-asset-record).
#include <gtest/gtest.h>

#include <string>

#include "e1/importers.h"
#include "e1/model.h"
#include "e1/xml.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

// The course box as a URDF link: explicit inertial (1 kg, COM (0.1, 0, 0) m) and box geometry.
const char* kBoxUrdf = R"(<?xml version="1.0"?>
<robot name="box">
  <link name="base">
    <inertial>
      <origin xyz="0.1 0 0" rpy="0 0 0"/>
      <mass value="1"/>
      <inertia ixx="0.00104167" iyy="0.00354167" izz="0.00416667" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <collision><origin xyz="0.1 0 0"/><geometry><box size="0.2 0.1 0.05"/></geometry></collision>
    <visual><geometry><sphere radius="0.3"/></geometry></visual>
  </link>
</robot>)";

// Two links on a hinge plus a fixed tool, without inertials (mass from geometry and density).
const char* kArmUrdf = R"(<robot name="arm">
  <link name="base"><collision><geometry><box size="0.2 0.1 0.05"/></geometry></collision></link>
  <link name="upper"><collision><origin xyz="0 0 0.15"/><geometry><cylinder radius="0.03" length="0.3"/></geometry></collision></link>
  <link name="tool"><collision><geometry><sphere radius="0.05"/></geometry></collision></link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/><origin xyz="0 0 0.05" rpy="0 0 1.5707963267948966"/><axis xyz="0 1 0"/>
  </joint>
  <joint name="mount" type="fixed"><parent link="upper"/><child link="tool"/><origin xyz="0 0 0.3"/></joint>
</robot>)";

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

Model import_urdf(const char* text, UrdfOptions o = {}) {
  ModelBuilder b;
  add_urdf(b, text, o, "test.urdf");
  return b.finalize();
}

std::string mjcf_body(const std::string& compiler, const std::string& body_attrs, const std::string& inside = "") {
  return "<mujoco model=\"t\">" + compiler + "<worldbody><body name=\"b\" " + body_attrs + "><freejoint/>" +
         (inside.empty() ? "<geom type=\"box\" size=\"0.1 0.05 0.025\"/>" : inside) + "</body></worldbody></mujoco>";
}

Model import_mjcf(const std::string& text, MjcfOptions o = {}) {
  ModelBuilder b;
  add_mjcf(b, text, o, "test.xml");
  return b.finalize();
}

}  // namespace

// --- E1.4-native-importers -------------------------------------------------------------------------

TEST(E1_4_native_importers, UrdfAndMjcfAddBodiesShapesAndJoints) {
  ModelBuilder b;
  int root = add_urdf(b, kArmUrdf, {}, "arm.urdf");
  EXPECT_EQ(root, 0);
  EXPECT_EQ(b.body_count(), 3);
  EXPECT_EQ(b.joint_count(), 3);  // FREE root + hinge + fixed
  EXPECT_EQ(b.shape_count(), 3);
  add_mjcf(b, mjcf_body("", "pos=\"1 0 0\""), {}, "box.xml");
  Model m = b.finalize();
  EXPECT_EQ(m.body_count, 4);
  EXPECT_EQ(m.articulation_count, 2);
  EXPECT_NEAR(m.body_mass.to_host()[3], 1.0, 1e-12);
  EXPECT_VEC3_NEAR(m.body_q.to_host()[3].p, (vec3{1, 0, 0}), 1e-15);
}

TEST(E1_4_native_importers, MalformedFilesAreRejectedWithFileAndLine) {
  ModelBuilder b;
  std::string e = error_of([&] { add_urdf(b, "<robot name=\"x\">\n  <link name=\"a\">\n</robot>", {}, "bad.urdf"); });
  EXPECT_NE(e.find("bad.urdf:2"), std::string::npos) << e;
  e = error_of([&] {
    add_urdf(b, "<robot>\n<link name=\"a\"/>\n<link name=\"b\"/>\n<joint name=\"j\" type=\"revolute\">\n"
                "<parent link=\"a\"/><child link=\"c\"/></joint></robot>", {}, "ref.urdf");
  });
  EXPECT_NE(e.find("ref.urdf:5"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown link 'c'"), std::string::npos) << e;
  ModelBuilder partial;  // an <inertial> without <inertia> keeps the geometry-derived mass (Newton 1.6.1)
  add_urdf(partial, "<robot><link name=\"a\"><inertial><mass value=\"5\"/></inertial><collision><geometry>"
                    "<box size=\"0.2 0.1 0.05\"/></geometry></collision></link></robot>", {}, "partial.urdf");
  EXPECT_NEAR(partial.finalize().body_mass.to_host()[0], 1.0, 1e-12);
  e = error_of([&] {
    add_urdf(b, "<robot><link name=\"a\">\n<inertial><mass value=\"-1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\"/>"
                "</inertial></link></robot>", {}, "mass.urdf");
  });
  EXPECT_NE(e.find("mass.urdf:2"), std::string::npos) << e;
  EXPECT_NE(e.find("mass must be positive"), std::string::npos) << e;
  e = error_of([&] { add_urdf(b, "<robot><link name=\"a\"><collision><geometry><mesh filename=\"x.stl\"/></geometry></collision></link></robot>", {}, "mesh.urdf"); });
  EXPECT_NE(e.find("meshes are not"), std::string::npos) << e;
  e = error_of([&] { add_mjcf(b, "<mujoco>\n<worldbody>\n<body quat=\"1 0 0\"/></worldbody></mujoco>", {}, "q.xml"); });
  EXPECT_NE(e.find("q.xml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("needs 4 numbers"), std::string::npos) << e;
  e = error_of([&] { parse_xml("<a x=1/>", "x.xml"); });
  EXPECT_NE(e.find("x.xml:1:"), std::string::npos) << e;
  e = error_of([&] { parse_xml("<a>\n<b></a>", "y.xml"); });
  EXPECT_NE(e.find("y.xml:2:"), std::string::npos) << e;
}

// --- E1.4-importer-table: one test per option -----------------------------------------------------------

TEST(E1_4_importer_table, UrdfScaleMultipliesGeometryAndOrigins) {
  UrdfOptions o;
  o.scale = 2;
  ModelBuilder b;
  add_urdf(b, kArmUrdf, o, "arm.urdf");
  EXPECT_VEC3_NEAR(b.joint_X_p[1].p, (vec3{0, 0, 0.1}), 1e-15);
  EXPECT_VEC3_NEAR(b.shape_scale[0], (vec3{0.2, 0.1, 0.05}), 1e-15);
  EXPECT_NEAR(b.finalize().body_mass.to_host()[0], 8.0, 1e-12);  // density path: s^3
}

TEST(E1_4_importer_table, UrdfUpAxisRotatesTheFileOntoTheBuilder) {
  UrdfOptions o;
  o.up_axis = Axis::y;
  ModelBuilder b;  // Z-up
  add_urdf(b, kArmUrdf, o, "arm.urdf");
  EXPECT_VEC3_NEAR(quat_rotate(b.body_q[0].q, {0, 1, 0}), (vec3{0, 0, 1}), 1e-15);
}

TEST(E1_4_importer_table, UrdfIgnoreInertialDefinitionsUsesGeometry) {
  UrdfOptions o;
  o.ignore_inertial_definitions = true;
  Model m = import_urdf(kBoxUrdf, o);
  EXPECT_NEAR(m.body_mass.to_host()[0], 1.0, 1e-12);  // the 0.2 x 0.1 x 0.05 m box at 1000 kg/m^3
  o.density = 500;
  EXPECT_NEAR(import_urdf(kBoxUrdf, o).body_mass.to_host()[0], 0.5, 1e-12);
}

TEST(E1_4_importer_table, UrdfVisualsAreNotCollidersUnlessAsked) {
  Model m = import_urdf(kBoxUrdf);
  std::vector<int> flags = m.shape_flags.to_host();
  ASSERT_EQ(flags.size(), 2u);
  EXPECT_TRUE(flags[0] & shape_collide);
  EXPECT_FALSE(flags[1] & shape_collide);  // the visual sphere
  UrdfOptions o;
  o.parse_visuals_as_colliders = true;
  EXPECT_TRUE(import_urdf(kBoxUrdf, o).shape_flags.to_host()[1] & shape_collide);
}

TEST(E1_4_importer_table, UrdfFixedJointCollapseMergesMass) {
  Model plain = import_urdf(kArmUrdf);
  UrdfOptions o;
  o.collapse_fixed_joints = true;
  Model merged = import_urdf(kArmUrdf, o);
  EXPECT_EQ(plain.body_count, 3);
  EXPECT_EQ(merged.body_count, 2);
  std::vector<real> a = plain.body_mass.to_host(), b = merged.body_mass.to_host();
  EXPECT_NEAR(b[1], a[1] + a[2], 1e-12);
}

TEST(E1_4_importer_table, MjcfInertiaFromGeomAndIgnoreInertial) {
  const std::string inside = "<inertial pos=\"0 0 0\" mass=\"3\" diaginertia=\"0.1 0.1 0.1\"/><geom type=\"box\" size=\"0.1 0.05 0.025\"/>";
  EXPECT_NEAR(import_mjcf(mjcf_body("", "", inside)).body_mass.to_host()[0], 3.0, 1e-12);  // auto: explicit wins
  EXPECT_NEAR(import_mjcf(mjcf_body("<compiler inertiafromgeom=\"true\"/>", "", inside)).body_mass.to_host()[0], 1.0, 1e-12);
  MjcfOptions o;
  o.ignore_inertial_definitions = true;
  EXPECT_NEAR(import_mjcf(mjcf_body("", "", inside), o).body_mass.to_host()[0], 1.0, 1e-12);
}

TEST(E1_4_importer_table, MjcfScaleAndGeomHalfSizes) {
  MjcfOptions o;
  o.scale = 2;
  Model m = import_mjcf(mjcf_body("", "pos=\"0 0 1\""), o);
  EXPECT_NEAR(m.body_mass.to_host()[0], 8.0, 1e-12);  // MJCF box sizes are half sizes
  EXPECT_VEC3_NEAR(m.body_q.to_host()[0].p, (vec3{0, 0, 2}), 1e-15);
}

// --- E1.4-explicit-inertial-scale ---------------------------------------------------------------------

TEST(E1_4_explicit_inertial_scale, GoldenUrdfAndMjcfKeepMassScaleComAndInertia) {
  golden::expect_course_values("E1.4-explicit-inertial-scale");
  UrdfOptions o;
  o.scale = 2;
  Model u = import_urdf(kBoxUrdf, o);
  EXPECT_NEAR(u.body_mass.to_host()[0], 1.0, 1e-15);  // not 8
  EXPECT_VEC3_NEAR(u.body_com.to_host()[0], (vec3{0.2, 0, 0}), 1e-15);
  EXPECT_NEAR(u.body_inertia.to_host()[0].m[0][0], 0.00416667, 1e-5 * 0.00416667);
  MjcfOptions mo;
  mo.scale = 2;
  Model m = import_mjcf(mjcf_body("", "", "<inertial pos=\"0.1 0 0\" mass=\"1\" diaginertia=\"0.00104167 0.00354167 0.00416667\"/>"
                                          "<geom type=\"box\" size=\"0.1 0.05 0.025\"/>"),
                        mo);
  EXPECT_NEAR(m.body_mass.to_host()[0], 1.0, 1e-15);
  EXPECT_VEC3_NEAR(m.body_com.to_host()[0], (vec3{0.2, 0, 0}), 1e-15);
  EXPECT_NEAR(m.body_inertia.to_host()[0].m[0][0], 0.00416667, 1e-5 * 0.00416667);
}

// --- E1.2-mjcf-wxyz / E1.2-mjcf-euler-compiler ----------------------------------------------------------

TEST(E1_2_mjcf_wxyz, GoldenQuaternionIsReorderedToXyzw) {
  golden::expect_course_values("E1.2-mjcf-wxyz");
  Model m = import_mjcf(mjcf_body("", "quat=\"0.70710678 0 0 0.70710678\""));
  EXPECT_TRUE(tol::same_rotation(m.body_q.to_host()[0].q, {0, 0, 0.70710678, 0.70710678}, 1e-8));
  EXPECT_VEC3_NEAR(quat_rotate(m.body_q.to_host()[0].q, {1, 0, 0}), (vec3{0, 1, 0}), 1e-8);  // +90 deg about z
}

TEST(E1_2_mjcf_euler_compiler, GoldenDegreeAndRadianGiveTheSameOrientation) {
  golden::expect_course_values("E1.2-mjcf-euler-compiler");
  quat deg = import_mjcf(mjcf_body("<compiler angle=\"degree\"/>", "euler=\"0 0 90\"")).body_q.to_host()[0].q;
  quat rad = import_mjcf(mjcf_body("<compiler angle=\"radian\"/>", "euler=\"0 0 1.5707963\"")).body_q.to_host()[0].q;
  quat dflt = import_mjcf(mjcf_body("", "euler=\"0 0 90\"")).body_q.to_host()[0].q;  // MuJoCo's default is degree
  EXPECT_TRUE(tol::same_rotation(deg, rad, 1e-7));
  EXPECT_TRUE(tol::same_rotation(deg, dflt, 0));
  // A hinge's State coordinate stays in radians whatever the compiler unit.
  ModelBuilder b;
  add_mjcf(b, "<mujoco><compiler angle=\"degree\"/><worldbody><body><joint type=\"hinge\" axis=\"0 0 1\"/>"
              "<geom type=\"sphere\" size=\"0.1\"/></body></worldbody></mujoco>", {}, "hinge.xml");
  EXPECT_EQ(b.joint_type[0], JointType::revolute);
  EXPECT_EQ(b.joint_q[0], 0);
}

// Found by verify/fuzz: a name or value with a newline made a two-line error. Names must be
// printable; every importer error is one line whatever it quotes.
TEST(E1_4_native_importers, ErrorsAreOneLineAndNamesPrintable) {
  ModelBuilder b;
  std::string e = error_of([&] { add_urdf(b, "<robot><link name=\"a&#10;b\"/></robot>", {}, "nl.urdf"); });
  EXPECT_NE(e.find("nl.urdf:1:"), std::string::npos) << e;
  EXPECT_NE(e.find("control character"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  e = error_of([&] {
    add_mjcf(b, "<mujoco><worldbody><body><geom type=\"x&#10;y\" size=\"1\"/></body></worldbody></mujoco>", {}, "nl.xml");
  });
  EXPECT_NE(e.find("unsupported geom type 'x?y'"), std::string::npos) << e;
}
