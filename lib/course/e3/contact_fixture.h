// A tiny analytic contact generator for the XPBD tests, scenes and bench (a test fixture, NOT the
// collision pipeline of E3 §2): it fills a Contacts record for the few primitive pairs the
// force-observation demonstrations need.
//
//   plane  - sphere   one record: the sphere centre against the plane
//   plane  - box      one record per box corner within the gap
//   box    - box      face contact of nearly aligned boxes: the corners of each facing face that lie
//                     inside the other face (enough for stacks and a 3-2-1 pyramid)
//   sphere - sphere   one record along the centre line (neighbours found with a uniform grid)
// Other pairs are ignored. Records follow the Contacts conventions (normal shape0 -> shape1,
// body-frame points, margin0/1 = sphere radius, zero for box corners). Every record gets the same
// combined material values. Runs on the host; the record is copied to the Model's device.
#pragma once

#include "e1/model.h"
#include "e3/contacts/contacts.h"

namespace impulse {

struct FixtureOptions {
  real gap = 0.01;           // [m] a pair within this gap gets a record (d <= gap)
  real mu = 0.5;             // [-] friction coefficient of every record
  real mu_torsional = 0;     // [m]
  real mu_rolling = 0;       // [m]
  real restitution = 0;      // [-]
};

/// Rebuilds the record from the poses in state: count = number of records found (it may exceed
/// rigid_contact_max; only the first rigid_contact_max are stored: an overflowed record). Returns
/// the count. Throws std::invalid_argument when the record was made for another Model.
int collide_fixture(const Model& model, const State& state, Contacts& contacts, const FixtureOptions& options = {});

}  // namespace impulse
