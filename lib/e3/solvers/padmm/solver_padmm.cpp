// SolverPADMM (course E3 §6): host code.
#include "e3/solvers/padmm/solver_padmm.h"
#include "e3/contacts/contact_row.h"
#include "e3/contacts/contact_materials.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/eigen.h"
#include "core/segments.h"
#include "e1/integrator.h"
#include "e3/joints/maximal_joint.h"

namespace impulse {

namespace {

Matrix3r skew(vec3 r) {
  Matrix3r s;
  s << 0, -r.z, r.y, r.z, 0, -r.x, -r.y, r.x, 0;
  return s;
}

}  // namespace

Eigen::Matrix<real, 3, 6> contact_jacobian_block(const PADMMContactRow& c, int k) {
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

namespace {

Eigen::Matrix<real, 1, 6> lin_row(vec3 e, vec3 r) {
  vec3 rxe = cross(r, e);
  Eigen::Matrix<real, 1, 6> g;
  g << e.x, e.y, e.z, rxe.x, rxe.y, rxe.z;
  return g;
}

Eigen::Matrix<real, 1, 6> ang_row(vec3 e) {
  Eigen::Matrix<real, 1, 6> g;
  g << 0, 0, 0, e.x, e.y, e.z;
  return g;
}


}  // namespace

void append_joint_rows(int joint, JointType type, int body0, int body1, const transform& Xp, const transform& Xc,
                       vec3 c_p, vec3 c_c, const JointAxes& axes, std::vector<PADMMJointRow>& out) {
  if (type == JointType::free) return;
  if (!maximal_joint_supported(type))
    throw std::invalid_argument("SolverPADMM: joint " + std::to_string(joint) + " has type " + joint_type_name(type) +
                                "; supported: FREE, BALL, REVOLUTE, PRISMATIC, FIXED");
  const vec3 r_p = Xp.p - c_p, r_c = Xc.p - c_c;
  // The constrained errors C of the rows, shared with the penalty and VBD joints (maximal_joint.h).
  const JointErrors err = joint_errors(type, axes, JointFrames{Xp, Xc, r_p, r_c});
  auto add = [&](Eigen::Matrix<real, 1, 6> g1, Eigen::Matrix<real, 1, 6> g0, real c) {
    PADMMJointRow r;
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

MatrixXr assemble_delassus(const std::vector<PADMMContactRow>& rows, const std::vector<PADMMBodyInverse>& bodies) {
  return assemble_delassus({}, rows, bodies);
}

MatrixXr assemble_delassus(const std::vector<PADMMJointRow>& joints, const std::vector<PADMMContactRow>& rows,
                                  const std::vector<PADMMBodyInverse>& bodies) {
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

SolverPADMM::SolverPADMM(const Model& model, const PADMMSettings& settings)
    : model_(&model), settings_(settings), status_(1) {
  settings_.validate();
  if (model.device != Device::cpu) throw std::invalid_argument("SolverPADMM: the model must be on the CPU (host solver)");
  require_maximal_joints(model, "SolverPADMM");
}

void SolverPADMM::reset() {
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
PADMMStatus SolverPADMM::solve_islands(const std::vector<PADMMBodyInverse>& inv, const VectorXr& b,
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
    std::vector<PADMMJointRow> jr;
    std::vector<PADMMContactRow> cr;
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
    const PADMMStatus s = padmm_solve(W, b_i, mu_i, settings_, x_i, nullptr, int(jr.size()));
    for (std::size_t a = 0; a < at.size(); ++a) x_[at[a]] = x_i[Eigen::Index(a)];
    world.converged = world.converged && s.converged;
    world.iterations = std::max(world.iterations, s.iterations);
    world.r_p = std::max(world.r_p, s.r_p);
    world.r_d = std::max(world.r_d, s.r_d);
    world.r_c = std::max(world.r_c, s.r_c);
  }
  return world;
}

// One step's host copies and free velocities, shared by the stages of SolverPADMM::step.
struct SolverPADMM::StepData {
  const Model& m;
  int nb = 0;
  std::vector<spatial_vector> f, qd;  // external wrench [N, N m]; start velocities
  std::vector<transform> q;           // start poses
  std::vector<vec3> com;
  std::vector<mat33> I, I_inv;
  std::vector<real> inv_mass, mass;
  std::vector<int> flags;
  std::vector<PADMMBodyInverse> inv;  // per body: inverse mass and world inverse inertia (zero: immovable)
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
void SolverPADMM::step(const State& in, State& out, const Control& control, const ContactsView* contacts,
                       real h) {
  if (&in == &out) throw std::invalid_argument("SolverPADMM.step: state_in and state_out must be different States");
  if (!(h > 0)) throw std::invalid_argument("SolverPADMM.step: dt must be > 0 s");
  StepData s(*model_);
  free_velocities(s, in, control, h);  // forward dynamics without joints and contacts
  build_joint_rows(s);                 // bilateral rows from the poses of state_in
  build_contact_rows(s, contacts);     // contact rows from the record
  assemble_problem(s, h);              // b = J v_free + bias, warm start
  solve_problem(s);                    // PADMM per island; keep the impulse histories
  integrate(s, out, h);                // velocities with J^T x, then poses
}

// Free velocities (Euler: forward dynamics without contacts).
void SolverPADMM::free_velocities(StepData& s, const State& in, const Control& control, real h) const {
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
  s.inv.assign(nb, PADMMBodyInverse{});
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
void SolverPADMM::build_joint_rows(StepData& s) {
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
void SolverPADMM::build_contact_rows(StepData& s, const ContactsView* contacts) {
  const Model& m = s.m;
  rows_.clear();
  keys_.clear();
  if (!contacts) return;
  Device d = m.device;
  const int n = checked_contact_count(*contacts, m, "SolverPADMM.step");
  check_contact_material_path(*contacts, SolverPath::semi_implicit, SolverPath::featherstone, "SolverPADMM.step");
  auto s0 = view_to_host(contacts->rigid_contact_shape0, d, n), s1 = view_to_host(contacts->rigid_contact_shape1, d, n);
  auto p0 = view_to_host(contacts->rigid_contact_point0, d, n), p1 = view_to_host(contacts->rigid_contact_point1, d, n);
  auto nrm = view_to_host(contacts->rigid_contact_normal, d, n);
  auto t0 = view_to_host(contacts->rigid_contact_margin0, d, n), t1 = view_to_host(contacts->rigid_contact_margin1, d, n);
  auto mu = view_to_host(contacts->rigid_contact_mu, d, n);
  const std::vector<int> shape_body = m.shape_body.to_host();
  const View<const int> body{shape_body.data(), std::int64_t(shape_body.size())};
  std::map<std::pair<int, int>, int> ordinal;
  for (int i = 0; i < n; ++i) {
    PADMMContactRow r;
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
void SolverPADMM::assemble_problem(StepData& s, real h) {
  const int nj = int(joint_rows_.size()), nc = int(rows_.size());
  s.b = VectorXr(nj + 3 * nc);
  s.mu.assign(nc, 0);
  x_ = VectorXr::Zero(nj + 3 * nc);
  const bool warm = settings_.warmstart_mode == WarmstartMode::containers;
  for (int i = 0; i < nj; ++i) {
    const PADMMJointRow& r = joint_rows_[i];
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
void SolverPADMM::solve_problem(StepData& s) {
  const int nj = int(joint_rows_.size()), nc = int(rows_.size());
  status_[0] = solve_islands(s.inv, s.b, s.mu);
  joint_history_.assign(x_.data(), x_.data() + nj);
  history_.clear();
  for (int i = 0; i < nc; ++i) history_[keys_[i]] = {x_[nj + 3 * i], x_[nj + 3 * i + 1], x_[nj + 3 * i + 2]};
}

// Velocities with the joint and contact impulses J^T x, then poses with the new velocities.
void SolverPADMM::integrate(StepData& s, State& out, real h) {
  const int nb = s.nb, nj = int(joint_rows_.size()), nc = int(rows_.size());
  std::vector<spatial_vector> Jtp(nb);
  auto apply = [&](int k, const Eigen::Matrix<real, 6, 1>& g) {
    Jtp[k].lin += vec3{g[0], g[1], g[2]};
    Jtp[k].ang += vec3{g[3], g[4], g[5]};
  };
  for (int i = 0; i < nj; ++i) {
    const PADMMJointRow& r = joint_rows_[i];
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

void SolverPADMM::update_contacts(ContactsView& contacts, const State&) const {
  if (contacts.force.size == 0)
    throw std::invalid_argument("SolverPADMM.update_contacts: contacts.force was not requested");
  int n = view_to_host(contacts.rigid_contact_count, model_->device, 1)[0];
  if (n != int(rows_.size()) || contacts.force.size < n)
    throw std::invalid_argument("SolverPADMM.update_contacts: the contact record changed since the last step");
  std::vector<spatial_vector> out(n);
  const int nj = int(joint_rows_.size());
  for (int i = 0; i < n; ++i) {
    const PADMMContactRow& r = rows_[i];
    const int o = nj + 3 * i;
    vec3 f1 = (x_[o] * r.n + x_[o + 1] * r.t1 + x_[o + 2] * r.t2) / last_dt_;
    out[i] = {-f1, cross(r.r0, -f1)};
  }
  if (n > 0) device_copy(contacts.force.data, model_->device, out.data(), Device::cpu, sizeof(spatial_vector) * n);
}

}  // namespace impulse
