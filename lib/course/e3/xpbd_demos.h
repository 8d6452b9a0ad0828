// Small XPBD worlds shared by the tests, the scenes and the bench (the Box2D habit: one scene
// definition for all three). Each is a ModelBuilder; XpbdWorld runs the caller's loop of course
// E1 §7 with E3's collide step: collide -> step -> update_contacts -> swap.
#pragma once

#include <memory>
#include <utility>

#include "e1/model.h"
#include "course/e3/contact_fixture.h"
#include "e3/contacts/contacts.h"
#include "e3/observe/sensor_contact.h"
#include "e3/solvers/xpbd/solver_xpbd.h"

namespace impulse {

/// Plane z = 0 and one cube of half extent `half` [m] resting on it (bottom at z = gap [m]).
ModelBuilder demo_box_on_plane(real half = real(0.5), real gap = 0);
/// Plane and a 3-2-1 pyramid of cubes (half extent `half` [m]); the rows are offset by half a cube
/// plus a small clearance so that each cube of an upper row rests on two cubes of the row below.
/// Bodies 0-2: bottom row, 3-4: middle row, 5: top.
ModelBuilder demo_pyramid(real half = real(0.5));
/// Plane and one sphere of radius r [m] with its lowest point at height z [m].
ModelBuilder demo_sphere_drop(real r = real(0.1), real z = real(1));
/// Plane and n spheres of radius r [m] on a square grid, `layers` layers stacked with a small
/// clearance (a pile that settles), bottom layer just touching the plane.
ModelBuilder demo_sphere_pile(int n, real r = real(0.1), int layers = 2);
/// A wide platform (kinematic body when kinematic, else static world geometry) with two cubes
/// resting on it; cube bodies are the last two.
ModelBuilder demo_platform(bool kinematic, real half = real(0.5));

/// A Model, two States, a Control, a force-capable contact record and a SolverXPBD.
class XpbdWorld {
 public:
  XpbdWorld(const ModelBuilder& builder, int capacity, const FixtureOptions& fixture = {}, int iterations = 2,
            Device device = Device::cpu);
  std::unique_ptr<Model> model;
  ContactAttributes attributes;
  std::unique_ptr<State> state_0, state_1;
  Control control;
  std::unique_ptr<Contacts> contacts;
  std::unique_ptr<SolverXPBD> solver;
  FixtureOptions fixture;
  real t = 0;  // [s] the caller's clock

  /// collide(state_0) -> solver.step(state_0, state_1, h) -> update_contacts -> swap -> t += h.
  void step(real h);
  /// Sum over records of the linear force on body b: +f where b is body0, -f where it is body1 [N].
  vec3 contact_force_on(int b) const;
  /// The same sum restricted to the records where b is body1 (the support from below) [N].
  vec3 support_force_on(int b) const;
};

}  // namespace impulse
