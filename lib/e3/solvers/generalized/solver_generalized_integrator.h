// The MuJoCo-semantics integrators on the generalized-coordinate dynamics (course E3 §6 integrator
// table), as passes over core primitives, one item per articulation (articulation_passes.h, shared
// with SolverFeatherstone), so the same source runs on the CPU and on a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/buffer.h"
#include "e1/model.h"
#include "e3/solvers/generalized/articulation_passes.h"

namespace impulse {

/// The four integrators of the MuJoCo adapter (course E3 §6).
enum class GeneralizedIntegrator { euler, rk4, implicit, implicitfast };

/// @formula E3.6-mujoco-integrator-default  Parses "euler", "rk4", "implicit", "implicitfast"; an
/// empty name gives implicitfast (the Newton adapter's default). Throws std::invalid_argument
/// naming an unknown integrator.
GeneralizedIntegrator parse_integrator(const std::string& name);
const char* integrator_name(GeneralizedIntegrator i);

/// Generalized-coordinate stepping with MuJoCo's integrator semantics on the Featherstone dynamics,
/// with per-DOF joint damping f = -B qd (B [N m s/rad or N s/m]). No contacts.
/// H and D are per articulation: every solve below is one small solve per articulation block
/// (velocity_implicit_solve), one kernel item per articulation.
///   euler:        r = tau - B qd; (H + h B) dv = h r; v first, then q with the new v
///   implicitfast: D = -B (the smooth velocity derivative; no RNE derivative); Cholesky
///   implicit:     D = -B + d(tau)/dqd (the RNE velocity derivative, by central differences); LU
///   rk4:          four forward evaluations, classic weights; q advanced with the weighted velocity
/// The model may live on any device; the solver's buffers live there too, sized at construction.
class SolverGeneralizedIntegrator {
 public:
  SolverGeneralizedIntegrator(const Model& model, const std::string& integrator = "",
                              std::vector<real> joint_damping = {}, std::vector<real> armature = {});
  GeneralizedIntegrator integrator() const { return integrator_; }
  /// Throws std::runtime_error naming the first articulation whose matrix is not symmetric positive
  /// definite (euler, implicitfast: H + h B; rk4: H at a stage), read back once per step before
  /// state_out is written.
  void step(const State& state_in, State& state_out, const Control& control, real dt);
  /// Forward dynamics qdd(q, qd) [rad/s^2 or m/s^2], including the damping force, with the body_f
  /// and joint_f of the last step (zero before the first). Host vectors in and out.
  std::vector<real> forward(const std::vector<real>& q, const std::vector<real>& qd);
  long forward_calls() const { return forward_calls_; }

  // The passes of step() (solver_generalized_integrator.cpp); public only because nvcc allows its
  // device lambdas in public member functions alone. Call step().
  void evaluate_forward(View<const real> q, View<const real> v, View<real> a);  // a = H^-1 (tau - B v)
  void velocity_implicit_update(const State& in, real h);      // A_.x = dv of (M - h D) dv = h r
  void central_difference_jacobian(const State& in);           // D += d(tau)/dqd (implicit)
  void rk4_combine(View<const real> qd, View<const real> a, real c, View<real> v);  // v = qd + c a
  void rk4_finish(const State& in, State& out, real h);        // weighted v and qd+, into out
  void write_velocity(const State& in, State& out, real h);    // qd+ = qd + dv, q+ from qd+

 private:
  const Model* model_;
  GeneralizedIntegrator integrator_;
  ArticulationArrays A_;
  Buffer<real> B_;                  // (dof) joint damping
  Buffer<real> D_;                  // per articulation as H: df/dqd [N s/m or N m s/rad]
  Buffer<int> piv_;                 // (dof) LU row exchanges
  Buffer<spatial_vector> body_f_;   // (body_count) the last step's body_f [N, N m]
  Buffer<real> joint_f_;            // (dof) the last step's joint_f [N or N m]
  Buffer<real> q_stage_;            // (coords) an rk4 stage position; forward()'s q
  Buffer<real> v_, a_;              // (4 dof) rk4 stage velocities (slot 0: the weighted one) and accelerations
  Buffer<real> qd_pert_;            // (dof) the perturbed velocity of a central difference
  Buffer<real> tau_pm_;             // (2 dof) tau at qd + e e_k and qd - e e_k
  Buffer<transform> X_pert_;        // (body_count) FK of the perturbed velocity
  Buffer<spatial_vector> V_pert_, a0_pert_;
  long forward_calls_ = 0;
};

}  // namespace impulse
