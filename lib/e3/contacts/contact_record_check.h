// The check of a contact record that a step reads, made on the device and brought back by the
// step's one readback: the record's count, its first row naming a shape outside the Model and what
// collide found wrong (Contacts::collide_status). SolverSemiImplicit and SolverFeatherstone read
// their record through it (apply_penalty_contacts); a solver with its own readback adds its values
// as extra slots, so that one copy brings both (SolverFeatherstone's factorization flag).
#pragma once

#include <cstdint>
#include <vector>

#include "core/buffer.h"
#include "e3/contacts/contacts_view.h"

namespace impulse {

/// Rows of a record a pass launches over, on the record's device: core/scan.h's launch_extent of its
/// count (the capacity on a GPU), and no more than its shortest column holds, so that a view with a
/// short column is read only within it (the readback then refuses it).
std::int64_t record_launch_extent(const ContactsView& c);

class ContactRecordCheck {
 public:
  /// Slots ahead of the extra ones: count, first bad row (-1: none), its shape outside the Model,
  /// then kCollideStatusSize of collide_status.
  static constexpr int kSlots = 3 + kCollideStatusSize;

  /// On the device (no copy): the slots for record c as a Model of shape_count shapes reads it,
  /// and `extra` more slots for the caller (zeroed). Grows its arrays with the record's capacity.
  void launch(const ContactsView& c, int shape_count, int extra = 0);
  /// The caller's slots on the device, to fill before read().
  View<int> extra_slots() { return {slots_.data() + kSlots, extra_}; }
  /// The one readback: one copy of every slot. Then throws, naming who, what check_collide_status
  /// throws; std::invalid_argument for an overflowed record (count outside [0, rigid_contact_max]),
  /// a column shorter than the count (check_contact_column_sizes) or a row naming a shape outside
  /// the Model (contact_row_shape_message). Returns the count.
  int read(const ContactsView& c, int shape_count, const char* who);
  /// Extra slot k as read().
  int extra(int k) const { return host_[std::size_t(kSlots + k)]; }
  /// The kSlots slots on the device, for a solver whose own readback carries them (SolverPADMM
  /// copies them into its step report on the device), then checked with check().
  View<const int> slots() const { return {slots_.data(), kSlots}; }
  /// read()'s checks and result on kSlots slots already on the host.
  static int check(const int* host_slots, const ContactsView& c, int shape_count, const char* who);

 private:
  Buffer<int> flags_;   // (rigid_contact_max) 1 where a row names a shape outside the Model
  Buffer<int> blocks_;  // first_flagged's scratch
  Buffer<int> slots_;   // kSlots + extra
  int extra_ = 0;
  std::vector<int> host_;
};

}  // namespace impulse
