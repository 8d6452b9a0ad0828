// The course's hand-computable examples of ST §1-§3: the vertical point (seed 004 L53-L55), the
// 1 kg block (L86) and the unit relations between force, impulse and average force.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

namespace impulse::st {

/// The two branches of the vertical point's step, in closed form.
struct BounceStep {
  double free_prediction = 0;  // [m] q + h (v - h g): where the point goes without contact
  bool contact = false;        // true when the free prediction penetrates
  double v_plus = 0;           // [m/s] v_{k+1}
  double q_plus = 0;           // [m] q_{k+1}
  double p = 0;                // [N s] upward normal impulse
};

/// @formula ST.2-point-mass-branches  Closed form of 0 <= q+ perp p >= 0 for the vertical point.
///   free = q + h (v - h g);  free >= 0: p = 0, v+ = v - h g;  else q+ = 0: v+ = -q / h,
///   p = m (v+ - v + h g)                                                    [m, m/s, N s]
/// Scope: m > 0, h > 0, q >= -1e-12 m (the point starts on or above the ground; a height a
/// round-off below zero, as a stepper's own contact branch leaves it, counts as on the ground).
inline constexpr double bounce_ground_roundoff = 1e-12;  // [m]
inline BounceStep bounce_step(double m, double q, double v, double h, double g) {
  if (!(m > 0) || !(h > 0) || !(q >= -bounce_ground_roundoff) || !std::isfinite(q) || !std::isfinite(v) ||
      !std::isfinite(g))
    throw std::invalid_argument("bounce step: need m > 0, h > 0, q >= 0 (to 1e-12 m) and finite v, g");
  BounceStep s;
  s.free_prediction = q + h * (v - h * g);
  s.contact = s.free_prediction < 0;
  s.v_plus = s.contact ? -q / h : v - h * g;
  s.p = s.contact ? m * (s.v_plus - v + h * g) : 0.0;
  s.q_plus = q + h * s.v_plus;
  return s;
}

/// @formula ST.1-impulse-def  p = integral f dt (= f T for a constant force) (course ST §1).
/// Impulse of a constant force over a duration.
///   p = integral f dt = f T                                                    [N s]
/// @param f [N] constant force
/// @param T [s] duration
/// @return p [N s] impulse
inline double impulse_of_constant_force(double f, double T) {
  if (!(T >= 0)) throw std::invalid_argument("impulse: duration must be >= 0, got " + std::to_string(T));
  return f * T;
}

/// @formula ST.3-average-force  F_avg = p / h (course ST §3).
/// Average force of an impulse spread over one step.
///   F_avg = p / h                                                              [N]
/// @param p [N s] impulse
/// @param h [s] step
/// @return F_avg [N] average force
inline double average_force(double p, double h) {
  if (!(h > 0)) throw std::invalid_argument("average force: step must be positive, got " + std::to_string(h));
  return p / h;
}

}  // namespace impulse::st
