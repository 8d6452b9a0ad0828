// The §6 summary table of course E3 as data, and one driver that steps any of the solvers built
// here on the same Model, State and contact record (used by the table test, the comparison scene
// and the e3-spheres bench). Nothing here ranks solvers: each reports what it can.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "e1/model.h"
#include "course/e3/penalty_contact_fixture.h"

namespace impulse {

enum class SolverKind { xpbd, semi_implicit, featherstone, padmm, vbd };

/// "xpbd", "semi_implicit", "featherstone", "padmm", "vbd"; throws std::invalid_argument naming
/// the bad name (MuJoCo is not part of this engine).
SolverKind parse_solver_kind(const std::string& name);
const char* solver_kind_name(SolverKind k);

/// @formula E3.6-summary-table  One row of the course's §6 summary table (course E3 §6).
struct SolverSummaryRow {
  std::string path;          // the course's row name
  std::string contact_core;  // contact model + integration core
  std::string stopping;      // stopping rule / caching
  std::string readback;      // how per-contact forces can be read
  std::string paradigm;      // E3.1-paradigms: penalty, position-level, regularised, hard dual
  bool built_here = false;   // implemented in this engine
  bool has_update_contacts = false;       // update_contacts writes contacts.force
  bool has_collect_rigid_forces = false;  // collect_rigid_contact_forces (force on body1)
};
const std::vector<SolverSummaryRow>& solver_summary_table();

/// Any of the five solvers behind one step call, each on the same ContactsView. contact_forces_on_body0 gives
/// forces on body0 (the Contacts.force convention) where the solver has a producer and throws where
/// it has none.
class AnySolver {
 public:
  AnySolver(SolverKind kind, Model& model);
  ~AnySolver();
  SolverKind kind() const { return kind_; }
  void step(const State& in, State& out, const Control& control, const ContactsView* contacts, real dt);
  /// Per-contact average force on body0 [N], world, after the last step (XPBD, PADMM:
  /// update_contacts; VBD: minus collect_rigid_contact_forces); throws UpdateContactsNotImplemented
  /// otherwise.
  std::vector<vec3> contact_forces_on_body0(ContactsView& contacts, const State& after, real dt);

 private:
  struct Impl;
  SolverKind kind_;
  std::unique_ptr<Impl> impl_;
};

/// One sample of a ground scene: time and the first body's COM position and velocity.
struct GroundSample {
  real t = 0;   // [s]
  vec3 x;       // [m]
  vec3 v;       // [m/s]
};

/// Where simulate_ground_scene takes its contact records from.
enum class GroundContactSource {
  fixture,   // the analytic ground fixture (penalty_contact_fixture.h), material written per record
  pipeline,  // CollisionPipeline + fill_contact_materials on the Model's own shape materials
};

/// simulate_ground_scene one step at a time (the book's live e3-solver-compare steps five of them
/// side by side): collide, then step, advancing state in place. model and state must outlive it;
/// the shape materials are checked as simulate_ground_scene says.
class GroundSceneStepper {
 public:
  GroundSceneStepper(SolverKind kind, Model& model, State& state, const PenaltyMaterial& material,
                     GroundContactSource source);
  ~GroundSceneStepper();
  void step(real h);
  /// The body's COM position and velocity now, at time t [s].
  GroundSample sample(real t) const;
  /// Whether contact_forces can read the last step back per record: pipeline contacts stepped by
  /// XPBD or PADMM (update_contacts writes Contacts.force); SemiImplicit and Featherstone have no
  /// readback, VBD's collect_rigid_contact_forces lists active contacts, not records (E3 §6 table).
  bool has_record_forces() const;
  /// One record of the last step's contacts: its two bodies (-1: static geometry) and the force on
  /// body0 [N], world.
  struct RecordForce {
    int body0 = -1, body1 = -1;
    vec3 f{};  // [N]
  };
  /// The readback of the last step of length dt [s]; std::logic_error unless has_record_forces().
  std::vector<RecordForce> contact_forces(real dt);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Steps `steps` times with h [s], regenerating the contact records from the current state before
/// each step (collide, then step), recording every `every` steps; on_step (optional) sees the state
/// after each step. With the pipeline every shape of the Model must carry `material` and no torsional
/// or rolling friction or restitution (contact_shape_config, solver_fixture_scenes.h; so every mix
/// gives the fixture's values back), else std::invalid_argument names the first shape that does not;
/// the record is filled for the solver's path (XPBD, VBD; the penalty path for SemiImplicit,
/// Featherstone and PADMM).
std::vector<GroundSample> simulate_ground_scene(SolverKind kind, Model& model, State& state,
                                                const PenaltyMaterial& material, real h, int steps, int every,
                                                const std::function<void(const State&)>& on_step = {},
                                                GroundContactSource source = GroundContactSource::fixture);

}  // namespace impulse
