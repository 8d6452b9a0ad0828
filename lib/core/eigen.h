// Bridges between the engine's small fixed-size types and Eigen (host code only).
#pragma once

#include <Eigen/Dense>

#include "core/math.h"

namespace impulse {

inline Eigen::Matrix3d to_eigen(const mat33& m) {
  Eigen::Matrix3d e;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e(i, j) = m.m[i][j];
  return e;
}

inline Eigen::Vector3d to_eigen(vec3 v) { return {v.x, v.y, v.z}; }

}  // namespace impulse
