// The LCP text format read by `impulse lcp` and by the fuzz target verify/fuzz/fuzz_lcp_file.cpp.
//
//   n                      alone on the first line, an integer in [1, 2000]
//   M(1,1) ... M(1,n)      the n rows of M, one line of n numbers each
//   ...
//   q(1) ... q(n)          q: one line of n numbers, or n lines of one
//
// '#' starts a comment that runs to the end of the line; blank lines are skipped; every entry
// finite with |x| <= 1e12; at most 256 MiB and lines of at most 1 MiB. A row of another length is
// refused with its line number, so a file whose M is not square is never solved.
#pragma once

#include <Eigen/Dense>
#include <istream>
#include <ostream>
#include <string>

namespace impulse::st {

struct LcpProblem {
  Eigen::MatrixXd M;  // n x n
  Eigen::VectorXd q;  // n
};

/// Reads one LCP; src names the source in messages. Throws std::invalid_argument with one line
/// "src:line: what is wrong" for any malformed input (nothing is repaired).
LcpProblem read_lcp(std::istream& in, const std::string& src);

/// Writes M and q in the format read_lcp reads, 17 significant digits (read back bit for bit),
/// after `comment` (each of its lines prefixed with "# ").
void write_lcp(std::ostream& out, const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const std::string& comment);

}  // namespace impulse::st
