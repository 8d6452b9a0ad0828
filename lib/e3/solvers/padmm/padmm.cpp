// PADMM settings, reporting (course E3 §6, §10 ex. 7) and the host entry to the block solve
// (padmm_block.h) on Eigen arrays.
#include "e3/solvers/padmm/padmm.h"
#include "e3/solvers/padmm/padmm_block.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

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
  const Eigen::Matrix<real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> W_rows = W;
  std::vector<real> scratch(std::size_t(padmm_block_scratch(n)));
  int failure = padmm_ok;
  const PADMMStatus status = padmm_solve_block(W_rows.data(), b.data(), mu.data(), nj, n, st, x.data(), scratch.data(), &failure);
  check_padmm_failure(failure, status.iterations, st.rho);
  if (u_out) *u_out = W * x + b;
  return status;
}

void check_padmm_failure(int failure, int iteration, real rho) {
  if (failure == padmm_not_spd) throw std::runtime_error("padmm_solve: W + (rho + eta) I is not positive definite");
  if (failure == padmm_diverged)
    throw std::runtime_error("padmm_solve: the iteration diverged (non-finite residual at iteration " +
                             std::to_string(iteration) + " with rho = " + std::to_string(rho) +
                             "); no impulse is returned. A larger rho or a smaller step may converge");
}

}  // namespace impulse
