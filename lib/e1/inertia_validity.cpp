#include "e1/inertia_validity.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace impulse {

namespace {

Eigen::Matrix3d to_eigen(const mat33& I) {
  Eigen::Matrix3d m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = double(I.m[i][j]);
  return m;
}

}  // namespace

std::string InertiaCheck::problem() const {
  std::ostringstream s;
  if (!finite) return "has a non-finite entry";
  if (!symmetric) return "is not symmetric";
  s.precision(9);
  if (!positive_definite) {
    s << "is not positive definite (principal moments " << principal.x << ", " << principal.y << ", " << principal.z
      << " kg m^2)";
    return s.str();
  }
  if (!triangle) {
    s << "violates the triangle inequality (principal moments " << principal.x << ", " << principal.y << ", "
      << principal.z << " kg m^2: " << principal.x << " + " << principal.y << " < " << principal.z << ")";
    return s.str();
  }
  return "";
}

InertiaCheck check_inertia(const mat33& I) {
  InertiaCheck c;
  double scale = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      if (!std::isfinite(double(I.m[i][j]))) c.finite = false;
      scale = std::max(scale, std::abs(double(I.m[i][j])));
    }
  if (!c.finite) {
    c.symmetric = c.positive_definite = c.triangle = false;
    return c;
  }
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (std::abs(double(I.m[i][j] - I.m[j][i])) > 1e-9 * scale) c.symmetric = false;
  if (!c.symmetric) {
    c.positive_definite = c.triangle = false;
    return c;
  }
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(to_eigen(I));
  Eigen::Vector3d e = es.eigenvalues();
  c.principal = {real(e(0)), real(e(1)), real(e(2))};
  c.positive_definite = e(0) > 0;
  c.triangle = e(0) + e(1) >= e(2) * (1 - 1e-9);
  return c;
}

mat33 balance_inertia(const mat33& I) {
  InertiaCheck c = check_inertia(I);
  if (!c.finite || !c.symmetric || c.principal.x < 0)
    throw std::invalid_argument("balance_inertia: inertia " + c.problem() + "; it can only rebalance principal moments");
  if (c.triangle) return I;
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(to_eigen(I));
  Eigen::Vector3d e = es.eigenvalues();
  double add = 0.5 * (e(2) - e(0) - e(1));
  e(0) += add;
  e(1) += add;
  Eigen::Matrix3d m = es.eigenvectors() * e.asDiagonal() * es.eigenvectors().transpose();
  mat33 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = real(0.5 * (m(i, j) + m(j, i)));
  return r;
}

mat33 bound_inertia_moments(const mat33& I, real min) {
  InertiaCheck c = check_inertia(I);
  if (!c.finite || !c.symmetric) throw std::invalid_argument("bound_inertia: inertia " + c.problem());
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(to_eigen(I));
  Eigen::Vector3d e = es.eigenvalues();
  if (e(0) >= double(min)) return I;
  for (int k = 0; k < 3; ++k) e(k) = std::max(e(k), double(min));
  Eigen::Matrix3d m = es.eigenvectors() * e.asDiagonal() * es.eigenvectors().transpose();
  mat33 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = real(0.5 * (m(i, j) + m(j, i)));
  return r;
}

}  // namespace impulse
