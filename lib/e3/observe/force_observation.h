// Reading contact forces back: moving wrenches between points and averaging them over time
// (course E3 §8). Wrenches are world-frame (f, tau) with tau about a stated point.
#pragma once

#include "core/math.h"
#include "e1/spatial_shift.h"

namespace impulse {

/// @formula E3.8-wrench-reaction  The reaction of a contact wrench at the other body's COM.
///   f1     = -f0                                                            [N]
///   tau_C1 = -tau_C0 - (C0 - C1) x f0                                       [N m]
/// Transfer the point first (E3.8-wrench-transfer, wrench_torque_at_com), then negate; negating all
/// six numbers is wrong whenever C0 != C1 (E3.8-no-plain-negation). Assumes one shared point of
/// action for the pair, so the total wrench about any point is zero.
IMPULSE_HD inline vec3 wrench_reaction_torque(vec3 tau_C0, vec3 C0, vec3 C1, vec3 f0) {
  return -wrench_torque_at_com(tau_C0, C0, C1, f0);
}

/// @formula E3.8-time-average-force  Average force over substeps of unequal length.
///   fbar_k = p_k / h_k,   fbar_T = (sum_k h_k fbar_k) / T,   T = sum_k h_k        [N]
/// Equivalently (sum_k p_k) / T; the plain mean of the fbar_k is wrong when the h_k differ.
/// Inputs: per-substep average forces fbar_k [N] and durations h_k [s], n >= 1, all h_k > 0.
IMPULSE_HD inline vec3 time_average_force(const vec3* fbar, const real* h, int n) {
  vec3 acc{};
  real T = 0;
  for (int k = 0; k < n; ++k) {
    acc += h[k] * fbar[k];
    T += h[k];
  }
  return acc / T;
}

/// @formula E3.8-time-average-torque  Average torque about a fixed world point O.
///   taubar_O = (1/T) sum_k h_k [tau_C,k + (C_k - O) x f_k]                          [N m]
/// Each substep's COM torque is first moved to the fixed point O (the COM moves between substeps).
IMPULSE_HD inline vec3 time_average_torque(const vec3* tau_C, const vec3* C, const vec3* f, const real* h, int n, vec3 O) {
  vec3 acc{};
  real T = 0;
  for (int k = 0; k < n; ++k) {
    acc += h[k] * wrench_torque_at_com(tau_C[k], C[k], O, f[k]);
    T += h[k];
  }
  return acc / T;
}

}  // namespace impulse
