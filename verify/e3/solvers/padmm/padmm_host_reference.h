// The host reference of SolverPADMM (course E3 §6): the solver as it was written before its step
// became device passes, kept as a test oracle only. One step copies the model, state and contacts
// to the host, finds islands by union-find, assembles each island's Delassus matrix by grouping
// Jacobian entries per body (Eigen), factors it with Eigen's LLT and iterates PADMM on Eigen
// vectors. Host code: the model must live on the CPU.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <Eigen/Dense>

#include "core/eigen.h"
#include "core/segments.h"
#include "e1/integrator.h"
#include "e1/joints.h"
#include "e1/model.h"
#include "e3/contacts/contact_materials.h"
#include "e3/contacts/contact_row.h"
#include "e3/contacts/contacts_view.h"
#include "e3/joints/maximal_joint.h"
#include "e3/solvers/padmm/padmm.h"
#include "e3/solvers/padmm/padmm_rows.h"

namespace impulse::padmm_reference {


/// The contact row is the engine's own (padmm_rows.h); only its assembly and solve are the reference's.
using ContactRow = PADMMContactRow;

/// One scalar bilateral (equality) row of a joint: after the step u = g0 V0 + g1 V1 + bias must be 0,
/// V = (v_C [m/s], omega [rad/s]) of each body, world. Its impulse has no bound.
struct JointRow {
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
inline void append_joint_rows(int joint, JointType type, int body0, int body1, const transform& X_p_world,
                       const transform& X_c_world, vec3 c_p, vec3 c_c, const JointAxes& axes,
                       std::vector<JointRow>& out);

/// Per-body inverse mass data of the Delassus operator (zero for kinematic bodies).
struct BodyInverse {
  real inv_m = 0;    // [1/kg]
  mat33 inv_I_w{};   // [1/(kg m^2)] world
};

/// The Delassus operator W = J M^-1 J^T of a contact set (E3.1-delassus, course E3 §1) in the block
/// form PADMM assembles: W_ij = sum over bodies k shared by contacts i and j of
/// G_ik M_k^-1 G_jk^T, with G_ik = s [C, -C [r_ik]x] (s = +1 for body1, -1 for body0, C = [n; t1; t2]).
/// Units [1/kg] on the linear rows. Symmetric positive semidefinite.
inline MatrixXr assemble_delassus(const std::vector<ContactRow>& rows, const std::vector<BodyInverse>& bodies);

/// The Delassus operator of joint rows (first, one row each) and contact rows (then, three each):
/// W = J M^-1 J^T = sum over bodies k of J_k M_k^-1 J_k^T, J_k the columns of body k. [1/kg] on
/// linear rows, [1/(kg m)] between linear and angular, [1/(kg m^2)] on angular rows.
inline MatrixXr assemble_delassus(const std::vector<JointRow>& joints, const std::vector<ContactRow>& rows,
                                  const std::vector<BodyInverse>& bodies);

/// The 3 x 6 Jacobian block of contact row c for body k (zero when k is not one of its bodies),
/// acting on (v_C, omega) of that body.
inline Eigen::Matrix<real, 3, 6> contact_jacobian_block(const ContactRow& c, int k);

class HostSolver {
 public:
  /// Throws std::invalid_argument for bad settings, a model not on the CPU, or a joint type other than
  /// FREE, BALL, REVOLUTE, PRISMATIC or FIXED (the message names the joint ID and type).
  explicit HostSolver(const Model& model, const PADMMSettings& settings = {});

  void step(const State& state_in, State& state_out, const Control& control, const ContactsView* contacts,
            real dt);
  /// Kamino's update_contacts(contacts, state): writes contacts.force[i] = the last step's average
  /// contact wrench on body0 (f = -C^T p / h [N], tau = r0 x f [N m] about body0's COM, world).
  /// Throws std::invalid_argument when the force array was not requested or the record changed.
  void update_contacts(ContactsView& contacts, const State& state) const;
  /// Per-world status of the last step (one world).
  const std::vector<PADMMStatus>& status() const { return status_; }
  /// Contact rows of the last step.
  const std::vector<ContactRow>& last_rows() const { return rows_; }
  /// Joint rows of the last step (c evaluated on state_in).
  const std::vector<JointRow>& last_joint_rows() const { return joint_rows_; }
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
  PADMMStatus solve_islands(const std::vector<BodyInverse>& inv, const VectorXr& b,
                            const std::vector<real>& mu);

  const Model* model_;
  PADMMSettings settings_;
  std::vector<PADMMStatus> status_;
  std::vector<ContactRow> rows_;
  std::vector<JointRow> joint_rows_;
  std::vector<real> joint_history_;  // last step's joint-row impulses [N s or N m s], the joint warm start
  std::vector<std::tuple<int, int, int>> keys_;
  VectorXr x_;
  real last_dt_ = 0;
  std::map<std::tuple<int, int, int>, vec3> history_;  // (shape0, shape1, k-th record of the pair) -> impulse
};


inline PADMMStatus padmm_solve(const MatrixXr& W, const VectorXr& b, const std::vector<real>& mu,
                        const PADMMSettings& st, VectorXr& x, VectorXr* u_out = nullptr, int nj = 0) {
  // The tests give it a well-formed problem; the engine's padmm_solve checks its arguments.
  const int nc = int(mu.size()), n = nj + 3 * nc;
  PADMMStatus status;
  if (n == 0) {
    status.converged = true;
    return status;
  }
  MatrixXr A = W;
  A.diagonal().array() += st.rho + st.eta;
  Eigen::LLT<MatrixXr> llt(A);
  if (llt.info() != Eigen::Success) throw std::runtime_error("padmm_solve: W + (rho + eta) I is not positive definite");
  auto project = [&](const VectorXr& v) {
    VectorXr p = v;  // bilateral rows: the cone is R, nothing to project
    for (int c = 0; c < nc; ++c) {
      const int i = nj + 3 * c;
      vec3 q = project_friction_cone({v[i], v[i + 1], v[i + 2]}, mu[c]);
      p[i] = q.x; p[i + 1] = q.y; p[i + 2] = q.z;
    }
    return p;
  };
  const VectorXr x_start = x;  // given back unchanged when the iteration diverges
  VectorXr y = project(x), z = VectorXr::Zero(n), s = VectorXr::Zero(n);
  x = y;
  for (int k = 1; k <= st.max_iterations; ++k) {
    // De Saxce correction from the current velocity estimate.
    VectorXr u = W * y + b;
    for (int c = 0; c < nc; ++c) s[nj + 3 * c] = mu[c] * std::hypot(u[nj + 3 * c + 1], u[nj + 3 * c + 2]);
    VectorXr x_prev = x, y_prev = y;
    x = llt.solve(-(b + s) + st.eta * x_prev + st.rho * y_prev - z);
    y = project(x + z / st.rho);
    z += st.rho * (x - y);
    status.iterations = k;
    status.r_p = (x - y).cwiseAbs().maxCoeff();
    status.r_d = (st.eta * (x - x_prev) + st.rho * (y - y_prev)).cwiseAbs().maxCoeff();
    status.r_c = 0;
    for (int c = 0; c < nc; ++c)
      status.r_c = std::max(status.r_c, std::abs(x.segment<3>(nj + 3 * c).dot(z.segment<3>(nj + 3 * c))));
    if (!std::isfinite(status.r_p) || !std::isfinite(status.r_d) || !std::isfinite(status.r_c)) {
      x = x_start;
      throw std::runtime_error("padmm_solve: the iteration diverged (non-finite residual at iteration " +
                               std::to_string(k) + " with rho = " + std::to_string(st.rho) +
                               "); no impulse is returned. A larger rho or a smaller step may converge");
    }
    status.converged = padmm_converged(k, status.r_p, status.r_d, status.r_c, st.primal_tolerance, st.dual_tolerance,
                                       st.compl_tolerance);
    if (status.converged) break;
  }
  x = y;
  if (u_out) *u_out = W * y + b;
  return status;
}




inline Matrix3r skew(vec3 r) {
  Matrix3r s;
  s << 0, -r.z, r.y, r.z, 0, -r.x, -r.y, r.x, 0;
  return s;
}


inline Eigen::Matrix<real, 3, 6> contact_jacobian_block(const ContactRow& c, int k) {
  Eigen::Matrix<real, 3, 6> G = Eigen::Matrix<real, 3, 6>::Zero();
  Matrix3r C;
  C << c.n.x, c.n.y, c.n.z, c.t1.x, c.t1.y, c.t1.z, c.t2.x, c.t2.y, c.t2.z;
  if (k >= 0 && k == c.body1) {
    G.leftCols<3>() += C;
    G.rightCols<3>() += -C * skew(c.r1);
  }
  if (k >= 0 && k == c.body0) {
    G.leftCols<3>() -= C;
    G.rightCols<3>() -= -C * skew(c.r0);
  }
  return G;
}

inline Eigen::Matrix<real, 1, 6> lin_row(vec3 e, vec3 r) {
  vec3 rxe = cross(r, e);
  Eigen::Matrix<real, 1, 6> g;
  g << e.x, e.y, e.z, rxe.x, rxe.y, rxe.z;
  return g;
}

inline Eigen::Matrix<real, 1, 6> ang_row(vec3 e) {
  Eigen::Matrix<real, 1, 6> g;
  g << 0, 0, 0, e.x, e.y, e.z;
  return g;
}



inline void append_joint_rows(int joint, JointType type, int body0, int body1, const transform& Xp, const transform& Xc,
                       vec3 c_p, vec3 c_c, const JointAxes& axes, std::vector<JointRow>& out) {
  if (type == JointType::free) return;
  if (!maximal_joint_supported(type))
    throw std::invalid_argument("HostSolver: joint " + std::to_string(joint) + " has type " + joint_type_name(type) +
                                "; supported: FREE, BALL, REVOLUTE, PRISMATIC, FIXED");
  const vec3 r_p = Xp.p - c_p, r_c = Xc.p - c_c;
  // The constrained errors C of the rows, shared with the penalty and VBD joints (maximal_joint.h).
  const JointErrors err = joint_errors(type, axes, JointFrames{Xp, Xc, r_p, r_c});
  auto add = [&](Eigen::Matrix<real, 1, 6> g1, Eigen::Matrix<real, 1, 6> g0, real c) {
    JointRow r;
    r.joint = joint;
    r.body0 = body0;
    r.body1 = body1;
    if (body0 >= 0) r.g0 = g0;
    r.g1 = g1;
    r.c = c;
    out.push_back(r);
  };
  const vec3 E[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  if (type != JointType::prismatic)
    for (vec3 e : E) add(lin_row(e, r_c), -lin_row(e, r_p), dot(e, err.lin));
  if (type == JointType::revolute) {
    vec3 b[2];
    tangent_basis(err.axis_p, b[0], b[1]);
    for (vec3 e : b) add(ang_row(e), -ang_row(e), dot(e, err.ang));
  }
  if (type == JointType::fixed || type == JointType::prismatic)
    for (vec3 e : E) add(ang_row(e), -ang_row(e), dot(e, err.ang));
  if (type == JointType::prismatic) {
    vec3 b[2];
    tangent_basis(err.axis_p, b[0], b[1]);
    for (vec3 e : b) add(lin_row(e, r_c), -lin_row(e, Xc.p - c_p), dot(e, err.lin));
  }
}

inline MatrixXr assemble_delassus(const std::vector<ContactRow>& rows, const std::vector<BodyInverse>& bodies) {
  return assemble_delassus({}, rows, bodies);
}

inline MatrixXr assemble_delassus(const std::vector<JointRow>& joints, const std::vector<ContactRow>& rows,
                                  const std::vector<BodyInverse>& bodies) {
  const int nj = int(joints.size()), nc = int(rows.size()), n = nj + 3 * nc, nb = int(bodies.size());
  // Every (body, row, J entry) of the rows, grouped by body below (stable: rows keep their order
  // within a body). Only the bodies the rows touch are visited, so an island's cost does not grow
  // with the size of the world.
  struct Entry {
    int body, row;
    Eigen::Matrix<real, 1, 6> g;
  };
  std::vector<Entry> cols;
  auto push = [&](int k, int row, const Eigen::Matrix<real, 1, 6>& g) {
    if (k < 0) return;
    if (k >= nb) throw std::invalid_argument("assemble_delassus: row " + std::to_string(row) + " names body " +
                                             std::to_string(k) + " of " + std::to_string(nb));
    cols.push_back({k, row, g});
  };
  for (int i = 0; i < nj; ++i) {
    if (joints[i].body0 == joints[i].body1) continue;  // a body jointed to itself: no row
    push(joints[i].body0, i, joints[i].g0);
    push(joints[i].body1, i, joints[i].g1);
  }
  for (int i = 0; i < nc; ++i) {
    if (rows[i].body0 == rows[i].body1) continue;  // a body in contact with itself: no row
    for (int k : {rows[i].body0, rows[i].body1}) {
      if (k < 0) continue;
      Eigen::Matrix<real, 3, 6> G = contact_jacobian_block(rows[i], k);
      for (int a = 0; a < 3; ++a) push(k, nj + 3 * i + a, G.row(a));
    }
  }
  std::stable_sort(cols.begin(), cols.end(), [](const Entry& a, const Entry& b) { return a.body < b.body; });
  MatrixXr W = MatrixXr::Zero(n, n);
  for (std::size_t lo = 0, hi = 0; lo < cols.size(); lo = hi) {
    const int k = cols[lo].body;
    while (hi < cols.size() && cols[hi].body == k) ++hi;
    const Matrix3r Iinv = to_eigen(bodies[k].inv_I_w);
    for (std::size_t a = lo; a < hi; ++a) {
      Eigen::Matrix<real, 6, 1> mg;
      mg.head<3>() = bodies[k].inv_m * cols[a].g.head<3>().transpose();
      mg.tail<3>() = Iinv * cols[a].g.tail<3>().transpose();
      for (std::size_t c = lo; c < hi; ++c) W(cols[a].row, cols[c].row) += cols[c].g.dot(mg);
    }
  }
  return W;
}

inline HostSolver::HostSolver(const Model& model, const PADMMSettings& settings)
    : model_(&model), settings_(settings), status_(1) {
  settings_.validate();
  if (model.device != Device::cpu) throw std::invalid_argument("HostSolver: the model must be on the CPU (host solver)");
  require_maximal_joints(model, "HostSolver");
}

inline void HostSolver::reset() {
  history_.clear();
  joint_history_.clear();
  status_.assign(1, PADMMStatus{});
}

// The rows couple only the movable bodies they touch, so W is block-diagonal over the connected
// components ("islands") of the body-row graph, and proximal ADMM on a block-diagonal problem
// decouples: every block takes exactly the iterates it would take alone. Each island is therefore
// assembled and solved on its own, and the world's status is the worst over its islands
// (converged only when all are; iterations, r_p, r_d, r_c their maxima). The one difference from a
// single solve is the stop test, which is applied per island. Rows without a movable body form one
// island of their own.
inline PADMMStatus HostSolver::solve_islands(const std::vector<BodyInverse>& inv, const VectorXr& b,
                                       const std::vector<real>& mu) {
  const int nb = int(inv.size()), nj = int(joint_rows_.size()), nc = int(rows_.size());
  std::vector<int> root(std::size_t(nb) + 1);
  for (int k = 0; k <= nb; ++k) root[k] = k;
  auto find = [&](int k) {
    while (root[k] != k) k = root[k] = root[root[k]];
    return k;
  };
  auto node = [&](int b0, int b1) {  // the island node of a row: a movable body, else the extra node nb
    const bool m0 = b0 >= 0 && inv[b0].inv_m > 0, m1 = b1 >= 0 && inv[b1].inv_m > 0;
    if (m0 && m1) {
      const int r0 = find(b0), r1 = find(b1);
      if (r0 != r1) root[std::max(r0, r1)] = std::min(r0, r1);
    }
    return m0 ? b0 : m1 ? b1 : nb;
  };
  std::vector<int> row_node(std::size_t(nj + nc));
  for (int i = 0; i < nj; ++i) row_node[i] = node(joint_rows_[i].body0, joint_rows_[i].body1);
  for (int i = 0; i < nc; ++i) row_node[nj + i] = node(rows_[i].body0, rows_[i].body1);
  std::vector<int> island_of_root(std::size_t(nb) + 1, -1), row_island(row_node.size());
  int islands = 0;
  for (std::size_t r = 0; r < row_node.size(); ++r) {
    const int k = find(row_node[r]);
    if (island_of_root[k] < 0) island_of_root[k] = islands++;
    row_island[r] = island_of_root[k];
  }
  std::vector<std::int64_t> start, entry;  // rows of each island in row order: joints, then contacts
  build_segments(islands, row_island, start, entry);

  PADMMStatus world;
  world.converged = true;
  for (int isl = 0; isl < islands; ++isl) {
    std::vector<JointRow> jr;
    std::vector<ContactRow> cr;
    std::vector<real> mu_i;
    std::vector<int> at;  // position in the world vectors of each unknown of the island
    for (std::int64_t k = start[isl]; k < start[isl + 1]; ++k) {
      const int r = int(entry[k]);
      if (r < nj) {
        jr.push_back(joint_rows_[r]);
        at.push_back(r);
      }
    }
    for (std::int64_t k = start[isl]; k < start[isl + 1]; ++k) {
      const int r = int(entry[k]);
      if (r < nj) continue;
      cr.push_back(rows_[r - nj]);
      mu_i.push_back(mu[r - nj]);
      for (int a = 0; a < 3; ++a) at.push_back(nj + 3 * (r - nj) + a);
    }
    const MatrixXr W = assemble_delassus(jr, cr, inv);
    VectorXr b_i(Eigen::Index(at.size())), x_i(Eigen::Index(at.size()));
    for (std::size_t a = 0; a < at.size(); ++a) {
      b_i[Eigen::Index(a)] = b[at[a]];
      x_i[Eigen::Index(a)] = x_[at[a]];
    }
    const PADMMStatus s = padmm_reference::padmm_solve(W, b_i, mu_i, settings_, x_i, nullptr, int(jr.size()));
    for (std::size_t a = 0; a < at.size(); ++a) x_[at[a]] = x_i[Eigen::Index(a)];
    world.converged = world.converged && s.converged;
    world.iterations = std::max(world.iterations, s.iterations);
    world.r_p = std::max(world.r_p, s.r_p);
    world.r_d = std::max(world.r_d, s.r_d);
    world.r_c = std::max(world.r_c, s.r_c);
  }
  return world;
}

// One step's host copies and free velocities, shared by the stages of HostSolver::step.
struct HostSolver::StepData {
  const Model& m;
  int nb = 0;
  std::vector<spatial_vector> f, qd;  // external wrench [N, N m]; start velocities
  std::vector<transform> q;           // start poses
  std::vector<vec3> com;
  std::vector<mat33> I, I_inv;
  std::vector<real> inv_mass, mass;
  std::vector<int> flags;
  std::vector<BodyInverse> inv;  // per body: inverse mass and world inverse inertia (zero: immovable)
  std::vector<spatial_vector> v;      // free velocities
  std::vector<vec3> c_w;              // world COMs [m]
  VectorXr b;                  // the Delassus right-hand side
  std::vector<real> mu;               // per contact row

  explicit StepData(const Model& model) : m(model) {}
  Eigen::Matrix<real, 6, 1> twist(int k) const {
    Eigen::Matrix<real, 6, 1> vk;
    vk << v[k].lin.x, v[k].lin.y, v[k].lin.z, v[k].ang.x, v[k].ang.y, v[k].ang.z;
    return vk;
  }
};

// The step, stage by stage (Kamino's Euler integration, course E3 §6).
inline void HostSolver::step(const State& in, State& out, const Control& control, const ContactsView* contacts,
                       real h) {
  if (&in == &out) throw std::invalid_argument("HostSolver.step: state_in and state_out must be different States");
  if (!(h > 0)) throw std::invalid_argument("HostSolver.step: dt must be > 0 s");
  StepData s(*model_);
  free_velocities(s, in, control, h);  // forward dynamics without joints and contacts
  build_joint_rows(s);                 // bilateral rows from the poses of state_in
  build_contact_rows(s, contacts);     // contact rows from the record
  assemble_problem(s, h);              // b = J v_free + bias, warm start
  solve_problem(s);                    // PADMM per island; keep the impulse histories
  integrate(s, out, h);                // velocities with J^T x, then poses
}

// Free velocities (Euler: forward dynamics without contacts).
inline void HostSolver::free_velocities(StepData& s, const State& in, const Control& control, real h) const {
  const Model& m = s.m;
  const int nb = s.nb = m.body_count;
  Buffer<spatial_vector> wrench(m.device, nb);
  gather_body_wrenches(m, in, control, wrench.view());
  s.f = wrench.to_host();
  s.q = in.body_q.to_host();
  s.qd = in.body_qd.to_host();
  s.com = m.body_com.to_host();
  s.I = m.body_inertia.to_host();
  s.I_inv = m.body_inv_inertia.to_host();
  s.inv_mass = m.body_inv_mass.to_host();
  s.mass = m.body_mass.to_host();
  s.flags = m.body_flags.to_host();
  s.inv.assign(nb, BodyInverse{});
  s.v.assign(nb, spatial_vector{});
  s.c_w.assign(nb, vec3{});
  for (int b = 0; b < nb; ++b) {
    s.c_w[b] = world_com(s.q[b], s.com[b]);
    s.v[b] = s.qd[b];
    if (s.flags[b] & int(BodyFlag::kinematic) || !(s.inv_mass[b] > 0)) continue;
    mat33 R = quat_to_mat33(s.q[b].q);
    s.inv[b] = {s.inv_mass[b], R * s.I_inv[b] * transpose(R)};
    mat33 I_w = R * s.I[b] * transpose(R);
    spatial_vector f_ext{s.f[b].lin + s.mass[b] * m.gravity, s.f[b].ang - cross(s.qd[b].ang, I_w * s.qd[b].ang)};
    s.v[b] = discrete_velocity_update(s.qd[b], s.inv[b].inv_m, s.inv[b].inv_I_w, h, f_ext, spatial_vector{});
  }
}

// Joint rows from the poses of state_in (a joint between two immovable sides has none).
inline void HostSolver::build_joint_rows(StepData& s) {
  const Model& m = s.m;
  auto j_type = m.joint_type.to_host();
  auto j_parent = m.joint_parent.to_host(), j_child = m.joint_child.to_host();
  auto j_X_p = m.joint_X_p.to_host(), j_X_c = m.joint_X_c.to_host();
  auto j_axes = m.joint_axes.to_host();
  auto movable = [&](int k) { return k >= 0 && s.inv[k].inv_m > 0; };
  joint_rows_.clear();
  for (int j = 0; j < m.joint_count; ++j) {
    const int p = j_parent[j], c = j_child[j];
    if (!movable(p) && !movable(c)) continue;
    transform X_wp = p >= 0 ? transform_multiply(s.q[p], j_X_p[j]) : j_X_p[j];
    transform X_wc = transform_multiply(s.q[c], j_X_c[j]);
    append_joint_rows(j, JointType(j_type[j]), p, c, X_wp, X_wc, p >= 0 ? s.c_w[p] : vec3{}, s.c_w[c], j_axes[j],
                      joint_rows_);
  }
}

// Contact rows from the record.
inline void HostSolver::build_contact_rows(StepData& s, const ContactsView* contacts) {
  const Model& m = s.m;
  rows_.clear();
  keys_.clear();
  if (!contacts) return;
  Device d = m.device;
  const int n = checked_contact_count(*contacts, m, "HostSolver.step");
  check_contact_material_path(*contacts, SolverPath::semi_implicit, SolverPath::featherstone, "HostSolver.step");
  auto s0 = view_to_host(contacts->rigid_contact_shape0, d, n), s1 = view_to_host(contacts->rigid_contact_shape1, d, n);
  auto p0 = view_to_host(contacts->rigid_contact_point0, d, n), p1 = view_to_host(contacts->rigid_contact_point1, d, n);
  auto nrm = view_to_host(contacts->rigid_contact_normal, d, n);
  auto t0 = view_to_host(contacts->rigid_contact_margin0, d, n), t1 = view_to_host(contacts->rigid_contact_margin1, d, n);
  auto mu = view_to_host(contacts->rigid_contact_mu, d, n);
  const std::vector<int> shape_body = m.shape_body.to_host();
  const View<const int> body{shape_body.data(), std::int64_t(shape_body.size())};
  std::map<std::pair<int, int>, int> ordinal;
  for (int i = 0; i < n; ++i) {
    ContactRow r;
    const ContactRowBodies rb = contact_row_bodies(body, s0[i], s1[i]);  // shapes checked by checked_contact_count
    r.body0 = rb.body0;
    r.body1 = rb.body1;
    r.n = nrm[i];
    tangent_basis(r.n, r.t1, r.t2);
    vec3 x0 = (r.body0 >= 0 ? transform_point(s.q[r.body0], p0[i]) : p0[i]) + t0[i] * r.n;
    vec3 x1 = (r.body1 >= 0 ? transform_point(s.q[r.body1], p1[i]) : p1[i]) - t1[i] * r.n;
    r.r0 = x0 - (r.body0 >= 0 ? s.c_w[r.body0] : vec3{});
    r.r1 = x1 - (r.body1 >= 0 ? s.c_w[r.body1] : vec3{});
    r.d = dot(r.n, x1 - x0);
    r.mu = mu[i];
    rows_.push_back(r);
    keys_.emplace_back(s0[i], s1[i], ordinal[{s0[i], s1[i]}]++);
  }
}

// The Delassus problem: b = J v_free + bias (joints: Baumgarte alpha C / h; contacts: speculative
// approach d / h, stabilisation of penetration), joint rows first; the warm start from the histories.
inline void HostSolver::assemble_problem(StepData& s, real h) {
  const int nj = int(joint_rows_.size()), nc = int(rows_.size());
  s.b = VectorXr(nj + 3 * nc);
  s.mu.assign(nc, 0);
  x_ = VectorXr::Zero(nj + 3 * nc);
  const bool warm = settings_.warmstart_mode == WarmstartMode::containers;
  for (int i = 0; i < nj; ++i) {
    const JointRow& r = joint_rows_[i];
    s.b[i] = r.g1.dot(s.twist(r.body1)) + (r.body0 >= 0 ? r.g0.dot(s.twist(r.body0)) : real(0)) +
             settings_.joint_stabilization * r.c / h;
    if (warm && int(joint_history_.size()) == nj) x_[i] = settings_.warmstart_scale * joint_history_[i];
  }
  for (int i = 0; i < nc; ++i) {
    Vector3r u = Vector3r::Zero();
    for (int k : {rows_[i].body0, rows_[i].body1}) {
      if (k < 0) continue;
      u += contact_jacobian_block(rows_[i], k) * s.twist(k);
    }
    real d = rows_[i].d;
    u[0] += (d >= 0 ? d : settings_.contact_stabilization * d) / h;
    s.b.segment<3>(nj + 3 * i) = u;
    s.mu[i] = rows_[i].mu;
    if (warm) {
      auto it = history_.find(keys_[i]);
      if (it != history_.end())
        x_.segment<3>(nj + 3 * i) = settings_.warmstart_scale * Vector3r(it->second.x, it->second.y, it->second.z);
    }
  }
}

// PADMM on each island; the impulses are kept as the next step's warm start.
inline void HostSolver::solve_problem(StepData& s) {
  const int nj = int(joint_rows_.size()), nc = int(rows_.size());
  status_[0] = solve_islands(s.inv, s.b, s.mu);
  joint_history_.assign(x_.data(), x_.data() + nj);
  history_.clear();
  for (int i = 0; i < nc; ++i) history_[keys_[i]] = {x_[nj + 3 * i], x_[nj + 3 * i + 1], x_[nj + 3 * i + 2]};
}

// Velocities with the joint and contact impulses J^T x, then poses with the new velocities.
inline void HostSolver::integrate(StepData& s, State& out, real h) {
  const int nb = s.nb, nj = int(joint_rows_.size()), nc = int(rows_.size());
  std::vector<spatial_vector> Jtp(nb);
  auto apply = [&](int k, const Eigen::Matrix<real, 6, 1>& g) {
    Jtp[k].lin += vec3{g[0], g[1], g[2]};
    Jtp[k].ang += vec3{g[3], g[4], g[5]};
  };
  for (int i = 0; i < nj; ++i) {
    const JointRow& r = joint_rows_[i];
    apply(r.body1, r.g1.transpose() * x_[i]);
    if (r.body0 >= 0) apply(r.body0, r.g0.transpose() * x_[i]);
  }
  for (int i = 0; i < nc; ++i)
    for (int k : {rows_[i].body0, rows_[i].body1})
      if (k >= 0) apply(k, contact_jacobian_block(rows_[i], k).transpose() * x_.segment<3>(nj + 3 * i));
  std::vector<transform> q_out(s.q);
  std::vector<spatial_vector> qd_out(s.qd);
  for (int b = 0; b < nb; ++b) {
    if (s.flags[b] & int(BodyFlag::kinematic) || !(s.inv_mass[b] > 0)) continue;
    spatial_vector vn = discrete_velocity_update(s.v[b], s.inv[b].inv_m, s.inv[b].inv_I_w, h, spatial_vector{}, Jtp[b]);
    quat r = quat_update(s.q[b].q, vn.ang, h);
    q_out[b] = {origin_from_com(s.c_w[b] + h * vn.lin, r, s.com[b]), r};
    qd_out[b] = vn;
  }
  out.body_q.copy_from_host(q_out.data());
  out.body_qd.copy_from_host(qd_out.data());
  last_dt_ = h;
}

inline void HostSolver::update_contacts(ContactsView& contacts, const State&) const {
  if (contacts.force.size == 0)
    throw std::invalid_argument("HostSolver.update_contacts: contacts.force was not requested");
  int n = view_to_host(contacts.rigid_contact_count, model_->device, 1)[0];
  if (n != int(rows_.size()) || contacts.force.size < n)
    throw std::invalid_argument("HostSolver.update_contacts: the contact record changed since the last step");
  std::vector<spatial_vector> out(n);
  const int nj = int(joint_rows_.size());
  for (int i = 0; i < n; ++i) {
    const ContactRow& r = rows_[i];
    const int o = nj + 3 * i;
    vec3 f1 = (x_[o] * r.n + x_[o + 1] * r.t1 + x_[o + 2] * r.t2) / last_dt_;
    out[i] = {-f1, cross(r.r0, -f1)};
  }
  if (n > 0) device_copy(contacts.force.data, model_->device, out.data(), Device::cpu, sizeof(spatial_vector) * n);
}


}  // namespace impulse::padmm_reference
