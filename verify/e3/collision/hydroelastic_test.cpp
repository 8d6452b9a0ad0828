// Route (c), the hydroelastic pressure-field contact (lib/e3/collision/hydroelastic_contact.h),
// against closed forms of the linear law, its reduction's force target, convergence with the
// sampling density, and its consumers (course E3 §2 route (c), §3 F_agg and stiffness).
//
// Closed form (derived in chapters/e3/04-materials.md): a sphere of radius R and modulus kh pressed
// a depth e into a rigid half-space has the pressure p(r) = kh (R - sqrt(r^2 + (R - e)^2)) on the
// disc r <= a, a^2 = 2 R e - e^2, so
//   F(e) = int_0^a p(r) 2 pi r dr = (pi kh / 3) e^2 (3 R - 2 e)
// Two equal spheres (moduli kh) overlapping by delta balance on the mid-plane, each indented
// e = delta / 2, with the same F(e).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "core/device.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/collision/hydro_backends.h"
#include "e3/collision/hydroelastic_contact.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/generalized/solver_featherstone.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"
#include "e3/solvers/xpbd/solver_xpbd.h"

using namespace impulse;

namespace {


// F(e) of a sphere (R, kh) indented e into a rigid half-space [N].
real sphere_halfspace_force(real R, real kh, real e) { return kPi * kh / 3 * e * e * (3 * R - 2 * e); }

SdfShape sphere_at(real R, vec3 c) { return {SHAPE_SPHERE, {R, 0, 0}, {c, quat_identity()}}; }
// A 2 m x 2 m x 1 m box whose top face is the plane z = 0.
SdfShape half_space_box() { return {SHAPE_BOX, {1, 1, 0.5}, {{0, 0, -0.5}, quat_identity()}}; }

real rel_err(real a, real b) { return std::abs(a - b) / std::abs(b); }

}  // namespace

// The linear law on the balance surface: each sample's pressure equals -kh_a phi_a = -kh_b phi_b
// (Newton's linear_pressure on both sides) and k_eff times the local overlap.
TEST(E3_3_hydro_kh_series, SamplePressureIsEachSidesLinearLaw) {
  const SdfShape a = sphere_at(0.1, {0, 0, 0.09}), b = {SHAPE_BOX, {0.3, 0.3, 0.05}, {{0, 0, -0.05}, quat_identity()}};
  const real kh_a = 2e7, kh_b = 5e7;
  const HydroLattice L = hydro_patch_lattice(a, b, kh_a, kh_b, 16);
  int n_total = 0;
  for_each_hydro_row(a, b, kh_a, kh_b, L, [&](const HydroSample* s, int n) {
    for (int k = 0; k < n; ++k) {
      const real pa = -kh_a * sdf_distance(a, s[k].x), pb = -kh_b * sdf_distance(b, s[k].x);
      EXPECT_NEAR(s[k].p, pa, 1e-6 * pa);
      EXPECT_NEAR(s[k].p, pb, 1e-6 * pa);
      EXPECT_GT(s[k].p, 0);
    }
    n_total += n;
  });
  EXPECT_GT(n_total, 20);
}

// Sphere into a (nearly) rigid half-space: F_agg against the closed form at three depths, and the
// normal along +z... from the half-space (shape a) to the sphere (shape b).
TEST(E3_3_hydro_Fagg, OracleSphereIntoRigidHalfSpaceMatchesClosedForm) {
  const real R = 0.1, kh = 1e8;
  for (real e : {0.005, 0.01, 0.03}) {
    const SdfShape ball = sphere_at(R, {0, 0, R - e});
    const vec3 F = hydro_surface_force(half_space_box(), ball, 1e16, kh, 64);
    const real expect = sphere_halfspace_force(R, kh, e);
    EXPECT_LT(rel_err(F.z, expect), 0.002) << "e = " << e << ": F = " << F.z << " N, closed form " << expect;
    EXPECT_NEAR(F.x, 0, 1e-6 * expect);
    EXPECT_NEAR(F.y, 0, 1e-6 * expect);
  }
}

// The mirror case: a rigid sphere pressed e into a compliant half-space. The balance surface is the
// sphere's curved cap z(r) = h - sqrt(R^2 - r^2), h = R - e, where p = -kh z; n_z dA projects onto
// the disc r <= a, so
//   F_z = int_0^a kh (sqrt(R^2 - r^2) - h) 2 pi r dr = (pi kh / 3) (R - h)^2 (2 R + h)
//       = (pi kh / 3) e^2 (3 R - e)
// (not the compliant sphere's 3 R - 2 e); here the area of an oblique sample matters.
TEST(E3_3_hydro_Fagg, OracleRigidSphereIntoCompliantHalfSpaceMatchesClosedForm) {
  const real R = 0.1, kh = 1e8;
  for (real e : {0.01, 0.04}) {
    const vec3 F = hydro_surface_force(half_space_box(), sphere_at(R, {0, 0, R - e}), kh, 1e16, 64);
    const real expect = kPi * kh / 3 * e * e * (3 * R - e);
    EXPECT_LT(rel_err(F.z, expect), 0.002) << "e = " << e << ": F = " << F.z << " N, closed form " << expect;
  }
}

// Two equal compliant spheres: the balance surface is the mid-plane and k_eff = kh / 2 per unit of
// overlap; F = F(delta / 2).
TEST(E3_3_hydro_Fagg, OracleTwoEqualSpheresMatchClosedForm) {
  const real R = 0.05, kh = 3e7, delta = 0.01;
  const vec3 F = hydro_surface_force(sphere_at(R, {0, 0, 0}), sphere_at(R, {2 * R - delta, 0, 0}), kh, kh, 64);
  const real expect = sphere_halfspace_force(R, kh, delta / 2);
  EXPECT_LT(rel_err(F.x, expect), 0.002) << F.x << " vs " << expect;
}

// F_agg converges with the sampling density: on random spheres, depths and moduli the error at
// 48 lattice lines is below 0.5 % and not above the error at 8 (plus 0.1 %, as a coarse lattice
// can land on a lucky sum).
RC_GTEST_PROP(E3_3_hydro_Fagg, ConvergesWithSampleDensity, ()) {
  const real R = *rc::gen::inRange(20, 200) * real(1e-3);
  const real e = R * *rc::gen::inRange(5, 30) * real(1e-2);
  const real kh = std::pow(10.0, *rc::gen::inRange(6, 11));
  const SdfShape ball = sphere_at(R, {0, 0, R - e});
  const real expect = sphere_halfspace_force(R, kh, e);
  const real coarse = rel_err(hydro_surface_force(half_space_box(), ball, 1e18, kh, 8).z, expect);
  const real fine = rel_err(hydro_surface_force(half_space_box(), ball, 1e18, kh, 48).z, expect);
  RC_ASSERT(fine < 0.005);
  RC_ASSERT(fine <= coarse + 0.001);
}

// The reduction's force target: on random poses of random primitive pairs, the reduced contacts
// (at most kMaxPairContacts) with their common normal and stiffness k = ||F_agg|| / sum depth_j
// carry the unreduced surface's F_agg: sum_j k depth_j n = F_agg to 1e-9 relative.
RC_GTEST_PROP(E3_3_hydro_keq, ReducedContactsCarryTheUnreducedForce, ()) {
  const int types[5] = {SHAPE_SPHERE, SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CYLINDER, SHAPE_CONE};
  auto shape = [&](vec3 c) {
    SdfShape s;
    s.type = types[*rc::gen::inRange(0, 5)];
    s.scale = {*rc::gen::inRange(30, 100) * real(1e-3), *rc::gen::inRange(30, 100) * real(1e-3),
               *rc::gen::inRange(30, 100) * real(1e-3)};
    const vec3 axis{*rc::gen::inRange(-100, 101) * real(1e-2), *rc::gen::inRange(-100, 101) * real(1e-2), 1};
    s.X = {c, quat_from_axis_angle(normalize(axis), *rc::gen::inRange(0, 314) * real(1e-2))};
    return s;
  };
  const SdfShape a = shape({0, 0, 0});
  const SdfShape b = shape({*rc::gen::inRange(-20, 21) * real(1e-3), *rc::gen::inRange(-20, 21) * real(1e-3),
                            *rc::gen::inRange(40, 120) * real(1e-3)});
  const real kh_a = std::pow(10.0, *rc::gen::inRange(6, 10)), kh_b = std::pow(10.0, *rc::gen::inRange(6, 10));
  const HydroReduced r = hydroelastic_reduce(a, b, kh_a, kh_b, 16);
  const vec3 F_unreduced = hydro_surface_force(a, b, kh_a, kh_b, 16);
  RC_PRE(r.count > 0);
  RC_ASSERT(r.count <= kMaxPairContacts);
  vec3 F{};
  for (int j = 0; j < r.count; ++j) {
    RC_ASSERT(r.depth[j] > 0);
    F += (r.k * r.depth[j]) * r.n;
  }
  RC_ASSERT(length(F - F_unreduced) <= 1e-9 * length(F_unreduced));
}

namespace {

// A hydroelastic sphere (radius R, modulus kh, density 1000) resting on a static, nearly rigid
// hydroelastic box whose top is z = 0, released at depth e0.
Model sphere_on_box_model(real R, real kh, real e0) {
  ModelBuilder b;
  ShapeConfig ground, ball;
  ground.is_hydroelastic = ball.is_hydroelastic = true;
  ground.sdf_max_resolution = ball.sdf_max_resolution = 64;
  ground.kh = 1e14;
  ball.kh = kh;
  // Four rows share the patch: the explicit viscous friction of the default kf = 1000 N s/m would
  // exceed its step bound kf h (1/m + R^2/I) < 2 / rows and set the sphere rocking.
  ground.kf = ball.kf = 100;
  b.add_shape_box(-1, {{0, 0, -0.5}, quat_identity()}, 1, 1, 0.5, ground);
  const int body = b.add_body({{0, 0, R - e0}, quat_identity()});
  b.add_shape_sphere(body, transform_identity(), R, ball);
  return b.finalize();
}

template <class Solver>
real rest_depth(Model& m, real R, SolverPath path, real h, int steps) {
  Solver solver(m);
  CollisionPipeline pipeline(m);
  Contacts contacts = pipeline.contacts();
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  for (int i = 0; i < steps; ++i) {
    pipeline.collide(s0.body_q.view(), contacts);
    fill_contact_materials(m, path, contacts);
    ContactsView v = contacts.view();
    solver.step(s0, s1, c, &v, h);
    std::swap(s0, s1);
  }
  return R - s0.body_q.to_host()[0].p.z;
}

}  // namespace

// The pipeline writes route (c) rows: at most kMaxPairContacts rows for the pair, each with the
// pair's stiffness k in rigid_contact_stiffness and a negative gap; sum k |d_j| equals the
// closed-form force of the sphere's indentation.
TEST(E3_2_geometry_routes, HydroelasticPairWritesReducedRowsWithStiffness) {
  const real R = 0.1, kh = 1e7, e = 0.01;
  Model m = sphere_on_box_model(R, kh, e);
  const auto [n, g, k, route] = collided_rows(m);
  ASSERT_GE(n, 1);
  ASSERT_LE(n, kMaxPairContacts);
  real F = 0;
  for (int i = 0; i < n; ++i) {
    EXPECT_LT(g.distance_m[i], 0);
    EXPECT_GT(k[i], 0);
    EXPECT_EQ(k[i], k[0]);
    F += -k[i] * g.distance_m[i];
  }
  EXPECT_LT(rel_err(F, sphere_halfspace_force(R, kh, e)), 0.005);
}

// SemiImplicit and Featherstone read the stiffness (E3.3-hydro-consumers): the sphere settles at
// the depth where the closed-form force carries its weight, m g = (pi kh / 3) e^2 (3 R - 2 e),
// within 1 % (the 24-line lattice is within 0.2 % of the closed-form force).
TEST(E3_3_hydro_consumers, SimPenaltySolversRestAtTheLinearLawsDepth) {
  const real R = 0.1, kh = 2e6;
  const real mg = 1000 * 4.0 / 3 * kPi * R * R * R * 9.81;
  real e = 0.005;  // Newton's method on F(e) = m g, independent of the engine
  for (int i = 0; i < 50; ++i) e -= (sphere_halfspace_force(R, kh, e) - mg) / (kPi * kh * e * (2 * R - 2 * e));
  Model m = sphere_on_box_model(R, kh, e);
  const real semi = rest_depth<SolverSemiImplicit>(m, R, SolverPath::semi_implicit, 1e-3, 1000);
  const real feather = rest_depth<SolverFeatherstone>(m, R, SolverPath::semi_implicit, 1e-3, 1000);
  EXPECT_LT(rel_err(semi, e), 0.01) << "SemiImplicit rests at " << semi << " m, closed form " << e;
  EXPECT_LT(rel_err(feather, e), 0.01) << "Featherstone rests at " << feather << " m, closed form " << e;
}

// XPBD given the same record ignores the stiffness (E3.3-hydro-consumers): its trajectory is
// bitwise the same with the route's stiffness column and with that column zeroed, where
// SemiImplicit's is not.
TEST(E3_3_hydro_consumers, XpbdIgnoresTheStiffnessThatSemiImplicitReads) {
  const real R = 0.1, kh = 2e6;
  auto run = [&](bool xpbd, bool zero_stiffness) {
    Model m = sphere_on_box_model(R, kh, 0.004);
    CollisionPipeline pipeline(m);
    Contacts contacts = pipeline.contacts();
    SolverXPBD x(m);
    SolverSemiImplicit si(m);
    State s0 = m.state(), s1 = m.state();
    Control c = m.control();
    for (int i = 0; i < 50; ++i) {
      pipeline.collide(s0.body_q.view(), contacts);
      if (zero_stiffness) {
        std::vector<real> zero(contacts.rigid_contact_max, 0);
        contacts.rigid_contact_stiffness.copy_from_host(zero.data());
      }
      fill_contact_materials(m, xpbd ? SolverPath::xpbd : SolverPath::semi_implicit, contacts);
      ContactsView v = contacts.view();
      if (xpbd) x.step(s0, s1, c, &v, 1e-3);
      else si.step(s0, s1, c, &v, 1e-3);
      std::swap(s0, s1);
    }
    return s0.body_q.to_host()[0].p.z;
  };
  EXPECT_EQ(run(true, false), run(true, true));
  EXPECT_NE(run(false, false), run(false, true));
}

// The route runs on the GPU from the same source: the CUDA record of the sphere on the box matches
// the CPU's (count, shapes, stiffness and gaps; tolerances for the different float contraction).
TEST(E3_2_geometry_routes, GpuHydroelasticRowsMatchCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU";
  expect_hydroelastic_rows_match_across_backends([](ModelBuilder& b, int body, ShapeConfig ball) {
    ball.sdf_max_resolution = 64;
    b.add_shape_sphere(body, transform_identity(), 0.1, ball);
  });
}

// --- the cone's SDF (sdf_primitives.h: sdf_cone_local) --------------------------------------------

namespace {

// A dense sample of a cone's surface (base radius r at z = -h, apex at z = +h): the slant surface
// and the base disc, each on an (along, around) grid that includes the apex, the rim and the base
// centre. spacing is the longest cell diagonal [m].
struct ConeSurfaceSample {
  std::vector<vec3> points;
  real spacing = 0;
};
ConeSurfaceSample sample_cone_surface(real r, real h, int along, int around) {
  ConeSurfaceSample s;
  for (int j = 0; j < around; ++j) {
    const real a = 2 * kPi * j / around, c = std::cos(a), sn = std::sin(a);
    for (int i = 0; i <= along; ++i) {
      const real u = real(i) / along;  // 0 at the apex (slant) or the base centre (disc), 1 at the rim
      s.points.push_back({u * r * c, u * r * sn, h - 2 * h * u});
      s.points.push_back({u * r * c, u * r * sn, -h});
    }
  }
  const real arc = 2 * kPi * r / around, step = std::sqrt(r * r + 4 * h * h) / along;
  s.spacing = std::sqrt(arc * arc + step * step);
  return s;
}

}  // namespace

// Oracle: on random cones and random points around them, |phi| is the distance to the nearest
// point of a dense surface sample (never more, and less by at most half a cell diagonal), and the
// sign of phi is the analytic membership rho <= r (h - z) / (2 h), z >= -h.
RC_GTEST_PROP(E3_2_geometry_routes, OracleConeSdfMatchesADenseSurfaceSample, ()) {
  const real r = *rc::gen::inRange(20, 150) * real(1e-3), h = *rc::gen::inRange(20, 150) * real(1e-3);
  const ConeSurfaceSample s = sample_cone_surface(r, h, 160, 400);
  for (int k = 0; k < 10; ++k) {
    const vec3 q{*rc::gen::inRange(-1500, 1501) * real(1e-3) * r, *rc::gen::inRange(-1500, 1501) * real(1e-3) * r,
                 *rc::gen::inRange(-1500, 1501) * real(1e-3) * h};
    real oracle = 1e30;
    for (const vec3& p : s.points) oracle = std::min(oracle, length(q - p));
    const real phi = sdf_primitive_local(SHAPE_CONE, {r, h, 0}, q);
    RC_ASSERT(std::abs(phi) <= oracle + 1e-12);
    RC_ASSERT(oracle - std::abs(phi) <= real(0.5) * s.spacing);
    const real rho = std::sqrt(q.x * q.x + q.y * q.y);
    const bool inside = q.z >= -h && rho <= r * (h - q.z) / (2 * h);
    if (std::abs(phi) > 1e-12) RC_ASSERT((phi < 0) == inside);
  }
}

// A compliant cone (half angle alpha, tan alpha = r / (2 h)) pressed apex first a depth e into a
// rigid half-space: the contact surface is the disc of radius a = e tan alpha on z = 0, where the
// cone's overlap is the distance to its slant, (a - rho) cos alpha, so
//   F = int_0^a kh (a - rho) cos(alpha) 2 pi rho drho = (pi kh / 3) a^3 cos(alpha)
// From 2 mm to 60 mm the patch's radius runs from 1/200 to 3/20 of the cone's box (0.4 m wide);
// the lattice follows the patch (hydro_patch_lattice), so the error does not grow as it shrinks.
TEST(E3_3_hydro_Fagg, OracleConeApexIntoRigidHalfSpaceMatchesClosedForm) {
  const real r = 0.2, h = 0.1, kh = 1e8;
  const real alpha = std::atan(r / (2 * h));
  for (real e : {0.002, 0.005, 0.01, 0.03, 0.06}) {
    const SdfShape cone{SHAPE_CONE, {r, h, 0}, {{0, 0, h - e}, quat_from_axis_angle({1, 0, 0}, kPi)}};
    const vec3 F = hydro_surface_force(half_space_box(), cone, 1e16, kh, 64);
    const real a = e * std::tan(alpha), expect = kPi * kh / 3 * a * a * a * std::cos(alpha);
    EXPECT_LT(rel_err(F.z, expect), 0.003) << "e = " << e << ": F = " << F.z << " N, closed form " << expect;
    EXPECT_NEAR(F.x, 0, 1e-6 * expect);
    EXPECT_NEAR(F.y, 0, 1e-6 * expect);
  }
}

// The small patch converges with the lattice: a cone's apex 10 mm into a rigid half-space (the
// patch 1/20 of the cone's box) against the closed form above, at 8 to 64 lattice lines per axis.
// The error falls with the lines (to within 0.1 %, as a coarse lattice can land on a lucky sum) and
// is below 1 % at the pipeline's kHydroSampleGrid = 24 and below 0.3 % at 64.
TEST(E3_3_hydro_Fagg, SmallConePatchConvergesWithLatticeLines) {
  const real r = 0.2, h = 0.1, kh = 1e8, e = 0.01;
  const real alpha = std::atan(r / (2 * h)), a = e * std::tan(alpha);
  const real expect = kPi * kh / 3 * a * a * a * std::cos(alpha);
  const SdfShape cone{SHAPE_CONE, {r, h, 0}, {{0, 0, h - e}, quat_from_axis_angle({1, 0, 0}, kPi)}};
  real previous = 1e30;
  for (int grid : {8, 16, 24, 32, 64}) {
    const real err = rel_err(hydro_surface_force(half_space_box(), cone, 1e16, kh, grid).z, expect);
    EXPECT_LE(err, previous + 0.001) << grid << " lines";
    if (grid == kHydroSampleGrid) EXPECT_LT(err, 0.01);
    if (grid == 64) EXPECT_LT(err, 0.003);
    previous = err;
    std::printf("cone e = 10 mm, %d lines: F_agg error %.4f %%\n", grid, 100 * err);
  }
}

// Two shapes whose bounding boxes overlap but whose solids do not (a sphere off a box's corner):
// the probe pass proves the overlap empty (1-Lipschitz bound) and no sample is taken.
TEST(E3_3_hydro_Fagg, DisjointShapesInOverlappingBoxesGiveNoSurface) {
  const SdfShape box{SHAPE_BOX, {0.1, 0.1, 0.1}, {{0, 0, 0}, quat_identity()}};
  const SdfShape ball = sphere_at(0.05, {0.14, 0.14, 0.14});
  EXPECT_TRUE(hydro_patch_lattice(box, ball, 1e7, 1e7, 24).empty);
  EXPECT_EQ(hydroelastic_reduce(box, ball, 1e7, 1e7, 24).count, 0);
}

// A hydroelastic cone (accepted by the Model's check) tilted on a hydroelastic box: the pipeline's
// route (c) rows carry the unreduced surface's force, sum_j k_j |d_j| n_j = F_agg.
TEST(E3_3_hydro_keq, ConeOnBoxRowsCarryTheUnreducedForce) {
  const real r = 0.05, h = 0.06, kh_cone = 2e7, kh_box = 5e8;
  ModelBuilder b;
  ShapeConfig box, cone;
  box.is_hydroelastic = cone.is_hydroelastic = true;
  box.sdf_max_resolution = cone.sdf_max_resolution = 64;
  box.kh = kh_box;
  cone.kh = kh_cone;
  b.add_shape_box(-1, {{0, 0, -0.5}, quat_identity()}, 1, 1, 0.5, box);
  const transform X{{0.01, -0.02, h - 0.004}, quat_from_axis_angle(normalize(vec3{1, 0.5, 0}), 0.2)};
  const int body = b.add_body(X);
  ASSERT_NO_THROW(b.add_shape_cone(body, transform_identity(), r, h, cone));
  Model m = b.finalize();
  const auto [n, g, k, route] = collided_rows(m);
  ASSERT_GE(n, 1);
  ASSERT_LE(n, kMaxPairContacts);
  vec3 F{};
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(route[i], static_cast<int>(GeometryRoute::hydroelastic));
    EXPECT_LT(g.distance_m[i], 0);
    F += (k[i] * -g.distance_m[i]) * g.normal_world[i];
  }
  const SdfShape a{SHAPE_BOX, {1, 1, 0.5}, {{0, 0, -0.5}, quat_identity()}}, c{SHAPE_CONE, {r, h, 0}, X};
  const vec3 F_unreduced = hydro_surface_force(a, c, kh_box, kh_cone, kHydroSampleGrid);
  EXPECT_GT(F_unreduced.z, 0);
  EXPECT_LE(length(F - F_unreduced), 1e-9 * length(F_unreduced)) << F_unreduced.z << " N";
}
