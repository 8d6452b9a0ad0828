// Tests of lib/e1/model.h: ModelBuilder -> Model -> State / Control (course E1 §1, §2).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <type_traits>
#include <utility>
#include <stdexcept>
#include <string>

#include "e1/frames.h"
#include "e1/integrator.h"
#include "e1/kinematics.h"
#include "e1/model.h"
#include "support/generators.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

const transform kI = transform_identity();

// The course's §3 box body: half extents (0.10, 0.05, 0.025) m, default density, at xform.
int add_course_box(ModelBuilder& b, const transform& body_xform = transform_identity(),
                   const transform& shape_xform = transform_identity()) {
  int body = b.add_body(body_xform);
  b.add_shape_box(body, shape_xform, 0.10, 0.05, 0.025);
  return body;
}

template <class T>
bool bits_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0);
}

std::string finalize_error(const ModelBuilder& b) {
  try {
    b.finalize();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// --- E1.1-builder-finalize ------------------------------------------------------------------------

TEST(E1_1_builder_finalize, ModelArraysMatchBuilderCountsOnTheDevice) {
  ModelBuilder b;
  add_course_box(b);
  add_course_box(b);
  Model m = b.finalize(Device::cpu);
  EXPECT_EQ(m.device, Device::cpu);
  EXPECT_EQ(m.body_count, 2);
  EXPECT_EQ(m.body_q.size(), 2);
  EXPECT_EQ(m.body_q.device(), Device::cpu);
  EXPECT_EQ(m.joint_q_start.size(), m.joint_count + 1);
  EXPECT_EQ(m.shape_body.size(), m.shape_count);
  EXPECT_EQ(m.joint_q.size(), m.joint_coord_count);
  EXPECT_EQ(m.articulation_start.size(), m.articulation_count + 1);
}

TEST(E1_1_builder_finalize, GpuModelArraysLiveOnTheGpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU";
  ModelBuilder b;
  add_course_box(b);
  Model m = b.finalize(Device::cuda);
  EXPECT_EQ(m.body_mass.device(), Device::cuda);
  EXPECT_NEAR(m.body_mass.to_host()[0], 1.0, 1e-12);
}

TEST(E1_1_builder_finalize, RejectsBadInputNamingTheThingAndField) {
  struct Case {
    std::function<void(ModelBuilder&)> build;
    std::vector<std::string> words;
  };
  std::vector<Case> cases = {
      {[](ModelBuilder& b) { b.add_body(kI, {-1, {}, mat33_identity()}, false, false, "neg"); },
       {"body 0 'neg'", "mass"}},
      {[](ModelBuilder& b) { b.add_body(kI, {}, false, false, "empty"); }, {"body 0 'empty'", "mass must be positive"}},
      {[](ModelBuilder& b) { b.add_body(kI, {std::nan(""), {}, mat33_identity()}, false, false, "nan"); },
       {"body 0 'nan'", "not finite"}},
      {[](ModelBuilder& b) { b.add_body(kI, {1, {}, mat33_diag({1, 1, -1})}, false, false, "neg_i"); },
       {"body 0 'neg_i'", "inertia", "not positive definite"}},
      {[](ModelBuilder& b) { b.add_body(kI, {1, {}, mat33_diag({1, 1, 3})}, false, false, "tri"); },
       {"body 0 'tri'", "triangle"}},
      {[](ModelBuilder& b) {
         mat33 I = mat33_identity();
         I.m[0][1] = 0.5;
         b.add_body(kI, {1, {}, I}, false, false, "asym");
       },
       {"body 0 'asym'", "not symmetric"}},
      {[](ModelBuilder& b) { b.add_body({vec3{}, quat{0, 0, 0, 2}}, {}, false, false, "q2"); },
       {"body 0 'q2'", "xform", "not unit"}},
      {[](ModelBuilder& b) { b.add_body({vec3{}, quat{0, 0, 0, 0}}, {}, false, false, "q0"); },
       {"body 0 'q0'", "quaternion is zero"}},
      {[](ModelBuilder& b) {
         int c = add_course_box(b);
         b.add_joint_revolute(5, c, kI, kI, {0, 0, 1}, "hinge");
       },
       {"joint 1 'hinge'", "parent body 5 does not exist"}},
      {[](ModelBuilder& b) {
         int a = b.add_link(kI, {1, {}, mat33_identity()});
         int c = b.add_link(kI, {1, {}, mat33_identity()});
         b.add_joint_revolute(a, c, kI, kI, {0, 0, 0}, "zero_axis");
       },
       {"joint 0 'zero_axis'", "axis 0", "zero"}},
      {[](ModelBuilder& b) {
         int a = b.add_link(kI, {1, {}, mat33_identity()});
         int c = b.add_link(kI, {1, {}, mat33_identity()});
         b.add_joint_revolute(a, c, kI, kI, {0, 0, 1}, "ab");
         b.add_joint_revolute(c, a, kI, kI, {0, 0, 1}, "ba");
       },
       {"cycle"}},
      {[](ModelBuilder& b) {
         int body = b.add_body();
         b.add_shape_box(body, kI, 0.1, -0.05, 0.025, {}, "neg_box");
       },
       {"shape 0 (box, 'neg_box')", "half extent", "-0.05"}},
      {[](ModelBuilder& b) {
         int body = b.add_body();
         b.add_shape_box(body, {vec3{}, quat{0.1, 0, 0, 1}}, 0.1, 0.05, 0.025, {}, "tilted");
       },
       {"shape 0 (box, 'tilted')", "xform", "not unit"}},
      {[](ModelBuilder& b) { b.add_shape_sphere(3, kI, 0.1, {}, "orphan"); }, {"shape 0 (sphere, 'orphan')", "body 3"}},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    ModelBuilder b;
    std::string msg;
    try {
      cases[i].build(b);  // a bad shape is refused when it is added (Newton checks ShapeConfig there too)
      msg = finalize_error(b);
    } catch (const std::invalid_argument& e) {
      msg = e.what();
    }
    ASSERT_FALSE(msg.empty()) << "case " << i << " was accepted";
    for (const std::string& w : cases[i].words) EXPECT_NE(msg.find(w), std::string::npos) << "case " << i << ": " << msg;
  }
}

// --- E1.1-builder-model-decoupled ------------------------------------------------------------------

TEST(E1_1_builder_model_decoupled, EditingTheBuilderLeavesTheModelUntilTheNextFinalize) {
  ModelBuilder b;
  int body = add_course_box(b);
  Model m1 = b.finalize();
  add_course_box(b);
  b.body_q[body].p = {1, 2, 3};
  EXPECT_EQ(m1.body_count, 1);
  EXPECT_EQ(m1.joint_coord_count, 7);
  EXPECT_EQ(m1.body_q.to_host()[0].p.x, 0);
  Model m2 = b.finalize();
  EXPECT_EQ(m2.body_count, 2);
  EXPECT_EQ(m2.joint_coord_count, 14);
  EXPECT_EQ(m2.body_q.to_host()[0].p.x, 1);
}

// --- E1.1-param-update-notify ------------------------------------------------------------------------

TEST(E1_1_param_update_notify, NewGravityActsAfterTheSolverIsNotified) {
  ModelBuilder b;
  add_course_box(b);
  Model m = b.finalize();
  SolverRigidPredictor solver(m);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  const real h = 0.01;
  m.set_gravity({0, -3, 0});
  solver.notify_model_changed();
  solver.step(s0, s1, c, h);
  EXPECT_VEC3_NEAR(s1.body_qd.to_host()[0].lin, (vec3{0, -3 * h, 0}), 1e-14);
}

// --- E1.1-state-clone / E1.1-control-clone / E1.1-state-no-clock ---------------------------------

TEST(E1_1_state_clone, NewStatesCopyTheModelInitialValuesWithoutSharing) {
  ModelBuilder b;
  add_course_box(b, {vec3{0, 0, 1}, quat_identity()});
  Model m = b.finalize();
  State s = m.state(), s2 = m.state();
  EXPECT_TRUE(bits_equal(s.body_q.to_host(), m.body_q.to_host()));
  EXPECT_TRUE(bits_equal(s.joint_q.to_host(), m.joint_q.to_host()));
  EXPECT_NE(s.body_q.data(), m.body_q.data());
  EXPECT_NE(s.body_q.data(), s2.body_q.data());
  std::vector<transform> q = s.body_q.to_host();
  q[0].p.z = 7;
  s.body_q.copy_from_host(q.data());
  std::vector<real> jq = s.joint_q.to_host();
  jq[2] = 7;
  s.joint_q.copy_from_host(jq.data());
  EXPECT_EQ(m.body_q.to_host()[0].p.z, 1);
  EXPECT_EQ(m.joint_q.to_host()[2], 1);
  EXPECT_EQ(s2.body_q.to_host()[0].p.z, 1);
}

TEST(E1_1_control_clone, ClonedControlIsACopyUnclonedRefersToTheModel) {
  ModelBuilder b;
  add_course_box(b);
  Model m = b.finalize();
  Control cloned = m.control();
  Control aliased = m.control(false);
  cloned.joint_f[0] = 5;
  EXPECT_EQ(m.joint_f.to_host()[0], 0);
  aliased.joint_target_pos[1] = 3;
  EXPECT_EQ(m.joint_target_pos.to_host()[1], 3);
  EXPECT_EQ(aliased.joint_f.data, m.joint_f.data());
  EXPECT_NE(cloned.joint_f.data, m.joint_f.data());
}

// Compile-time: the State has no clock or step counter; time lives with the caller.
template <class S>
concept HasClock = requires(S s) { s.time; } || requires(S s) { s.t; } || requires(S s) { s.sim_time; } ||
                   requires(S s) { s.step_count; } || requires(S s) { s.dt; };

TEST(E1_1_state_no_clock, StateHasNoClockAndSteppingAdvancesNoEngineTime) {
  static_assert(!HasClock<State>, "State must not carry a clock");
  static_assert(!HasClock<Model>, "Model must not carry a clock");
  ModelBuilder b;
  add_course_box(b);
  Model m = b.finalize();
  SolverRigidPredictor solver(m);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  real t = 0;
  for (int i = 0; i < 3; ++i) {
    solver.step(s0, s1, c, 0.01);
    std::swap(s0, s1);
    t += 0.01;
  }
  EXPECT_NEAR(t, 0.03, 1e-15);
}

// --- E1.1-solver-step ---------------------------------------------------------------------------------

TEST(E1_1_solver_step, StepTakesInOutControlAndDtAndRefusesInEqualsOut) {
  ModelBuilder b;
  add_course_box(b);
  Model m = b.finalize();
  SolverRigidPredictor solver(m);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  static_assert(std::is_invocable_v<decltype(&SolverRigidPredictor::step), SolverRigidPredictor&, const State&, State&,
                                    const Control&, real>);
  EXPECT_THROW(solver.step(s0, s0, c, 0.01), std::invalid_argument);
  EXPECT_NO_THROW(solver.step(s0, s1, c, 0.01));
}

// --- E1.1-ownership-table ---------------------------------------------------------------------------

TEST(E1_1_ownership_table, EachRowsBoundaryHolds) {
  ModelBuilder builder;  // row ModelBuilder: host data, finalize again after adding topology
  int body = add_course_box(builder);
  Model model = builder.finalize();
  builder.add_body();
  EXPECT_EQ(model.body_count, 1);
  State state = model.state();  // row Model/State: initial values and current State are different arrays
  EXPECT_NE(state.body_q.data(), model.body_q.data());
  Control control = model.control();  // row Control: cloned by default
  EXPECT_NE(control.joint_f.data, model.joint_f.data());
  SolverRigidPredictor solver(model);  // row Solver: step(state_in, state_out, control, dt)
  State out = model.state();
  solver.step(state, out, control, 0.01);
  EXPECT_NE(out.body_q.to_host()[body].p.z, state.body_q.to_host()[body].p.z);
}

// --- E1.1-add-body-composite / E1.1-id-spaces ------------------------------------------------------

TEST(E1_1_add_body_composite, AddBodyIsOneLinkOneFreeJointOneArticulation) {
  ModelBuilder b;
  int before_j = b.joint_count(), before_a = b.articulation_count();
  int body = b.add_body();
  EXPECT_EQ(b.body_count(), 1);
  EXPECT_EQ(b.joint_count(), before_j + 1);
  EXPECT_EQ(b.articulation_count(), before_a + 1);
  EXPECT_EQ(b.joint_type[0], JointType::free);
  EXPECT_EQ(b.joint_parent[0], -1);
  EXPECT_EQ(b.joint_child[0], body);
  EXPECT_EQ(b.joint_coord_count(), 7);
  EXPECT_EQ(b.joint_dof_count(), 6);
}

TEST(E1_1_id_spaces, BodyShapeJointAndCoordinateNumbersAreDifferentSpaces) {
  ModelBuilder b;
  int ground = b.add_shape_plane(-1);
  int b0 = add_course_box(b);
  int b1 = b.add_body(kI, {}, false, false, "block");
  int s1 = b.add_shape_sphere(b1, kI, 0.05);
  Model m = b.finalize();
  EXPECT_EQ(ground, 0);
  EXPECT_EQ(b0, 0);
  EXPECT_EQ(b1, 1);
  EXPECT_EQ(s1, 2);  // shape IDs run ahead of body IDs once a world shape exists
  EXPECT_EQ(m.joint_q_start.to_host()[1], 7);
  EXPECT_EQ(m.joint_qd_start.to_host()[1], 6);
}

// --- E1.1-shape-xform-relative / E1.1-static-shape / E1.1-box-half-extents --------------------------

RC_GTEST_PROP(E1_1_shape_xform_relative, ShapeWorldPoseFollowsTheBody, ()) {
  transform body = *gen::rigid_transform(2), shape = *gen::rigid_transform(0.5), moved = *gen::rigid_transform(2);
  vec3 x = *gen::vector(0.3);
  vec3 expect = transform_point(body, transform_point(shape, x));
  RC_ASSERT(tol::near(transform_point(shape_world_transform(body, shape), x), expect, 1e-12));
  vec3 after = transform_point(shape_world_transform(moved, shape), x);
  RC_ASSERT(tol::near(after, transform_point(moved, transform_point(shape, x)), 1e-12));
}

TEST(E1_1_static_shape, WorldShapeAddsNoMassAndHasBodyMinusOne) {
  ModelBuilder b;
  int body = add_course_box(b);
  b.add_shape_box(-1, {vec3{0, 0, -1}, quat_identity()}, 1, 1, 0.1);
  Model m = b.finalize();
  EXPECT_EQ(m.shape_body.to_host()[1], -1);
  EXPECT_NEAR(m.body_mass.to_host()[body], 1.0, 1e-12);
}

TEST(E1_1_box_half_extents, HalfExtentsGiveOneKilogramAndAabbOfPlusMinusH) {
  ModelBuilder b;
  int body = add_course_box(b);
  Model m = b.finalize();
  EXPECT_NEAR(m.body_mass.to_host()[body], 1.0, 1e-12);  // full sizes would give 0.125 kg
  vec3 h = m.shape_scale.to_host()[0];
  EXPECT_EQ(h.x, 0.10);
  EXPECT_EQ(h.y, 0.05);
  EXPECT_EQ(h.z, 0.025);
}

// --- E1.1-multi-shape / E1.1-shape-is-static / E1.1-three-static-modes / E1.1-body-flags ------------

TEST(E1_1_multi_shape, VisibleAndCollideFlagsAreIndependentOfMass) {
  real masses[4];
  int flags[4];
  for (int k = 0; k < 4; ++k) {
    ModelBuilder b;
    int body = b.add_body();
    ShapeConfig cfg;
    cfg.is_visible = k & 1;
    cfg.has_shape_collision = k & 2;
    b.add_shape_box(body, kI, 0.10, 0.05, 0.025, cfg);
    b.add_shape_sphere(body, {vec3{0.2, 0, 0}, quat_identity()}, 0.05);
    Model m = b.finalize();
    masses[k] = m.body_mass.to_host()[0];
    flags[k] = m.shape_flags.to_host()[0];
  }
  for (int k = 1; k < 4; ++k) EXPECT_EQ(masses[k], masses[0]);
  EXPECT_EQ(flags[0], 0);
  EXPECT_EQ(flags[1], shape_visible);
  EXPECT_EQ(flags[2], shape_collide);
  EXPECT_EQ(flags[3], shape_visible | shape_collide);
}

TEST(E1_1_shape_is_static, StaticShapeAddsNoMassAndDoesNotFreezeItsBody) {
  ModelBuilder b;
  int body = add_course_box(b);
  ShapeConfig st;
  st.is_static = true;
  b.add_shape_sphere(body, {vec3{0.3, 0, 0}, quat_identity()}, 0.2, st);
  Model m = b.finalize();
  EXPECT_NEAR(m.body_mass.to_host()[0], 1.0, 1e-12);
  EXPECT_EQ(m.body_com.to_host()[0].x, 0);
  EXPECT_EQ(m.body_flags.to_host()[0], int(BodyFlag::dynamic));
  SolverRigidPredictor solver(m);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  solver.step(s0, s1, c, 0.01);
  EXPECT_LT(s1.body_q.to_host()[0].p.z, 0);  // it falls
}

TEST(E1_1_three_static_modes, WorldShapeFixedJointAndKinematicAreDifferentRecords) {
  ModelBuilder b;
  int ground = b.add_shape_box(-1, kI, 1, 1, 0.1);
  int held = b.add_link(kI, {1, {}, mat33_diag({0.1, 0.1, 0.1})});
  int fixed = b.add_joint_fixed(-1, held);
  b.add_articulation({fixed});
  int kin = b.add_body(kI, {}, false, true);
  Model m = b.finalize();
  EXPECT_EQ(m.shape_body.to_host()[ground], -1);
  EXPECT_EQ(m.joint_type.to_host()[fixed], int(JointType::fixed));
  EXPECT_EQ(m.body_flags.to_host()[held], int(BodyFlag::dynamic));
  EXPECT_EQ(m.body_flags.to_host()[kin], int(BodyFlag::kinematic));
}

TEST(E1_1_body_flags, FlagsAreDynamicOrKinematicOnly) {
  ModelBuilder b;
  add_course_box(b);
  b.add_body(kI, {}, false, true);
  Model m = b.finalize();
  for (int f : m.body_flags.to_host()) EXPECT_TRUE(f == int(BodyFlag::dynamic) || f == int(BodyFlag::kinematic));
  // The enum has exactly two members (no STATIC): static geometry is a shape with body = -1.
  EXPECT_EQ(int(BodyFlag::dynamic) | int(BodyFlag::kinematic), 3);
}

// --- E1.1-kinematic-semantics ---------------------------------------------------------------------

RC_GTEST_PROP(E1_1_kinematic_semantics, KinematicBodiesPassThroughBitForBit, ()) {
  ModelBuilder b(Axis::z, *gen::vector(20));
  int body = b.add_body(*gen::rigid_transform(2), {}, false, true);
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  std::vector<spatial_vector> qd{{*gen::vector(5), *gen::vector(5)}}, f{{*gen::vector(50), *gen::vector(50)}};
  s0.body_qd.copy_from_host(qd.data());
  s0.body_f.copy_from_host(f.data());
  SolverRigidPredictor solver(m, 0.5);
  Control c = m.control();
  solver.step(s0, s1, c, 0.01);
  RC_ASSERT(bits_equal(s1.body_q.to_host(), s0.body_q.to_host()));
  RC_ASSERT(bits_equal(s1.body_qd.to_host(), s0.body_qd.to_host()));
  RC_ASSERT(body == 0);
}

// --- E1.2-zup-default / E1.2-gravity-default / E1.2-up-axis-consistency -----------------------------

TEST(E1_2_zup_default, DefaultUpAxisIsZAndCanBeChosen) {
  EXPECT_EQ(ModelBuilder().up_axis, Axis::z);
  EXPECT_EQ(ModelBuilder(Axis::y).up_axis, Axis::y);
}

TEST(E1_2_gravity_default, DefaultIsMinus981AlongUpAndAnExplicitVectorIsKept) {
  EXPECT_VEC3_NEAR(ModelBuilder().gravity, (vec3{0, 0, -9.81}), 0);
  EXPECT_VEC3_NEAR(ModelBuilder(Axis::y).gravity, (vec3{0, -9.81, 0}), 0);
  EXPECT_VEC3_NEAR(ModelBuilder(Axis::x).gravity, (vec3{-9.81, 0, 0}), 0);
  for (Axis a : {Axis::x, Axis::y, Axis::z}) EXPECT_VEC3_NEAR(ModelBuilder(a, vec3{1, 2, 3}).gravity, (vec3{1, 2, 3}), 0);
  ModelBuilder b(Axis::y);
  b.add_body(kI, {1, {}, mat33_identity()});
  EXPECT_VEC3_NEAR(b.finalize().gravity, (vec3{0, -9.81, 0}), 0);
}

TEST(E1_2_up_axis_consistency, DefaultGroundNormalIsOppositeToDefaultGravity) {
  for (Axis a : {Axis::x, Axis::y, Axis::z}) {
    ModelBuilder b(a);
    int s = b.add_ground_plane();
    vec3 n = transform_vector(b.shape_transform[s], {0, 0, 1});
    vec3 g = normalize(b.gravity);
    EXPECT_NEAR(dot(n, g), -1, 1e-12) << "up axis " << int(a);
  }
}

// --- ShapeConfig: Newton's fields, checked when a shape is added, stored per shape ------------------

// Every material, collision and route (c) field of a bad value is refused at add_shape_* with one
// line naming the shape, the field, the value and its domain; nothing is added.
TEST(E1_1_builder_finalize, ShapeConfigFieldsAreCheckedWhenTheShapeIsAdded) {
  struct Case {
    std::function<void(ShapeConfig&)> set;
    std::string words;
  };
  const std::vector<Case> cases = {
      {[](ShapeConfig& c) { c.density = -1; }, "ShapeConfig.density = -1 is outside [0, inf) kg/m^3"},
      {[](ShapeConfig& c) { c.ke = -2; }, "ShapeConfig.ke = -2 is outside [0, inf) N/m"},
      {[](ShapeConfig& c) { c.kd = std::nan(""); }, "ShapeConfig.kd = nan"},
      {[](ShapeConfig& c) { c.kf = -1; }, "ShapeConfig.kf = -1"},
      {[](ShapeConfig& c) { c.ka = -1; }, "ShapeConfig.ka = -1"},
      {[](ShapeConfig& c) { c.mu = -0.5; }, "ShapeConfig.mu = -0.5 is outside [0, inf)"},
      {[](ShapeConfig& c) { c.restitution = 1.5; }, "ShapeConfig.restitution = 1.5 is outside [0, 1]"},
      {[](ShapeConfig& c) { c.mu_torsional = -1; }, "ShapeConfig.mu_torsional = -1"},
      {[](ShapeConfig& c) { c.mu_rolling = -1; }, "ShapeConfig.mu_rolling = -1"},
      {[](ShapeConfig& c) { c.margin = -0.01; }, "ShapeConfig.margin = -0.01 is outside [0, inf) m"},
      {[](ShapeConfig& c) { c.gap = INFINITY; }, "ShapeConfig.gap = inf"},
      {[](ShapeConfig& c) { c.kh = -1; }, "ShapeConfig.kh = -1 is outside [0, inf) N/m^3"},
      {[](ShapeConfig& c) { c.sdf_narrow_band_range[0] = 0.1; }, "ShapeConfig.sdf_narrow_band_range = (0.1, 0.1)"},
      {[](ShapeConfig& c) { c.sdf_max_resolution = 12; }, "ShapeConfig.sdf_max_resolution = 12"},
      {[](ShapeConfig& c) { c.sdf_target_voxel_size = -1; }, "ShapeConfig.sdf_target_voxel_size = -1"},
      {[](ShapeConfig& c) { c.is_hydroelastic = true; }, "without sdf_max_resolution or sdf_target_voxel_size"},
      {[](ShapeConfig& c) {
         c.is_hydroelastic = true;
         c.sdf_max_resolution = 64;
         c.kh = 0;
       },
       "ShapeConfig.kh = 0 is outside (0, inf) N/m^3 on a hydroelastic shape"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    ModelBuilder b;
    const int body = b.add_body();
    ShapeConfig cfg;
    cases[i].set(cfg);
    try {
      b.add_shape_box(body, kI, 0.1, 0.1, 0.1, cfg, "lid");
      ADD_FAILURE() << "case " << i << " was accepted";
    } catch (const std::invalid_argument& e) {
      const std::string w = e.what();
      EXPECT_NE(w.find("shape 0 (box, 'lid'): "), std::string::npos) << w;
      EXPECT_NE(w.find(cases[i].words), std::string::npos) << "case " << i << ": " << w;
      EXPECT_EQ(w.find('\n'), std::string::npos) << w;
    }
    EXPECT_EQ(b.shape_count(), 0) << "case " << i;
  }
  // A plane's hydroelastic flag is switched off, not refused (Newton's add_shape does the same).
  ModelBuilder b;
  ShapeConfig hydro;
  hydro.is_hydroelastic = true;
  b.add_ground_plane(0, hydro);
  EXPECT_FALSE(b.shape_config[0].is_hydroelastic);
}

// finalize writes each shape's ShapeConfig into the Model's per-shape columns under Newton's names;
// an unset gap takes the builder's rigid_gap; a shape without shape collision joins group 0.
TEST(E1_1_builder_finalize, ShapeConfigIsStoredPerShapeInTheModel) {
  ModelBuilder b;
  b.rigid_gap = 0.03;
  ShapeConfig ground, ball;
  ground.mu = 0.2, ground.ke = 1e4, ground.kd = 50, ground.kf = 10, ground.ka = 0.001, ground.restitution = 0.3;
  ground.mu_torsional = 0.01, ground.mu_rolling = 0.002, ground.kh = 5e9, ground.margin = 0.004;
  ground.collision_group = -3;
  ball.mu = 0.9, ball.gap = 0.2, ball.has_shape_collision = false;
  b.add_ground_plane(0, ground);
  b.current_world = 2;
  b.add_shape_sphere(b.add_body(), kI, 0.1, ball);
  const Model m = b.finalize();
  const auto mu = m.shape_material_mu.to_host(), ke = m.shape_material_ke.to_host(), kd = m.shape_material_kd.to_host(),
             kf = m.shape_material_kf.to_host(), ka = m.shape_material_ka.to_host(),
             e = m.shape_material_restitution.to_host(), mt = m.shape_material_mu_torsional.to_host(),
             mr = m.shape_material_mu_rolling.to_host(), kh = m.shape_material_kh.to_host(),
             margin = m.shape_margin.to_host(), gap = m.shape_gap.to_host();
  const auto group = m.shape_collision_group.to_host(), world = m.shape_world.to_host(), flags = m.shape_flags.to_host();
  EXPECT_EQ(mu[0], 0.2);
  EXPECT_EQ(ke[0], 1e4);
  EXPECT_EQ(kd[0], 50);
  EXPECT_EQ(kf[0], 10);
  EXPECT_EQ(ka[0], 0.001);
  EXPECT_EQ(e[0], 0.3);
  EXPECT_EQ(mt[0], 0.01);
  EXPECT_EQ(mr[0], 0.002);
  EXPECT_EQ(kh[0], 5e9);
  EXPECT_EQ(margin[0], 0.004);
  EXPECT_EQ(gap[0], 0.03);  // unset: the builder's rigid_gap
  EXPECT_EQ(group[0], -3);
  EXPECT_EQ(world[0], -1);
  EXPECT_EQ(mu[1], 0.9);
  EXPECT_EQ(ke[1], 2.5e3);  // Newton's default
  EXPECT_EQ(gap[1], 0.2);
  EXPECT_EQ(group[1], 0);   // has_shape_collision = false
  EXPECT_EQ(world[1], 2);
  EXPECT_EQ(flags[1] & shape_collide, 0);
}

// A convex hull's mass properties from density, against the box formula (E1.3-box-mass-inertia) on the
// hull of a box's corners, placed off the origin and scaled per axis.
TEST(E1_3_box_mass_inertia, HullOfABoxsCornersHasTheBoxsMassProperties) {
  const vec3 h{0.3, 0.2, 0.1}, c{1, -2, 0.5}, scale{2, 1, 0.5};
  std::vector<vec3> corners;
  for (int i = 0; i < 8; ++i)
    corners.push_back(vec3{(i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z} + c);
  ModelBuilder b;
  const int body = b.add_link();
  b.add_shape_convex_hull(body, kI, corners, scale);
  const MassProperties got = b.body_mass_properties[body];
  const MassProperties want = box_mass_properties(1000, h.x * scale.x, h.y * scale.y, h.z * scale.z);
  EXPECT_NEAR(got.mass, want.mass, 1e-9 * want.mass);
  EXPECT_NEAR(got.com.x, c.x * scale.x, 1e-12);
  EXPECT_NEAR(got.com.y, c.y * scale.y, 1e-12);
  EXPECT_NEAR(got.com.z, c.z * scale.z, 1e-12);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(got.inertia.m[i][k], want.inertia.m[i][k], 1e-9 * want.mass) << i << k;
}

// A finalized Model's arrays are read-only to everyone but the builder: even a non-const Model hands
// out const views only, and no Buffer can be assigned into it (the compiler refuses a hand edit).
TEST(E1_1_builder_model_decoupled, AFinalizedModelsArraysAreReadOnly) {
  static_assert(std::is_same_v<decltype(std::declval<Model&>().body_mass.view()), View<const real>>);
  static_assert(std::is_same_v<decltype(std::declval<Model&>().shape_material_mu.data()), const real*>);
  static_assert(!std::is_assignable_v<decltype(std::declval<Model&>().shape_material_mu)&, Buffer<real>>);
  static_assert(!std::is_assignable_v<decltype(std::declval<Model&>().body_q)&, Buffer<transform>>);
  ModelBuilder b;
  add_course_box(b);
  Model m = b.finalize();
  const Buffer<real>& mass = m.body_mass;  // a deep copy is still possible: Buffer<real> copy = m.body_mass
  Buffer<real> copy = mass;
  EXPECT_EQ(copy.to_host(), m.body_mass.to_host());
  EXPECT_NE(copy.data(), m.body_mass.data());
}
