// SolverVBD, rigid bodies with compliant-ALM normal contacts (course E3 §6): host code.
#include "e3/solvers/vbd/vbd_rigid.h"

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
Eigen::Matrix3d skew(vec3 r) {
  Eigen::Matrix3d S;
  S << 0, -r.z, r.y, r.z, 0, -r.x, -r.y, r.x, 0;
  return S;
}

// Projector removing the unit direction a (a = 0 gives the identity).
Eigen::Matrix3d remove_direction(vec3 a) {
  Eigen::Vector3d v(a.x, a.y, a.z);
  return Eigen::Matrix3d::Identity() - v * v.transpose();
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

void SolverVBD::update_contacts(PenaltyContactsView&) const {
  throw UpdateContactsNotImplemented("SolverVBD (use collect_rigid_contact_forces)");
}

std::vector<SolverVBD::Row> SolverVBD::read_rows(const PenaltyContactsView& c) const {
  Device d = model_->device;
  int n = view_to_host(c.rigid_contact_count, d, 1)[0];
  auto s0 = view_to_host(c.rigid_contact_shape0, d, n), s1 = view_to_host(c.rigid_contact_shape1, d, n);
  auto p0 = view_to_host(c.rigid_contact_point0, d, n), p1 = view_to_host(c.rigid_contact_point1, d, n);
  auto nrm = view_to_host(c.rigid_contact_normal, d, n);
  auto t0 = view_to_host(c.rigid_contact_thickness0, d, n), t1 = view_to_host(c.rigid_contact_thickness1, d, n);
  auto ke = view_to_host(c.rigid_contact_ke, d, n), kd = view_to_host(c.rigid_contact_kd, d, n), mu = view_to_host(c.rigid_contact_mu, d, n);
  auto shape_body = model_->shape_body.to_host();
  std::map<std::pair<int, int>, int> ordinal;
  std::vector<Row> rows;
  for (int i = 0; i < n; ++i)
    rows.push_back({shape_body[s0[i]], shape_body[s1[i]], p0[i], p1[i], nrm[i], t0[i], t1[i], ke[i], kd[i], mu[i],
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

void SolverVBD::step(const State& in, State& out, const Control& control, const PenaltyContactsView* contacts, real h) {
  if (&in == &out) throw std::invalid_argument("SolverVBD.step: state_in and state_out must be different States");
  if (!(h > 0)) throw std::invalid_argument("SolverVBD.step: dt must be > 0 s");
  const Model& m = *model_;
  if (control.joint_f.size != 0 && control.joint_f.size != m.joint_dof_count)
    throw std::invalid_argument("SolverVBD.step: control.joint_f has the wrong length");
  const int nb = m.body_count;
  Buffer<spatial_vector> wrench(m.device, nb);
  gather_body_wrenches(m, in, control, wrench.view());
  auto f = wrench.to_host();
  auto q0 = in.body_q.to_host();
  auto v0 = in.body_qd.to_host();
  auto com = m.body_com.to_host();
  auto I = m.body_inertia.to_host();
  auto I_inv = m.body_inv_inertia.to_host();
  auto mass = m.body_mass.to_host();
  auto inv_mass = m.body_inv_mass.to_host();
  auto flags = m.body_flags.to_host();
  body_q_prev_ = q0;

  // Joints: host copies, and the actuation wrenches of joint_f on the start poses (constant over the step).
  const int nj = m.joint_count;
  auto jtype = m.joint_type.to_host();
  auto jparent = m.joint_parent.to_host(), jchild = m.joint_child.to_host();
  auto jX_p = m.joint_X_p.to_host(), jX_c = m.joint_X_c.to_host();
  auto jaxes = m.joint_axes.to_host();
  auto jqd_start = m.joint_qd_start.to_host();
  std::vector<real> joint_f = control.joint_f.size > 0 ? view_to_host(View<const real>(control.joint_f), m.device, m.joint_dof_count)
                                                      : std::vector<real>{};
  auto frames = [&](int j, const std::vector<transform>& X) {
    int p = jparent[j], c = jchild[j];
    return joint_frames(p >= 0, p >= 0 ? X[p] : transform_identity(), p >= 0 ? com[p] : vec3{}, X[c], com[c], jX_p[j],
                        jX_c[j]);
  };
  for (int j = 0; j < nj && !joint_f.empty(); ++j) {
    JointType t = JointType(jtype[j]);
    if (t == JointType::free) continue;
    JointFrames fr = frames(j, q0);
    vec3 fa{}, ta{};
    joint_actuation(t, joint_errors(t, jaxes[j], fr), fr, &joint_f[jqd_start[j]], fa, ta);
    JointWrench w = joint_wrench_pair(fr, fa, ta);
    if (jparent[j] >= 0) {
      f[jparent[j]].lin += w.on_parent.lin;
      f[jparent[j]].ang += w.on_parent.ang;
    }
    f[jchild[j]].lin += w.on_child.lin;
    f[jchild[j]].ang += w.on_child.ang;
  }
  // The attached (non-FREE) joints of each body, in joint order.
  std::vector<std::vector<int>> body_joints(nb);
  for (int j = 0; j < nj; ++j) {
    if (JointType(jtype[j]) == JointType::free) continue;
    body_joints[jchild[j]].push_back(j);
    if (jparent[j] >= 0) body_joints[jparent[j]].push_back(j);
  }
  // Hard joint rows: k = infinity, so k_eff = rho and s = 1.
  const CompliantAlmCoefficients jc = compliant_alm_coefficients(std::numeric_limits<real>::infinity(), rho);
  auto angular_projector = [&](JointType t, const JointErrors& e) -> Eigen::Matrix3d {
    if (t == JointType::ball) return Eigen::Matrix3d::Zero();
    if (t == JointType::revolute) return remove_direction(e.axis_p);
    return Eigen::Matrix3d::Identity();
  };
  // Force and torque of joint j on its child at the poses X (the multiplier after one dual step).
  auto joint_reaction = [&](int j, const std::vector<transform>& X, JointFrames& fr, JointErrors& e) {
    JointType t = JointType(jtype[j]);
    fr = frames(j, X);
    e = joint_errors(t, jaxes[j], fr);
    return spatial_vector{-jc.k_eff * e.lin + jc.s * joint_lambda_lin_[j], -jc.k_eff * e.ang + jc.s * joint_lambda_ang_[j]};
  };
  std::vector<Row> rows = contacts ? read_rows(*contacts) : std::vector<Row>{};
  std::vector<real> lam(rows.size(), 0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto it = lambda_.find(rows[i].key);
    if (it != lambda_.end()) lam[i] = it->second;
  }
  auto dynamic = [&](int b) { return b >= 0 && !(flags[b] & int(BodyFlag::kinematic)) && inv_mass[b] > 0; };
  // The rows touching each body, in row order (entry = 2 * row + side): O(bodies + rows) per sweep.
  std::vector<int> row_sides(2 * rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    row_sides[2 * i] = rows[i].body0;
    row_sides[2 * i + 1] = rows[i].body1 == rows[i].body0 ? -1 : rows[i].body1;
  }
  std::vector<std::int64_t> row_start, row_entry;
  build_segments(nb, row_sides, row_start, row_entry);

  // Inertial targets (the unconstrained prediction) and the initial guess.
  std::vector<vec3> c_tilde(nb);
  std::vector<quat> q_tilde(nb);
  std::vector<transform> q = q0;
  for (int b = 0; b < nb; ++b) {
    if (!dynamic(b)) continue;
    vec3 c = world_com(q0[b], com[b]), v = v0[b].lin;
    linear_update(v, c, f[b].lin, inv_mass[b], m.gravity, h);
    c_tilde[b] = c;
    q_tilde[b] = quat_update(q0[b].q, angular_update(q0[b].q, v0[b].ang, f[b].ang, I[b], I_inv[b], h), h);
    q[b] = {origin_from_com(c_tilde[b], q_tilde[b], com[b]), q_tilde[b]};
  }
  auto separation_speed = [&](const Row& r, const std::vector<transform>& now) {
    auto point = [&](int b, vec3 p, const std::vector<transform>& X) { return b >= 0 ? transform_point(X[b], p) : p; };
    return dot(r.n, (point(r.body1, r.p1, now) - point(r.body1, r.p1, q0)) - (point(r.body0, r.p0, now) - point(r.body0, r.p0, q0))) / h;
  };

  for (int it = 0; it < iterations; ++it) {
    // One sweep of per-body 6x6 Newton steps (block coordinate descent, bodies in order).
    for (int b = 0; b < nb; ++b) {
      if (!dynamic(b)) continue;
      mat33 R = quat_to_mat33(q[b].q);
      Eigen::Matrix3d I_w = to_eigen(R * I[b] * transpose(R));
      vec3 c = world_com(q[b], com[b]);
      Eigen::Matrix<double, 6, 6> H = Eigen::Matrix<double, 6, 6>::Zero();
      Eigen::Matrix<double, 6, 1> g;
      H.topLeftCorner<3, 3>() = mass[b] / (h * h) * Eigen::Matrix3d::Identity();
      H.bottomRightCorner<3, 3>() = I_w / (h * h);
      vec3 dc = c - c_tilde[b], dth = rotation_between(q_tilde[b], q[b].q);
      g.head<3>() = mass[b] / (h * h) * Eigen::Vector3d(dc.x, dc.y, dc.z);
      g.tail<3>() = I_w / (h * h) * Eigen::Vector3d(dth.x, dth.y, dth.z);
      for (std::int64_t k = row_start[b]; k < row_start[b + 1]; ++k) {
        const std::size_t i = std::size_t(row_entry[k] >> 1);
        const Row& r = rows[i];
        CompliantAlmCoefficients cf = compliant_alm_coefficients(r.k, rho);
        real fn = vbd_contact_normal_force(cf, gap(r, q), lam[i], r.kd, separation_speed(r, q));
        if (!(fn > 0)) continue;
        real side = r.body1 == b ? 1 : -1;
        vec3 x = r.body1 == b ? transform_point(q[b], r.p1) - r.m1 * r.n : transform_point(q[b], r.p0) + r.m0 * r.n;
        vec3 rxn = cross(x - c, r.n);
        Eigen::Matrix<double, 6, 1> J;
        J << side * r.n.x, side * r.n.y, side * r.n.z, side * rxn.x, side * rxn.y, side * rxn.z;
        g -= fn * J;
        H += (cf.k_eff + r.kd / h) * J * J.transpose();
        // Friction from the slip over the step, with its lagged stiffness on the tangent plane.
        vec3 u_t = slip_velocity(r, q, q0, h);
        vec3 ft = side * vbd_friction_force(r.mu, fn, u_t, friction_epsilon);
        Eigen::Matrix<double, 6, 1> F;
        vec3 rxf = cross(x - c, ft);
        F << ft.x, ft.y, ft.z, rxf.x, rxf.y, rxf.z;
        g -= F;
        real kt = r.mu * fn / (std::max(length(u_t), friction_epsilon) * h);
        vec3 t1, t2;
        tangent_basis(r.n, t1, t2);
        for (vec3 t : {t1, t2}) {
          vec3 rxt = cross(x - c, t);
          Eigen::Matrix<double, 6, 1> Jt;
          Jt << t.x, t.y, t.z, rxt.x, rxt.y, rxt.z;
          H += kt * Jt * Jt.transpose();
        }
      }
      for (int j : body_joints[b]) {
        JointType t = JointType(jtype[j]);
        JointFrames fr;
        JointErrors e;
        spatial_vector F = joint_reaction(j, q, fr, e);
        const bool is_child = jchild[j] == b;
        vec3 r = is_child ? fr.r_c : fr.r_p;
        real side = is_child ? 1 : -1;
        vec3 tau = side * (cross(r, F.lin) + F.ang);
        g.head<3>() -= side * Eigen::Vector3d(F.lin.x, F.lin.y, F.lin.z);
        g.tail<3>() -= Eigen::Vector3d(tau.x, tau.y, tau.z);
        Eigen::Matrix3d P = t == JointType::prismatic ? remove_direction(e.axis_p) : Eigen::Matrix3d::Identity();
        Eigen::Matrix<double, 3, 6> J;
        J.leftCols<3>() = P;
        J.rightCols<3>() = -P * skew(r);
        H += jc.k_eff * J.transpose() * J;
        H.bottomRightCorner<3, 3>() += jc.k_eff * angular_projector(t, e);
      }
      Eigen::Matrix<double, 6, 1> d = -H.ldlt().solve(g);
      vec3 dlin{d[0], d[1], d[2]}, dang{d[3], d[4], d[5]};
      quat r_new = quat_update(q[b].q, dang, 1);
      q[b] = {origin_from_com(c + dlin, r_new, com[b]), r_new};
    }
    // Dual ascent once per sweep: the multiplier takes the row's force at the new poses.
    for (std::size_t i = 0; i < rows.size(); ++i) {
      CompliantAlmCoefficients cf = compliant_alm_coefficients(rows[i].k, rho);
      lam[i] = vbd_contact_normal_force(cf, gap(rows[i], q), lam[i], rows[i].kd, separation_speed(rows[i], q));
    }
    for (int j = 0; j < nj; ++j) {
      if (JointType(jtype[j]) == JointType::free) continue;
      JointFrames fr;
      JointErrors e;
      spatial_vector F = joint_reaction(j, q, fr, e);
      joint_lambda_lin_[j] = F.lin;
      joint_lambda_ang_[j] = F.ang;
    }
  }
  lambda_.clear();
  for (std::size_t i = 0; i < rows.size(); ++i) lambda_[rows[i].key] = lam[i];

  // Velocities from the pose history.
  std::vector<spatial_vector> v(v0);
  for (int b = 0; b < nb; ++b) {
    if (!dynamic(b)) continue;
    v[b] = {(world_com(q[b], com[b]) - world_com(q0[b], com[b])) / h, rotation_between(q0[b].q, q[b].q) / h};
  }
  out.body_q.copy_from_host(q.data());
  out.body_qd.copy_from_host(v.data());
}

std::vector<VbdContactForce> SolverVBD::collect_rigid_contact_forces(const std::vector<transform>& body_q,
                                                                     const std::vector<transform>& body_q_prev,
                                                                     const PenaltyContactsView& contacts, real dt) const {
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
