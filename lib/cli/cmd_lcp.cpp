// impulse lcp FILE|- [--json]: solve w = M z + q, z >= 0, w >= 0, z^T w = 0 by Lemke's method.
//
// File format (whitespace separated, '#' starts a comment): n, then the n rows of M (n numbers
// each), then the n entries of q. Exit 0 when solved, 1 for any other status (ray termination,
// pivot limit, numerical failure: the LCP was read but not solved), 2 for a bad file.
#include <cmath>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "st/lcp.h"

namespace impulse::cli {

namespace {

struct Token {
  std::string text;
  int line;
};

std::vector<Token> tokenize(std::istream& in) {
  std::vector<Token> out;
  std::string line;
  int no = 0;
  while (std::getline(in, line)) {
    ++no;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream s(line);
    std::string t;
    while (s >> t) out.push_back({t, no});
  }
  return out;
}

double number(const Token& t, const std::string& src, const std::string& what) {
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(t.text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != t.text.size())
    throw BadInput(src + ":" + std::to_string(t.line) + ": " + what + " '" + t.text + "' is not a number");
  if (!std::isfinite(x))
    throw BadInput(src + ":" + std::to_string(t.line) + ": " + what + " '" + t.text + "' is not finite");
  return x;
}

}  // namespace

int cmd_lcp(const std::vector<std::string>& args) {
  std::string path;
  bool as_json = false, trace = false;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << "impulse lcp FILE|- [--json] [--trace]\n"
                   "  Solves w = M z + q, z >= 0, w >= 0, z^T w = 0 by Lemke's method (lexicographic).\n"
                   "  FILE: n, then the n rows of M, then q; whitespace separated; '#' comments; '-' = stdin.\n"
                   "  Prints status, z, w, the complementarity and feasibility residuals and the pivot count.\n"
                   "  --trace: also the pivot path (entering and leaving variable, z0 after each pivot).\n"
                   "  Exit 0 solved, 1 not solved (ray termination, pivot limit, numerical failure), 2 bad input.\n";
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

  std::vector<Token> tok;
  const std::string src = path == "-" ? "<stdin>" : path;
  if (path == "-") {
    tok = tokenize(std::cin);
  } else {
    std::ifstream f(path);
    if (!f) throw BadInput("cannot read '" + path + "'");
    tok = tokenize(f);
  }
  if (tok.empty()) throw BadInput(src + ": empty file (expected n on the first line)");
  const double nd = number(tok[0], src, "n");
  if (nd < 1 || nd != std::floor(nd) || nd > 2000)
    throw BadInput(src + ":" + std::to_string(tok[0].line) + ": n must be an integer in [1, 2000], got '" +
                   tok[0].text + "'");
  const int n = int(nd);
  const std::size_t need = 1 + std::size_t(n) * n + n;
  if (tok.size() < need) {
    const int last = tok.back().line;
    const std::size_t got = tok.size() - 1;
    throw BadInput(src + ":" + std::to_string(last) + ": file ends after " + std::to_string(got) +
                   " numbers; n = " + std::to_string(n) + " needs " + std::to_string(n * n) + " for M and " +
                   std::to_string(n) + " for q");
  }
  if (tok.size() > need)
    throw BadInput(src + ":" + std::to_string(tok[need].line) + ": unexpected extra number '" + tok[need].text +
                   "' after q (n = " + std::to_string(n) + ")");
  Eigen::MatrixXd M(n, n);
  Eigen::VectorXd q(n);
  std::size_t k = 1;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j, ++k) M(i, j) = number(tok[k], src, "M(" + std::to_string(i) + "," + std::to_string(j) + ")");
  for (int i = 0; i < n; ++i, ++k) q(i) = number(tok[k], src, "q(" + std::to_string(i) + ")");

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
