// What every LCP driver of `./run bench-peers` shares (impulse_lcp, dart_lcp, siconos_lcp): the
// command line, the reading of the LCP files (st::read_lcp, the format of lib/st/lcp_file.h), the
// timing loop and the check that is independent of each solver's own status.
//
//   DRIVER --solver NAME [--repeat R] FILE...
//
// Per file, one JSON line: n, seconds per solve (one untimed warm-up solve, then R timed solves,
// each from the same M and q), the solver's own verdict and the independent check of its z:
//
//   w = M z + q;  scale = max(1, max|q|, max|M| max|z|);  zscale = max(1, max|z|)
//   complementarity = max_i |z_i w_i| / (scale zscale)
//   feasibility     = max(max(0, -min z) / zscale, max(0, -min w) / scale)
//   solved  <=>  z finite, complementarity <= 1e-6 and feasibility <= 1e-6
//
// (the relative residuals of st::lcp_residuals, lib/st/lcp.h, at CHECK_TOL). Timing only; nothing
// here asserts a time.
#pragma once

#include <Eigen/Dense>
#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "st/lcp.h"
#include "st/lcp_file.h"

namespace impulse::bench {

constexpr double CHECK_TOL = 1e-6;  // [-] relative residual tolerance of the independent check

/// What a solver returns: its z and its own verdict.
struct LcpAnswer {
  Eigen::VectorXd z;
  bool own_solved = false;
  std::string own_status;  // the solver's own status code or name
};

/// A solver prepared for one problem (setup outside the timed loop), called R + 1 times.
using PreparedSolve = std::function<LcpAnswer()>;
using Prepare = std::function<PreparedSolve(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const std::string& solver)>;

/// Runs the driver's command line; `solvers` lists the names --solver accepts. Exit 2 for bad
/// arguments or a bad file (one line on stderr), 0 otherwise (a failed solve is data, not an error).
inline int run_lcp_driver(int argc, char** argv, const std::string& engine, const std::vector<std::string>& solvers,
                          const Prepare& prepare) {
  std::string solver = solvers.front();
  long repeat = 10;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--solver" || a == "--repeat") && i + 1 < argc) {
      const std::string v = argv[++i];
      if (a == "--solver") {
        solver = v;
      } else {
        try {
          std::size_t used = 0;
          repeat = std::stol(v, &used);
          if (used != v.size()) repeat = -1;
        } catch (const std::exception&) {
          repeat = -1;
        }
        if (repeat < 1 || repeat > 100000) {
          std::cerr << engine << "_lcp: --repeat must be a whole number in [1, 100000], got '" << v << "'\n";
          return 2;
        }
      }
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << engine << "_lcp: unknown option '" << a << "' (usage: --solver NAME [--repeat R] FILE...)\n";
      return 2;
    } else {
      files.push_back(a);
    }
  }
  bool known = false;
  std::string names;
  for (const std::string& s : solvers) {
    known = known || s == solver;
    names += (names.empty() ? "" : ", ") + s;
  }
  if (!known) {
    std::cerr << engine << "_lcp: --solver must be one of " << names << ", got '" << solver << "'\n";
    return 2;
  }
  if (files.empty()) {
    std::cerr << engine << "_lcp: no LCP FILE given\n";
    return 2;
  }
  std::vector<st::LcpProblem> problems;
  for (const std::string& f : files) {
    std::ifstream in(f);
    if (!in) {
      std::cerr << engine << "_lcp: cannot read '" << f << "'\n";
      return 2;
    }
    try {
      problems.push_back(st::read_lcp(in, f));
    } catch (const std::invalid_argument& e) {
      std::cerr << engine << "_lcp: " << e.what() << '\n';
      return 2;
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    const st::LcpProblem& p = problems[i];
    const PreparedSolve solve = prepare(p.M, p.q, solver);
    LcpAnswer ans = solve();
    const auto t0 = std::chrono::steady_clock::now();
    for (long r = 0; r < repeat; ++r) ans = solve();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / double(repeat);
    double complementarity = 0, feasibility = 0;
    const bool finite = ans.z.size() == p.q.size() && ans.z.allFinite();
    if (finite) st::lcp_residuals(p.M, p.q, ans.z, complementarity, feasibility);
    const bool checked = finite && complementarity <= CHECK_TOL && feasibility <= CHECK_TOL;
    nlohmann::json j{{"engine", engine},
                     {"solver", solver},
                     {"file", files[i]},
                     {"n", p.q.size()},
                     {"repeat", repeat},
                     {"seconds_per_solve", seconds},
                     {"own_solved", ans.own_solved},
                     {"own_status", ans.own_status},
                     {"check_solved", checked},
                     {"check_tolerance", CHECK_TOL},
                     {"complementarity", finite ? nlohmann::json(complementarity) : nlohmann::json(nullptr)},
                     {"feasibility", finite ? nlohmann::json(feasibility) : nlohmann::json(nullptr)}};
    std::cout << j.dump() << '\n';
  }
  return 0;
}

}  // namespace impulse::bench
