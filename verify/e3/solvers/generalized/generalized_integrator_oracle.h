// The oracle of SolverGeneralizedIntegrator (verify/e3/solvers/generalized/featherstone_test.cpp):
// the host step it ran before its passes, on GeneralizedDynamics and Eigen (Eigen's LLT, partial-
// pivoting LU and matrix products), one step from given (q, qd, body_f, joint_f).
#pragma once

#include <string>
#include <vector>

#include "core/eigen.h"
#include "e3/solvers/generalized/generalized_dynamics.h"
#include "e3/solvers/generalized/solver_generalized_integrator.h"

namespace impulse {

struct GeneralizedStep {
  std::vector<real> q, qd;  // after the step
};

inline GeneralizedStep generalized_integrator_oracle_step(const Model& m, const std::string& integrator,
                                                          const std::vector<real>& damping,
                                                          const std::vector<real>& armature, const std::vector<real>& q,
                                                          const std::vector<real>& qd_h,
                                                          const std::vector<spatial_vector>& body_f,
                                                          const std::vector<real>& joint_f, real h) {
  const GeneralizedDynamics dyn(m, armature);
  const int nd = m.joint_dof_count;
  const VectorXr B = Eigen::Map<const VectorXr>(damping.data(), nd);
  const VectorXr qd = Eigen::Map<const VectorXr>(qd_h.data(), nd);
  auto forward = [&](const std::vector<real>& qs, const VectorXr& v) -> VectorXr {
    std::vector<real> vs(v.data(), v.data() + v.size());
    VectorXr r = dyn.generalized_force(qs, vs, body_f, joint_f, m.gravity) - B.cwiseProduct(v);
    return cholesky_or_throw(dyn.mass_matrix(qs)).solve(r);
  };
  auto done = [](const std::vector<real>& q_next, const VectorXr& qd_next) {
    return GeneralizedStep{q_next, std::vector<real>(qd_next.data(), qd_next.data() + qd_next.size())};
  };
  const GeneralizedIntegrator kind = parse_integrator(integrator);
  if (kind == GeneralizedIntegrator::rk4) {
    VectorXr v1 = qd, a1 = forward(q, v1);
    VectorXr v2 = qd + h / 2 * a1, a2 = forward(dyn.integrate_coords(q, v1, h / 2), v2);
    VectorXr v3 = qd + h / 2 * a2, a3 = forward(dyn.integrate_coords(q, v2, h / 2), v3);
    VectorXr v4 = qd + h * a3, a4 = forward(dyn.integrate_coords(q, v3, h), v4);
    VectorXr v_w = (v1 + 2 * v2 + 2 * v3 + v4) / 6;
    VectorXr qd_next = qd + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    return done(dyn.integrate_coords(q, v_w, h), qd_next);
  }
  BlockDiagonalMatrix M = dyn.mass_matrix(q);
  VectorXr r = dyn.generalized_force(q, qd_h, body_f, joint_f, m.gravity) - B.cwiseProduct(qd);
  const int na = dyn.articulation_count();
  std::vector<MatrixXr> D(na);
  for (int a = 0; a < na; ++a) {
    const int d0 = dyn.articulation_dof_begin(a), n = dyn.articulation_dof_end(a) - d0;
    D[a] = -MatrixXr(B.segment(d0, n).asDiagonal());
  }
  if (kind == GeneralizedIntegrator::implicit) {
    const real e = 1e-3;
    for (int a = 0; a < na; ++a)
      for (int k = 0; k < D[a].cols(); ++k) {
        std::vector<real> vp(qd_h), vm(qd_h);
        vp[dyn.articulation_dof_begin(a) + k] += e;
        vm[dyn.articulation_dof_begin(a) + k] -= e;
        VectorXr dtau = (dyn.generalized_force(q, vp, body_f, joint_f, m.gravity) -
                         dyn.generalized_force(q, vm, body_f, joint_f, m.gravity)) / (2 * e);
        D[a].col(k) += dtau.segment(dyn.articulation_dof_begin(a), D[a].rows());
      }
  }
  VectorXr dv(nd);
  for (int a = 0; a < na; ++a) {
    const int d0 = dyn.articulation_dof_begin(a), n = int(D[a].rows());
    if (n == 0) continue;
    MatrixXr A = M.blocks[a] - h * D[a];
    VectorXr hr = h * r.segment(d0, n);
    if (kind == GeneralizedIntegrator::implicit) dv.segment(d0, n) = A.partialPivLu().solve(hr);
    else dv.segment(d0, n) = cholesky_or_throw(A, a).solve(hr);
  }
  VectorXr qd_next = qd + dv;
  return done(dyn.integrate_coords(q, qd_next, h), qd_next);
}

}  // namespace impulse
