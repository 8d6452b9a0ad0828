// Bridges between the engine's small fixed-size types and Eigen (host code only). Every Eigen type
// here is in the engine's scalar `real` (core/hd.h: double, or float with IMPULSE_SINGLE_PRECISION),
// so host code that maps engine arrays (std::vector<real>) as Eigen vectors builds in both.
#pragma once

#include <Eigen/Dense>

#include "core/math.h"

namespace impulse {

using MatrixXr = Eigen::Matrix<real, Eigen::Dynamic, Eigen::Dynamic>;
using VectorXr = Eigen::Matrix<real, Eigen::Dynamic, 1>;
using Matrix3r = Eigen::Matrix<real, 3, 3>;
using Vector3r = Eigen::Matrix<real, 3, 1>;

inline Matrix3r to_eigen(const mat33& m) {
  Matrix3r e;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e(i, j) = m.m[i][j];
  return e;
}

inline Vector3r to_eigen(vec3 v) { return {v.x, v.y, v.z}; }

}  // namespace impulse
