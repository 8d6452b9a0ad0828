// Launch site of the shared penalty contact kernel (course E3 §6): SolverSemiImplicit and
// SolverFeatherstone both add the contact wrenches to their body-force buffer through this one call.
#pragma once

#include "e1/model.h"
#include "e3/contacts/contacts_view.h"

namespace impulse {

/// Adds every active penalty contact's wrench (eval_body_contact) to wrench[b] (world, about the
/// COM) of the bodies involved, from the given poses/twists. Per-contact wrenches go to the scratch
/// arrays (rigid_contact_max each; entries past the count are left as they are), then each body sums
/// its contributions in contact order through a body-grouped index (bitwise deterministic,
/// O(bodies + contacts)). friction_smoothing [m/s] is the Huber delta. Throws std::invalid_argument
/// for a record made for another Model, an overflowed record (count > rigid_contact_max) or a shape
/// ID out of range.
void apply_penalty_contacts(const Model& model, View<const transform> body_q, View<const spatial_vector> body_qd,
                            const ContactsView& contacts, real friction_smoothing,
                            View<spatial_vector> scratch_A, View<spatial_vector> scratch_B, View<spatial_vector> wrench);

}  // namespace impulse
