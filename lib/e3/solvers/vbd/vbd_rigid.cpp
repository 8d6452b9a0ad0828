// SolverVBD, rigid bodies with compliant-ALM normal contacts (course E3 §6): host code.
#include "e3/solvers/vbd/vbd_rigid.h"
#include "e3/contacts/contact_row.h"
#include "e3/contacts/contact_materials.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Dense>

#include "core/eigen.h"
#include "core/segments.h"
#include "e1/integrator.h"
#include "e3/joints/maximal_joint.h"

namespace impulse {

namespace {

// Rotation vector of q relative to p (q = exp(theta) p), shortest way round.
vec3 rotation_between(quat p, quat q) { return quat_rotation_vector(quat_mul(q, quat_conjugate(p))); }

// Skew matrix S(r) with S(r) w = r x w.
Matrix3r skew(vec3 r) {
  Matrix3r S;
  S << 0, -r.z, r.y, r.z, 0, -r.x, -r.y, r.x, 0;
  return S;
}

// Projector removing the unit direction a (a = 0 gives the identity).
Matrix3r remove_direction(vec3 a) {
  Vector3r v(a.x, a.y, a.z);
  return Matrix3r::Identity() - v * v.transpose();
}

}  // namespace

SolverVBD::SolverVBD(const Model& model, int iters, real rho_, real eps_v)
    : iterations(iters), rho(rho_), friction_epsilon(eps_v), model_(&model) {
  if (!(eps_v > 0)) throw std::invalid_argument("SolverVBD: friction_epsilon must be > 0 m/s");
  if (iters < 1) throw std::invalid_argument("SolverVBD: iterations must be >= 1 (got " + std::to_string(iters) + ")");
  if (!(rho_ > 0)) throw std::invalid_argument("SolverVBD: rho must be > 0 N/m");
  if (model.device != Device::cpu) throw std::invalid_argument("SolverVBD: the model must be on the CPU (host solver)");
  require_maximal_joints(model, "SolverVBD");
  reset();
}

void SolverVBD::reset() {
  lambda_.clear();
  body_q_prev_.clear();
  joint_lambda_lin_.assign(model_->joint_count, vec3{});
  joint_lambda_ang_.assign(model_->joint_count, vec3{});
}

spatial_vector SolverVBD::joint_lambda(int j) const {
  if (j < 0 || j >= model_->joint_count)
    throw std::invalid_argument("SolverVBD.joint_lambda: joint " + std::to_string(j) + " does not exist");
  return {joint_lambda_lin_[j], joint_lambda_ang_[j]};
}

void SolverVBD::update_contacts(ContactsView&) const {
  throw UpdateContactsNotImplemented("SolverVBD (use collect_rigid_contact_forces)");
}

std::vector<SolverVBD::Row> SolverVBD::read_rows(const ContactsView& c) const {
  Device d = model_->device;
  const int n = checked_contact_count(c, *model_, "SolverVBD");
  check_contact_material_path(c, SolverPath::vbd, SolverPath::vbd, "SolverVBD");
  auto s0 = view_to_host(c.rigid_contact_shape0, d, n), s1 = view_to_host(c.rigid_contact_shape1, d, n);
  auto p0 = view_to_host(c.rigid_contact_point0, d, n), p1 = view_to_host(c.rigid_contact_point1, d, n);
  auto nrm = view_to_host(c.rigid_contact_normal, d, n);
  auto t0 = view_to_host(c.rigid_contact_margin0, d, n), t1 = view_to_host(c.rigid_contact_margin1, d, n);
  auto ke = view_to_host(c.rigid_contact_ke, d, n), kd = view_to_host(c.rigid_contact_kd, d, n), mu = view_to_host(c.rigid_contact_mu, d, n);
  const std::vector<int> shape_body = model_->shape_body.to_host();
  const View<const int> body{shape_body.data(), std::int64_t(shape_body.size())};
  std::map<std::pair<int, int>, int> ordinal;
  std::vector<Row> rows;
  for (int i = 0; i < n; ++i)  // shapes checked by checked_contact_count
    rows.push_back({contact_row_bodies(body, s0[i], s1[i]).body0, contact_row_bodies(body, s0[i], s1[i]).body1, p0[i], p1[i], nrm[i], t0[i], t1[i], ke[i], kd[i], mu[i],
                    {s0[i], s1[i], ordinal[{s0[i], s1[i]}]++}});
  return rows;
}

real SolverVBD::gap(const Row& r, const std::vector<transform>& q) const {
  vec3 x0 = (r.body0 >= 0 ? transform_point(q[r.body0], r.p0) : r.p0) + r.m0 * r.n;
  vec3 x1 = (r.body1 >= 0 ? transform_point(q[r.body1], r.p1) : r.p1) - r.m1 * r.n;
  return dot(r.n, x1 - x0);
}

vec3 SolverVBD::slip_velocity(const Row& r, const std::vector<transform>& now, const std::vector<transform>& prev,
                              real dt) const {
  auto point = [&](int b, vec3 p, const std::vector<transform>& X) { return b >= 0 ? transform_point(X[b], p) : p; };
  vec3 u = ((point(r.body1, r.p1, now) - point(r.body1, r.p1, prev)) - (point(r.body0, r.p0, now) - point(r.body0, r.p0, prev))) / dt;
  return u - dot(u, r.n) * r.n;
}

// One step's host copies, rows and iterates, shared by the stages of SolverVBD::step.
struct SolverVBD::StepData {
  const Model& m;
  int nb = 0, nj = 0;
  std::vector<spatial_vector> f, v0;  // external wrench [N, N m]; start velocities
  std::vector<transform> q0, q;       // start poses; the iterate
  std::vector<vec3> com;
  std::vector<mat33> I, I_inv;
  std::vector<real> mass, inv_mass;
  std::vector<int> flags;
  std::vector<int> jtype, jparent, jchild, jqd_start;
  std::vector<transform> jX_p, jX_c;
  std::vector<JointAxes> jaxes;
  std::vector<real> joint_f;
  std::vector<std::vector<int>> body_joints;  // attached (non-FREE) joints of each body, in joint order
  // Per joint, its linear and angular rows: hard (k = infinity), so k_eff = the row's metric, s = 1.
  std::vector<CompliantAlmCoefficients> jc_lin, jc_ang;
  std::vector<Row> rows;
  std::vector<real> lam;                      // per row: normal multiplier [N]
  std::vector<std::int64_t> row_start, row_entry;  // the rows touching each body (entry = 2 * row + side)
  std::vector<vec3> c_tilde;                  // inertial targets: COM [m] and orientation
  std::vector<quat> q_tilde;

  explicit StepData(const Model& model) : m(model) {}
  bool dynamic(int b) const { return b >= 0 && !(flags[b] & int(BodyFlag::kinematic)) && inv_mass[b] > 0; }
  JointFrames frames(int j, const std::vector<transform>& X) const {
    int p = jparent[j], c = jchild[j];
    return joint_frames(p >= 0, p >= 0 ? X[p] : transform_identity(), p >= 0 ? com[p] : vec3{}, X[c], com[c], jX_p[j],
                        jX_c[j]);
  }
  // Force and torque of joint j on its child at the poses X (the multiplier after one dual step).
  spatial_vector joint_reaction(int j, const std::vector<transform>& X, JointFrames& fr, JointErrors& e,
                                const std::vector<vec3>& lambda_lin, const std::vector<vec3>& lambda_ang) const {
    JointType t = JointType(jtype[j]);
    fr = frames(j, X);
    e = joint_errors(t, jaxes[j], fr);
    return spatial_vector{-jc_lin[j].k_eff * e.lin + jc_lin[j].s * lambda_lin[j],
                          -jc_ang[j].k_eff * e.ang + jc_ang[j].s * lambda_ang[j]};
  }
  real separation_speed(const Row& r, const std::vector<transform>& now, real h) const {
    auto point = [&](int b, vec3 p, const std::vector<transform>& X) { return b >= 0 ? transform_point(X[b], p) : p; };
    return dot(r.n, (point(r.body1, r.p1, now) - point(r.body1, r.p1, q0)) - (point(r.body0, r.p0, now) - point(r.body0, r.p0, q0))) / h;
  }
};

// The step, stage by stage (course E3 §6).
void SolverVBD::step(const State& in, State& out, const Control& control, const ContactsView* contacts, real h) {
  if (&in == &out) throw std::invalid_argument("SolverVBD.step: state_in and state_out must be different States");
  if (!(h > 0)) throw std::invalid_argument("SolverVBD.step: dt must be > 0 s");
  const Model& m = *model_;
  if (control.joint_f.size != 0 && control.joint_f.size != m.joint_dof_count)
    throw std::invalid_argument("SolverVBD.step: control.joint_f has the wrong length");
  StepData s(m);
  gather_forces(s, in, control);  // body_f, and joint_f as wrenches on the start poses
  prepare_rows(s, contacts);      // contact rows with their multipliers, per-body row and joint lists
  joint_metrics(s, h);            // each joint row's metric from its bodies' inertial support
  predict_targets(s, h);          // inertial targets, the initial guess
  for (int it = 0; it < iterations; ++it) {
    sweep_bodies(s, h);           // one sweep of per-body 6x6 Newton steps
    dual_update(s, h);            // multipliers at the new poses
  }
  finish_step(s, out, h);         // keep the multipliers; velocities from the pose history
}

void SolverVBD::gather_forces(StepData& s, const State& in, const Control& control) {
  const Model& m = s.m;
  s.nb = m.body_count;
  Buffer<spatial_vector> wrench(m.device, s.nb);
  gather_body_wrenches(m, in, control, wrench.view());
  s.f = wrench.to_host();
  s.q0 = in.body_q.to_host();
  s.v0 = in.body_qd.to_host();
  s.com = m.body_com.to_host();
  s.I = m.body_inertia.to_host();
  s.I_inv = m.body_inv_inertia.to_host();
  s.mass = m.body_mass.to_host();
  s.inv_mass = m.body_inv_mass.to_host();
  s.flags = m.body_flags.to_host();
  body_q_prev_ = s.q0;

  // Joints: host copies, and the actuation wrenches of joint_f on the start poses (constant over the step).
  s.nj = m.joint_count;
  s.jtype = m.joint_type.to_host();
  s.jparent = m.joint_parent.to_host(), s.jchild = m.joint_child.to_host();
  s.jX_p = m.joint_X_p.to_host(), s.jX_c = m.joint_X_c.to_host();
  s.jaxes = m.joint_axes.to_host();
  s.jqd_start = m.joint_qd_start.to_host();
  s.joint_f = control.joint_f.size > 0 ? view_to_host(View<const real>(control.joint_f), m.device, m.joint_dof_count)
                                       : std::vector<real>{};
  for (int j = 0; j < s.nj && !s.joint_f.empty(); ++j) {
    JointType t = JointType(s.jtype[j]);
    if (t == JointType::free) continue;
    JointFrames fr = s.frames(j, s.q0);
    vec3 fa{}, ta{};
    joint_actuation(t, joint_errors(t, s.jaxes[j], fr), fr, &s.joint_f[s.jqd_start[j]], fa, ta);
    JointWrench w = joint_wrench_pair(fr, fa, ta);
    if (s.jparent[j] >= 0) {
      s.f[s.jparent[j]].lin += w.on_parent.lin;
      s.f[s.jparent[j]].ang += w.on_parent.ang;
    }
    s.f[s.jchild[j]].lin += w.on_child.lin;
    s.f[s.jchild[j]].ang += w.on_child.ang;
  }
}

void SolverVBD::prepare_rows(StepData& s, const ContactsView* contacts) const {
  // The attached (non-FREE) joints of each body, in joint order.
  s.body_joints.assign(s.nb, {});
  for (int j = 0; j < s.nj; ++j) {
    if (JointType(s.jtype[j]) == JointType::free) continue;
    s.body_joints[s.jchild[j]].push_back(j);
    if (s.jparent[j] >= 0) s.body_joints[s.jparent[j]].push_back(j);
  }
  s.rows = contacts ? read_rows(*contacts) : std::vector<Row>{};
  s.lam.assign(s.rows.size(), 0);
  for (std::size_t i = 0; i < s.rows.size(); ++i) {
    auto it = lambda_.find(s.rows[i].key);
    if (it != lambda_.end()) s.lam[i] = it->second;
  }
  // The rows touching each body, in row order (entry = 2 * row + side): O(bodies + rows) per sweep.
  std::vector<int> row_sides(2 * s.rows.size());
  for (std::size_t i = 0; i < s.rows.size(); ++i) {
    row_sides[2 * i] = s.rows[i].body0;
    row_sides[2 * i + 1] = s.rows[i].body1 == s.rows[i].body0 ? -1 : s.rows[i].body1;
  }
  build_segments(s.nb, row_sides, s.row_start, s.row_entry);
}

// Each joint's linear and angular metric (joint_row_metric): the sums of its dynamic sides' 1/m and
// trace(I^-1)/3.
void SolverVBD::joint_metrics(StepData& s, real h) const {
  s.jc_lin.assign(s.nj, {});
  s.jc_ang.assign(s.nj, {});
  for (int j = 0; j < s.nj; ++j) {
    real w_lin = 0, w_ang = 0;
    for (int b : {s.jparent[j], s.jchild[j]}) {
      if (!s.dynamic(b)) continue;
      w_lin += s.inv_mass[b];
      w_ang += (s.I_inv[b].m[0][0] + s.I_inv[b].m[1][1] + s.I_inv[b].m[2][2]) / 3;
    }
    const real k = std::numeric_limits<real>::infinity();
    s.jc_lin[j] = compliant_alm_coefficients(k, joint_row_metric(rho, w_lin, h));
    s.jc_ang[j] = compliant_alm_coefficients(k, joint_row_metric(rho, w_ang, h));
  }
}

// Inertial targets (the unconstrained prediction) and the initial guess.
void SolverVBD::predict_targets(StepData& s, real h) const {
  s.c_tilde.assign(s.nb, vec3{});
  s.q_tilde.assign(s.nb, quat{});
  s.q = s.q0;
  for (int b = 0; b < s.nb; ++b) {
    if (!s.dynamic(b)) continue;
    vec3 c = world_com(s.q0[b], s.com[b]), v = s.v0[b].lin;
    linear_update(v, c, s.f[b].lin, s.inv_mass[b], s.m.gravity, h);
    s.c_tilde[b] = c;
    s.q_tilde[b] = quat_update(s.q0[b].q, angular_update(s.q0[b].q, s.v0[b].ang, s.f[b].ang, s.I[b], s.I_inv[b], h), h);
    s.q[b] = {origin_from_com(s.c_tilde[b], s.q_tilde[b], s.com[b]), s.q_tilde[b]};
  }
}

// One sweep of per-body 6x6 Newton steps (block coordinate descent, bodies in order).
void SolverVBD::sweep_bodies(StepData& s, real h) const {
  auto angular_projector = [&](JointType t, const JointErrors& e) -> Matrix3r {
    if (t == JointType::ball) return Matrix3r::Zero();
    if (t == JointType::revolute) return remove_direction(e.axis_p);
    return Matrix3r::Identity();
  };
  std::vector<transform>& q = s.q;
  for (int b = 0; b < s.nb; ++b) {
    if (!s.dynamic(b)) continue;
    mat33 R = quat_to_mat33(q[b].q);
    Matrix3r I_w = to_eigen(R * s.I[b] * transpose(R));
    vec3 c = world_com(q[b], s.com[b]);
    Eigen::Matrix<real, 6, 6> H = Eigen::Matrix<real, 6, 6>::Zero();
    Eigen::Matrix<real, 6, 1> g;
    H.topLeftCorner<3, 3>() = s.mass[b] / (h * h) * Matrix3r::Identity();
    H.bottomRightCorner<3, 3>() = I_w / (h * h);
    vec3 dc = c - s.c_tilde[b], dth = rotation_between(s.q_tilde[b], q[b].q);
    g.head<3>() = s.mass[b] / (h * h) * Vector3r(dc.x, dc.y, dc.z);
    g.tail<3>() = I_w / (h * h) * Vector3r(dth.x, dth.y, dth.z);
    for (std::int64_t k = s.row_start[b]; k < s.row_start[b + 1]; ++k) {
      const std::size_t i = std::size_t(s.row_entry[k] >> 1);
      const Row& r = s.rows[i];
      CompliantAlmCoefficients cf = compliant_alm_coefficients(r.k, rho);
      real fn = vbd_contact_normal_force(cf, gap(r, q), s.lam[i], r.kd, s.separation_speed(r, q, h));
      if (!(fn > 0)) continue;
      real side = r.body1 == b ? 1 : -1;
      vec3 x = r.body1 == b ? transform_point(q[b], r.p1) - r.m1 * r.n : transform_point(q[b], r.p0) + r.m0 * r.n;
      vec3 rxn = cross(x - c, r.n);
      Eigen::Matrix<real, 6, 1> J;
      J << side * r.n.x, side * r.n.y, side * r.n.z, side * rxn.x, side * rxn.y, side * rxn.z;
      g -= fn * J;
      H += (cf.k_eff + r.kd / h) * J * J.transpose();
      // Friction from the slip over the step, with its lagged stiffness on the tangent plane.
      vec3 u_t = slip_velocity(r, q, s.q0, h);
      vec3 ft = side * vbd_friction_force(r.mu, fn, u_t, friction_epsilon);
      Eigen::Matrix<real, 6, 1> F;
      vec3 rxf = cross(x - c, ft);
      F << ft.x, ft.y, ft.z, rxf.x, rxf.y, rxf.z;
      g -= F;
      real kt = r.mu * fn / (std::max(length(u_t), friction_epsilon) * h);
      vec3 t1, t2;
      tangent_basis(r.n, t1, t2);
      for (vec3 t : {t1, t2}) {
        vec3 rxt = cross(x - c, t);
        Eigen::Matrix<real, 6, 1> Jt;
        Jt << t.x, t.y, t.z, rxt.x, rxt.y, rxt.z;
        H += kt * Jt * Jt.transpose();
      }
    }
    for (int j : s.body_joints[b]) {
      JointType t = JointType(s.jtype[j]);
      JointFrames fr;
      JointErrors e;
      spatial_vector F = s.joint_reaction(j, q, fr, e, joint_lambda_lin_, joint_lambda_ang_);
      const bool is_child = s.jchild[j] == b;
      vec3 r = is_child ? fr.r_c : fr.r_p;
      real side = is_child ? 1 : -1;
      vec3 tau = side * (cross(r, F.lin) + F.ang);
      g.head<3>() -= side * Vector3r(F.lin.x, F.lin.y, F.lin.z);
      g.tail<3>() -= Vector3r(tau.x, tau.y, tau.z);
      Matrix3r P = t == JointType::prismatic ? remove_direction(e.axis_p) : Matrix3r::Identity();
      Eigen::Matrix<real, 3, 6> J;
      J.leftCols<3>() = P;
      J.rightCols<3>() = -P * skew(r);
      H += s.jc_lin[j].k_eff * J.transpose() * J;
      H.bottomRightCorner<3, 3>() += s.jc_ang[j].k_eff * angular_projector(t, e);
    }
    Eigen::Matrix<real, 6, 1> d = -H.ldlt().solve(g);
    vec3 dlin{d[0], d[1], d[2]}, dang{d[3], d[4], d[5]};
    quat r_new = quat_update(q[b].q, dang, 1);
    q[b] = {origin_from_com(c + dlin, r_new, s.com[b]), r_new};
  }
}

// Dual ascent once per sweep: the multiplier takes the row's force at the new poses.
void SolverVBD::dual_update(StepData& s, real h) {
  for (std::size_t i = 0; i < s.rows.size(); ++i) {
    CompliantAlmCoefficients cf = compliant_alm_coefficients(s.rows[i].k, rho);
    s.lam[i] = vbd_contact_normal_force(cf, gap(s.rows[i], s.q), s.lam[i], s.rows[i].kd, s.separation_speed(s.rows[i], s.q, h));
  }
  for (int j = 0; j < s.nj; ++j) {
    if (JointType(s.jtype[j]) == JointType::free) continue;
    JointFrames fr;
    JointErrors e;
    spatial_vector F = s.joint_reaction(j, s.q, fr, e, joint_lambda_lin_, joint_lambda_ang_);
    joint_lambda_lin_[j] = F.lin;
    joint_lambda_ang_[j] = F.ang;
  }
}

// The multipliers are kept for the next step; velocities from the pose history.
void SolverVBD::finish_step(StepData& s, State& out, real h) {
  lambda_.clear();
  for (std::size_t i = 0; i < s.rows.size(); ++i) lambda_[s.rows[i].key] = s.lam[i];
  std::vector<spatial_vector> v(s.v0);
  for (int b = 0; b < s.nb; ++b) {
    if (!s.dynamic(b)) continue;
    v[b] = {(world_com(s.q[b], s.com[b]) - world_com(s.q0[b], s.com[b])) / h, rotation_between(s.q0[b].q, s.q[b].q) / h};
  }
  out.body_q.copy_from_host(s.q.data());
  out.body_qd.copy_from_host(v.data());
}

std::vector<VbdContactForce> SolverVBD::collect_rigid_contact_forces(const std::vector<transform>& body_q,
                                                                     const std::vector<transform>& body_q_prev,
                                                                     const ContactsView& contacts, real dt) const {
  if (!(dt > 0)) throw std::invalid_argument("collect_rigid_contact_forces: dt must be > 0 s");
  if (int(body_q.size()) != model_->body_count || body_q_prev.size() != body_q.size())
    throw std::invalid_argument("collect_rigid_contact_forces: body_q and body_q_prev need one pose per body");
  std::vector<VbdContactForce> out;
  for (const Row& r : read_rows(contacts)) {
    auto it = lambda_.find(r.key);
    real lam = it == lambda_.end() ? 0 : it->second;
    auto point = [&](int b, vec3 p, const std::vector<transform>& X) { return b >= 0 ? transform_point(X[b], p) : p; };
    vec3 x0 = point(r.body0, r.p0, body_q) + r.m0 * r.n, x1 = point(r.body1, r.p1, body_q) - r.m1 * r.n;
    real u_n = dot(r.n, (point(r.body1, r.p1, body_q) - point(r.body1, r.p1, body_q_prev)) -
                            (point(r.body0, r.p0, body_q) - point(r.body0, r.p0, body_q_prev))) / dt;
    real fn = vbd_contact_normal_force(compliant_alm_coefficients(r.k, rho), dot(r.n, x1 - x0), lam, r.kd, u_n);
    vec3 ft = vbd_friction_force(r.mu, fn, slip_velocity(r, body_q, body_q_prev, dt), friction_epsilon);
    out.push_back({r.body0, r.body1, x0, x1, fn * r.n + ft});
  }
  return out;
}

}  // namespace impulse
