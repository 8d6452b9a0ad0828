// Launch site of the shared penalty contact kernel (course E3 §6): SolverSemiImplicit and
// SolverFeatherstone both add the contact wrenches to their body-force buffer through this one call.
#pragma once

#include "core/buffer.h"
#include "e1/model.h"
#include "e3/contacts/contacts_view.h"

namespace impulse {

/// What apply_penalty_contacts keeps between steps (its solver owns it): the per-contact wrenches
/// of the two sides, the body of each side and the body-grouped index of the sides; grown with the
/// record's capacity and the body count, so that a step allocates nothing.
struct PenaltyContactScratch {
  Buffer<spatial_vector> on_A, on_B;
  Buffer<int> sides;
  Buffer<std::int64_t> start, entry, fill;
};

/// Adds every active penalty contact's wrench (eval_body_contact) to wrench[b] (world, about the
/// COM) of the bodies involved, from the given poses/twists. Per-contact wrenches go to the scratch
/// arrays, then each body sums its contributions in contact order through a body-grouped index
/// built on the device (core/segments_device.h; bitwise deterministic, O(bodies + contacts)). friction_smoothing [m/s] is the Huber delta. Throws std::invalid_argument
/// for a record made for another Model, an overflowed record (count > rigid_contact_max) or a shape
/// ID out of range.
void apply_penalty_contacts(const Model& model, View<const transform> body_q, View<const spatial_vector> body_qd,
                            const ContactsView& contacts, real friction_smoothing, PenaltyContactScratch& scratch,
                            View<spatial_vector> wrench);

}  // namespace impulse
