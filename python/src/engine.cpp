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
#include "convert.h"
#include "e1/kinematics.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/observe/sensor_contact.h"
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

// The collision pipeline of one Model (the materials are the Model's, from each shape's ShapeConfig).
struct PyCollisionPipeline {
  PyCollisionPipeline(py::object m, const CollisionPipelineOptions& po)
      : model_obj(m), model(&m.cast<const Model&>()), pipeline(*model, po) {}
  py::object model_obj;
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
        "pipeline.contacts(request_force=True), or call model.request_contact_attributes(\"force\") "
        "before pipeline.contacts()");
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

// The contact attributes requested on a Model (Newton keeps this table on the Model; a record
// reads it when it is made): kept on the Python Model object, which the pipeline holds.
ContactAttributes& requested_attributes(py::handle model) {
  if (!py::hasattr(model, "_contact_attributes"))
    model.attr("_contact_attributes") = py::cast(ContactAttributes{});
  return model.attr("_contact_attributes").cast<ContactAttributes&>();
}

std::vector<real> joint_values(const char* fn, const char* arg, const py::handle& v, std::int64_t n) {
  const std::vector<double> x = numbers(fn, arg, v, std::size_t(n), "");
  return std::vector<real>(x.begin(), x.end());
}

// (n, 3) NumPy rows of a list of vectors (a copy).
py::array vec3_rows(const std::vector<vec3>& v) {
  py::array_t<double> a({py::ssize_t(v.size()), py::ssize_t(3)});
  for (std::size_t i = 0; i < v.size(); ++i) {
    a.mutable_at(i, 0) = v[i].x;
    a.mutable_at(i, 1) = v[i].y;
    a.mutable_at(i, 2) = v[i].z;
  }
  return as_warp_like(a);
}

}  // namespace

void bind_engine(py::module_& m) {
  py::class_<ContactAttributes>(m, "_ContactAttributes").def_readonly("force", &ContactAttributes::force);

#define IMPULSE_MODEL_FLAT(name) \
  .def_property_readonly(#name, [](py::object self) { return flat_view(self.cast<Model&>().name, self); })
#define IMPULSE_MODEL_ROWS(name, cols) \
  .def_property_readonly(#name, [](py::object self) { return rows_view(self.cast<Model&>().name, cols, self); })
  py::class_<Model>(m, "Model", py::dynamic_attr())
      .def("state", &Model::state, "A new State holding copies of the initial poses and velocities.")
      .def("control", [](Model& model, bool clone_variables) { return model.control(clone_variables); },
           py::arg("clone_variables") = true)
      .def("request_contact_attributes",
           [](py::object self, py::args names) {
             for (py::handle n : names) {
               try {
                 request_contact_attributes(requested_attributes(self), n.cast<std::string>());
               } catch (const std::invalid_argument& e) {
                 bad(e.what());
               }
             }
           },
           "Requests optional Contacts columns ('force') for the records made after this call (E3.8).")
      .def_readonly("body_count", &Model::body_count)
      .def_readonly("shape_count", &Model::shape_count)
      .def_readonly("joint_count", &Model::joint_count)
      .def_readonly("articulation_count", &Model::articulation_count)
      .def_readonly("joint_coord_count", &Model::joint_coord_count)
      .def_readonly("joint_dof_count", &Model::joint_dof_count)
      .def_readonly("rigid_gap", &Model::rigid_gap)
      .def_property_readonly("up_axis", [](const Model& model) { return int(model.up_axis); })
      .def_property_readonly("gravity", [](const Model& model) { return std::vector<real>{model.gravity.x, model.gravity.y, model.gravity.z}; })
      .def_property_readonly("body_label", [](const Model& model) { return model.body_label; })
      .def_property_readonly("joint_label", [](const Model& model) { return model.joint_label; })
      .def_property_readonly("shape_label", [](const Model& model) { return model.shape_label; })
      .def_property_readonly("body_inertia", [](py::object self) {
        py::array a = rows_view(self.cast<Model&>().body_inertia, 9, self, false);
        return a.attr("reshape")(-1, 3, 3);
      })
      .def_property_readonly("body_inv_inertia", [](py::object self) {
        py::array a = rows_view(self.cast<Model&>().body_inv_inertia, 9, self, false);
        return a.attr("reshape")(-1, 3, 3);
      })
      IMPULSE_MODEL_ROWS(body_q, 7) IMPULSE_MODEL_ROWS(body_qd, 6) IMPULSE_MODEL_ROWS(body_com, 3)
      IMPULSE_MODEL_FLAT(body_mass) IMPULSE_MODEL_FLAT(body_inv_mass) IMPULSE_MODEL_FLAT(body_flags)
      IMPULSE_MODEL_FLAT(joint_type) IMPULSE_MODEL_FLAT(joint_parent) IMPULSE_MODEL_FLAT(joint_child)
      IMPULSE_MODEL_FLAT(joint_articulation) IMPULSE_MODEL_ROWS(joint_X_p, 7) IMPULSE_MODEL_ROWS(joint_X_c, 7)
      IMPULSE_MODEL_FLAT(joint_q_start) IMPULSE_MODEL_FLAT(joint_qd_start) IMPULSE_MODEL_FLAT(joint_q)
      IMPULSE_MODEL_FLAT(joint_qd) IMPULSE_MODEL_FLAT(articulation_start)
      IMPULSE_MODEL_FLAT(shape_body) IMPULSE_MODEL_ROWS(shape_transform, 7) IMPULSE_MODEL_FLAT(shape_type)
      IMPULSE_MODEL_ROWS(shape_scale, 3) IMPULSE_MODEL_FLAT(shape_flags)
      IMPULSE_MODEL_FLAT(shape_material_ke) IMPULSE_MODEL_FLAT(shape_material_kd)
      IMPULSE_MODEL_FLAT(shape_material_kf) IMPULSE_MODEL_FLAT(shape_material_ka)
      IMPULSE_MODEL_FLAT(shape_material_mu) IMPULSE_MODEL_FLAT(shape_material_restitution)
      IMPULSE_MODEL_FLAT(shape_material_mu_torsional) IMPULSE_MODEL_FLAT(shape_material_mu_rolling)
      IMPULSE_MODEL_FLAT(shape_material_kh) IMPULSE_MODEL_FLAT(shape_margin) IMPULSE_MODEL_FLAT(shape_gap)
      IMPULSE_MODEL_FLAT(shape_world) IMPULSE_MODEL_FLAT(shape_collision_group);
#undef IMPULSE_MODEL_FLAT
#undef IMPULSE_MODEL_ROWS

  py::class_<State>(m, "State")
      .def_property_readonly("body_q", [](py::object self) { return rows_view(self.cast<State&>().body_q, 7, self); },
                             "(body_count, 7) world pose of each body origin: p [m], q (x, y, z, w); a view, writable")
      .def_property_readonly("body_qd", [](py::object self) { return rows_view(self.cast<State&>().body_qd, 6, self); },
                             "(body_count, 6) (v_C [m/s], omega [rad/s]), world, v at the COM; a view, writable")
      .def_property_readonly("body_f", [](py::object self) { return rows_view(self.cast<State&>().body_f, 6, self); },
                             "(body_count, 6) external (f [N], tau [N m]) about the COM, world; a view, writable")
      .def_property_readonly("joint_q", [](py::object self) { return flat_view(self.cast<State&>().joint_q, self); },
                             "(joint_coord_count) joint coordinates [m, rad, -]; a view, writable")
      .def_property_readonly("joint_qd", [](py::object self) { return flat_view(self.cast<State&>().joint_qd, self); },
                             "(joint_dof_count) joint velocities [m/s, rad/s]; a view, writable")
      .def("clear_forces", &State::clear_forces, "Zeroes body_f (not poses, joints or Control).")
      .def("assign",
           [](State& s, const State& other) {
             try {
               s.assign(other);
             } catch (const std::invalid_argument& e) {
               bad(e.what());
             }
           },
           py::arg("other"), "Copies every array of other into this State (a real copy).");

  py::class_<Control>(m, "Control")
      .def_property_readonly("joint_f", [](py::object self) {
        Control& c = self.cast<Control&>();
        return as_warp_like(py::array(py::dtype::of<real>(), {py::ssize_t(c.joint_f.size)}, {py::ssize_t(sizeof(real))},
                                      c.joint_f.data, self));
      }, "(joint_dof_count) generalised forces [N, N m]; a view, writable");

  // eval_fk(model, joint_q, joint_qd, state) / eval_ik(model, state, joint_q, joint_qd) (E1 §5):
  // joint_q and joint_qd are any arrays of the model's sizes; eval_ik writes into NumPy arrays
  // (or State.joint_q-like views) in place.
  m.def("eval_fk",
        [](const Model& model, py::object joint_q, py::object joint_qd, State& state) {
          const std::vector<real> q = joint_values("eval_fk", "joint_q", joint_q, model.joint_coord_count);
          const std::vector<real> qd = joint_values("eval_fk", "joint_qd", joint_qd, model.joint_dof_count);
          eval_fk(model, View<const real>{q.data(), std::int64_t(q.size())},
                  View<const real>{qd.data(), std::int64_t(qd.size())}, state);
        },
        py::arg("model"), py::arg("joint_q"), py::arg("joint_qd"), py::arg("state"),
        "Writes state.body_q / body_qd from joint coordinates and velocities (no time passes).");
  m.def("eval_ik",
        [](const Model& model, const State& state, py::array joint_q, py::array joint_qd) {
          std::vector<real> q(std::size_t(model.joint_coord_count)), qd(std::size_t(model.joint_dof_count));
          if (joint_q.size() != py::ssize_t(q.size()) || joint_qd.size() != py::ssize_t(qd.size()))
            bad("eval_ik: joint_q and joint_qd must have " + std::to_string(q.size()) + " and " +
                std::to_string(qd.size()) + " entries (the model's coordinate and DOF counts), got " +
                std::to_string(joint_q.size()) + " and " + std::to_string(joint_qd.size()));
          eval_ik(model, state, View<real>{q.data(), std::int64_t(q.size())}, View<real>{qd.data(), std::int64_t(qd.size())});
          py::object np = py::module_::import("numpy");
          np.attr("copyto")(joint_q, np.attr("asarray")(py::cast(q)).attr("reshape")(joint_q.attr("shape")), "unsafe");
          np.attr("copyto")(joint_qd, np.attr("asarray")(py::cast(qd)).attr("reshape")(joint_qd.attr("shape")), "unsafe");
        },
        py::arg("model"), py::arg("state"), py::arg("joint_q"), py::arg("joint_qd"),
        "Writes joint_q / joint_qd (NumPy arrays, in place) from state.body_q / body_qd.");

  py::class_<PyCollisionPipeline>(m, "CollisionPipeline")
      .def(py::init([](py::object model, py::object broad_phase, py::object rigid_contact_max, py::object shape_pairs_max,
                       bool broad_phase_reuse, double broad_phase_reuse_margin) {
             const char* fn = "CollisionPipeline";
             CollisionPipelineOptions po;
             const std::string bp = broad_phase.is_none() ? std::string("sap") : broad_phase.cast<std::string>();
             if (bp != "nxn" && bp != "sap" && bp != "explicit")
               bad(std::string(fn) + ": broad_phase must be 'nxn', 'sap' or 'explicit', got '" + bp + "'");
             po.broad_phase = parse_broad_phase_mode(bp);
             const int max = rigid_contact_max.is_none() ? -1 : rigid_contact_max.cast<int>();
             if (max < -1 || max == 0)
               bad(std::string(fn) + ": rigid_contact_max must be None (estimate) or >= 1 [rows], got " +
                   std::to_string(max));
             po.rigid_contact_max = max;
             const int pairs = shape_pairs_max.is_none() ? -1 : shape_pairs_max.cast<int>();
             if (pairs < -1 || pairs == 0)
               bad(std::string(fn) + ": shape_pairs_max must be None (estimate) or >= 1 [pairs], got " +
                   std::to_string(pairs));
             po.shape_pairs_max = pairs;
             if (!(broad_phase_reuse_margin >= 0))
               bad(std::string(fn) + ": broad_phase_reuse_margin must be >= 0 [m], got " +
                   std::to_string(broad_phase_reuse_margin));
             po.broad_phase_reuse = broad_phase_reuse;
             po.broad_phase_reuse_margin = broad_phase_reuse_margin;
             return std::make_unique<PyCollisionPipeline>(model, po);
           }),
           py::arg("model"), py::kw_only(), py::arg("broad_phase") = py::none(), py::arg("rigid_contact_max") = py::none(),
           py::arg("shape_pairs_max") = py::none(), py::arg("broad_phase_reuse") = true,
           py::arg("broad_phase_reuse_margin") = 0.01,
           py::keep_alive<1, 2>(),
           "The E3 §2 chain for model; each shape's material, margin and gap come from its ShapeConfig.")
      .def("contacts",
           [](PyCollisionPipeline& p, py::object request_force) {
             const bool force = request_force.is_none() ? requested_attributes(p.model_obj).force : request_force.cast<bool>();
             return std::make_unique<PyContacts>(p, force);
           },
           py::arg("request_force") = py::none(), py::keep_alive<0, 1>(),
           "A Contacts record of rigid_contact_max rows. Its force column (update_contacts, SensorContact) is "
           "allocated when request_force=True or, by default, when model.request_contact_attributes('force') "
           "or a SensorContact asked for it before this call (E3.8-sensor-order).")
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

  // Newton's newton.sensors.SensorContact(model, sensing_bodies=[...]): made before the record, it
  // requests the force column (E3.8-sensor-order); update(state, contacts) aggregates the linear
  // force of each sensing body's rows (E3.8-sensor-aggregation).
  py::class_<SensorContact>(m, "SensorContact")
      .def(py::init([](py::object model, std::vector<int> sensing_bodies) {
             try {
               return std::make_unique<SensorContact>(model.cast<const Model&>(), requested_attributes(model),
                                                      std::move(sensing_bodies));
             } catch (const std::invalid_argument& e) {
               bad(e.what());
             }
           }),
           py::arg("model"), py::kw_only(), py::arg("sensing_bodies"), py::keep_alive<1, 2>())
      .def("update",
           [](SensorContact& s, const State& state, PyContacts& contacts) {
             ContactsView v = contacts.contacts.view();
             try {
               s.update(v, state);
             } catch (const std::invalid_argument& e) {
               bad(e.what());
             } catch (const std::runtime_error& e) {
               bad(e.what());
             }
           },
           py::arg("state"), py::arg("contacts"), "Reads contacts.force of the valid rows (after update_contacts).")
      .def_readonly("sensing_bodies", &SensorContact::sensing_bodies)
      .def_property_readonly("total_force", [](const SensorContact& s) {
        return vec3_rows(s.net_force);
      }, "(sensing bodies, 3) net contact force [N] on each sensing body, world")
      .def_property_readonly("friction_force", [](const SensorContact& s) {
        return vec3_rows(s.friction_force);
      }, "(sensing bodies, 3) its tangential part [N], world");

  py::class_<SolverXPBD>(m, "SolverXPBD")
      .def(py::init([](const Model& model, int iterations, double rigid_contact_relaxation,
                       bool rigid_contact_con_weighting, double angular_damping, bool enable_restitution,
                       bool rigid_contact_gauss_seidel, bool contact_warm_start, int contact_manifold_sweeps,
                       double contact_warm_start_scale, double contact_warm_start_friction_scale,
                       bool contact_linearised) {
             if (iterations < 1) bad("SolverXPBD: iterations must be >= 1, got " + std::to_string(iterations));
             positive("SolverXPBD", "rigid_contact_relaxation", "-", rigid_contact_relaxation);
             if (!(std::isfinite(angular_damping) && angular_damping >= 0))
               bad("SolverXPBD: angular_damping must be a finite number >= 0 [1/s], got " + num(angular_damping));
             auto s = std::make_unique<SolverXPBD>(model, iterations);
             s->rigid_contact_relaxation = real(rigid_contact_relaxation);
             s->rigid_contact_con_weighting = rigid_contact_con_weighting;
             s->angular_damping = real(angular_damping);
             s->enable_restitution = enable_restitution;
             if (contact_warm_start && !rigid_contact_gauss_seidel)
               bad("SolverXPBD: contact_warm_start needs rigid_contact_gauss_seidel (the Jacobi pass has no warm start)");
             s->rigid_contact_gauss_seidel = rigid_contact_gauss_seidel;
             s->contact_warm_start = contact_warm_start;
             if (contact_manifold_sweeps != 0 && !rigid_contact_gauss_seidel)
               bad("SolverXPBD: contact_manifold_sweeps needs rigid_contact_gauss_seidel (the Jacobi pass solves rows apart)");
             if (contact_manifold_sweeps < 0 || contact_manifold_sweeps > 64)
               bad("SolverXPBD: contact_manifold_sweeps must be a whole number in [0, 64], got " +
                   std::to_string(contact_manifold_sweeps));
             s->contact_manifold_sweeps = contact_manifold_sweeps;
             if (contact_linearised && !rigid_contact_gauss_seidel)
               bad("SolverXPBD: contact_linearised needs rigid_contact_gauss_seidel (the Jacobi pass applies rows apart)");
             s->contact_linearised = contact_linearised;
             for (auto [name, v] : {std::pair{"contact_warm_start_scale", contact_warm_start_scale},
                                    std::pair{"contact_warm_start_friction_scale", contact_warm_start_friction_scale}})
               if (!(v >= 0 && v <= 1)) bad(std::string("SolverXPBD: ") + name + " must be in [0, 1], got " + num(v));
             s->contact_warm_start_scale = real(contact_warm_start_scale);
             s->contact_warm_start_friction_scale = real(contact_warm_start_friction_scale);
             return s;
           }),
           py::arg("model"), py::arg("iterations") = 2, py::kw_only(), py::arg("rigid_contact_relaxation") = 0.8,
           py::arg("rigid_contact_con_weighting") = true, py::arg("angular_damping") = 0.0,
           py::arg("enable_restitution") = false, py::arg("rigid_contact_gauss_seidel") = false,
           py::arg("contact_warm_start") = false, py::arg("contact_manifold_sweeps") = 0,
           py::arg("contact_warm_start_scale") = 1.0, py::arg("contact_warm_start_friction_scale") = 1.0,
           py::arg("contact_linearised") = false, py::keep_alive<1, 2>(),
           "XPBD (E3 §4) with Newton 1.6.1's defaults; rigid_contact_gauss_seidel, contact_warm_start and "
           "contact_manifold_sweeps are impulse's extensions (contact rows by colour, impulses carried from the "
           "last step, a shape pair's rows solved together); the warm start's scales are the shares of the last "
           "step's normal and friction impulses carried over; contact_linearised solves the step's rows linearised "
           "once at its poses and moves the bodies once after the iterations.")
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
      .def_readwrite("enable_restitution", &SolverXPBD::enable_restitution)
      .def_readwrite("rigid_contact_gauss_seidel", &SolverXPBD::rigid_contact_gauss_seidel)
      .def_readwrite("contact_warm_start", &SolverXPBD::contact_warm_start)
      .def_readwrite("contact_manifold_sweeps", &SolverXPBD::contact_manifold_sweeps)
      .def_readwrite("contact_linearised", &SolverXPBD::contact_linearised)
      .def_readwrite("contact_warm_start_scale", &SolverXPBD::contact_warm_start_scale)
      .def_readwrite("contact_warm_start_friction_scale", &SolverXPBD::contact_warm_start_friction_scale);

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
