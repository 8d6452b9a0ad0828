// Launch site of the shared penalty contact kernel (course E3 §6): SolverSemiImplicit and
// SolverFeatherstone both add the contact wrenches to their body-force buffer through this one call.
#pragma once

#include "core/buffer.h"
#include "e1/model.h"
#include "e3/contacts/contact_record_check.h"
#include "e3/contacts/contacts_view.h"

namespace impulse {

/// What apply_penalty_contacts keeps between steps (its solver owns it): the per-contact wrenches
/// of the two sides, the body of each side and the body-grouped index of the sides, and the
/// record's check for the step's readback; grown with the record's capacity and the body count, so
/// that a step allocates nothing.
struct PenaltyContactScratch {
  Buffer<spatial_vector> on_A, on_B;
  Buffer<int> sides;
  Buffer<std::int64_t> start, entry, fill;
  ContactRecordCheck record;
};

/// Adds every active penalty contact's wrench (eval_body_contact) to wrench[b] (world, about the
/// COM) of the bodies involved, from the given poses/twists. Per-contact wrenches go to the scratch
/// arrays, then each body sums its contributions in contact order through a body-grouped index
/// built on the device (core/segments_device.h; bitwise deterministic, O(bodies + contacts)). friction_smoothing [m/s] is the Huber delta.
/// Copies nothing to the host: rows launch over the record's extent and read its count on the device;
/// the record's check goes to scratch.record (launched, extra: its extra slots), which the caller
/// reads at its step's one readback (read_penalty_contacts_check), where an overflowed record, a
/// row naming a shape outside the Model or a refused collide throws; such rows add nothing here.
/// Throws std::invalid_argument for a record made for another Model.
void apply_penalty_contacts(const Model& model, View<const transform> body_q, View<const spatial_vector> body_qd,
                            const ContactsView& contacts, real friction_smoothing, PenaltyContactScratch& scratch,
                            View<spatial_vector> wrench, int extra = 0);

/// The readback of apply_penalty_contacts' record check (ContactRecordCheck::read, who
/// "apply_penalty_contacts"): throws for a bad record; returns its count.
int read_penalty_contacts_check(const Model& model, const ContactsView& contacts, PenaltyContactScratch& scratch);

}  // namespace impulse
