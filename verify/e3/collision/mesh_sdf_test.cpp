// Route (c) on meshes: the signed-distance volume a hydroelastic mesh gets at finalize
// (lib/e3/collision/mesh_sdf.h, built with OpenVDB, sampled by sdf_volume.h) against the closed-form
// SDFs of the same solids, the pressure-field force of a mesh against the closed form of the linear
// law, and the one-line refusals at add_shape_mesh.
//
// Bounds (measured, then stated with a margin): trilinear interpolation of exact distance samples
// is exact where phi is linear across a cell and errs where the cell straddles a kink of phi (a
// box's medial planes and edges) or a curved level set, so the largest error is O(voxel). Away
// from the surface OpenVDB's samples are themselves approximate (the closest triangle is searched
// among the neighbours' closest ones): on an icosphere they were within 0.3 voxel at R/8 to R/64.
// For the sphere the tessellation adds its sagitta (about 1e-3 R at 4 subdivisions).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/device.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/collision/collision_kernels.h"
#include "e3/collision/hydro_backends.h"
#include "e3/collision/hydroelastic_contact.h"
#include "e3/collision/mesh_sdf.h"

using namespace impulse;

namespace {

struct TriMesh {
  std::vector<vec3> v;
  std::vector<int> t;
};

// The 12 outward triangles of a box with half extents e.
TriMesh box_mesh(vec3 e) {
  TriMesh m;
  for (int k = 0; k < 8; ++k) m.v.push_back({(k & 1) ? e.x : -e.x, (k & 2) ? e.y : -e.y, (k & 4) ? e.z : -e.z});
  m.t = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
  return m;
}

// An icosphere of radius R: the icosahedron with every triangle split in four `levels` times, the
// new vertices pushed onto the sphere.
TriMesh icosphere(real R, int levels) {
  const real g = (1 + std::sqrt(real(5))) / 2;
  TriMesh m;
  m.v = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0}, {0, -1, g}, {0, 1, g},
         {0, -1, -g}, {0, 1, -g}, {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
  m.t = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
         3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
  for (vec3& p : m.v) p = R * normalize(p);
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      m.v.push_back(R * normalize(m.v[a] + m.v[b]));
      return mid[key] = int(m.v.size()) - 1;
    };
    std::vector<int> next;
    for (std::size_t k = 0; k < m.t.size(); k += 3) {
      const int a = m.t[k], b = m.t[k + 1], c = m.t[k + 2];
      const int ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
    }
    m.t = next;
  }
  return m;
}

// A static hydroelastic mesh shape at voxel size h, finalized; its SDF through the pipeline's view.
struct MeshVolume {
  Model model;
  SdfShape sdf(const transform& X) const { return shape_sdf(shape_view(model), 0, X); }
};
MeshVolume mesh_volume(const TriMesh& mesh, real h, real kh = 1e8) {
  ModelBuilder b;
  ShapeConfig c;
  c.is_hydroelastic = true;
  c.sdf_target_voxel_size = h;
  c.kh = kh;
  b.add_shape_mesh(-1, transform_identity(), mesh.v, mesh.t, {1, 1, 1}, c);
  return {b.finalize()};
}

// Largest |phi_volume - phi_exact| over a fixed lattice of points in the box |q_k| < reach_k whose
// exact |phi| is below band [m].
template <class Exact>
real max_volume_error(const SdfShape& s, vec3 reach, real band, Exact exact) {
  real worst = 0;
  const int n = 23;  // odd and prime to the voxel counts: the points fall anywhere in their cells
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const vec3 q{reach.x * (2 * real(i) / (n - 1) - 1) * real(0.999), reach.y * (2 * real(j) / (n - 1) - 1) * real(0.997),
                     reach.z * (2 * real(k) / (n - 1) - 1) * real(0.995)};
        const real e = exact(q);
        if (std::abs(e) > band) continue;
        worst = std::max(worst, std::abs(sdf_distance(s, q) - e));
      }
  return worst;
}

real box_phi(vec3 e, vec3 q) { return sdf_primitive_local(SHAPE_BOX, e, q); }

}  // namespace

// A box mesh's volume against the box's closed-form SDF at three voxel sizes h: the largest error
// over the volume is below h / 2 and falls with h (the box is exact as a mesh, so all of the error
// is the trilinear interpolation's, at the kinks of phi).
TEST(E3_2_geometry_routes, OracleBoxMeshVolumeMatchesClosedFormSdf) {
  if (!mesh_sdf_available()) GTEST_SKIP() << "built without OpenVDB";
  const vec3 e{0.1, 0.06, 0.04};
  const TriMesh mesh = box_mesh(e);
  real previous = 1e30;
  for (real h : {0.02, 0.01, 0.005}) {
    const MeshVolume vol = mesh_volume(mesh, h);
    const real err = max_volume_error(vol.sdf(transform_identity()), e + vec3{h, h, h}, 1.0,
                                      [&](vec3 q) { return box_phi(e, q); });
    EXPECT_LT(err, 0.5 * h) << "h = " << h;
    EXPECT_LT(err, previous) << "h = " << h;
    previous = err;
  }
}

// An icosphere's volume (4 subdivisions, 5120 triangles) against |q| - R in the shell |phi| < R / 2
// inside the volume's box: the error falls with h and stays below h / 2 + 2e-3 R (the samples'
// and the interpolation's error, plus the tessellation).
TEST(E3_2_geometry_routes, OracleSphereMeshVolumeMatchesClosedFormSdf) {
  if (!mesh_sdf_available()) GTEST_SKIP() << "built without OpenVDB";
  const real R = 0.1;
  const TriMesh mesh = icosphere(R, 4);
  real previous = 1e30;
  for (real h : {R / 8, R / 16, R / 32}) {
    const MeshVolume vol = mesh_volume(mesh, h);
    const real err = max_volume_error(vol.sdf(transform_identity()), {R + h, R + h, R + h}, R / 2,
                                      [&](vec3 q) { return length(q) - R; });
    std::printf("icosphere volume, h = R/%.0f: largest error %.2e m = %.3f h\n", R / h, err, err / h);
    EXPECT_LT(err, 0.5 * h + 2e-3 * R) << "h = " << h;
    EXPECT_LT(err, previous) << "h = " << h;
    previous = err;
  }
}

// The volume's gradient is the interpolant's own: along the sphere's radius to 0.1 (the samples'
// error of up to 0.3 voxel, differenced over a voxel), on a placed and turned shape.
TEST(E3_2_geometry_routes, SphereMeshVolumeGradientIsTheOutwardNormal) {
  if (!mesh_sdf_available()) GTEST_SKIP() << "built without OpenVDB";
  const real R = 0.1;
  const MeshVolume vol = mesh_volume(icosphere(R, 4), R / 16);
  const SdfShape s = vol.sdf({{0.3, -0.2, 0.1}, quat_from_axis_angle(normalize(vec3{1, 2, 3}), 0.7)});
  for (vec3 dir : {vec3{1, 0, 0}, vec3{0.3, -0.8, 0.5}, vec3{-0.2, 0.1, -0.9}}) {
    const vec3 x = transform_point(s.X, 0.9 * R * normalize(dir));
    const vec3 g = sdf_gradient(s, x, 0);
    EXPECT_LT(length(g - quat_rotate(s.X.q, normalize(dir))), 0.1) << dir.x << " " << dir.y << " " << dir.z;
  }
}

// A compliant icosphere mesh (kh) pressed e = 10 mm into a rigid box: F_agg of the mesh's volume
// converges to the closed form (pi kh / 3) e^2 (3 R - 2 e) of the analytic sphere as the voxel
// shrinks; within 1 % at h = R / 32.
TEST(E3_3_hydro_Fagg, OracleSphereMeshIntoRigidHalfSpaceConvergesToClosedForm) {
  if (!mesh_sdf_available()) GTEST_SKIP() << "built without OpenVDB";
  const real R = 0.1, kh = 1e8, e = 0.01;
  const TriMesh mesh = icosphere(R, 5);
  const SdfShape ground{SHAPE_BOX, {1, 1, 0.5}, {{0, 0, -0.5}, quat_identity()}};
  const real expect = kPi * kh / 3 * e * e * (3 * R - 2 * e);
  std::vector<real> err;
  for (real h : {R / 8, R / 16, R / 32}) {
    const MeshVolume vol = mesh_volume(mesh, h, kh);
    const vec3 F = hydro_surface_force(ground, vol.sdf({{0, 0, R - e}, quat_identity()}), 1e16, kh, 64);
    err.push_back(std::abs(F.z - expect) / expect);
    std::printf("icosphere into a rigid half-space, h = R/%.0f: F_agg error %.2f %%\n", R / h, 100 * err.back());
    EXPECT_NEAR(F.x, 0, 1e-3 * expect);
    EXPECT_NEAR(F.y, 0, 1e-3 * expect);
  }
  EXPECT_LT(err[2], 0.01) << "h = R/32: " << err[2];
  EXPECT_LT(err[2], err[0]) << "R/8: " << err[0] << ", R/32: " << err[2];
}

// Through the pipeline: a hydroelastic icosphere mesh on a body (stored as its hull, with its
// volume) on a hydroelastic box takes route (c), and its rows carry the closed-form force to 1 %.
TEST(E3_2_geometry_routes, HydroelasticMeshOnABodyWritesRouteCRows) {
  if (!mesh_sdf_available()) GTEST_SKIP() << "built without OpenVDB";
  const real R = 0.1, kh = 1e7, e = 0.01;
  const TriMesh mesh = icosphere(R, 5);
  ModelBuilder b;
  ShapeConfig ground, ball;
  ground.is_hydroelastic = ball.is_hydroelastic = true;
  ground.sdf_max_resolution = 64;
  ball.sdf_target_voxel_size = R / 32;
  ground.kh = 1e14;
  ball.kh = kh;
  b.add_shape_box(-1, {{0, 0, -0.5}, quat_identity()}, 1, 1, 0.5, ground);
  const int body = b.add_body({{0, 0, R - e}, quat_identity()});
  b.add_shape_mesh(body, transform_identity(), mesh.v, mesh.t, {1, 1, 1}, ball);
  Model m = b.finalize();
  ASSERT_EQ(m.shape_sdf_volume.to_host()[1], 0);
  const auto [n, g, k, route] = collided_rows(m);
  ASSERT_GE(n, 1);
  ASSERT_LE(n, kMaxPairContacts);
  real F = 0;
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(route[i], static_cast<int>(GeometryRoute::hydroelastic));
    F += -k[i] * g.distance_m[i];
  }
  const real expect = kPi * kh / 3 * e * e * (3 * R - 2 * e);
  EXPECT_LT(std::abs(F - expect) / expect, 0.01) << F << " N vs " << expect << " N";
}

// The volume is read from device buffers by the same kernel: the CUDA record of the mesh sphere on
// the box matches the CPU's (count, gaps and stiffness; tolerances for the float contraction).
TEST(E3_2_geometry_routes, GpuHydroelasticMeshRowsMatchCpu) {
  if (!mesh_sdf_available()) GTEST_SKIP() << "built without OpenVDB";
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU";
  const TriMesh mesh = icosphere(0.1, 4);
  expect_hydroelastic_rows_match_across_backends([&](ModelBuilder& b, int body, ShapeConfig ball) {
    ball.sdf_target_voxel_size = 0.005;
    b.add_shape_mesh(body, transform_identity(), mesh.v, mesh.t, {1, 1, 1}, ball);
  });
}

namespace {

// The message add_shape_mesh throws for mesh with config c, or "" when it accepts it.
std::string refusal(const TriMesh& mesh, const ShapeConfig& c, int body = -1) {
  ModelBuilder b;
  if (body >= 0) body = b.add_body();
  try {
    b.add_shape_mesh(body, transform_identity(), mesh.v, mesh.t, {1, 1, 1}, c);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

ShapeConfig hydro(real h) {
  ShapeConfig c;
  c.is_hydroelastic = true;
  c.sdf_target_voxel_size = h;
  return c;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

// Bad input at add_shape_mesh, each one line naming the shape, the field and the allowed values.
TEST(E3_2_geometry_routes, HydroelasticMeshBadInputIsRefusedWhenAdded) {
  if (!mesh_sdf_available()) GTEST_SKIP() << "built without OpenVDB";
  const TriMesh box = box_mesh({0.5, 0.5, 0.5});
  TriMesh open = box;
  open.t.resize(open.t.size() - 3);  // one triangle less: an edge bounds one triangle
  const std::string not_closed = refusal(open, hydro(0.05));
  EXPECT_TRUE(has(not_closed, "shape 0 (mesh)") && has(not_closed, "a hydroelastic mesh must be closed")) << not_closed;
  EXPECT_TRUE(has(refusal(open, hydro(0.05), 0), "a hydroelastic mesh must be closed"));
  const std::string negative = refusal(box, hydro(-0.01));
  EXPECT_TRUE(has(negative, "ShapeConfig.sdf_target_voxel_size = -0.01") && has(negative, "[0, inf)")) << negative;
  const std::string unset = refusal(box, hydro(0));
  EXPECT_TRUE(has(unset, "without sdf_max_resolution or sdf_target_voxel_size")) << unset;
  // 1 m at 1 mm: 1005^3 samples, over the 2^24 cap.
  const std::string huge = refusal(box, hydro(0.001));
  EXPECT_TRUE(has(huge, "ShapeConfig.sdf_target_voxel_size") && has(huge, "more than the 16777216") &&
              has(huge, "use a voxel size >="))
      << huge;
  EXPECT_EQ(std::count(huge.begin(), huge.end(), '\n'), 0);
  ShapeConfig by_resolution;
  by_resolution.is_hydroelastic = true;
  by_resolution.sdf_max_resolution = 512;
  EXPECT_TRUE(has(refusal(box, by_resolution), "ShapeConfig.sdf_max_resolution = 512 needs"));
  EXPECT_EQ(refusal(box, hydro(0.01)), "");
  ShapeConfig kh0 = hydro(0.05);
  kh0.kh = 0;
  EXPECT_TRUE(has(refusal(box, kh0), "ShapeConfig.kh = 0"));
}
