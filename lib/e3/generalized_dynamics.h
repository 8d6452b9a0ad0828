// Generalized-coordinate rigid-body dynamics of the E1 Model (course E3 §6, Featherstone):
// body Jacobians from forward kinematics, the joint-space mass matrix H = J^T I J + armature, the
// velocity-product (bias) terms, Cholesky and the forward dynamics qdd. Host code on Eigen.
//
// Conventions are E1's: body twists (v at the COM, omega) in world; joint velocities are relative
// twists in the parent joint frame with the linear part at the child COM. Supported joints:
// REVOLUTE, PRISMATIC, BALL, FREE, FIXED (a tree; DISTANCE and D6 are rejected).
#pragma once

#include <vector>

#include <Eigen/Dense>

#include "e1/kinematics.h"
#include "e1/model.h"

namespace impulse {

class GeneralizedDynamics {
 public:
  /// Copies the model's structure to the host. Throws std::invalid_argument naming the joint or
  /// body it cannot handle (a DISTANCE/D6 joint, a joint outside every articulation, a dynamic body
  /// moved by no joint) or a wrong-length armature [kg or kg m^2 per DOF].
  GeneralizedDynamics(const Model& model, std::vector<real> armature = {});

  int dof_count() const { return nd_; }

  /// Body poses and twists from (q, qd): eval_fk's recursion, on the host.
  std::vector<BodyState> fk(const std::vector<real>& q, const std::vector<real>& qd) const;
  /// J (6 body_count x dof): column k is every body's twist (v_C, omega) for qd = e_k.
  Eigen::MatrixXd jacobian(const std::vector<real>& q) const;
  /// @formula E3.6-featherstone  H = sum_b J_b^T I_b J_b + diag(armature) (course E3 §6),
  /// I_b = diag(m_b 1, R I_B R^T) at the COM [kg, kg m^2].
  Eigen::MatrixXd mass_matrix(const std::vector<real>& q) const;
  /// Velocity-product accelerations of every body with qdd = 0 (a_C [m/s^2], alpha [rad/s^2]).
  std::vector<spatial_vector> bias_accelerations(const std::vector<real>& q, const std::vector<real>& qd) const;
  /// @formula E3.6-featherstone  Generalized force (course E3 §6): the body wrenches projected by J^T,
  ///   tau = joint_f + sum_b J_b^T ( f_b + m_b g - m_b a0_b ,  tau_b - I_b alpha0_b - omega_b x I_b omega_b )
  /// body_f: world wrenches at each COM (contacts, body_f); joint_f [N or N m] per DOF.
  Eigen::VectorXd generalized_force(const std::vector<real>& q, const std::vector<real>& qd,
                                    const std::vector<spatial_vector>& body_f, const std::vector<real>& joint_f,
                                    vec3 gravity) const;

  /// Wrench each body receives from its parent joint (world, about the body's COM), from the
  /// Newton-Euler balance of its subtree, leaves first:
  ///   W_b = I_b a_b + (0, omega x I_b omega) - F_b,  a_b = J_b qdd + a0_b   (F_b incl. gravity)
  ///   f_parent_b = W_b + sum over children c of (f_c, tau_c + (c_c - c_b) x f_c)
  /// A joint wrench, not a contact force: a FREE joint transmits zero.
  std::vector<spatial_vector> parent_joint_wrenches(const std::vector<real>& q, const std::vector<real>& qd,
                                                    const Eigen::VectorXd& qdd, const std::vector<spatial_vector>& body_f,
                                                    vec3 gravity) const;

  /// Joint-coordinate step q + h N(q) qd (E1's integrate_joint_coords per joint).
  std::vector<real> integrate_coords(const std::vector<real>& q, const Eigen::VectorXd& qd, real h) const;

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
  void fk_joints(const std::vector<real>& q, const std::vector<real>& qd, int begin, int end,
                 std::vector<BodyState>& s) const;
  std::vector<real> armature_;
};

/// Cholesky of H; throws std::runtime_error("... not symmetric positive definite ...") when it fails:
/// no regularisation is added that the caller did not ask for (armature is the caller's).
Eigen::LLT<Eigen::MatrixXd> cholesky_or_throw(const Eigen::MatrixXd& H);

}  // namespace impulse
