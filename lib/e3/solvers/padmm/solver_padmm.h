// SolverPADMM: a Kamino-style maximal-coordinate rigid solver with hard contacts (course E3 §6).
//
// One step (Kamino's Euler integration): free velocities from the external wrenches and gravity,
// the Delassus problem of the joint rows (bilateral, maximal coordinates) and the contact rows
// solved together by PADMM (padmm.h), velocities updated with all impulses (E3.1-discrete-dynamics),
// then poses advanced with the new velocities. Joints: FREE (no rows), BALL, REVOLUTE, PRISMATIC,
// FIXED; a joint error C enters the row's free velocity as the Baumgarte bias joint_stabilization
// * C / h, as Kamino's dual problem does (kamino/_src/dynamics/dual.py, alpha). Host code: the
// model must live on the CPU. The engine's Model has one world, so status() has one entry.
#pragma once

#include <map>
#include <tuple>
#include <vector>

#include "e1/joints.h"
#include "e1/model.h"
#include "e3/solvers/padmm/padmm.h"
#include "e3/contacts/contacts_view.h"

namespace impulse {

/// One contact row of the Delassus problem: bodies, contact frame and lever arms.
struct PADMMContactRow {
  int body0 = -1, body1 = -1;  // -1: static
  vec3 n, t1, t2;              // world contact frame, n from shape0 to shape1
  vec3 r0, r1;                 // [m] lever arms from each COM (world origin for a static side) to its point
  real d = 0;                  // [m] gap
  real mu = 0;                 // [-]
};

/// One scalar bilateral (equality) row of a joint: after the step u = g0 V0 + g1 V1 + bias must be 0,
/// V = (v_C [m/s], omega [rad/s]) of each body, world. Its impulse has no bound.
struct PADMMJointRow {
  int joint = -1;              // joint ID
  int body0 = -1, body1 = -1;  // parent and child body, -1: the world
  Eigen::Matrix<real, 1, 6> g0 = Eigen::Matrix<real, 1, 6>::Zero();  // on body0: [-, m] linear row, [0, -] angular
  Eigen::Matrix<real, 1, 6> g1 = Eigen::Matrix<real, 1, 6>::Zero();  // on body1
  real c = 0;                  // [m] linear or [rad] angular position error of the row (0 when satisfied)
};

/// @formula E3.6-kamino-overview  Joint rows in Kamino's maximal coordinates (course E3 §6).
/// x_p = X_wp X_p, x_c = X_wc X_c: world joint frames on parent and child [m]; r_p = x_p - c_p,
/// r_c = x_c - c_c lever arms from the COMs c_p, c_c [m]; a = the joint axis (joint frame).
///   anchor (BALL, REVOLUTE, FIXED), e = world x, y, z:   C = e . (x_c - x_p),
///       g1 = [e, r_c x e],  g0 = -[e, r_p x e]
///   REVOLUTE axis lock, b1, b2 unit and perpendicular to a_p = R(x_p) a:   C = b . (a_p x a_c),
///       g1 = [0, b],  g0 = -[0, b]
///   FIXED, PRISMATIC rotation lock, e = world x, y, z:   C = e . rotvec(q(x_c) q(x_p)^-1),
///       g1 = [0, e],  g0 = -[0, e]
///   PRISMATIC sideways lock, b1, b2 perpendicular to a_p (turning with the parent):
///       C = b . (x_c - x_p),  g1 = [b, r_c x b],  g0 = -[b, (x_c - c_p) x b]
/// so that C' = g0 V0 + g1 V1 at C = 0. Counts: BALL 3, REVOLUTE 5, PRISMATIC 5, FIXED 6, FREE 0.
/// X_wp is the identity and c_p unused when body0 = -1. Throws std::invalid_argument for DISTANCE
/// and D6, naming the joint.
void append_joint_rows(int joint, JointType type, int body0, int body1, const transform& X_p_world,
                       const transform& X_c_world, vec3 c_p, vec3 c_c, const JointAxes& axes,
                       std::vector<PADMMJointRow>& out);

/// Per-body inverse mass data of the Delassus operator (zero for kinematic bodies).
struct PADMMBodyInverse {
  real inv_m = 0;    // [1/kg]
  mat33 inv_I_w{};   // [1/(kg m^2)] world
};

/// The Delassus operator W = J M^-1 J^T of a contact set (E3.1-delassus, course E3 §1) in the block
/// form PADMM assembles: W_ij = sum over bodies k shared by contacts i and j of
/// G_ik M_k^-1 G_jk^T, with G_ik = s [C, -C [r_ik]x] (s = +1 for body1, -1 for body0, C = [n; t1; t2]).
/// Units [1/kg] on the linear rows. Symmetric positive semidefinite.
MatrixXr assemble_delassus(const std::vector<PADMMContactRow>& rows, const std::vector<PADMMBodyInverse>& bodies);

/// The Delassus operator of joint rows (first, one row each) and contact rows (then, three each):
/// W = J M^-1 J^T = sum over bodies k of J_k M_k^-1 J_k^T, J_k the columns of body k. [1/kg] on
/// linear rows, [1/(kg m)] between linear and angular, [1/(kg m^2)] on angular rows.
MatrixXr assemble_delassus(const std::vector<PADMMJointRow>& joints, const std::vector<PADMMContactRow>& rows,
                                  const std::vector<PADMMBodyInverse>& bodies);

/// The 3 x 6 Jacobian block of contact row c for body k (zero when k is not one of its bodies),
/// acting on (v_C, omega) of that body.
Eigen::Matrix<real, 3, 6> contact_jacobian_block(const PADMMContactRow& c, int k);

class SolverPADMM {
 public:
  /// Throws std::invalid_argument for bad settings, a model not on the CPU, or a joint type other than
  /// FREE, BALL, REVOLUTE, PRISMATIC or FIXED (the message names the joint ID and type).
  explicit SolverPADMM(const Model& model, const PADMMSettings& settings = {});

  void step(const State& state_in, State& state_out, const Control& control, const ContactsView* contacts,
            real dt);
  /// Kamino's update_contacts(contacts, state): writes contacts.force[i] = the last step's average
  /// contact wrench on body0 (f = -C^T p / h [N], tau = r0 x f [N m] about body0's COM, world).
  /// Throws std::invalid_argument when the force array was not requested or the record changed.
  void update_contacts(ContactsView& contacts, const State& state) const;
  /// Per-world status of the last step (one world).
  const std::vector<PADMMStatus>& status() const { return status_; }
  /// Contact rows of the last step.
  const std::vector<PADMMContactRow>& last_rows() const { return rows_; }
  /// Joint rows of the last step (c evaluated on state_in).
  const std::vector<PADMMJointRow>& last_joint_rows() const { return joint_rows_; }
  /// Clears the warm-start history (the containers) and the status.
  void reset();

 private:
  // The stages of step(), in order, on one step's host copies (solver_padmm.cpp).
  struct StepData;
  void free_velocities(StepData& s, const State& in, const Control& control, real h) const;
  void build_joint_rows(StepData& s);
  void build_contact_rows(StepData& s, const ContactsView* contacts);
  void assemble_problem(StepData& s, real h);
  void solve_problem(StepData& s);
  void integrate(StepData& s, State& out, real h);

  /// Solves the step's problem island by island (connected components of bodies and rows); x_
  /// holds the warm start on entry and the impulses on exit. Returns the world's status.
  PADMMStatus solve_islands(const std::vector<PADMMBodyInverse>& inv, const VectorXr& b,
                            const std::vector<real>& mu);

  const Model* model_;
  PADMMSettings settings_;
  std::vector<PADMMStatus> status_;
  std::vector<PADMMContactRow> rows_;
  std::vector<PADMMJointRow> joint_rows_;
  std::vector<real> joint_history_;  // last step's joint-row impulses [N s or N m s], the joint warm start
  std::vector<std::tuple<int, int, int>> keys_;
  VectorXr x_;
  real last_dt_ = 0;
  std::map<std::tuple<int, int, int>, vec3> history_;  // (shape0, shape1, k-th record of the pair) -> impulse
};

}  // namespace impulse
