// PADMM solve loop and reporting (course E3 §6, §10 ex. 7). Host code: a dense Delassus problem
// per world, factored with Eigen's LLT.
#include "e3/solvers/padmm/padmm.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace impulse {

void PADMMSettings::validate() const {
  auto positive = [](real v, const char* name) {
    if (!(v > 0)) throw std::invalid_argument(std::string("PADMM setting ") + name + " must be > 0 (got " + std::to_string(v) + ")");
  };
  positive(primal_tolerance, "primal_tolerance");
  positive(dual_tolerance, "dual_tolerance");
  positive(compl_tolerance, "compl_tolerance");
  positive(rho, "rho");
  if (max_iterations < 1)
    throw std::invalid_argument("PADMM setting max_iterations must be >= 1 (got " + std::to_string(max_iterations) + ")");
  if (!(eta >= 0)) throw std::invalid_argument("PADMM setting eta must be >= 0");
  if (!(warmstart_scale >= 0 && warmstart_scale <= 1))
    throw std::invalid_argument("PADMM setting warmstart_scale must lie in [0, 1]");
  if (!(contact_stabilization >= 0 && contact_stabilization <= 1))
    throw std::invalid_argument("PADMM setting contact_stabilization must lie in [0, 1]");
  if (!(joint_stabilization >= 0 && joint_stabilization <= 1))
    throw std::invalid_argument("PADMM setting joint_stabilization must lie in [0, 1]");
}

std::string padmm_status_report(const PADMMStatus& s, int max_iterations) {
  if (s.converged) return "converged";
  if (s.iterations >= max_iterations) return "not converged: iteration budget exhausted";
  return "not converged";
}

PADMMStatus padmm_solve(const MatrixXr& W, const VectorXr& b, const std::vector<real>& mu,
                        const PADMMSettings& st, VectorXr& x, VectorXr* u_out, int nj) {
  st.validate();
  if (nj < 0) throw std::invalid_argument("padmm_solve: the bilateral row count must be >= 0");
  const int nc = int(mu.size()), n = nj + 3 * nc;
  if (W.rows() != n || W.cols() != n || b.size() != n || x.size() != n)
    throw std::invalid_argument("padmm_solve: W, b and x must have " + std::to_string(nj) + " + 3 * " +
                                std::to_string(nc) + " rows");
  for (real m : mu)
    if (!(m >= 0)) throw std::invalid_argument("padmm_solve: friction coefficient mu must be >= 0");
  PADMMStatus status;
  if (n == 0) {
    status.converged = true;
    return status;
  }
  MatrixXr A = W;
  A.diagonal().array() += st.rho + st.eta;
  Eigen::LLT<MatrixXr> llt(A);
  if (llt.info() != Eigen::Success) throw std::runtime_error("padmm_solve: W + (rho + eta) I is not positive definite");
  auto project = [&](const VectorXr& v) {
    VectorXr p = v;  // bilateral rows: the cone is R, nothing to project
    for (int c = 0; c < nc; ++c) {
      const int i = nj + 3 * c;
      vec3 q = project_friction_cone({v[i], v[i + 1], v[i + 2]}, mu[c]);
      p[i] = q.x; p[i + 1] = q.y; p[i + 2] = q.z;
    }
    return p;
  };
  const VectorXr x_start = x;  // given back unchanged when the iteration diverges
  VectorXr y = project(x), z = VectorXr::Zero(n), s = VectorXr::Zero(n);
  x = y;
  for (int k = 1; k <= st.max_iterations; ++k) {
    // De Saxce correction from the current velocity estimate.
    VectorXr u = W * y + b;
    for (int c = 0; c < nc; ++c) s[nj + 3 * c] = mu[c] * std::hypot(u[nj + 3 * c + 1], u[nj + 3 * c + 2]);
    VectorXr x_prev = x, y_prev = y;
    x = llt.solve(-(b + s) + st.eta * x_prev + st.rho * y_prev - z);
    y = project(x + z / st.rho);
    z += st.rho * (x - y);
    status.iterations = k;
    status.r_p = (x - y).cwiseAbs().maxCoeff();
    status.r_d = (st.eta * (x - x_prev) + st.rho * (y - y_prev)).cwiseAbs().maxCoeff();
    status.r_c = 0;
    for (int c = 0; c < nc; ++c)
      status.r_c = std::max(status.r_c, std::abs(x.segment<3>(nj + 3 * c).dot(z.segment<3>(nj + 3 * c))));
    if (!std::isfinite(status.r_p) || !std::isfinite(status.r_d) || !std::isfinite(status.r_c)) {
      x = x_start;
      throw std::runtime_error("padmm_solve: the iteration diverged (non-finite residual at iteration " +
                               std::to_string(k) + " with rho = " + std::to_string(st.rho) +
                               "); no impulse is returned. A larger rho or a smaller step may converge");
    }
    status.converged = padmm_converged(k, status.r_p, status.r_d, status.r_c, st.primal_tolerance, st.dual_tolerance,
                                       st.compl_tolerance);
    if (status.converged) break;
  }
  x = y;
  if (u_out) *u_out = W * y + b;
  return status;
}

}  // namespace impulse
