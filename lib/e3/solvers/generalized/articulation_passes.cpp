// The shared passes of the generalized-coordinate dynamics (course E3 §6): one item per
// articulation, or per body where a body's term needs nothing of its neighbours. The same source
// runs on the CPU and on a GPU.
#include "e3/solvers/generalized/articulation_passes.h"

#include <stdexcept>

#include "core/parallel_for.h"
#include "core/scan.h"
#include "e3/solvers/shared/dense_cholesky.h"
#include "e3/solvers/generalized/generalized_layout.h"

namespace impulse {

namespace {

template <class T>
Buffer<T> upload(Device d, const std::vector<T>& h) {
  return Buffer<T>(d, h);
}

}  // namespace

ArticulationArrays::ArticulationArrays(const Model& m, std::vector<real> arm) {
  const Device d = m.device;
  const GeneralizedLayout L = generalized_layout(m, "generalized dynamics");
  armature = upload(d, checked_armature(std::move(arm), m.joint_dof_count, "generalized dynamics"));
  // Flat per-articulation blocks: J_a is (6 joints_a) x dof_a, H_a is dof_a x dof_a, both row-major.
  articulation_count = int(L.art_dof_begin.size());
  std::vector<std::int64_t> Js{0}, Hs{0};
  for (int a = 0; a < articulation_count; ++a) {
    const std::int64_t n = L.art_dof_end[a] - L.art_dof_begin[a], rows = 6 * (L.art_joint_end[a] - L.art_joint_begin[a]);
    Js.push_back(Js.back() + rows * n);
    Hs.push_back(Hs.back() + n * n);
  }
  J_start = upload(d, Js);
  H_start = upload(d, Hs);
  dof_begin = upload(d, L.art_dof_begin);
  dof_end = upload(d, L.art_dof_end);
  body_art = upload(d, L.body_art);
  body_row = upload(d, L.body_row);
  J = Buffer<real>(d, Js.back());
  H = Buffer<real>(d, Hs.back());
  x = Buffer<real>(d, m.joint_dof_count);
  const std::vector<spatial_vector> zero(std::size_t(m.body_count), spatial_vector{});
  unit_v = upload(d, zero);
  a0 = upload(d, zero);  // bodies moved by no joint keep a zero bias acceleration
  spd_failed = upload(d, std::vector<int>(std::size_t(articulation_count), 0));
  spd_offsets = Buffer<std::int64_t>(d, std::int64_t(articulation_count) + 1);
  // Bodies moved by no joint stay at the identity, at rest, in the passes' FK (as the host reference).
  X = upload(d, std::vector<transform>(std::size_t(m.body_count), transform_identity()));
  V = upload(d, zero);
}

void articulation_forward_kinematics(const Model& m, ArticulationArrays& A, View<const real> q, View<const real> qd) {
  const JointTree t = joint_tree_of(m);
  auto X = A.X.view();
  auto V = A.V.view();
  parallel_for(m.device, A.articulation_count, IMPULSE_KERNEL((std::int64_t a), { articulation_fk_item(t, a, q, qd, X, V); }));
}

void articulation_jacobians(const Model& m, ArticulationArrays& A, View<const real> q) {
  const JointTree t = joint_tree_of(m);
  View<const transform> X = A.X.view();
  auto U = A.unit_v.view();
  auto J = A.J.view();
  View<const std::int64_t> J_start = A.J_start.view();
  View<const int> d_begin = A.dof_begin.view(), d_end = A.dof_end.view();
  parallel_for(m.device, A.articulation_count, IMPULSE_KERNEL((std::int64_t a), {
    const int d0 = d_begin[a], n = d_end[a] - d0, j0 = t.start[a];
    real* Ja = &J[J_start[a]];
    for (int k = 0; k < n; ++k)
      for (int j = j0; j < t.start[a + 1]; ++j) {
        const int p = t.parent[j], c = t.child[j];
        real e[6] = {0, 0, 0, 0, 0, 0};  // this joint's slice of e_k (a FREE joint has 6 DOF)
        const int local = d0 + k - t.qd_start[j];
        if (local >= 0 && d0 + k < t.qd_start[j + 1]) e[local] = 1;
        const BodyState ps = p >= 0 ? BodyState{X[p], U[p]} : BodyState{transform_identity(), spatial_vector{}};
        const BodyState cs = fk_joint(ps, p >= 0 ? t.com[p] : vec3{}, t.X_p[j], t.X_c[j], JointType(t.type[j]),
                                      &q[t.q_start[j]], e, t.axes[j], t.com[c]);
        U[c] = cs.v;
        real* row = Ja + std::int64_t(6 * (j - j0)) * n + k;
        row[0 * n] = cs.v.lin.x;
        row[1 * n] = cs.v.lin.y;
        row[2 * n] = cs.v.lin.z;
        row[3 * n] = cs.v.ang.x;
        row[4 * n] = cs.v.ang.y;
        row[5 * n] = cs.v.ang.z;
      }
  }));
}

void articulation_mass_matrix(const Model& m, ArticulationArrays& A) {
  const JointTree t = joint_tree_of(m);
  View<const transform> X = A.X.view();
  View<const real> J = A.J.view(), arm = A.armature.view();
  auto H = A.H.view();
  View<const std::int64_t> J_start = A.J_start.view(), H_start = A.H_start.view();
  View<const int> d_begin = A.dof_begin.view(), d_end = A.dof_end.view();
  parallel_for(m.device, A.articulation_count, IMPULSE_KERNEL((std::int64_t a), {
    const int d0 = d_begin[a], n = d_end[a] - d0, j0 = t.start[a];
    real* Ha = &H[H_start[a]];
    for (int r = 0; r < n; ++r)
      for (int k = 0; k < n; ++k) Ha[r * n + k] = r == k ? arm[d0 + r] : real(0);
    for (int j = j0; j < t.start[a + 1] && n > 0; ++j) {
      const int b = t.child[j];
      const mat33 I_w = world_inertia(X[b], t.inertia[b]);
      const real* Jb = &J[J_start[a] + std::int64_t(6 * (j - j0)) * n];
      for (int k = 0; k < n; ++k) {
        // (I_b J_b) column k: the body's momentum for qd = e_k.
        const vec3 p_k = t.mass[b] * vec3{Jb[0 * n + k], Jb[1 * n + k], Jb[2 * n + k]};
        const vec3 L_k = I_w * vec3{Jb[3 * n + k], Jb[4 * n + k], Jb[5 * n + k]};
        for (int r = 0; r < n; ++r)
          Ha[r * n + k] += dot(vec3{Jb[0 * n + r], Jb[1 * n + r], Jb[2 * n + r]}, p_k) +
                           dot(vec3{Jb[3 * n + r], Jb[4 * n + r], Jb[5 * n + r]}, L_k);
      }
    }
  }));
}

void articulation_generalized_force(const Model& m, ArticulationArrays& A, View<const real> q, View<const real> qd,
                                    View<const spatial_vector> W, View<const real> jf) {
  const JointTree t = joint_tree_of(m);
  const vec3 g = m.gravity;
  const bool has_jf = jf.size >= m.joint_dof_count;
  View<const transform> X = A.X.view();
  View<const spatial_vector> V = A.V.view();
  auto A0 = A.a0.view();
  View<const real> J = A.J.view();
  auto x = A.x.view();
  View<const std::int64_t> J_start = A.J_start.view();
  View<const int> d_begin = A.dof_begin.view(), d_end = A.dof_end.view();
  parallel_for(m.device, A.articulation_count, IMPULSE_KERNEL((std::int64_t a), {
    const int d0 = d_begin[a];
    articulation_force_item(t, a, d0, d_end[a] - d0, q, qd, X, V, A0, &J[J_start[a]], W, jf, has_jf, g, &x[d0]);
  }));
}

void clear_failures(const Model& m, ArticulationArrays& A) {
  auto failed = A.spd_failed.view();
  parallel_for(m.device, A.articulation_count, IMPULSE_KERNEL((std::int64_t a), { failed[a] = 0; }));
}

void factor_blocks(const Model& m, ArticulationArrays& A) {
  auto H = A.H.view();
  View<const std::int64_t> H_start = A.H_start.view();
  View<const int> d_begin = A.dof_begin.view(), d_end = A.dof_end.view();
  auto failed = A.spd_failed.view();
  parallel_for(m.device, A.articulation_count, IMPULSE_KERNEL((std::int64_t a), {
    if (!cholesky_factor(&H[H_start[a]], d_end[a] - d_begin[a])) failed[a] = 1;
  }));
}

void solve_blocks(const Model& m, ArticulationArrays& A) {
  View<const real> H = A.H.view();
  auto x = A.x.view();
  View<const std::int64_t> H_start = A.H_start.view();
  View<const int> d_begin = A.dof_begin.view(), d_end = A.dof_end.view();
  parallel_for(m.device, A.articulation_count, IMPULSE_KERNEL((std::int64_t a), {
    cholesky_solve(&H[H_start[a]], d_end[a] - d_begin[a], &x[d_begin[a]]);
  }));
}

void count_failures(const Model& m, ArticulationArrays& A) {
  exclusive_scan(m.device, View<const int>(A.spd_failed.view()), A.spd_offsets.view());
}

void throw_if_failed(const ArticulationArrays& A, std::int64_t failed) {
  if (failed == 0) return;
  // The error path: which articulation failed first.
  const std::vector<int> flags = A.spd_failed.to_host();
  int first = 0;
  while (first < A.articulation_count && flags[first] == 0) ++first;
  throw std::runtime_error(not_spd_message(first));
}

void throw_if_not_spd(const Model& m, ArticulationArrays& A) {
  count_failures(m, A);
  throw_if_failed(A, read_one(m.device, View<const std::int64_t>(A.spd_offsets.view()), A.articulation_count));
}

void articulation_integrate_coords(const Model& m, const ArticulationArrays& A, View<const real> q,
                                   View<const real> v, real h, View<real> q_out) {
  const JointTree t = joint_tree_of(m);
  parallel_for(m.device, A.articulation_count, IMPULSE_KERNEL((std::int64_t a), {
    for (int j = t.start[a]; j < t.start[a + 1]; ++j) {
      const vec3 c_jc = transform_point(transform_inverse(t.X_c[j]), t.com[t.child[j]]);
      integrate_joint_coords(JointType(t.type[j]), &q[t.q_start[j]], &v[t.qd_start[j]], t.axes[j], c_jc, h,
                             &q_out[t.q_start[j]]);
    }
  }));
}

}  // namespace impulse
