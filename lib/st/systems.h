// Small ContactSystems for the Stewart-Trinkle chapter: the course's vertical point (§2), a point
// on a plane (friction modes), a bead in a circular bowl (the curved gap of §2's dissipation
// remark), the paper's falling rod (§4, Figs. 2-4) and a four-ball pile (Table 1).
#pragma once

#include <Eigen/Dense>

#include "st/contact_system.h"

namespace impulse::st {

/// @formula ST.2-point-mass-model  The frictionless vertical point of the course (seed 004 L53).
///   q: height [m] (ground at 0, up positive); phi(q) = q; n = 1; k = -m g
///   one step: v+ = v - h g + p/m,  q+ = q + h v+,  0 <= q+ perp p >= 0
class VerticalPoint final : public ContactSystem {
 public:
  VerticalPoint(double m, double g);  // m [kg] > 0, g [m/s^2] >= 0
  int dofs() const override { return 1; }
  int contact_count() const override { return 1; }
  int tangent_dim() const override { return 0; }
  Eigen::MatrixXd mass(const Eigen::VectorXd& q) const override;
  Eigen::VectorXd force(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;
  ContactGeometry contact(int i, const Eigen::VectorXd& q) const override;
  double energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;

 private:
  double m_, g_;
};

/// A point mass in 3D above the plane through the origin with unit normal `normal` (an incline
/// when the normal is tilted); gravity along -z. q = position [m], v = velocity [m/s].
class PointOnPlane final : public ContactSystem {
 public:
  PointOnPlane(double m, double g, double mu, const Eigen::Vector3d& normal);
  int dofs() const override { return 3; }
  int contact_count() const override { return 1; }
  int tangent_dim() const override { return 2; }
  Eigen::MatrixXd mass(const Eigen::VectorXd& q) const override;
  Eigen::VectorXd force(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;
  ContactGeometry contact(int i, const Eigen::VectorXd& q) const override;
  double energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;
  Eigen::Vector3d t1, t2;  // [-] tangent basis of the plane

 private:
  double m_, g_, mu_;
  Eigen::Vector3d n_;
};

/// A frictionless bead of mass m on the inside of a circular bowl of radius R centred at the origin
/// of a vertical plane, gravity g along -y. q = position (x, y) [m], v = velocity [m/s].
///   phi(q) = R - |q|   (concave in q);   n(q) = -q / |q|   (points back to the centre);   k = (0, -m g)
/// Exact motion on the wall conserves E = m |v|^2 / 2 + m g y, so a run whose energy ever rises above
/// its start has climbed higher than the bead was able to.
class BeadInBowl final : public ContactSystem {
 public:
  BeadInBowl(double m, double radius, double g);  // m [kg] > 0, radius [m] > 0, g [m/s^2] >= 0
  int dofs() const override { return 2; }
  int contact_count() const override { return 1; }
  int tangent_dim() const override { return 0; }
  Eigen::MatrixXd mass(const Eigen::VectorXd& q) const override;
  Eigen::VectorXd force(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;
  ContactGeometry contact(int i, const Eigen::VectorXd& q) const override;  // throws at q = 0
  double energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;

 private:
  double m_, R_, g_;
};

/// The falling rod of the paper's §4: a planar rod of length `length` between two rounded ends of
/// radius `radius` on the table y = 0. q = (x, y, theta) of the centre [m, m, rad]; v = (vx, vy,
/// omega). Contact i in {0, 1} is the end at s = -1, +1 along the axis:
///   phi_i = y + s (L/2) sin(theta) - r;  n_i = (0, 1, s (L/2) cos theta);
///   t_i = (1, 0, -(s (L/2) sin theta - r))  (velocity of the lowest point of the end, along x)
class PlanarRod final : public ContactSystem {
 public:
  PlanarRod(double m, double inertia, double length, double radius, double mu, double g);
  int dofs() const override { return 3; }
  int contact_count() const override { return 2; }
  int tangent_dim() const override { return 1; }
  Eigen::MatrixXd mass(const Eigen::VectorXd& q) const override;
  Eigen::VectorXd force(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;
  /// @formula ST.1-gap-sign ST.2-symbol-definitions ST.2-linearized-gap  Gap phi_i(q) [m] (>= 0 apart),
  /// normal n_i and tangent t_i of end i at q (the formulas above).
  ContactGeometry contact(int i, const Eigen::VectorXd& q) const override;
  double energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;

 private:
  double m_, I_, L_, r_, mu_, g_;
};

/// Equal balls on the floor z = 0 (3D). q = (p_0, a_0, p_1, a_1, ...): centre position [m] and an
/// accumulated rotation vector [rad] per ball (a sphere's orientation never enters its contacts or
/// its inertia, so a = integral of omega dt is enough); v = (v_i, omega_i) per ball.
/// Contacts: ball-floor (one per ball) then ball-ball (one per pair i < j).
class Balls final : public ContactSystem {
 public:
  Balls(int count, double m, double radius, double mu_floor, double mu_ball, double g);
  int dofs() const override { return 6 * count_; }
  int contact_count() const override { return count_ + count_ * (count_ - 1) / 2; }
  int tangent_dim() const override { return 2; }
  Eigen::MatrixXd mass(const Eigen::VectorXd& q) const override;
  Eigen::VectorXd force(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;
  ContactGeometry contact(int i, const Eigen::VectorXd& q) const override;
  double energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;
  int count() const { return count_; }

 private:
  int count_;
  double m_, r_, mu_floor_, mu_ball_, g_;
};

}  // namespace impulse::st
