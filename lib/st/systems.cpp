#include "st/systems.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace impulse::st {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

void check_index(int i, int n, const char* who) {
  if (i < 0 || i >= n)
    throw std::invalid_argument(std::string(who) + ": contact index " + std::to_string(i) + " out of range [0, " +
                                std::to_string(n) + ")");
}

// A right-handed tangent basis (t1, t2) of the plane with unit normal n.
void tangent_basis(const Eigen::Vector3d& n, Eigen::Vector3d& t1, Eigen::Vector3d& t2) {
  const Eigen::Vector3d a = std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  t1 = (a - a.dot(n) * n).normalized();
  t2 = n.cross(t1);
}

}  // namespace

// --- VerticalPoint -------------------------------------------------------------------------------

VerticalPoint::VerticalPoint(double m, double g) : m_(m), g_(g) {
  require(m > 0 && std::isfinite(m), "vertical point: mass must be positive, got " + std::to_string(m));
  require(g >= 0 && std::isfinite(g), "vertical point: gravity must be >= 0, got " + std::to_string(g));
}
Eigen::MatrixXd VerticalPoint::mass(const Eigen::VectorXd&) const { return Eigen::MatrixXd::Constant(1, 1, m_); }
Eigen::VectorXd VerticalPoint::force(const Eigen::VectorXd&, const Eigen::VectorXd&) const {
  return Eigen::VectorXd::Constant(1, -m_ * g_);
}
ContactGeometry VerticalPoint::contact(int i, const Eigen::VectorXd& q) const {
  check_index(i, 1, "vertical point");
  ContactGeometry c;
  c.phi = q(0);
  c.n = Eigen::VectorXd::Ones(1);
  c.t = Eigen::MatrixXd(1, 0);
  return c;
}
double VerticalPoint::energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
  return 0.5 * m_ * v(0) * v(0) + m_ * g_ * q(0);
}

// --- BeadInBowl ----------------------------------------------------------------------------------

BeadInBowl::BeadInBowl(double m, double radius, double g) : m_(m), R_(radius), g_(g) {
  require(m > 0 && std::isfinite(m), "bead in bowl: mass must be positive, got " + std::to_string(m));
  require(radius > 0 && std::isfinite(radius), "bead in bowl: radius must be positive, got " + std::to_string(radius));
  require(g >= 0 && std::isfinite(g), "bead in bowl: gravity must be >= 0, got " + std::to_string(g));
}
Eigen::MatrixXd BeadInBowl::mass(const Eigen::VectorXd&) const { return m_ * Eigen::MatrixXd::Identity(2, 2); }
Eigen::VectorXd BeadInBowl::force(const Eigen::VectorXd&, const Eigen::VectorXd&) const {
  return Eigen::Vector2d(0, -m_ * g_);
}
ContactGeometry BeadInBowl::contact(int i, const Eigen::VectorXd& q) const {
  check_index(i, 1, "bead in bowl");
  const double r = q.norm();
  require(r > 0, "bead in bowl: the gap normal is undefined at the centre q = 0");
  ContactGeometry c;
  c.phi = R_ - r;
  c.n = -q / r;
  c.t = Eigen::MatrixXd(2, 0);
  return c;
}
double BeadInBowl::energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
  return 0.5 * m_ * v.squaredNorm() + m_ * g_ * q(1);
}

// --- PointOnPlane --------------------------------------------------------------------------------

PointOnPlane::PointOnPlane(double m, double g, double mu, const Eigen::Vector3d& normal) : m_(m), g_(g), mu_(mu) {
  require(m > 0 && std::isfinite(m), "point on plane: mass must be positive");
  require(mu >= 0 && std::isfinite(mu), "point on plane: friction coefficient must be >= 0, got " + std::to_string(mu));
  require(normal.norm() > 0, "point on plane: normal must be nonzero");
  n_ = normal.normalized();
  tangent_basis(n_, t1, t2);
}
Eigen::MatrixXd PointOnPlane::mass(const Eigen::VectorXd&) const { return m_ * Eigen::MatrixXd::Identity(3, 3); }
Eigen::VectorXd PointOnPlane::force(const Eigen::VectorXd&, const Eigen::VectorXd&) const {
  return Eigen::Vector3d(0, 0, -m_ * g_);
}
ContactGeometry PointOnPlane::contact(int i, const Eigen::VectorXd& q) const {
  check_index(i, 1, "point on plane");
  ContactGeometry c;
  c.phi = n_.dot(q.head<3>());
  c.n = n_;
  c.t.resize(3, 2);
  c.t.col(0) = t1;
  c.t.col(1) = t2;
  c.mu = mu_;
  return c;
}
double PointOnPlane::energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
  return 0.5 * m_ * v.squaredNorm() + m_ * g_ * q(2);
}

// --- PlanarRod -----------------------------------------------------------------------------------

PlanarRod::PlanarRod(double m, double inertia, double length, double radius, double mu, double g)
    : m_(m), I_(inertia), L_(length), r_(radius), mu_(mu), g_(g) {
  require(m > 0 && inertia > 0 && length > 0 && radius >= 0, "rod: mass, inertia and length must be positive");
  require(mu >= 0, "rod: friction coefficient must be >= 0, got " + std::to_string(mu));
}
Eigen::MatrixXd PlanarRod::mass(const Eigen::VectorXd&) const { return Eigen::Vector3d(m_, m_, I_).asDiagonal(); }
Eigen::VectorXd PlanarRod::force(const Eigen::VectorXd&, const Eigen::VectorXd&) const {
  return Eigen::Vector3d(0, -m_ * g_, 0);
}
ContactGeometry PlanarRod::contact(int i, const Eigen::VectorXd& q) const {
  check_index(i, 2, "rod");
  const double s = i == 0 ? -1.0 : 1.0, a = 0.5 * L_, th = q(2);
  ContactGeometry c;
  c.phi = q(1) + s * a * std::sin(th) - r_;
  c.n = Eigen::Vector3d(0, 1, s * a * std::cos(th));
  c.t = Eigen::Vector3d(1, 0, -(s * a * std::sin(th) - r_));
  c.mu = mu_;
  return c;
}
double PlanarRod::energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
  return 0.5 * m_ * (v(0) * v(0) + v(1) * v(1)) + 0.5 * I_ * v(2) * v(2) + m_ * g_ * q(1);
}

// --- Balls ---------------------------------------------------------------------------------------

Balls::Balls(int count, double m, double radius, double mu_floor, double mu_ball, double g)
    : count_(count), m_(m), r_(radius), mu_floor_(mu_floor), mu_ball_(mu_ball), g_(g) {
  require(count >= 1, "balls: need at least one ball");
  require(m > 0 && radius > 0, "balls: mass and radius must be positive");
  require(mu_floor >= 0 && mu_ball >= 0, "balls: friction coefficients must be >= 0");
}
Eigen::MatrixXd Balls::mass(const Eigen::VectorXd&) const {
  Eigen::VectorXd d(6 * count_);
  const double I = 0.4 * m_ * r_ * r_;
  for (int b = 0; b < count_; ++b) d.segment(6 * b, 6) << m_, m_, m_, I, I, I;
  return d.asDiagonal();
}
Eigen::VectorXd Balls::force(const Eigen::VectorXd&, const Eigen::VectorXd&) const {
  Eigen::VectorXd f = Eigen::VectorXd::Zero(6 * count_);
  for (int b = 0; b < count_; ++b) f(6 * b + 2) = -m_ * g_;
  return f;
}
ContactGeometry Balls::contact(int i, const Eigen::VectorXd& q) const {
  check_index(i, contact_count(), "balls");
  ContactGeometry c;
  c.n = Eigen::VectorXd::Zero(6 * count_);
  c.t = Eigen::MatrixXd::Zero(6 * count_, 2);
  Eigen::Vector3d nrm, t[2];
  if (i < count_) {
    // Ball-floor: contact point c - r z.
    nrm = Eigen::Vector3d::UnitZ();
    tangent_basis(nrm, t[0], t[1]);
    c.phi = q(6 * i + 2) - r_;
    c.n.segment<3>(6 * i) = nrm;
    for (int k = 0; k < 2; ++k) {
      c.t.col(k).segment<3>(6 * i) = t[k];
      c.t.col(k).segment<3>(6 * i + 3) = -r_ * nrm.cross(t[k]);
    }
    c.mu = mu_floor_;
    return c;
  }
  // Ball-ball pair (a, b), a < b, in lexicographic order; normal from a to b.
  int idx = i - count_, a = 0;
  while (idx >= count_ - 1 - a) idx -= count_ - 1 - a++;
  const int b = a + 1 + idx;
  const Eigen::Vector3d d = q.segment<3>(6 * b) - q.segment<3>(6 * a);
  const double dist = d.norm();
  nrm = dist > 0 ? Eigen::Vector3d(d / dist) : Eigen::Vector3d::UnitZ();
  tangent_basis(nrm, t[0], t[1]);
  c.phi = dist - 2 * r_;
  c.n.segment<3>(6 * a) = -nrm;
  c.n.segment<3>(6 * b) = nrm;
  for (int k = 0; k < 2; ++k) {
    const Eigen::Vector3d nxt = nrm.cross(t[k]);
    c.t.col(k).segment<3>(6 * a) = -t[k];
    c.t.col(k).segment<3>(6 * a + 3) = -r_ * nxt;
    c.t.col(k).segment<3>(6 * b) = t[k];
    c.t.col(k).segment<3>(6 * b + 3) = -r_ * nxt;
  }
  c.mu = mu_ball_;
  return c;
}
double Balls::energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
  const double I = 0.4 * m_ * r_ * r_;
  double e = 0;
  for (int b = 0; b < count_; ++b)
    e += 0.5 * m_ * v.segment<3>(6 * b).squaredNorm() + 0.5 * I * v.segment<3>(6 * b + 3).squaredNorm() +
         m_ * g_ * q(6 * b + 2);
  return e;
}

}  // namespace impulse::st
