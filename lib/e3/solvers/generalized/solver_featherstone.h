// SolverFeatherstone (course E3 §6) and the MuJoCo-semantics integrators on the same
// generalized-coordinate dynamics (course E3 §6 integrator table). Host code: CPU models only.
#pragma once

#include <string>
#include <vector>

#include "e3/solvers/generalized/generalized_dynamics.h"
#include "e3/contacts/contacts_view.h"
#include "e3/solvers/shared/penalty_contact_kernels.h"

namespace impulse {

/// SolverFeatherstone.step, E3.6-featherstone (tagged on GeneralizedDynamics::mass_matrix) (course E3 §6):
///   FK(q, qd) -> body wrenches (body_f + penalty contacts) -> tau = J^T (...) + joint_f
///   H = J^T I J + armature (refreshed every update_mass_matrix_interval steps) -> Cholesky
///   qdd = H^-1 tau;  H, J and the Cholesky are per articulation (block-diagonal), never dense;  qd+ = qd + h qdd;  q+ = q + h N(q) qd+;  body_q/qd = FK(q+, qd+)
/// The matrix solve is not a contact iteration: contacts are the penalty law of eval_body_contact.
class SolverFeatherstone {
 public:
  /// update_mass_matrix_interval >= 1 (1: every step, Newton's default; larger reuses a cached
  /// factorization, an explicit approximation). Throws std::invalid_argument for a model it cannot
  /// handle (see GeneralizedDynamics), a kinematic-only world, or one not on the CPU.
  explicit SolverFeatherstone(const Model& model, int update_mass_matrix_interval = 1, real friction_smoothing = 1,
                              std::vector<real> armature = {});

  int update_mass_matrix_interval;
  real friction_smoothing;  // [m/s]

  void step(const State& state_in, State& state_out, const Control& control, const ContactsView* contacts,
            real dt);
  /// body_f + penalty contacts evaluated on the FK of state.joint_q/qd (world wrenches at each COM).
  void assemble_body_forces(const State& state, const ContactsView* contacts, View<spatial_vector> out);
  /// Always throws UpdateContactsNotImplemented (the contact kernel writes body forces only).
  void update_contacts(ContactsView& contacts) const;
  /// body_parent_f of the last step: the wrench each body received from its parent joint (world,
  /// at its COM) [N, N m]. Joint wrenches, kept apart from contact forces (there is no per-contact
  /// producer here).
  const std::vector<spatial_vector>& body_parent_f() const { return body_parent_f_; }
  /// How many times H was assembled and factored.
  long mass_matrix_updates() const { return mass_matrix_updates_; }

 private:
  const Model* model_;
  GeneralizedDynamics dyn_;
  BlockCholesky llt_;
  long steps_ = 0, mass_matrix_updates_ = 0;
  std::vector<spatial_vector> body_parent_f_;
  PenaltyContactScratch contact_scratch_;  // apply_penalty_contacts' arrays, kept between steps
  Buffer<transform> fk_q_;
  Buffer<spatial_vector> fk_qd_, wrench_;
};

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
