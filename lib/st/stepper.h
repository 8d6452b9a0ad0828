// The Stewart-Trinkle implicit time step with inelastic contact and polyhedral Coulomb friction
// (course ST §2-§3; paper §3). One step solves for v_{k+1} and the contact impulses together:
//
//   M (v+ - v) = h k + N p_n + D beta                                  (momentum, impulses in N s)
//   q+ = q + h v+                                                      (position, with the NEW v)
//   0 <= p_n    perp  phi + h N^T v+                >= 0               (position-level normal)
//   0 <= beta   perp  lambda e + D^T v+             >= 0               (friction opposes sliding)
//   0 <= lambda perp  mu p_n - E^T beta             >= 0               (sum beta <= mu p_n)
//
// The step follows the course's teaching flow (seed 004 L71-L80): candidate contacts near the
// predicted position, geometry and directions, LCP assembly, Lemke, a re-check of the new position
// with re-solving when a contact was missed, and the §3.6 re-linearisation at the new position.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "st/contact_system.h"
#include "st/lcp.h"

namespace impulse::st {

enum class NormalLevel {
  position,  // phi + h n^T v+ >= 0: the paper's condition
  velocity   // n^T v+ >= 0 only (for contacts in the set): the "velocity-only" variant of ST §6
};

struct StepOptions {
  double h = 0.01;                  // [s] step size
  int directions = 8;               // friction directions per spatial contact (>= 3)
  NormalLevel level = NormalLevel::position;
  int max_nonlinear_iterations = 10; // §3.6 re-linearisations after the first LCP (0: linearised only)
  double nonlinear_tol = 1e-9;      // [m] accepted true-gap error |phi(q+)| at impulsive contacts
  bool jacobians_at_iterate = false; // §3.6 variant: also move the impulse directions N, D to the
                                     // iterate (not the paper's form; it can add energy, see
                                     // ST_4_implicit_not_unconditionally_physical)
  int max_passes = 5;               // re-solves after adding missed contacts
  double gap_tol = 1e-12;           // [m] a predicted gap below this joins the contact set
  LcpOptions lcp;
};

/// Per-step result: the new state, the impulses and every residual (ST.3-alg-09-return).
struct StepResult {
  Eigen::VectorXd q, v;          // q_{k+1}, v_{k+1}
  Eigen::VectorXd p_n;           // (contact_count) normal impulses [N s]; 0 outside the set
  Eigen::VectorXd friction;      // (contact_count) sum_j beta_j per contact [N s]
  Eigen::VectorXd friction_gen;  // (dofs) generalized friction impulse D beta [N s, N m s]
  Eigen::VectorXd phi;           // (contact_count) true gaps phi(q_{k+1}) [m]
  std::vector<int> contact_set;  // contacts in the last LCP
  std::vector<int> initial_set;  // contacts in the first LCP (previous active + predicted)
  LcpStatus status = LcpStatus::solved;  // worst LCP status of the step
  int lcp_size = 0;              // size of the last LCP
  int lcp_max_size = 0;          // largest LCP of the step
  int lcp_solves = 0;            // LCPs solved (passes x re-linearisations)
  int pivots = 0;                // Lemke pivots, all LCPs of the step
  int passes = 1;                // contact-set passes (1 = no contact was missed)
  int nonlinear_iterations = 0;  // §3.6 re-linearisations used
  double lcp_complementarity = 0;  // largest relative complementarity residual of the step's LCPs
  double momentum_residual = 0;    // max |M(v+ - v) - h k - N p_n - D beta| [N s]
  double cone_residual = 0;        // max over contacts of max(0, sum beta - mu p_n) [N s]
  double gap_violation = 0;        // max over all contacts of max(0, -phi(q+)) [m]
};

/// @formula ST.3-initial-active-set  Initial contact set = previous active set U predicted violations.
///   A = { i : p_n,i > 0 at the previous step },  V = { i : phi_i(q) + h n_i^T v_free <= gap_tol },
///   v_free = v + h M^-1 k;  returns A U V sorted                                      [indices]
std::vector<int> initial_contact_set(const ContactSystem& sys, const Eigen::VectorXd& q,
                                     const Eigen::VectorXd& v_free, const std::vector<int>& previous_active,
                                     const StepOptions& opt);

/// The assembled contact LCP of one linearisation (ST.2-paper-p8-lcp).
struct ContactLcp {
  Eigen::MatrixXd A;  // (n x n) LCP matrix
  Eigen::VectorXd b;  // (n) LCP vector
  Eigen::MatrixXd N;  // (dofs x m) normals
  Eigen::MatrixXd D;  // (dofs x sum k_i) friction directions
  std::vector<int> dir_start;  // (m + 1) first column of each contact's directions in D
};

/// @formula ST.2-paper-p8-lcp ST.2-linearized-normal-complementarity  Eliminating v+ from the step
/// gives one LCP in (p_n, beta, lambda).
///   v+ = v_free + W (N p_n + D beta),  W = M^-1,  v_free = v + h W k
///   A = [[N'WN, N'WD, 0], [D'WN, D'WD, E], [U, -E', 0]],   U = diag(mu)
///   b = [N' v_free + c / h, D' v_free, 0]   (velocity level: b_n = N' v_free)
///   c_i = phi_i(q_lin) + n_i^T (q - q_lin): the true gap at q_lin carried back to q along the
///   normal n_i of the momentum balance (n_i at q, or at q_lin with jacobians_at_iterate)   [m]
/// Scope: m contacts with tangent bases of dimension 0, 1 or 2; unit-consistent with p in N s.
ContactLcp assemble_contact_lcp(const Eigen::MatrixXd& W, const Eigen::VectorXd& v_free,
                                const std::vector<ContactGeometry>& contacts, const Eigen::VectorXd& c,
                                double h, int directions, NormalLevel level);

/// @formula ST.2-momentum-update ST.2-position-update ST.2-normal-complementarity  One Stewart-Trinkle step (see the file comment).
///   M(q)(v+ - v) = h k(q, v) + N p_n + D beta;  q+ = q + h v+;  complementarity as above.
/// Scope: any ContactSystem; M and k evaluated at (q, v) (our choice: the course notes that its
///   subscripts are didactic, ST.2-notation-not-verbatim). Throws std::invalid_argument for
///   h <= 0 or non-finite, directions < 3, a negative mu, or q, v of the wrong size. An LCP that
///   Lemke does not solve is reported in StepResult::status, not thrown.
StepResult st_step(const ContactSystem& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   const std::vector<int>& previous_active, const StepOptions& opt);

/// Contacts with p_n > 0 after a step: the "previous active" set for the next step.
std::vector<int> active_contacts(const StepResult& r);

}  // namespace impulse::st
