// Validity of a rigid body's inertia and the optional, explicit corrections (course E1 §3).
#pragma once

#include <string>

#include "core/math.h"

namespace impulse {

struct InertiaCheck {
  bool finite = true;
  bool symmetric = true;      // |I_ij - I_ji| <= 1e-9 max|I|
  bool positive_definite = true;
  bool triangle = true;       // every principal moment <= sum of the other two
  vec3 principal;             // eigenvalues, ascending [kg m^2]
  bool ok() const { return finite && symmetric && positive_definite && triangle; }
  /// "not symmetric", "not positive definite (principal moments a, b, c)", ...; empty when ok().
  std::string problem() const;
};

/// @formula E1.3-inertia-validity  A physical, non-degenerate rigid body has a symmetric positive
/// definite inertia whose principal moments satisfy I1 + I2 >= I3 for every ordering (course E1 §3).
/// Tolerance: the triangle inequality is checked to 1e-9 relative to the largest moment.
InertiaCheck check_inertia(const mat33& I);

/// The builder's balance_inertia correction: when the principal moments violate the triangle
/// inequality, raise the smaller two equally until I1 + I2 = I3 (the principal axes are kept).
/// Returns I unchanged when it already satisfies it. Throws std::invalid_argument when I is not
/// symmetric positive semi-definite (such an input is rejected, never repaired).
mat33 balance_inertia(const mat33& I);

/// The builder's bound_inertia correction: principal moments below min are raised to min (the
/// principal axes are kept). Throws std::invalid_argument when I is not symmetric and finite.
mat33 bound_inertia_moments(const mat33& I, real min);

}  // namespace impulse
