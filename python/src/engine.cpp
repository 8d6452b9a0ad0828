// The engine side of the module, with Newton's names (course E1 §1, E3 §1-§8):
//   builder = ModelBuilder(); body = builder.add_body(xform); builder.add_shape_box(body, hx=..)
//   model = builder.finalize(); state_0, state_1 = model.state(), model.state()
//   pipeline = CollisionPipeline(model); contacts = pipeline.contacts()
//   pipeline.collide(state_0, contacts); solver.step(state_0, state_1, control, contacts, dt)
//   solver.update_contacts(contacts)
// State, Model and Contacts arrays are NumPy views of the engine's own CPU buffers (no copy): a
// transform row is (p_x, p_y, p_z, q_x, q_y, q_z, q_w), a spatial vector row (lin, ang), as in
// lib/core. Every argument a user types is checked here, before lib/ sees it, and a bad one raises
// ValueError naming the argument, its value and the allowed range.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <optional>
#include <sstream>

#include "contacts_columns.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/padmm/padmm.h"
#include "e3/solvers/generalized/solver_featherstone.h"
#include "e3/solvers/padmm/solver_padmm.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "e3/solvers/vbd/vbd_rigid.h"

namespace py = pybind11;

namespace impulse::python {

namespace {

[[noreturn]] void bad(const std::string& what) { throw py::value_error(what); }

std::string num(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

real positive(const char* fn, const char* arg, const char* unit, double x) {
  if (!(std::isfinite(x) && x > 0))
    bad(std::string(fn) + ": " + arg + " must be a finite number > 0 [" + unit + "], got " + num(x));
  return real(x);
}

real finite(const char* fn, const char* arg, const char* unit, double x) {
  if (!std::isfinite(x)) bad(std::string(fn) + ": " + arg + " must be finite [" + unit + "], got " + num(x));
  return real(x);
}

// xform: None (identity) or 7 numbers (p_x, p_y, p_z, q_x, q_y, q_z, q_w); the quaternion is
// normalised, a zero one refused.
transform to_transform(const char* fn, const py::object& xform) {
  if (xform.is_none()) return transform_identity();
  std::vector<double> v;
  try {
    v = xform.cast<std::vector<double>>();
  } catch (const py::cast_error&) {
    bad(std::string(fn) + ": xform must be 7 numbers (p_x, p_y, p_z, q_x, q_y, q_z, q_w)");
  }
  if (v.size() != 7)
    bad(std::string(fn) + ": xform must be 7 numbers (p_x, p_y, p_z, q_x, q_y, q_z, q_w), got " +
        std::to_string(v.size()));
  for (double x : v)
    if (!std::isfinite(x)) bad(std::string(fn) + ": xform must be finite, got " + num(x));
  quat q{real(v[3]), real(v[4]), real(v[5]), real(v[6])};
  if (!(quat_norm(q) > real(1e-12))) bad(std::string(fn) + ": xform's quaternion (q_x, q_y, q_z, q_w) must be non-zero");
  return {{real(v[0]), real(v[1]), real(v[2])}, quat_normalize(q)};
}

int body_index(const char* fn, const ModelBuilder& b, int body, bool world_ok) {
  if (body < (world_ok ? -1 : 0) || body >= b.body_count())
    bad(std::string(fn) + ": body must be " + (world_ok ? "-1 (world) or " : "") + "in [0, " +
        std::to_string(b.body_count()) + "), got " + std::to_string(body));
  return body;
}

// cfg: None (Newton's defaults) or a ShapeConfig; ModelBuilder checks its fields.
ShapeConfig shape_config(const py::object& cfg) { return cfg.is_none() ? ShapeConfig{} : cfg.cast<ShapeConfig>(); }

// A NumPy view of a CPU buffer of `cols` reals per row, kept alive by `owner`.
template <class T>
py::array rows_view(Buffer<T>& b, int cols, py::handle owner, bool writeable = true) {
  static_assert(sizeof(T) % sizeof(real) == 0, "rows of reals");
  if (b.device() != Device::cpu) bad("arrays of a GPU model are not exposed to Python (finalize on the CPU)");
  py::array a(py::dtype::of<real>(), {py::ssize_t(b.size()), py::ssize_t(cols)},
              {py::ssize_t(sizeof(T)), py::ssize_t(sizeof(real))}, reinterpret_cast<real*>(b.data()), owner);
  if (!writeable) py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

template <class T>
py::array flat_view(Buffer<T>& b, py::handle owner, bool writeable = true) {
  if (b.device() != Device::cpu) bad("arrays of a GPU model are not exposed to Python (finalize on the CPU)");
  py::array a(py::dtype::of<T>(), {py::ssize_t(b.size())}, {py::ssize_t(sizeof(T))}, b.data(), owner);
  if (!writeable) py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

// A finalized Model's arrays are read-only: NumPy views without the WRITEABLE flag.
template <class T>
py::array flat_view(const ModelArray<T>& b, py::handle owner, bool = false) {
  return flat_view(const_cast<Buffer<T>&>(static_cast<const Buffer<T>&>(b)), owner, false);
}
template <class T>
py::array rows_view(const ModelArray<T>& b, int cols, py::handle owner, bool = false) {
  return rows_view(const_cast<Buffer<T>&>(static_cast<const Buffer<T>&>(b)), cols, owner, false);
}

// The collision pipeline of one Model (the materials are the Model's, from each shape's ShapeConfig).
struct PyCollisionPipeline {
  PyCollisionPipeline(const Model& m, const CollisionPipelineOptions& po) : model(&m), pipeline(m, po) {}
  const Model* model;
  CollisionPipeline pipeline;
};

// A Contacts record made for the pipeline's Model. Each solver's step first fills the record's
// per-row materials for its own path (E3 §3): XPBD's means, the penalty mix (SemiImplicit,
// Featherstone, PADMM) or VBD's mix.
struct PyContacts {
  PyContacts(PyCollisionPipeline& p, bool request_force)
      : owner(&p), contacts(*p.model, p.pipeline.rigid_contact_max(), request_force) {}
  PyCollisionPipeline* owner;
  Contacts contacts;
  /// The record's view with its materials filled for path.
  ContactsView filled(SolverPath path) {
    fill_contact_materials(*owner->model, path, contacts);
    return contacts.view();
  }
};

// update_contacts writes contacts.force: refuse a record made without it, in Python's words.
void require_force(const PyContacts& c, const char* solver) {
  if (!c.contacts.has_force())
    bad(std::string(solver) + ".update_contacts: contacts has no force column; make it with "
        "pipeline.contacts(request_force=True)");
}

// One step of a solver that reads penalty rows: the shared argument checks, then the record's
// materials filled for the solver's path.
template <class Solver>
void penalty_step(Solver& s, const State& state_in, State& state_out, const Control& control, PyContacts* contacts,
                  double dt, SolverPath path = SolverPath::semi_implicit) {
  positive("step", "dt", "s", dt);
  if (&state_in == &state_out) bad("step: state_in and state_out must be two different States");
  if (!contacts) {
    s.step(state_in, state_out, control, nullptr, real(dt));
    return;
  }
  ContactsView v = contacts->filled(path);
  s.step(state_in, state_out, control, &v, real(dt));
}

}  // namespace

void bind_engine(py::module_& m) {
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
      .def(py::init([](const std::string& up_axis, std::optional<std::vector<double>> gravity) {
             Axis ax = up_axis == "x" ? Axis::x : up_axis == "y" ? Axis::y : up_axis == "z" ? Axis::z : Axis(-1);
             if (int(ax) < 0) bad("ModelBuilder: up_axis must be 'x', 'y' or 'z', got '" + up_axis + "'");
             std::optional<vec3> g;
             if (gravity) {
               if (gravity->size() != 3) bad("ModelBuilder: gravity must be 3 numbers [m/s^2]");
               for (double x : *gravity) finite("ModelBuilder", "gravity", "m/s^2", x);
               g = vec3{real((*gravity)[0]), real((*gravity)[1]), real((*gravity)[2])};
             }
             return ModelBuilder(ax, g);
           }),
           py::arg("up_axis") = "z", py::arg("gravity") = py::none())
      .def("add_body",
           [](ModelBuilder& b, py::object xform, double mass, const std::string& label) {
             MassProperties mp;
             if (!(std::isfinite(mass) && mass >= 0)) bad("add_body: mass must be a finite number >= 0 [kg], got " + num(mass));
             mp.mass = real(mass);
             return b.add_body(to_transform("add_body", xform), mp, false, false, label);
           },
           py::arg("xform") = py::none(), py::arg("mass") = 0.0, py::arg("label") = "",
           "A free body (FREE joint from the world). mass [kg] is added to its shapes' masses. Returns its ID.")
      .def("add_shape_box",
           [](ModelBuilder& b, int body, py::object xform, double hx, double hy, double hz, py::object cfg,
              const std::string& label) {
             const char* fn = "add_shape_box";
             return b.add_shape_box(body_index(fn, b, body, true), to_transform(fn, xform), positive(fn, "hx", "m", hx),
                                    positive(fn, "hy", "m", hy), positive(fn, "hz", "m", hz), shape_config(cfg), label);
           },
           py::arg("body"), py::arg("xform") = py::none(), py::arg("hx") = 0.5, py::arg("hy") = 0.5,
           py::arg("hz") = 0.5, py::arg("cfg") = py::none(), py::arg("label") = "",
           "A box of half extents hx, hy, hz [m] on body (-1: world). Returns the shape ID.")
      .def("add_shape_sphere",
           [](ModelBuilder& b, int body, py::object xform, double radius, py::object cfg, const std::string& label) {
             const char* fn = "add_shape_sphere";
             return b.add_shape_sphere(body_index(fn, b, body, true), to_transform(fn, xform),
                                       positive(fn, "radius", "m", radius), shape_config(cfg), label);
           },
           py::arg("body"), py::arg("xform") = py::none(), py::arg("radius") = 1.0, py::arg("cfg") = py::none(),
           py::arg("label") = "")
      .def("add_ground_plane",
           [](ModelBuilder& b, double height, py::object cfg) {
             return b.add_ground_plane(finite("add_ground_plane", "height", "m", height), shape_config(cfg));
           },
           py::arg("height") = 0.0, py::arg("cfg") = py::none())
      .def_readwrite("rigid_gap", &ModelBuilder::rigid_gap, "the gap [m] of every shape whose ShapeConfig.gap is None")
      .def("finalize", [](const ModelBuilder& b) { return b.finalize(Device::cpu); },
           "Validates and lays out the Model (CPU). Raises ValueError naming the first bad body or shape.")
      .def_property_readonly("body_count", &ModelBuilder::body_count)
      .def_property_readonly("shape_count", &ModelBuilder::shape_count);

  py::class_<Model>(m, "Model")
      .def("state", &Model::state, "A new State holding copies of the initial poses and velocities.")
      .def("control", [](Model& model) { return model.control(true); })
      .def_readonly("body_count", &Model::body_count)
      .def_readonly("shape_count", &Model::shape_count)
      .def_property_readonly("gravity", [](const Model& model) { return std::vector<real>{model.gravity.x, model.gravity.y, model.gravity.z}; })
      .def_property_readonly("body_mass", [](py::object self) { return flat_view(self.cast<Model&>().body_mass, self, false); })
      .def_property_readonly("body_inv_mass", [](py::object self) { return flat_view(self.cast<Model&>().body_inv_mass, self, false); })
      .def_property_readonly("body_com", [](py::object self) { return rows_view(self.cast<Model&>().body_com, 3, self, false); })
      .def_property_readonly("body_inertia", [](py::object self) {
        py::array a = rows_view(self.cast<Model&>().body_inertia, 9, self, false);
        return a.attr("reshape")(-1, 3, 3);
      })
      .def_property_readonly("shape_body", [](py::object self) { return flat_view(self.cast<Model&>().shape_body, self, false); });

  py::class_<State>(m, "State")
      .def_property_readonly("body_q", [](py::object self) { return rows_view(self.cast<State&>().body_q, 7, self); },
                             "(body_count, 7) world pose of each body origin: p [m], q (x, y, z, w); a view, writable")
      .def_property_readonly("body_qd", [](py::object self) { return rows_view(self.cast<State&>().body_qd, 6, self); },
                             "(body_count, 6) (v_C [m/s], omega [rad/s]), world, v at the COM; a view, writable")
      .def_property_readonly("body_f", [](py::object self) { return rows_view(self.cast<State&>().body_f, 6, self); },
                             "(body_count, 6) external (f [N], tau [N m]) about the COM, world; a view, writable")
      .def("clear_forces", &State::clear_forces)
      .def("assign", &State::assign, py::arg("other"));

  py::class_<Control>(m, "Control");

  py::class_<PyCollisionPipeline>(m, "CollisionPipeline")
      .def(py::init([](const Model& model, const std::string& broad_phase, int rigid_contact_max) {
             const char* fn = "CollisionPipeline";
             CollisionPipelineOptions po;
             if (broad_phase != "nxn" && broad_phase != "sap" && broad_phase != "explicit")
               bad(std::string(fn) + ": broad_phase must be 'nxn', 'sap' or 'explicit', got '" + broad_phase + "'");
             po.broad_phase = parse_broad_phase_mode(broad_phase);
             if (rigid_contact_max < -1 || rigid_contact_max == 0)
               bad(std::string(fn) + ": rigid_contact_max must be -1 (estimate) or >= 1 [rows], got " +
                   std::to_string(rigid_contact_max));
             po.rigid_contact_max = rigid_contact_max;
             return std::make_unique<PyCollisionPipeline>(model, po);
           }),
           py::arg("model"), py::arg("broad_phase") = "sap", py::arg("rigid_contact_max") = -1, py::keep_alive<1, 2>(),
           "The E3 §2 chain for model; each shape's material, margin and gap come from its ShapeConfig.")
      .def("contacts", [](PyCollisionPipeline& p, bool request_force) { return std::make_unique<PyContacts>(p, request_force); },
           py::arg("request_force") = true, py::keep_alive<0, 1>(),
           "A Contacts record of rigid_contact_max rows; request_force allocates the force column update_contacts fills.")
      .def("collide",
           [](PyCollisionPipeline& p, const State& state, PyContacts& c) {
             if (c.owner != &p) bad("collide: contacts must come from this pipeline's contacts()");
             if (state.body_q.size() != p.model->body_count)
               bad("collide: state has " + std::to_string(state.body_q.size()) + " bodies, the model " +
                   std::to_string(p.model->body_count));
             p.pipeline.collide(state.body_q.view(), c.contacts);
           },
           py::arg("state"), py::arg("contacts"), "Collides the poses of state into contacts (E3 §2).")
      .def_property_readonly("rigid_contact_max", [](const PyCollisionPipeline& p) { return p.pipeline.rigid_contact_max(); })
      .def_property_readonly("last_stages", [](const PyCollisionPipeline& p) { return p.pipeline.last_stages(); });

  py::class_<PyContacts> contacts_class(m, "Contacts");
  def_contact_columns(contacts_class, [](py::handle s) -> Contacts& { return s.cast<PyContacts&>().contacts; });
  contacts_class
      .def_property_readonly("rigid_contact_count", [](const PyContacts& c) { return c.contacts.count(); })
      .def_property_readonly("rigid_contact_max", [](const PyContacts& c) { return c.contacts.rigid_contact_max; })
      .def_property_readonly("force", [](py::object s) {
        PyContacts& c = s.cast<PyContacts&>();
        if (!c.contacts.has_force()) bad("force: this record was made with request_force=False");
        return rows_view(c.contacts.force, 6, s, false);
      }, "(rigid_contact_max, 6) (f [N], tau [N m]) of body1 on body0, world, tau about body0's COM");

  py::class_<SolverXPBD>(m, "SolverXPBD")
      .def(py::init([](const Model& model, int iterations) {
             if (iterations < 1) bad("SolverXPBD: iterations must be >= 1, got " + std::to_string(iterations));
             return std::make_unique<SolverXPBD>(model, iterations);
           }),
           py::arg("model"), py::arg("iterations") = 2, py::keep_alive<1, 2>())
      .def("step",
           [](SolverXPBD& s, const State& state_in, State& state_out, const Control& control, PyContacts* contacts,
              double dt) {
             positive("step", "dt", "s", dt);
             if (&state_in == &state_out) bad("step: state_in and state_out must be two different States");
             if (!contacts) {
               s.step(state_in, state_out, control, nullptr, real(dt));
               return;
             }
             ContactsView v = contacts->filled(SolverPath::xpbd);
             s.step(state_in, state_out, control, &v, real(dt));
           },
           py::arg("state_in"), py::arg("state_out"), py::arg("control"), py::arg("contacts"), py::arg("dt"),
           "One XPBD step of dt [s] (E3 §4); contacts may be None.")
      .def("update_contacts",
           [](const SolverXPBD& s, PyContacts& contacts) {
             require_force(contacts, "SolverXPBD");
             ContactsView v = contacts.contacts.view();
             s.update_contacts(v);
           },
           py::arg("contacts"), "Writes contacts.force from the last step's impulses / dt (E3 §8).")
      .def_readwrite("iterations", &SolverXPBD::iterations)
      .def_readwrite("rigid_contact_relaxation", &SolverXPBD::rigid_contact_relaxation)
      .def_readwrite("rigid_contact_con_weighting", &SolverXPBD::rigid_contact_con_weighting)
      .def_readwrite("enable_restitution", &SolverXPBD::enable_restitution);

  py::class_<SolverSemiImplicit>(m, "SolverSemiImplicit")
      .def(py::init([](const Model& model, double angular_damping, double friction_smoothing) {
             if (!(std::isfinite(angular_damping) && angular_damping >= 0))
               bad("SolverSemiImplicit: angular_damping must be a finite number >= 0 [1/s], got " + num(angular_damping));
             positive("SolverSemiImplicit", "friction_smoothing", "m/s", friction_smoothing);
             return std::make_unique<SolverSemiImplicit>(model, real(angular_damping), real(friction_smoothing));
           }),
           py::arg("model"), py::arg("angular_damping") = 0.05, py::arg("friction_smoothing") = 1.0, py::keep_alive<1, 2>(),
           "The penalty solver of E3 §6: one contact pass per step, forces from ke, kd, kf, mu (Newton's defaults).")
      .def("step",
           [](SolverSemiImplicit& s, const State& state_in, State& state_out, const Control& control,
              PyContacts* contacts, double dt) {
             positive("step", "dt", "s", dt);
             if (&state_in == &state_out) bad("step: state_in and state_out must be two different States");
             if (!contacts) {
               s.step(state_in, state_out, control, nullptr, real(dt));
               return;
             }
             ContactsView v = contacts->filled(SolverPath::semi_implicit);
             s.step(state_in, state_out, control, &v, real(dt));
           },
           py::arg("state_in"), py::arg("state_out"), py::arg("control"), py::arg("contacts"), py::arg("dt"),
           "One semi-implicit step of dt [s] with penalty contact forces (E3 §6); contacts may be None.")
      .def("update_contacts",
           [](const SolverSemiImplicit& s, PyContacts& contacts) {
             ContactsView v = contacts.contacts.view();
             s.update_contacts(v);
           },
           py::arg("contacts"), "Raises NotImplementedError: the semi-implicit path has no per-contact force producer (E3 §6).");

  py::class_<SolverFeatherstone>(m, "SolverFeatherstone")
      .def(py::init([](const Model& model, int update_mass_matrix_interval, double friction_smoothing) {
             if (update_mass_matrix_interval < 1)
               bad("SolverFeatherstone: update_mass_matrix_interval must be >= 1, got " +
                   std::to_string(update_mass_matrix_interval));
             positive("SolverFeatherstone", "friction_smoothing", "m/s", friction_smoothing);
             return std::make_unique<SolverFeatherstone>(model, update_mass_matrix_interval, real(friction_smoothing));
           }),
           py::arg("model"), py::arg("update_mass_matrix_interval") = 1, py::arg("friction_smoothing") = 1.0,
           py::keep_alive<1, 2>(),
           "Generalized coordinates (E3 §6): FK, H = J^T I J + armature, Cholesky, qdd; penalty contacts.")
      .def("step",
           [](SolverFeatherstone& s, const State& a, State& b, const Control& c, PyContacts* k, double dt) {
             penalty_step(s, a, b, c, k, dt);
           },
           py::arg("state_in"), py::arg("state_out"), py::arg("control"), py::arg("contacts"), py::arg("dt"),
           "One Featherstone step of dt [s]; contacts may be None. Joint coordinates are the state.")
      .def("update_contacts",
           [](const SolverFeatherstone& s, PyContacts& contacts) {
             ContactsView v = contacts.contacts.view();
             s.update_contacts(v);
           },
           py::arg("contacts"), "Raises: Featherstone has no per-contact force producer (E3.6-no-update-contacts).")
      .def_property_readonly("mass_matrix_updates", &SolverFeatherstone::mass_matrix_updates);

  py::class_<SolverVBD>(m, "SolverVBD")
      .def(py::init([](const Model& model, int iterations, double rho, double friction_epsilon) {
             if (iterations < 1) bad("SolverVBD: iterations must be >= 1, got " + std::to_string(iterations));
             positive("SolverVBD", "rho", "N/m", rho);
             positive("SolverVBD", "friction_epsilon", "m/s", friction_epsilon);
             return std::make_unique<SolverVBD>(model, iterations, real(rho), real(friction_epsilon));
           }),
           py::arg("model"), py::arg("iterations") = 10, py::arg("rho") = 1e5, py::arg("friction_epsilon") = 0.01,
           py::keep_alive<1, 2>(), "Rigid VBD with compliant augmented-Lagrangian rows (E3 §6).")
      .def("step",
           [](SolverVBD& s, const State& a, State& b, const Control& c, PyContacts* k, double dt) {
             penalty_step(s, a, b, c, k, dt, SolverPath::vbd);
           },
           py::arg("state_in"), py::arg("state_out"), py::arg("control"), py::arg("contacts"), py::arg("dt"),
           "One VBD step of dt [s]; contacts may be None.")
      .def("update_contacts",
           [](const SolverVBD&, PyContacts&) {
             PyErr_SetString(PyExc_NotImplementedError,
                             "SolverVBD.update_contacts: VBD's readback is solver.collect_rigid_contact_forces(state, "
                             "contacts, dt) (the force on body1 of each contact), not update_contacts");
             throw py::error_already_set();
           },
           py::arg("contacts"), "Raises: VBD's readback is collect_rigid_contact_forces(state, contacts, dt).")
      .def("collect_rigid_contact_forces",
           [](const SolverVBD& s, const State& state, PyContacts& contacts, double dt) {
             positive("SolverVBD.collect_rigid_contact_forces", "dt", "s", dt);
             const std::vector<VbdContactForce> f =
                 s.collect_rigid_contact_forces(state.body_q.to_host(), s.body_q_prev(), contacts.contacts.view(), real(dt));
             const py::ssize_t n = py::ssize_t(f.size());
             py::array_t<int> b0(n), b1(n);
             py::array_t<double> p0({n, py::ssize_t(3)}), p1({n, py::ssize_t(3)}), fb1({n, py::ssize_t(3)});
             for (py::ssize_t i = 0; i < n; ++i) {
               b0.mutable_at(i) = f[i].body0;
               b1.mutable_at(i) = f[i].body1;
               const vec3 rows[3] = {f[i].point0_world, f[i].point1_world, f[i].force_on_body1};
               py::array_t<double>* arrays[3] = {&p0, &p1, &fb1};
               for (int a = 0; a < 3; ++a) {
                 arrays[a]->mutable_at(i, 0) = rows[a].x;
                 arrays[a]->mutable_at(i, 1) = rows[a].y;
                 arrays[a]->mutable_at(i, 2) = rows[a].z;
               }
             }
             return py::dict(py::arg("body0") = b0, py::arg("body1") = b1, py::arg("point0_world") = p0,
                             py::arg("point1_world") = p1, py::arg("force_on_body1") = fb1);
           },
           py::arg("state"), py::arg("contacts"), py::arg("dt"),
           "VBD's contact readback (E3 §6): after step(state_in, state, control, contacts, dt), the force [N] "
           "on body1 of each contact, world (Contacts.force's body0 convention is its negative), with the "
           "contacts' bodies and world points [m]; dicts of NumPy arrays.")
      .def("reset", &SolverVBD::reset)
      .def_readwrite("iterations", &SolverVBD::iterations);

  py::class_<PADMMStatus>(m, "PADMMStatus")
      .def_readonly("converged", &PADMMStatus::converged)
      .def_readonly("iterations", &PADMMStatus::iterations)
      .def_readonly("r_p", &PADMMStatus::r_p, "primal residual [N s]")
      .def_readonly("r_d", &PADMMStatus::r_d, "dual residual [m/s]")
      .def_readonly("r_c", &PADMMStatus::r_c, "complementarity residual [J]")
      .def("__repr__", [](const PADMMStatus& st) {
        return "PADMMStatus(converged=" + std::string(st.converged ? "True" : "False") +
               ", iterations=" + std::to_string(st.iterations) + ", r_p=" + num(st.r_p) + " N s, r_d=" + num(st.r_d) +
               " m/s, r_c=" + num(st.r_c) + " J)";
      });

  py::class_<SolverPADMM>(m, "SolverPADMM")
      .def(py::init([](const Model& model, int max_iterations, double primal_tolerance, double dual_tolerance,
                       double compl_tolerance) {
             PADMMSettings st;
             st.max_iterations = max_iterations;
             st.primal_tolerance = real(primal_tolerance);
             st.dual_tolerance = real(dual_tolerance);
             st.compl_tolerance = real(compl_tolerance);
             if (max_iterations < 1) bad("SolverPADMM: max_iterations must be >= 1, got " + std::to_string(max_iterations));
             positive("SolverPADMM", "primal_tolerance", "N s", primal_tolerance);
             positive("SolverPADMM", "dual_tolerance", "m/s", dual_tolerance);
             positive("SolverPADMM", "compl_tolerance", "J", compl_tolerance);
             return std::make_unique<SolverPADMM>(model, st);
           }),
           py::arg("model"), py::arg("max_iterations") = 200, py::arg("primal_tolerance") = 1e-6,
           py::arg("dual_tolerance") = 1e-6, py::arg("compl_tolerance") = 1e-6, py::keep_alive<1, 2>(),
           "Kamino-style PADMM on the regularised Delassus problem (E3 §6); defaults as Kamino's.")
      .def("step",
           [](SolverPADMM& s, const State& a, State& b, const Control& c, PyContacts* k, double dt) {
             penalty_step(s, a, b, c, k, dt);
           },
           py::arg("state_in"), py::arg("state_out"), py::arg("control"), py::arg("contacts"), py::arg("dt"),
           "One PADMM step of dt [s]; contacts may be None.")
      .def("update_contacts",
           [](const SolverPADMM& s, PyContacts& contacts, const State& state) {
             require_force(contacts, "SolverPADMM");
             ContactsView v = contacts.contacts.view();
             s.update_contacts(v, state);
           },
           py::arg("contacts"), py::arg("state"),
           "Kamino's update_contacts(contacts, state): the last step's average contact wrench on body0 (E3 §8).")
      .def_property_readonly("status", &SolverPADMM::status, "per-world status of the last step")
      .def("reset", &SolverPADMM::reset);
}

}  // namespace impulse::python
