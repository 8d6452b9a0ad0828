// Lemke's method with an explicit basis inverse and lexicographic degeneracy resolution.
//
// Why textbook Lemke stops on a ray for contact LCPs. Contact problems are degenerate by nature:
// contacts that touch exactly give q_i = 0, redundant contacts give equal rows, and the friction
// block has many equal entries. In the ratio test several rows then block at the same step length
// (ties). A textbook code breaks ties by index; the basis it walks into can cycle or, with rounding,
// leave a row whose basic value is a tiny negative number, after which the path bends away and ends
// on a secondary ray although a solution exists. Three measures remove this:
//   1. ties are broken lexicographically on (x_B_i, (B^-1)_i) / y_i, which keeps every row of the
//      tableau lexicographically positive and so makes each basis visited at most once;
//   2. when z0 can leave (it ties for the minimum ratio), it leaves: that step ends at a solution;
//   3. only entries y_i > pivot_tol * max|y| count as blocking, the basis inverse is recomputed from
//      scratch when B x_B has drifted from q (checked every refactor_every pivots), and the final
//      z, w are recomputed from M and q and checked, never taken from the tableau on trust;
//   4. when z0 has reached (rounding) zero, the current point is a solution: stop there. Without this
//      a degenerate path that drives z0 to 1e-16 without letting it leave ends on a false ray
//      (about 0.2% of random contact LCPs did, see verify/st/lcp_test.cpp).
#include "st/lcp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace impulse::st {

const char* to_string(LcpStatus s) {
  switch (s) {
    case LcpStatus::solved: return "solved";
    case LcpStatus::ray_termination: return "ray_termination";
    case LcpStatus::pivot_limit: return "pivot_limit";
    case LcpStatus::numerical_failure: return "numerical_failure";
  }
  return "unknown";
}

bool complementary(double a, double b, double tol) {
  return a >= -tol && b >= -tol && std::abs(a * b) <= tol;
}

void lcp_residuals(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& z,
                   double& complementarity, double& feasibility) {
  const Eigen::VectorXd w = M * z + q;
  const double zmax = z.size() ? z.cwiseAbs().maxCoeff() : 0.0;
  const double scale = std::max({1.0, q.size() ? q.cwiseAbs().maxCoeff() : 0.0,
                                 (M.size() ? M.cwiseAbs().maxCoeff() : 0.0) * zmax});
  const double zscale = std::max(1.0, zmax);
  complementarity = z.size() ? z.cwiseProduct(w).cwiseAbs().maxCoeff() / (scale * zscale) : 0.0;
  const double zneg = z.size() ? std::max(0.0, -z.minCoeff()) / zscale : 0.0;
  const double wneg = w.size() ? std::max(0.0, -w.minCoeff()) / scale : 0.0;
  feasibility = std::max(zneg, wneg);
}

bool lcp_solved(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& z,
                const LcpOptions& opt) {
  double c = 0, f = 0;
  lcp_residuals(M, q, z, c, f);
  if (!(c <= opt.residual_tol && f <= opt.residual_tol)) return false;
  const double zmax = z.size() ? z.cwiseAbs().maxCoeff() : 0.0;
  const double mmax = M.size() ? M.cwiseAbs().maxCoeff() : 0.0;
  const double qmax = q.size() ? q.cwiseAbs().maxCoeff() : 0.0;
  return zmax == 0.0 || zmax * mmax <= opt.z_bound * std::max(1.0, qmax);
}

namespace {

void validate(const Eigen::MatrixXd& M, const Eigen::VectorXd& q) {
  if (M.rows() != M.cols())
    throw std::invalid_argument("lcp: M must be square, got " + std::to_string(M.rows()) + " x " +
                                std::to_string(M.cols()));
  if (q.size() != M.rows())
    throw std::invalid_argument("lcp: q has " + std::to_string(q.size()) + " entries but M is " +
                                std::to_string(M.rows()) + " x " + std::to_string(M.cols()));
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    for (Eigen::Index j = 0; j < M.cols(); ++j)
      if (!std::isfinite(M(i, j)))
        throw std::invalid_argument("lcp: M(" + std::to_string(i) + "," + std::to_string(j) + ") is not finite");
  for (Eigen::Index i = 0; i < q.size(); ++i)
    if (!std::isfinite(q(i))) throw std::invalid_argument("lcp: q(" + std::to_string(i) + ") is not finite");
}

// The tableau  w - M z - d z0 = q  over the variables 0..n-1 = w, n..2n-1 = z, 2n = z0.
struct Tableau {
  const Eigen::MatrixXd& M;
  const Eigen::VectorXd& q;
  Eigen::VectorXd d;
  int n;
  std::vector<int> basis;  // variable basic in each row
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Binv;  // basis inverse (rows pivot)
  Eigen::VectorXd xB;      // basic values, B^-1 q

  Tableau(const Eigen::MatrixXd& M_, const Eigen::VectorXd& q_)
      : M(M_), q(q_), d(Eigen::VectorXd::Ones(M_.rows())), n(int(M_.rows())), basis(n),
        Binv(Eigen::MatrixXd::Identity(n, n)), xB(q_) {
    for (int i = 0; i < n; ++i) basis[i] = i;
  }

  int z0() const { return 2 * n; }
  int row_of(int var) const {
    for (int i = 0; i < n; ++i)
      if (basis[i] == var) return i;
    return -1;
  }
  int complement(int var) const { return var < n ? var + n : var - n; }

  Eigen::VectorXd column(int var) const {
    if (var < n) return Eigen::VectorXd::Unit(n, var);
    if (var < 2 * n) return -M.col(var - n);
    return -d;
  }

  void pivot(int row, int entering, const Eigen::VectorXd& y) {
    const double yr = y(row);
    Binv.row(row) /= yr;
    xB(row) /= yr;
    for (int i = 0; i < n; ++i) {
      if (i == row || y(i) == 0.0) continue;
      Binv.row(i) -= y(i) * Binv.row(row);
      xB(i) -= y(i) * xB(row);
    }
    basis[row] = entering;
  }

  // Recompute the basis inverse from scratch when the updated one has drifted: B x_B must equal q.
  void refactor_if_drifted(double tol) {
    Eigen::VectorXd r = -q;
    for (int i = 0; i < n; ++i) r += column(basis[i]) * xB(i);
    if (r.cwiseAbs().maxCoeff() <= tol * (1.0 + q.cwiseAbs().maxCoeff())) return;
    Eigen::MatrixXd B(n, n);
    for (int i = 0; i < n; ++i) B.col(i) = column(basis[i]);
    Binv = B.partialPivLu().inverse();
    xB = Binv * q;
  }
};

// Lexicographic minimum over `rows` of (value_i, Binv_i) / y_i; value = x_B (or q at the start).
// With lexicographic = false only the first column is compared: the plain minimum-ratio rule.
int lexicographic_min(const Tableau& t, const Eigen::VectorXd& value, const Eigen::VectorXd& y,
                      std::vector<int> rows, double tie_tol, bool lexicographic) {
  const int last = lexicographic ? t.n : 0;
  for (int c = -1; c < last && rows.size() > 1; ++c) {
    double best = std::numeric_limits<double>::infinity();
    std::vector<double> ratio(rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const int i = rows[k];
      ratio[k] = (c < 0 ? value(i) : t.Binv(i, c)) / y(i);
      best = std::min(best, ratio[k]);
    }
    std::vector<int> keep;
    for (std::size_t k = 0; k < rows.size(); ++k)
      if (ratio[k] <= best + tie_tol * (1.0 + std::abs(best))) keep.push_back(rows[k]);
    rows.swap(keep);
  }
  // Still tied only through rounding: take the largest pivot element.
  int r = rows.front();
  for (int i : rows)
    if (y(i) > y(r)) r = i;
  return r;
}

void finish(LcpResult& res, const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LcpOptions& opt) {
  lcp_residuals(M, q, res.z, res.complementarity, res.feasibility);
  res.w = M * res.z + q;
  if (res.status == LcpStatus::solved && !lcp_solved(M, q, res.z, opt)) {
    res.status = LcpStatus::numerical_failure;
    res.message = res.complementarity > opt.residual_tol || res.feasibility > opt.residual_tol
                      ? "Lemke terminated but the recomputed residuals miss the tolerance"
                      : "Lemke terminated on a point with max|z| beyond z_bound (the LCP is infeasible or nearly so)";
  }
}

// Reads z from the basis, then recomputes it from the final complementary basis: with S the basic
// z indices, w_S = 0 and z outside S is 0, so M_SS z_S = -q_S (z0 is nonbasic or zero). Keeps
// whichever fits M, q better.
void read_solution(const Tableau& t, const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LcpOptions& opt,
                   LcpResult& res) {
  const int n = t.n;
  Eigen::VectorXd z_tab = Eigen::VectorXd::Zero(n);
  std::vector<int> S;
  bool z0_basic = false;
  for (int i = 0; i < n; ++i) {
    const int v = t.basis[i];
    if (v >= n && v < 2 * n) {
      z_tab(v - n) = t.xB(i);
      S.push_back(v - n);
    }
    if (v == t.z0()) z0_basic = true;
  }
  res.z = z_tab;
  // A ray reached while z0 is negligible (not below z0_small, but below what the residual check
  // accepts): the current point, checked against M and q, solves the LCP.
  if (res.status == LcpStatus::ray_termination) {
    if (lcp_solved(M, q, z_tab, opt)) {
      res.status = LcpStatus::solved;
      res.message = "ray reached with z0 negligible; the current point solves the LCP";
    }
  }
  if ((!z0_basic || res.status == LcpStatus::solved) && !S.empty()) {
    Eigen::MatrixXd Mss(S.size(), S.size());
    Eigen::VectorXd qs(S.size());
    for (std::size_t a = 0; a < S.size(); ++a) {
      qs(a) = -q(S[a]);
      for (std::size_t b = 0; b < S.size(); ++b) Mss(a, b) = M(S[a], S[b]);
    }
    const Eigen::VectorXd zs = Mss.partialPivLu().solve(qs);
    Eigen::VectorXd z_lu = Eigen::VectorXd::Zero(n);
    for (std::size_t a = 0; a < S.size(); ++a) z_lu(S[a]) = zs(a);
    double c1, f1, c2, f2;
    lcp_residuals(M, q, z_tab, c1, f1);
    lcp_residuals(M, q, z_lu, c2, f2);
    if (z_lu.allFinite() && std::max(c2, f2) < std::max(c1, f1)) res.z = z_lu;
  }
}

}  // namespace

LcpResult solve_lcp(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LcpOptions& opt) {
  validate(M, q);
  const int n = int(M.rows());
  LcpResult res;
  res.z = Eigen::VectorXd::Zero(n);
  if (n == 0 || q.minCoeff() >= 0.0) {
    res.status = LcpStatus::solved;
    res.message = "q >= 0: z = 0 is a solution";
    finish(res, M, q, opt);
    return res;
  }
  const int max_pivots = opt.max_pivots > 0 ? opt.max_pivots : 50 * n + 100;
  const double z0_small = opt.tie_tol * (1.0 + q.cwiseAbs().maxCoeff());
  Tableau t(M, q);

  // Initial pivot: z0 enters at the smallest level that makes w = q + d z0 >= 0.
  {
    const Eigen::VectorXd y = t.column(t.z0());  // B = I
    std::vector<int> rows(n);
    for (int i = 0; i < n; ++i) rows[i] = i;
    // Lexicographic minimum of (q_i, e_i) / d_i, i.e. of (x_B, B^-1)/(-y) with the sign of y flipped.
    const int r = lexicographic_min(t, q, -y, rows, opt.tie_tol, opt.lexicographic);
    const int leaving = t.basis[r];
    t.pivot(r, t.z0(), y);
    res.pivots = 1;
    if (opt.record_bases) res.bases.push_back(t.basis);
    if (opt.trace) res.trace.push_back({t.z0(), leaving, t.xB(r)});
    int entering = t.complement(leaving);

    while (true) {
      if (res.pivots >= max_pivots) {
        res.status = LcpStatus::pivot_limit;
        res.message = "pivot limit " + std::to_string(max_pivots) + " reached";
        break;
      }
      if (opt.refactor_every > 0 && res.pivots % opt.refactor_every == 0) t.refactor_if_drifted(opt.drift_tol);
      // z0 already at (rounding) zero: the current point solves the LCP (measure 4 above).
      if (t.xB(t.row_of(t.z0())) <= z0_small) {
        res.status = LcpStatus::solved;
        res.message = "z0 reached zero on a degenerate step";
        break;
      }
      const Eigen::VectorXd yv = t.Binv * t.column(entering);
      const double ymax = yv.cwiseAbs().maxCoeff();
      std::vector<int> blocking;
      for (int i = 0; i < n; ++i)
        if (yv(i) > opt.pivot_tol * ymax && ymax > 0) blocking.push_back(i);
      if (blocking.empty()) {
        res.status = LcpStatus::ray_termination;
        res.message = "ray termination: no row blocks the entering variable";
        break;
      }
      // Prefer z0 when it ties for the minimum ratio: the step then ends at a solution.
      double min_ratio = std::numeric_limits<double>::infinity();
      int z0_row = -1;
      for (int i : blocking) {
        min_ratio = std::min(min_ratio, t.xB(i) / yv(i));
        if (t.basis[i] == t.z0()) z0_row = i;
      }
      int r;
      if (z0_row >= 0 && t.xB(z0_row) / yv(z0_row) <= min_ratio + opt.tie_tol * (1.0 + std::abs(min_ratio)))
        r = z0_row;
      else
        r = lexicographic_min(t, t.xB, yv, blocking, opt.tie_tol, opt.lexicographic);
      const int leaving_var = t.basis[r];
      t.pivot(r, entering, yv);
      ++res.pivots;
      if (opt.record_bases) res.bases.push_back(t.basis);
      if (opt.trace) {
        const int z0_row = t.row_of(t.z0());
        res.trace.push_back({entering, leaving_var, z0_row >= 0 ? t.xB(z0_row) : 0.0});
      }
      if (leaving_var == t.z0()) {
        res.status = LcpStatus::solved;
        res.message = "z0 left the basis";
        break;
      }
      entering = t.complement(leaving_var);
    }
  }

  read_solution(t, M, q, opt, res);
  finish(res, M, q, opt);
  return res;
}

}  // namespace impulse::st
