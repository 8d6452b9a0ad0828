// TEST AND SCENE FIXTURE, not a collision pipeline: an analytic contact generator for spheres and
// boxes on static ground planes, and sphere-sphere pairs. It fills a Contacts-like record with
// Newton's field conventions so that the solvers of course E3 §6 can be checked on contacts whose
// points are known in closed form (the collision pipeline reaches the same solvers through
// PenaltyContactInput, model_collision.h). Host code: poses are read back, records are written and
// copied to the device.
#pragma once

#include <vector>

#include "e1/model.h"
#include "e3/solvers/shared/penalty_contact.h"
#include "e3/contacts/penalty_contacts_view.h"

namespace impulse {

class GroundContactFixture {
 public:
  /// capacity: rigid_contact_max; gap [m]: records are kept for d <= gap; material: written into
  /// every record; with_force: allocate the optional force array.
  GroundContactFixture(Device d, int capacity, real gap, const PenaltyMaterial& material, bool with_force = false);

  /// Regenerates the records from state.body_q: sphere/box shapes against every static plane
  /// (shape0 = the plane, shape1 = the body's shape; box: one record per corner), and sphere-sphere
  /// pairs of different bodies (shape0 = the lower shape ID). Throws std::runtime_error when more
  /// than capacity records are needed (never truncates).
  void generate(const Model& model, const State& state);

  int count() const { return count_; }
  PenaltyContactsView view();
  /// Host copy of the optional force array (for tests).
  std::vector<spatial_vector> force_host() const { return force_.to_host(); }

 private:
  Device dev_;
  int capacity_;
  real gap_;
  PenaltyMaterial material_;
  int count_ = 0;
  Buffer<int> count_buf_, shape0_, shape1_;
  Buffer<vec3> point0_, point1_, normal_, offset0_, offset1_;
  Buffer<real> thickness0_, thickness1_, ke_, kd_, kf_, ka_, mu_;
  Buffer<spatial_vector> force_;
};

}  // namespace impulse
