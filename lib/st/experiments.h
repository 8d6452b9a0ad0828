// The paper's experiments rebuilt (course ST §4): the falling rod (Figs. 2-4), a four-ball pile of
// our design (Table 1's setup is not known; seed 004 L116-L120), the step-size convergence table
// and the friction-cone study. Parameters are ours unless a comment says otherwise.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "st/stepper.h"
#include "st/systems.h"

namespace impulse::st {

/// Summary of one step of a simulation.
struct StepSummary {
  double t = 0;               // [s] time at the end of the step
  int contacts = 0;           // contacts in the final LCP
  int lcp_size = 0;           // largest LCP of the step
  int pivots = 0;             // Lemke pivots of the step
  int nonlinear_iterations = 0;
  int passes = 1;
  double lcp_complementarity = 0;  // relative
  double momentum_residual = 0;    // [N s]
  double gap_violation = 0;        // [m]
  double cone_residual = 0;        // [N s]
  double impulse = 0;              // [N s] sum of normal impulses
  LcpStatus status = LcpStatus::solved;
};

struct Trajectory {
  double h = 0;                        // [s]
  std::vector<double> t;               // (steps + 1) [s]
  std::vector<Eigen::VectorXd> q, v;   // (steps + 1) states
  std::vector<StepSummary> steps;      // (steps)
  double worst_complementarity = 0;    // over every LCP of the run (relative)
  bool all_solved = true;
};

/// st_step from (q0, v0) one step at a time, for round(T / h) steps: simulate() runs one to its end,
/// the book's live scenes a few steps per animation frame. sys must outlive the stepper.
class TrajectoryStepper {
 public:
  TrajectoryStepper(const ContactSystem& sys, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0, double T,
                    const StepOptions& opt);
  long steps() const { return steps_; }
  bool done() const { return long(tr_.steps.size()) >= steps_; }
  /// One step, appended to trajectory(); throws std::logic_error when done.
  void step();
  const Trajectory& trajectory() const { return tr_; }

 private:
  const ContactSystem& sys_;
  StepOptions opt_;
  long steps_ = 0;
  Trajectory tr_;
  std::vector<int> active_;
};

/// Runs st_step from (q0, v0) for round(T / h) steps (a TrajectoryStepper to its end).
Trajectory simulate(const ContactSystem& sys, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0, double T,
                    const StepOptions& opt);

/// The falling rod. Third-party reproductions of the paper (course README) give L = 0.5 m,
/// r = 0.05 m, m = 1 kg, mu = 0.6, g = 9.81 m/s^2, centre 1 m above the table, 30 degrees, 4 rad/s,
/// h = 0.0025 s, 1 s. Our inertia is the uniform rod's m L^2 / 12 = 0.0208 kg m^2 (theirs: 0.002).
struct RodSetup {
  double m = 1, length = 0.5, radius = 0.05, mu = 0.6, g = 9.81;
  double inertia = 1.0 * 0.5 * 0.5 / 12.0;  // [kg m^2]
  double height = 1.0, angle = M_PI / 6, spin = 4.0, T = 1.0;
  PlanarRod system() const;
  Eigen::VectorXd q0() const;
  Eigen::VectorXd v0() const;
};

/// Our four-ball pile: three balls of radius 0.1 m in a touching row on the floor (A, B, C at
/// x = 0, 0.2, 0.4 m) and a fourth ball D dropped into the groove between A and B with a sideways
/// velocity and spin. Resting on A and B, D closes 7 contacts (A, B, C on the floor; A-B, B-C;
/// D-A, D-B): with 8 friction directions the LCP is 7 x (1 + 8 + 1) = 70.
struct BallsSetup {
  double m = 1, radius = 0.1, mu_floor = 0.4, mu_ball = 0.3, g = 9.81;
  double drop = 0.05;                  // [m] initial gap of D above its resting position
  Eigen::Vector3d d_velocity{0.0, 0.3, 0.0};   // [m/s]
  Eigen::Vector3d d_spin{0.0, 0.0, 5.0};       // [rad/s]
  double T = 1.0;
  Balls system() const;
  Eigen::VectorXd q0() const;
  Eigen::VectorXd v0() const;
};

/// The curved-gap experiment of ST §2: a 1 kg bead released at the bottom of a 1 m bowl at 3 m/s
/// along the wall (parameters ours). It can climb to y = -1 + v0^2 / (2 g) = -0.541 m and no higher.
struct BowlSetup {
  double m = 1, radius = 1, g = 9.81, speed = 3.0, T = 2.0;
  BeadInBowl system() const;
  Eigen::VectorXd q0() const;  // (0, -R) [m]
  Eigen::VectorXd v0() const;  // (speed, 0) [m/s]
};

/// @formula ST.2-linearization-dissipation-loss  Dissipativity audit of a run (course ST §2).
///   a run is dissipative when  E(q_{k+1}, v_{k+1}) <= E(q_k, v_k) + tol  for every step k
/// Why a step can gain: for a frictionless step with a constant force, whose final LCP has gap
/// constants c_i and the normals N of the momentum balance (c_i = phi_i(q_k) and N = N(q_k) when the
/// step is linearised only),
///   E_{k+1} - E_k = -sum_i p_i c_i / h - (v+ - v)^T M (v+ - v) / 2
/// so only a step that starts from a negative gap constant can raise E. Linearising a concave gap
/// (the bowl) lets the bead end a step inside the wall; the next step pushes it out at -phi / h and
/// that push is energy from nowhere. The §3.6 iteration removes the penetration; with the normals
/// kept at q_k the carried-back constant c can still be negative and the run still gains, with the
/// normals at the iterate it cannot on a concave gap (StepOptions::jacobians_at_iterate).
struct DissipationAudit {
  std::vector<double> t, energy;   // (steps + 1) [s], [J]
  std::vector<double> phi_start;   // (steps) smallest true gap at the start of each step [m]
  int gain_steps = 0;              // steps with E_{k+1} > E_k + tol
  int gain_steps_from_penetration = 0;  // gain steps whose start had a negative true gap
  double max_step_gain = 0;        // [J]
  double max_rise = 0;             // [J] max_k E_k - E_0 (> 0: above the start energy)
  double worst_gap = 0;            // [m] most negative true gap at the end of any step
};
DissipationAudit dissipation_audit(const ContactSystem& sys, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                                   double T, const StepOptions& opt, double tol);

/// @formula ST.4-error-metrics  Self-convergence errors of a run against a finer reference run.
///   velocity error  e_v = integral_0^T || v_h(t) - v_ref(t) ||_inf dt, v piecewise constant on each
///                   step (v_{k+1} on (t_k, t_{k+1}])                                     [m]
///   position error  e_q = max over t on the coarse grid of || x_h(t) - x_ref(t) ||_inf     [m]
///                   (x: the coordinates listed in `position_coords`)
/// Scope: h / h_ref and the sample times must be integers multiples; the two numbers have different
///   definitions and units and are never compared with each other.
struct ErrorPair {
  double velocity = 0;  // [m] (or rad, for angular entries) time integral of the max-norm difference
  double position = 0;  // [m] max norm
};
ErrorPair trajectory_errors(const Trajectory& run, const Trajectory& ref, const std::vector<int>& position_coords);

struct ConvergenceRow {
  double h = 0;
  ErrorPair error;
  int max_lcp = 0;
  double worst_complementarity = 0;
};

/// The Table 1 analogue: the balls run at each h in `hs` against the run at h_ref.
std::vector<ConvergenceRow> convergence_table(const BallsSetup& s, const std::vector<double>& hs, double h_ref,
                                              int directions, Trajectory* reference = nullptr);


/// The contact LCP of a row of `balls` touching balls on the floor (all floor and pair contacts, the
/// first `contacts` of them), with sideways velocities: the benchmark family of `bench st-lcp`.
/// Size contacts x (1 + directions + 1). Throws std::invalid_argument when contacts exceeds the
/// row's contact count or is < 1.
ContactLcp row_of_balls_lcp(int balls, int contacts, int directions, double h);

/// The LCP of the first step of the four-ball run whose contact set has 7 contacts (70 x 70 with 8
/// directions). Throws std::runtime_error when the run never closes 7 contacts.
ContactLcp four_ball_seven_contact_lcp(const BallsSetup& s, double h, int directions);

/// One row of the friction-cone study: a unit point slides on a level plane (mu = 0.5, v0 = 1 m/s,
/// g = 9.81 m/s^2). Sliding just short of an edge normal of the k-gon, the friction impulse points
/// at a vertex (direction error -> pi/k); sliding along an edge normal, it has magnitude
/// cos(pi/k) mu p_n, so the point slides 1/cos(pi/k) times as far as with the circular cone.
struct ConeRow {
  int k = 0;
  double polygon_error = 0;      // [-] 1 - cos(pi / k)
  double direction_error = 0;    // [rad] angle between the first step's friction impulse and -v
  double stop_distance = 0;      // [m] distance slid until rest along an edge normal
  double stop_distance_circle = 0;  // [m] v0^2 / (2 mu g), the circular cone's
  int lcp_size = 0;
  int pivots = 0;                // Lemke pivots of the first sliding step
};
ConeRow friction_cone_row(int k, double h);

}  // namespace impulse::st
