// Bounded RapidCheck generators for physical quantities.
//
// RapidCheck's raw floating-point generator produces values up to 1e18 and non-finite corner cases;
// physics tests need bounded, well-scaled inputs, so every generator here draws integers and maps
// them onto a closed physical range.
#pragma once

#include <rapidcheck.h>

#include "core/math.h"

namespace impulse::gen {

/// Uniform-ish real in [lo, hi] on a grid of 2^20 steps.
inline rc::Gen<real> in_range(real lo, real hi) {
  return rc::gen::map(rc::gen::inRange<int>(0, (1 << 20) + 1),
                      [lo, hi](int k) { return lo + (hi - lo) * real(k) / real(1 << 20); });
}

/// Vector with components in [-r, r].
inline rc::Gen<vec3> vector(real r) {
  return rc::gen::apply([](real x, real y, real z) { return vec3{x, y, z}; }, in_range(-r, r), in_range(-r, r),
                        in_range(-r, r));
}

/// Unit vector (rejects the near-zero draws before normalising).
inline rc::Gen<vec3> unit_vector() {
  return rc::gen::map(rc::gen::suchThat(vector(1), [](vec3 v) { return length(v) > 0.1; }),
                      [](vec3 v) { return normalize(v); });
}

/// Unit quaternion (x, y, z, w) from a random axis and angle in [-pi, pi].
inline rc::Gen<quat> unit_quat() {
  return rc::gen::apply([](vec3 a, real t) { return quat_from_axis_angle(a, t); }, unit_vector(),
                        in_range(-3.14159265358979, 3.14159265358979));
}

inline rc::Gen<transform> rigid_transform(real r) {
  return rc::gen::apply([](vec3 p, quat q) { return transform{p, q}; }, vector(r), unit_quat());
}

}  // namespace impulse::gen
