#include "e1/model.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "e1/inertia_validity.h"
#include "e3/collision/shape_geometry.h"

namespace impulse {

namespace {

std::string fmt(real v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

std::string name_of(const char* kind, int id, const std::string& label) {
  std::string s = std::string(kind) + " " + std::to_string(id);
  if (!label.empty()) s += " '" + label + "'";
  return s;
}

bool finite(vec3 v) { return std::isfinite(double(v.x)) && std::isfinite(double(v.y)) && std::isfinite(double(v.z)); }

void check_transform(const transform& t, const std::string& who, const char* field) {
  if (!finite(t.p)) throw std::invalid_argument(who + ": " + field + " translation is not finite");
  real n = quat_norm(t.q);
  if (!std::isfinite(double(n))) throw std::invalid_argument(who + ": " + field + " quaternion is not finite");
  if (n == 0) throw std::invalid_argument(who + ": " + field + " quaternion is zero");
  if (std::abs(double(n) - 1) > 1e-6)
    throw std::invalid_argument(who + ": " + field + " quaternion is not unit (norm " + fmt(n) +
                                "); quaternions are (x, y, z, w) with norm 1");
}

vec3 axis_of(Axis a, real v) {
  vec3 r{};
  if (a == Axis::x) r.x = v;
  if (a == Axis::y) r.y = v;
  if (a == Axis::z) r.z = v;
  return r;
}

}  // namespace

static_assert(int(ShapeType::plane) == SHAPE_PLANE && int(ShapeType::sphere) == SHAPE_SPHERE &&
                  int(ShapeType::capsule) == SHAPE_CAPSULE && int(ShapeType::box) == SHAPE_BOX &&
                  int(ShapeType::cylinder) == SHAPE_CYLINDER && int(ShapeType::convex_hull) == SHAPE_CONVEX_HULL &&
                  int(ShapeType::mesh) == SHAPE_MESH && int(ShapeType::cone) == SHAPE_CONE,
              "one shape numbering for the Model and the collision kernels");

MassProperties shape_mass_properties(ShapeType t, vec3 s, real density) {
  switch (t) {
    case ShapeType::box: return box_mass_properties(density, s.x, s.y, s.z);
    case ShapeType::sphere: return sphere_mass_properties(density, s.x);
    case ShapeType::capsule: return capsule_mass_properties(density, s.x, s.y);
    case ShapeType::cylinder: return cylinder_mass_properties(density, s.x, s.y);
    case ShapeType::cone: return cone_mass_properties(density, s.x, s.y);
    case ShapeType::plane:
    case ShapeType::convex_hull:
    case ShapeType::mesh: return {};
  }
  return {};
}

MassProperties convex_hull_mass_properties(const std::vector<vec3>& points, const std::vector<int>& face_start,
                                           const std::vector<int>& face_vertices, vec3 scale, real density) {
  // Tetrahedra from the origin to a fan of each face; the origin need not be inside (signed volumes).
  auto at = [](vec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); };
  real V = 0;
  vec3 first{};
  mat33 C{};
  for (std::size_t f = 0; f + 1 < face_start.size(); ++f) {
    const vec3 a = mul_elem(points[face_vertices[face_start[f]]], scale);
    for (int k = face_start[f] + 1; k + 1 < face_start[f + 1]; ++k) {
      const vec3 b = mul_elem(points[face_vertices[k]], scale), c = mul_elem(points[face_vertices[k + 1]], scale);
      const real Vt = dot(a, cross(b, c)) / 6;
      const vec3 sum = a + b + c;
      V += Vt;
      first += (Vt / 4) * sum;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          C.m[i][j] += Vt / 20 * (at(a, i) * at(a, j) + at(b, i) * at(b, j) + at(c, i) * at(c, j) + at(sum, i) * at(sum, j));
    }
  }
  MassProperties mp;
  if (!(V > 0)) return mp;  // empty, flat or inward-wound
  mp.mass = density * V;
  mp.com = first / V;
  const real tr = C.m[0][0] + C.m[1][1] + C.m[2][2];
  const vec3 c = mp.com;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      mp.inertia.m[i][j] =
          density * ((i == j ? tr : 0) - C.m[i][j]) - mp.mass * ((i == j ? dot(c, c) : 0) - at(c, i) * at(c, j));
  return mp;
}

MassProperties mesh_mass_properties(const std::vector<vec3>& vertices, const std::vector<int>& indices, vec3 scale,
                                    real density) {
  const int n = int(indices.size() / 3);
  std::vector<int> start(std::size_t(n) + 1), wound(indices);
  for (int t = 0; t <= n; ++t) start[t] = 3 * t;
  MassProperties p = convex_hull_mass_properties(vertices, start, wound, scale, density);
  if (p.mass > 0 || density <= 0) return p;
  for (int t = 0; t < n; ++t) std::swap(wound[3 * t + 1], wound[3 * t + 2]);  // wound inward: flip every triangle
  return convex_hull_mass_properties(vertices, start, wound, scale, density);
}

void validate_shape_config(const ShapeConfig& c, ShapeType t, const std::string& who) {
  auto fail = [&](const char* field, const std::string& value, const char* domain) {
    throw std::invalid_argument(who + ": ShapeConfig." + field + " = " + value + " is outside " + domain);
  };
  auto nonneg = [&](const char* field, real v, const char* unit) {
    if (!(std::isfinite(double(v)) && v >= 0)) fail(field, fmt(v), (std::string("[0, inf) ") + unit).c_str());
  };
  nonneg("density", c.density, "kg/m^3");
  nonneg("ke", c.ke, "N/m");
  nonneg("kd", c.kd, "N s/m");
  nonneg("kf", c.kf, "N s/m");
  nonneg("ka", c.ka, "m");
  nonneg("mu", c.mu, "[-]");
  if (!(c.restitution >= 0 && c.restitution <= 1)) fail("restitution", fmt(c.restitution), "[0, 1] [-]");
  nonneg("mu_torsional", c.mu_torsional, "m");
  nonneg("mu_rolling", c.mu_rolling, "m");
  nonneg("margin", c.margin, "m");
  if (!std::isfinite(double(c.gap))) fail("gap", fmt(c.gap), "finite values (< 0 = unset: rigid_gap) m");
  nonneg("kh", c.kh, "N/m^3");
  const real inner = c.sdf_narrow_band_range[0], outer = c.sdf_narrow_band_range[1];
  if (!(std::isfinite(double(inner)) && std::isfinite(double(outer)) && inner < 0 && 0 < outer))
    fail("sdf_narrow_band_range", "(" + fmt(inner) + ", " + fmt(outer) + ")", "inner < 0 < outer, finite m");
  nonneg("sdf_target_voxel_size", c.sdf_target_voxel_size, "m (0 = unset)");
  if (c.sdf_max_resolution < 0 || c.sdf_max_resolution >= (1 << 16) || c.sdf_max_resolution % 8 != 0)
    fail("sdf_max_resolution", std::to_string(c.sdf_max_resolution), "{0 (unset), 8, 16, ..., 65528} voxels");
  if (c.sdf_max_resolution > 0 && c.sdf_target_voxel_size > 0)
    fail("sdf_max_resolution", std::to_string(c.sdf_max_resolution),
         "{0} when sdf_target_voxel_size is set (set one of the two)");
  if (!std::isfinite(double(c.sdf_padding))) fail("sdf_padding", fmt(c.sdf_padding), "finite values (< 0 = unset) m");
  // Route (c): a primitive needs an SDF resolution to be hydroelastic (Newton's ShapeConfig.validate),
  // a positive modulus, and a closed-form SDF (lib/e3/collision/sdf_primitives.h); planes have the
  // flag switched off where they are added (E3.2-hydro-preconditions).
  if (c.is_hydroelastic && t != ShapeType::plane && c.has_shape_collision) {
    const bool primitive = t == ShapeType::sphere || t == ShapeType::box || t == ShapeType::capsule ||
                           t == ShapeType::cylinder || t == ShapeType::cone;
    if (!primitive && t != ShapeType::mesh)
      fail("is_hydroelastic", "true",
           "{false} for this shape type: route (c) takes sphere, box, capsule, cylinder, cone and mesh SDFs");
    if (c.sdf_max_resolution == 0 && c.sdf_target_voxel_size == 0)
      fail("is_hydroelastic", "true", "{false} without sdf_max_resolution or sdf_target_voxel_size");
    if (!(c.kh > 0)) fail("kh", fmt(c.kh), "(0, inf) N/m^3 on a hydroelastic shape");
  }
}

bool shape_contributes_mass(const ShapeConfig& cfg, int body, bool body_locked) {
  return !cfg.is_static && cfg.density > 0 && body >= 0 && !body_locked;
}

ModelBuilder::ModelBuilder(Axis up, std::optional<vec3> g)
    : up_axis(up), gravity(g ? *g : axis_of(up, real(-9.81))) {}

int ModelBuilder::add_link(const transform& xform, const MassProperties& m, bool lock_inertia, bool is_kinematic,
                           const std::string& label) {
  body_q.push_back(xform);
  body_mass_properties.push_back(m);
  body_lock_inertia.push_back(lock_inertia);
  body_flags.push_back(is_kinematic ? BodyFlag::kinematic : BodyFlag::dynamic);
  body_label.push_back(label);
  return body_count() - 1;
}

int ModelBuilder::add_body(const transform& xform, const MassProperties& m, bool lock_inertia, bool is_kinematic,
                           const std::string& label) {
  int b = add_link(xform, m, lock_inertia, is_kinematic, label);
  int j = add_joint_free(b, transform_identity(), transform_identity(), -1, label.empty() ? "" : label + "_free");
  add_articulation({j}, label);
  return b;
}

int ModelBuilder::add_joint(JointType t, int parent, int child, const transform& X_p, const transform& X_c,
                            const JointAxes& ax, const std::string& label) {
  int j = joint_count();
  joint_type.push_back(t);
  joint_parent.push_back(parent);
  joint_child.push_back(child);
  joint_articulation.push_back(-1);
  joint_X_p.push_back(X_p);
  joint_X_c.push_back(X_c);
  joint_axes.push_back(ax);
  joint_distance_min.push_back(0);
  joint_distance_max.push_back(0);
  joint_label.push_back(label);
  int nq = impulse::joint_coord_count(t, ax.n_lin, ax.n_ang), nd = impulse::joint_dof_count(t, ax.n_lin, ax.n_ang);
  std::vector<real> q(nq, real(0));
  if (t == JointType::ball) q[3] = 1;
  if (t == JointType::free || t == JointType::distance) {
    // Initial coordinates from the bodies' current poses: X_j = (X_wp X_pj)^-1 X_wc X_cj.
    bool known = child >= 0 && child < body_count() && parent >= -1 && parent < body_count();
    transform X_wp = parent >= 0 && known ? body_q[parent] : transform_identity();
    transform X_wc = known ? body_q[child] : transform_identity();
    transform X_j = transform_multiply(transform_inverse(transform_multiply(X_wp, X_p)), transform_multiply(X_wc, X_c));
    q = {X_j.p.x, X_j.p.y, X_j.p.z, X_j.q.x, X_j.q.y, X_j.q.z, X_j.q.w};
  }
  joint_q.insert(joint_q.end(), q.begin(), q.end());
  joint_qd.insert(joint_qd.end(), nd, real(0));
  return j;
}

int ModelBuilder::add_joint_revolute(int parent, int child, const transform& X_p, const transform& X_c, vec3 axis,
                                     const std::string& label) {
  JointAxes ax;
  ax.n_ang = 1;
  ax.axis[0] = axis;
  return add_joint(JointType::revolute, parent, child, X_p, X_c, ax, label);
}

int ModelBuilder::add_joint_prismatic(int parent, int child, const transform& X_p, const transform& X_c, vec3 axis,
                                      const std::string& label) {
  JointAxes ax;
  ax.n_lin = 1;
  ax.axis[0] = axis;
  return add_joint(JointType::prismatic, parent, child, X_p, X_c, ax, label);
}

int ModelBuilder::add_joint_ball(int parent, int child, const transform& X_p, const transform& X_c,
                                 const std::string& label) {
  return add_joint(JointType::ball, parent, child, X_p, X_c, {}, label);
}

int ModelBuilder::add_joint_free(int child, const transform& X_p, const transform& X_c, int parent,
                                 const std::string& label) {
  return add_joint(JointType::free, parent, child, X_p, X_c, {}, label);
}

int ModelBuilder::add_joint_distance(int parent, int child, const transform& X_p, const transform& X_c,
                                     real min_distance, real max_distance, const std::string& label) {
  int j = add_joint(JointType::distance, parent, child, X_p, X_c, {}, label);
  joint_distance_min[j] = min_distance;
  joint_distance_max[j] = max_distance;
  return j;
}

int ModelBuilder::add_joint_fixed(int parent, int child, const transform& X_p, const transform& X_c,
                                  const std::string& label) {
  return add_joint(JointType::fixed, parent, child, X_p, X_c, {}, label);
}

int ModelBuilder::add_joint_d6(int parent, int child, const transform& X_p, const transform& X_c,
                               const std::vector<vec3>& lin, const std::vector<vec3>& ang, const std::string& label) {
  if (lin.size() > 3 || ang.size() > 3)
    throw std::invalid_argument("add_joint_d6 '" + label + "': at most 3 linear and 3 angular axes (got " +
                                std::to_string(lin.size()) + " and " + std::to_string(ang.size()) + ")");
  JointAxes ax;
  ax.n_lin = int(lin.size());
  ax.n_ang = int(ang.size());
  for (int i = 0; i < ax.n_lin; ++i) ax.axis[i] = lin[i];
  for (int k = 0; k < ax.n_ang; ++k) ax.axis[ax.n_lin + k] = ang[k];
  return add_joint(JointType::d6, parent, child, X_p, X_c, ax, label);
}

int ModelBuilder::add_articulation(const std::vector<int>& joints, const std::string& label) {
  int a = articulation_count();
  if (joints.empty()) throw std::invalid_argument("add_articulation '" + label + "': no joints");
  for (std::size_t k = 0; k < joints.size(); ++k) {
    int j = joints[k];
    if (j < 0 || j >= joint_count())
      throw std::invalid_argument("add_articulation '" + label + "': joint " + std::to_string(j) + " does not exist");
    if (k > 0 && j != joints[k - 1] + 1)
      throw std::invalid_argument("add_articulation '" + label + "': joints must be contiguous and increasing (" +
                                  std::to_string(joints[k - 1]) + " then " + std::to_string(j) + ")");
    if (joint_articulation[j] >= 0)
      throw std::invalid_argument("add_articulation '" + label + "': " + name_of("joint", j, joint_label[j]) +
                                  " already belongs to articulation " + std::to_string(joint_articulation[j]));
  }
  for (int j : joints) joint_articulation[j] = a;
  articulation_label.push_back(label);
  return a;
}

std::string ModelBuilder::shape_name(ShapeType t, const std::string& label) const {
  return "shape " + std::to_string(shape_count()) + " (" + shape_type_name(int(t)) +
         (label.empty() ? "" : ", '" + label + "'") + ")";
}

void ModelBuilder::check_shape(int body, const transform& xform, ShapeType t, vec3 scale, const ShapeConfig& cfg,
                               const std::string& who) const {
  if (body < -1 || body >= body_count())
    throw std::invalid_argument(who + ": body " + std::to_string(body) + " does not exist (body_count = " +
                                std::to_string(body_count()) + ")");
  if (current_world < -1)
    throw std::invalid_argument(who + ": shape_world = " + std::to_string(current_world) +
                                " is below -1 (-1 is the shared world, other worlds are >= 0)");
  check_transform(xform, who, "xform");
  if (!finite(scale)) throw std::invalid_argument(who + ": size is not finite");
  const real v[3] = {scale.x, scale.y, scale.z};
  switch (t) {
    case ShapeType::sphere:
      if (!(v[0] > 0)) throw std::invalid_argument(who + ": radius must be > 0 m, got " + fmt(v[0]));
      break;
    case ShapeType::capsule:
    case ShapeType::cylinder:
    case ShapeType::cone:
      if (!(v[0] > 0) || !(v[1] > 0))
        throw std::invalid_argument(who + ": radius and half height must be > 0 m, got (" + fmt(v[0]) + ", " +
                                    fmt(v[1]) + ")");
      break;
    case ShapeType::box:
      if (!(v[0] > 0) || !(v[1] > 0) || !(v[2] > 0))
        throw std::invalid_argument(who + ": every half extent must be > 0 m, got (" + fmt(v[0]) + ", " + fmt(v[1]) +
                                    ", " + fmt(v[2]) + ")");
      break;
    case ShapeType::plane:
      if (v[0] < 0 || v[1] < 0) throw std::invalid_argument(who + ": plane width/length must be >= 0 m (0 = infinite)");
      break;
    case ShapeType::convex_hull:
    case ShapeType::mesh: break;  // checked with their points
  }
  validate_shape_config(cfg, t, who);
}

int ModelBuilder::add_shape(int body, const transform& xform, ShapeType t, vec3 scale, const ShapeConfig& cfg,
                            const std::string& label) {
  int s = shape_count();
  shape_body.push_back(body);
  shape_transform.push_back(xform);
  shape_type.push_back(t);
  shape_scale.push_back(scale);
  shape_config.push_back(cfg);
  shape_world.push_back(current_world);
  shape_label.push_back(label);
  shape_source_start.push_back(0);
  shape_source_count.push_back(0);
  shape_hull_face_count.push_back(0);
  // Mass enters the body now (Newton accumulates at add time), under the four conditions.
  if (shape_contributes_mass(cfg, body, body >= 0 && body_lock_inertia[body]) && t != ShapeType::plane) {
    MassProperties m = mass_in_body(shape_mass_properties(t, scale, cfg.density), xform);
    body_mass_properties[body] = combine_mass(body_mass_properties[body], m);
  }
  return s;
}

int ModelBuilder::add_shape_box(int body, const transform& xform, real hx, real hy, real hz, const ShapeConfig& cfg,
                                const std::string& label) {
  check_shape(body, xform, ShapeType::box, {hx, hy, hz}, cfg, shape_name(ShapeType::box, label));
  return add_shape(body, xform, ShapeType::box, {hx, hy, hz}, cfg, label);
}
int ModelBuilder::add_shape_sphere(int body, const transform& xform, real r, const ShapeConfig& cfg,
                                   const std::string& label) {
  check_shape(body, xform, ShapeType::sphere, {r, 0, 0}, cfg, shape_name(ShapeType::sphere, label));
  return add_shape(body, xform, ShapeType::sphere, {r, 0, 0}, cfg, label);
}
int ModelBuilder::add_shape_capsule(int body, const transform& xform, real r, real hh, const ShapeConfig& cfg,
                                    const std::string& label) {
  check_shape(body, xform, ShapeType::capsule, {r, hh, 0}, cfg, shape_name(ShapeType::capsule, label));
  return add_shape(body, xform, ShapeType::capsule, {r, hh, 0}, cfg, label);
}
int ModelBuilder::add_shape_cylinder(int body, const transform& xform, real r, real hh, const ShapeConfig& cfg,
                                     const std::string& label) {
  check_shape(body, xform, ShapeType::cylinder, {r, hh, 0}, cfg, shape_name(ShapeType::cylinder, label));
  return add_shape(body, xform, ShapeType::cylinder, {r, hh, 0}, cfg, label);
}
int ModelBuilder::add_shape_cone(int body, const transform& xform, real r, real hh, const ShapeConfig& cfg,
                                 const std::string& label) {
  check_shape(body, xform, ShapeType::cone, {r, hh, 0}, cfg, shape_name(ShapeType::cone, label));
  return add_shape(body, xform, ShapeType::cone, {r, hh, 0}, cfg, label);
}
int ModelBuilder::add_shape_plane(int body, const transform& xform, real w, real l, const ShapeConfig& cfg,
                                  const std::string& label) {
  ShapeConfig c = cfg;
  c.is_hydroelastic = false;  // Newton switches the flag off for planes (E3.2-hydro-preconditions)
  check_shape(body, xform, ShapeType::plane, {w, l, 0}, c, shape_name(ShapeType::plane, label));
  return add_shape(body, xform, ShapeType::plane, {w, l, 0}, c, label);
}

int ModelBuilder::add_shape_convex_hull(int body, const transform& xform, const std::vector<vec3>& points, vec3 scale,
                                        const ShapeConfig& cfg, const std::string& label) {
  const std::string who = shape_name(ShapeType::convex_hull, label);
  check_shape(body, xform, ShapeType::convex_hull, scale, cfg, who);
  const HullFaces faces = checked_hull_faces(points, scale, who);
  const int s = add_hull_shape(body, xform, points, faces, scale, cfg, label);
  if (shape_contributes_mass(cfg, body, body >= 0 && body_lock_inertia[body])) {
    const MassProperties hull = convex_hull_mass_properties(points, faces.start, faces.vertices, scale, cfg.density);
    body_mass_properties[body] = combine_mass(body_mass_properties[body], mass_in_body(hull, xform));
  }
  return s;
}

int ModelBuilder::add_hull_shape(int body, const transform& xform, const std::vector<vec3>& points,
                                 const HullFaces& faces, vec3 scale, const ShapeConfig& cfg, const std::string& label) {
  const int s = add_shape(body, xform, ShapeType::convex_hull, scale, cfg, label);
  shape_source_start[s] = int(geo_points.size());
  shape_source_count[s] = int(points.size());
  geo_points.insert(geo_points.end(), points.begin(), points.end());
  const int face_count = int(faces.normals.size());
  shape_hull_face_count[s] = face_count;
  for (int f = 0; f < face_count; ++f) hull_face_start.push_back(hull_face_start.back() + faces.start[f + 1] - faces.start[f]);
  hull_face_vertices.insert(hull_face_vertices.end(), faces.vertices.begin(), faces.vertices.end());
  hull_face_normals.insert(hull_face_normals.end(), faces.normals.begin(), faces.normals.end());
  return s;
}

int ModelBuilder::add_shape_mesh(int body, const transform& xform, const std::vector<vec3>& vertices,
                                 const std::vector<int>& indices, vec3 scale, const ShapeConfig& cfg,
                                 const std::string& label) {
  const std::string who = shape_name(ShapeType::mesh, label);
  check_shape(body, xform, ShapeType::mesh, scale, cfg, who);
  const bool sdf = cfg.is_hydroelastic && cfg.has_shape_collision;
  const std::vector<int> welded = checked_mesh_triangles(body, vertices, indices, scale, who, sdf);
  if (sdf) {  // route (c): the volume's layout is checked now, its samples are built at finalize
    SdfMeshSource src;
    src.shape = shape_count();
    for (const vec3& v : vertices) src.points.push_back(mul_elem(v, scale));
    src.triangles = welded;
    if (!mesh_sdf_available())
      throw std::invalid_argument(who + ": ShapeConfig.is_hydroelastic = true is outside {false} in this build: a mesh's "
                                        "signed-distance volume needs OpenVDB (left out of the browser module)");
    src.layout = mesh_sdf_layout(src.points, cfg.sdf_target_voxel_size, cfg.sdf_max_resolution, cfg.sdf_padding, who);
    sdf_mesh_sources.push_back(std::move(src));
  }
  if (body >= 0) {  // a closed mesh on a body: the solid's mass, the hull's collision
    const HullFaces faces = checked_hull_faces(vertices, scale, who);
    const int s = add_hull_shape(body, xform, vertices, faces, scale, cfg, label);
    if (shape_contributes_mass(cfg, body, body_lock_inertia[body])) {
      const MassProperties solid = mesh_mass_properties(vertices, welded, scale, cfg.density);
      body_mass_properties[body] = combine_mass(body_mass_properties[body], mass_in_body(solid, xform));
    }
    return s;
  }
  const int s = add_shape(body, xform, ShapeType::mesh, scale, cfg, label);
  const int base = int(geo_points.size());
  shape_source_start[s] = int(geo_triangles.size() / 3);
  shape_source_count[s] = int(indices.size() / 3);
  geo_points.insert(geo_points.end(), vertices.begin(), vertices.end());
  for (int i : welded) geo_triangles.push_back(base + i);
  return s;
}

void ModelBuilder::add_shape_collision_filter_pair(int a, int b) {
  if (a < 0 || a >= shape_count() || b < 0 || b >= shape_count() || a == b)
    throw std::invalid_argument("collision filter pair (" + std::to_string(a) + ", " + std::to_string(b) +
                                "): both must be distinct existing shapes (shape_count = " +
                                std::to_string(shape_count()) + ")");
  shape_collision_filter_pairs.push_back({a, b});
}

void ModelBuilder::add_builder(const ModelBuilder& o, const transform& xform) {
  const int b0 = body_count(), a0 = articulation_count();
  for (int b = 0; b < o.body_count(); ++b) {
    body_q.push_back(transform_multiply(xform, o.body_q[b]));
    body_mass_properties.push_back(o.body_mass_properties[b]);
    body_lock_inertia.push_back(o.body_lock_inertia[b]);
    body_flags.push_back(o.body_flags[b]);
    body_label.push_back(o.body_label[b]);
  }
  for (int j = 0; j < o.joint_count(); ++j) {
    bool root = o.joint_parent[j] < 0;
    joint_type.push_back(o.joint_type[j]);
    joint_parent.push_back(root ? -1 : o.joint_parent[j] + b0);
    joint_child.push_back(o.joint_child[j] + b0);
    joint_articulation.push_back(o.joint_articulation[j] < 0 ? -1 : o.joint_articulation[j] + a0);
    joint_X_p.push_back(root ? transform_multiply(xform, o.joint_X_p[j]) : o.joint_X_p[j]);
    joint_X_c.push_back(o.joint_X_c[j]);
    joint_axes.push_back(o.joint_axes[j]);
    joint_distance_min.push_back(o.joint_distance_min[j]);
    joint_distance_max.push_back(o.joint_distance_max[j]);
    joint_label.push_back(o.joint_label[j]);
  }
  joint_q.insert(joint_q.end(), o.joint_q.begin(), o.joint_q.end());
  joint_qd.insert(joint_qd.end(), o.joint_qd.begin(), o.joint_qd.end());
  articulation_label.insert(articulation_label.end(), o.articulation_label.begin(), o.articulation_label.end());
  for (int s = 0; s < o.shape_count(); ++s) {
    bool world = o.shape_body[s] < 0;
    shape_body.push_back(world ? -1 : o.shape_body[s] + b0);
    shape_transform.push_back(world ? transform_multiply(xform, o.shape_transform[s]) : o.shape_transform[s]);
    shape_type.push_back(o.shape_type[s]);
    shape_scale.push_back(o.shape_scale[s]);
    shape_config.push_back(o.shape_config[s]);
    shape_world.push_back(o.shape_world[s]);
    shape_label.push_back(o.shape_label[s]);
    const bool mesh = o.shape_type[s] == ShapeType::mesh;
    shape_source_start.push_back(o.shape_source_start[s] + (mesh ? int(geo_triangles.size() / 3) : int(geo_points.size())));
    shape_source_count.push_back(o.shape_source_count[s]);
    shape_hull_face_count.push_back(o.shape_hull_face_count[s]);
  }
  const int p0 = int(geo_points.size()), s0 = shape_count() - o.shape_count();
  geo_points.insert(geo_points.end(), o.geo_points.begin(), o.geo_points.end());
  for (int i : o.geo_triangles) geo_triangles.push_back(i + p0);
  for (std::size_t f = 1; f < o.hull_face_start.size(); ++f)
    hull_face_start.push_back(hull_face_start.back() + o.hull_face_start[f] - o.hull_face_start[f - 1]);
  hull_face_vertices.insert(hull_face_vertices.end(), o.hull_face_vertices.begin(), o.hull_face_vertices.end());
  hull_face_normals.insert(hull_face_normals.end(), o.hull_face_normals.begin(), o.hull_face_normals.end());
  for (const auto& [a, b] : o.shape_collision_filter_pairs) shape_collision_filter_pairs.push_back({a + s0, b + s0});
  for (SdfMeshSource src : o.sdf_mesh_sources) {
    src.shape += s0;
    sdf_mesh_sources.push_back(std::move(src));
  }
}

int ModelBuilder::add_ground_plane(real height, const ShapeConfig& cfg, const std::string& label) {
  // The plane's normal is its local +z; turn it onto the up axis.
  quat r = quat_identity();
  if (up_axis == Axis::y) r = quat_from_axis_angle({1, 0, 0}, -kPi / 2);
  if (up_axis == Axis::x) r = quat_from_axis_angle({0, 1, 0}, kPi / 2);
  return add_shape_plane(-1, {axis_of(up_axis, height), r}, 0, 0, cfg, label);
}

std::vector<int> ModelBuilder::collapse_fixed_joints() {
  const int nb0 = body_count();
  std::vector<bool> removed_body(nb0, false), removed_joint(joint_count(), false);
  std::vector<int> merged_into(nb0);
  for (int b = 0; b < nb0; ++b) merged_into[b] = b;
  for (int j = 0; j < joint_count(); ++j) {
    if (joint_type[j] != JointType::fixed || joint_parent[j] < 0) continue;
    int p = joint_parent[j], c = joint_child[j];
    // Pose of the child body in parent-body coordinates: X_pc = X_pj X_cj^-1 (X_j = identity).
    transform X_pc = transform_multiply(joint_X_p[j], transform_inverse(joint_X_c[j]));
    // Mass is summed even when the parent locked its inertia (lock stops later shapes only).
    body_mass_properties[p] = combine_mass(body_mass_properties[p], mass_in_body(body_mass_properties[c], X_pc));
    for (int s = 0; s < shape_count(); ++s)
      if (shape_body[s] == c) {
        shape_body[s] = p;
        shape_transform[s] = transform_multiply(X_pc, shape_transform[s]);
      }
    for (int k = 0; k < joint_count(); ++k)
      if (k != j && joint_parent[k] == c) {
        joint_parent[k] = p;
        joint_X_p[k] = transform_multiply(X_pc, joint_X_p[k]);
      }
    removed_body[c] = true;
    removed_joint[j] = true;
  }
  std::vector<int> remap(nb0, -1);
  int nb = 0;
  for (int b = 0; b < nb0; ++b)
    if (!removed_body[b]) remap[b] = nb++;
  auto keep = [](auto& v, const std::vector<bool>& removed) {
    std::size_t w = 0;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!removed[i]) v[w++] = v[i];
    v.resize(w);
  };
  // Joint coordinates of removed FIXED joints are empty, so joint_q / joint_qd keep their order.
  keep(body_q, removed_body);
  keep(body_mass_properties, removed_body);
  keep(body_lock_inertia, removed_body);
  keep(body_flags, removed_body);
  keep(body_label, removed_body);
  keep(joint_type, removed_joint);
  keep(joint_parent, removed_joint);
  keep(joint_child, removed_joint);
  keep(joint_articulation, removed_joint);
  keep(joint_X_p, removed_joint);
  keep(joint_X_c, removed_joint);
  keep(joint_axes, removed_joint);
  keep(joint_distance_min, removed_joint);
  keep(joint_distance_max, removed_joint);
  keep(joint_label, removed_joint);
  for (int& p : joint_parent)
    if (p >= 0) p = remap[p];
  for (int& c : joint_child) c = remap[c];
  // Articulations left without joints disappear; the others keep their order.
  std::vector<bool> used(articulation_label.size(), false);
  for (int a : joint_articulation)
    if (a >= 0) used[a] = true;
  std::vector<int> art_remap(articulation_label.size(), -1);
  std::vector<std::string> labels;
  for (std::size_t a = 0; a < used.size(); ++a)
    if (used[a]) {
      art_remap[a] = int(labels.size());
      labels.push_back(articulation_label[a]);
    }
  for (int& a : joint_articulation)
    if (a >= 0) a = art_remap[a];
  articulation_label = labels;
  for (int& b : shape_body)
    if (b >= 0) b = remap[b];
  return remap;
}

Model ModelBuilder::finalize(Device d) const {
  Model m;
  m.device = d;
  m.up_axis = up_axis;
  m.gravity = gravity;
  if (!finite(gravity)) throw std::invalid_argument("ModelBuilder: gravity is not finite");
  m.body_count = body_count();
  m.joint_count = joint_count();
  m.shape_count = shape_count();
  m.articulation_count = articulation_count();
  finalize_shapes(d, m);  // first: a bad shape also spoils its body's mass
  finalize_bodies(d, m);
  finalize_joints(d, m);
  finalize_shape_geometry(*this, d, m);
  finalize_sdf_volumes(*this, d, m);
  return m;
}

// Shapes: sizes, ShapeConfig, and Newton's per-shape material, margin, gap and group columns.
void ModelBuilder::finalize_shapes(Device d, Model& m) const {
  const int nb = body_count(), ns = shape_count();
  if (!(std::isfinite(double(rigid_gap)) && rigid_gap >= 0))
    throw std::invalid_argument("ModelBuilder: rigid_gap = " + fmt(rigid_gap) + " is outside [0, inf) m");
  std::vector<int> sflags(ns), stype(ns), group(ns);
  std::vector<bool> sdf_mesh(ns, false);  // a hydroelastic mesh (on a body it is stored as its hull)
  for (const SdfMeshSource& src : sdf_mesh_sources) {
    if (src.shape < 0 || src.shape >= ns)
      throw std::invalid_argument("sdf_mesh_sources: shape " + std::to_string(src.shape) + " does not exist");
    sdf_mesh[src.shape] = true;
  }
  std::vector<real> ke(ns), kd(ns), kf(ns), ka(ns), mu(ns), restitution(ns), mu_torsional(ns), mu_rolling(ns), kh(ns),
      margin(ns), gap(ns);
  for (int s = 0; s < ns; ++s) {
    std::string who = name_of("shape", s, shape_label[s]);
    if (shape_body[s] < -1 || shape_body[s] >= nb)
      throw std::invalid_argument(who + ": body " + std::to_string(shape_body[s]) + " does not exist");
    check_transform(shape_transform[s], who, "xform");
    const ShapeConfig& cfg = shape_config[s];
    vec3 sc = shape_scale[s];
    const char* names[3] = {"hx", "hy", "hz"};
    int n = 0;
    switch (shape_type[s]) {
      case ShapeType::box: n = 3; break;
      case ShapeType::sphere: n = 1; names[0] = "radius"; break;
      case ShapeType::capsule:
      case ShapeType::cylinder:
      case ShapeType::cone: n = 2; names[0] = "radius"; names[1] = "half_height"; break;
      case ShapeType::plane:
      case ShapeType::convex_hull:
      case ShapeType::mesh: break;
    }
    real v[3] = {sc.x, sc.y, sc.z};
    for (int k = 0; k < n; ++k)
      if (!(v[k] > 0) || !std::isfinite(double(v[k])))
        throw std::invalid_argument(who + ": " + names[k] + " must be positive and finite (got " + fmt(v[k]) +
                                    " m)" + (shape_type[s] == ShapeType::box ? "; box sizes are half extents" : ""));
    if (shape_type[s] == ShapeType::plane && (sc.x < 0 || sc.y < 0))
      throw std::invalid_argument(who + ": plane width/length must be >= 0 m (0 = infinite)");
    validate_shape_config(cfg, sdf_mesh[s] ? ShapeType::mesh : shape_type[s], who);
    if (cfg.is_hydroelastic && cfg.has_shape_collision && shape_type[s] == ShapeType::mesh && !sdf_mesh[s])
      throw std::invalid_argument(who + ": a hydroelastic mesh without its volume (add it with add_shape_mesh)");
    sflags[s] = (cfg.is_visible ? shape_visible : 0) | (cfg.has_shape_collision ? shape_collide : 0) |
                (cfg.is_hydroelastic ? shape_hydroelastic : 0);
    stype[s] = int(shape_type[s]);
    ke[s] = cfg.ke;
    kd[s] = cfg.kd;
    kf[s] = cfg.kf;
    ka[s] = cfg.ka;
    mu[s] = cfg.mu;
    restitution[s] = cfg.restitution;
    mu_torsional[s] = cfg.mu_torsional;
    mu_rolling[s] = cfg.mu_rolling;
    kh[s] = cfg.kh;
    margin[s] = cfg.margin;
    gap[s] = cfg.gap < 0 ? rigid_gap : cfg.gap;
    // A shape without shape collision keeps its ID and joins group 0, which collides with nothing.
    group[s] = cfg.has_shape_collision ? cfg.collision_group : 0;
  }

  m.shape_body = Buffer<int>(d, shape_body);
  m.shape_transform = Buffer<transform>(d, shape_transform);
  m.shape_type = Buffer<int>(d, stype);
  m.shape_scale = Buffer<vec3>(d, shape_scale);
  m.shape_flags = Buffer<int>(d, sflags);
  m.shape_label = shape_label;
  m.shape_material_ke = Buffer<real>(d, ke);
  m.shape_material_kd = Buffer<real>(d, kd);
  m.shape_material_kf = Buffer<real>(d, kf);
  m.shape_material_ka = Buffer<real>(d, ka);
  m.shape_material_mu = Buffer<real>(d, mu);
  m.shape_material_restitution = Buffer<real>(d, restitution);
  m.shape_material_mu_torsional = Buffer<real>(d, mu_torsional);
  m.shape_material_mu_rolling = Buffer<real>(d, mu_rolling);
  m.shape_material_kh = Buffer<real>(d, kh);
  m.rigid_gap = rigid_gap;
  m.shape_margin = Buffer<real>(d, margin);
  m.shape_gap = Buffer<real>(d, gap);
  m.shape_world = Buffer<int>(d, shape_world);
  m.shape_collision_group = Buffer<int>(d, group);
}

// Bodies: pose, mass, inertia, with the bound_mass / bound_inertia / balance_inertia corrections.
void ModelBuilder::finalize_bodies(Device d, Model& m) const {
  const int nb = body_count();
  std::vector<mat33> inertia(nb), inv_inertia(nb);
  std::vector<real> mass(nb), inv_mass(nb);
  std::vector<vec3> com(nb);
  std::vector<int> flags(nb);
  for (int b = 0; b < nb; ++b) {
    std::string who = name_of("body", b, body_label[b]);
    check_transform(body_q[b], who, "xform");
    const MassProperties& mp = body_mass_properties[b];
    bool kinematic = body_flags[b] == BodyFlag::kinematic;
    if (!std::isfinite(double(mp.mass))) throw std::invalid_argument(who + ": mass is not finite");
    if (mp.mass < 0 || (mp.mass == 0 && !kinematic && !(bound_mass > 0)))
      throw std::invalid_argument(who + ": mass must be positive for a dynamic body (got " + fmt(mp.mass) +
                                  " kg); give it a shape with density, an explicit mass, or make it kinematic");
    if (!finite(mp.com)) throw std::invalid_argument(who + ": com is not finite");
    real mb = mp.mass;
    mat33 I = mp.inertia;
    if (bound_mass > 0 && !kinematic && mb < bound_mass) {
      m.corrections.push_back({b, body_label[b], "mass (bound_mass)", mb, bound_mass, I, I});
      mb = bound_mass;
    }
    if (mb > 0 && bound_inertia > 0) {
      mat33 raised = bound_inertia_moments(I, bound_inertia);
      bool changed = false;
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) changed = changed || raised.m[i][k] != I.m[i][k];
      if (changed) {
        m.corrections.push_back({b, body_label[b], "inertia (bound_inertia)", mb, mb, I, raised});
        I = raised;
      }
    }
    if (mb > 0) {
      InertiaCheck c = check_inertia(I);
      if (!c.ok()) {
        bool only_triangle = c.finite && c.symmetric && c.positive_definite && !c.triangle;
        if (!(balance_inertia && only_triangle))
          throw std::invalid_argument(who + ": inertia " + c.problem() +
                                      (only_triangle ? " (enable balance_inertia to correct it explicitly)" : ""));
        mat33 fixed = impulse::balance_inertia(I);
        m.corrections.push_back({b, body_label[b], "inertia (balance_inertia)", mb, mb, I, fixed});
        I = fixed;
      }
    }
    mass[b] = mb;
    inv_mass[b] = mb > 0 ? 1 / mb : 0;
    com[b] = mp.com;
    inertia[b] = I;
    inv_inertia[b] = mb > 0 ? inverse(I) : mat33{};
    flags[b] = int(body_flags[b]);
  }

  m.body_qd = Buffer<spatial_vector>(d, std::vector<spatial_vector>(nb));
  m.body_q = Buffer<transform>(d, body_q);
  m.body_com = Buffer<vec3>(d, com);
  m.body_inertia = Buffer<mat33>(d, inertia);
  m.body_inv_inertia = Buffer<mat33>(d, inv_inertia);
  m.body_mass = Buffer<real>(d, mass);
  m.body_inv_mass = Buffer<real>(d, inv_mass);
  m.body_flags = Buffer<int>(d, flags);
  m.body_label = body_label;
}

// Joints: references, frames, unit axes and the tree (one parent joint per body, no cycle).
std::vector<JointAxes> ModelBuilder::checked_joint_axes(std::vector<int>& parent_joint) const {
  const int nb = body_count(), nj = joint_count();
  parent_joint.assign(nb, -1);
  std::vector<JointAxes> axes = joint_axes;
  for (int j = 0; j < nj; ++j) {
    std::string who = name_of("joint", j, joint_label[j]) + " (" + joint_type_name(joint_type[j]) + ")";
    int p = joint_parent[j], c = joint_child[j];
    if (p < -1 || p >= nb)
      throw std::invalid_argument(who + ": parent body " + std::to_string(p) + " does not exist (body_count " +
                                  std::to_string(nb) + ", -1 = world)");
    if (c < 0 || c >= nb)
      throw std::invalid_argument(who + ": child body " + std::to_string(c) + " does not exist (body_count " +
                                  std::to_string(nb) + ")");
    if (p == c) throw std::invalid_argument(who + ": parent and child are the same body " + std::to_string(c));
    if (parent_joint[c] >= 0)
      throw std::invalid_argument(who + ": child body " + std::to_string(c) + " already has parent joint " +
                                  std::to_string(parent_joint[c]) + " (a body has at most one parent joint)");
    parent_joint[c] = j;
    check_transform(joint_X_p[j], who, "parent_xform");
    check_transform(joint_X_c[j], who, "child_xform");
    JointAxes& ax = axes[j];
    for (int k = 0; k < ax.n_lin + ax.n_ang; ++k) {
      real len = length(ax.axis[k]);
      if (!std::isfinite(double(len)) || len == 0)
        throw std::invalid_argument(who + ": axis " + std::to_string(k) + " has zero or non-finite length");
      ax.axis[k] = ax.axis[k] / len;
    }
    if (joint_type[j] == JointType::d6) {
      const vec3* a = ax.axis + ax.n_lin;
      for (int i = 0; i < ax.n_ang; ++i)
        for (int k = i + 1; k < ax.n_ang; ++k)
          if (std::abs(double(dot(a[i], a[k]))) > 1e-9)
            throw std::invalid_argument(who + ": angular axes " + std::to_string(i) + " and " + std::to_string(k) +
                                        " are not orthogonal (D6 angles need orthonormal axes)");
      vec3 l[3] = {ax.axis[0], ax.axis[1], ax.axis[2]};
      real g = ax.n_lin == 1 ? 1 : ax.n_lin == 2 ? length(cross(l[0], l[1])) : std::abs(double(dot(l[0], cross(l[1], l[2]))));
      if (ax.n_lin > 0 && g < 1e-9) throw std::invalid_argument(who + ": linear axes are linearly dependent");
    }
    if (joint_type[j] == JointType::distance &&
        !(joint_distance_min[j] >= 0 && joint_distance_max[j] >= joint_distance_min[j]))
      throw std::invalid_argument(who + ": distance range [" + fmt(joint_distance_min[j]) + ", " +
                                  fmt(joint_distance_max[j]) + "] m is not 0 <= min <= max");
  }
  // Cycles: follow parent joints from every body; a chain longer than body_count loops.
  for (int b = 0; b < nb; ++b) {
    int cur = b;
    std::string path = std::to_string(b);
    for (int steps = 0; parent_joint[cur] >= 0; ++steps) {
      cur = joint_parent[parent_joint[cur]];
      path += " <- " + std::to_string(cur);
      if (cur < 0) break;
      if (cur == b || steps > nb)
        throw std::invalid_argument("joints form a cycle through bodies " + path + " (" +
                                    name_of("joint", parent_joint[b], joint_label[parent_joint[b]]) + ")");
    }
  }
  return axes;
}

std::vector<int> ModelBuilder::articulation_starts(const std::vector<int>& parent_joint) const {
  const int nj = joint_count(), na = articulation_count();
  // Articulations: joints [start[a], start[a+1]) all belong to a (contiguous, in joint order), and
  // each joint's parent is world or moved by an earlier joint of the same articulation.
  std::vector<int> art_start(na + 1, 0);
  std::vector<int> art_end(na, -1);
  for (int j = 0; j < nj; ++j) {
    int a = joint_articulation[j];
    if (a < 0) continue;
    if (art_end[a] < 0) art_start[a] = j;
    art_end[a] = j + 1;
  }
  for (int a = 0; a < na; ++a) {
    if (a > 0 && art_start[a] != art_end[a - 1])
      throw std::invalid_argument("articulation " + std::to_string(a) + " '" + articulation_label[a] +
                                  "': must start right after articulation " + std::to_string(a - 1) +
                                  " (articulations are added in joint order, with no other joint between them)");
    for (int j = art_start[a]; j < art_end[a]; ++j) {
      int p = joint_parent[j];
      if (p < 0) continue;
      int pj = parent_joint[p];
      if (pj < art_start[a] || pj >= j)
        throw std::invalid_argument(name_of("joint", j, joint_label[j]) + ": parent body " + std::to_string(p) +
                                    " is not moved by an earlier joint of articulation " + std::to_string(a));
    }
  }
  if (na > 0) art_start[na] = art_end[na - 1];
  return art_start;
}

// Joints, articulations and the coordinate layout (E1 §5) with trailing sentinels.
void ModelBuilder::finalize_joints(Device d, Model& m) const {
  const int nj = joint_count();
  std::vector<int> parent_joint;
  const std::vector<JointAxes> axes = checked_joint_axes(parent_joint);
  const std::vector<int> art_start = articulation_starts(parent_joint);
  // Coordinate layout with trailing sentinels.
  std::vector<int> q_start(nj + 1), qd_start(nj + 1);
  int nq = 0, nd = 0;
  for (int j = 0; j < nj; ++j) {
    q_start[j] = nq;
    qd_start[j] = nd;
    nq += impulse::joint_coord_count(joint_type[j], axes[j].n_lin, axes[j].n_ang);
    nd += impulse::joint_dof_count(joint_type[j], axes[j].n_lin, axes[j].n_ang);
  }
  q_start[nj] = nq;
  qd_start[nj] = nd;
  for (int j = 0; j < nj; ++j) {
    if (joint_type[j] != JointType::ball && joint_type[j] != JointType::free && joint_type[j] != JointType::distance)
      continue;
    int o = q_start[j] + (joint_type[j] == JointType::ball ? 0 : 3);
    check_transform({vec3{}, quat{joint_q[o], joint_q[o + 1], joint_q[o + 2], joint_q[o + 3]}},
                    name_of("joint", j, joint_label[j]), "joint_q");
  }

  std::vector<int> jtype(nj);
  for (int j = 0; j < nj; ++j) jtype[j] = int(joint_type[j]);
  m.joint_coord_count = nq;
  m.joint_dof_count = nd;
  m.joint_type = Buffer<int>(d, jtype);
  m.joint_parent = Buffer<int>(d, joint_parent);
  m.joint_child = Buffer<int>(d, joint_child);
  m.joint_articulation = Buffer<int>(d, joint_articulation);
  m.joint_X_p = Buffer<transform>(d, joint_X_p);
  m.joint_X_c = Buffer<transform>(d, joint_X_c);
  m.joint_axes = Buffer<JointAxes>(d, axes);
  m.joint_q_start = Buffer<int>(d, q_start);
  m.joint_qd_start = Buffer<int>(d, qd_start);
  m.joint_distance_min = Buffer<real>(d, joint_distance_min);
  m.joint_distance_max = Buffer<real>(d, joint_distance_max);
  m.joint_q = Buffer<real>(d, joint_q);
  m.joint_qd = Buffer<real>(d, joint_qd);
  m.joint_f = Buffer<real>(d, std::vector<real>(nd, 0));
  m.joint_target_pos = Buffer<real>(d, std::vector<real>(nd, 0));
  m.joint_target_vel = Buffer<real>(d, std::vector<real>(nd, 0));
  m.joint_label = joint_label;
  m.articulation_start = Buffer<int>(d, art_start);
}

State Model::state() const {
  State s;
  s.body_q = body_q;
  s.body_qd = body_qd;
  s.body_f = Buffer<spatial_vector>(device, std::vector<spatial_vector>(body_count));
  s.joint_q = joint_q;
  s.joint_qd = joint_qd;
  return s;
}

Control Model::control(bool clone_variables) {
  Control c;
  c.cloned = clone_variables;
  if (clone_variables) {
    c.own_joint_f = joint_f;
    c.own_joint_target_pos = joint_target_pos;
    c.own_joint_target_vel = joint_target_vel;
    c.joint_f = c.own_joint_f.view();
    c.joint_target_pos = c.own_joint_target_pos.view();
    c.joint_target_vel = c.own_joint_target_vel.view();
  } else {
    c.joint_f = joint_f.mutable_view();
    c.joint_target_pos = joint_target_pos.mutable_view();
    c.joint_target_vel = joint_target_vel.mutable_view();
  }
  return c;
}

void State::clear_forces() { fill_zero(body_f.device(), body_f.view()); }

void State::assign(const State& src) {
  auto check = [](const auto& dst, const auto& s, const char* name) {
    if (dst.size() != s.size() || dst.device() != s.device())
      throw std::invalid_argument(std::string("State.assign: array ") + name + " differs in layout (" +
                                  std::to_string(s.size()) + " elements on " + device_name(s.device()) + " into " +
                                  std::to_string(dst.size()) + " on " + device_name(dst.device()) + ")");
  };
  check(body_q, src.body_q, "body_q");
  check(body_qd, src.body_qd, "body_qd");
  check(body_f, src.body_f, "body_f");
  check(joint_q, src.joint_q, "joint_q");
  check(joint_qd, src.joint_qd, "joint_qd");
  // Copy into the existing arrays: views of this State stay valid and keep no link to src.
  auto copy = [](auto& dst, const auto& s) {
    using T = std::remove_reference_t<decltype(*dst.data())>;
    if (dst.size() > 0) device_copy(dst.data(), dst.device(), s.data(), s.device(), sizeof(T) * std::size_t(dst.size()));
  };
  copy(body_q, src.body_q);
  copy(body_qd, src.body_qd);
  copy(body_f, src.body_f);
  copy(joint_q, src.joint_q);
  copy(joint_qd, src.joint_qd);
}

}  // namespace impulse
