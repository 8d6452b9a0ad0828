// SolverPADMM: a Kamino-style maximal-coordinate rigid solver with hard contacts (course E3 §6).
//
// One step (Kamino's Euler integration): free velocities from the external wrenches and gravity,
// the contact Delassus problem solved by PADMM (padmm.h), velocities updated with the contact
// impulses (E3.1-discrete-dynamics), then poses advanced with the new velocities. Host code: the
// model must live on the CPU. The engine's Model has one world, so status() has one entry.
#pragma once

#include <map>
#include <tuple>
#include <vector>

#include "e1/model.h"
#include "e3/padmm.h"
#include "e3/penalty_contacts_view.h"

namespace impulse {

/// One contact row of the Delassus problem: bodies, contact frame and lever arms.
struct PADMMContactRow {
  int body0 = -1, body1 = -1;  // -1: static
  vec3 n, t1, t2;              // world contact frame, n from shape0 to shape1
  vec3 r0, r1;                 // [m] lever arms from each COM (world origin for a static side) to its point
  real d = 0;                  // [m] gap
  real mu = 0;                 // [-]
};

/// Per-body inverse mass data of the Delassus operator (zero for kinematic bodies).
struct PADMMBodyInverse {
  real inv_m = 0;    // [1/kg]
  mat33 inv_I_w{};   // [1/(kg m^2)] world
};

/// The Delassus operator W = J M^-1 J^T of a contact set (E3.1-delassus, course E3 §1) in the block
/// form PADMM assembles: W_ij = sum over bodies k shared by contacts i and j of
/// G_ik M_k^-1 G_jk^T, with G_ik = s [C, -C [r_ik]x] (s = +1 for body1, -1 for body0, C = [n; t1; t2]).
/// Units [1/kg] on the linear rows. Symmetric positive semidefinite.
Eigen::MatrixXd assemble_delassus(const std::vector<PADMMContactRow>& rows, const std::vector<PADMMBodyInverse>& bodies);

/// The 3 x 6 Jacobian block of contact row c for body k (zero when k is not one of its bodies),
/// acting on (v_C, omega) of that body.
Eigen::Matrix<double, 3, 6> contact_jacobian_block(const PADMMContactRow& c, int k);

class SolverPADMM {
 public:
  /// Throws std::invalid_argument for bad settings or a model not on the CPU.
  explicit SolverPADMM(const Model& model, const PADMMSettings& settings = {});

  void step(const State& state_in, State& state_out, const Control& control, const PenaltyContactsView* contacts,
            real dt);
  /// Kamino's update_contacts(contacts, state): writes contacts.force[i] = the last step's average
  /// contact wrench on body0 (f = -C^T p / h [N], tau = r0 x f [N m] about body0's COM, world).
  /// Throws std::invalid_argument when the force array was not requested or the record changed.
  void update_contacts(PenaltyContactsView& contacts, const State& state) const;
  /// Per-world status of the last step (one world).
  const std::vector<PADMMStatus>& status() const { return status_; }
  /// Contact rows of the last step.
  const std::vector<PADMMContactRow>& last_rows() const { return rows_; }
  /// Clears the warm-start history (the containers) and the status.
  void reset();

 private:
  const Model* model_;
  PADMMSettings settings_;
  std::vector<PADMMStatus> status_;
  std::vector<PADMMContactRow> rows_;
  std::vector<std::tuple<int, int, int>> keys_;
  Eigen::VectorXd x_;
  real last_dt_ = 0;
  std::map<std::tuple<int, int, int>, vec3> history_;  // (shape0, shape1, k-th record of the pair) -> impulse
};

}  // namespace impulse
