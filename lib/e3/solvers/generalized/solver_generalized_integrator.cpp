// The MuJoCo-semantics integrators (course E3 §6): host code.
#include "e3/solvers/generalized/solver_generalized_integrator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace impulse {

namespace {

std::vector<real> host_of(View<const real> v, std::int64_t n) {
  std::vector<real> h(static_cast<std::size_t>(n));
  if (n > 0 && v.size >= n) device_copy(h.data(), Device::cpu, v.data, Device::cpu, sizeof(real) * n);
  if (v.size < n) h.assign(static_cast<std::size_t>(n), 0);
  return h;
}

void check_cpu(const Model& m, const char* who) {
  if (m.device != Device::cpu) throw std::invalid_argument(std::string(who) + ": the model must be on the CPU (host solver)");
}

void write_state(const Model& m, const std::vector<real>& q, const VectorXr& qd, State& out) {
  out.joint_q.copy_from_host(q.data());
  out.joint_qd.copy_from_host(qd.data());
  eval_fk(m, out.joint_q.view(), out.joint_qd.view(), out);
}

}  // namespace

GeneralizedIntegrator parse_integrator(const std::string& name) {
  if (name.empty() || name == "implicitfast") return GeneralizedIntegrator::implicitfast;
  if (name == "euler") return GeneralizedIntegrator::euler;
  if (name == "rk4") return GeneralizedIntegrator::rk4;
  if (name == "implicit") return GeneralizedIntegrator::implicit;
  throw std::invalid_argument("unknown integrator '" + name + "' (use euler, rk4, implicit or implicitfast)");
}

const char* integrator_name(GeneralizedIntegrator i) {
  switch (i) {
    case GeneralizedIntegrator::euler: return "euler";
    case GeneralizedIntegrator::rk4: return "rk4";
    case GeneralizedIntegrator::implicit: return "implicit";
    case GeneralizedIntegrator::implicitfast: return "implicitfast";
  }
  return "?";
}

VectorXr velocity_implicit_step(const MatrixXr& M, const MatrixXr& D, const VectorXr& r,
                                       real h, bool symmetric, int articulation) {
  MatrixXr A = M - h * D;
  if (symmetric) return cholesky_or_throw(A, articulation).solve(h * r);
  return A.partialPivLu().solve(h * r);
}

SolverGeneralizedIntegrator::SolverGeneralizedIntegrator(const Model& model, const std::string& integrator,
                                                         std::vector<real> damping, std::vector<real> armature)
    : model_(&model), dyn_((check_cpu(model, "SolverGeneralizedIntegrator"), model), std::move(armature)),
      integrator_(parse_integrator(integrator)) {
  if (damping.empty()) damping.assign(model.joint_dof_count, 0);
  if (int(damping.size()) != model.joint_dof_count)
    throw std::invalid_argument("SolverGeneralizedIntegrator: joint_damping needs one value per DOF");
  B_ = VectorXr(damping.size());
  for (std::size_t k = 0; k < damping.size(); ++k) {
    if (!(damping[k] >= 0)) throw std::invalid_argument("SolverGeneralizedIntegrator: joint_damping must be >= 0");
    B_[k] = damping[k];
  }
  // forward() may be called before the first step: no external force until a step reads one.
  body_f_.assign(std::size_t(model.body_count), spatial_vector{});
  joint_f_.assign(std::size_t(model.joint_dof_count), real(0));
}

VectorXr SolverGeneralizedIntegrator::forward(const std::vector<real>& q, const VectorXr& qd) {
  ++forward_calls_;
  std::vector<real> v(qd.data(), qd.data() + qd.size());
  VectorXr r = dyn_.generalized_force(q, v, body_f_, joint_f_, model_->gravity) - B_.cwiseProduct(qd);
  return cholesky_or_throw(dyn_.mass_matrix(q)).solve(r);
}

void SolverGeneralizedIntegrator::step(const State& in, State& out, const Control& control, real h) {
  if (&in == &out) throw std::invalid_argument("SolverGeneralizedIntegrator.step: state_in and state_out must differ");
  if (!(h > 0)) throw std::invalid_argument("SolverGeneralizedIntegrator.step: dt must be > 0 s");
  const Model& m = *model_;
  body_f_ = in.body_f.to_host();
  joint_f_ = host_of(control.joint_f, m.joint_dof_count);
  auto q = in.joint_q.to_host();
  auto qd_h = in.joint_qd.to_host();
  VectorXr qd = Eigen::Map<const VectorXr>(qd_h.data(), qd_h.size());
  if (integrator_ == GeneralizedIntegrator::rk4) {
    // Classic RK4 on (q, qd); stage positions are q0 advanced by the stage velocity.
    VectorXr v1 = qd, a1 = forward(q, v1);
    VectorXr v2 = qd + h / 2 * a1, a2 = forward(dyn_.integrate_coords(q, v1, h / 2), v2);
    VectorXr v3 = qd + h / 2 * a2, a3 = forward(dyn_.integrate_coords(q, v2, h / 2), v3);
    VectorXr v4 = qd + h * a3, a4 = forward(dyn_.integrate_coords(q, v3, h), v4);
    VectorXr v_w = (v1 + 2 * v2 + 2 * v3 + v4) / 6;
    VectorXr qd_next = qd + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    write_state(m, dyn_.integrate_coords(q, v_w, h), qd_next, out);
    return;
  }
  ++forward_calls_;
  BlockDiagonalMatrix M = dyn_.mass_matrix(q);
  VectorXr r = dyn_.generalized_force(q, qd_h, body_f_, joint_f_, m.gravity) - B_.cwiseProduct(qd);
  const int na = dyn_.articulation_count();
  // D = df/dqd is block-diagonal like M: this integrator takes no contacts and body_f is a fixed
  // input, so the generalized force of one articulation depends on its own qd only. (Velocity-
  // dependent penalty contact damping between bodies of two articulations would couple their
  // blocks; SolverGeneralizedIntegrator has no contact input, so that case cannot arise here.)
  std::vector<MatrixXr> D(na);
  for (int a = 0; a < na; ++a) {
    const int d0 = dyn_.articulation_dof_begin(a), n = dyn_.articulation_dof_end(a) - d0;
    D[a] = -MatrixXr(B_.segment(d0, n).asDiagonal());
  }
  if (integrator_ == GeneralizedIntegrator::implicit) {
    // The RNE velocity derivative: the bias force is quadratic in qd, so a central difference is
    // exact. Column k of every articulation's block comes from one pair of evaluations that
    // perturbs the k-th DOF of all articulations at once (their forces do not couple, see above).
    const real e = 1e-3;
    int max_n = 0;
    for (int a = 0; a < na; ++a) max_n = std::max(max_n, int(D[a].cols()));
    for (int k = 0; k < max_n; ++k) {
      std::vector<real> vp(qd_h), vm(qd_h);
      for (int a = 0; a < na; ++a)
        if (k < D[a].cols()) {
          vp[dyn_.articulation_dof_begin(a) + k] += e;
          vm[dyn_.articulation_dof_begin(a) + k] -= e;
        }
      VectorXr dtau = (dyn_.generalized_force(q, vp, body_f_, joint_f_, m.gravity) -
                              dyn_.generalized_force(q, vm, body_f_, joint_f_, m.gravity)) / (2 * e);
      for (int a = 0; a < na; ++a)
        if (k < D[a].cols()) D[a].col(k) += dtau.segment(dyn_.articulation_dof_begin(a), D[a].rows());
    }
  }
  VectorXr dv(qd.size());
  for (int a = 0; a < na; ++a) {
    const int d0 = dyn_.articulation_dof_begin(a), n = int(D[a].rows());
    if (n > 0)
      dv.segment(d0, n) = velocity_implicit_step(M.blocks[a], D[a], r.segment(d0, n), h,
                                                 integrator_ != GeneralizedIntegrator::implicit, a);
  }
  VectorXr qd_next = qd + dv;
  write_state(m, dyn_.integrate_coords(q, qd_next, h), qd_next, out);
}

}  // namespace impulse
