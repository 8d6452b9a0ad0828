// DART 6.12's LCP solver on the files of the LCP comparison (Debian libdart-dev):
// dart::lcpsolver::Lemke (dart/lcpsolver/Lemke.hpp), Lemke's method with a dense LU solve of the
// basis at every pivot, a minimum-ratio test with a 1e-5 slack and 1000 pivots at most.
// Its return code: 0 solved (its own check: w, z >= -1e-4 and |w_i z_i| <= 1e-4, absolute),
// 1 pivot limit, 3 its check failed, 4 diverged; a ray ends the loop with code 0 and is then
// caught by the same check (code 3).
// DART's other LCP solver, the ODE-derived Dantzig dSolveLCP (dart/external/odelcpsolver/lcp.h),
// keeps an L D L^T factorisation of the clamped block (its source notes), so it assumes a symmetric
// matrix; the Stewart-Trinkle contact LCP is not symmetric (the blocks E, -E^T and U of its
// friction-cone rows), so it is not run here.
//   dart_lcp [--solver lemke] [--repeat R] FILE...   (see lcp_common.h)
#include <dart/lcpsolver/Lemke.hpp>

#include "lcp_common.h"

int main(int argc, char** argv) {
  using namespace impulse;
  return bench::run_lcp_driver(argc, argv, "dart", {"lemke"},
                               [](const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const std::string&) {
                                 return [&M, &q] {
                                   bench::LcpAnswer a;
                                   const int err = dart::lcpsolver::Lemke(M, q, &a.z);
                                   a.own_solved = err == 0;
                                   a.own_status = std::to_string(err);
                                   return a;
                                 };
                               });
}
