// Generalized-coordinate rigid-body dynamics of the E1 Model (course E3 §6, Featherstone):
// body Jacobians from forward kinematics, the joint-space mass matrix H = J^T I J + armature, the
// velocity-product (bias) terms, Cholesky and the forward dynamics qdd. Host code on Eigen: the
// reference the device passes of SolverFeatherstone are tested against, and the dynamics of
// SolverGeneralizedIntegrator. Its per-joint and per-body terms are featherstone_terms.h's.
//
// Articulations are independent trees, so J and H are block-diagonal by articulation: every
// matrix here is stored per articulation and nothing of size (total DOF)^2 is ever formed; the
// work grows linearly with the number of articulations. (ModelBuilder::finalize guarantees the
// independence: a joint's parent body is moved by an earlier joint of the same articulation.)
//
// Conventions are E1's: body twists (v at the COM, omega) in world; joint velocities are relative
// twists in the parent joint frame with the linear part at the child COM. Supported joints:
// REVOLUTE, PRISMATIC, BALL, FREE, FIXED (a tree; DISTANCE and D6 are rejected).
#pragma once

#include <vector>

#include <Eigen/Dense>

#include "core/eigen.h"
#include "e1/kinematics.h"
#include "e1/model.h"

namespace impulse {

/// A square joint-space matrix that is block-diagonal by articulation: blocks[a] covers the DOF
/// [begin[a], begin[a] + blocks[a].rows()); every entry outside the blocks is zero.
struct BlockDiagonalMatrix {
  std::vector<int> begin;
  std::vector<MatrixXr> blocks;
  int size = 0;
  /// The full size x size matrix, for tests and small reference computations only.
  MatrixXr dense() const;
};

/// One Cholesky factorization per block of a BlockDiagonalMatrix (built by cholesky_or_throw).
class BlockCholesky {
 public:
  BlockCholesky() = default;
  BlockCholesky(std::vector<int> begin, std::vector<Eigen::LLT<MatrixXr>> llt, int size);
  /// x = H^-1 b, block by block.
  VectorXr solve(const VectorXr& b) const;

 private:
  std::vector<int> begin_;
  std::vector<Eigen::LLT<MatrixXr>> llt_;
  int size_ = 0;
};

class GeneralizedDynamics {
 public:
  /// Copies the model's structure to the host. Throws std::invalid_argument naming the joint or
  /// body it cannot handle (a DISTANCE/D6 joint, a joint outside every articulation, a dynamic body
  /// moved by no joint) or a wrong-length armature [kg or kg m^2 per DOF].
  GeneralizedDynamics(const Model& model, std::vector<real> armature = {});

  int dof_count() const { return nd_; }
  int articulation_count() const { return int(art_dof_begin_.size()); }
  /// DOF range [first, last) of articulation a.
  int articulation_dof_begin(int a) const { return art_dof_begin_[a]; }
  int articulation_dof_end(int a) const { return art_dof_end_[a]; }

  /// Body poses and twists from (q, qd): eval_fk's recursion, on the host.
  std::vector<BodyState> fk(const std::vector<real>& q, const std::vector<real>& qd) const;
  /// Per articulation a: J_a (6 bodies_of_a x dofs_of_a); rows 6i..6i+5 belong to the child of
  /// the articulation's i-th joint, column k is that body's twist (v_C, omega) for qd = e_k.
  /// Column k of every articulation comes from one FK pass (articulations do not share DOF).
  std::vector<MatrixXr> jacobians(const std::vector<real>& q) const;
  /// @formula E3.6-featherstone  H = sum_b J_b^T I_b J_b + diag(armature) (course E3 §6),
  /// I_b = diag(m_b 1, R I_B R^T) at the COM [kg, kg m^2]; one dense block per articulation.
  BlockDiagonalMatrix mass_matrix(const std::vector<real>& q) const;
  /// Velocity-product accelerations of every body with qdd = 0 (a_C [m/s^2], alpha [rad/s^2]).
  std::vector<spatial_vector> bias_accelerations(const std::vector<real>& q, const std::vector<real>& qd) const;
  /// Part of E3.6-featherstone (tagged on mass_matrix): generalized force (course E3 §6): the body wrenches projected by J^T,
  ///   tau = joint_f + sum_b J_b^T ( f_b + m_b g - m_b a0_b ,  tau_b - I_b alpha0_b - omega_b x I_b omega_b )
  /// body_f: world wrenches at each COM (contacts, body_f); joint_f [N or N m] per DOF.
  VectorXr generalized_force(const std::vector<real>& q, const std::vector<real>& qd,
                                    const std::vector<spatial_vector>& body_f, const std::vector<real>& joint_f,
                                    vec3 gravity) const;

  /// Wrench each body receives from its parent joint (world, about the body's COM), from the
  /// Newton-Euler balance of its subtree, leaves first:
  ///   W_b = I_b a_b + (0, omega x I_b omega) - F_b,  a_b = J_b qdd + a0_b   (F_b incl. gravity)
  ///   f_parent_b = W_b + sum over children c of (f_c, tau_c + (c_c - c_b) x f_c)
  /// A joint wrench, not a contact force: a FREE joint transmits zero.
  std::vector<spatial_vector> parent_joint_wrenches(const std::vector<real>& q, const std::vector<real>& qd,
                                                    const VectorXr& qdd, const std::vector<spatial_vector>& body_f,
                                                    vec3 gravity) const;

  /// Joint-coordinate step q + h N(q) qd (E1's integrate_joint_coords per joint).
  std::vector<real> integrate_coords(const std::vector<real>& q, const VectorXr& qd, real h) const;

 private:
  int nb_ = 0, nj_ = 0, nd_ = 0;
  std::vector<int> type_, parent_, child_, q_start_, qd_start_;
  std::vector<transform> X_p_, X_c_;
  std::vector<JointAxes> axes_;
  std::vector<vec3> com_;
  std::vector<mat33> inertia_;
  std::vector<real> mass_;
  std::vector<int> order_;  // joints in articulation order (parents first)
  // Articulations are independent trees: joints [art_joint_begin_[a], art_joint_end_[a]) of order_,
  // DOF [art_dof_begin_[a], art_dof_end_[a]); a body's Jacobian is zero outside its articulation's DOF.
  std::vector<int> art_joint_begin_, art_joint_end_, art_dof_begin_, art_dof_end_;
  std::vector<int> body_dof_begin_, body_dof_end_;  // per body (empty range: moved by no joint)
  std::vector<int> body_art_, body_row_;  // per body: its articulation (-1: none), first row in J_a
  int max_art_dof_ = 0;
  void fk_joints(const std::vector<real>& q, const std::vector<real>& qd, int begin, int end,
                 std::vector<BodyState>& s) const;
  std::vector<real> armature_;
};

/// The course calculator of E3.6-velocity-implicit on Eigen matrices: dv of (M - h D) dv = h r by
/// velocity_implicit_solve (velocity_implicit.h), the function the integrator's pass calls.
/// symmetric: Cholesky, else LU. Throws std::runtime_error (not_spd_message, naming articulation
/// when >= 0) when symmetric and M - h D is not positive definite.
VectorXr velocity_implicit_step(const MatrixXr& M, const MatrixXr& D, const VectorXr& r, real h, bool symmetric,
                                int articulation = -1);

/// Cholesky of H; throws std::runtime_error("... not symmetric positive definite ...") when it fails:
/// no regularisation is added that the caller did not ask for (armature is the caller's).
/// articulation >= 0 names the articulation whose block H is.
Eigen::LLT<MatrixXr> cholesky_or_throw(const MatrixXr& H, int articulation = -1);
/// One Cholesky per block; a block that is not SPD is reported naming its articulation.
BlockCholesky cholesky_or_throw(const BlockDiagonalMatrix& H);

}  // namespace impulse
