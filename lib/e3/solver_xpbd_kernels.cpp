// SolverXPBD::step and update_contacts: launch sites (either backend).
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/parallel_for.h"
#include "core/segments.h"
#include "e1/integrator.h"
#include "e3/solver_xpbd.h"

namespace impulse {

namespace {

IMPULSE_HD inline XpbdSide make_side(int b, View<const transform> q, View<const spatial_vector> qd, View<const vec3> com,
                                     View<const real> inv_m, View<const mat33> inv_I, View<const int> flags) {
  XpbdSide s;
  if (b < 0) return s;
  s.body = b;
  s.X = q[b];
  s.v = qd[b];
  s.com = transform_point(s.X, com[b]);
  s.inv_m = inv_m[b];
  s.inv_I = world_inv_inertia(s.X.q, inv_I[b]);
  s.kinematic = (flags[b] & int(BodyFlag::kinematic)) != 0;
  return s;
}

IMPULSE_HD inline void add_to(spatial_vector& a, const spatial_vector& b) {
  a.lin += b.lin;
  a.ang += b.ang;
}

template <class T>
Buffer<T> upload(Device d, const std::vector<T>& v) {
  return v.empty() ? Buffer<T>(d, 0) : Buffer<T>(d, v);
}

}  // namespace

SolverXPBD::SolverXPBD(const Model& model, int iters) : iterations(iters), model_(&model), gravity_(model.gravity) {
  const Model& m = model;
  auto flags = m.body_flags.to_host();
  auto inv_m = m.body_inv_mass.to_host();
  auto inv_I = m.body_inv_inertia.to_host();
  for (int b = 0; b < m.body_count; ++b)
    if (flags[b] & int(BodyFlag::kinematic)) {
      inv_m[b] = 0;
      inv_I[b] = mat33{};
    }
  inv_mass_eff_ = upload(m.device, inv_m);
  inv_inertia_eff_ = upload(m.device, inv_I);
  // Joints with rows or a joint_f to apply between two bodies: every joint but FREE.
  auto type = m.joint_type.to_host();
  auto parent = m.joint_parent.to_host();
  auto child = m.joint_child.to_host();
  auto axes = m.joint_axes.to_host();
  std::vector<int> sides;
  for (int j = 0; j < m.joint_count; ++j) {
    if (JointType(type[j]) == JointType::d6 && axes[j].n_ang == 2)
      throw std::invalid_argument("SolverXPBD: joint " + std::to_string(j) +
                                  " is a D6 with two angular axes, which this solver cannot lock (use 0, 1 or 3)");
    bool rows = JointType(type[j]) != JointType::free;
    has_joint_rows_ = has_joint_rows_ || rows;
    sides.push_back(rows ? parent[j] : -1);
    sides.push_back(rows ? child[j] : -1);
  }
  std::vector<std::int64_t> start, entry;
  build_segments(m.body_count, sides, start, entry);
  joint_body_start_ = upload(m.device, start);
  joint_body_entry_ = upload(m.device, entry);
  wrench_ = Buffer<spatial_vector>(m.device, m.body_count);
  body_delta_ = Buffer<spatial_vector>(m.device, m.body_count);
  body_count_ = Buffer<int>(m.device, m.body_count);
  body_parent_f_ = Buffer<spatial_vector>(m.device, std::vector<spatial_vector>(m.body_count));
  joint_impulse_ = Buffer<spatial_vector>(m.device, m.joint_count);
  joint_delta_p_ = Buffer<spatial_vector>(m.device, m.joint_count);
  joint_delta_c_ = Buffer<spatial_vector>(m.device, m.joint_count);
}

void SolverXPBD::notify_model_changed() { gravity_ = model_->gravity; }

void SolverXPBD::step(const State& in, State& out, const Control& control, const ContactsView* contacts, real h) {
  const Model& m = *model_;
  const Device dev = m.device;
  const int B = m.body_count;
  if (!(h > 0)) throw std::invalid_argument("SolverXPBD.step: step h must be positive (got " + std::to_string(h) + " s)");
  if (iterations <= 0)
    throw std::invalid_argument("SolverXPBD.step: iterations must be >= 1 (got " + std::to_string(iterations) + ")");
  if (enable_restitution && rigid_contact_restitution_iterations <= 0)
    throw std::invalid_argument("SolverXPBD.step: rigid_contact_restitution_iterations must be >= 1 (got " +
                                std::to_string(rigid_contact_restitution_iterations) + ")");
  if (&in == &out) throw std::invalid_argument("SolverXPBD.step: state_in and state_out must be different States");
  if (in.body_q.size() != B || out.body_q.size() != B || in.body_qd.size() != B || out.body_qd.size() != B ||
      in.body_f.size() != B)
    throw std::invalid_argument("SolverXPBD.step: State body arrays do not match the model (" + std::to_string(B) +
                                " bodies)");
  if (control.joint_f.size != 0 && control.joint_f.size != m.joint_dof_count)
    throw std::invalid_argument("SolverXPBD.step: control.joint_f has the wrong length");

  // The contact record: same Model, not overflowed, shapes inside the Model.
  int count = 0;
  std::vector<int> sides;
  if (contacts) {
    if (contacts->model != model_)
      throw std::invalid_argument("SolverXPBD.step: the contact record was made for another Model (a foreign record)");
    count = contact_count(*contacts);
    if (count < 0 || count > contacts->rigid_contact_max)
      throw std::invalid_argument("SolverXPBD.step: contact record overflowed (count " + std::to_string(count) +
                                  " > rigid_contact_max " + std::to_string(contacts->rigid_contact_max) +
                                  "): the record is incomplete");
    sides = contact_bodies(m, *contacts, count);
  }
  trace_ = XpbdStepTrace{};

  // 1. This step's impulse buffer, fresh and zero (no warm start from the previous step).
  const int cap = contacts ? contacts->rigid_contact_max : 0;
  // Buffers are sized once per capacity and reused (no per-step allocation); zeroed here.
  if (contact_impulse_.size() != cap) contact_impulse_ = Buffer<spatial_vector>(dev, cap);
  if (delta_a_.size() < cap) {
    delta_a_ = Buffer<spatial_vector>(dev, cap);
    delta_b_ = Buffer<spatial_vector>(dev, cap);
    active_ = Buffer<int>(dev, cap);
    ever_active_ = Buffer<int>(dev, cap);
  }
  {
    auto imp = contact_impulse_.view();
    parallel_for(dev, cap, IMPULSE_LAMBDA(std::int64_t i) { imp[i] = spatial_vector{}; });
  }
  std::vector<std::int64_t> cstart_h, centry_h;
  build_segments(B, sides, cstart_h, centry_h);
  Buffer<std::int64_t> cstart = upload(dev, cstart_h), centry = upload(dev, centry_h);
  Buffer<int> side_buf = upload(dev, sides);
  const View<spatial_vector> dA{delta_a_.data(), count}, dB{delta_b_.data(), count};
  const View<int> active{active_.data(), count}, ever_active{ever_active_.data(), count};
  parallel_for(dev, count, IMPULSE_LAMBDA(std::int64_t i) { ever_active[i] = 0; });

  auto flags = m.body_flags.view();
  auto com_B = m.body_com.view();
  auto I_B = m.body_inertia.view();
  auto inv_m = inv_mass_eff_.view();
  auto inv_I = inv_inertia_eff_.view();

  // 2. External wrench: body_f + joint_f, in a temporary buffer (state_in.body_f is not written).
  gather_body_wrenches(m, in, control, wrench_.view());
  if (control.joint_f.size != 0 && m.joint_count > 0) {
    auto wrench = wrench_.view();
    auto jstart = joint_body_start_.view();
    auto jentry = joint_body_entry_.view();
    auto jtype = m.joint_type.view();
    auto jaxes = m.joint_axes.view();
    auto jXp = m.joint_X_p.view();
    auto jparent = m.joint_parent.view();
    auto qd_start = m.joint_qd_start.view();
    auto q_in = in.body_q.view();
    View<const real> jf = control.joint_f;
    parallel_for(dev, B, IMPULSE_LAMBDA(std::int64_t b) {
      for (std::int64_t k = jstart[b]; k < jstart[b + 1]; ++k) {
        std::int64_t j = jentry[k] >> 1;
        real sign = (jentry[k] & 1) ? real(1) : real(-1);  // child +, parent -
        transform Xp = jparent[j] >= 0 ? q_in[jparent[j]] : transform_identity();
        spatial_vector w = joint_force_on_child(JointType(jtype[j]), jaxes[j], transform_multiply(Xp, jXp[j]).q,
                                                &jf[qd_start[j]]);
        wrench[b].lin += sign * w.lin;
        wrench[b].ang += sign * w.ang;
      }
    });
  }

  // 3. The E1 §10 predictor.
  integrate_bodies(m, in, wrench_.view(), out, gravity_, angular_damping, h);
  Buffer<transform> q_pred;
  Buffer<spatial_vector> qd_pred;
  if (enable_restitution) {
    q_pred = out.body_q;
    qd_pred = out.body_qd;
  }

  auto q = out.body_q.view();
  auto qd = out.body_qd.view();
  const bool weighting = rigid_contact_con_weighting;
  const real relax = rigid_contact_relaxation;
  // Child-side joint impulses of this step, for body_parent_f.
  Buffer<spatial_vector>& joint_impulse = joint_impulse_;
  Buffer<spatial_vector>& jP = joint_delta_p_;
  Buffer<spatial_vector>& jC = joint_delta_c_;
  {
    auto jimp = joint_impulse.view();
    parallel_for(dev, m.joint_count, IMPULSE_LAMBDA(std::int64_t j) { jimp[j] = spatial_vector{}; });
  }

  // 4. Fixed iterations: clear deltas -> rigid contacts -> weighted apply -> joints -> apply.
  for (int it = 0; it < iterations; ++it) {
    if (count > 0) {
      const ContactsView& c = *contacts;
      auto sd = side_buf.view();
      auto a_out = dA;
      auto b_out = dB;
      auto act = active;
      auto ever = ever_active;
      parallel_for(dev, count, IMPULSE_LAMBDA(std::int64_t i) {
        int ba = sd[2 * i], bb = sd[2 * i + 1];
        XpbdContactDelta r;
        if (c.rigid_contact_shape0[i] != c.rigid_contact_shape1[i] && ba != bb) {
          XpbdSide A = make_side(ba, q, qd, com_B, inv_m, inv_I, flags);
          XpbdSide Bs = make_side(bb, q, qd, com_B, inv_m, inv_I, flags);
          r = xpbd_contact_delta(A, Bs, c.rigid_contact_point0[i], c.rigid_contact_point1[i], c.rigid_contact_offset0[i],
                                 c.rigid_contact_offset1[i], c.rigid_contact_normal[i], c.rigid_contact_thickness0[i],
                                 c.rigid_contact_thickness1[i], c.rigid_contact_mu[i], c.rigid_contact_mu_torsional[i],
                                 c.rigid_contact_mu_rolling[i], relax, h);
        }
        a_out[i] = r.dA;
        b_out[i] = r.dB;
        act[i] = r.active;
        ever[i] |= r.active;
      });
      ++trace_.contact_passes;
      int n_active = 0;
      for (int a : view_to_host(View<const int>(active), dev, count)) n_active += a;
      trace_.active_contacts.push_back(n_active);

      // Weighted apply: each body sums its own contacts in contact order, divides by its count N.
      auto cs = cstart.view();
      auto ce = centry.view();
      auto cnt = body_count_.view();
      parallel_for(dev, B, IMPULSE_LAMBDA(std::int64_t b) {
        spatial_vector acc{};
        int N = 0;
        for (std::int64_t k = cs[b]; k < cs[b + 1]; ++k) {
          std::int64_t ci = ce[k] >> 1;
          if (!act[ci]) continue;
          add_to(acc, (ce[k] & 1) ? b_out[ci] : a_out[ci]);
          ++N;
        }
        cnt[b] = N;
        real weight = (weighting && N > 0) ? real(1) / real(N) : real(1);
        transform X = q[b];
        spatial_vector v = qd[b];
        xpbd_apply_body_delta(X, v, com_B[b], I_B[b], inv_I[b], inv_m[b], acc, weight, h);
        q[b] = X;
        qd[b] = v;
      });

      // Readback: this iteration's impulse on body0, scaled by 1/N or 2/(N_A + N_B).
      auto imp = contact_impulse_.view();
      parallel_for(dev, count, IMPULSE_LAMBDA(std::int64_t i) {
        if (!act[i]) return;
        int ba = sd[2 * i], bb = sd[2 * i + 1];
        real s = 1;
        if (weighting) s = contact_readback_scale(ba, ba >= 0 ? cnt[ba] : 0, bb, bb >= 0 ? cnt[bb] : 0);
        imp[i].lin += s * a_out[i].lin;
        imp[i].ang += s * a_out[i].ang;
      });
    }
    if (has_joint_rows_) {
      auto p_out = jP.view();
      auto c_out = jC.view();
      auto jtype = m.joint_type.view();
      auto jaxes = m.joint_axes.view();
      auto jXp = m.joint_X_p.view();
      auto jXc = m.joint_X_c.view();
      auto jparent = m.joint_parent.view();
      auto jchild = m.joint_child.view();
      auto dmin = m.joint_distance_min.view();
      auto dmax = m.joint_distance_max.view();
      XpbdJointParams prm = joint;
      auto jimp = joint_impulse.view();
      parallel_for(dev, m.joint_count, IMPULSE_LAMBDA(std::int64_t j) {
        XpbdSide P = make_side(jparent[j], q, qd, com_B, inv_m, inv_I, flags);
        XpbdSide C = make_side(jchild[j], q, qd, com_B, inv_m, inv_I, flags);
        XpbdJointDelta r = xpbd_joint_delta(JointType(jtype[j]), jaxes[j], P, C, jXp[j], jXc[j], dmin[j], dmax[j], prm, h);
        p_out[j] = r.dP;
        c_out[j] = r.dC;
        jimp[j].lin += r.dC.lin;
        jimp[j].ang += r.dC.ang;
      });
      ++trace_.joint_passes;
      auto js = joint_body_start_.view();
      auto je = joint_body_entry_.view();
      parallel_for(dev, B, IMPULSE_LAMBDA(std::int64_t b) {
        spatial_vector acc{};
        for (std::int64_t k = js[b]; k < js[b + 1]; ++k) add_to(acc, (je[k] & 1) ? c_out[je[k] >> 1] : p_out[je[k] >> 1]);
        transform X = q[b];
        spatial_vector v = qd[b];
        xpbd_apply_body_delta(X, v, com_B[b], I_B[b], inv_I[b], inv_m[b], acc, 1, h);
        q[b] = X;
        qd[b] = v;
      });
    }
  }

  // 5. Save this step's position impulses for update_contacts; body_parent_f from the joint impulses.
  impulse_capacity_ = cap;
  have_impulse_ = contacts != nullptr;
  last_h_ = h;
  {
    auto bpf = body_parent_f_.view();
    parallel_for(dev, B, IMPULSE_LAMBDA(std::int64_t b) { bpf[b] = spatial_vector{}; });
    auto jimp = joint_impulse.view();
    auto jtype = m.joint_type.view();
    auto jaxes = m.joint_axes.view();
    auto jXp = m.joint_X_p.view();
    auto jparent = m.joint_parent.view();
    auto jchild = m.joint_child.view();
    auto qd_start = m.joint_qd_start.view();
    auto q_in = in.body_q.view();
    View<const real> jf = control.joint_f;
    // One inbound joint per child body: each thread writes its own child's entry.
    parallel_for(dev, m.joint_count, IMPULSE_LAMBDA(std::int64_t j) {
      JointType t = JointType(jtype[j]);
      if (t == JointType::free) return;
      spatial_vector w{jimp[j].lin / h, jimp[j].ang / h};
      if (jf.size != 0) {
        transform Xp = jparent[j] >= 0 ? q_in[jparent[j]] : transform_identity();
        spatial_vector a = joint_force_on_child(t, jaxes[j], transform_multiply(Xp, jXp[j]).q, &jf[qd_start[j]]);
        w.lin += a.lin;
        w.ang += a.ang;
      }
      bpf[jchild[j]] = w;
    });
  }

  // 6. Restitution per body-pair manifold, only when enabled.
  if (enable_restitution && count > 0) {
    trace_.restitution_ran = true;
    const ContactsView& c = *contacts;
    auto ever_h = view_to_host(View<const int>(ever_active), dev, count);
    auto qp = q_pred.to_host();
    auto qdp = qd_pred.to_host();
    auto com_h = m.body_com.to_host();
    std::vector<vec3> p0(count), p1(count), nrm(count);
    std::vector<real> t0(count), t1(count), e(count);
    device_copy(p0.data(), Device::cpu, c.rigid_contact_point0.data, dev, sizeof(vec3) * count);
    device_copy(p1.data(), Device::cpu, c.rigid_contact_point1.data, dev, sizeof(vec3) * count);
    device_copy(nrm.data(), Device::cpu, c.rigid_contact_normal.data, dev, sizeof(vec3) * count);
    device_copy(t0.data(), Device::cpu, c.rigid_contact_thickness0.data, dev, sizeof(real) * count);
    device_copy(t1.data(), Device::cpu, c.rigid_contact_thickness1.data, dev, sizeof(real) * count);
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
    Buffer<real> mlmin(dev, M);
    Buffer<spatial_vector> rdv(dev, std::vector<spatial_vector>(B));
    for (int outer = 0; outer < rigid_contact_restitution_iterations; ++outer) {
      auto msv = ms.view();
      auto mrv = mr.view();
      auto mbv = mb.view();
      auto rfv = rf.view();
      auto rtv = rt.view();
      auto md = mdelta.view();
      auto mf = mfired.view();
      auto ml = mlmin.view();
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
      real lmin = 0;
      for (real x : mlmin.to_host()) lmin = std::min(lmin, x);
      trace_.restitution_lambda_min_per_outer.push_back(lmin);
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
    trace_.restitution_body_dv = rdv.to_host();
  }

  // Kinematic bodies get their prescribed state back.
  auto q_in = in.body_q.view();
  auto qd_in = in.body_qd.view();
  parallel_for(dev, B, IMPULSE_LAMBDA(std::int64_t b) {
    if (flags[b] & int(BodyFlag::kinematic)) {
      q[b] = q_in[b];
      qd[b] = qd_in[b];
    }
  });
}

void SolverXPBD::update_contacts(ContactsView& contacts) const {
  if (contacts.force.size == 0)
    throw std::invalid_argument(
        "SolverXPBD.update_contacts: the record has no force storage; call request_contact_attributes(\"force\") "
        "before making the Contacts");
  if (!have_impulse_)
    throw std::runtime_error("SolverXPBD.update_contacts: no step with contacts has run yet (no impulses to convert)");
  if (contacts.rigid_contact_max != impulse_capacity_)
    throw std::invalid_argument("SolverXPBD.update_contacts: record capacity " + std::to_string(contacts.rigid_contact_max) +
                                " differs from the stepped record's " + std::to_string(impulse_capacity_));
  int count = contact_count(contacts);
  if (count < 0 || count > contacts.rigid_contact_max)
    throw std::invalid_argument("SolverXPBD.update_contacts: contact record overflowed (count " + std::to_string(count) +
                                " > rigid_contact_max " + std::to_string(contacts.rigid_contact_max) + ")");
  auto imp = contact_impulse_.view();
  auto f = contacts.force;
  const real h = last_h_;
  parallel_for(model_->device, contacts.rigid_contact_max, IMPULSE_LAMBDA(std::int64_t i) {
    if (i >= count) {
      f[i] = spatial_vector{};
      return;
    }
    f[i] = {vec3{impulse_to_average_force(imp[i].lin.x, h), impulse_to_average_force(imp[i].lin.y, h),
                 impulse_to_average_force(imp[i].lin.z, h)},
            vec3{impulse_to_average_force(imp[i].ang.x, h), impulse_to_average_force(imp[i].ang.y, h),
                 impulse_to_average_force(imp[i].ang.z, h)}};
  });
}

}  // namespace impulse
