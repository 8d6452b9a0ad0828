// The bridge from the E1 Model to the E3 collision pipeline and from its Contacts record to the
// solvers' contact views: Model -> CollisionModel -> CollisionPipeline::collide -> Contacts ->
// XpbdContactInput::view() -> SolverXPBD::step / update_contacts, or
// PenaltyContactInput::view() -> SolverSemiImplicit / SolverFeatherstone / SolverVBD::step.
#pragma once

#include "e3/collision/collision_model.h"
#include "e3/contacts/contacts.h"
#include "e3/contacts/contacts_view.h"
#include "e3/contacts/materials.h"
#include "e3/contacts/penalty_contacts_view.h"

namespace impulse {

class Model;

struct ModelCollisionOptions {
  real rigid_gap = 0.1;    // default shape gap [m] (Newton ModelBuilder.rigid_gap)
  real margin = 0;         // surface margin of every shape [m]
  ShapeMaterial material;  // material of every shape (Newton's ShapeConfig defaults)
  bool explicit_pairs = true;  // precompute the explicit broad phase's list: N^2/2 pair keys of 8 bytes
};

/// Builds the collision model of a Model, shape for shape (the same shape IDs): type, body,
/// body-relative transform and sizes; shapes without collision get collision group 0 so that they
/// keep their ID but never collide; every joint with a parent body filters its parent/child pair.
/// Throws std::invalid_argument naming the shape for what the pipeline cannot take (finite planes)
/// and for whatever CollisionSceneBuilder rejects.
CollisionModel collision_model_from(const Model& model, const ModelCollisionOptions& options = {});

/// The XPBD solver's view of a collision pipeline record: geometry columns are the record's own
/// arrays (thickness = the record's margin columns), the combined XPBD materials (E3.3, arithmetic
/// means) are computed per row by update() after every collide. The force column is the record's,
/// present when the record was made with request_force.
class XpbdContactInput {
 public:
  XpbdContactInput(const Model& model, const CollisionModel& collision, Contacts& contacts);
  /// Recomputes the per-row materials of rows [0, min(count, capacity)).
  void update();
  ContactsView view();

 private:
  const Model* model_;
  const CollisionModel* collision_;
  Contacts* contacts_;
  Buffer<real> mu_, mu_torsional_, mu_rolling_, restitution_;  // (rigid_contact_max) [-], [m], [m], [-]
};

/// The penalty solvers' view of a collision pipeline record (course E3 §3 material table, consumed
/// as in §6): geometry columns are the record's own arrays (thickness = the record's margin
/// columns); update() computes the per-row material after every collide, on the given path:
///   semi_implicit / featherstone: penalty_mix of the two shapes' materials with the record's
///     per-contact overrides (stiffness, damping, friction; 0 = unset)            (E3.3-penalty-mix)
///   vbd: vbd_mix (mu = sqrt(mu0 mu1), overrides ignored); kf = ka = 0 (VBD reads neither) (E3.3-vbd-mix)
/// The force column is the record's, present when the record was made with request_force.
class PenaltyContactInput {
 public:
  /// Throws std::invalid_argument for a path other than semi_implicit, featherstone or vbd, or a
  /// collision model whose shape count differs from the Model's.
  PenaltyContactInput(const Model& model, const CollisionModel& collision, Contacts& contacts,
                      SolverPath path = SolverPath::semi_implicit);
  /// Recomputes the per-row materials of rows [0, count); refuses an overflowed record
  /// (std::runtime_error, E3.2-overflow-policy) so that no solver reads rows that were never written.
  void update();
  PenaltyContactsView view();

 private:
  const CollisionModel* collision_;
  Contacts* contacts_;
  SolverPath path_;
  Buffer<real> ke_, kd_, kf_, ka_, mu_;  // (rigid_contact_max) [N/m], [N s/m], [N s/m], [m], [-]
};

}  // namespace impulse
