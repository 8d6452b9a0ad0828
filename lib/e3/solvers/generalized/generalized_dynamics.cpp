// Generalized-coordinate dynamics of the E1 Model (course E3 §6): host code.
#include "e3/solvers/generalized/generalized_dynamics.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/eigen.h"
#include "e1/integrator.h"
#include "e3/solvers/generalized/featherstone_terms.h"
#include "e3/solvers/generalized/generalized_layout.h"
#include "e3/solvers/generalized/velocity_implicit.h"

namespace impulse {

GeneralizedDynamics::GeneralizedDynamics(const Model& m, std::vector<real> armature)
    : nb_(m.body_count), nj_(m.joint_count), nd_(m.joint_dof_count),
      armature_(checked_armature(std::move(armature), m.joint_dof_count, "generalized dynamics")) {
  type_ = m.joint_type.to_host();
  parent_ = m.joint_parent.to_host();
  child_ = m.joint_child.to_host();
  q_start_ = m.joint_q_start.to_host();
  qd_start_ = m.joint_qd_start.to_host();
  X_p_ = m.joint_X_p.to_host();
  X_c_ = m.joint_X_c.to_host();
  axes_ = m.joint_axes.to_host();
  com_ = m.body_com.to_host();
  inertia_ = m.body_inertia.to_host();
  mass_ = m.body_mass.to_host();
  GeneralizedLayout L = generalized_layout(m, "generalized dynamics");
  art_joint_begin_ = L.art_joint_begin;
  art_joint_end_ = L.art_joint_end;
  art_dof_begin_ = L.art_dof_begin;
  art_dof_end_ = L.art_dof_end;
  body_dof_begin_ = L.body_dof_begin;
  body_dof_end_ = L.body_dof_end;
  body_art_ = L.body_art;
  body_row_ = L.body_row;
  max_art_dof_ = L.max_art_dof;
  for (std::size_t a = 0; a < art_joint_begin_.size(); ++a)
    for (int j = art_joint_begin_[a]; j < art_joint_end_[a]; ++j) order_.push_back(j);
}

std::vector<BodyState> GeneralizedDynamics::fk(const std::vector<real>& q, const std::vector<real>& qd) const {
  std::vector<BodyState> s(nb_, BodyState{transform_identity(), spatial_vector{}});
  fk_joints(q, qd, 0, int(order_.size()), s);
  return s;
}

void GeneralizedDynamics::fk_joints(const std::vector<real>& q, const std::vector<real>& qd, int begin, int end,
                                    std::vector<BodyState>& s) const {
  for (int i = begin; i < end; ++i) {
    int j = order_[i];
    int p = parent_[j], c = child_[j];
    BodyState ps{transform_identity(), spatial_vector{}};
    vec3 pcom{};
    if (p >= 0) {
      ps = s[p];
      pcom = com_[p];
    }
    s[c] = fk_joint(ps, pcom, X_p_[j], X_c_[j], JointType(type_[j]), &q[q_start_[j]], &qd[qd_start_[j]], axes_[j],
                    com_[c]);
  }
}

std::vector<MatrixXr> GeneralizedDynamics::jacobians(const std::vector<real>& q) const {
  const int na = articulation_count();
  std::vector<MatrixXr> J(na);
  for (int a = 0; a < na; ++a)
    J[a] = MatrixXr::Zero(6 * (art_joint_end_[a] - art_joint_begin_[a]), art_dof_end_[a] - art_dof_begin_[a]);
  // Column k of every articulation in one FK pass: qd = sum_a e_(first DOF of a + k). A body's twist
  // depends on its own articulation's DOF only, so the articulations' columns do not mix.
  std::vector<real> e(nd_, 0);
  for (int k = 0; k < max_art_dof_; ++k) {
    for (int a = 0; a < na; ++a)
      if (art_dof_begin_[a] + k < art_dof_end_[a]) e[art_dof_begin_[a] + k] = 1;
    std::vector<BodyState> s = fk(q, e);
    for (int b = 0; b < nb_; ++b) {
      const int a = body_art_[b];
      if (a < 0 || k >= J[a].cols()) continue;
      J[a].block<3, 1>(body_row_[b], k) = to_eigen(s[b].v.lin);
      J[a].block<3, 1>(body_row_[b] + 3, k) = to_eigen(s[b].v.ang);
    }
    for (int a = 0; a < na; ++a)
      if (art_dof_begin_[a] + k < art_dof_end_[a]) e[art_dof_begin_[a] + k] = 0;
  }
  return J;
}

BlockDiagonalMatrix GeneralizedDynamics::mass_matrix(const std::vector<real>& q) const {
  std::vector<MatrixXr> J = jacobians(q);
  auto s = fk(q, std::vector<real>(nd_, 0));
  BlockDiagonalMatrix H;
  H.size = nd_;
  H.begin = art_dof_begin_;
  H.blocks.resize(J.size());
  for (std::size_t a = 0; a < J.size(); ++a) {
    const int n = int(J[a].cols());
    H.blocks[a] = Eigen::Map<const VectorXr>(armature_.data() + art_dof_begin_[a], n).asDiagonal();
  }
  for (int b = 0; b < nb_; ++b) {
    const int a = body_art_[b];
    if (a < 0 || J[a].cols() == 0) continue;
    Eigen::Matrix<real, 6, 6> I = Eigen::Matrix<real, 6, 6>::Zero();
    I.topLeftCorner<3, 3>() = mass_[b] * Matrix3r::Identity();
    I.bottomRightCorner<3, 3>() = to_eigen(world_inertia(s[b].X, inertia_[b]));
    auto Jb = J[a].middleRows<6>(body_row_[b]);
    H.blocks[a] += Jb.transpose() * I * Jb;
  }
  return H;
}

std::vector<spatial_vector> GeneralizedDynamics::bias_accelerations(const std::vector<real>& q,
                                                                    const std::vector<real>& qd) const {
  auto s = fk(q, qd);
  std::vector<spatial_vector> a(nb_);
  const BodyState world{transform_identity(), spatial_vector{}};
  for (int j : order_) {
    int p = parent_[j], c = child_[j];
    a[c] = joint_bias_acceleration(p >= 0 ? s[p] : world, p >= 0 ? com_[p] : vec3{}, p >= 0 ? a[p] : spatial_vector{},
                                   X_p_[j], X_c_[j], JointType(type_[j]), &q[q_start_[j]], &qd[qd_start_[j]], axes_[j],
                                   s[c], com_[c]);
  }
  return a;
}

VectorXr GeneralizedDynamics::generalized_force(const std::vector<real>& q, const std::vector<real>& qd,
                                                       const std::vector<spatial_vector>& body_f,
                                                       const std::vector<real>& joint_f, vec3 g) const {
  std::vector<MatrixXr> J = jacobians(q);
  auto s = fk(q, qd);
  auto a0 = bias_accelerations(q, qd);
  VectorXr tau = VectorXr::Zero(nd_);
  for (int k = 0; k < nd_ && k < int(joint_f.size()); ++k) tau[k] = joint_f[k];
  for (int b = 0; b < nb_; ++b) {
    const spatial_vector w =
        generalized_force_wrench(body_f[b], mass_[b], world_inertia(s[b].X, inertia_[b]), s[b].v.ang, a0[b], g);
    Eigen::Matrix<real, 6, 1> F;
    F << w.lin.x, w.lin.y, w.lin.z, w.ang.x, w.ang.y, w.ang.z;
    const int d0 = body_dof_begin_[b], n = body_dof_end_[b] - d0;
    if (n > 0) tau.segment(d0, n) += J[body_art_[b]].middleRows<6>(body_row_[b]).transpose() * F;
  }
  return tau;
}

std::vector<spatial_vector> GeneralizedDynamics::parent_joint_wrenches(const std::vector<real>& q,
                                                                      const std::vector<real>& qd,
                                                                      const VectorXr& qdd,
                                                                      const std::vector<spatial_vector>& body_f,
                                                                      vec3 g) const {
  std::vector<MatrixXr> J = jacobians(q);
  auto s = fk(q, qd);
  auto a0 = bias_accelerations(q, qd);
  std::vector<spatial_vector> f(nb_);
  std::vector<vec3> c(nb_);
  for (int b = 0; b < nb_; ++b) {
    c[b] = world_com(s[b].X, com_[b]);
    // a_b = J_b qdd over the body's articulation's DOF (zero for a body moved by no joint).
    Eigen::Matrix<real, 6, 1> a = Eigen::Matrix<real, 6, 1>::Zero();
    const int d0 = body_dof_begin_[b], n = body_dof_end_[b] - d0;
    if (n > 0) a = J[body_art_[b]].middleRows<6>(body_row_[b]) * qdd.segment(d0, n);
    vec3 lin = vec3{a[0], a[1], a[2]} + a0[b].lin;
    vec3 ang = vec3{a[3], a[4], a[5]} + a0[b].ang;
    f[b] = body_newton_euler_residual(body_f[b], mass_[b], world_inertia(s[b].X, inertia_[b]), s[b].v.ang, lin, ang, g);
  }
  // Leaves first: each child's parent wrench is carried to its parent's COM.
  for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
    int p = parent_[*it], ch = child_[*it];
    if (p < 0) continue;
    f[p].lin += f[ch].lin;
    f[p].ang += f[ch].ang + cross(c[ch] - c[p], f[ch].lin);
  }
  return f;
}

std::vector<real> GeneralizedDynamics::integrate_coords(const std::vector<real>& q, const VectorXr& qd,
                                                        real h) const {
  std::vector<real> out(q);
  std::vector<real> v(qd.data(), qd.data() + qd.size());
  for (int j = 0; j < nj_; ++j) {
    vec3 c_jc = transform_point(transform_inverse(X_c_[j]), com_[child_[j]]);
    integrate_joint_coords(JointType(type_[j]), &q[q_start_[j]], &v[qd_start_[j]], axes_[j], c_jc, h,
                           &out[q_start_[j]]);
  }
  return out;
}

MatrixXr BlockDiagonalMatrix::dense() const {
  MatrixXr M = MatrixXr::Zero(size, size);
  for (std::size_t a = 0; a < blocks.size(); ++a)
    M.block(begin[a], begin[a], blocks[a].rows(), blocks[a].cols()) = blocks[a];
  return M;
}

BlockCholesky::BlockCholesky(std::vector<int> begin, std::vector<Eigen::LLT<MatrixXr>> llt, int size)
    : begin_(std::move(begin)), llt_(std::move(llt)), size_(size) {}

VectorXr BlockCholesky::solve(const VectorXr& b) const {
  if (b.size() != size_)
    throw std::invalid_argument("BlockCholesky.solve: the right-hand side has " + std::to_string(b.size()) +
                                " entries, the matrix has " + std::to_string(size_) + " rows");
  VectorXr x = VectorXr::Zero(size_);
  for (std::size_t a = 0; a < llt_.size(); ++a) {
    const int n = int(llt_[a].rows());
    if (n > 0) x.segment(begin_[a], n) = llt_[a].solve(b.segment(begin_[a], n));
  }
  return x;
}

VectorXr velocity_implicit_step(const MatrixXr& M, const MatrixXr& D, const VectorXr& r, real h, bool symmetric,
                                int articulation) {
  const int n = int(M.rows());
  using RowMajor = Eigen::Matrix<real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMajor A = M, Dr = D;
  VectorXr x = r;
  std::vector<int> piv(static_cast<std::size_t>(n));
  if (!velocity_implicit_solve(A.data(), Dr.data(), h, symmetric, n, x.data(), piv.data()))
    throw std::runtime_error(not_spd_message(articulation));
  return x;
}

Eigen::LLT<MatrixXr> cholesky_or_throw(const MatrixXr& H, int articulation) {
  Eigen::LLT<MatrixXr> llt(H);
  if (llt.info() != Eigen::Success)
    throw std::runtime_error(not_spd_message(articulation));
  return llt;
}

BlockCholesky cholesky_or_throw(const BlockDiagonalMatrix& H) {
  std::vector<Eigen::LLT<MatrixXr>> llt(H.blocks.size());
  for (std::size_t a = 0; a < H.blocks.size(); ++a)
    if (H.blocks[a].rows() > 0) llt[a] = cholesky_or_throw(H.blocks[a], int(a));
  return BlockCholesky(H.begin, std::move(llt), H.size);
}

}  // namespace impulse
