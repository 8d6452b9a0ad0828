// impulse's side of the LCP comparison: Lemke's method with lexicographic degeneracy resolution
// (st::solve_lcp, lib/st/lcp.h) at its default options.
//   impulse_lcp [--solver lemke] [--repeat R] FILE...   (see lcp_common.h)
#include "lcp_common.h"

int main(int argc, char** argv) {
  using namespace impulse;
  return bench::run_lcp_driver(argc, argv, "impulse", {"lemke"},
                               [](const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const std::string&) {
                                 return [&M, &q] {
                                   const st::LcpResult r = st::solve_lcp(M, q);
                                   return bench::LcpAnswer{r.z, r.status == st::LcpStatus::solved,
                                                           st::to_string(r.status)};
                                 };
                               });
}
