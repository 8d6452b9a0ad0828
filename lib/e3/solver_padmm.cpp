// SolverPADMM (course E3 §6): host code.
#include "e3/solver_padmm.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/eigen.h"
#include "e1/integrator.h"

namespace impulse {

namespace {

Eigen::Matrix3d skew(vec3 r) {
  Eigen::Matrix3d s;
  s << 0, -r.z, r.y, r.z, 0, -r.x, -r.y, r.x, 0;
  return s;
}

}  // namespace

Eigen::Matrix<double, 3, 6> contact_jacobian_block(const PADMMContactRow& c, int k) {
  Eigen::Matrix<double, 3, 6> G = Eigen::Matrix<double, 3, 6>::Zero();
  Eigen::Matrix3d C;
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

Eigen::MatrixXd assemble_delassus(const std::vector<PADMMContactRow>& rows, const std::vector<PADMMBodyInverse>& bodies) {
  const int nc = int(rows.size());
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(3 * nc, 3 * nc);
  auto Minv = [&](int k) {
    Eigen::Matrix<double, 6, 6> M = Eigen::Matrix<double, 6, 6>::Zero();
    M.topLeftCorner<3, 3>() = bodies[k].inv_m * Eigen::Matrix3d::Identity();
    M.bottomRightCorner<3, 3>() = to_eigen(bodies[k].inv_I_w);
    return M;
  };
  for (int i = 0; i < nc; ++i)
    for (int j = i; j < nc; ++j) {
      Eigen::Matrix3d Wij = Eigen::Matrix3d::Zero();
      for (int k : {rows[i].body0, rows[i].body1}) {
        if (k < 0 || (k != rows[j].body0 && k != rows[j].body1)) continue;
        if (k == rows[i].body0 && k == rows[i].body1) continue;  // a body in contact with itself: no row
        Wij += contact_jacobian_block(rows[i], k) * Minv(k) * contact_jacobian_block(rows[j], k).transpose();
      }
      W.block<3, 3>(3 * i, 3 * j) = Wij;
      W.block<3, 3>(3 * j, 3 * i) = Wij.transpose();
    }
  return W;
}

SolverPADMM::SolverPADMM(const Model& model, const PADMMSettings& settings)
    : model_(&model), settings_(settings), status_(1) {
  settings_.validate();
  if (model.device != Device::cpu) throw std::invalid_argument("SolverPADMM: the model must be on the CPU (host solver)");
}

void SolverPADMM::reset() {
  history_.clear();
  status_.assign(1, PADMMStatus{});
}

void SolverPADMM::step(const State& in, State& out, const Control& control, const PenaltyContactsView* contacts,
                       real h) {
  if (&in == &out) throw std::invalid_argument("SolverPADMM.step: state_in and state_out must be different States");
  if (!(h > 0)) throw std::invalid_argument("SolverPADMM.step: dt must be > 0 s");
  const Model& m = *model_;
  const int nb = m.body_count;
  Buffer<spatial_vector> wrench(m.device, nb);
  gather_body_wrenches(m, in, control, wrench.view());
  auto f = wrench.to_host();
  auto q = in.body_q.to_host();
  auto qd = in.body_qd.to_host();
  auto com = m.body_com.to_host();
  auto I = m.body_inertia.to_host();
  auto I_inv = m.body_inv_inertia.to_host();
  auto inv_mass = m.body_inv_mass.to_host();
  auto mass = m.body_mass.to_host();
  auto flags = m.body_flags.to_host();

  // Free velocities (Euler: forward dynamics without contacts).
  std::vector<PADMMBodyInverse> inv(nb);
  std::vector<spatial_vector> v(nb);
  std::vector<vec3> c_w(nb);
  for (int b = 0; b < nb; ++b) {
    c_w[b] = world_com(q[b], com[b]);
    v[b] = qd[b];
    if (flags[b] & int(BodyFlag::kinematic) || !(inv_mass[b] > 0)) continue;
    mat33 R = quat_to_mat33(q[b].q);
    inv[b] = {inv_mass[b], R * I_inv[b] * transpose(R)};
    mat33 I_w = R * I[b] * transpose(R);
    spatial_vector f_ext{f[b].lin + mass[b] * m.gravity, f[b].ang - cross(qd[b].ang, I_w * qd[b].ang)};
    v[b] = discrete_velocity_update(qd[b], inv[b].inv_m, inv[b].inv_I_w, h, f_ext, spatial_vector{});
  }

  // Contact rows from the record.
  rows_.clear();
  keys_.clear();
  if (contacts) {
    Device d = m.device;
    int n = view_to_host(contacts->rigid_contact_count, d, 1)[0];
    auto s0 = view_to_host(contacts->rigid_contact_shape0, d, n), s1 = view_to_host(contacts->rigid_contact_shape1, d, n);
    auto p0 = view_to_host(contacts->rigid_contact_point0, d, n), p1 = view_to_host(contacts->rigid_contact_point1, d, n);
    auto nrm = view_to_host(contacts->rigid_contact_normal, d, n);
    auto t0 = view_to_host(contacts->rigid_contact_thickness0, d, n), t1 = view_to_host(contacts->rigid_contact_thickness1, d, n);
    auto mu = view_to_host(contacts->rigid_contact_mu, d, n);
    auto shape_body = m.shape_body.to_host();
    std::map<std::pair<int, int>, int> ordinal;
    for (int i = 0; i < n; ++i) {
      PADMMContactRow r;
      r.body0 = shape_body[s0[i]];
      r.body1 = shape_body[s1[i]];
      r.n = nrm[i];
      vec3 a = std::abs(r.n.x) < real(0.57) ? vec3{1, 0, 0} : vec3{0, 1, 0};
      r.t1 = normalize(cross(r.n, a));
      r.t2 = cross(r.n, r.t1);
      vec3 x0 = (r.body0 >= 0 ? transform_point(q[r.body0], p0[i]) : p0[i]) + t0[i] * r.n;
      vec3 x1 = (r.body1 >= 0 ? transform_point(q[r.body1], p1[i]) : p1[i]) - t1[i] * r.n;
      r.r0 = x0 - (r.body0 >= 0 ? c_w[r.body0] : vec3{});
      r.r1 = x1 - (r.body1 >= 0 ? c_w[r.body1] : vec3{});
      r.d = dot(r.n, x1 - x0);
      r.mu = mu[i];
      rows_.push_back(r);
      keys_.emplace_back(s0[i], s1[i], ordinal[{s0[i], s1[i]}]++);
    }
  }

  // The Delassus problem: b = J v_free + bias (speculative approach d / h, stabilisation of penetration).
  const int nc = int(rows_.size());
  Eigen::MatrixXd W = assemble_delassus(rows_, inv);
  Eigen::VectorXd b(3 * nc);
  std::vector<real> mu(nc);
  x_ = Eigen::VectorXd::Zero(3 * nc);
  for (int i = 0; i < nc; ++i) {
    Eigen::Vector3d u = Eigen::Vector3d::Zero();
    for (int k : {rows_[i].body0, rows_[i].body1}) {
      if (k < 0) continue;
      Eigen::Matrix<double, 6, 1> vk;
      vk << v[k].lin.x, v[k].lin.y, v[k].lin.z, v[k].ang.x, v[k].ang.y, v[k].ang.z;
      u += contact_jacobian_block(rows_[i], k) * vk;
    }
    real d = rows_[i].d;
    u[0] += (d >= 0 ? d : settings_.contact_stabilization * d) / h;
    b.segment<3>(3 * i) = u;
    mu[i] = rows_[i].mu;
    if (settings_.warmstart_mode == WarmstartMode::containers) {
      auto it = history_.find(keys_[i]);
      if (it != history_.end())
        x_.segment<3>(3 * i) = settings_.warmstart_scale * Eigen::Vector3d(it->second.x, it->second.y, it->second.z);
    }
  }
  status_[0] = padmm_solve(W, b, mu, settings_, x_);
  history_.clear();
  for (int i = 0; i < nc; ++i) history_[keys_[i]] = {x_[3 * i], x_[3 * i + 1], x_[3 * i + 2]};

  // Velocities with the contact impulses, then poses with the new velocities.
  std::vector<spatial_vector> Jtp(nb);
  for (int i = 0; i < nc; ++i)
    for (int k : {rows_[i].body0, rows_[i].body1}) {
      if (k < 0) continue;
      Eigen::Matrix<double, 6, 1> g = contact_jacobian_block(rows_[i], k).transpose() * x_.segment<3>(3 * i);
      Jtp[k].lin += vec3{g[0], g[1], g[2]};
      Jtp[k].ang += vec3{g[3], g[4], g[5]};
    }
  std::vector<transform> q_out(q);
  std::vector<spatial_vector> qd_out(qd);
  for (int b = 0; b < nb; ++b) {
    if (flags[b] & int(BodyFlag::kinematic) || !(inv_mass[b] > 0)) continue;
    spatial_vector vn = discrete_velocity_update(v[b], inv[b].inv_m, inv[b].inv_I_w, h, spatial_vector{}, Jtp[b]);
    quat r = quat_update(q[b].q, vn.ang, h);
    q_out[b] = {origin_from_com(c_w[b] + h * vn.lin, r, com[b]), r};
    qd_out[b] = vn;
  }
  out.body_q.copy_from_host(q_out.data());
  out.body_qd.copy_from_host(qd_out.data());
  last_dt_ = h;
}

void SolverPADMM::update_contacts(PenaltyContactsView& contacts, const State&) const {
  if (contacts.force.size == 0)
    throw std::invalid_argument("SolverPADMM.update_contacts: contacts.force was not requested");
  int n = view_to_host(contacts.rigid_contact_count, model_->device, 1)[0];
  if (n != int(rows_.size()) || contacts.force.size < n)
    throw std::invalid_argument("SolverPADMM.update_contacts: the contact record changed since the last step");
  std::vector<spatial_vector> out(n);
  for (int i = 0; i < n; ++i) {
    const PADMMContactRow& r = rows_[i];
    vec3 f1 = (x_[3 * i] * r.n + x_[3 * i + 1] * r.t1 + x_[3 * i + 2] * r.t2) / last_dt_;
    out[i] = {-f1, cross(r.r0, -f1)};
  }
  if (n > 0) device_copy(contacts.force.data, model_->device, out.data(), Device::cpu, sizeof(spatial_vector) * n);
}

}  // namespace impulse
