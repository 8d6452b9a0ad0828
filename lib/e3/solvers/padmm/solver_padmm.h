// SolverPADMM: a Kamino-style maximal-coordinate rigid solver with hard contacts (course E3 §6).
//
// One step (Kamino's Euler integration): free velocities from the external wrenches and gravity,
// the Delassus problem of the joint rows (bilateral, maximal coordinates) and the contact rows
// solved together by PADMM (padmm_block.h), velocities updated with all impulses
// (E3.1-discrete-dynamics), then poses advanced with the new velocities. Joints: FREE (no rows),
// BALL, REVOLUTE, PRISMATIC, FIXED; a joint error C enters the row's free velocity as the Baumgarte
// bias joint_stabilization * C / h, as Kamino's dual problem does (kamino/_src/dynamics/dual.py,
// alpha). The rows couple only the movable bodies they touch, so the problem splits into islands
// (connected components of bodies and rows), each solved on its own by one kernel item; every
// stage is a pass over lib/core primitives, so the same source runs on the CPU and on a GPU.
// The engine's Model has one world, so status() has one entry.
#pragma once

#include <cstdint>
#include <vector>

#include "core/buffer.h"
#include "core/eigen.h"
#include "e1/model.h"
#include "e3/contacts/contact_record_check.h"
#include "e3/contacts/contacts_view.h"
#include "e3/solvers/padmm/padmm.h"
#include "e3/solvers/padmm/padmm_rows.h"

namespace impulse {

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
/// X_wp is the identity and c_p unused when body0 = -1. Appends the rows to out (write_joint_rows of
/// padmm_rows.h, what the solver's joint pass runs). Throws std::invalid_argument for DISTANCE and
/// D6, naming the joint.
void append_joint_rows(int joint, JointType type, int body0, int body1, const transform& X_p_world,
                       const transform& X_c_world, vec3 c_p, vec3 c_c, const JointAxes& axes,
                       std::vector<PADMMJointRow>& out);

/// W = J M^-1 J^T of joint rows (first, one row each) and contact rows (then, three each), entry by
/// entry (delassus_entry). Symmetric positive semidefinite. Throws std::invalid_argument for a row
/// naming a body outside bodies.
MatrixXr assemble_delassus(const std::vector<PADMMJointRow>& joints, const std::vector<PADMMContactRow>& rows,
                           const std::vector<PADMMBodyInverse>& bodies);
/// The same with contact rows only.
MatrixXr assemble_delassus(const std::vector<PADMMContactRow>& rows, const std::vector<PADMMBodyInverse>& bodies);

/// What an island item reports: its status and why it failed (PADMMFailure, padmm_block.h).
struct PADMMIslandReport {
  PADMMStatus status;
  int failure = 0;         // the first failure (in node order) for the world's report
  int failed_iteration = 0;
  int solved = 0;          // 1 when the island had rows
};

/// The island layout: rows and labels left unsettled by the labelling (0 when the islands are
/// final), and the sizes of the flat per-island arrays.
struct PADMMLayout {
  std::int64_t unsettled = 0;
  std::int64_t unknowns = 0;  // sum of n_i
  std::int64_t w = 0;         // sum of n_i^2
  std::int64_t scratch = 0;   // sum of padmm_block_scratch(n_i)
};

/// What a step reads back, once when the labels settle within one batch and the arrays suffice: the
/// island layout, the world's report and the contact record's check (ContactRecordCheck's slots:
/// its count, a row naming a shape outside the Model, what collide found wrong), so that one copy
/// brings all three.
struct PADMMStepReport {
  PADMMLayout layout;
  PADMMIslandReport world;
  int record[ContactRecordCheck::kSlots] = {};
};

class SolverPADMM {
 public:
  /// Throws std::invalid_argument for bad settings or a joint type other than FREE, BALL, REVOLUTE,
  /// PRISMATIC or FIXED (the message names the joint ID and type).
  explicit SolverPADMM(const Model& model, const PADMMSettings& settings = {});

  /// Throws std::runtime_error when an island's W + (rho + eta) I is not positive definite or its
  /// iteration diverged; state_out and the warm-start history are then left as they were.
  void step(const State& state_in, State& state_out, const Control& control, const ContactsView* contacts,
            real dt);
  /// Kamino's update_contacts(contacts, state): writes contacts.force[i] = the last step's average
  /// contact wrench on body0 (f = -C^T p / h [N], tau = r0 x f [N m] about body0's COM, world).
  /// Throws std::invalid_argument when the force array was not requested or the record changed.
  void update_contacts(ContactsView& contacts, const State& state) const;
  /// Per-world status of the last step (one world).
  const std::vector<PADMMStatus>& status() const { return status_; }
  /// Contact rows of the last step (a copy on the host).
  std::vector<PADMMContactRow> last_rows() const;
  /// Joint rows of the last step (c evaluated on state_in; a copy on the host).
  std::vector<PADMMJointRow> last_joint_rows() const;
  /// Clears the warm-start history (the containers) and the status.
  void reset();

  // The step's passes (solver_padmm.cpp), in the order step() calls them. nvcc allows its device
  // lambdas only in public member functions; call step(), which runs them in this order.
  void free_velocities(const State& in, const Control& control, real h);
  void build_rows(const State& in, const ContactsView* contacts, real h);
  void start_islands();
  void label_batch();
  bool solve_islands(const ContactsView* record_view);
  void integrate(const State& in, State& out, real h);
  void keep_history();

 private:
  void grow(int contact_capacity);

  const Model* model_;
  PADMMSettings settings_;
  std::vector<PADMMStatus> status_;
  int nb_ = 0;                  // bodies
  int nj_ = 0;                  // joint rows (fixed by the model)
  int nc_ = 0;                  // contact rows of the last step (its readback's count)
  std::int64_t ne_ = 0;         // contact rows the row passes launch over (record_launch_extent)
  bool joint_warm_ = false;     // joint impulses kept from the last step
  real last_dt_ = 0;
  // Sized at construction.
  Buffer<int> joint_row_start_;            // per joint (joint_count + 1): its first row
  Buffer<PADMMJointRow> joint_rows_;       // nj
  Buffer<real> joint_history_;             // nj [N s or N m s], the joint warm start
  Buffer<spatial_vector> wrench_, v_;      // external wrench [N, N m]; free velocities [m/s, rad/s]
  Buffer<PADMMBodyInverse> inv_;           // per body (zero: immovable)
  Buffer<vec3> c_w_;                       // world COMs [m]
  Buffer<int> label_, label_next_;         // per island node (nb + 1): the smallest body of its island
  Buffer<std::int64_t> node_start_, node_fill_;                 // (nb + 2), (nb + 1)
  Buffer<std::int64_t> island_n_, island_w_, island_s_;         // per node (nb + 1)
  Buffer<std::int64_t> unknown_start_, w_start_, scratch_start_;  // per node (nb + 2)
  Buffer<PADMMIslandReport> island_report_;                     // per node (nb + 1)
  Buffer<PADMMIslandReport> report_parts_;                      // per chunk of nodes, then the world
  Buffer<PADMMStepReport> report_;                              // 1
  Buffer<std::int64_t> history_count_;                          // 1: contact impulses kept from the last step
  ContactRecordCheck record_check_;                             // the record's check, read with the report
  // Grown with the record's capacity C (rows R = nj + C, unknowns nj + 3 C); a pass launches over
  // nj + ne_ rows, and a contact row at or past the record's count (read on the device) is dead:
  // no bodies, no island, no impulse.
  Buffer<PADMMContactRow> rows_;
  Buffer<std::int64_t> pair_sorted_, history_key_;   // (shape0, shape1) keys of each contact, sorted
  Buffer<int> pair_order_;
  Buffer<vec3> history_impulse_;           // last step's impulses in history_key_ order [N s]
  Buffer<real> b_, x_;                     // the problem's right-hand side [m/s], the impulses
  Buffer<int> row_node_, row_root_, side_key_, unsettled_;
  Buffer<std::int64_t> side_start_, side_entry_, side_fill_, row_entry_, unsettled_start_;
  // Grown with the island layout.
  Buffer<real> W_, scratch_, island_b_, island_x_, island_mu_;
  Buffer<int> island_at_;                  // world unknown of each island unknown
};

}  // namespace impulse
