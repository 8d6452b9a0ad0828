// TEST AND SCENE FIXTURE, not a collision pipeline: an analytic contact generator for spheres and
// boxes on static ground planes, and sphere-sphere pairs. It fills a Contacts record so that the
// solvers of course E3 §6 can be checked on contacts whose points are known in closed form (the
// collision pipeline fills the same record through collide and fill_contact_materials). Every row
// gets the fixture's material: ke, kd, kf, ka, mu, and zero torsional and rolling friction and
// restitution (what SolverXPBD reads). Host code: poses are read back, records are written and
// copied to the device.
#pragma once

#include <vector>

#include "e1/model.h"
#include "e3/solvers/shared/penalty_contact.h"
#include "e3/contacts/contacts.h"

namespace impulse {

class GroundContactFixture {
 public:
  /// capacity: rigid_contact_max; gap [m]: records are kept for d <= gap; material: written into
  /// every record; with_force: allocate the optional force array.
  GroundContactFixture(Device d, int capacity, real gap, const PenaltyMaterial& material, bool with_force = false);

  /// Regenerates the records from state.body_q: sphere/box shapes against every static plane
  /// (shape0 = the plane, shape1 = the body's shape; box: one record per corner), and sphere-sphere
  /// pairs of different bodies (shape0 = the lower shape ID). Throws std::runtime_error when more
  /// than capacity records are needed (never truncates). The record is then made for this Model.
  void generate(const Model& model, const State& state);

  int count() const { return count_; }
  ContactsView view() { return record_.view(); }
  /// Host copy of the optional force array (for tests).
  std::vector<spatial_vector> force_host() const { return record_.force.to_host(); }

 private:
  real gap_;
  PenaltyMaterial material_;
  int count_ = 0;
  Contacts record_;
};

}  // namespace impulse
