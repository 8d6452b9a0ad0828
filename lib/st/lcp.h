// The linear complementarity problem and Lemke's complementary pivoting (Stewart-Trinkle §4).
//
//   find z such that  w = M z + q,  z >= 0,  w >= 0,  z^T w = 0          (M: n x n, q: n)
//
// Stewart and Trinkle solve their contact LCPs with Lemke's method on an explicit tableau with
// lexicographic degeneracy resolution (course ST §3, seed 004 L82). This is that method, dense,
// on the host: a contact LCP is assembled once per step and pivoted serially.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

namespace impulse::st {

enum class LcpStatus {
  solved,            // z, w satisfy the LCP within the tolerances (checked from M, q, not trusted)
  ray_termination,   // the entering column has no blocking row: Lemke's method gives up (for a
                     // copositive-plus M this proves the LCP infeasible)
  pivot_limit,       // max_pivots reached without termination
  numerical_failure  // the method terminated but the recomputed z, w miss the tolerances
};

const char* to_string(LcpStatus s);

struct LcpOptions {
  int max_pivots = 0;          // 0: 50 n + 100
  double pivot_tol = 1e-12;    // a column entry counts as blocking when > pivot_tol * max|column|
  double tie_tol = 1e-12;      // relative tolerance under which two ratios are a lexicographic tie
  double residual_tol = 1e-9;  // relative tolerance for `solved` (see LcpResult)
  int refactor_every = 50;     // check the basis inverse's drift every so many pivots (0: never)
  double drift_tol = 1e-10;    // relative |B x_B - q| above which the inverse is recomputed
  double z_bound = 1e8;        // `solved` needs max|z| <= z_bound * max(1, max|q|) / max|M| (see lcp_solved)
  bool lexicographic = true;   // false: the textbook minimum-ratio rule (ties: largest pivot element),
                               // kept to show what the lexicographic rule buys (verify/st/lcp_test.cpp)
  bool record_bases = false;   // fill LcpResult::bases
  bool trace = false;          // record every pivot in LcpResult::trace
};

/// One pivot of Lemke's method. Variables are numbered w_0..w_{n-1} = 0..n-1, z_0..z_{n-1} =
/// n..2n-1 and the artificial z0 = 2n.
struct LcpPivot {
  int entering = -1;   // the variable that entered the basis
  int leaving = -1;    // the variable that left it (its complement enters next)
  double z0 = 0;       // the artificial variable's value after the pivot (0 once it has left)
};

struct LcpResult {
  LcpStatus status = LcpStatus::numerical_failure;
  Eigen::VectorXd z;  // the solution (or the last basic point when not solved)
  Eigen::VectorXd w;  // M z + q, recomputed from M and q
  int pivots = 0;     // complementary pivots, the initial z0 pivot included
  // Residuals, relative to scale = max(1, max|q|, max|M| max|z|) and zscale = max(1, max|z|):
  double complementarity = 0;  // max_i |z_i w_i| / (scale * zscale)
  double feasibility = 0;      // max(max(0, -min z) / zscale, max(0, -min w) / scale)
  std::string message;         // one line on what happened
  // With LcpOptions::record_bases: the basic variable of each row after every pivot
  // (0..n-1: w, n..2n-1: z, 2n: z0), in pivot order.
  std::vector<std::vector<int>> bases;
  std::vector<LcpPivot> trace; // every pivot in order when LcpOptions::trace (pivots entries)
};

/// @formula ST.3-lemke-lexicographic  Lemke's complementary pivoting with lexicographic ratio test.
///   Tableau  w - M z - d z0 = q, d = (1, ..., 1); start z0 = max_i(-q_i), leave the lexicographic
///   minimum of (q_i, e_i^T) / d_i; then each leaving variable's complement enters; the leaving row
///   is the lexicographic minimum of (x_B_i, (B^-1)_i) / y_i over y_i > 0 (y = B^-1 column); z0 is
///   preferred whenever it ties. Ends when z0 leaves (solution), no row blocks (ray), or max_pivots.
/// Scope: dense, any square M; guaranteed to end in `solved` for P-matrices, for copositive-plus M
///   with a feasible LCP, and for the Stewart-Trinkle contact LCP; the returned z, w are always
///   recomputed and checked against M and q, so a status other than `solved` is never hidden.
/// Units: those of the caller (the contact LCP uses N s and m/s).
/// Throws std::invalid_argument for a non-square M, a q of the wrong size, or non-finite entries.
LcpResult solve_lcp(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LcpOptions& opt = {});

/// Relative residuals of a candidate solution (as in LcpResult), for callers that check z.
void lcp_residuals(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& z,
                   double& complementarity, double& feasibility);

/// The one definition of a solved LCP, shared by solve_lcp and the tests' enumeration oracle:
///   complementarity <= residual_tol, feasibility <= residual_tol (relative, as in LcpResult), and
///   max|z| <= z_bound * max(1, max|q|) / max|M|.
/// The bound on z is what makes "solved" mean the same thing near infeasibility: a nearly
/// rank-deficient M can give a point with z ~ 1e12 whose relative residuals are ~1e-17 although no
/// solution of moderate size exists; such a point is not a solution in double precision.
bool lcp_solved(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& z,
                const LcpOptions& opt = {});

/// @formula ST.2-perp-definition  0 <= a perp b >= 0 means a >= 0, b >= 0 and a b = 0.
/// Scope: scalar pair; tol is an absolute tolerance on each condition (same units as a b and a, b).
bool complementary(double a, double b, double tol = 0.0);

}  // namespace impulse::st
