// Rigid-body VBD with compliant augmented-Lagrangian contacts and joints (course E3 §6), a compact
// version: per-body 6x6 block descent in body order (run colour by colour: colour_bodies in
// vbd_rigid.cpp), a fixed iteration count, a dual (lambda)
// history per normal row and per joint, smoothed Coulomb friction from the pose history (no Dahl
// model, no contact matching beyond a per-pair ordinal key), velocities from the pose history.
// Joints (REVOLUTE, BALL, FIXED, PRISMATIC) are hard bilateral rows on the errors of
// lib/e3/joints/maximal_joint.h: material k = infinity, so k_eff = rho and the multiplier carries the
// whole reaction (the augmented Lagrangian of a hard constraint, AVBD style). Each joint row's
// metric is at least the row's own inertial support (joint_row_metric), as Newton seeds it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/buffer.h"
#include "core/math.h"
#include "e1/model.h"
#include "e3/contacts/contacts_view.h"

namespace impulse {

/// Coefficients of one compliant-ALM row.
struct CompliantAlmCoefficients {
  real s = 0;      // [-] retention of the previous multiplier, k/(k + rho)
  real k_eff = 0;  // [N/m] effective stiffness k rho/(k + rho)
  real a = 1;      // [-] relaxation rho/(k + rho)
};

/// @formula E3.6-vbd-keff  Effective stiffness of a compliant ALM row (course E3 §6).
///   k_eff = k rho / (k + rho),  s = k / (k + rho),  a = rho / (k + rho)          k, rho [N/m]
/// k is the material stiffness, rho the numerical metric; k_eff <= min(k, rho), k_eff -> k as
/// rho -> inf. Written in the branch that keeps the small one of s and a accurate (Newton's form);
/// k <= 0 or rho <= 0 retires the row: (0, 0, 1).
IMPULSE_HD inline CompliantAlmCoefficients compliant_alm_coefficients(real k, real rho) {
  if (!(k > 0) || !(rho > 0)) return {0, 0, 1};
  if (k >= rho) {
    real r = rho / k, s = 1 / (1 + r);
    return {s, rho * s, r * s};
  }
  real r = k / rho, a = 1 / (1 + r);
  return {r * a, k * a, a};
}

/// Metric of a hard joint row [N/m on linear rows, N m/rad on angular rows]:
///   rho_row = max(rho, 1 / (h^2 w)),   w = sum over the joint's dynamic sides of 1/m (linear rows)
///                                          or of trace(I^-1)/3 (angular rows)
/// 1/(h^2 w) is the row's inertial support, the stiffness m_red/h^2 its bodies already put into a
/// block solve (Newton's _joint_linear_rho_seed / _joint_angular_rho_seed,
/// newton/_src/solvers/vbd/rigid_vbd_kernels.py). With rho below it, a block solve moves the bodies
/// only a fraction of the way to the joint and the multiplier, kept whole from step to step (s = 1
/// for a hard row), carries the rest: on a chain of light links it overshoots with a growing
/// amplitude (verify/e3/soak_test.cpp, SoakJointedChainVbd). w <= 0 (no dynamic side) leaves rho.
IMPULSE_HD inline real joint_row_metric(real rho, real w, real h) {
  const real support = w > 0 ? 1 / (h * h * w) : 0;
  return support > rho ? support : rho;
}

/// Normal force magnitude of a unilateral compliant-ALM contact row [N] (compressive >= 0):
///   f = max(0, k_eff (-C) + s lambda - kd u_n)
/// C [m] the gap (negative: penetrating), lambda [N] the row's multiplier history, u_n [m/s] the
/// normal separation speed from the pose history, kd [N s/m].
IMPULSE_HD inline real vbd_contact_normal_force(const CompliantAlmCoefficients& c, real C, real lambda, real kd, real u_n) {
  real f = c.k_eff * (-C) + c.s * lambda - kd * u_n;
  return f > 0 ? f : real(0);
}

/// Smoothed Coulomb friction of a VBD contact from the pose history (IPC-style lagged friction):
///   f_t = -mu f_n u_t / max(|u_t|, eps_v)          [N], the force on body1
/// u_t [m/s] the tangential slip of body1's point relative to body0's over the step, f_n [N] the
/// normal force, eps_v [m/s] the slip speed below which friction is viscous.
IMPULSE_HD inline vec3 vbd_friction_force(real mu, real f_n, vec3 u_t, real eps_v) {
  real s = length(u_t);
  return (-mu * f_n / (s > eps_v ? s : eps_v)) * u_t;
}

/// One contact row of a step, as the passes read it (vbd_rigid.cpp builds it from the record).
struct VbdRow {
  int body0 = -1, body1 = -1;
  vec3 p0, p1, n;   // [m] body-frame points, world normal shape0 -> shape1
  real m0 = 0, m1 = 0;  // [m] margins
  real k = 0, kd = 0, mu = 0;  // [N/m], [N s/m], [-]
};

/// One contact's readback for collect_rigid_contact_forces.
struct VbdContactForce {
  int body0 = -1, body1 = -1;
  vec3 point0_world, point1_world;  // [m]
  vec3 force_on_body1;              // [N] world, normal + friction; Contacts.force (on body0) is its negative
};

class SolverVBD {
 public:
  /// iterations >= 1 (Newton's default 10), rho > 0 [N/m] the numerical metric of the contact
  /// rows and the floor of each joint row's (joint_row_metric; [N m/rad] on the angular rows). Throws std::invalid_argument otherwise, naming the joint
  /// for a DISTANCE or D6 joint. The model may live on any device: every stage is a pass.
  explicit SolverVBD(const Model& model, int iterations = 10, real rho = real(1e5), real friction_epsilon = real(0.01));

  int iterations;
  real rho;               // [N/m]
  real friction_epsilon;  // [m/s] eps_v of vbd_friction_force

  /// Newton's step(state_in, state_out, control, contacts, dt). Uses the contacts' ke (material k)
  /// and kd; keeps body_q_prev = state_in.body_q (the history this step used).
  void step(const State& state_in, State& state_out, const Control& control, const ContactsView* contacts,
            real dt);
  /// The generic update_contacts is not this solver's readback: always throws.
  void update_contacts(ContactsView& contacts) const;
  /// Forces of the last step's contacts evaluated at body_q with the separation speed from
  /// (body_q - body_q_prev) / dt and the solver's multipliers: the force on body1 (opposite to the
  /// Contacts.force body0 convention). body_q_prev must be the history that step used.
  std::vector<VbdContactForce> collect_rigid_contact_forces(const std::vector<transform>& body_q,
                                                            const std::vector<transform>& body_q_prev,
                                                            const ContactsView& contacts, real dt) const;
  /// The pose history the last step started from (a host copy; empty before the first step).
  std::vector<transform> body_q_prev() const;
  /// Multipliers of joint j after the last step: the force [N] and torque [N m] (world) the joint
  /// applies to its child (its parent gets the opposite). Zero before the first step.
  spatial_vector joint_lambda(int j) const;
  /// Clears the multiplier histories (contacts and joints) and the pose history.
  void reset();
  /// The colour of each body in the last step (colour_bodies; -1 for a body the sweep skips), a
  /// host copy (empty before the first step).
  std::vector<int> body_colours() const;

  /// The arrays one step's passes read, as views (defined in vbd_rigid.cpp).
  struct Views;
  Views views(const State* in, State* out) const;

  // The stages of step(), in order, each a pass (or a few) on the model's device (vbd_rigid.cpp);
  // public only because a function holding a CUDA extended lambda must be (nvcc's rule).
  void build_joint_segments();
  void check_step(const State& in, const State& out, const Control& control, const ContactsView* contacts, real h) const;
  void gather_forces(const State& in, const Control& control);
  int prepare_rows(const ContactsView* contacts) const;
  void joint_metrics(real h);
  void colour_bodies();
  void relax_colours(int rounds);
  void read_back(int launch, const ContactsView* contacts);
  bool extend_colours();
  void predict_targets(const State& in, State& out, real h);
  void sweep_bodies(State& out, real h);
  void dual_update(State& out, int launch, const ContactsView* contacts, real h);
  void finish_step(const State& in, State& out, int launch, const ContactsView* contacts, real h);

 private:
  const Model* model_;
  bool has_prev_ = false;
  Buffer<transform> body_q_prev_;
  Buffer<vec3> joint_lambda_lin_;  // [N] per joint: force on the child
  Buffer<vec3> joint_lambda_ang_;  // [N m] per joint: torque on the child
  // The attached (non-FREE) joints of each body, in joint order (entry = 2 * joint + side), built once.
  Buffer<std::int64_t> joint_start_, joint_entry_;
  // The contact multiplier history: keys (pair of shapes, ordinal within the pair) ascending, their
  // multipliers [N], and the count at hist_count_[0], all on the device.
  Buffer<std::int64_t> hist_key_;
  Buffer<real> hist_lam_;
  Buffer<int> hist_count_;
  // Colour rounds (colour_bodies): how many the next step starts with (from the last step's colour
  // count) and how many this step has run.
  int colour_rounds_next_ = 8;
  int colour_rounds_done_ = 0;
  // One step's arrays, sized at the first step and grown only when a capacity grows (mutable: the
  // readback collect_rigid_contact_forces rebuilds the rows in them).
  struct Scratch {
    Buffer<spatial_vector> f;                 // [N, N m] external wrench
    Buffer<vec3> c_tilde;                     // [m] inertial target of the COM
    Buffer<quat> q_tilde;                     // inertial target of the orientation
    Buffer<CompliantAlmCoefficients> jc_lin, jc_ang;
    Buffer<VbdRow> rows;
    Buffer<real> lam;                         // [N] per row
    Buffer<std::int64_t> sorted, row_key;     // rows by (pair, row); each row's history key
    Buffer<int> sides, colour, colour_next;   // colour_next: the other half of a relaxation round
    Buffer<std::int64_t> row_start, row_entry, fill, colour_entry;
    Buffer<std::int64_t> readback;            // colour starts (bodies + 1), count, bad row, bad shape, collide_status
    std::vector<std::int64_t> readback_host;
    Buffer<transform> q_now, q_then;          // collect_rigid_contact_forces' poses
    Buffer<VbdContactForce> forces;
  };
  mutable Scratch s_;
};

}  // namespace impulse
