// Tolerance helpers: componentwise closeness of vectors and quaternions, in gtest and RapidCheck.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/math.h"

namespace impulse::tol {

inline bool near(real a, real b, real abs_tol) { return std::abs(a - b) <= abs_tol; }
inline bool near(vec3 a, vec3 b, real abs_tol) {
  return near(a.x, b.x, abs_tol) && near(a.y, b.y, abs_tol) && near(a.z, b.z, abs_tol);
}
inline bool near(quat a, quat b, real abs_tol) {
  return near(a.x, b.x, abs_tol) && near(a.y, b.y, abs_tol) && near(a.z, b.z, abs_tol) && near(a.w, b.w, abs_tol);
}
/// Same rotation: q1 == q2 or q1 == -q2.
inline bool same_rotation(quat a, quat b, real abs_tol) { return near(a, b, abs_tol) || near(a, quat_negate(b), abs_tol); }

}  // namespace impulse::tol

#define EXPECT_VEC3_NEAR(a, b, t)                                                     \
  do {                                                                                \
    ::impulse::vec3 _a = (a), _b = (b);                                               \
    EXPECT_NEAR(_a.x, _b.x, t);                                                       \
    EXPECT_NEAR(_a.y, _b.y, t);                                                       \
    EXPECT_NEAR(_a.z, _b.z, t);                                                       \
  } while (0)
