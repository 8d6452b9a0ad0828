// The one view of the Contacts record that every solver takes (course E3 §2 record table, read as
// in §4-§8), with Newton's field names: SolverXPBD, SolverSemiImplicit, SolverFeatherstone,
// SolverVBD and SolverPADMM step on it, their update_contacts write its force column, and
// SensorContact reads it. Plain views (pointer + size), so a kernel captures it by value.
//
// Conventions: rigid_contact_point0/1 and offset0/1 are in the body frame of the shape's body (world
// when the body is -1); rigid_contact_normal is world, from shape0 to shape1; the gap of a record is
//   d = n . (X_1 point1 - X_0 point0) - (margin0 + margin1)        [m]  (negative: penetration),
// where rigid_contact_margin0/1 is the effective thickness radius + margin (the course's name).
// The material columns hold the two shapes' materials combined for one solver path (E3 §3), as
// fill_contact_materials (contact_materials.h) or a fixture wrote them.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/buffer.h"
#include "core/spatial.h"
#include "e3/contacts/contact_columns.h"

namespace impulse {

class Model;

/// Views of one rigid contact record. Sizes are rigid_contact_max unless noted.
struct ContactsView {
  const Model* model = nullptr;            // the Model the record was made for (SolverXPBD refuses a foreign record)
  Device device = Device::cpu;             // where the arrays live
  int rigid_contact_max = 0;               // capacity [rows]
  View<const int> rigid_contact_count;     // (1) records written; may exceed the capacity (overflow)
  // The record's columns (contact_columns.h), each rigid_contact_max rows.
#define IMPULSE_CONTACT_VIEW(type, name, unit, doc) View<const type> name;
  IMPULSE_CONTACT_COLUMNS(IMPULSE_CONTACT_VIEW)
#undef IMPULSE_CONTACT_VIEW
  /// The SolverPath (materials.h) that fill_contact_materials filled the material columns for; -1
  /// when no fill recorded one (a fixture writes columns that every path reads the same way).
  int material_path = -1;
  /// Optional (f [N], tau [N m]) of body1 on body0, world, tau about body0's COM; size 0 when not
  /// requested. Only a solver's update_contacts writes it; an allocated array is not a result by itself.
  View<spatial_vector> force;
  /// What the last collide found wrong (kCollideStatusSize ints, Contacts::collide_status); empty
  /// for a view of arrays no collide writes. Read at the step's one readback.
  View<const int> collide_status;
};

/// Contacts::collide_status: [0] the first body whose pose collide was given is not finite (-1:
/// none), [1] the candidate pairs its broad phase found (at most INT_MAX; more than [2] is an
/// overflow), [2] the broad phase's pair capacity (CollisionPipelineOptions::shape_pairs_max).
constexpr int kCollideStatusSize = 3;

/// Reads the record count of a view from its device (one int); may exceed rigid_contact_max.
int contact_count(const ContactsView& c);
/// The count of a complete record made for `model`, as a solver reads it: throws
/// std::invalid_argument naming `who` for a record made for another Model (a foreign record), and
/// naming the count and the capacity when not 0 <= count <= rigid_contact_max (the overflow policy
/// of E3.2-overflow-policy), so that no solver reads rows that were never written; and for a row
/// naming a shape outside the Model (check_contact_row_shapes, contact_row.h), and for a column
/// shorter than the count (check_contact_column_sizes).
int checked_contact_count(const ContactsView& c, const Model& model, const char* who);
/// Every column (contact_columns.h) must hold the n rows a reader reads (the count, or the capacity
/// for a reader that reads no count on the host): std::invalid_argument naming who, the column, its
/// size and n otherwise.
void check_contact_column_sizes(const ContactsView& c, int n, const char* who);

/// Thrown by update_contacts of a solver that has no per-contact force producer (course E3 §6
/// summary table): calling it is an error, never a silent array of zeros. Newton's base class
/// raises NotImplementedError in the same place.
struct UpdateContactsNotImplemented : std::logic_error {
  explicit UpdateContactsNotImplemented(const std::string& solver)
      : std::logic_error(solver + ".update_contacts: this solver has no per-contact force producer "
                                  "(course E3 §6); contacts.force is not written") {}
};

}  // namespace impulse
