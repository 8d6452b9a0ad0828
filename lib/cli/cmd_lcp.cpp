// impulse lcp FILE|- [--json]: solve w = M z + q, z >= 0, w >= 0, z^T w = 0 by Lemke's method.
//
// File format ('#' starts a comment, blank lines are skipped): n alone on the first line, then the
// n rows of M, one line of n numbers each, then q: one line of n numbers or n lines of one. A row
// of another length is refused with its line, so a file whose M is not square is never solved
// (the reader is st::read_lcp, lib/st/lcp_file.h). Exit 0 when solved, 1 for any other status (ray
// termination, pivot limit, numerical failure: the LCP was read but not solved), 2 for a bad file.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "st/lcp.h"
#include "st/lcp_file.h"

namespace impulse::cli {

int cmd_lcp(const std::vector<std::string>& args) {
  std::string path;
  bool as_json = false, trace = false;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << "impulse lcp FILE|- [--json] [--trace]\n"
                   "  Solves w = M z + q, z >= 0, w >= 0, z^T w = 0 by Lemke's method (lexicographic).\n"
                   "  FILE: n alone on the first line, then n lines of n numbers (the rows of M), then q as one\n"
                   "  line of n numbers or n lines of one; '#' starts a comment; '-' reads standard input.\n"
                   "  Limits: 1 <= n <= 2000; entries finite, |x| <= 1e12.\n"
                   "  Prints status, z, w, the complementarity and feasibility residuals and the pivot count.\n"
                   "  --trace: also the pivot path (entering and leaving variable, z0 after each pivot).\n"
                   "  Exit 0 solved, 1 not solved (ray termination, pivot limit, numerical failure), 2 bad input.\n"
                   "example:\n  printf '2\\n2 1\\n1 2\\n-5 -6\\n' | impulse lcp -\n";
      return 0;
    }
    if (a == "--json") {
      as_json = true;
    } else if (a == "--trace") {
      trace = true;
    } else if (!path.empty()) {
      throw BadInput("lcp takes one FILE (or -), got '" + path + "' and '" + a + "'");
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      throw BadInput("lcp: unknown option '" + a + "'");
    } else {
      path = a;
    }
  }
  if (path.empty()) throw BadInput("lcp needs a FILE (or - for standard input)");

  const std::string src = path == "-" ? "<stdin>" : path;
  st::LcpProblem p;
  try {
    if (path == "-") {
      p = st::read_lcp(std::cin, src);
    } else {
      std::ifstream f(path);
      if (!f) throw BadInput("cannot read '" + path + "'");
      p = st::read_lcp(f, src);
    }
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  const Eigen::MatrixXd& M = p.M;
  const Eigen::VectorXd& q = p.q;
  const int n = int(q.size());

  st::LcpOptions opt;
  opt.trace = trace;
  const st::LcpResult r = st::solve_lcp(M, q, opt);
  // Lemke variable names: w1..wn, z1..zn (1-based, as printed), z0 the artificial one.
  auto name = [n](int v) { return v < n ? "w" + std::to_string(v + 1) : v < 2 * n ? "z" + std::to_string(v - n + 1) : std::string("z0"); };
  const bool ok = r.status == st::LcpStatus::solved;
  if (as_json) {
    nlohmann::json j{{"status", st::to_string(r.status)},
                     {"n", n},
                     {"z", std::vector<double>(r.z.data(), r.z.data() + n)},
                     {"w", std::vector<double>(r.w.data(), r.w.data() + n)},
                     {"complementarity", r.complementarity},
                     {"feasibility", r.feasibility},
                     {"pivots", r.pivots},
                     {"message", r.message}};
    if (trace) {
      j["trace"] = nlohmann::json::array();
      for (const st::LcpPivot& p : r.trace)
        j["trace"].push_back({{"entering", name(p.entering)}, {"leaving", name(p.leaving)}, {"z0", p.z0}});
    }
    std::cout << j.dump(2) << '\n';
  } else {
    std::cout.precision(12);
    std::cout << "status: " << st::to_string(r.status) << " (" << r.message << ")\nz:";
    for (int i = 0; i < n; ++i) std::cout << ' ' << r.z(i);
    std::cout << "\nw:";
    for (int i = 0; i < n; ++i) std::cout << ' ' << r.w(i);
    std::cout << "\ncomplementarity residual (relative): " << r.complementarity
              << "\nfeasibility residual (relative): " << r.feasibility << "\npivots: " << r.pivots << '\n';
    for (std::size_t i = 0; i < r.trace.size(); ++i)
      std::cout << "pivot " << i + 1 << ": " << name(r.trace[i].entering) << " enters, " << name(r.trace[i].leaving)
                << " leaves, z0 = " << r.trace[i].z0 << '\n';
  }
  return ok ? 0 : 1;
}

}  // namespace impulse::cli
