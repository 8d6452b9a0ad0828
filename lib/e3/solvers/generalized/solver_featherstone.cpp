// SolverFeatherstone::step as passes over core primitives (course E3 §6): one item per
// articulation walks its joints in order (parents first, checked by finalize), so every body, every
// Jacobian row and every block of H belongs to exactly one item; a per-body pass where a body's
// term needs nothing of its neighbours. The same source runs on the CPU and on a GPU.
#include "e3/solvers/generalized/solver_featherstone.h"

#include <stdexcept>
#include <string>

#include "core/parallel_for.h"
#include "core/scan.h"
#include "e1/kinematics.h"
#include "e3/solvers/shared/dense_cholesky.h"
#include "e3/solvers/generalized/featherstone_terms.h"
#include "e3/solvers/generalized/generalized_layout.h"

namespace impulse {

namespace {

// The joint-tree arrays the passes read, as views a kernel can capture.
struct Tree {
  View<const int> start, type, parent, child, q_start, qd_start;
  View<const transform> X_p, X_c;
  View<const JointAxes> axes;
  View<const vec3> com;
  View<const mat33> inertia;
  View<const real> mass;
};

Tree tree_of(const Model& m) {
  return {m.articulation_start.view(), m.joint_type.view(), m.joint_parent.view(), m.joint_child.view(),
          m.joint_q_start.view(),      m.joint_qd_start.view(), m.joint_X_p.view(), m.joint_X_c.view(),
          m.joint_axes.view(),         m.body_com.view(),    m.body_inertia.view(), m.body_mass.view()};
}

// A joint's parent as fk_joint reads it: the world (p = -1) is at rest at the identity.
IMPULSE_HD inline BodyState parent_of(int p, View<const transform> X, View<const spatial_vector> V) {
  if (p < 0) return {transform_identity(), spatial_vector{}};
  return {X[p], V[p]};
}

template <class T>
Buffer<T> upload(Device d, const std::vector<T>& h) {
  return Buffer<T>(d, h);
}

}  // namespace

SolverFeatherstone::SolverFeatherstone(const Model& model, int interval, real smoothing, std::vector<real> armature)
    : update_mass_matrix_interval(interval), friction_smoothing(smoothing), model_(&model) {
  const Model& m = model;
  const Device d = m.device;
  if (interval < 1) throw std::invalid_argument("SolverFeatherstone: update_mass_matrix_interval must be >= 1");
  const GeneralizedLayout L = generalized_layout(m, "generalized dynamics");
  armature_ = upload(d, checked_armature(std::move(armature), m.joint_dof_count, "generalized dynamics"));
  auto flags = m.body_flags.to_host();
  auto mass = m.body_mass.to_host();
  bool any_dynamic = false;
  for (int b = 0; b < m.body_count; ++b) any_dynamic |= !(flags[b] & int(BodyFlag::kinematic)) && mass[b] > 0;
  if (!any_dynamic || m.joint_dof_count == 0)
    throw std::invalid_argument("SolverFeatherstone: the model has no dynamic body moved by a joint DOF (kinematic-only world)");
  if (!(smoothing > 0)) throw std::invalid_argument("SolverFeatherstone: friction_smoothing must be > 0 m/s");
  // Flat per-articulation blocks: J_a is (6 joints_a) x dof_a, H_a is dof_a x dof_a, both row-major.
  articulation_count_ = int(L.art_dof_begin.size());
  std::vector<std::int64_t> J_start{0}, H_start{0};
  for (int a = 0; a < articulation_count_; ++a) {
    const std::int64_t n = L.art_dof_end[a] - L.art_dof_begin[a], rows = 6 * (L.art_joint_end[a] - L.art_joint_begin[a]);
    J_start.push_back(J_start.back() + rows * n);
    H_start.push_back(H_start.back() + n * n);
  }
  J_start_ = upload(d, J_start);
  H_start_ = upload(d, H_start);
  art_dof_begin_ = upload(d, L.art_dof_begin);
  art_dof_end_ = upload(d, L.art_dof_end);
  body_art_ = upload(d, L.body_art);
  body_row_ = upload(d, L.body_row);
  J_ = Buffer<real>(d, J_start.back());
  H_ = Buffer<real>(d, H_start.back());
  qdd_ = Buffer<real>(d, m.joint_dof_count);
  const std::vector<spatial_vector> zero(std::size_t(m.body_count), spatial_vector{});
  unit_v_ = upload(d, zero);
  a0_ = upload(d, zero);  // bodies moved by no joint keep a zero bias acceleration
  spd_failed_ = Buffer<int>(d, articulation_count_);
  spd_offsets_ = Buffer<std::int64_t>(d, std::int64_t(articulation_count_) + 1);
  body_parent_f_ = upload(d, zero);
  // Bodies moved by no joint stay at the identity, at rest, in the solver's FK (as the host reference).
  fk_q_ = upload(d, std::vector<transform>(std::size_t(m.body_count), transform_identity()));
  fk_qd_ = upload(d, zero);
  wrench_ = Buffer<spatial_vector>(d, m.body_count);
}

void SolverFeatherstone::forward_kinematics(const State& s) {
  const Tree t = tree_of(*model_);
  auto q = s.joint_q.view();
  auto qd = s.joint_qd.view();
  auto X = fk_q_.view();
  auto V = fk_qd_.view();
  parallel_for(model_->device, articulation_count_, IMPULSE_KERNEL((std::int64_t a), {
    for (int j = t.start[a]; j < t.start[a + 1]; ++j) {
      const int p = t.parent[j], c = t.child[j];
      BodyState cs = fk_joint(parent_of(p, X, V), p >= 0 ? t.com[p] : vec3{}, t.X_p[j], t.X_c[j], JointType(t.type[j]),
                              &q[t.q_start[j]], &qd[t.qd_start[j]], t.axes[j], t.com[c]);
      X[c] = cs.X;
      V[c] = cs.v;
    }
  }));
}

void SolverFeatherstone::assemble_body_forces(const State& s, const ContactsView* c, View<spatial_vector> out) {
  forward_kinematics(s);
  auto f = s.body_f.view();
  parallel_for(model_->device, model_->body_count, IMPULSE_KERNEL((std::int64_t b), { out[b] = f[b]; }));
  if (!c) return;
  apply_penalty_contacts(*model_, fk_q_.view(), fk_qd_.view(), *c, friction_smoothing, contact_scratch_, out);
}

// Column k of J_a is the twist of every body of articulation a for qd = e_k (its k-th DOF): one FK
// walk per column on the poses of forward_kinematics (the same q).
void SolverFeatherstone::eval_jacobians(const State& s) {
  const Tree t = tree_of(*model_);
  auto q = s.joint_q.view();
  View<const transform> X = fk_q_.view();
  auto U = unit_v_.view();
  auto J = J_.view();
  View<const std::int64_t> J_start = J_start_.view();
  View<const int> d_begin = art_dof_begin_.view(), d_end = art_dof_end_.view();
  parallel_for(model_->device, articulation_count_, IMPULSE_KERNEL((std::int64_t a), {
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

// H_a = diag(armature_a) + sum_b J_b^T I_b J_b (E3.6-featherstone), then its Cholesky factor in
// place; an articulation whose H_a is not SPD flags itself, and the flags' count is the readback.
void SolverFeatherstone::factor_mass_matrix() {
  const Model& m = *model_;
  const Tree t = tree_of(m);
  View<const transform> X = fk_q_.view();
  View<const real> J = J_.view(), arm = armature_.view();
  auto H = H_.view();
  View<const std::int64_t> J_start = J_start_.view(), H_start = H_start_.view();
  View<const int> d_begin = art_dof_begin_.view(), d_end = art_dof_end_.view();
  auto failed = spd_failed_.view();
  parallel_for(m.device, articulation_count_, IMPULSE_KERNEL((std::int64_t a), {
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
    failed[a] = cholesky_factor(Ha, n) ? 0 : 1;
  }));
  exclusive_scan(m.device, View<const int>(spd_failed_.view()), spd_offsets_.view());
  if (read_one(m.device, View<const std::int64_t>(spd_offsets_.view()), articulation_count_) == 0) return;
  // The error path: which articulation failed first.
  const std::vector<int> flags = spd_failed_.to_host();
  int first = 0;
  while (first < articulation_count_ && flags[first] == 0) ++first;
  throw std::runtime_error(not_spd_message(first));
}

// tau_a = joint_f_a + sum_b J_b^T F_b with the bias accelerations a0 of the bodies (parents first),
// then qdd_a = L^-T L^-1 tau_a in the same item.
void SolverFeatherstone::eval_generalized_force(const State& s, const Control& control) {
  const Model& m = *model_;
  const Tree t = tree_of(m);
  const vec3 g = m.gravity;
  auto q = s.joint_q.view();
  auto qd = s.joint_qd.view();
  View<const real> jf = control.joint_f;
  const bool has_jf = control.joint_f.size >= m.joint_dof_count;
  View<const transform> X = fk_q_.view();
  View<const spatial_vector> V = fk_qd_.view(), W = wrench_.view();
  auto A0 = a0_.view();
  View<const real> J = J_.view(), H = H_.view();
  auto x = qdd_.view();
  View<const std::int64_t> J_start = J_start_.view(), H_start = H_start_.view();
  View<const int> d_begin = art_dof_begin_.view(), d_end = art_dof_end_.view();
  parallel_for(m.device, articulation_count_, IMPULSE_KERNEL((std::int64_t a), {
    const int d0 = d_begin[a], n = d_end[a] - d0, j0 = t.start[a];
    for (int j = j0; j < t.start[a + 1]; ++j) {
      const int p = t.parent[j], c = t.child[j];
      A0[c] = joint_bias_acceleration(parent_of(p, X, V), p >= 0 ? t.com[p] : vec3{},
                                      p >= 0 ? A0[p] : spatial_vector{}, t.X_p[j], t.X_c[j], JointType(t.type[j]),
                                      &q[t.q_start[j]], &qd[t.qd_start[j]], t.axes[j], BodyState{X[c], V[c]},
                                      t.com[c]);
    }
    for (int k = 0; k < n; ++k) x[d0 + k] = has_jf ? jf[d0 + k] : real(0);
    for (int j = j0; j < t.start[a + 1] && n > 0; ++j) {
      const int b = t.child[j];
      const spatial_vector F =
          generalized_force_wrench(W[b], t.mass[b], world_inertia(X[b], t.inertia[b]), V[b].ang, A0[b], g);
      const real* Jb = &J[J_start[a] + std::int64_t(6 * (j - j0)) * n];
      for (int k = 0; k < n; ++k)
        x[d0 + k] += Jb[0 * n + k] * F.lin.x + Jb[1 * n + k] * F.lin.y + Jb[2 * n + k] * F.lin.z +
                     Jb[3 * n + k] * F.ang.x + Jb[4 * n + k] * F.ang.y + Jb[5 * n + k] * F.ang.z;
    }
    cholesky_solve(&H[H_start[a]], n, &x[d0]);
  }));
}

// Each body's Newton-Euler residual (per body), then each articulation carries its children's
// wrenches to their parents, leaves first:
//   f_parent_b = W_b + sum over children c of (f_c, tau_c + (c_c - c_b) x f_c)
void SolverFeatherstone::eval_parent_joint_wrenches() {
  const Model& m = *model_;
  const Tree t = tree_of(m);
  const vec3 g = m.gravity;
  View<const transform> X = fk_q_.view();
  View<const spatial_vector> V = fk_qd_.view(), W = wrench_.view(), A0 = a0_.view();
  View<const real> J = J_.view(), x = qdd_.view();
  View<const std::int64_t> J_start = J_start_.view();
  View<const int> d_begin = art_dof_begin_.view(), d_end = art_dof_end_.view(), art = body_art_.view(),
                  row = body_row_.view();
  auto f = body_parent_f_.view();
  parallel_for(m.device, m.body_count, IMPULSE_KERNEL((std::int64_t b), {
    real acc[6] = {0, 0, 0, 0, 0, 0};  // J_b qdd over the body's articulation's DOF (zero: moved by no joint)
    const int a = art[b];
    if (a >= 0) {
      const int d0 = d_begin[a], n = d_end[a] - d0;
      const real* Jb = &J[J_start[a] + std::int64_t(row[b]) * n];
      for (int i = 0; i < 6; ++i)
        for (int k = 0; k < n; ++k) acc[i] += Jb[i * n + k] * x[d0 + k];
    }
    const vec3 lin = vec3{acc[0], acc[1], acc[2]} + A0[b].lin, ang = vec3{acc[3], acc[4], acc[5]} + A0[b].ang;
    f[b] = body_newton_euler_residual(W[b], t.mass[b], world_inertia(X[b], t.inertia[b]), V[b].ang, lin, ang, g);
  }));
  parallel_for(m.device, articulation_count_, IMPULSE_KERNEL((std::int64_t a), {
    for (int j = t.start[a + 1] - 1; j >= t.start[a]; --j) {
      const int p = t.parent[j], ch = t.child[j];
      if (p < 0) continue;
      const vec3 c_ch = world_com(X[ch], t.com[ch]), c_p = world_com(X[p], t.com[p]);
      f[p].lin += f[ch].lin;
      f[p].ang += f[ch].ang + cross(c_ch - c_p, f[ch].lin);
    }
  }));
}

// qd+ = qd + h qdd, then q+ = q + h N(q) qd+ per joint (E1's integrate_joint_coords), then FK.
void SolverFeatherstone::integrate(const State& in, State& out, real h) {
  const Model& m = *model_;
  const Tree t = tree_of(m);
  auto q = in.joint_q.view();
  auto qd = in.joint_qd.view();
  View<const real> x = qdd_.view();
  auto q_out = out.joint_q.view();
  auto qd_out = out.joint_qd.view();
  View<const int> d_begin = art_dof_begin_.view(), d_end = art_dof_end_.view();
  parallel_for(m.device, articulation_count_, IMPULSE_KERNEL((std::int64_t a), {
    for (int k = d_begin[a]; k < d_end[a]; ++k) qd_out[k] = qd[k] + h * x[k];
    for (int j = t.start[a]; j < t.start[a + 1]; ++j) {
      const vec3 c_jc = transform_point(transform_inverse(t.X_c[j]), t.com[t.child[j]]);
      integrate_joint_coords(JointType(t.type[j]), &q[t.q_start[j]], &qd_out[t.qd_start[j]], t.axes[j], c_jc, h,
                             &q_out[t.q_start[j]]);
    }
  }));
  eval_fk(m, out.joint_q.view(), out.joint_qd.view(), out);
}

void SolverFeatherstone::step(const State& in, State& out, const Control& control, const ContactsView* c, real h) {
  if (&in == &out) throw std::invalid_argument("SolverFeatherstone.step: state_in and state_out must be different States");
  if (!(h > 0)) throw std::invalid_argument("SolverFeatherstone.step: dt must be > 0 s");
  const Model& m = *model_;
  if (in.body_f.size() != m.body_count || in.joint_q.size() != m.joint_coord_count ||
      in.joint_qd.size() != m.joint_dof_count || out.joint_q.size() != m.joint_coord_count ||
      out.joint_qd.size() != m.joint_dof_count)
    throw std::invalid_argument("SolverFeatherstone.step: State arrays do not match the model");
  assemble_body_forces(in, c, wrench_.view());   // FK(q, qd), body_f + penalty contacts
  eval_jacobians(in);                            // J per articulation
  if (steps_ % update_mass_matrix_interval == 0) {  // the cached factorization is refreshed every interval
    factor_mass_matrix();                        // H = J^T I J + armature -> L (the step's one readback)
    ++mass_matrix_updates_;
  }
  ++steps_;
  eval_generalized_force(in, control);           // bias accelerations, tau, qdd = H^-1 tau
  eval_parent_joint_wrenches();                  // body_parent_f
  integrate(in, out, h);                         // qd+, q+, body_q/qd = FK(q+, qd+)
}

void SolverFeatherstone::update_contacts(ContactsView&) const {
  throw UpdateContactsNotImplemented("SolverFeatherstone");
}

}  // namespace impulse
