// ModelBuilder and ShapeConfig from Python, with Newton 1.6.1's names and keyword-only arguments
// (newton/_src/sim/builder.py; course E1 §1-§4, E3 §3):
//   b = ModelBuilder(); body = b.add_body(xform=wp.transform(p, q), mass=1.0)
//   b.add_shape_box(body, hx=0.1, hy=0.1, hz=0.1, cfg=ShapeConfig(mu=0.5))
//   j = b.add_joint_revolute(-1, body, parent_xform=..., child_xform=..., axis=(0, 1, 0))
//   b.add_articulation([j]); model = b.finalize(device="cpu")
// Warp values (wp.transform, wp.vec3, wp.mat33) may be plain tuples or NumPy arrays. A Newton
// argument whose feature the engine lacks (joint limits, drives, visual colours) is not accepted:
// either pybind11 refuses the keyword or the call raises NotImplementedError naming it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fstream>
#include <optional>
#include <sstream>

#include "convert.h"
#include "e1/importers.h"
#include "e1/model.h"

namespace impulse::python {

namespace {

// cfg: None (Newton's defaults) or a ShapeConfig; ModelBuilder checks its fields.
ShapeConfig shape_config(const py::object& cfg) { return cfg.is_none() ? ShapeConfig{} : cfg.cast<ShapeConfig>(); }

std::string label_of(const py::object& label) { return label.is_none() ? std::string() : label.cast<std::string>(); }

[[noreturn]] void not_in_engine(const std::string& what) {
  PyErr_SetString(PyExc_NotImplementedError, what.c_str());
  throw py::error_already_set();
}

// Newton's add_body / add_link arguments: explicit mass [kg], com [m] (body frame), inertia about
// the COM [kg m^2] (row-major 3x3); the shapes' masses are added unless lock_inertia.
MassProperties mass_properties(const char* fn, double mass, const py::object& com, const py::object& inertia) {
  if (!(std::isfinite(mass) && mass >= 0)) bad(std::string(fn) + ": mass must be a finite number >= 0 [kg], got " + num(mass));
  MassProperties mp;
  mp.mass = real(mass);
  if (!com.is_none()) mp.com = to_vec3(fn, "com", com);
  if (!inertia.is_none()) mp.inertia = to_mat33(fn, "inertia", inertia);
  return mp;
}

// A joint axis as Newton takes it: an Axis ('x', 'y', 'z', 0, 1, 2, or newton.Axis.X-like objects
// with .value), 3 numbers, or a JointDofConfig (its .axis). A JointDofConfig asking for limits,
// drives, damping or armature is refused: the engine's joints have none.
vec3 joint_axis(const char* fn, const py::handle& a) {
  py::object axis = py::reinterpret_borrow<py::object>(a);
  if (py::hasattr(axis, "_impulse_unsupported")) {
    const std::string what = axis.attr("_impulse_unsupported")().cast<std::string>();
    if (!what.empty()) not_in_engine(std::string(fn) + ": " + what);
    axis = axis.attr("axis");
  }
  if (py::isinstance<py::str>(axis)) {
    std::string s = axis.cast<std::string>();
    for (char& c : s) c = char(std::tolower(c));
    if (s == "x") return {1, 0, 0};
    if (s == "y") return {0, 1, 0};
    if (s == "z") return {0, 0, 1};
    bad(std::string(fn) + ": axis must be 'x', 'y', 'z' or 3 numbers, got '" + s + "'");
  }
  if (py::hasattr(axis, "value") && !py::hasattr(axis, "__len__")) axis = axis.attr("value");
  if (py::isinstance<py::int_>(axis)) {
    const int i = axis.cast<int>();
    if (i < 0 || i > 2) bad(std::string(fn) + ": axis must be 0, 1 or 2 (x, y, z), got " + std::to_string(i));
    vec3 v;
    (i == 0 ? v.x : i == 1 ? v.y : v.z) = 1;
    return v;
  }
  return to_vec3(fn, "axis", axis);
}

// Newton's collision_filter_parent: None or True filter the parent-child pair, as the engine's
// joints always do; False (collide with the parent) is a feature the engine lacks.
void filter_parent(const char* fn, const py::object& v) {
  if (!v.is_none() && !v.cast<bool>())
    not_in_engine(std::string(fn) + ": collision_filter_parent=False: impulse always filters a joint's parent and child");
}

void enabled_only(const char* fn, bool enabled) {
  if (!enabled) not_in_engine(std::string(fn) + ": enabled=False: impulse has no disabled joints");
}

Axis axis_of(const char* fn, const py::object& up) {
  if (py::isinstance<py::str>(up)) {
    const std::string s = up.cast<std::string>();
    if (s == "x" || s == "X") return Axis::x;
    if (s == "y" || s == "Y") return Axis::y;
    if (s == "z" || s == "Z") return Axis::z;
    bad(std::string(fn) + ": up_axis must be 'x', 'y' or 'z', got '" + s + "'");
  }
  const vec3 a = joint_axis(fn, up);
  if (a.x == 1 && a.y == 0 && a.z == 0) return Axis::x;
  if (a.x == 0 && a.y == 1 && a.z == 0) return Axis::y;
  if (a.x == 0 && a.y == 0 && a.z == 1) return Axis::z;
  bad(std::string(fn) + ": up_axis must be 'x', 'y' or 'z'");
}

// The rotation turning unit vector a onto unit vector b (about a x b; about x when b = -a):
//   theta = atan2(|a x b|, a . b)
quat rotation_between(vec3 a, vec3 b) {
  const vec3 c = cross(a, b);
  const real s = length(c);
  if (s < real(1e-12)) return dot(a, b) > 0 ? quat{0, 0, 0, 1} : quat_from_axis_angle(vec3{1, 0, 0}, real(M_PI));
  return quat_from_axis_angle(c * (1 / s), std::atan2(s, dot(a, b)));
}

// An importer's source: a file name or the document's text (Newton takes both).
std::pair<std::string, std::string> source_text(const char* fn, const std::string& source, const char* tag) {
  if (source.find('<') != std::string::npos) return {source, std::string("<") + tag + ">"};
  std::ifstream f(source);
  if (!f) bad(std::string(fn) + ": source must be a readable file or the document's text, got '" + source + "'");
  std::stringstream s;
  s << f.rdbuf();
  return {s.str(), source};
}

// add_shape_cone(body, *, xform, radius, half_height, cfg, label), bound when the engine's builder
// has a cone (another branch adds it to lib/e1/model.*): the requires-expression is checked on the
// template argument, so this file builds with and without it.
template <class Builder>
void bind_cone(py::class_<Builder>& c) {
  if constexpr (requires(Builder& b) {
                  b.add_shape_cone(0, transform_identity(), real(1), real(1), ShapeConfig{}, std::string());
                }) {
    c.def("add_shape_cone",
          [](Builder& b, int body, py::object xform, double radius, double half_height, py::object cfg,
             py::object label) {
            const char* fn = "add_shape_cone";
            return b.add_shape_cone(body_index(fn, b, body, true), to_transform(fn, xform),
                                    positive(fn, "radius", "m", radius), positive(fn, "half_height", "m", half_height),
                                    shape_config(cfg), label_of(label));
          },
          py::arg("body"), py::kw_only(), py::arg("xform") = py::none(), py::arg("radius") = 1.0,
          py::arg("half_height") = 0.5, py::arg("cfg") = py::none(), py::arg("label") = py::none(),
          "A solid cone along the shape's z axis: base radius [m] at -half_height, apex at +half_height.");
  }
}

}  // namespace

void bind_builder(py::module_& m) {
  // Newton's ModelBuilder.ShapeConfig, also exposed as ModelBuilder.ShapeConfig; keyword arguments
  // set fields by name. The values are checked when a shape is added (add_shape_*).
  py::class_<ShapeConfig> shape_cfg(m, "ShapeConfig");
  shape_cfg.def(py::init([](py::kwargs kw) {
    ShapeConfig c;
    py::object self = py::cast(c);
    for (auto item : kw) {
      const std::string k = item.first.cast<std::string>();
      if (!py::hasattr(self, k.c_str())) bad("ShapeConfig: no field '" + k + "'");
      py::setattr(self, k.c_str(), item.second);
    }
    return self.cast<ShapeConfig>();
  }));
#define IMPULSE_SHAPE_FIELD(name) shape_cfg.def_readwrite(#name, &ShapeConfig::name)
  IMPULSE_SHAPE_FIELD(density);
  IMPULSE_SHAPE_FIELD(ke);
  IMPULSE_SHAPE_FIELD(kd);
  IMPULSE_SHAPE_FIELD(kf);
  IMPULSE_SHAPE_FIELD(ka);
  IMPULSE_SHAPE_FIELD(mu);
  IMPULSE_SHAPE_FIELD(restitution);
  IMPULSE_SHAPE_FIELD(mu_torsional);
  IMPULSE_SHAPE_FIELD(mu_rolling);
  IMPULSE_SHAPE_FIELD(margin);
  IMPULSE_SHAPE_FIELD(collision_group);
  IMPULSE_SHAPE_FIELD(is_visible);
  IMPULSE_SHAPE_FIELD(has_shape_collision);
  IMPULSE_SHAPE_FIELD(is_hydroelastic);
  IMPULSE_SHAPE_FIELD(kh);
  IMPULSE_SHAPE_FIELD(force_sdf);
  IMPULSE_SHAPE_FIELD(is_static);
#undef IMPULSE_SHAPE_FIELD
  // Newton's None for "unset" (gap: the builder's rigid_gap; the SDF sizes: no SDF).
  shape_cfg.def_property(
      "gap", [](const ShapeConfig& c) -> py::object { return c.gap < 0 ? py::object(py::none()) : py::object(py::float_(c.gap)); },
      [](ShapeConfig& c, py::object v) { c.gap = v.is_none() ? real(-1) : v.cast<real>(); });
  shape_cfg.def_property(
      "sdf_max_resolution",
      [](const ShapeConfig& c) -> py::object { return c.sdf_max_resolution == 0 ? py::object(py::none()) : py::object(py::int_(c.sdf_max_resolution)); },
      [](ShapeConfig& c, py::object v) { c.sdf_max_resolution = v.is_none() ? 0 : v.cast<int>(); });
  shape_cfg.def_property(
      "sdf_target_voxel_size",
      [](const ShapeConfig& c) -> py::object {
        return c.sdf_target_voxel_size == 0 ? py::object(py::none())
                                            : py::object(py::float_(c.sdf_target_voxel_size));
      },
      [](ShapeConfig& c, py::object v) { c.sdf_target_voxel_size = v.is_none() ? real(0) : v.cast<real>(); });
  shape_cfg.def_property(
      "sdf_padding", [](const ShapeConfig& c) -> py::object { return c.sdf_padding < 0 ? py::object(py::none()) : py::object(py::float_(c.sdf_padding)); },
      [](ShapeConfig& c, py::object v) { c.sdf_padding = v.is_none() ? real(-1) : v.cast<real>(); });
  shape_cfg.def_property(
      "sdf_narrow_band_range",
      [](const ShapeConfig& c) { return py::make_tuple(c.sdf_narrow_band_range[0], c.sdf_narrow_band_range[1]); },
      [](ShapeConfig& c, std::vector<real> v) {
        if (v.size() != 2) bad("ShapeConfig: sdf_narrow_band_range must be two numbers (inner, outer) [m]");
        c.sdf_narrow_band_range[0] = v[0];
        c.sdf_narrow_band_range[1] = v[1];
      });

  py::class_<ModelBuilder> builder(m, "ModelBuilder");
  builder.attr("ShapeConfig") = shape_cfg;
  builder
      .def(py::init([](py::object up_axis, py::object gravity) {
             const Axis ax = axis_of("ModelBuilder", up_axis);
             std::optional<vec3> g;
             // Newton's gravity: a scalar g [m/s^2] times the up axis (its default is -9.81), or a 3-vector kept as given.
             if (!gravity.is_none()) {
               if (py::isinstance<py::float_>(gravity) || py::isinstance<py::int_>(gravity)) {
                 const real s = finite("ModelBuilder", "gravity", "m/s^2", gravity.cast<double>());
                 vec3 v;
                 (ax == Axis::x ? v.x : ax == Axis::y ? v.y : v.z) = s;
                 g = v;
               } else {
                 g = to_vec3("ModelBuilder", "gravity", gravity);
               }
             }
             return ModelBuilder(ax, g);
           }),
           py::arg("up_axis") = "z", py::arg("gravity") = py::none(),
           "up_axis: 'x', 'y', 'z' or Axis; gravity: None (9.81 m/s^2 along -up_axis), a scalar along up_axis "
           "(Newton's -9.81) or a 3-vector [m/s^2] kept as given.")
      .def("add_body",
           [](ModelBuilder& b, py::object xform, py::object com, py::object inertia, double mass, py::object label,
              bool lock_inertia, bool is_kinematic) {
             return b.add_body(to_transform("add_body", xform), mass_properties("add_body", mass, com, inertia),
                               lock_inertia, is_kinematic, label_of(label));
           },
           py::kw_only(), py::arg("xform") = py::none(), py::arg("com") = py::none(), py::arg("inertia") = py::none(),
           py::arg("mass") = 0.0, py::arg("label") = py::none(), py::arg("lock_inertia") = false,
           py::arg("is_kinematic") = false,
           "A link with a FREE joint from the world and its own articulation. mass [kg], com [m], inertia "
           "[kg m^2] are added to its shapes' masses. Returns the body ID.")
      .def("add_link",
           [](ModelBuilder& b, py::object xform, py::object com, py::object inertia, double mass, py::object label,
              bool lock_inertia, bool is_kinematic) {
             return b.add_link(to_transform("add_link", xform), mass_properties("add_link", mass, com, inertia),
                               lock_inertia, is_kinematic, label_of(label));
           },
           py::kw_only(), py::arg("xform") = py::none(), py::arg("com") = py::none(), py::arg("inertia") = py::none(),
           py::arg("mass") = 0.0, py::arg("label") = py::none(), py::arg("lock_inertia") = false,
           py::arg("is_kinematic") = false, "A body with no joint (join it with add_joint_*). Returns the body ID.")
      .def("add_shape_box",
           [](ModelBuilder& b, int body, py::object xform, double hx, double hy, double hz, py::object cfg,
              py::object label) {
             const char* fn = "add_shape_box";
             return b.add_shape_box(body_index(fn, b, body, true), to_transform(fn, xform), positive(fn, "hx", "m", hx),
                                    positive(fn, "hy", "m", hy), positive(fn, "hz", "m", hz), shape_config(cfg),
                                    label_of(label));
           },
           py::arg("body"), py::kw_only(), py::arg("xform") = py::none(), py::arg("hx") = 0.5, py::arg("hy") = 0.5,
           py::arg("hz") = 0.5, py::arg("cfg") = py::none(), py::arg("label") = py::none(),
           "A box of half extents hx, hy, hz [m] on body (-1: world). Returns the shape ID.")
      .def("add_shape_sphere",
           [](ModelBuilder& b, int body, py::object xform, double radius, py::object cfg, py::object label) {
             const char* fn = "add_shape_sphere";
             return b.add_shape_sphere(body_index(fn, b, body, true), to_transform(fn, xform),
                                       positive(fn, "radius", "m", radius), shape_config(cfg), label_of(label));
           },
           py::arg("body"), py::kw_only(), py::arg("xform") = py::none(), py::arg("radius") = 1.0,
           py::arg("cfg") = py::none(), py::arg("label") = py::none(), "A sphere of radius [m]. Returns the shape ID.")
      .def("add_shape_capsule",
           [](ModelBuilder& b, int body, py::object xform, double radius, double half_height, py::object cfg,
              py::object label) {
             const char* fn = "add_shape_capsule";
             return b.add_shape_capsule(body_index(fn, b, body, true), to_transform(fn, xform),
                                        positive(fn, "radius", "m", radius), positive(fn, "half_height", "m", half_height),
                                        shape_config(cfg), label_of(label));
           },
           py::arg("body"), py::kw_only(), py::arg("xform") = py::none(), py::arg("radius") = 1.0,
           py::arg("half_height") = 0.5, py::arg("cfg") = py::none(), py::arg("label") = py::none(),
           "A capsule along the shape's z axis: radius, half_height of the segment [m]. Returns the shape ID.")
      .def("add_shape_cylinder",
           [](ModelBuilder& b, int body, py::object xform, double radius, double half_height, py::object cfg,
              py::object label) {
             const char* fn = "add_shape_cylinder";
             return b.add_shape_cylinder(body_index(fn, b, body, true), to_transform(fn, xform),
                                         positive(fn, "radius", "m", radius),
                                         positive(fn, "half_height", "m", half_height), shape_config(cfg),
                                         label_of(label));
           },
           py::arg("body"), py::kw_only(), py::arg("xform") = py::none(), py::arg("radius") = 1.0,
           py::arg("half_height") = 0.5, py::arg("cfg") = py::none(), py::arg("label") = py::none(),
           "A cylinder along the shape's z axis: radius, half_height [m]. Returns the shape ID.")
      .def("add_shape_plane",
           [](ModelBuilder& b, py::object plane, py::object xform, double width, double length, int body,
              py::object cfg, py::object label) {
             const char* fn = "add_shape_plane";
             transform X;
             if (xform.is_none()) {
               // Plane a x + b y + c z + d = 0: through -d/|n| n_hat, its +z turned onto n_hat.
               const std::vector<double> e = numbers(fn, "plane", plane, 4, "(a, b, c, d)");
               const vec3 n{real(e[0]), real(e[1]), real(e[2])};
               const real len = impulse::length(n);
               if (!(len > 0)) bad(std::string(fn) + ": plane's normal (a, b, c) must be non-zero");
               X = {n * (-real(e[3]) / (len * len)), rotation_between(vec3{0, 0, 1}, n * (1 / len))};
             } else {
               X = to_transform(fn, xform);
             }
             if (!(std::isfinite(width) && width >= 0)) bad(std::string(fn) + ": width must be >= 0 [m] (0: infinite), got " + num(width));
             if (!(std::isfinite(length) && length >= 0)) bad(std::string(fn) + ": length must be >= 0 [m] (0: infinite), got " + num(length));
             return b.add_shape_plane(body_index(fn, b, body, true), X, real(width), real(length), shape_config(cfg),
                                      label_of(label));
           },
           py::arg("plane") = py::make_tuple(0.0, 0.0, 1.0, 0.0), py::kw_only(), py::arg("xform") = py::none(),
           py::arg("width") = 10.0, py::arg("length") = 10.0, py::arg("body") = -1, py::arg("cfg") = py::none(),
           py::arg("label") = py::none(),
           "A plane from its equation (a, b, c, d) or an xform (normal +z); width/length [m], 0 = infinite.")
      .def("add_shape_mesh",
           [](ModelBuilder& b, int body, py::object xform, py::object mesh, py::object scale, py::object cfg,
              py::object label) {
             const char* fn = "add_shape_mesh";
             if (mesh.is_none()) bad(std::string(fn) + ": mesh must be an impulse.Mesh(vertices, indices)");
             py::object np = py::module_::import("numpy");
             const std::vector<double> v =
                 np.attr("asarray")(mesh.attr("vertices"), "float64").attr("ravel")().cast<std::vector<double>>();
             const std::vector<int> idx =
                 np.attr("asarray")(mesh.attr("indices"), "int64").attr("ravel")().cast<std::vector<int>>();
             if (v.size() % 3) bad(std::string(fn) + ": mesh.vertices must be rows of 3 numbers [m]");
             std::vector<vec3> pts(v.size() / 3);
             for (std::size_t i = 0; i < pts.size(); ++i) pts[i] = {real(v[3 * i]), real(v[3 * i + 1]), real(v[3 * i + 2])};
             const vec3 s = scale.is_none() ? vec3{1, 1, 1} : to_vec3(fn, "scale", scale);
             return b.add_shape_mesh(body_index(fn, b, body, true), to_transform(fn, xform), pts, idx, s,
                                     shape_config(cfg), label_of(label));
           },
           py::arg("body"), py::kw_only(), py::arg("xform") = py::none(), py::arg("mesh") = py::none(),
           py::arg("scale") = py::none(), py::arg("cfg") = py::none(), py::arg("label") = py::none(),
           "A triangle mesh (impulse.Mesh(vertices, indices)) scaled per axis. Returns the shape ID.")
      .def("add_ground_plane",
           [](ModelBuilder& b, double height, py::object cfg, py::object label) {
             return b.add_ground_plane(finite("add_ground_plane", "height", "m", height), shape_config(cfg),
                                       label.is_none() ? std::string("ground") : label.cast<std::string>());
           },
           py::kw_only(), py::arg("height") = 0.0, py::arg("cfg") = py::none(), py::arg("label") = py::none(),
           "An infinite static plane at height [m] along up_axis. Returns the shape ID.")
      .def("add_joint_revolute",
           [](ModelBuilder& b, int parent, int child, py::object parent_xform, py::object child_xform, py::object axis,
              py::object label, py::object collision_filter_parent, bool enabled) {
             const char* fn = "add_joint_revolute";
             filter_parent(fn, collision_filter_parent);
             enabled_only(fn, enabled);
             return b.add_joint_revolute(body_index(fn, b, parent, true, "parent"), body_index(fn, b, child, false, "child"),
                                         to_transform(fn, parent_xform, "parent_xform"),
                                         to_transform(fn, child_xform, "child_xform"),
                                         axis.is_none() ? vec3{1, 0, 0} : joint_axis(fn, axis), label_of(label));
           },
           py::arg("parent"), py::arg("child"), py::kw_only(), py::arg("parent_xform") = py::none(),
           py::arg("child_xform") = py::none(), py::arg("axis") = py::none(), py::arg("label") = py::none(),
           py::arg("collision_filter_parent") = py::none(), py::arg("enabled") = true,
           "A hinge about axis (joint frame); one coordinate [rad]. Returns the joint ID.")
      .def("add_joint_prismatic",
           [](ModelBuilder& b, int parent, int child, py::object parent_xform, py::object child_xform, py::object axis,
              py::object label, py::object collision_filter_parent, bool enabled) {
             const char* fn = "add_joint_prismatic";
             filter_parent(fn, collision_filter_parent);
             enabled_only(fn, enabled);
             return b.add_joint_prismatic(body_index(fn, b, parent, true, "parent"), body_index(fn, b, child, false, "child"),
                                          to_transform(fn, parent_xform, "parent_xform"),
                                          to_transform(fn, child_xform, "child_xform"), joint_axis(fn, axis),
                                          label_of(label));
           },
           py::arg("parent"), py::arg("child"), py::kw_only(), py::arg("parent_xform") = py::none(),
           py::arg("child_xform") = py::none(), py::arg("axis") = "x", py::arg("label") = py::none(),
           py::arg("collision_filter_parent") = py::none(), py::arg("enabled") = true,
           "A slider along axis (joint frame); one coordinate [m]. Returns the joint ID.")
      .def("add_joint_ball",
           [](ModelBuilder& b, int parent, int child, py::object parent_xform, py::object child_xform, py::object label,
              py::object collision_filter_parent, bool enabled) {
             const char* fn = "add_joint_ball";
             filter_parent(fn, collision_filter_parent);
             enabled_only(fn, enabled);
             return b.add_joint_ball(body_index(fn, b, parent, true, "parent"), body_index(fn, b, child, false, "child"),
                                     to_transform(fn, parent_xform, "parent_xform"),
                                     to_transform(fn, child_xform, "child_xform"), label_of(label));
           },
           py::arg("parent"), py::arg("child"), py::kw_only(), py::arg("parent_xform") = py::none(),
           py::arg("child_xform") = py::none(), py::arg("label") = py::none(),
           py::arg("collision_filter_parent") = py::none(), py::arg("enabled") = true,
           "A ball joint: 4 coordinates (quaternion x, y, z, w), 3 velocities. Returns the joint ID.")
      .def("add_joint_fixed",
           [](ModelBuilder& b, int parent, int child, py::object parent_xform, py::object child_xform, py::object label,
              py::object collision_filter_parent, bool enabled) {
             const char* fn = "add_joint_fixed";
             filter_parent(fn, collision_filter_parent);
             enabled_only(fn, enabled);
             return b.add_joint_fixed(body_index(fn, b, parent, true, "parent"), body_index(fn, b, child, false, "child"),
                                      to_transform(fn, parent_xform, "parent_xform"),
                                      to_transform(fn, child_xform, "child_xform"), label_of(label));
           },
           py::arg("parent"), py::arg("child"), py::kw_only(), py::arg("parent_xform") = py::none(),
           py::arg("child_xform") = py::none(), py::arg("label") = py::none(),
           py::arg("collision_filter_parent") = py::none(), py::arg("enabled") = true,
           "A weld: no coordinates. Returns the joint ID.")
      .def("add_joint_free",
           [](ModelBuilder& b, int child, py::object parent_xform, py::object child_xform, int parent, py::object label,
              py::object collision_filter_parent, bool enabled) {
             const char* fn = "add_joint_free";
             filter_parent(fn, collision_filter_parent);
             enabled_only(fn, enabled);
             return b.add_joint_free(body_index(fn, b, child, false, "child"), to_transform(fn, parent_xform, "parent_xform"),
                                     to_transform(fn, child_xform, "child_xform"),
                                     body_index(fn, b, parent, true, "parent"), label_of(label));
           },
           py::arg("child"), py::kw_only(), py::arg("parent_xform") = py::none(), py::arg("child_xform") = py::none(),
           py::arg("parent") = -1, py::arg("label") = py::none(), py::arg("collision_filter_parent") = py::none(),
           py::arg("enabled") = true,
           "Six free coordinates: position [m] and quaternion (x, y, z, w); velocities (v, omega). Returns the joint ID.")
      .def("add_joint_d6",
           [](ModelBuilder& b, int parent, int child, py::object linear_axes, py::object angular_axes, py::object label,
              py::object parent_xform, py::object child_xform, py::object collision_filter_parent, bool enabled) {
             const char* fn = "add_joint_d6";
             filter_parent(fn, collision_filter_parent);
             enabled_only(fn, enabled);
             std::vector<vec3> lin, ang;
             if (!linear_axes.is_none())
               for (py::handle a : linear_axes) lin.push_back(joint_axis(fn, a));
             if (!angular_axes.is_none())
               for (py::handle a : angular_axes) ang.push_back(joint_axis(fn, a));
             return b.add_joint_d6(body_index(fn, b, parent, true, "parent"), body_index(fn, b, child, false, "child"),
                                   to_transform(fn, parent_xform, "parent_xform"),
                                   to_transform(fn, child_xform, "child_xform"), lin, ang, label_of(label));
           },
           py::arg("parent"), py::arg("child"), py::kw_only(), py::arg("linear_axes") = py::none(),
           py::arg("angular_axes") = py::none(), py::arg("label") = py::none(), py::arg("parent_xform") = py::none(),
           py::arg("child_xform") = py::none(), py::arg("collision_filter_parent") = py::none(),
           py::arg("enabled") = true,
           "Up to 3 linear then 3 angular axes (JointDofConfig or 3 numbers each). Returns the joint ID.")
      .def("add_articulation",
           [](ModelBuilder& b, std::vector<int> joints, py::object label) { return b.add_articulation(joints, label_of(label)); },
           py::arg("joints"), py::arg("label") = py::none(),
           "Groups joints (contiguous, increasing IDs, parents first) into one articulation.")
      .def("add_urdf",
           [](ModelBuilder& b, const std::string& source, py::object xform, py::object floating, double scale,
              bool parse_visuals_as_colliders, py::object up_axis, bool ignore_inertial_definitions,
              bool collapse_fixed_joints) {
             const char* fn = "add_urdf";
             UrdfOptions o;
             o.xform = to_transform(fn, xform);
             o.floating = floating.is_none() ? true : floating.cast<bool>();
             o.scale = positive(fn, "scale", "-", scale);
             o.up_axis = axis_of(fn, up_axis);
             o.parse_visuals_as_colliders = parse_visuals_as_colliders;
             o.ignore_inertial_definitions = ignore_inertial_definitions;
             o.collapse_fixed_joints = collapse_fixed_joints;
             const auto [text, file] = source_text(fn, source, "urdf");
             try {
               add_urdf(b, text, o, file);
             } catch (const std::invalid_argument& e) {
               bad(e.what());
             }
           },
           py::arg("source"), py::kw_only(), py::arg("xform") = py::none(), py::arg("floating") = py::none(),
           py::arg("scale") = 1.0, py::arg("parse_visuals_as_colliders") = false, py::arg("up_axis") = "z",
           py::arg("ignore_inertial_definitions") = false, py::arg("collapse_fixed_joints") = false,
           "Imports a URDF file (or its text) as one articulation (course E1 §4).")
      .def("add_mjcf",
           [](ModelBuilder& b, const std::string& source, py::object xform, double scale, py::object up_axis,
              bool ignore_inertial_definitions) {
             const char* fn = "add_mjcf";
             MjcfOptions o;
             o.xform = to_transform(fn, xform);
             o.scale = positive(fn, "scale", "-", scale);
             o.up_axis = axis_of(fn, up_axis);
             o.ignore_inertial_definitions = ignore_inertial_definitions;
             const auto [text, file] = source_text(fn, source, "mjcf");
             try {
               add_mjcf(b, text, o, file);
             } catch (const std::invalid_argument& e) {
               bad(e.what());
             }
           },
           py::arg("source"), py::kw_only(), py::arg("xform") = py::none(), py::arg("scale") = 1.0,
           py::arg("up_axis") = "z", py::arg("ignore_inertial_definitions") = false,
           "Imports an MJCF file (or its text); each top-level body one articulation (course E1 §4).")
      .def_readwrite("rigid_gap", &ModelBuilder::rigid_gap, "the gap [m] of every shape whose ShapeConfig.gap is None")
      .def_property(
          "up_axis", [](const ModelBuilder& b) { return int(b.up_axis); },
          [](ModelBuilder& b, py::object v) { b.up_axis = axis_of("ModelBuilder.up_axis", v); },
          "0, 1, 2 for x, y, z; setting it does not turn gravity (set gravity too)")
      .def_property(
          "gravity", [](const ModelBuilder& b) { return std::vector<real>{b.gravity.x, b.gravity.y, b.gravity.z}; },
          [](ModelBuilder& b, py::object v) { b.gravity = to_vec3("ModelBuilder.gravity", "gravity", v); },
          "[m/s^2] world vector")
      .def_readwrite("balance_inertia", &ModelBuilder::balance_inertia)
      .def_readwrite("bound_mass", &ModelBuilder::bound_mass)
      .def_readwrite("bound_inertia", &ModelBuilder::bound_inertia)
      .def("finalize",
           [](const ModelBuilder& b, py::object device) {
             if (!device.is_none() && py::str(device).cast<std::string>() != "cpu")
               bad("finalize: device must be 'cpu' or None from Python, got '" + py::str(device).cast<std::string>() + "'");
             return b.finalize(Device::cpu);
           },
           py::arg("device") = py::none(),
           "Validates and lays out the Model (CPU). Raises ValueError naming the first bad body, joint or shape.")
      .def_property_readonly("body_count", &ModelBuilder::body_count)
      .def_property_readonly("shape_count", &ModelBuilder::shape_count)
      .def_property_readonly("joint_count", &ModelBuilder::joint_count)
      .def_property_readonly("articulation_count", &ModelBuilder::articulation_count)
      .def_property_readonly("joint_coord_count", &ModelBuilder::joint_coord_count)
      .def_property_readonly("joint_dof_count", &ModelBuilder::joint_dof_count)
      .def_property_readonly("body_label", [](const ModelBuilder& b) { return b.body_label; })
      .def_property_readonly("shape_label", [](const ModelBuilder& b) { return b.shape_label; })
      .def_property_readonly("joint_label", [](const ModelBuilder& b) { return b.joint_label; })
      .def_property_readonly("shape_body", [](const ModelBuilder& b) { return b.shape_body; })
      .def_property_readonly("shape_flags", [](const ModelBuilder& b) {
        std::vector<int> f;
        for (const ShapeConfig& c : b.shape_config)
          f.push_back((c.is_visible ? shape_visible : 0) | (c.has_shape_collision ? shape_collide : 0) |
                      (c.is_hydroelastic ? shape_hydroelastic : 0));
        return f;
      }, "per shape: 1 visible, 2 collides with shapes, 16 hydroelastic (Newton's ShapeFlags)")
      .def_property_readonly("shape_type", [](const ModelBuilder& b) {
        std::vector<int> t;
        for (ShapeType k : b.shape_type) t.push_back(int(k));
        return t;
      }, "per shape: 0 plane, 1 sphere, 2 capsule, 3 box, 4 cylinder, 5 convex hull, 6 mesh")
      .def_property_readonly("shape_scale", [](const ModelBuilder& b) {
        std::vector<std::vector<real>> v;
        for (const vec3& s : b.shape_scale) v.push_back({s.x, s.y, s.z});
        return v;
      });
  bind_cone(builder);
}

}  // namespace impulse::python
