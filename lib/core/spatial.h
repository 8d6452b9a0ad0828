// Spatial vectors, linear-first as in Newton's public arrays (course E1 §6):
//   twist  = (v, omega)   [m/s, rad/s], v referenced at the body COM, both in world;
//   wrench = (f, tau)     [N, N m],     tau about the body COM, both in world.
#pragma once

#include "core/math.h"

namespace impulse {

struct spatial_vector {
  vec3 lin;  // v [m/s] or f [N]
  vec3 ang;  // omega [rad/s] or tau [N m]
};

/// Six numbers in angular-first order (omega, v), the order of Warp's low-level helpers.
struct spatial_vector_angular_first {
  vec3 ang;
  vec3 lin;
};

/// @formula E1.6-linear-first  Reorder a Newton-style (linear, angular) vector into the
/// angular-first layout and back; the round trip is the identity (course E1 §6).
IMPULSE_HD inline spatial_vector_angular_first to_angular_first(const spatial_vector& s) {
  return {s.ang, s.lin};
}
IMPULSE_HD inline spatial_vector to_linear_first(const spatial_vector_angular_first& s) {
  return {s.lin, s.ang};
}

}  // namespace impulse
