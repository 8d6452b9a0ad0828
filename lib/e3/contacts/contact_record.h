// Per-row functions of the Contacts record (device-safe): the gap function, the writer's
// acceptance test and the row layout the writer produces.
#pragma once

#include "core/hd.h"
#include "core/math.h"

namespace impulse {

/// @formula E3.2-gap-function  d = n^T (p1 - p0) - (m0 + m1) (course E3 §2).
/// Signed effective surface gap of a contact (course E3 §2).
///   d = n^T (p1 - p0) - (m0 + m1)        [m]
/// p0, p1: world core points; m0, m1: effective thickness (radius + margin) of each side;
/// n: world unit normal from shape0 to shape1. d < 0 means the effective surfaces penetrate.
/// @param p0 [m] world core point of shape0
/// @param p1 [m] world core point of shape1
/// @param n [-] unit normal from shape0 to shape1
/// @param m0 [m] effective thickness of shape0
/// @param m1 [m] effective thickness of shape1
/// @return d [m] signed effective surface gap
IMPULSE_HD inline real contact_surface_separation(vec3 p0, vec3 p1, vec3 n, real m0, real m1) {
  return dot(n, p1 - p0) - (m0 + m1);
}

/// @formula E3.2-writer-accept  The detection writer keeps a candidate iff (course E3 §2)
///   d <= gap_sum,   gap_sum = gap0 + gap1 (+ the optional speculative widening)
/// inclusive; a kept record may be separated (d > 0).
IMPULSE_HD inline bool writer_accepts(real d, real gap_sum) { return d <= gap_sum; }

/// @formula E3.2-speculative-gap  Detection distance with the optional speculative widening
/// (course E3 §2):
///   gap_eff = gap0 + gap1 + min(speed * dt, cap)        [m]
/// speed [m/s]: an upper bound of the approach speed (here |v0| + |v1|, the bodies' COM speeds);
/// dt [s]: the collision-update interval; cap [m] >= 0 (0 disables the widening). Not continuous
/// collision detection: it only keeps candidates that may close within dt.
IMPULSE_HD inline real speculative_gap(real gap_sum, real speed, real dt, real cap) {
  const real w = speed * dt;
  return gap_sum + (w < cap ? w : cap);
}

/// @formula E3.2-margin  Effective thickness of one side of a record (course E3 §2):
///   thickness = r_core + margin        [m]
/// r_core is the sphere or capsule radius, 0 for other shapes. Margins of both sides add in the
/// gap function; the radius is part of the thickness and never subtracted a second time.
IMPULSE_HD inline real effective_thickness(real core_radius, real margin) { return core_radius + margin; }

}  // namespace impulse
