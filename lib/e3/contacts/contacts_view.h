// The rigid contact record as the XPBD solver reads it (ContactsView) (course E3 §2, §4, §8), with Newton's field
// names.
//
// ContactsView is what SolverXPBD::step and update_contacts take: plain views of a record made by
// a collision pipeline for one Model. RigidContacts is a small owning record with the same fields,
// used by the tests, the scenes and the analytic fixture (lib/course/e3/contact_fixture.h); the collision
// pipeline's Contacts (E3 §1-§3) is adapted to ContactsView at merge time.
//
// Conventions: rigid_contact_point0/1 and offset0/1 are in the body frame of the shape's body (world
// when the body is -1); rigid_contact_normal is world, from shape0 to shape1; the gap of a record is
//   d = n . (X_1 point1 - X_0 point0) - (thickness0 + thickness1)        [m]  (negative: penetration).
// Per-contact materials are the combined values of the two shapes as E3 §3 gives them for XPBD.
#pragma once

#include <cstdint>
#include <string>

#include "core/buffer.h"
#include "core/spatial.h"

namespace impulse {

class Model;

/// Which optional per-contact attributes a record allocates. Stands in for the request table that
/// Newton keeps on the Model (model.request_contact_attributes("force")): a record reads it when it
/// is constructed, so a request made afterwards does not reach an existing record.
struct ContactAttributes {
  bool force = false;
};

/// @formula E3.8-xpbd-force-lifecycle  Request an optional contact attribute before the record is made.
/// Only "force" exists; any other name throws std::invalid_argument naming it.
void request_contact_attributes(ContactAttributes& attributes, const std::string& name);

/// Views of one rigid contact record. Sizes are rigid_contact_max unless noted.
struct ContactsView {
  const Model* model = nullptr;            // the Model the record was made for (a foreign record is refused)
  int rigid_contact_max = 0;               // capacity
  View<const int> rigid_contact_count;     // (1) records written; may exceed the capacity (overflow)
  View<const int> rigid_contact_shape0;    // shape ID of side 0 (body A)
  View<const int> rigid_contact_shape1;    // shape ID of side 1 (body B)
  View<const vec3> rigid_contact_point0;   // [m] support point on shape0, body frame of its body
  View<const vec3> rigid_contact_point1;   // [m] support point on shape1, body frame of its body
  View<const vec3> rigid_contact_offset0;  // [m] point0 -> surface point of shape0, body frame
  View<const vec3> rigid_contact_offset1;  // [m] point1 -> surface point of shape1, body frame
  View<const vec3> rigid_contact_normal;   // [-] world unit normal, shape0 -> shape1
  View<const real> rigid_contact_thickness0;  // [m] radius + margin of shape0 at the point
  View<const real> rigid_contact_thickness1;  // [m] radius + margin of shape1 at the point
  View<const real> rigid_contact_mu;           // [-] combined friction coefficient
  View<const real> rigid_contact_mu_torsional; // [m] combined torsional friction
  View<const real> rigid_contact_mu_rolling;   // [m] combined rolling friction
  View<const real> rigid_contact_restitution;  // [-] combined restitution
  View<spatial_vector> force;  // (rigid_contact_max, or 0 when not requested) (f [N], tau [N m]) of body1 on
                               // body0, world, tau about body0's COM
};

/// An owning record with the ContactsView fields, allocated on the Model's device.
class RigidContacts {
 public:
  /// capacity >= 1; force storage exists only when attributes.force was requested before this call.
  RigidContacts(const Model& model, int capacity, const ContactAttributes& attributes);

  const Model* model;
  int rigid_contact_max;
  Buffer<int> rigid_contact_count;  // (1)
  Buffer<int> rigid_contact_shape0, rigid_contact_shape1;
  Buffer<vec3> rigid_contact_point0, rigid_contact_point1;    // [m] body frame
  Buffer<vec3> rigid_contact_offset0, rigid_contact_offset1;  // [m] body frame
  Buffer<vec3> rigid_contact_normal;                          // [-] world, shape0 -> shape1
  Buffer<real> rigid_contact_thickness0, rigid_contact_thickness1;  // [m]
  Buffer<real> rigid_contact_mu, rigid_contact_mu_torsional, rigid_contact_mu_rolling;  // [-], [m], [m]
  Buffer<real> rigid_contact_restitution;                     // [-]
  Buffer<spatial_vector> force;                               // [N, N m] (empty unless requested)

  ContactsView view();
  /// Number of records written (reads the device counter).
  int count() const;
};

/// Reads the record count of a view from its device (one int).
int contact_count(const ContactsView& c);

}  // namespace impulse
