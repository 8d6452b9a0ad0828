// The contact input of the non-XPBD solvers: a read-only view of a Contacts record, field for field
// with Newton's names (course E3 §2 record table, consumed as in §6).
//
// Two producers fill it: PenaltyContactInput (lib/e3/collision/model_collision.h) turns the collision
// pipeline's Contacts record plus the shapes' materials into this view, and the analytic ground
// fixture (penalty_contact_fixture.h) writes it directly for tests with closed-form contacts.
// Conventions: rigid_contact_normal is a world unit vector from shape0 to shape1; point0/point1 are
// in their body's frame (world when the shape is static, body -1); the gap of a record is
//   d = n . (X_1 p1 - X_0 p0) - (thickness0 + thickness1)      [m], d < 0 penetrating.
#pragma once

#include <stdexcept>
#include <string>

#include "core/buffer.h"
#include "core/spatial.h"

namespace impulse {

struct PenaltyContactsView {
  View<const int> rigid_contact_count;      // (1) number of valid records (not the capacity)
  View<const int> rigid_contact_shape0;     // (rigid_contact_max) shape IDs; model.shape_body gives the body (-1 static)
  View<const int> rigid_contact_shape1;
  View<const vec3> rigid_contact_point0;    // [m] body frame of shape0's body (world when static)
  View<const vec3> rigid_contact_point1;    // [m] body frame of shape1's body
  View<const vec3> rigid_contact_normal;    // [-] world, unit, shape0 -> shape1
  View<const vec3> rigid_contact_offset0;   // [m] body-frame surface offset of side 0 (thickness0 along the normal)
  View<const vec3> rigid_contact_offset1;   // [m] body-frame surface offset of side 1
  View<const real> rigid_contact_thickness0;// [m] effective radius + margin of side 0
  View<const real> rigid_contact_thickness1;// [m]
  View<const real> rigid_contact_ke;        // [N/m] per-contact stiffness (the combined material)
  View<const real> rigid_contact_kd;        // [N s/m] damping
  View<const real> rigid_contact_kf;        // [N s/m] friction stiffness
  View<const real> rigid_contact_ka;        // [m] adhesion distance
  View<const real> rigid_contact_mu;        // [-] friction coefficient
  /// Optional (f [N], tau [N m]) on body0 about its COM, world; size 0 when not requested. Only a
  /// solver's update_contacts writes it; an allocated array is not a result by itself.
  View<spatial_vector> force;

  std::int64_t rigid_contact_max() const { return rigid_contact_shape0.size; }
};

/// Thrown by update_contacts of a solver that has no per-contact force producer (course E3 §6
/// summary table): calling it is an error, never a silent array of zeros. Newton's base class
/// raises NotImplementedError in the same place.
struct UpdateContactsNotImplemented : std::logic_error {
  explicit UpdateContactsNotImplemented(const std::string& solver)
      : std::logic_error(solver + ".update_contacts: this solver has no per-contact force producer "
                                  "(course E3 §6); contacts.force is not written") {}
};

}  // namespace impulse
