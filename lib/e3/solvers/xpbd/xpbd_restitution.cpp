// SolverXPBD's restitution pass (course E3 §5), run after the position iterations when
// enable_restitution is set: per body-pair manifold of the contacts that were active in some
// iteration, at most restitution_manifold_max_contacts rows (E3.5-manifold-cap), target normal
// velocities from the predicted state (E3.5-restitution-target), then outer iterations of a
// per-manifold projected Gauss-Seidel on the velocities; each body takes the mean of the velocity
// changes of the manifolds that fired on it.
//
// Each row's side, depth, world point and target velocity are computed on the device from the
// predicted state; the manifolds are grouped and capped on the host from one readback of those rows
// (with the row count: the remaining host round trip of a GPU step with restitution, and the pass's
// per-step allocations); the sweeps run on the device.
//
// apply_restitution reads as its stages: restitution_candidates (device, per row) ->
// group_restitution_manifolds (host, from one readback) -> rigid_contact_restitution_iterations times
// restitution_sweep_manifolds then restitution_mean_body_deltas (device) -> the trace's readback.
#include <algorithm>
#include <map>
#include <utility>

#include "core/parallel_for.h"
#include "core/scan.h"
#include "core/segments.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "e3/solvers/xpbd/xpbd_side.h"

namespace impulse {

using xpbd_detail::add_to;
using xpbd_detail::make_side;
using xpbd_detail::upload;

void SolverXPBD::apply_restitution(State& out, const ContactsView& c, real h) {
  const Device dev = model_->device;
  const int count = read_one(dev, View<const int>(step_.live.view()), 0);
  if (count == 0) return;
  trace_.restitution_ran = true;
  restitution_candidates(c, count, h);
  const XpbdRestitutionCandidate* rows =
      host_readable(View<const XpbdRestitutionCandidate>(step_.candidates.view()), dev, count, step_.host_candidates);
  XpbdRestitutionPass pass = group_restitution_manifolds(rows, count);
  const int outers = rigid_contact_restitution_iterations;
  for (int outer = 0; outer < outers; ++outer) {
    restitution_sweep_manifolds(out, c, pass, outer);
    trace_.restitution_sweeps += restitution_inner_iterations;
    restitution_mean_body_deltas(out, pass);
  }
  std::vector<real> lmins = pass.lambda_min.to_host();
  for (int outer = 0; outer < outers; ++outer) {
    real lmin = 0;
    for (int k = 0; k < pass.manifolds; ++k) lmin = std::min(lmin, lmins[std::size_t(outer) * pass.manifolds + k]);
    trace_.restitution_lambda_min_per_outer.push_back(lmin);
  }
  trace_.restitution_body_dv = pass.body_dv.to_host();
}

// Per row, on the device: sides, depth and world point at the predicted poses, target velocity.
void SolverXPBD::restitution_candidates(const ContactsView& c, int count, real h) {
  const Device dev = model_->device;
  auto com_B = model_->body_com.view();
  grow_to(step_.candidates, dev, count);
  View<const int> sd{step_.side.data(), 2 * std::int64_t(count)};
  View<const int> ever = step_.ever_active.view();
  View<const transform> qp = step_.q_pred.view();
  View<const spatial_vector> qdp = step_.qd_pred.view();
  auto cand = step_.candidates.view();
  const vec3 g = gravity_;
  parallel_for(dev, count, IMPULSE_LAMBDA(std::int64_t i) {
    const int ba = sd[2 * i], bb = sd[2 * i + 1];
    XpbdRestitutionCandidate r{ba, bb, ever[i], 0, vec3{}, 0};
    if (ever[i] && ba != bb) {
      const vec3 n = c.rigid_contact_normal[i];
      const vec3 p0 = c.rigid_contact_point0[i], p1 = c.rigid_contact_point1[i];
      const vec3 xa = ba >= 0 ? transform_point(qp[ba], p0) : p0, xb = bb >= 0 ? transform_point(qp[bb], p1) : p1;
      r.depth = dot(n, xb - xa) - (c.rigid_contact_margin0[i] + c.rigid_contact_margin1[i]);
      r.point_a = xa;
      // point velocities at the predicted state (zero on the world)
      const vec3 va = ba >= 0 ? qdp[ba].lin + cross(qdp[ba].ang, xa - transform_point(qp[ba], com_B[ba])) : vec3{};
      const vec3 vb = bb >= 0 ? qdp[bb].lin + cross(qdp[bb].ang, xb - transform_point(qp[bb], com_B[bb])) : vec3{};
      const real v_old = dot(n, vb - va);
      const real gstar = restitution_gstar(ba, g, bb, g);
      r.target = restitution_target_velocity(v_old, c.rigid_contact_restitution[i], gstar, h);
    }
    cand[i] = r;
  });
}

// On the host: the marked position contacts grouped by body pair (manifolds in increasing pair
// order), each capped to restitution_manifold_max_contacts rows (E3.5-manifold-cap), uploaded with
// the per-body lists of manifold sides and the pass's device buffers.
XpbdRestitutionPass SolverXPBD::group_restitution_manifolds(const XpbdRestitutionCandidate* rows, int count) {
  const Device dev = model_->device;
  std::map<std::pair<int, int>, std::vector<int>> pairs;
  for (int i = 0; i < count; ++i) {
    int ba = rows[i].body_a, bb = rows[i].body_b;
    if (!rows[i].ever_active || ba == bb) continue;
    pairs[{std::min(ba, bb), std::max(ba, bb)}].push_back(i);
  }
  std::vector<std::int64_t> mstart{0};
  std::vector<int> mrows, mbody, rflip;
  std::vector<real> rtarget;
  for (auto& [key, list] : pairs) {
    std::vector<real> depth;
    std::vector<vec3> pts;
    for (int i : list) {
      depth.push_back(rows[i].depth);
      pts.push_back(rows[i].point_a);
    }
    std::vector<int> keep = select_manifold_contacts(depth, pts, restitution_manifold_max_contacts);
    for (int k : keep) {
      int i = list[k];
      mrows.push_back(i);
      rflip.push_back(rows[i].body_a == key.second ? 1 : 0);
      rtarget.push_back(rows[i].target);
    }
    trace_.restitution_max_manifold_size = std::max(trace_.restitution_max_manifold_size, int(keep.size()));
    mstart.push_back(std::int64_t(mrows.size()));
    mbody.push_back(key.first);
    mbody.push_back(key.second);
  }
  const int M = int(pairs.size());
  trace_.restitution_manifolds = M;
  std::vector<std::int64_t> bstart_h, bentry_h;
  build_segments(model_->body_count, mbody, bstart_h, bentry_h);
  XpbdRestitutionPass pass;
  pass.manifolds = M;
  pass.start = upload(dev, mstart);
  pass.body_start = upload(dev, bstart_h);
  pass.body_entry = upload(dev, bentry_h);
  pass.rows = upload(dev, mrows);
  pass.bodies = upload(dev, mbody);
  pass.flip = upload(dev, rflip);
  pass.target = upload(dev, rtarget);
  pass.delta = Buffer<spatial_vector>(dev, 2 * M);
  pass.fired = Buffer<int>(dev, M);
  pass.lambda_min = Buffer<real>(dev, std::int64_t(M) * rigid_contact_restitution_iterations);
  pass.body_dv = Buffer<spatial_vector>(dev, std::vector<spatial_vector>(model_->body_count));
  return pass;
}

// One outer iteration on the device, per manifold: restitution_inner_iterations projected
// Gauss-Seidel sweeps over its rows on the manifold's own copy of its two bodies' velocities; the
// velocity change of each side, whether a row fired and the smallest row impulse are kept.
void SolverXPBD::restitution_sweep_manifolds(State& out, const ContactsView& c, XpbdRestitutionPass& pass, int outer) {
  const Model& m = *model_;
  auto flags = m.body_flags.view();
  auto com_B = m.body_com.view();
  auto inv_m = inv_mass_eff_.view();
  auto inv_I = inv_inertia_eff_.view();
  auto q = out.body_q.view();
  auto qd = out.body_qd.view();
  const int M = pass.manifolds;
  auto msv = pass.start.view();
  auto mrv = pass.rows.view();
  auto mbv = pass.bodies.view();
  auto rfv = pass.flip.view();
  auto rtv = pass.target.view();
  auto md = pass.delta.view();
  auto mf = pass.fired.view();
  View<real> ml{pass.lambda_min.data() + std::int64_t(outer) * M, M};
  const bool first = outer == 0;
  const int sweeps = restitution_inner_iterations;
  parallel_for(m.device, M, IMPULSE_LAMBDA(std::int64_t k) {
    XpbdSide S[2] = {make_side(mbv[2 * k], q, qd, com_B, inv_m, inv_I, flags),
                     make_side(mbv[2 * k + 1], q, qd, com_B, inv_m, inv_I, flags)};
    spatial_vector v0[2] = {S[0].v, S[1].v};
    real lambda[SolverXPBD::restitution_manifold_max_contacts] = {};
    real lower[SolverXPBD::restitution_manifold_max_contacts] = {};
    std::int64_t r0 = msv[k], nr = msv[k + 1] - msv[k];
    auto row_vn = [&](std::int64_t r, vec3& n, vec3& ra, vec3& rb, real& w, int& ia) {
      std::int64_t i = mrv[r0 + r];
      ia = rfv[r0 + r];
      const XpbdSide &A = S[ia], &Bs = S[1 - ia];
      vec3 xa = transform_point(A.X, c.rigid_contact_point0[i]), xb = transform_point(Bs.X, c.rigid_contact_point1[i]);
      n = c.rigid_contact_normal[i];
      ra = xa - A.com;
      rb = xb - Bs.com;
      w = xpbd_inverse_effective_mass(A.inv_m, A.inv_I, ra, Bs.inv_m, Bs.inv_I, rb, n);
      return dot(n, (Bs.v.lin + cross(Bs.v.ang, rb)) - (A.v.lin + cross(A.v.ang, ra)));
    };
    for (std::int64_t r = 0; r < nr; ++r) {
      vec3 n, ra, rb;
      real w;
      int ia;
      real vn = row_vn(r, n, ra, rb, w, ia);
      real excess = vn - (rtv[r0 + r] > 0 ? rtv[r0 + r] : real(0));
      lower[r] = (first && w > 0 && excess > 0) ? -excess / w : real(0);
    }
    for (int sweep = 0; sweep < sweeps; ++sweep)
      for (std::int64_t r = 0; r < nr; ++r) {
        vec3 n, ra, rb;
        real w;
        int ia;
        real vn = row_vn(r, n, ra, rb, w, ia);
        real dl = restitution_pgs_increment(lambda[r], rtv[r0 + r], vn, w, lower[r]);
        lambda[r] += dl;
        XpbdSide &A = S[ia], &Bs = S[1 - ia];
        vec3 p = dl * n;
        A.v.lin -= A.inv_m * p;
        A.v.ang -= A.inv_I * cross(ra, p);
        Bs.v.lin += Bs.inv_m * p;
        Bs.v.ang += Bs.inv_I * cross(rb, p);
      }
    int fired = 0;
    real lmin = 0;
    for (std::int64_t r = 0; r < nr; ++r) {
      if (lambda[r] != 0) fired = 1;
      if (lambda[r] < lmin) lmin = lambda[r];
    }
    for (int s = 0; s < 2; ++s) md[2 * k + s] = {S[s].v.lin - v0[s].lin, S[s].v.ang - v0[s].ang};
    mf[k] = fired;
    ml[k] = lmin;
  });
}

// Each body, on the device: the mean of the velocity deltas of the manifolds that fired on it.
void SolverXPBD::restitution_mean_body_deltas(State& out, XpbdRestitutionPass& pass) {
  auto inv_m = inv_mass_eff_.view();
  auto qd = out.body_qd.view();
  auto md = pass.delta.view();
  auto mf = pass.fired.view();
  auto bsv = pass.body_start.view();
  auto bev = pass.body_entry.view();
  auto rdvv = pass.body_dv.view();
  parallel_for(model_->device, model_->body_count, IMPULSE_LAMBDA(std::int64_t b) {
    if (inv_m[b] == 0) return;
    spatial_vector acc{};
    int K = 0;
    for (std::int64_t k = bsv[b]; k < bsv[b + 1]; ++k) {
      std::int64_t e = bev[k];
      if (!mf[e >> 1]) continue;
      add_to(acc, md[e]);
      ++K;
    }
    if (K == 0) return;
    vec3 dv = acc.lin / real(K), dw = acc.ang / real(K);
    qd[b].lin += dv;
    qd[b].ang += dw;
    rdvv[b].lin += dv;
    rdvv[b].ang += dw;
  });
}

}  // namespace impulse
