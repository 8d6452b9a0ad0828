#include "st/lcp_file.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace impulse::st {

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

// A token shown in a message: at most 40 characters, control characters as '?', so that the
// message stays one printable line whatever the file holds.
std::string shown(const std::string& t) {
  std::string s = t.size() > 40 ? t.substr(0, 40) + "..." : t;
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return s;
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
    throw std::invalid_argument(src + ":" + std::to_string(t.line) + ": " + what + " '" + shown(t.text) +
                                "' is not a number");
  if (!std::isfinite(x))
    throw std::invalid_argument(src + ":" + std::to_string(t.line) + ": " + what + " '" + shown(t.text) +
                                "' is not finite");
  return x;
}

}  // namespace

LcpProblem read_lcp(std::istream& in, const std::string& src) {
  const std::vector<Token> tok = tokenize(in);
  if (tok.empty()) throw std::invalid_argument(src + ": empty file (expected n on the first line)");
  const double nd = number(tok[0], src, "n");
  if (nd < 1 || nd != std::floor(nd) || nd > 2000)
    throw std::invalid_argument(src + ":" + std::to_string(tok[0].line) + ": n must be an integer in [1, 2000], got '" +
                                shown(tok[0].text) + "'");
  const int n = int(nd);
  const std::size_t need = 1 + std::size_t(n) * n + n;
  if (tok.size() < need) {
    const int last = tok.back().line;
    const std::size_t got = tok.size() - 1;
    throw std::invalid_argument(src + ":" + std::to_string(last) + ": file ends after " + std::to_string(got) +
                                " numbers; n = " + std::to_string(n) + " needs " + std::to_string(n * n) +
                                " for M and " + std::to_string(n) + " for q");
  }
  if (tok.size() > need)
    throw std::invalid_argument(src + ":" + std::to_string(tok[need].line) + ": unexpected extra number '" +
                                shown(tok[need].text) + "' after q (n = " + std::to_string(n) + ")");
  LcpProblem p{Eigen::MatrixXd(n, n), Eigen::VectorXd(n)};
  std::size_t k = 1;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j, ++k)
      p.M(i, j) = number(tok[k], src, "M(" + std::to_string(i) + "," + std::to_string(j) + ")");
  for (int i = 0; i < n; ++i, ++k) p.q(i) = number(tok[k], src, "q(" + std::to_string(i) + ")");
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
