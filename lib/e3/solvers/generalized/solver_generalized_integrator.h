// The MuJoCo-semantics integrators on the generalized-coordinate dynamics (course E3 §6 integrator
// table). Host code on Eigen: CPU models only.
#pragma once

#include <string>
#include <vector>

#include "core/eigen.h"
#include "e3/solvers/generalized/generalized_dynamics.h"

namespace impulse {

/// The four integrators of the MuJoCo adapter (course E3 §6).
enum class GeneralizedIntegrator { euler, rk4, implicit, implicitfast };

/// @formula E3.6-mujoco-integrator-default  Parses "euler", "rk4", "implicit", "implicitfast"; an
/// empty name gives implicitfast (the Newton adapter's default). Throws std::invalid_argument
/// naming an unknown integrator.
GeneralizedIntegrator parse_integrator(const std::string& name);
const char* integrator_name(GeneralizedIntegrator i);

/// @formula E3.6-velocity-implicit  Velocity-implicit update (course E3 §6):
///   (M - h D) dv = h r       M [kg], D = df/dv [kg/s], r [N], dv [m/s], h [s]
/// Symmetric (M - h D) may be factored by Cholesky (implicitfast), a general one needs LU (implicit).
/// The solver calls it once per articulation block; articulation >= 0 names that block in the
/// error a non-SPD symmetric matrix raises.
VectorXr velocity_implicit_step(const MatrixXr& M, const MatrixXr& D, const VectorXr& r,
                                       real h, bool symmetric, int articulation = -1);

/// Generalized-coordinate stepping with MuJoCo's integrator semantics on the Featherstone dynamics,
/// with per-DOF joint damping f = -B qd (B [N m s/rad or N s/m]). No contacts.
/// H and D are per articulation: every solve below is one small solve per articulation block.
///   euler:        r = tau - B qd; (H + h B) dv = h r; v first, then q with the new v
///   implicitfast: D = -B (the smooth velocity derivative; no RNE derivative); Cholesky
///   implicit:     D = -B + d(bias)/dqd (the RNE velocity derivative); LU
///   rk4:          four forward evaluations, classic weights; q advanced with the weighted velocity
class SolverGeneralizedIntegrator {
 public:
  SolverGeneralizedIntegrator(const Model& model, const std::string& integrator = "",
                              std::vector<real> joint_damping = {}, std::vector<real> armature = {});
  GeneralizedIntegrator integrator() const { return integrator_; }
  void step(const State& state_in, State& state_out, const Control& control, real dt);
  /// Forward dynamics qdd(q, qd) [rad/s^2 or m/s^2], including the damping force.
  VectorXr forward(const std::vector<real>& q, const VectorXr& qd);
  long forward_calls() const { return forward_calls_; }

 private:
  const Model* model_;
  GeneralizedDynamics dyn_;
  GeneralizedIntegrator integrator_;
  VectorXr B_;
  std::vector<spatial_vector> body_f_;
  std::vector<real> joint_f_;
  long forward_calls_ = 0;
};

}  // namespace impulse
