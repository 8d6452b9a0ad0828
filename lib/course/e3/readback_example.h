// The course's minimal contact readback example (E3 §9), as a function that runs it and returns
// what it observed together with the order in which it did things.
#pragma once

#include <string>
#include <vector>

#include "core/math.h"
#include "e3/contacts/contacts.h"

namespace impulse {

struct ReadbackExampleOptions {
  real radius = 0.1;          // sphere radius [m]
  real density = 1000;        // [kg/m^3]
  real mu = 0.5;              // explicit friction of both shapes [-]
  int rigid_contact_max = 8;  // explicit record capacity [rows]
  int iterations = 2;         // XPBD position iterations
  real dt = 1.0 / 600;        // [s]
};

/// What the example copied out after its single step (host copies, with units).
struct ReadbackObservation {
  std::vector<std::string> stages;  // request, create, collide, overflow-check, step, update, copy
  real t_s = 0;                     // source time of the observation: the end of the step [s]
  real dt_s = 0;                    // the step [s]
  real mass_kg = 0;                 // the sphere's mass [kg]
  int count = 0;                    // contact rows
  std::vector<spatial_vector> force;  // per row: (f [N], tau [N m]) of body1 on body0, at body0's COM
  vec3 sensor_net_force_N;          // SensorContact on the sphere: linear part only [N]
  ContactGeometrySnapshot geometry; // distances and world points of the collided (input) state
};

/// @formula E3.9-readback-example-contract  A primitive sphere resting on the ground (touching,
/// d = 0), explicit material and capacity, SolverXPBD with restitution off, SensorContact; the
/// order is request the force attribute -> create the record -> collide -> check overflow ->
/// step once -> update_contacts -> copy the observations (before any further collide).
ReadbackObservation run_readback_example(const ReadbackExampleOptions& o = {});

}  // namespace impulse
