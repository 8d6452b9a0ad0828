// The MuJoCo-semantics integrators (course E3 §6) as passes over core primitives: the shared passes
// of articulation_passes.h (FK, J, H, tau, Cholesky), then one item per articulation for the
// velocity-implicit solve and the central differences, one item per DOF for the vector updates.
#include "e3/solvers/generalized/solver_generalized_integrator.h"

#include <stdexcept>
#include <string>

#include "core/parallel_for.h"
#include "e1/kinematics.h"
#include "e3/solvers/generalized/velocity_implicit.h"

namespace impulse {

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

SolverGeneralizedIntegrator::SolverGeneralizedIntegrator(const Model& model, const std::string& integrator,
                                                         std::vector<real> damping, std::vector<real> armature)
    : model_(&model), integrator_(parse_integrator(integrator)), A_(model, std::move(armature)) {
  const Model& m = model;
  const Device d = m.device;
  const int nd = m.joint_dof_count, nb = m.body_count;
  if (damping.empty()) damping.assign(nd, 0);
  if (int(damping.size()) != nd)
    throw std::invalid_argument("SolverGeneralizedIntegrator: joint_damping needs one value per DOF");
  for (real b : damping)
    if (!(b >= 0)) throw std::invalid_argument("SolverGeneralizedIntegrator: joint_damping must be >= 0");
  B_ = Buffer<real>(d, damping);
  D_ = Buffer<real>(d, A_.H.size());
  piv_ = Buffer<int>(d, nd);
  // forward() may be called before the first step: no external force until a step reads one.
  body_f_ = Buffer<spatial_vector>(d, std::vector<spatial_vector>(std::size_t(nb), spatial_vector{}));
  joint_f_ = Buffer<real>(d, std::vector<real>(std::size_t(nd), real(0)));
  q_stage_ = Buffer<real>(d, m.joint_coord_count);
  v_ = Buffer<real>(d, 4 * std::int64_t(nd));
  a_ = Buffer<real>(d, 4 * std::int64_t(nd));
  qd_pert_ = Buffer<real>(d, nd);
  tau_pm_ = Buffer<real>(d, 2 * std::int64_t(nd));
  X_pert_ = Buffer<transform>(d, std::vector<transform>(std::size_t(nb), transform_identity()));
  V_pert_ = Buffer<spatial_vector>(d, std::vector<spatial_vector>(std::size_t(nb), spatial_vector{}));
  a0_pert_ = Buffer<spatial_vector>(d, std::vector<spatial_vector>(std::size_t(nb), spatial_vector{}));
}

// a = H(q)^-1 (tau(q, v) - B v): one forward evaluation (an rk4 stage); its factorization's failure
// is flagged for the step's readback.
void SolverGeneralizedIntegrator::evaluate_forward(View<const real> q, View<const real> v, View<real> a) {
  const Model& m = *model_;
  ++forward_calls_;
  articulation_forward_kinematics(m, A_, q, v);
  articulation_jacobians(m, A_, q);
  articulation_mass_matrix(m, A_);
  articulation_generalized_force(m, A_, q, v, body_f_.view(), joint_f_.view());
  auto x = A_.x.view();
  View<const real> B = B_.view();
  parallel_for(m.device, m.joint_dof_count, IMPULSE_KERNEL((std::int64_t k), { x[k] = x[k] - B[k] * v[k]; }));
  factor_blocks(m, A_);
  solve_blocks(m, A_);
  View<const real> xs = A_.x.view();
  parallel_for(m.device, m.joint_dof_count, IMPULSE_KERNEL((std::int64_t k), { a[k] = xs[k]; }));
}

// Per articulation: r = tau - B qd, then (M - h D) dv = h r (velocity_implicit_solve) with M = H in
// place; dv into A_.x. Cholesky for euler and implicitfast (D = -B is symmetric), LU for implicit.
void SolverGeneralizedIntegrator::velocity_implicit_update(const State& in, real h) {
  const Model& m = *model_;
  const bool symmetric = integrator_ != GeneralizedIntegrator::implicit;
  View<const real> qd = in.joint_qd.view(), B = B_.view(), D = D_.view();
  auto H = A_.H.view();
  auto x = A_.x.view();
  auto piv = piv_.view();
  auto failed = A_.spd_failed.view();
  View<const std::int64_t> H_start = A_.H_start.view();
  View<const int> d_begin = A_.dof_begin.view(), d_end = A_.dof_end.view();
  parallel_for(m.device, A_.articulation_count, IMPULSE_KERNEL((std::int64_t a), {
    const int d0 = d_begin[a], n = d_end[a] - d0;
    for (int k = d0; k < d0 + n; ++k) x[k] = x[k] - B[k] * qd[k];
    if (!velocity_implicit_solve(&H[H_start[a]], &D[H_start[a]], h, symmetric, n, &x[d0], &piv[d0])) failed[a] = 1;
  }));
}

// D_a = -diag(B_a), plus for implicit the RNE velocity derivative by central differences: the bias
// force is quadratic in qd, so
//   D_a[:, k] += (tau(q, qd + e e_k) - tau(q, qd - e e_k)) / (2 e),   e = 1e-3
// is exact up to rounding. One item per articulation walks its columns; each evaluation is the
// FK twists, bias accelerations and tau of articulation_force_item at the perturbed velocity.
void SolverGeneralizedIntegrator::central_difference_jacobian(const State& in) {
  const Model& m = *model_;
  const JointTree t = joint_tree_of(m);
  const vec3 g = m.gravity;
  const bool rne = integrator_ == GeneralizedIntegrator::implicit;
  const std::int64_t nd = m.joint_dof_count;
  View<const real> q = in.joint_q.view(), qd = in.joint_qd.view(), B = B_.view(), jf = joint_f_.view();
  View<const real> J = A_.J.view();
  View<const spatial_vector> W = body_f_.view();
  auto D = D_.view();
  auto qp = qd_pert_.view();
  auto T = tau_pm_.view();
  auto Xp = X_pert_.view();
  auto Vp = V_pert_.view();
  auto A0p = a0_pert_.view();
  View<const std::int64_t> J_start = A_.J_start.view(), H_start = A_.H_start.view();
  View<const int> d_begin = A_.dof_begin.view(), d_end = A_.dof_end.view();
  parallel_for(m.device, A_.articulation_count, IMPULSE_KERNEL((std::int64_t a), {
    const int d0 = d_begin[a], n = d_end[a] - d0;
    real* Da = &D[H_start[a]];
    for (int r = 0; r < n; ++r)
      for (int k = 0; k < n; ++k) Da[r * n + k] = r == k ? -B[d0 + r] : real(0);
    if (!rne) return;
    const real e = real(1e-3);
    for (int k = 0; k < n; ++k) {
      for (int s = 0; s < 2; ++s) {
        for (int i = d0; i < d0 + n; ++i) qp[i] = qd[i];
        qp[d0 + k] += s ? -e : e;
        articulation_fk_item(t, a, q, View<const real>(qp), Xp, Vp);
        articulation_force_item(t, a, d0, n, q, View<const real>(qp), View<const transform>(Xp),
                                View<const spatial_vector>(Vp), A0p, &J[J_start[a]], W, jf, true, g,
                                &T[s * nd + d0]);
      }
      for (int r = 0; r < n; ++r) Da[r * n + k] += (T[d0 + r] - T[nd + d0 + r]) / (2 * e);
    }
  }));
}

// v = qd + c a, per DOF (an rk4 stage velocity).
void SolverGeneralizedIntegrator::rk4_combine(View<const real> qd, View<const real> a, real c, View<real> v) {
  parallel_for(model_->device, model_->joint_dof_count, IMPULSE_KERNEL((std::int64_t k), { v[k] = qd[k] + c * a[k]; }));
}

// The classic weights, per DOF (v1 = qd, a_i the stage accelerations):
//   v_w = (v1 + 2 v2 + 2 v3 + v4) / 6,   qd+ = qd + h/6 (a1 + 2 a2 + 2 a3 + a4)
// then q+ = q advanced by v_w over h, and FK.
void SolverGeneralizedIntegrator::rk4_finish(const State& in, State& out, real h) {
  const Model& m = *model_;
  const std::int64_t nd = m.joint_dof_count;
  View<const real> qd = in.joint_qd.view(), a = a_.view();
  auto v = v_.view();
  auto qd_out = out.joint_qd.view();
  const real c = h / 6;
  parallel_for(m.device, nd, IMPULSE_KERNEL((std::int64_t k), {
    v[k] = (qd[k] + 2 * v[nd + k] + 2 * v[2 * nd + k] + v[3 * nd + k]) / 6;
    qd_out[k] = qd[k] + c * (a[k] + 2 * a[nd + k] + 2 * a[2 * nd + k] + a[3 * nd + k]);
  }));
  articulation_integrate_coords(m, A_, in.joint_q.view(), View<const real>{v_.data(), nd}, h, out.joint_q.view());
  eval_fk(m, out.joint_q.view(), out.joint_qd.view(), out);
}

// qd+ = qd + dv, then q+ = q advanced by qd+ over h (velocity first), and FK.
void SolverGeneralizedIntegrator::write_velocity(const State& in, State& out, real h) {
  const Model& m = *model_;
  View<const real> qd = in.joint_qd.view(), dv = A_.x.view();
  auto qd_out = out.joint_qd.view();
  parallel_for(m.device, m.joint_dof_count, IMPULSE_KERNEL((std::int64_t k), { qd_out[k] = qd[k] + dv[k]; }));
  articulation_integrate_coords(m, A_, in.joint_q.view(), out.joint_qd.view(), h, out.joint_q.view());
  eval_fk(m, out.joint_q.view(), out.joint_qd.view(), out);
}

void SolverGeneralizedIntegrator::step(const State& in, State& out, const Control& control, real h) {
  if (&in == &out) throw std::invalid_argument("SolverGeneralizedIntegrator.step: state_in and state_out must differ");
  if (!(h > 0)) throw std::invalid_argument("SolverGeneralizedIntegrator.step: dt must be > 0 s");
  const Model& m = *model_;
  const Device d = m.device;
  const std::int64_t nd = m.joint_dof_count;
  if (in.body_f.size() != m.body_count || in.joint_q.size() != m.joint_coord_count || in.joint_qd.size() != nd ||
      out.joint_q.size() != m.joint_coord_count || out.joint_qd.size() != nd)
    throw std::invalid_argument("SolverGeneralizedIntegrator.step: State arrays do not match the model");
  // This step's external forces, kept for forward(); joint_f shorter than the DOF count is zero.
  device_copy(body_f_.data(), d, in.body_f.data(), d, sizeof(spatial_vector) * std::size_t(m.body_count));
  auto jf = joint_f_.view();
  const View<const real> cjf = control.joint_f;
  const bool has_jf = cjf.size >= nd;
  parallel_for(d, nd, IMPULSE_KERNEL((std::int64_t k), { jf[k] = has_jf ? cjf[k] : real(0); }));
  clear_failures(m, A_);
  View<const real> q = in.joint_q.view(), qd = in.joint_qd.view();
  if (integrator_ == GeneralizedIntegrator::rk4) {
    // Classic RK4 on (q, qd); stage positions are q0 advanced by the stage velocity.
    auto slot = [nd](Buffer<real>& b, int i) { return View<real>{b.data() + i * nd, nd}; };
    View<real> qs = q_stage_.view();
    evaluate_forward(q, qd, slot(a_, 0));                                   // a1 at (q, v1 = qd)
    rk4_combine(qd, slot(a_, 0), h / 2, slot(v_, 1));                       // v2 = qd + h/2 a1
    articulation_integrate_coords(m, A_, q, qd, h / 2, qs);                 // q2: q advanced by v1 over h/2
    evaluate_forward(qs, slot(v_, 1), slot(a_, 1));
    rk4_combine(qd, slot(a_, 1), h / 2, slot(v_, 2));                       // v3 = qd + h/2 a2
    articulation_integrate_coords(m, A_, q, slot(v_, 1), h / 2, qs);        // q3: by v2 over h/2
    evaluate_forward(qs, slot(v_, 2), slot(a_, 2));
    rk4_combine(qd, slot(a_, 2), h, slot(v_, 3));                           // v4 = qd + h a3
    articulation_integrate_coords(m, A_, q, slot(v_, 2), h, qs);            // q4: by v3 over h
    evaluate_forward(qs, slot(v_, 3), slot(a_, 3));
    throw_if_not_spd(m, A_);                                                // the step's one readback
    rk4_finish(in, out, h);
    return;
  }
  ++forward_calls_;
  articulation_forward_kinematics(m, A_, q, qd);
  articulation_jacobians(m, A_, q);
  articulation_mass_matrix(m, A_);                                          // M = H(q)
  articulation_generalized_force(m, A_, q, qd, body_f_.view(), joint_f_.view());
  // D = df/dqd is block-diagonal like M: this integrator takes no contacts and body_f is a fixed
  // input, so the generalized force of one articulation depends on its own qd only.
  central_difference_jacobian(in);
  velocity_implicit_update(in, h);                                          // dv
  throw_if_not_spd(m, A_);                                                  // the step's one readback
  write_velocity(in, out, h);
}

std::vector<real> SolverGeneralizedIntegrator::forward(const std::vector<real>& q, const std::vector<real>& qd) {
  const Model& m = *model_;
  const Device d = m.device;
  const std::int64_t nd = m.joint_dof_count;
  if (std::int64_t(q.size()) != m.joint_coord_count || std::int64_t(qd.size()) != nd)
    throw std::invalid_argument("SolverGeneralizedIntegrator.forward: q needs " + std::to_string(m.joint_coord_count) +
                                " coordinates and qd " + std::to_string(nd) + " DOF");
  device_copy(q_stage_.data(), d, q.data(), Device::cpu, sizeof(real) * q.size());
  device_copy(v_.data(), d, qd.data(), Device::cpu, sizeof(real) * qd.size());
  clear_failures(m, A_);
  evaluate_forward(q_stage_.view(), View<const real>{v_.data(), nd}, View<real>{a_.data(), nd});
  throw_if_not_spd(m, A_);
  std::vector<real> a(static_cast<std::size_t>(nd));
  device_copy(a.data(), Device::cpu, a_.data(), d, sizeof(real) * a.size());
  return a;
}

}  // namespace impulse
