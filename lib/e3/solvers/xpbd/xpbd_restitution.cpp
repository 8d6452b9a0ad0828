// SolverXPBD's restitution pass (course E3 §5), run after the position iterations when
// enable_restitution is set: per body-pair manifold of the contacts that were active in some
// iteration, at most restitution_manifold_max_contacts rows (E3.5-manifold-cap), target normal
// velocities from the predicted state (E3.5-restitution-target), then outer iterations of a
// per-manifold projected Gauss-Seidel on the velocities; each body takes the mean of the velocity
// changes of the manifolds that fired on it.
//
// The manifolds are grouped on the host from one readback of the record and the predicted state
// (the remaining host round trip of a GPU step with restitution; the sweeps run on the device).
#include <algorithm>
#include <map>
#include <utility>

#include "core/parallel_for.h"
#include "core/segments.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "e3/solvers/xpbd/xpbd_side.h"

namespace impulse {

using xpbd_detail::add_to;
using xpbd_detail::make_side;
using xpbd_detail::upload;

void SolverXPBD::apply_restitution(State& out, const ContactsView& c, real h) {
  const Model& m = *model_;
  const Device dev = m.device;
  const int B = m.body_count;
  const int count = step_.count;
  const std::vector<int>& sides = step_.sides;
  auto flags = m.body_flags.view();
  auto com_B = m.body_com.view();
  auto inv_m = inv_mass_eff_.view();
  auto inv_I = inv_inertia_eff_.view();
  auto q = out.body_q.view();
  auto qd = out.body_qd.view();

  trace_.restitution_ran = true;
  auto ever_h = step_.ever_active.to_host();
  auto qp = step_.q_pred.to_host();
  auto qdp = step_.qd_pred.to_host();
  auto com_h = m.body_com.to_host();
  std::vector<vec3> p0(count), p1(count), nrm(count);
  std::vector<real> t0(count), t1(count), e(count);
  device_copy(p0.data(), Device::cpu, c.rigid_contact_point0.data, dev, sizeof(vec3) * count);
  device_copy(p1.data(), Device::cpu, c.rigid_contact_point1.data, dev, sizeof(vec3) * count);
  device_copy(nrm.data(), Device::cpu, c.rigid_contact_normal.data, dev, sizeof(vec3) * count);
  device_copy(t0.data(), Device::cpu, c.rigid_contact_margin0.data, dev, sizeof(real) * count);
  device_copy(t1.data(), Device::cpu, c.rigid_contact_margin1.data, dev, sizeof(real) * count);
  device_copy(e.data(), Device::cpu, c.rigid_contact_restitution.data, dev, sizeof(real) * count);
  // Group the marked position contacts by body pair (manifolds in increasing pair order).
  std::map<std::pair<int, int>, std::vector<int>> pairs;
  for (int i = 0; i < count; ++i) {
    int ba = sides[2 * i], bb = sides[2 * i + 1];
    if (!ever_h[i] || ba == bb) continue;
    pairs[{std::min(ba, bb), std::max(ba, bb)}].push_back(i);
  }
  std::vector<std::int64_t> mstart{0};
  std::vector<int> mrows, mbody, rflip;
  std::vector<real> rtarget;
  auto world_point = [&](int b, vec3 p) { return b >= 0 ? transform_point(qp[b], p) : p; };
  auto point_velocity = [&](int b, vec3 x) {
    if (b < 0) return vec3{};
    return qdp[b].lin + cross(qdp[b].ang, x - transform_point(qp[b], com_h[b]));
  };
  for (auto& [key, list] : pairs) {
    std::vector<real> depth;
    std::vector<vec3> pts;
    for (int i : list) {
      vec3 xa = world_point(sides[2 * i], p0[i]), xb = world_point(sides[2 * i + 1], p1[i]);
      depth.push_back(dot(nrm[i], xb - xa) - (t0[i] + t1[i]));
      pts.push_back(xa);
    }
    std::vector<int> keep = select_manifold_contacts(depth, pts, restitution_manifold_max_contacts);
    for (int k : keep) {
      int i = list[k];
      int ba = sides[2 * i], bb = sides[2 * i + 1];
      vec3 xa = world_point(ba, p0[i]), xb = world_point(bb, p1[i]);
      real v_old = dot(nrm[i], point_velocity(bb, xb) - point_velocity(ba, xa));
      real gstar = restitution_gstar(ba, gravity_, bb, gravity_);
      mrows.push_back(i);
      rflip.push_back(ba == key.second ? 1 : 0);
      rtarget.push_back(restitution_target_velocity(v_old, e[i], gstar, h));
    }
    trace_.restitution_max_manifold_size = std::max(trace_.restitution_max_manifold_size, int(keep.size()));
    mstart.push_back(std::int64_t(mrows.size()));
    mbody.push_back(key.first);
    mbody.push_back(key.second);
  }
  const int M = int(pairs.size());
  trace_.restitution_manifolds = M;
  std::vector<std::int64_t> bstart_h, bentry_h;
  build_segments(B, mbody, bstart_h, bentry_h);
  Buffer<std::int64_t> ms = upload(dev, mstart), bs = upload(dev, bstart_h), be = upload(dev, bentry_h);
  Buffer<int> mr = upload(dev, mrows), mb = upload(dev, mbody), rf = upload(dev, rflip);
  Buffer<real> rt = upload(dev, rtarget);
  Buffer<spatial_vector> mdelta(dev, 2 * M);
  Buffer<int> mfired(dev, M);
  const int outers = rigid_contact_restitution_iterations;
  // Each outer iteration's smallest row impulse per manifold, read back once after the last.
  Buffer<real> mlmin(dev, std::int64_t(M) * outers);
  Buffer<spatial_vector> rdv(dev, std::vector<spatial_vector>(B));
  for (int outer = 0; outer < outers; ++outer) {
    auto msv = ms.view();
    auto mrv = mr.view();
    auto mbv = mb.view();
    auto rfv = rf.view();
    auto rtv = rt.view();
    auto md = mdelta.view();
    auto mf = mfired.view();
    View<real> ml{mlmin.data() + std::int64_t(outer) * M, M};
    const bool first = outer == 0;
    const int sweeps = restitution_inner_iterations;
    parallel_for(dev, M, IMPULSE_LAMBDA(std::int64_t k) {
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
    trace_.restitution_sweeps += sweeps;
    // Each body: the mean of the velocity deltas of the manifolds that fired on it.
    auto bsv = bs.view();
    auto bev = be.view();
    auto rdvv = rdv.view();
    parallel_for(dev, B, IMPULSE_LAMBDA(std::int64_t b) {
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
  std::vector<real> lmins = mlmin.to_host();
  for (int outer = 0; outer < outers; ++outer) {
    real lmin = 0;
    for (int k = 0; k < M; ++k) lmin = std::min(lmin, lmins[std::size_t(outer) * M + k]);
    trace_.restitution_lambda_min_per_outer.push_back(lmin);
  }
  trace_.restitution_body_dv = rdv.to_host();
}

}  // namespace impulse
