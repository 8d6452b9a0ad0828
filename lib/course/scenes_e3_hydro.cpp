// `e3-hydro-consumers`: route (c) and its consumers (course E3 §2 route (c), §3 E3.3-hydro-consumers).
// A hydroelastic sphere on a static, nearly rigid hydroelastic box, stepped side by side by
// SolverSemiImplicit and SolverXPBD from records written by the same pipeline: SemiImplicit reads
// the route's stiffness and settles at the depth where the linear law's force carries the weight;
// XPBD ignores it and projects the sphere out of the box. Also writes the pressure-field surface
// and its reduced contacts at the closed-form rest depth (the book's figure), and benches the
// collide of the pair by route (c) against route (a) on the same shapes. e3-hydro-force.csv sweeps the
// indentation: F_agg beside the closed form (verify/parity/drake_hydro.py adds Drake's force).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>
#include <vector>

#include "core/alloc_count.h"
#include "course/scenes.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/collision/hydroelastic_contact.h"
#include "e3/collision/mesh_sdf.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"
#include "e3/solvers/xpbd/solver_xpbd.h"

namespace impulse::course {

namespace {

constexpr real kRadius = 0.1;       // [m] sphere radius
constexpr real kDensity = 1000;     // [kg/m^3] ShapeConfig default
constexpr real kGroundKh = 1e14;    // [N/m^3] the box: nearly rigid

constexpr real kPiHydro = 3.14159265358979323846;

// The linear law's force on a sphere of radius R indented e into a rigid half-space (derived in
// chapters/e3/04-materials.md): F(e) = (pi kh / 3) e^2 (3 R - 2 e)  [N]; dF/de = 2 pi kh e (R - e).
real sphere_halfspace_force(real kh, real e) { return kPiHydro * kh / 3 * e * e * (3 * kRadius - 2 * e); }

// The indentation e at which F(e) = m g (Newton's method from the small-depth root).
real closed_form_rest_depth(real kh, real mg) {
  real e = std::sqrt(mg / (kPiHydro * kh * kRadius));
  for (int i = 0; i < 50; ++i) e -= (sphere_halfspace_force(kh, e) - mg) / (2 * kPiHydro * kh * e * (kRadius - e));
  return e;
}

// An icosphere of radius kRadius: the icosahedron's triangles split in four `levels` times, the new
// vertices pushed onto the sphere (vertices, then 3 indices per triangle).
std::pair<std::vector<vec3>, std::vector<int>> icosphere(int levels) {
  const real g = (1 + std::sqrt(real(5))) / 2;
  std::vector<vec3> v = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0}, {0, -1, g}, {0, 1, g},
                         {0, -1, -g}, {0, 1, -g}, {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
  std::vector<int> t = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
                        3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
  for (vec3& p : v) p = kRadius * normalize(p);
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      const auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      v.push_back(kRadius * normalize(v[a] + v[b]));
      return mid[key] = int(v.size()) - 1;
    };
    std::vector<int> next;
    for (std::size_t k = 0; k < t.size(); k += 3) {
      const int a = t[k], b = t[k + 1], c = t[k + 2];
      const int ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
    }
    t = std::move(next);
  }
  return {v, t};
}

// The sphere as a hydroelastic mesh (an icosphere of 20480 triangles) with a volume of voxel R / 32.
Model mesh_sphere_on_box(real kh, real z) {
  ModelBuilder b;
  ShapeConfig ground, ball;
  ground.is_hydroelastic = ball.is_hydroelastic = true;
  ground.sdf_max_resolution = 64;
  ball.sdf_target_voxel_size = kRadius / 32;
  ground.kh = kGroundKh;
  ball.kh = kh;
  b.add_shape_box(-1, {{0, 0, -0.5}, quat_identity()}, 1, 1, 0.5, ground);
  const auto [v, t] = icosphere(5);
  b.add_shape_mesh(b.add_body({{0, 0, z}, quat_identity()}), transform_identity(), v, t, {1, 1, 1}, ball);
  return b.finalize();
}

Model sphere_on_box(real kh, real z, bool hydroelastic) {
  ModelBuilder b;
  ShapeConfig ground, ball;
  ground.is_hydroelastic = ball.is_hydroelastic = hydroelastic;
  ground.sdf_max_resolution = ball.sdf_max_resolution = 64;
  ground.kh = kGroundKh;
  ball.kh = kh;
  // Four rows share the patch: the explicit viscous friction of the default kf = 1000 N s/m would
  // exceed its step bound kf h (1/m + R^2/I) < 2 / rows and set the sphere rocking.
  ground.kf = ball.kf = 100;
  b.add_shape_box(-1, {{0, 0, -0.5}, quat_identity()}, 1, 1, 0.5, ground);
  const int body = b.add_body({{0, 0, z}, quat_identity()});
  b.add_shape_sphere(body, transform_identity(), kRadius, ball);
  return b.finalize();
}

int run_hydro_consumers(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const real kh = a.positive("kh"), h = a.positive("h"), T = a.positive("duration");
  const int grid = int(a.integer("grid"));
  const real mg = kDensity * 4.0 / 3 * kPiHydro * kRadius * kRadius * kRadius * 9.81;
  const real e_rest = closed_form_rest_depth(kh, mg);
  Model ms = sphere_on_box(kh, kRadius, true), mx = sphere_on_box(kh, kRadius, true);
  CollisionPipeline ps(ms), px(mx);
  Contacts cs = ps.contacts(), cx = px.contacts();
  SolverSemiImplicit semi(ms);
  SolverXPBD xpbd(mx);
  State s0 = ms.state(), s1 = ms.state(), x0 = mx.state(), x1 = mx.state();
  Control c = ms.control();
  SceneTable& csv = out.table("e3-hydro-consumers.csv");
  csv << "t_s,depth_semi_implicit_m,depth_xpbd_m,depth_closed_form_m,stiffness_N_per_m\n";
  const int steps = int(T / h + 0.5);
  real k = 0;
  for (int i = 0; i < steps; ++i) {
    ps.collide(s0.body_q.view(), cs);
    fill_contact_materials(ms, SolverPath::semi_implicit, cs);
    ContactsView vs = cs.view();
    semi.step(s0, s1, c, &vs, h);
    std::swap(s0, s1);
    px.collide(x0.body_q.view(), cx);
    fill_contact_materials(mx, SolverPath::xpbd, cx);
    ContactsView vx = cx.view();
    xpbd.step(x0, x1, c, &vx, h);
    std::swap(x0, x1);
    k = cs.checked_count() > 0 ? cs.rigid_contact_stiffness.to_host()[0] : 0;
    csv << (i + 1) * h << ',' << kRadius - s0.body_q.to_host()[0].p.z << ',' << kRadius - x0.body_q.to_host()[0].p.z
        << ',' << e_rest << ',' << k << '\n';
  }
  const real d_semi = kRadius - s0.body_q.to_host()[0].p.z, d_xpbd = kRadius - x0.body_q.to_host()[0].p.z;

  // The surface at the closed-form rest depth: every sample, then the reduced contacts.
  const SdfShape ground{SHAPE_BOX, {1, 1, 0.5}, {{0, 0, -0.5}, quat_identity()}};
  const SdfShape ball{SHAPE_SPHERE, {kRadius, 0, 0}, {{0, 0, kRadius - e_rest}, quat_identity()}};
  SceneTable& surf = out.table("e3-hydro-surface.csv");
  surf << "x_m,y_m,pressure_Pa,area_m2\n";
  const HydroLattice L = hydro_patch_lattice(ground, ball, kGroundKh, kh, grid);
  for_each_hydro_row(ground, ball, kGroundKh, kh, L, [&](const HydroSample* s, int n) {
    for (int j = 0; j < n; ++j) surf << s[j].x.x << ',' << s[j].x.y << ',' << s[j].p << ',' << s[j].area << '\n';
  });
  const HydroReduced r = hydroelastic_reduce(ground, ball, kGroundKh, kh, grid);
  SceneTable& red = out.table("e3-hydro-reduced.csv");
  red << "x_m,y_m,depth_m,stiffness_N_per_m,force_N\n";
  for (int j = 0; j < r.count; ++j)
    red << r.x[j].x << ',' << r.x[j].y << ',' << r.depth[j] << ',' << r.k << ',' << r.k * r.depth[j] << '\n';

  // F_agg against the indentation, with the closed form beside it (and the Drake comparison's input).
  SceneTable& force = out.table("e3-hydro-force.csv");
  force << "depth_m,F_agg_N,F_closed_form_N\n";
  for (int i = 1; i <= 10; ++i) {
    const real e = real(0.003) * i;
    const SdfShape pressed{SHAPE_SPHERE, {kRadius, 0, 0}, {{0, 0, kRadius - e}, quat_identity()}};
    force << e << ',' << hydro_surface_force(ground, pressed, kGroundKh, kh, grid).z << ','
          << sphere_halfspace_force(kh, e) << '\n';
  }

  log << "e3-hydro-consumers: SemiImplicit rests at depth " << d_semi << " m (closed form " << e_rest
      << " m, stiffness " << k << " N/m); XPBD, given the same kind of record, at " << d_xpbd
      << " m (it ignores the stiffness); F_agg at the rest depth " << length(r.F_agg) << " N against m g = " << mg
      << " N from " << r.samples << " samples reduced to " << r.count
      << " contacts; wrote e3-hydro-consumers.csv, e3-hydro-surface.csv, e3-hydro-reduced.csv, e3-hydro-force.csv\n";
  return 0;
}

// Collide cost of the one pair by route (c) and by route (a) on the same shapes and poses, and by
// route (c) with the sphere as a mesh volume (measured, never asserted), with the heap allocations
// of a collide after the first (where the `impulse` command counts them). Primitive SDFs are closed
// forms: nothing is built at finalize; the mesh's volume is built there once (OpenVDB).
std::vector<Metric> bench_hydro(const SceneArgs& a) {
  const real kh = a.positive("kh");
  const int repeat = 200;
  struct Cost {
    double seconds;      // per collide [s]
    double allocations;  // per collide after the first [-]
  };
  auto per_collide = [&](const Model& m) {
    CollisionPipeline p(m);
    Contacts c = p.contacts();
    p.collide(m.body_q.view(), c);  // warm: buffers sized
    const std::uint64_t a0 = allocation_count();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < repeat; ++i) p.collide(m.body_q.view(), c);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / repeat;
    return Cost{s, double(allocation_count() - a0) / repeat};
  };
  const Cost c_route = per_collide(sphere_on_box(kh, kRadius - 0.005, true));
  const Cost a_route = per_collide(sphere_on_box(kh, kRadius - 0.005, false));
  std::vector<Metric> metrics = {{"collide_route_c_per_pair", c_route.seconds * 1e6, "us"},
                                 {"collide_route_a_per_pair", a_route.seconds * 1e6, "us"},
                                 {"route_c_over_route_a", c_route.seconds / a_route.seconds, "-"},
                                 {"sdf_build_primitives", 0, "s"},
                                 {"surface_samples_per_pair", double(kHydroSampleGrid * kHydroSampleGrid),
                                  "lattice lines^2"}};
  if (allocation_hook_installed())
    metrics.push_back({"allocations_per_collide_route_c", c_route.allocations, "-"});
  if (!mesh_sdf_available()) return metrics;
  const auto b0 = std::chrono::steady_clock::now();
  Model m = mesh_sphere_on_box(kh, kRadius - 0.005);
  const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - b0).count();
  const Cost mesh = per_collide(m);
  metrics.push_back({"collide_route_c_mesh_volume_per_pair", mesh.seconds * 1e6, "us"});
  if (allocation_hook_installed())
    metrics.push_back({"allocations_per_collide_route_c_mesh_volume", mesh.allocations, "-"});
  metrics.push_back({"sdf_build_mesh_20480_triangles_finalize", build, "s"});
  metrics.push_back({"sdf_mesh_volume_samples", double(m.sdf_values.size()), "-"});
  return metrics;
}

}  // namespace

void register_e3_hydro_scenes(SceneCatalogue& c) {
  c.add({"e3-hydro-consumers", "E3",
         "route (c): a hydroelastic sphere on a box, SemiImplicit reads the stiffness, XPBD ignores it",
         {{"kh", "N/m^3", "2e6", "hydroelastic modulus of the sphere (the box is nearly rigid, 1e14)"},
          {"h", "s", "0.001", "time step"},
          {"duration", "s", "1", "simulated time"},
          {"grid", "-", "24", "lattice lines per axis of the surface written for the figure"}},
         run_hydro_consumers, bench_hydro});
}

}  // namespace impulse::course
