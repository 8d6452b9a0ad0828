#include "st/stepper.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "st/friction_cone.h"

namespace impulse::st {

namespace {

void validate(const ContactSystem& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const StepOptions& opt) {
  if (!(opt.h > 0) || !std::isfinite(opt.h))
    throw std::invalid_argument("st_step: step h must be positive and finite, got " + std::to_string(opt.h));
  if (opt.directions < 3)
    throw std::invalid_argument("st_step: friction directions must be >= 3, got " + std::to_string(opt.directions));
  if (q.size() != sys.dofs() || v.size() != sys.dofs())
    throw std::invalid_argument("st_step: q has " + std::to_string(q.size()) + " and v " + std::to_string(v.size()) +
                                " entries, the system has " + std::to_string(sys.dofs()) + " dofs");
  if (!q.allFinite() || !v.allFinite()) throw std::invalid_argument("st_step: q or v is not finite");
}

int worse(LcpStatus a, LcpStatus b) { return std::max(int(a), int(b)); }

}  // namespace

std::vector<int> initial_contact_set(const ContactSystem& sys, const Eigen::VectorXd& q,
                                     const Eigen::VectorXd& v_free, const std::vector<int>& previous_active,
                                     const StepOptions& opt) {
  std::vector<int> set = previous_active;
  for (int i = 0; i < sys.contact_count(); ++i) {
    const ContactGeometry g = sys.contact(i, q);
    if (g.n.size() != sys.dofs() || g.t.rows() != sys.dofs() || g.t.cols() != sys.tangent_dim())
      throw std::invalid_argument("contact " + std::to_string(i) + ": Jacobians are " + std::to_string(g.n.size()) +
                                  " and " + std::to_string(g.t.rows()) + " x " + std::to_string(g.t.cols()) +
                                  ", the system declares " + std::to_string(sys.dofs()) + " dofs and tangent dimension " +
                                  std::to_string(sys.tangent_dim()));
    if (g.phi + opt.h * g.n.dot(v_free) <= opt.gap_tol) set.push_back(i);
  }
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  return set;
}

ContactLcp assemble_contact_lcp(const Eigen::MatrixXd& W, const Eigen::VectorXd& v_free,
                                const std::vector<ContactGeometry>& contacts, const Eigen::VectorXd& c,
                                double h, int directions, NormalLevel level) {
  const int m = int(contacts.size());
  const Eigen::Index dofs = W.rows();
  ContactLcp L;
  L.N.resize(dofs, m);
  std::vector<Eigen::MatrixXd> dirs(m);
  L.dir_start.assign(m + 1, 0);
  for (int i = 0; i < m; ++i) {
    if (!(contacts[i].mu >= 0))
      throw std::invalid_argument("st_step: contact " + std::to_string(i) + " has friction coefficient " +
                                  std::to_string(contacts[i].mu) + " (must be >= 0)");
    L.N.col(i) = contacts[i].n;
    if (contacts[i].t.cols() > 0) dirs[i] = friction_directions(contacts[i].t, directions);
    L.dir_start[i + 1] = L.dir_start[i] + int(dirs[i].cols());
  }
  const int nd = L.dir_start[m];
  const int ns = nd > 0 ? m : 0;  // slack variables lambda, one per contact, when there is friction
  L.D.resize(dofs, nd);
  for (int i = 0; i < m; ++i)
    if (dirs[i].cols() > 0) L.D.middleCols(L.dir_start[i], dirs[i].cols()) = dirs[i];
  const int n = m + nd + ns;
  L.A = Eigen::MatrixXd::Zero(n, n);
  L.b = Eigen::VectorXd::Zero(n);
  const Eigen::MatrixXd WN = W * L.N, WD = W * L.D;
  L.A.block(0, 0, m, m) = L.N.transpose() * WN;
  L.b.head(m) = L.N.transpose() * v_free;
  if (level == NormalLevel::position) L.b.head(m) += c / h;
  if (nd > 0) {
    L.A.block(0, m, m, nd) = L.N.transpose() * WD;
    L.A.block(m, 0, nd, m) = L.D.transpose() * WN;
    L.A.block(m, m, nd, nd) = L.D.transpose() * WD;
    L.b.segment(m, nd) = L.D.transpose() * v_free;
    for (int i = 0; i < m; ++i) {
      for (int j = L.dir_start[i]; j < L.dir_start[i + 1]; ++j) {
        L.A(m + j, m + nd + i) = 1.0;   // E
        L.A(m + nd + i, m + j) = -1.0;  // -E^T
      }
      L.A(m + nd + i, i) = contacts[i].mu;  // U
    }
  }
  return L;
}

/// @formula ST.2-nonlinear-complementarity  The step re-linearises the gaps about its own iterate
/// (the loop below) until the complementarity holds for the true gap phi(q+), not only for its
/// linearisation.
StepResult st_step(const ContactSystem& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   const std::vector<int>& previous_active, const StepOptions& opt) {
  validate(sys, q, v, opt);
  const double h = opt.h;
  const int nc = sys.contact_count();
  // Inputs and the free motion (ST.3-alg-00, the velocity without contact impulses).
  const Eigen::MatrixXd M = sys.mass(q);
  const Eigen::LLT<Eigen::MatrixXd> llt(M);
  if (llt.info() != Eigen::Success) throw std::invalid_argument("st_step: M(q) is not positive definite");
  const Eigen::MatrixXd W = llt.solve(Eigen::MatrixXd::Identity(M.rows(), M.cols()));
  const Eigen::VectorXd k = sys.force(q, v);
  const Eigen::VectorXd v_free = v + h * (W * k);

  StepResult r;
  // Candidate contacts near the predicted position (ST.3-alg-01, ST.3-initial-active-set).
  std::vector<int> set = initial_contact_set(sys, q, v_free, previous_active, opt);
  r.initial_set = set;
  int status = int(LcpStatus::solved);
  Eigen::VectorXd z;
  ContactLcp L;
  for (r.passes = 1;; ++r.passes) {
    Eigen::VectorXd q_lin = q;
    for (int it = 0;; ++it) {
      // Geometry (ST.3-alg-02). The gap is the true gap at the linearisation point carried back to
      // q along the normal used in the momentum balance: n(q) (the paper's form), or n(q_lin) when
      // jacobians_at_iterate is set.
      std::vector<ContactGeometry> geo;
      Eigen::VectorXd c(set.size());
      for (std::size_t a = 0; a < set.size(); ++a) {
        const ContactGeometry at_lin = sys.contact(set[a], q_lin);
        geo.push_back(opt.jacobians_at_iterate ? at_lin : sys.contact(set[a], q));
        c(Eigen::Index(a)) = at_lin.phi + geo.back().n.dot(q - q_lin);
      }
      // Assemble (ST.3-alg-04) and solve (ST.3-alg-05).
      L = assemble_contact_lcp(W, v_free, geo, c, h, opt.directions, opt.level);
      r.v = v_free;
      if (L.b.size() > 0) {
        const LcpResult s = solve_lcp(L.A, L.b, opt.lcp);
        ++r.lcp_solves;
        r.pivots += s.pivots;
        status = worse(LcpStatus(status), s.status);
        r.lcp_complementarity = std::max(r.lcp_complementarity, s.complementarity);
        z = s.z;
        const int m = int(set.size()), nd = int(L.D.cols());
        r.v = v_free + W * (L.N * z.head(m) + L.D * z.segment(m, nd));
      } else {
        z.resize(0);
      }
      r.lcp_size = int(L.b.size());
      r.lcp_max_size = std::max(r.lcp_max_size, r.lcp_size);
      r.q = q + h * r.v;
      // §3.6: re-linearise at the new position while the true gap misses complementarity
      // (ST.3-alg-08-relinearize, ST.2-nonlinear-complementarity).
      if (opt.level != NormalLevel::position || it >= opt.max_nonlinear_iterations) break;
      double miss = 0;
      for (std::size_t a = 0; a < set.size(); ++a) {
        const double phi = sys.contact(set[a], r.q).phi;
        const double p = z(Eigen::Index(a));
        miss = std::max(miss, std::max(0.0, -phi));
        if (p > 0) miss = std::max(miss, std::abs(phi));
      }
      if (miss <= opt.nonlinear_tol) break;
      q_lin = r.q;
      ++r.nonlinear_iterations;
    }
    // Re-check every contact at the new position (ST.3-alg-06) and re-solve with the missed ones
    // added (ST.3-alg-07).
    std::vector<int> missed;
    for (int i = 0; i < nc; ++i)
      if (!std::binary_search(set.begin(), set.end(), i) && sys.contact(i, r.q).phi < -opt.gap_tol)
        missed.push_back(i);
    if (missed.empty() || r.passes > opt.max_passes) break;
    set.insert(set.end(), missed.begin(), missed.end());
    std::sort(set.begin(), set.end());
  }

  // Return q+, v+, the impulses and the residuals (ST.3-alg-09).
  r.status = LcpStatus(status);
  r.contact_set = set;
  r.p_n = Eigen::VectorXd::Zero(nc);
  r.friction = Eigen::VectorXd::Zero(nc);
  r.friction_gen = Eigen::VectorXd::Zero(sys.dofs());
  r.phi.resize(nc);
  const int m = int(set.size()), nd = int(L.D.cols());
  Eigen::VectorXd impulse = Eigen::VectorXd::Zero(sys.dofs());
  if (z.size() > 0) {
    r.friction_gen = L.D * z.segment(m, nd);
    impulse = L.N * z.head(m) + r.friction_gen;
  }
  for (int a = 0; a < m; ++a) {
    const int i = set[a];
    r.p_n(i) = z.size() ? z(a) : 0.0;
    if (nd > 0) r.friction(i) = z.segment(m + L.dir_start[a], L.dir_start[a + 1] - L.dir_start[a]).sum();
    const double mu = sys.contact(i, q).mu;
    r.cone_residual = std::max(r.cone_residual, r.friction(i) - mu * r.p_n(i));
  }
  for (int i = 0; i < nc; ++i) {
    r.phi(i) = sys.contact(i, r.q).phi;
    r.gap_violation = std::max(r.gap_violation, -r.phi(i));
  }
  r.momentum_residual = (M * (r.v - v) - h * k - impulse).cwiseAbs().maxCoeff();
  return r;
}

std::vector<int> active_contacts(const StepResult& r) {
  std::vector<int> a;
  for (Eigen::Index i = 0; i < r.p_n.size(); ++i)
    if (r.p_n(i) > 0) a.push_back(int(i));
  return a;
}

}  // namespace impulse::st
