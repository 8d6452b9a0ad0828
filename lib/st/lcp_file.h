// The LCP text format read by `impulse lcp` and by the fuzz target verify/fuzz/fuzz_lcp_file.cpp.
//
//   n                      an integer in [1, 2000]
//   M(0,0) ... M(0,n-1)    the n rows of M, n numbers each
//   ...
//   q(0) ... q(n-1)        the n entries of q
//
// Whitespace separated; '#' starts a comment that runs to the end of the line; every number finite.
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
