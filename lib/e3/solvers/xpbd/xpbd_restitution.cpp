// SolverXPBD's restitution pass (course E3 §5), run after the position iterations when
// enable_restitution is set: per body-pair manifold of the contacts that were active in some
// iteration, at most restitution_manifold_max_contacts rows (E3.5-manifold-cap), target normal
// velocities from the predicted state (E3.5-restitution-target), then outer iterations of a
// per-manifold projected Gauss-Seidel on the velocities; each body takes the mean of the velocity
// changes of the manifolds that fired on it.
//
// Every stage is a device pass over core primitives; the row count and the manifold count stay on
// the device (the passes launch over core/scan.h's launch_extent and each item compares itself with
// the count), so the pass reads nothing back; trace() reads its results after the step.
//
// apply_restitution reads as its stages: restitution_candidates (per row) ->
// group_restitution_manifolds (sort by body pair, runs, cap, body segments) ->
// rigid_contact_restitution_iterations times restitution_sweep_manifolds then
// restitution_mean_body_deltas.
#include <algorithm>
#include <cstdint>

#include "core/parallel_for.h"
#include "core/reduce.h"
#include "core/scan.h"
#include "core/segments_device.h"
#include "core/sort_pairs.h"
#include "e3/collision/filter.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "e3/solvers/xpbd/xpbd_side.h"

namespace impulse {

using xpbd_detail::add_to;
using xpbd_detail::make_side;

namespace {
// keep: a manifold's entry counts when the manifold fired (entry e = manifold << 1 | side).
struct FiredManifold {
  View<const int> fired;
  IMPULSE_HD bool operator()(std::int64_t e) const { return fired[e >> 1] != 0; }
};

// value: entry e's own velocity change.
struct EntryDelta {
  View<const spatial_vector> delta;
  IMPULSE_HD spatial_vector operator()(std::int64_t e) const { return delta[e]; }
};

// finish: a movable body with K > 0 fired manifolds takes their mean, added to its twist and to the
// trace's accumulated dv.
struct AddMeanDelta {
  View<const real> inv_m;
  View<spatial_vector> qd, body_dv;
  IMPULSE_HD void operator()(std::int64_t b, const spatial_vector& acc, int K) const {
    if (inv_m[b] == 0 || K == 0) return;
    const vec3 dv = acc.lin / real(K), dw = acc.ang / real(K);
    qd[b].lin += dv;
    qd[b].ang += dw;
    body_dv[b].lin += dv;
    body_dv[b].ang += dw;
  }
};

// The key of a row in no manifold: after every body pair's key.
constexpr std::int64_t kNoManifold = INT64_MAX;
}  // namespace

void SolverXPBD::apply_restitution(State& out, const ContactsView& c, real h) {
  const Device dev = model_->device;
  const std::int64_t rows = launch_extent(dev, View<const int>(step_.live.view()), step_.capacity);
  if (rows == 0) return;
  restitution_trace_pending_ = true;
  restitution_candidates(c, rows, h);
  group_restitution_manifolds(rows);
  View<spatial_vector> dv = step_.restitution.body_dv.view();
  parallel_for(dev, model_->body_count, IMPULSE_KERNEL((std::int64_t b), { dv[b] = spatial_vector{}; }));
  for (int outer = 0; outer < rigid_contact_restitution_iterations; ++outer) {
    restitution_sweep_manifolds(out, c, rows, outer);
    restitution_mean_body_deltas(out);
  }
}

const XpbdStepTrace& SolverXPBD::trace() const {
  if (!restitution_trace_pending_) return trace_;
  restitution_trace_pending_ = false;
  const Device dev = model_->device;
  const int count = read_one(dev, View<const int>(step_.live.view()), 0);
  if (count <= 0) return trace_;
  const XpbdRestitutionPass& p = step_.restitution;
  const int M = read_one(dev, View<const int>(step_.manifolds.view()), 0);
  const int outers = rigid_contact_restitution_iterations;
  trace_.restitution_ran = true;
  trace_.restitution_manifolds = M;
  trace_.restitution_sweeps = outers * restitution_inner_iterations;
  const std::vector<int> kept = view_to_host(p.kept.view(), dev, M);
  for (int k : kept) trace_.restitution_max_manifold_size = std::max(trace_.restitution_max_manifold_size, k);
  const std::int64_t cap = step_.capacity;
  const std::vector<real> lmins = view_to_host(p.lambda_min.view(), dev, cap * outers);
  for (int outer = 0; outer < outers; ++outer) {
    real lmin = 0;
    for (int k = 0; k < M; ++k) lmin = std::min(lmin, lmins[std::size_t(outer * cap + k)]);
    trace_.restitution_lambda_min_per_outer.push_back(lmin);
  }
  trace_.restitution_body_dv = view_to_host(p.body_dv.view(), dev, model_->body_count);
  return trace_;
}

// Per row, on the device: sides, depth and world point at the predicted poses, target velocity.
void SolverXPBD::restitution_candidates(const ContactsView& c, std::int64_t rows, real h) {
  const Device dev = model_->device;
  auto com_B = model_->body_com.view();
  grow_to(step_.candidates, dev, step_.capacity);
  View<const int> live = step_.live.view();
  View<const int> sd{step_.side.data(), 2 * std::int64_t(step_.capacity)};
  View<const int> ever = step_.ever_active.view();
  View<const transform> qp = step_.q_pred.view();
  View<const spatial_vector> qdp = step_.qd_pred.view();
  auto cand = step_.candidates.view();
  const vec3 g = gravity_;
  parallel_for(dev, rows, IMPULSE_KERNEL((std::int64_t i), {
    if (i >= live[0]) return;
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
  }));
}

// Per row and per manifold, on the device: the marked position contacts grouped by body pair (a
// stable sort of the rows by pair key keeps each pair's rows in row order; manifolds in increasing
// pair order, numbered by a scan of the run starts), each capped to restitution_manifold_max_contacts
// rows (E3.5-manifold-cap), then the per-body lists of manifold sides (core/segments_device.h).
void SolverXPBD::group_restitution_manifolds(std::int64_t rows) {
  const Device dev = model_->device;
  const std::int64_t cap = step_.capacity;
  const int nb = model_->body_count;
  XpbdRestitutionPass& p = step_.restitution;
  grow_to(p.key, dev, cap);
  grow_to(p.order, dev, cap);
  grow_to(p.first, dev, cap);
  grow_to(p.index, dev, cap + 1);
  grow_to(p.run_begin, dev, cap);
  grow_to(p.kept, dev, cap);
  grow_to(p.mind, dev, cap);
  grow_to(p.taken, dev, cap);
  grow_to(p.start, dev, cap + 1);
  grow_to(p.rows, dev, cap);
  grow_to(p.flip, dev, cap);
  grow_to(p.target, dev, cap);
  grow_to(p.bodies, dev, 2 * cap);
  grow_to(p.body_start, dev, std::int64_t(nb) + 1);
  grow_to(p.body_entry, dev, 2 * cap);
  grow_to(p.body_fill, dev, nb);
  grow_to(p.delta, dev, 2 * cap);
  grow_to(p.fired, dev, cap);
  grow_to(p.lambda_min, dev, cap * rigid_contact_restitution_iterations);
  grow_to(p.body_dv, dev, nb);
  grow_to(step_.manifolds, dev, 1);
  View<const int> live = step_.live.view();
  View<const XpbdRestitutionCandidate> cand = step_.candidates.view();
  View<std::int64_t> key{p.key.data(), rows};
  View<int> order{p.order.data(), rows};
  parallel_for(dev, rows, IMPULSE_KERNEL((std::int64_t i), {
    key[i] = kNoManifold;
    order[i] = static_cast<int>(i);
    if (i >= live[0]) return;
    const XpbdRestitutionCandidate r = cand[i];
    if (r.ever_active && r.body_a != r.body_b) key[i] = pair_key(r.body_a, r.body_b);
  }));
  sort_pairs(dev, key, order);
  View<std::int64_t> first{p.first.data(), rows};
  parallel_for(dev, rows, IMPULSE_KERNEL((std::int64_t k), {
    first[k] = key[k] != kNoManifold && (k == 0 || key[k - 1] != key[k]) ? 1 : 0;
  }));
  View<std::int64_t> index{p.index.data(), rows + 1};
  exclusive_scan(dev, View<const std::int64_t>(first), index);
  View<int> M = step_.manifolds.view(), run_begin = p.run_begin.view(), kept = p.kept.view(), bodies = p.bodies.view();
  parallel_for(dev, 1, IMPULSE_KERNEL((std::int64_t), { M[0] = static_cast<int>(index[rows]); }));
  const int cap_rows = restitution_manifold_max_contacts;
  parallel_for(dev, rows, IMPULSE_KERNEL((std::int64_t k), {
    if (k >= index[rows]) kept[k] = 0, bodies[2 * k] = -1, bodies[2 * k + 1] = -1;  // no manifold k
    if (!first[k]) return;
    const std::int64_t m = index[k];
    std::int64_t end = k + 1;
    while (end < rows && key[end] == key[k]) ++end;
    run_begin[m] = static_cast<int>(k);
    kept[m] = end - k < cap_rows ? static_cast<int>(end - k) : cap_rows;
    bodies[2 * m] = pair_key_first(key[k]);
    bodies[2 * m + 1] = pair_key_second(key[k]);
  }));
  View<std::int64_t> start{p.start.data(), rows + 1};
  exclusive_scan(dev, View<const int>{p.kept.data(), rows}, start);
  View<real> mind = p.mind.view();
  View<int> taken = p.taken.view(), mrows = p.rows.view(), flip = p.flip.view();
  View<real> target = p.target.view();
  parallel_for(dev, launch_extent(dev, View<const int>(M), rows), IMPULSE_KERNEL((std::int64_t m), {
    if (m >= M[0]) return;
    const std::int64_t k0 = run_begin[m];
    std::int64_t end = k0 + 1;
    while (end < rows && key[end] == key[k0]) ++end;
    const int n = static_cast<int>(end - k0);
    int chosen[SolverXPBD::restitution_manifold_max_contacts];
    const int nk = select_manifold_candidates(
        n, [&](int i) { return cand[order[k0 + i]].depth; }, [&](int i) { return cand[order[k0 + i]].point_a; },
        cap_rows, mind.data + k0, taken.data + k0, chosen);
    const int second = bodies[2 * m + 1];
    for (int j = 0; j < nk; ++j) {
      const int i = order[k0 + chosen[j]];
      mrows[start[m] + j] = i;
      flip[start[m] + j] = cand[i].body_a == second ? 1 : 0;
      target[start[m] + j] = cand[i].target;
    }
  }));
  build_segments_on(dev, nb, View<const int>{p.bodies.data(), 2 * rows}, p.body_start.view(), p.body_entry.view(),
                    p.body_fill.view());
}

// One outer iteration on the device, per manifold: restitution_inner_iterations projected
// Gauss-Seidel sweeps over its rows on the manifold's own copy of its two bodies' velocities; the
// velocity change of each side, whether a row fired and the smallest row impulse are kept.
void SolverXPBD::restitution_sweep_manifolds(State& out, const ContactsView& c, std::int64_t rows, int outer) {
  XpbdRestitutionPass& pass = step_.restitution;
  const Model& m = *model_;
  auto flags = m.body_flags.view();
  auto com_B = m.body_com.view();
  auto inv_m = inv_mass_eff_.view();
  auto inv_I = inv_inertia_eff_.view();
  auto q = out.body_q.view();
  auto qd = out.body_qd.view();
  View<const int> M = step_.manifolds.view();
  auto msv = pass.start.view();
  auto mrv = pass.rows.view();
  auto mbv = pass.bodies.view();
  auto rfv = pass.flip.view();
  auto rtv = pass.target.view();
  auto md = pass.delta.view();
  auto mf = pass.fired.view();
  View<real> ml{pass.lambda_min.data() + std::int64_t(outer) * step_.capacity, step_.capacity};
  const bool first = outer == 0;
  const int sweeps = restitution_inner_iterations;
  parallel_for(m.device, launch_extent(m.device, M, rows), IMPULSE_KERNEL((std::int64_t k), {
    if (k >= M[0]) return;
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
  }));
}

// Each body, on the device: the mean of the velocity deltas of the manifolds that fired on it.
void SolverXPBD::restitution_mean_body_deltas(State& out) {
  XpbdRestitutionPass& pass = step_.restitution;
  segmented_sum_where<spatial_vector>(model_->device, model_->body_count, pass.body_start.view(), pass.body_entry.view(),
                                      FiredManifold{pass.fired.view()}, EntryDelta{pass.delta.view()},
                                      AddMeanDelta{inv_mass_eff_.view(), out.body_qd.view(), pass.body_dv.view()});
}

}  // namespace impulse
