// The polyhedral friction cone (course ST §2, seed 004 L49; paper p.7 Fig. 1).
#pragma once

#include <Eigen/Dense>

namespace impulse::st {

/// @formula ST.3-alg-03-discretize-cone  k friction directions spread evenly in the tangent plane.
///   d_j = cos(2 pi j / k) t1 + sin(2 pi j / k) t2,   j = 0..k-1            [generalized, per m/s]
/// Scope: t is the (dofs x 2) generalized tangent basis of one contact; k >= 3 so that the
///   directions positively span the tangent plane. A (dofs x 1) planar basis gives the exact
///   two-direction cone (t, -t) and ignores k. Throws std::invalid_argument for k < 3.
Eigen::MatrixXd friction_directions(const Eigen::MatrixXd& t, int k);

/// @formula ST.4-more-directions-less-error  Error of the inscribed k-gon against the circular cone.
///   Worst direction lies between two edges' vertices: the polygon reaches cos(pi / k) of the circle,
///   so the relative error of the largest friction impulse is 1 - cos(pi / k)          [-]
/// Scope: unit circle of radius mu p_n; k >= 3.
double polygon_cone_error(int k);

/// @formula ST.2-polyhedral-friction  Largest friction impulse the polygon allows in direction theta.
///   max |D beta| along (cos theta, sin theta) subject to beta >= 0, sum beta <= mu p_n
///   = mu p_n cos(pi/k) / cos(theta - theta_j - pi/k), theta_j the direction below theta      [N s]
/// Scope: directions d_j at angles 2 pi j / k, unit length; k >= 3; mu p_n >= 0.
double polygon_support(int k, double mu_pn, double theta);

}  // namespace impulse::st
