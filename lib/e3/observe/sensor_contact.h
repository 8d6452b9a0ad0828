// SensorContact: a consumer of Contacts.force (course E3 §8). It aggregates the LINEAR part only:
// for each sensing body, +f of the records where it is body0 and -f where it is body1, the world
// tangential (friction) part of the same sum, and the force-magnitude-weighted midpoint of its
// records. It is not a six-axis F/T sensor: it neither restores XPBD restitution impulses nor fixes
// a torque that lacks its lever-arm shift.
#pragma once

#include <vector>

#include "e1/model.h"
#include "e3/contacts/contacts.h"

namespace impulse {

class SensorContact {
 public:
  /// @formula E3.8-sensor-order  The constructor requests the "force" attribute, so a sensor made
  /// before the record gives a force-capable record and one made after it does not.
  /// sensing_bodies: body IDs in [0, body_count) (std::invalid_argument otherwise).
  SensorContact(const Model& model, ContactAttributes& attributes, std::vector<int> sensing_bodies);

  std::vector<int> sensing_bodies;
  std::vector<vec3> net_force;       // [N] per sensing body, world
  std::vector<vec3> friction_force;  // [N] tangential part w.r.t. each record's normal, world
  std::vector<vec3> position;        // [m] force-weighted midpoint of the body's records (0 when no force)

  /// @formula E3.8-sensor-aggregation  Reads contacts.force of the records [0, count):
  ///   F_b = sum_{body0 = b} f_c - sum_{body1 = b} f_c,  f_c = linear part of force[c]        [N]
  ///   T_b = same sum of f_c - (f_c . n_c) n_c                                                [N]
  ///   x_b = sum |f_c| mid_c / sum |f_c|,  mid_c = (X_0 (p0 + o0) + X_1 (p1 + o1)) / 2        [m]
  /// Throws std::runtime_error when the record has no force storage, std::invalid_argument when it
  /// belongs to another Model or has overflowed.
  void update(const ContactsView& contacts, const State& state);

 private:
  const Model* model_;
};

}  // namespace impulse
