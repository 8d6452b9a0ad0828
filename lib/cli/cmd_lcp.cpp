// impulse lcp FILE|- [--json]: solve w = M z + q, z >= 0, w >= 0, z^T w = 0 by Lemke's method.
//
// File format ('#' starts a comment, blank lines are skipped): n alone on the first line, then the
// n rows of M, one line of n numbers each, then q: one line of n numbers or n lines of one. A row
// of another length is refused with its line, so a file whose M is not square is never solved. Exit 0 when solved, 1 for any other status (ray termination,
// pivot limit, numerical failure: the LCP was read but not solved), 2 for a bad file.
#include <algorithm>
#include <cmath>
#include <cstdlib>
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

// The numbers of one non-empty line.
struct Line {
  int no;
  std::vector<Token> tokens;
};

constexpr std::size_t kMaxLineBytes = 1 << 20;   // a row of 2000 numbers in full precision is ~50 kB
constexpr std::size_t kMaxFileBytes = 256u << 20;  // n = 2000 in full precision is ~100 MB

std::vector<Line> read_lines(std::istream& in, const std::string& src) {
  std::vector<Line> out;
  std::string line;
  int no = 0;
  std::size_t bytes = 0;
  while (std::getline(in, line)) {
    ++no;
    bytes += line.size() + 1;
    if (bytes > kMaxFileBytes) throw BadInput(src + ":" + std::to_string(no) + ": input larger than 256 MiB");
    if (line.size() > kMaxLineBytes) throw BadInput(src + ":" + std::to_string(no) + ": line longer than 1 MiB");
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream s(line);
    std::string t;
    Line l{no, {}};
    while (s >> t) l.tokens.push_back({t, no});
    if (!l.tokens.empty()) out.push_back(std::move(l));
  }
  return out;
}

std::string plural(std::size_t k, const char* one) { return std::to_string(k) + " " + one + (k == 1 ? "" : "s"); }

// Entries must be finite and at most 1e12 in magnitude (Lemke's tableau multiplies them).
double number(const Token& t, const std::string& src, const std::string& what) {
  const std::string where = src + ":" + std::to_string(t.line) + ": " + what + " '" + t.text + "' ";
  char* end = nullptr;
  const double x = std::strtod(t.text.c_str(), &end);
  if (end == t.text.c_str() || *end != '\0') throw BadInput(where + "is not a number");
  if (!std::isfinite(x)) throw BadInput(where + "is not finite (entries must be within [-1e12, 1e12])");
  if (std::abs(x) > 1e12) throw BadInput(where + "is outside [-1e12, 1e12]");
  return x;
}

}  // namespace

int cmd_lcp(const std::vector<std::string>& args) {
  std::string path;
  bool as_json = false;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << "impulse lcp FILE|- [--json]\n"
                   "  Solves w = M z + q, z >= 0, w >= 0, z^T w = 0 by Lemke's method (lexicographic).\n"
                   "  FILE: n alone on the first line, then n lines of n numbers (the rows of M), then q as one\n"
                   "  line of n numbers or n lines of one; '#' starts a comment; '-' reads standard input.\n"
                   "  Limits: 1 <= n <= 2000; entries finite, |x| <= 1e12.\n"
                   "  Prints status, z, w, the complementarity and feasibility residuals and the pivot count.\n"
                   "  Exit 0 solved, 1 not solved (ray termination, pivot limit, numerical failure), 2 bad input.\n"
                   "example:\n  printf '2\\n2 1\\n1 2\\n-5 -6\\n' | impulse lcp -\n";
      return 0;
    }
    if (a == "--json") {
      as_json = true;
    } else if (!path.empty()) {
      throw BadInput("lcp takes one FILE (or -), got '" + path + "' and '" + a + "'");
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      throw BadInput("lcp: unknown option '" + a + "'");
    } else {
      path = a;
    }
  }
  if (path.empty()) throw BadInput("lcp needs a FILE (or - for standard input)");

  std::vector<Line> lines;
  const std::string src = path == "-" ? "<stdin>" : path;
  if (path == "-") {
    lines = read_lines(std::cin, src);
  } else {
    std::ifstream f(path);
    if (!f) throw BadInput("cannot read '" + path + "'");
    lines = read_lines(f, src);
  }
  auto at = [&](int no) { return src + ":" + std::to_string(no) + ": "; };
  if (lines.empty()) throw BadInput(src + ": empty file (expected n on the first line)");
  const Line& first = lines[0];
  if (first.tokens.size() != 1)
    throw BadInput(at(first.no) + "the first line holds n alone, got " + plural(first.tokens.size(), "number"));
  const double nd = number(first.tokens[0], src, "n");
  if (nd < 1 || nd != std::floor(nd) || nd > 2000)
    throw BadInput(at(first.no) + "n must be an integer in [1, 2000], got '" + first.tokens[0].text + "'");
  const int n = int(nd);
  Eigen::MatrixXd M(n, n);
  Eigen::VectorXd q(n);
  // M: n lines of n numbers.
  for (int i = 0; i < n; ++i) {
    if (1 + i >= int(lines.size()))
      throw BadInput(at(lines.back().no) + "file ends after " + plural(i, "row") + " of M; n = " + std::to_string(n) +
                     " needs " + std::to_string(n) + " rows of " + std::to_string(n) + " numbers, then q");
    const Line& l = lines[1 + i];
    if (int(l.tokens.size()) != n)
      throw BadInput(at(l.no) + "row " + std::to_string(i + 1) + " of M has " + plural(l.tokens.size(), "number") +
                     "; M is n x n with n = " + std::to_string(n));
    for (int j = 0; j < n; ++j)
      M(i, j) = number(l.tokens[j], src, "M(" + std::to_string(i + 1) + "," + std::to_string(j + 1) + ")");
  }
  // q: one line of n numbers, or n lines of one.
  const std::size_t q_first = 1 + n;
  const std::size_t rest = lines.size() - std::min(lines.size(), q_first);
  if (rest == 0)
    throw BadInput(at(lines.back().no) + "file ends after M; q (" + plural(n, "number") + ") is missing");
  const bool one_line = int(lines[q_first].tokens.size()) == n;
  const std::size_t q_lines = one_line ? 1 : std::size_t(n);
  for (std::size_t k = 0; k < std::min(rest, q_lines); ++k) {
    const Line& l = lines[q_first + k];
    if (!one_line && l.tokens.size() != 1)
      throw BadInput(at(l.no) + "q has " + plural(l.tokens.size(), "number") + " on this line; give q as one line of " +
                     plural(n, "number") + " or " + std::to_string(n) + " lines of one");
  }
  if (rest < q_lines)
    throw BadInput(at(lines.back().no) + "file ends after " + plural(rest, "line") + " of q; n = " + std::to_string(n) +
                   " needs " + std::to_string(n));
  if (rest > q_lines) {
    const Line& l = lines[q_first + q_lines];
    throw BadInput(at(l.no) + "unexpected extra number '" + l.tokens[0].text + "' after q (n = " + std::to_string(n) + ")");
  }
  for (int i = 0; i < n; ++i) {
    const Token& t = one_line ? lines[q_first].tokens[i] : lines[q_first + i].tokens[0];
    q(i) = number(t, src, "q(" + std::to_string(i + 1) + ")");
  }

  const st::LcpResult r = st::solve_lcp(M, q);
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
    std::cout << j.dump(2) << '\n';
  } else {
    std::cout.precision(12);
    std::cout << "status: " << st::to_string(r.status) << " (" << r.message << ")\nz:";
    for (int i = 0; i < n; ++i) std::cout << ' ' << r.z(i);
    std::cout << "\nw:";
    for (int i = 0; i < n; ++i) std::cout << ' ' << r.w(i);
    std::cout << "\ncomplementarity residual (relative): " << r.complementarity
              << "\nfeasibility residual (relative): " << r.feasibility << "\npivots: " << r.pivots << '\n';
  }
  return ok ? 0 : 1;
}

}  // namespace impulse::cli
