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

namespace impulse {

class Model;

/// Views of one rigid contact record. Sizes are rigid_contact_max unless noted.
struct ContactsView {
  const Model* model = nullptr;            // the Model the record was made for (SolverXPBD refuses a foreign record)
  Device device = Device::cpu;             // where the arrays live
  int rigid_contact_max = 0;               // capacity [rows]
  View<const int> rigid_contact_count;     // (1) records written; may exceed the capacity (overflow)
  View<const int> rigid_contact_shape0;    // shape ID of side 0 (body A); model.shape_body gives the body (-1 static)
  View<const int> rigid_contact_shape1;    // shape ID of side 1 (body B)
  View<const vec3> rigid_contact_point0;   // [m] core point on shape0, body frame of its body (world if static)
  View<const vec3> rigid_contact_point1;   // [m] core point on shape1, body frame of its body
  View<const vec3> rigid_contact_offset0;  // [m] point0 -> effective surface of shape0, body frame
  View<const vec3> rigid_contact_offset1;  // [m] point1 -> effective surface of shape1, body frame
  View<const vec3> rigid_contact_normal;   // [-] world unit normal, shape0 -> shape1
  View<const real> rigid_contact_margin0;  // [m] effective thickness, radius + margin, of shape0
  View<const real> rigid_contact_margin1;  // [m] effective thickness, radius + margin, of shape1
  // Per-row materials of the path the record was filled for (E3 §3).
  View<const real> rigid_contact_mu;            // [-] friction coefficient (every path)
  View<const real> rigid_contact_mu_torsional;  // [m] torsional friction (XPBD)
  View<const real> rigid_contact_mu_rolling;    // [m] rolling friction (XPBD)
  View<const real> rigid_contact_restitution;   // [-] restitution (XPBD)
  View<const real> rigid_contact_ke;            // [N/m] normal stiffness (penalty, VBD)
  View<const real> rigid_contact_kd;            // [N s/m] normal damping (penalty, VBD)
  View<const real> rigid_contact_kf;            // [N s/m] friction stiffness (penalty)
  View<const real> rigid_contact_ka;            // [m] adhesion distance (penalty)
  /// The SolverPath (materials.h) that fill_contact_materials filled the material columns for; -1
  /// when no fill recorded one (a fixture writes columns that every path reads the same way).
  int material_path = -1;
  /// Optional (f [N], tau [N m]) of body1 on body0, world, tau about body0's COM; size 0 when not
  /// requested. Only a solver's update_contacts writes it; an allocated array is not a result by itself.
  View<spatial_vector> force;
};

/// Reads the record count of a view from its device (one int); may exceed rigid_contact_max.
int contact_count(const ContactsView& c);
/// The count of a complete record made for `model`, as a solver reads it: throws
/// std::invalid_argument naming `who` for a record made for another Model (a foreign record), and
/// naming the count and the capacity when not 0 <= count <= rigid_contact_max (the overflow policy
/// of E3.2-overflow-policy), so that no solver reads rows that were never written; and for a row
/// naming a shape outside the Model (check_contact_row_shapes, contact_row.h).
int checked_contact_count(const ContactsView& c, const Model& model, const char* who);

/// Thrown by update_contacts of a solver that has no per-contact force producer (course E3 §6
/// summary table): calling it is an error, never a silent array of zeros. Newton's base class
/// raises NotImplementedError in the same place.
struct UpdateContactsNotImplemented : std::logic_error {
  explicit UpdateContactsNotImplemented(const std::string& solver)
      : std::logic_error(solver + ".update_contacts: this solver has no per-contact force producer "
                                  "(course E3 §6); contacts.force is not written") {}
};

}  // namespace impulse
