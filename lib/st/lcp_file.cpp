#include "st/lcp_file.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace impulse::st {

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

constexpr std::size_t kMaxLineBytes = 1 << 20;     // a row of 2000 numbers in full precision is ~50 kB
constexpr std::size_t kMaxFileBytes = 256u << 20;  // n = 2000 in full precision is ~100 MB

// A token shown in a message: at most 40 characters, control characters as '?', so that the
// message stays one printable line whatever the file holds.
std::string shown(const std::string& t) {
  std::string s = t.size() > 40 ? t.substr(0, 40) + "..." : t;
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return s;
}

std::vector<Line> read_lines(std::istream& in, const std::string& src) {
  std::vector<Line> out;
  std::string line;
  int no = 0;
  std::size_t bytes = 0;
  while (std::getline(in, line)) {
    ++no;
    bytes += line.size() + 1;
    if (bytes > kMaxFileBytes) throw std::invalid_argument(src + ":" + std::to_string(no) + ": input larger than 256 MiB");
    if (line.size() > kMaxLineBytes) throw std::invalid_argument(src + ":" + std::to_string(no) + ": line longer than 1 MiB");
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
  const std::string where = src + ":" + std::to_string(t.line) + ": " + what + " '" + shown(t.text) + "' ";
  char* end = nullptr;
  const double x = std::strtod(t.text.c_str(), &end);
  if (end == t.text.c_str() || *end != '\0') throw std::invalid_argument(where + "is not a number");
  if (!std::isfinite(x)) throw std::invalid_argument(where + "is not finite (entries must be within [-1e12, 1e12])");
  if (std::abs(x) > 1e12) throw std::invalid_argument(where + "is outside [-1e12, 1e12]");
  return x;
}

}  // namespace

LcpProblem read_lcp(std::istream& in, const std::string& src) {
  const std::vector<Line> lines = read_lines(in, src);
  auto at = [&](int no) { return src + ":" + std::to_string(no) + ": "; };
  if (lines.empty()) throw std::invalid_argument(src + ": empty file (expected n on the first line)");
  const Line& first = lines[0];
  if (first.tokens.size() != 1)
    throw std::invalid_argument(at(first.no) + "the first line holds n alone, got " + plural(first.tokens.size(), "number"));
  const double nd = number(first.tokens[0], src, "n");
  if (nd < 1 || nd != std::floor(nd) || nd > 2000)
    throw std::invalid_argument(at(first.no) + "n must be an integer in [1, 2000], got '" + shown(first.tokens[0].text) + "'");
  const int n = int(nd);
  LcpProblem p{Eigen::MatrixXd(n, n), Eigen::VectorXd(n)};
  // M: n lines of n numbers.
  for (int i = 0; i < n; ++i) {
    if (1 + i >= int(lines.size()))
      throw std::invalid_argument(at(lines.back().no) + "file ends after " + plural(i, "row") + " of M; n = " +
                                  std::to_string(n) + " needs " + std::to_string(n) + " rows of " + std::to_string(n) +
                                  " numbers, then q");
    const Line& l = lines[1 + i];
    if (int(l.tokens.size()) != n)
      throw std::invalid_argument(at(l.no) + "row " + std::to_string(i + 1) + " of M has " +
                                  plural(l.tokens.size(), "number") + "; M is n x n with n = " + std::to_string(n));
    for (int j = 0; j < n; ++j)
      p.M(i, j) = number(l.tokens[j], src, "M(" + std::to_string(i + 1) + "," + std::to_string(j + 1) + ")");
  }
  // q: one line of n numbers, or n lines of one.
  const std::size_t q_first = 1 + n;
  const std::size_t rest = lines.size() - std::min(lines.size(), q_first);
  if (rest == 0)
    throw std::invalid_argument(at(lines.back().no) + "file ends after M; q (" + plural(n, "number") + ") is missing");
  const bool one_line = int(lines[q_first].tokens.size()) == n;
  const std::size_t q_lines = one_line ? 1 : std::size_t(n);
  for (std::size_t k = 0; k < std::min(rest, q_lines); ++k) {
    const Line& l = lines[q_first + k];
    if (!one_line && l.tokens.size() != 1)
      throw std::invalid_argument(at(l.no) + "q has " + plural(l.tokens.size(), "number") +
                                  " on this line; give q as one line of " + plural(n, "number") + " or " +
                                  std::to_string(n) + " lines of one");
  }
  if (rest < q_lines)
    throw std::invalid_argument(at(lines.back().no) + "file ends after " + plural(rest, "line") + " of q; n = " +
                                std::to_string(n) + " needs " + std::to_string(n));
  if (rest > q_lines) {
    const Line& l = lines[q_first + q_lines];
    throw std::invalid_argument(at(l.no) + "unexpected extra number '" + shown(l.tokens[0].text) + "' after q (n = " +
                                std::to_string(n) + ")");
  }
  for (int i = 0; i < n; ++i) {
    const Token& t = one_line ? lines[q_first].tokens[i] : lines[q_first + i].tokens[0];
    p.q(i) = number(t, src, "q(" + std::to_string(i + 1) + ")");
  }
  return p;
}

void write_lcp(std::ostream& out, const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const std::string& comment) {
  std::istringstream lines(comment);
  std::string line;
  while (std::getline(lines, line)) out << "# " << line << '\n';
  const auto old = out.precision(17);
  out << M.rows() << '\n';
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    for (Eigen::Index j = 0; j < M.cols(); ++j) out << (j ? " " : "") << M(i, j);
    out << '\n';
  }
  for (Eigen::Index i = 0; i < q.size(); ++i) out << (i ? " " : "") << q(i);
  out << '\n';
  out.precision(old);
}

}  // namespace impulse::st
