// Siconos numerics 4.4's LCP solvers on the files of the LCP comparison (Debian
// libsiconos-numerics-dev), through its C API: a LinearComplementarityProblem with a dense
// NumericsMatrix, SolverOptions from solver_options_create, and linearComplementarity_driver.
//   lemke      SICONOS_LCP_LEMKE: lcp_lexicolemke, Lemke's method on a full tableau with a
//              lexicographic ratio test (every column entry > 0 is a candidate pivot); info 1
//              when the pivot column has no positive entry (a ray) or after 10^4 pivots
//   pivot      SICONOS_LCP_PIVOT: lcp_pivot with its default rule, Lemke's
//              (SICONOS_LCP_PIVOT_LEMKE); info 4 on a ray, 1 without a result
//   newton_fb  SICONOS_LCP_NEWTON_FB_FBLSA: a nonsmooth Newton method on the Fischer-Burmeister
//              function with a line search (iterative, tolerance 1e-6 on its own error measure;
//              minutes on the comparison's sets, so not among run_lcp_peers.py's defaults)
// Own verdict: the driver's info == 0. Problem and options are built once per file, outside the
// timed solves; z and w start from 0 at every solve.
//   siconos_lcp [--solver lemke|pivot|newton_fb] [--repeat R] FILE...   (see lcp_common.h)
#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/lcp_cst.h>

#include <algorithm>
#include <memory>

#include "lcp_common.h"

namespace {

// One problem with its options, owned for as long as the prepared solve lives.
struct SiconosLcp {
  LinearComplementarityProblem problem{};
  SolverOptions* options = nullptr;
  std::vector<double> q, w;
  SiconosLcp(const Eigen::MatrixXd& M, const Eigen::VectorXd& qv, int solver_id)
      : q(qv.data(), qv.data() + qv.size()), w(std::size_t(qv.size())) {
    const int n = int(qv.size());
    problem.size = n;
    problem.M = NM_create(NM_DENSE, n, n);
    std::copy(M.data(), M.data() + M.size(), problem.M->matrix0);  // both column-major
    problem.q = q.data();
    options = solver_options_create(solver_id);
  }
  ~SiconosLcp() {
    solver_options_delete(options);
    NM_free(problem.M);
  }
  SiconosLcp(const SiconosLcp&) = delete;
  SiconosLcp& operator=(const SiconosLcp&) = delete;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace impulse;
  return bench::run_lcp_driver(
      argc, argv, "siconos", {"lemke", "pivot", "newton_fb"},
      [](const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const std::string& solver) {
        const int id = solver == "lemke" ? SICONOS_LCP_LEMKE
                       : solver == "pivot" ? SICONOS_LCP_PIVOT
                                           : SICONOS_LCP_NEWTON_FB_FBLSA;
        auto p = std::make_shared<SiconosLcp>(M, q, id);
        return [p] {
          bench::LcpAnswer a;
          a.z = Eigen::VectorXd::Zero(p->problem.size);
          std::fill(p->w.begin(), p->w.end(), 0.0);
          const int info = linearComplementarity_driver(&p->problem, a.z.data(), p->w.data(), p->options);
          a.own_solved = info == 0;
          a.own_status = std::to_string(info);
          return a;
        };
      });
}
