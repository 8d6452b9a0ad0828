// SolverPADMM::step as passes over core primitives (course E3 §6): one item per body, joint, contact
// or island; islands found by label propagation over the rows; one kernel item assembles, factors
// and iterates its island's block. The same source runs on the CPU and on a GPU.
#include "e3/solvers/padmm/solver_padmm.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/buffer_grow.h"
#include "core/fill.h"
#include "core/parallel_for.h"
#include "core/scan.h"
#include "core/segments_device.h"
#include "core/sort_pairs.h"
#include "e1/integrator.h"
#include "e3/contacts/contact_materials.h"
#include "e3/contacts/contact_row.h"
#include "e3/solvers/padmm/padmm_block.h"

namespace impulse {

namespace {

// Nodes per item of the status reduction's first pass.
constexpr std::int64_t report_chunk = 256;

IMPULSE_HD inline bool movable(const PADMMBodyInverse* inv, int k) { return k >= 0 && inv[k].inv_m > 0; }

// A contact row past the record's count (a GPU launches over the capacity) or refused at the
// readback: its bodies, and its pair key, which sorts after every live key.
constexpr int padmm_dead_body = -2;
constexpr std::int64_t padmm_dead_key = std::numeric_limits<std::int64_t>::max();

// Row i is below the count n of a record of capacity cap (an overflowed record has none: the
// readback refuses it).
IMPULSE_HD inline bool padmm_live_row(std::int64_t i, int n, int cap) { return n >= 0 && n <= cap && i < n; }

// g . V for a 1 x 6 block and a twist (v_C, omega), summed in order.
IMPULSE_HD inline real twist_dot(const spatial_vector& g, const spatial_vector& V) {
  return g.lin.x * V.lin.x + g.lin.y * V.lin.y + g.lin.z * V.lin.z + g.ang.x * V.ang.x + g.ang.y * V.ang.y +
         g.ang.z * V.ang.z;
}

// The scalar row of world unknown i: joint row i (i < nj), else row (i - nj) % 3 of contact (i - nj) / 3.
IMPULSE_HD inline PADMMScalarRow scalar_row(View<const PADMMJointRow> joints, View<const PADMMContactRow> rows, int nj,
                                            int i) {
  if (i < nj) return joint_scalar_row(joints[i]);
  return contact_scalar_row(rows[(i - nj) / 3], (i - nj) % 3);
}

// Folds one island's report into the world's: converged only when all are; iterations and
// residuals their maxima; the first failure kept.
IMPULSE_HD inline void fold_report(PADMMIslandReport& w, const PADMMIslandReport& i) {
  if (!i.solved) return;
  w.solved = 1;
  w.status.converged = w.status.converged && i.status.converged;
  w.status.iterations = w.status.iterations > i.status.iterations ? w.status.iterations : i.status.iterations;
  w.status.r_p = padmm_worse(w.status.r_p, i.status.r_p);
  w.status.r_d = padmm_worse(w.status.r_d, i.status.r_d);
  w.status.r_c = padmm_worse(w.status.r_c, i.status.r_c);
  if (w.failure == padmm_ok && i.failure != padmm_ok) {
    w.failure = i.failure;
    w.failed_iteration = i.failed_iteration;
  }
}

IMPULSE_HD inline PADMMIslandReport empty_world_report() {
  PADMMIslandReport w;
  w.status.converged = true;
  return w;
}

}  // namespace

SolverPADMM::SolverPADMM(const Model& model, const PADMMSettings& settings)
    : model_(&model), settings_(settings), status_(1) {
  settings_.validate();
  require_maximal_joints(model, "SolverPADMM");
  const Model& m = model;
  const Device d = m.device;
  nb_ = m.body_count;
  // Joint rows: joint_row_count(type) per joint with a movable side (a property of the model), so
  // their layout is fixed here.
  const std::vector<int> type = m.joint_type.to_host(), parent = m.joint_parent.to_host(), child = m.joint_child.to_host();
  const std::vector<int> flags = m.body_flags.to_host();
  const std::vector<real> inv_mass = m.body_inv_mass.to_host();
  auto host_movable = [&](int k) { return k >= 0 && !(flags[k] & int(BodyFlag::kinematic)) && inv_mass[k] > 0; };
  std::vector<int> start(std::size_t(m.joint_count) + 1, 0);
  for (int j = 0; j < m.joint_count; ++j)
    start[j + 1] = start[j] + (host_movable(parent[j]) || host_movable(child[j]) ? joint_row_count(JointType(type[j])) : 0);
  nj_ = start.back();
  joint_row_start_ = Buffer<int>(d, start);
  joint_rows_ = Buffer<PADMMJointRow>(d, nj_);
  joint_history_ = Buffer<real>(d, nj_);
  wrench_ = Buffer<spatial_vector>(d, nb_);
  v_ = Buffer<spatial_vector>(d, nb_);
  inv_ = Buffer<PADMMBodyInverse>(d, nb_);
  c_w_ = Buffer<vec3>(d, nb_);
  const std::int64_t nodes = std::int64_t(nb_) + 1;  // the bodies and one node for rows without a movable body
  label_ = Buffer<int>(d, nodes);
  label_next_ = Buffer<int>(d, nodes);
  node_start_ = Buffer<std::int64_t>(d, nodes + 1);
  node_fill_ = Buffer<std::int64_t>(d, nodes);
  island_n_ = Buffer<std::int64_t>(d, nodes);
  island_w_ = Buffer<std::int64_t>(d, nodes);
  island_s_ = Buffer<std::int64_t>(d, nodes);
  unknown_start_ = Buffer<std::int64_t>(d, nodes + 1);
  w_start_ = Buffer<std::int64_t>(d, nodes + 1);
  scratch_start_ = Buffer<std::int64_t>(d, nodes + 1);
  island_report_ = Buffer<PADMMIslandReport>(d, nodes);
  report_parts_ = Buffer<PADMMIslandReport>(d, (nodes + report_chunk - 1) / report_chunk + 1);
  report_ = Buffer<PADMMStepReport>(d, 1);
  history_count_ = Buffer<std::int64_t>(d, std::vector<std::int64_t>{0});
  grow(0);
}

void SolverPADMM::reset() {
  fill(model_->device, history_count_.view(), std::int64_t(0));
  joint_warm_ = false;
  status_.assign(1, PADMMStatus{});
}

std::vector<PADMMContactRow> SolverPADMM::last_rows() const {
  std::vector<PADMMContactRow> out(static_cast<std::size_t>(nc_));
  if (nc_ > 0) device_copy(out.data(), Device::cpu, rows_.view().data, model_->device, sizeof(PADMMContactRow) * nc_);
  return out;
}

std::vector<PADMMJointRow> SolverPADMM::last_joint_rows() const { return joint_rows_.to_host(); }

// Buffers sized by the record's capacity: grown, never shrunk, so a step allocates nothing once the
// capacity and the island layout have been met.
void SolverPADMM::grow(int nc) {
  const Device d = model_->device;
  const std::int64_t rows = std::int64_t(nj_) + nc, unknowns = std::int64_t(nj_) + 3 * std::int64_t(nc);
  grow_to(rows_, d, nc);
  grow_to(pair_sorted_, d, nc);
  grow_to(pair_order_, d, nc);
  grow_to(b_, d, unknowns);
  grow_to(x_, d, unknowns);
  grow_to(row_node_, d, rows);
  grow_to(row_root_, d, rows);
  grow_to(row_entry_, d, rows);
  grow_to(side_key_, d, 2 * rows);
  grow_to(side_entry_, d, 2 * rows);
  grow_to(side_start_, d, std::int64_t(nb_) + 1);
  grow_to(side_fill_, d, nb_);
  grow_to(unsettled_, d, rows + nb_ + 1);
  grow_to(unsettled_start_, d, rows + nb_ + 2);
}

// Free velocities (Euler: forward dynamics without joints and contacts), the bodies' inverse mass
// data and world COMs. An immovable (kinematic or massless) body keeps its velocity and a zero inverse.
void SolverPADMM::free_velocities(const State& in, const Control& control, real h) {
  const Model& m = *model_;
  gather_body_wrenches(m, in, control, wrench_.view());
  View<const spatial_vector> f = wrench_.view(), qd = in.body_qd.view();
  View<const transform> q = in.body_q.view();
  View<const vec3> com = m.body_com.view();
  View<const mat33> I = m.body_inertia.view(), I_inv = m.body_inv_inertia.view();
  View<const real> inv_mass = m.body_inv_mass.view(), mass = m.body_mass.view();
  View<const int> flags = m.body_flags.view();
  auto inv = inv_.view();
  auto v = v_.view();
  auto c_w = c_w_.view();
  const vec3 g = m.gravity;
  parallel_for(m.device, nb_, IMPULSE_KERNEL((std::int64_t b), {
    c_w[b] = world_com(q[b], com[b]);
    v[b] = qd[b];
    inv[b] = PADMMBodyInverse{};
    if (flags[b] & int(BodyFlag::kinematic) || !(inv_mass[b] > 0)) return;
    const mat33 R = quat_to_mat33(q[b].q);
    inv[b] = PADMMBodyInverse{inv_mass[b], R * I_inv[b] * transpose(R)};
    const mat33 I_w = R * I[b] * transpose(R);
    const spatial_vector f_ext{f[b].lin + mass[b] * g, f[b].ang - cross(qd[b].ang, I_w * qd[b].ang)};
    v[b] = discrete_velocity_update(qd[b], inv[b].inv_m, inv[b].inv_I_w, h, f_ext, spatial_vector{});
  }));
}

// The rows and the problem's right-hand side with its warm start, world unknowns in the order
// (joint rows, then 3 per contact):
//   joint row:  b = g0 . v0 + g1 . v1 + alpha C / h
//   contact:    b = G0 v0 + G1 v1 + (d / h if d >= 0, else contact_stabilization d / h on the normal)
// A contact's warm start is the impulse of the last step's k-th contact of the same (shape0,
// shape1) pair, k its rank among this step's contacts of that pair (the pairs sorted, stable).
void SolverPADMM::build_rows(const State& in, const ContactsView* contacts, real h) {
  const Model& m = *model_;
  const Device d = m.device;
  const int nj = nj_;
  const std::int64_t ne = ne_;
  View<const transform> q = in.body_q.view();
  View<const spatial_vector> v = v_.view();
  View<const vec3> c_w = c_w_.view();
  const bool warm = settings_.warmstart_mode == WarmstartMode::containers;
  const real scale = settings_.warmstart_scale, alpha = settings_.joint_stabilization,
             beta = settings_.contact_stabilization;
  auto b = b_.view();
  auto x = x_.view();
  {
    View<const int> start = joint_row_start_.view(), type = m.joint_type.view(), parent = m.joint_parent.view(),
                    child = m.joint_child.view();
    View<const transform> X_p = m.joint_X_p.view(), X_c = m.joint_X_c.view();
    View<const JointAxes> axes = m.joint_axes.view();
    auto rows = joint_rows_.view();
    View<const real> hist = joint_history_.view();
    const bool joint_warm = warm && joint_warm_;
    parallel_for(d, m.joint_count, IMPULSE_KERNEL((std::int64_t j), {
      const int r0 = start[j], p = parent[j], c = child[j];
      if (start[j + 1] == r0) return;
      const transform X_wp = p >= 0 ? transform_multiply(q[p], X_p[j]) : X_p[j];
      const transform X_wc = transform_multiply(q[c], X_c[j]);
      write_joint_rows(int(j), JointType(type[j]), p, c, X_wp, X_wc, p >= 0 ? c_w[p] : vec3{}, c_w[c], axes[j], &rows[r0]);
      for (int i = r0; i < start[j + 1]; ++i) {
        const PADMMJointRow& r = rows[i];
        b[i] = twist_dot(r.g1, v[r.body1]) + (r.body0 >= 0 ? twist_dot(r.g0, v[r.body0]) : real(0)) + alpha * r.c / h;
        x[i] = joint_warm ? scale * hist[i] : real(0);
      }
    }));
  }
  if (ne == 0) return;
  const ContactRowColumns col = contact_row_columns(*contacts);
  View<const int> count = contacts->rigid_contact_count;
  const int cap = contacts->rigid_contact_max, S = m.shape_count;
  View<const int> shape_body = m.shape_body.view();
  View<const real> mu = contacts->rigid_contact_mu;
  const std::int64_t shapes = m.shape_count;
  auto rows = rows_.view();
  auto sorted = pair_sorted_.view();
  auto order = pair_order_.view();
  parallel_for(d, ne, IMPULSE_KERNEL((std::int64_t i), {
    PADMMContactRow r;
    const int s0 = col.shape0[i], s1 = col.shape1[i];
    if (!padmm_live_row(i, count[0], cap) || !contact_row_shapes_valid(s0, s1, S)) {
      // Dead (or refused at the readback): no bodies, sorted last, b = 0.
      r.body0 = r.body1 = padmm_dead_body;
      rows[i] = r;
      for (int a = 0; a < 3; ++a) b[nj + 3 * i + a] = 0;
      sorted[i] = padmm_dead_key;
      order[i] = int(i);
      return;
    }
    const ContactRowBodies rb = contact_row_bodies(shape_body, s0, s1);
    r.body0 = rb.body0;
    r.body1 = rb.body1;
    r.n = col.normal[i];
    tangent_basis(r.n, r.t1, r.t2);
    const vec3 x0 = (r.body0 >= 0 ? transform_point(q[r.body0], col.point0[i]) : col.point0[i]) + col.margin0[i] * r.n;
    const vec3 x1 = (r.body1 >= 0 ? transform_point(q[r.body1], col.point1[i]) : col.point1[i]) - col.margin1[i] * r.n;
    r.r0 = x0 - (r.body0 >= 0 ? c_w[r.body0] : vec3{});
    r.r1 = x1 - (r.body1 >= 0 ? c_w[r.body1] : vec3{});
    r.d = dot(r.n, x1 - x0);
    r.mu = mu[i];
    rows[i] = r;
    real u[3];
    for (int a = 0; a < 3; ++a) {
      const PADMMScalarRow s = contact_scalar_row(r, a);
      u[a] = (r.body0 >= 0 ? twist_dot(s.g0, v[r.body0]) : real(0)) + (r.body1 >= 0 ? twist_dot(s.g1, v[r.body1]) : real(0));
    }
    u[0] += (r.d >= 0 ? r.d : beta * r.d) / h;
    for (int a = 0; a < 3; ++a) b[nj + 3 * i + a] = u[a];
    sorted[i] = std::int64_t(s0) * shapes + s1;  // the pair's key, sorted below
    order[i] = int(i);
  }));
  sort_pairs(d, View<std::int64_t>{sorted.data, ne}, View<int>{order.data, ne});
  View<const std::int64_t> hist_key = history_key_.view(), hist_count = history_count_.view();
  View<const vec3> hist = history_impulse_.view();
  parallel_for(d, ne, IMPULSE_KERNEL((std::int64_t p), {
    const std::int64_t k = sorted[p];
    if (k == padmm_dead_key) return;  // dead rows sort last
    const std::int64_t hist_n = warm ? hist_count[0] : 0, rank = p - first_not_below(sorted.data, p, k);
    const std::int64_t at = first_not_below(hist_key.data, hist_n, k) + rank;
    const bool found = at < hist_n && hist_key[at] == k;
    const vec3 x0 = found ? scale * hist[at] : vec3{};
    const std::int64_t o = nj + 3 * std::int64_t(order[p]);
    x[o] = x0.x;
    x[o + 1] = x0.y;
    x[o + 2] = x0.z;
  }));
}

// Islands: connected components of the movable bodies, two bodies joined by every row that moves
// both. Each row belongs to the island of one of its movable bodies, or to the extra node nb when it
// has none. start_islands writes each row's node and sides (build_segments_on lists each body's
// rows) and label(k) = k; each label_batch then runs four rounds of (Jacobi, so independent of the
// order of items)
//   label'(k) = min(label(k), label(k') over rows joining k and k')   then   label(k) = label'(label'(k))
// and lays the islands out: rows grouped by label (build_segments_on keeps row order: joint rows,
// then contacts), each island's unknown count n_i, and by exclusive_scan the offsets of its blocks
// of W (n_i^2) and scratch. The labels are final when every row's two movable bodies share a label
// and every label is its own label (PADMMLayout::unsettled = 0): then each island's label is its
// smallest body, whatever the schedule.
void SolverPADMM::start_islands() {
  const Model& m = *model_;
  const Device d = m.device;
  const int nj = nj_, nb = nb_;
  const std::int64_t R = std::int64_t(nj) + ne_, nodes = std::int64_t(nb) + 1;
  View<const PADMMBodyInverse> inv = inv_.view();
  View<const PADMMJointRow> joints = joint_rows_.view();
  View<const PADMMContactRow> contacts = rows_.view();
  auto row_node = row_node_.view();
  auto side = side_key_.view();
  parallel_for(d, R, IMPULSE_KERNEL((std::int64_t r), {
    const int b0 = r < nj ? joints[r].body0 : contacts[r - nj].body0, b1 = r < nj ? joints[r].body1 : contacts[r - nj].body1;
    const bool m0 = movable(inv.data, b0), m1 = movable(inv.data, b1);
    row_node[r] = b0 == padmm_dead_body ? -1 : m0 ? b0 : m1 ? b1 : nb;  // a dead row joins no island
    side[2 * r] = m0 ? b0 : -1;
    side[2 * r + 1] = m1 ? b1 : -1;
  }));
  build_segments_on(d, nb, View<const int>{side.data, 2 * R}, side_start_.view(), side_entry_.view(), side_fill_.view());
  auto label = label_.view();
  parallel_for(d, nodes, IMPULSE_KERNEL((std::int64_t k), { label[k] = int(k); }));
}

void SolverPADMM::label_batch() {
  const Model& m = *model_;
  const Device d = m.device;
  const int nj = nj_, nb = nb_;
  const std::int64_t R = std::int64_t(nj) + ne_, nodes = std::int64_t(nb) + 1;
  View<const int> row_node = row_node_.view(), side = side_key_.view();
  View<const std::int64_t> s_start = side_start_.view(), s_entry = side_entry_.view();
  auto label = label_.view();
  auto next = label_next_.view();
  for (int round = 0; round < 4; ++round) {
    parallel_for(d, nodes, IMPULSE_KERNEL((std::int64_t k), {
      int l = label[k];
      if (k < nb)
        for (std::int64_t e = s_start[k]; e < s_start[k + 1]; ++e) {
          const int other = side[s_entry[e] ^ 1];
          if (other >= 0 && label[other] < l) l = label[other];
        }
      next[k] = l;
    }));
    parallel_for(d, nodes, IMPULSE_KERNEL((std::int64_t k), { label[k] = next[next[k]]; }));
  }
  auto root = row_root_.view();
  auto flag = unsettled_.view();
  parallel_for(d, R + nodes, IMPULSE_KERNEL((std::int64_t i), {
    if (i < R) {
      root[i] = row_node[i] >= 0 ? label[row_node[i]] : -1;  // build_segments_on skips -1
      flag[i] = side[2 * i] >= 0 && side[2 * i + 1] >= 0 && label[side[2 * i]] != label[side[2 * i + 1]] ? 1 : 0;
    } else {
      const std::int64_t k = i - R;
      flag[i] = label[label[k]] != label[k] ? 1 : 0;
    }
  }));
  exclusive_scan(d, View<const int>{flag.data, R + nodes}, View<std::int64_t>{unsettled_start_.view().data, R + nodes + 1});
  build_segments_on(d, int(nodes), View<const int>{root.data, R}, node_start_.view(), row_entry_.view(), node_fill_.view());
  View<const std::int64_t> n_start = node_start_.view(), entry = row_entry_.view();
  auto n_i = island_n_.view();
  auto w_i = island_w_.view();
  auto s_i = island_s_.view();
  parallel_for(d, nodes, IMPULSE_KERNEL((std::int64_t k), {
    std::int64_t n = 0;
    for (std::int64_t e = n_start[k]; e < n_start[k + 1]; ++e) n += entry[e] < nj ? 1 : 3;
    n_i[k] = n;
    w_i[k] = n * n;
    s_i[k] = padmm_block_scratch(n);
  }));
  exclusive_scan(d, View<const std::int64_t>(island_n_.view()), unknown_start_.view());
  exclusive_scan(d, View<const std::int64_t>(island_w_.view()), w_start_.view());
  exclusive_scan(d, View<const std::int64_t>(island_s_.view()), scratch_start_.view());
  View<const std::int64_t> flag_start = unsettled_start_.view(), u_start = unknown_start_.view(),
                           w_start = w_start_.view(), sc_start = scratch_start_.view();
  auto report = report_.view();
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), {
    report[0].layout = PADMMLayout{flag_start[R + nodes], u_start[nodes], w_start[nodes], sc_start[nodes]};
  }));
}

// One item per island node: its unknowns in row order (joint rows, then 3 per contact), its block of
// W entry by entry (delassus_entry), then the block solve (padmm_block.h) from the warm start; the
// impulses go back to the world unknowns. Then the world's report: converged only when every island
// is, iterations and residuals their maxima, the first failure in node order. Nothing is solved
// while the labels are unsettled or a flat array is short of the layout (the report then says so
// and the step grows the arrays or runs another label batch). The report is the step's readback;
// returns false when the step must retry.
bool SolverPADMM::solve_islands(const ContactsView* record_view) {
  const Model& m = *model_;
  const Device d = m.device;
  const int nj = nj_;
  const std::int64_t nodes = std::int64_t(nb_) + 1;
  const std::int64_t cap_w = W_.size(), cap_s = scratch_.size(),
                     cap_u = std::min({island_b_.size(), island_x_.size(), island_mu_.size(), island_at_.size()});
  auto step_report = report_.view();
  View<const PADMMBodyInverse> inv = inv_.view();
  View<const PADMMJointRow> joints = joint_rows_.view();
  View<const PADMMContactRow> contacts = rows_.view();
  View<const std::int64_t> n_start = node_start_.view(), entry = row_entry_.view(), u_start = unknown_start_.view(),
                           w_start = w_start_.view(), sc_start = scratch_start_.view();
  View<const real> b = b_.view();
  auto x = x_.view();
  auto W = W_.view();
  auto scratch = scratch_.view();
  auto ib = island_b_.view();
  auto ix = island_x_.view();
  auto imu = island_mu_.view();
  auto at = island_at_.view();
  auto report = island_report_.view();
  const PADMMSettings st = settings_;
  parallel_for(d, nodes, IMPULSE_KERNEL((std::int64_t k), {
    PADMMIslandReport rep;
    const PADMMLayout lay = step_report[0].layout;
    const std::int64_t u0 = u_start[k];
    const int n = int(u_start[k + 1] - u0);
    if (n == 0 || lay.unsettled > 0 || lay.w > cap_w || lay.scratch > cap_s || lay.unknowns > cap_u) {
      report[k] = rep;
      return;
    }
    int* a = &at[u0];
    real* mu = &imu[u0];
    int u = 0, nj_k = 0, c = 0;
    for (std::int64_t e = n_start[k]; e < n_start[k + 1]; ++e) {
      const int r = int(entry[e]);
      if (r < nj) {
        a[u++] = r;
        ++nj_k;
      } else {
        for (int s = 0; s < 3; ++s) a[u++] = nj + 3 * (r - nj) + s;
        mu[c++] = contacts[r - nj].mu;
      }
    }
    real* Wk = &W[w_start[k]];
    for (int i = 0; i < n; ++i) {
      const PADMMScalarRow ri = scalar_row(joints, contacts, nj, a[i]);
      for (int j = 0; j < n; ++j) Wk[i * n + j] = delassus_entry(ri, scalar_row(joints, contacts, nj, a[j]), inv.data);
      ib[u0 + i] = b[a[i]];
      ix[u0 + i] = x[a[i]];
    }
    rep.status = padmm_solve_block(Wk, &ib[u0], mu, nj_k, n, st, &ix[u0], &scratch[sc_start[k]], &rep.failure);
    rep.failed_iteration = rep.status.iterations;
    rep.solved = 1;
    for (int i = 0; i < n; ++i) x[a[i]] = ix[u0 + i];
    report[k] = rep;
  }));
  auto parts = report_parts_.view();
  const std::int64_t chunk = report_chunk, chunks = (nodes + chunk - 1) / chunk;
  parallel_for(d, chunks, IMPULSE_KERNEL((std::int64_t p), {
    PADMMIslandReport w = empty_world_report();
    const std::int64_t end = (p + 1) * chunk < nodes ? (p + 1) * chunk : nodes;
    for (std::int64_t k = p * chunk; k < end; ++k) fold_report(w, report[k]);
    parts[p] = w;
  }));
  View<const int> record = record_view ? record_check_.slots() : View<const int>{};
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), {
    PADMMIslandReport w = empty_world_report();
    for (std::int64_t p = 0; p < chunks; ++p) fold_report(w, parts[p]);
    step_report[0].world = w;
    for (std::int64_t j = 0; j < record.size; ++j) step_report[0].record[j] = record[j];
  }));
  const PADMMStepReport r = read_one(d, View<const PADMMStepReport>(report_.view()), 0);
  if (record_view) nc_ = ContactRecordCheck::check(r.record, *record_view, model_->shape_count, "SolverPADMM.step");
  const PADMMLayout& lay = r.layout;
  if (lay.unsettled > 0) return false;
  if (lay.w > cap_w || lay.scratch > cap_s || lay.unknowns > cap_u) {
    grow_to(W_, d, lay.w);
    grow_to(scratch_, d, lay.scratch);
    grow_to(island_b_, d, lay.unknowns);
    grow_to(island_x_, d, lay.unknowns);
    grow_to(island_mu_, d, lay.unknowns);
    grow_to(island_at_, d, lay.unknowns);
    return false;
  }
  check_padmm_failure(r.world.failure, r.world.failed_iteration, st.rho);
  status_[0] = r.world.status;
  return true;
}

// Velocities with the joint and contact impulses J^T x (each body's rows summed in row order),
// then poses with the new velocities; an immovable body keeps its pose and velocity.
void SolverPADMM::integrate(const State& in, State& out, real h) {
  const Model& m = *model_;
  const int nj = nj_;
  View<const PADMMBodyInverse> inv = inv_.view();
  View<const PADMMJointRow> joints = joint_rows_.view();
  View<const PADMMContactRow> contacts = rows_.view();
  View<const std::int64_t> s_start = side_start_.view(), s_entry = side_entry_.view();
  View<const real> x = x_.view();
  View<const spatial_vector> v = v_.view(), qd = in.body_qd.view();
  View<const transform> q = in.body_q.view();
  View<const vec3> c_w = c_w_.view(), com = m.body_com.view();
  auto q_out = out.body_q.view();
  auto qd_out = out.body_qd.view();
  parallel_for(m.device, nb_, IMPULSE_KERNEL((std::int64_t k), {
    if (!movable(inv.data, int(k))) {
      q_out[k] = q[k];
      qd_out[k] = qd[k];
      return;
    }
    spatial_vector Jtp{};
    for (std::int64_t e = s_start[k]; e < s_start[k + 1]; ++e) {
      const std::int64_t r = s_entry[e] / 2;
      const bool side1 = s_entry[e] % 2 == 1;
      if (r < nj) {
        const spatial_vector& g = side1 ? joints[r].g1 : joints[r].g0;
        Jtp.lin = Jtp.lin + g.lin * x[r];
        Jtp.ang = Jtp.ang + g.ang * x[r];
      } else {
        const std::int64_t o = nj + 3 * (r - nj);
        spatial_vector p{};
        for (int a = 0; a < 3; ++a) {
          const PADMMScalarRow s = contact_scalar_row(contacts[r - nj], a);
          const spatial_vector& g = side1 ? s.g1 : s.g0;
          p.lin = p.lin + g.lin * x[o + a];
          p.ang = p.ang + g.ang * x[o + a];
        }
        Jtp.lin = Jtp.lin + p.lin;
        Jtp.ang = Jtp.ang + p.ang;
      }
    }
    const spatial_vector vn = discrete_velocity_update(v[k], inv[k].inv_m, inv[k].inv_I_w, h, spatial_vector{}, Jtp);
    const quat r = quat_update(q[k].q, vn.ang, h);
    q_out[k] = {origin_from_com(c_w[k] + h * vn.lin, r, com[k]), r};
    qd_out[k] = vn;
  }));
}

// The step, pass by pass (Kamino's Euler integration, course E3 §6). The record's count stays on
// the device (ContactRecordCheck, launched first): the contact passes launch over
// record_launch_extent's rows and each reads the count there. The step reads back one
// PADMMStepReport, which carries the record's check; more only when the labels need another batch
// or the flat arrays must grow (then nothing was solved). A bad record or a failed solve throws
// before anything is written to state_out or the warm-start history.
void SolverPADMM::step(const State& in, State& out, const Control& control, const ContactsView* contacts, real h) {
  if (&in == &out) throw std::invalid_argument("SolverPADMM.step: state_in and state_out must be different States");
  if (!(h > 0)) throw std::invalid_argument("SolverPADMM.step: dt must be > 0 s");
  const Model& m = *model_;
  int cap = 0;
  ne_ = 0;
  nc_ = 0;
  if (contacts) {
    if (contacts->model != &m)
      throw std::invalid_argument("SolverPADMM.step: the contact record was made for another Model (a foreign record)");
    if (contacts->rigid_contact_count.size != 1)
      throw std::invalid_argument("SolverPADMM.step: rigid_contact_count must be a one-element array");
    check_contact_material_path(*contacts, SolverPath::semi_implicit, SolverPath::featherstone, "SolverPADMM.step");
    record_check_.launch(*contacts, m.shape_count);
    cap = contacts->rigid_contact_max;
    ne_ = record_launch_extent(*contacts);
  }
  grow(cap);
  free_velocities(in, control, h);   // forward dynamics without joints and contacts
  build_rows(in, contacts, h);       // rows, b = J v_free + bias, warm start
  start_islands();                   // rows' nodes and sides, labels
  do label_batch();                  // label rounds and the island layout
  while (!solve_islands(contacts));  // PADMM per island; the readback (with the record's check)

  integrate(in, out, h);             // velocities with J^T x, then poses
  keep_history();                    // the impulses, the next step's warm start
  last_dt_ = h;
}

// The impulses kept for the next step's warm start: joint rows by index, contacts by (pair, rank)
// in the pair order of this step.
void SolverPADMM::keep_history() {
  const Device d = model_->device;
  View<const real> x = x_.view();
  auto jh = joint_history_.view();
  parallel_for(d, nj_, IMPULSE_KERNEL((std::int64_t i), { jh[i] = x[i]; }));
  joint_warm_ = true;
  grow_to(history_key_, d, ne_);  // after build_rows has read the last step's
  grow_to(history_impulse_, d, ne_);
  View<const std::int64_t> sorted = pair_sorted_.view();
  View<const int> order = pair_order_.view();
  auto hk = history_key_.view();
  auto hi = history_impulse_.view();
  auto hc = history_count_.view();
  const std::int64_t nj = nj_, ne = ne_;
  const int nc = nc_;  // the readback's count: every row below it is live
  // At least one item, so that the count is written on a step without rows.
  parallel_for(d, ne > 0 ? ne : 1, IMPULSE_KERNEL((std::int64_t p), {
    if (p == 0) hc[0] = nc;
    if (p >= nc) return;
    const std::int64_t o = nj + 3 * std::int64_t(order[p]);
    hk[p] = sorted[p];
    hi[p] = vec3{x[o], x[o + 1], x[o + 2]};
  }));
}

// f = -(p_n n + p_t1 t1 + p_t2 t2) / h on body0, tau = r0 x f, one item per contact.
void SolverPADMM::update_contacts(ContactsView& contacts, const State&) const {
  if (contacts.force.size == 0)
    throw std::invalid_argument("SolverPADMM.update_contacts: contacts.force was not requested");
  const int n = read_one(model_->device, contacts.rigid_contact_count, 0);
  if (n != nc_ || contacts.force.size < n)
    throw std::invalid_argument("SolverPADMM.update_contacts: the contact record changed since the last step");
  View<const PADMMContactRow> rows = rows_.view();
  View<const real> x = x_.view();
  auto force = contacts.force;
  const std::int64_t nj = nj_;
  const real h = last_dt_;
  parallel_for(model_->device, n, IMPULSE_KERNEL((std::int64_t i), {
    const PADMMContactRow& r = rows[i];
    const std::int64_t o = nj + 3 * i;
    const vec3 f1 = (x[o] * r.n + x[o + 1] * r.t1 + x[o + 2] * r.t2) / h;
    force[i] = {-f1, cross(r.r0, -f1)};
  }));
}

}  // namespace impulse
