#include "st/friction_cone.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace impulse::st {

Eigen::MatrixXd friction_directions(const Eigen::MatrixXd& t, int k) {
  if (k < 3) throw std::invalid_argument("friction directions: k must be >= 3, got " + std::to_string(k));
  if (t.cols() == 1) {
    Eigen::MatrixXd D(t.rows(), 2);
    D.col(0) = t.col(0);
    D.col(1) = -t.col(0);
    return D;
  }
  if (t.cols() != 2)
    throw std::invalid_argument("friction directions: tangent basis must have 1 or 2 columns, got " +
                                std::to_string(t.cols()));
  Eigen::MatrixXd D(t.rows(), k);
  for (int j = 0; j < k; ++j) {
    const double a = 2.0 * M_PI * j / k;
    D.col(j) = std::cos(a) * t.col(0) + std::sin(a) * t.col(1);
  }
  return D;
}

double polygon_cone_error(int k) {
  if (k < 3) throw std::invalid_argument("polygon cone error: k must be >= 3, got " + std::to_string(k));
  return 1.0 - std::cos(M_PI / k);
}

double polygon_support(int k, double mu_pn, double theta) {
  if (k < 3) throw std::invalid_argument("polygon support: k must be >= 3, got " + std::to_string(k));
  if (!(mu_pn >= 0)) throw std::invalid_argument("polygon support: mu p_n must be >= 0");
  const double step = 2.0 * M_PI / k;
  double rel = std::fmod(theta, step);
  if (rel < 0) rel += step;
  return mu_pn * std::cos(M_PI / k) / std::cos(rel - M_PI / k);
}

}  // namespace impulse::st
