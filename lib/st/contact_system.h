// The "system" the Stewart-Trinkle stepper works on: anything that provides a configuration-
// dependent mass matrix M(q), the smooth generalized force k(q, v), and for each potential contact
// its gap phi(q) with the contact Jacobians (course ST §1-§2). Planar and spatial systems alike.
//
// Generalized coordinates q and velocities v have the same dimension (dofs) and the position
// update is the paper's q_{k+1} = q_k + h v_{k+1} (ST.2-position-update); the systems here
// (point masses, a planar rod, balls whose orientation never enters the dynamics) satisfy that.
#pragma once

#include <Eigen/Dense>

namespace impulse::st {

/// One potential contact evaluated at a configuration q.
struct ContactGeometry {
  double phi = 0;           // [m] signed gap: > 0 separated, 0 touching, < 0 penetrating (ST.1-gap-sign)
  Eigen::VectorXd n;        // (dofs) generalized normal: normal relative velocity v_n = n^T v [m/s]
  Eigen::MatrixXd t;        // (dofs x tangent_dim) generalized tangent basis: v_t = t^T v [m/s]
  double mu = 0;            // [-] Coulomb friction coefficient
};

class ContactSystem {
 public:
  virtual ~ContactSystem() = default;
  virtual int dofs() const = 0;
  /// Number of potential contacts (all of them are checked every step: ST.3-detection-still-needed).
  virtual int contact_count() const = 0;
  /// Tangent-plane dimension of every contact: 0 frictionless, 1 planar, 2 spatial.
  virtual int tangent_dim() const = 0;
  /// @formula ST.1-state-notation  (dofs x dofs) symmetric positive definite mass matrix M(q)
  /// [kg, kg m^2] of the coordinates q and velocities v.
  virtual Eigen::MatrixXd mass(const Eigen::VectorXd& q) const = 0;
  /// (dofs) smooth generalized force k(q, v) (gravity, gyroscopic terms) [N, N m].
  virtual Eigen::VectorXd force(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const = 0;
  /// Geometry of contact i at q; n and t are the Jacobians at q.
  virtual ContactGeometry contact(int i, const Eigen::VectorXd& q) const = 0;
  /// Kinetic plus potential energy [J] (for the dissipation checks).
  virtual double energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const = 0;
};

}  // namespace impulse::st
