// Launch sites of the collision pipeline (compiled by nvcc when CUDA is enabled).
//
// Determinism: every stage writes its outputs by index, and the only variable-length outputs (the
// candidate pairs and the contact rows) are placed by an exclusive prefix sum over per-element
// counts, so the record's row order does not depend on thread count or scheduling.
#include "e3/collision/collision_kernels.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/buffer_grow.h"
#include "core/fill.h"
#include "core/first_flagged.h"
#include "core/parallel_for.h"
#include "core/reduce.h"
#include "core/scan.h"
#include "core/sort_pairs.h"
#include "e3/contacts/contact_row.h"
#include "e3/contacts/contacts.h"

namespace impulse {

ShapeView shape_view(const Model& m) {
  return {m.shape_type.view(),         m.shape_body.view(),         m.shape_transform.view(),
          m.shape_scale.view(),        m.shape_margin.view(),       m.shape_gap.view(),
          m.shape_source_start.view(), m.shape_source_count.view(), m.shape_bvh_root.view(),
          m.geo_points.view(),         m.shape_face_start.view(),   m.hull_face_start.view(),
          m.hull_face_vertices.view(), m.hull_face_normals.view(),
          m.mesh_triangles.view(),     m.mesh_bvh_nodes.view(),
          m.mesh_edge_neighbor.view(), m.mesh_edge_class.view(),    m.mesh_vertex_owner.view(),
          m.mesh_vertex_ring_start.view(), m.mesh_vertex_ring.view(),
          m.shape_flags.view(),        m.shape_material_kh.view(),
          m.shape_sdf_volume.view(),   m.sdf_volumes.view(),        m.sdf_values.view()};
}

namespace {

/// Per-element counts and offsets for n elements, grown only when n grows, and zero when grown: a
/// gated pass that is closed on a GPU scans the counts it finds (LaunchGate), so they are never
/// left uninitialised.
void size_counts(BroadPhaseScratch& s, Device d, std::int64_t n) {
  if (grow_to(s.counts, d, n)) fill(d, s.counts.view(), std::int64_t(0));
  if (grow_to(s.offsets, d, n + 1)) fill(d, s.offsets.view(), std::int64_t(0));
}

/// offsets[0, n] of the first n counts (core/scan.h); their total offsets[n] stays on the device.
/// Gated: a closed gate scans nothing on the CPU and, on a GPU, the counts its closed launches left.
void scan_counts(Device d, BroadPhaseScratch& s, std::int64_t n, LaunchGate gate) {
  const std::int64_t e = gate.extent(d, n);
  exclusive_scan(d, View<const std::int64_t>{s.counts.data(), e}, View<std::int64_t>{s.offsets.data(), e + 1});
}

/// found[0] = the total of the first n counts (offsets[n]), saturated at INT_MAX: the broad phase's
/// pair count, on the device.
void store_pair_count(Device d, BroadPhaseScratch& s, std::int64_t n, LaunchGate gate) {
  View<const std::int64_t> off{s.offsets.data(), n + 1};
  View<int> found = s.found.view();
  parallel_for(d, gate.extent(d, 1), IMPULSE_KERNEL((std::int64_t), {
    if (gate.closed()) return;
    found[0] = off[n] < std::int64_t(INT_MAX) ? static_cast<int>(off[n]) : INT_MAX;
  }));
}

void sort_found_pairs(Device d, BroadPhaseScratch& s, LaunchGate gate) {
  // Canonical order (s0, s1), the same as the other broad phases: the pairs found are sorted over
  // the launch extent, whose entries past the count (a GPU's) first become the largest key.
  const std::int64_t n = gate.extent(d, s.launch(d));
  View<std::int64_t> keys{s.pairs.data(), n};
  View<const int> found = s.found.view();
  parallel_for(d, n, IMPULSE_KERNEL((std::int64_t k), {
    if (gate.closed()) return;
    if (k >= found[0]) keys[k] = INT64_MAX;
  }));
  sort_keys(d, keys);  // closed on a GPU: the sorted list of the last open pass, sorted again
}

/// Stores a pair's count, route and its count contacts, not the unused rest of c: the narrow
/// phase's output is mostly one or two contacts of four, so the whole record (360 bytes a pair)
/// was most of the narrow phase's memory traffic and of the record writer's reads.
IMPULSE_HD inline void store_used_contacts(const PairContacts& from, PairContacts& to) {
  to.count = from.count;
  to.route = from.route;
  for (int k = 0; k < from.count; ++k) to.c[k] = from.c[k];
}

}  // namespace

void compute_shape_aabbs(const Model& m, View<const transform> body_q, View<const spatial_vector> body_qd,
                         real dt, real cap, View<transform> pose_out, View<aabb> aabb_out, View<real> speed_out) {
  const ShapeView sv = shape_view(m);
  parallel_for(m.device, m.shape_count, IMPULSE_KERNEL((std::int64_t s), {
    const transform X = shape_world_pose(sv, body_q, static_cast<int>(s));
    const int b = sv.body[s];
    const real speed = (b >= 0 && body_qd.size > 0) ? length(body_qd[b].lin) : real(0);
    const real widen = speed * dt < cap ? speed * dt : cap;
    pose_out[s] = X;
    speed_out[s] = speed;
    aabb_out[s] = shape_aabb(sv, static_cast<int>(s), X, widen);
  }));
}

void find_non_finite_body(Device d, View<const transform> body_q, View<int> flag, View<int> blocks, View<int> first) {
  View<int> out{flag.data, body_q.size};
  parallel_for(d, body_q.size, IMPULSE_KERNEL((std::int64_t b), {
    const transform t = body_q[b];
    const real sum = t.p.x + t.p.y + t.p.z + t.q.x + t.q.y + t.q.z + t.q.w;
    out[b] = (sum - sum == 0) ? 0 : 1;  // NaN or inf make sum - sum non-zero (NaN)
  }));
  first_flagged(d, View<const int>(out), blocks, first);
}

std::int64_t LaunchGate::extent(Device d, std::int64_t n) const {
  if (flag.size == 0) return n;
  return launch_extent(d, flag, 1) > 0 ? n : 0;
}

BroadPhaseScratch::BroadPhaseScratch(Device d, std::int64_t capacity)
    : pair_capacity(capacity), pairs(d, capacity), found(d, std::vector<int>{0}) {}

std::int64_t BroadPhaseScratch::launch(Device d) const { return launch_extent(d, found.view(), pair_capacity); }

std::int64_t estimate_shape_pairs_max(const Model& m) {
  const std::vector<int> world = m.shape_world.to_host();
  std::vector<std::int64_t> per_world;
  std::int64_t shared = 0;
  for (int w : world) {
    if (w < 0) {
      ++shared;
      continue;
    }
    if (std::size_t(w) >= per_world.size()) per_world.resize(std::size_t(w) + 1, 0);
    ++per_world[std::size_t(w)];
  }
  std::int64_t bound = shared * (shared - 1) / 2;
  for (std::int64_t n : per_world)
    if (n > 0) bound += (n + shared) * (n + shared - 1) / 2;
  return std::min(bound, std::max<std::int64_t>(64, 16 * std::int64_t(m.shape_count)));
}

void write_broad_phase_status(Device d, const BroadPhaseScratch& s, View<int> status) {
  View<const int> found = s.found.view();
  const int cap = static_cast<int>(s.pair_capacity);
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), {
    status[1] = found[0];
    status[2] = cap;
  }));
}

void broad_phase_nxn(const Model& m, View<const aabb> boxes, BroadPhaseScratch& s, LaunchGate gate) {
  const Device d = m.device;
  const int n = m.shape_count;
  const FilterView f = m.filter_view();
  // Pass 1: per shape i, the number of partners j > i; pass 2: write them in (i, j) order.
  size_counts(s, d, n);
  View<std::int64_t> cnt{s.counts.data(), n};
  parallel_for(d, gate.extent(d, n), IMPULSE_KERNEL((std::int64_t i), {
    if (gate.closed()) return;
    std::int64_t c = 0;
    for (int j = static_cast<int>(i) + 1; j < n; ++j)
      if (aabb_overlap(boxes[i], boxes[j]) && shape_pair_passes_filters(f, static_cast<int>(i), j)) ++c;
    cnt[i] = c;
  }));
  scan_counts(d, s, n, gate);
  store_pair_count(d, s, n, gate);
  const std::int64_t cap = s.pair_capacity;
  View<std::int64_t> out = s.pairs.view();
  View<const std::int64_t> off{s.offsets.data(), n};
  parallel_for(d, gate.extent(d, n), IMPULSE_KERNEL((std::int64_t i), {
    if (gate.closed()) return;
    std::int64_t w = off[i];
    for (int j = static_cast<int>(i) + 1; j < n && w < cap; ++j)
      if (aabb_overlap(boxes[i], boxes[j]) && shape_pair_passes_filters(f, static_cast<int>(i), j))
        out[w++] = pair_key(static_cast<int>(i), j);
  }));
}

void prepare_broad_phase_sap(const Model& m, BroadPhaseScratch& s) {
  if (s.entries_of == &m) return;
  // Build time, on the host: one segment per world, as Newton sweeps each world separately. A shape
  // of world w >= 0 enters segment w; a shared shape (world -1) enters every world's segment and
  // the segment of shared shapes, where the pairs of two shared shapes are found (only there).
  const std::vector<int> world = m.shape_world.to_host();
  std::vector<int> worlds;
  for (int w : world)
    if (w >= 0) worlds.push_back(w);
  std::sort(worlds.begin(), worlds.end());
  worlds.erase(std::unique(worlds.begin(), worlds.end()), worlds.end());
  std::vector<int> seg, shape;
  for (int i = 0; i < m.shape_count; ++i) {
    seg.push_back(world[i]);
    shape.push_back(i);
    if (world[i] < 0)
      for (int w : worlds) seg.push_back(w), shape.push_back(i);
  }
  const Device d = m.device;
  s.entry_count = static_cast<std::int64_t>(seg.size());
  s.entry_seg = Buffer<int>(d, seg);
  s.entry_shape = Buffer<int>(d, shape);
  s.entry_key = Buffer<std::int64_t>(d, s.entry_count);
  s.entry_order = Buffer<int>(d, s.entry_count);
  s.seg = Buffer<int>(d, s.entry_count);
  s.shape = Buffer<int>(d, s.entry_count);
  s.lo = Buffer<real>(d, s.entry_count);
  s.hi = Buffer<real>(d, s.entry_count);
  s.moments = Buffer<SapMoments>(d, m.shape_count);
  s.moment_sum = Buffer<SapMoments>(d, 1);
  s.moment_start = Buffer<std::int64_t>(d, std::vector<std::int64_t>{0, m.shape_count});
  s.axis = Buffer<int>(d, 1);
  s.entries_of = &m;
}

void broad_phase_sap(const Model& m, View<const aabb> boxes, BroadPhaseScratch& s, LaunchGate gate) {
  const Device d = m.device;
  const int n = m.shape_count;
  const FilterView f = m.filter_view();
  prepare_broad_phase_sap(m, s);
  const std::int64_t ne = s.entry_count;
  // Gated (LaunchGate): every launch below returns at once when closed, and the primitives between
  // them (segmented sum, the two stable sorts, the scan, the sort of the result) then see the arrays
  // the last open pass left: the moments give the same sum, the entry keys are already sorted (a
  // stable sort keeps them and their order), the counts give the same offsets and the found pairs
  // are already sorted, so a closed pass rewrites what the last open one wrote.
  const std::int64_t n_run = gate.extent(d, n), ne_run = gate.extent(d, ne);
  // Sweep axis: the one along which the finite box centres spread most. Per shape its centre and
  // squared centre (zero for an unbounded box), summed in shape order (core/reduce.h):
  //   var_k = sum c_k^2 / N - (sum c_k / N)^2 over the N finite boxes.
  View<SapMoments> mom = s.moments.view();
  parallel_for(d, n_run, IMPULSE_KERNEL((std::int64_t i), {
    if (gate.closed()) return;
    mom[i] = sap_moments(boxes[i]);
  }));
  segmented_sum(d, View<const SapMoments>(mom), View<const std::int64_t>(s.moment_start.view()),
                View<SapMoments>{s.moment_sum.data(), gate.extent(d, 1)});
  View<const SapMoments> sum = s.moment_sum.view();
  View<int> axis_out = s.axis.view();
  parallel_for(d, gate.extent(d, 1), IMPULSE_KERNEL((std::int64_t), {
    if (gate.closed()) return;
    axis_out[0] = sap_axis(sum[0]);
  }));
  // Entries ordered by (segment, lo, shape): a stable sort by lo, then a stable sort by segment.
  View<const int> axis = s.axis.view(), eseg = s.entry_seg.view(), eshape = s.entry_shape.view();
  View<std::int64_t> key{s.entry_key.data(), ne_run};
  View<int> order{s.entry_order.data(), ne_run};
  parallel_for(d, ne_run, IMPULSE_KERNEL((std::int64_t e), {
    if (gate.closed()) return;
    key[e] = real_sort_key(aabb_lo_on(boxes[eshape[e]], axis[0]));
    order[e] = static_cast<int>(e);
  }));
  sort_pairs(d, key, order);
  parallel_for(d, ne_run, IMPULSE_KERNEL((std::int64_t k), {
    if (gate.closed()) return;
    key[k] = eseg[order[k]];
  }));
  sort_pairs(d, key, order);
  View<int> wseg = s.seg.view(), wshape = s.shape.view();
  View<real> wlo = s.lo.view(), whi = s.hi.view();
  parallel_for(d, ne_run, IMPULSE_KERNEL((std::int64_t k), {
    if (gate.closed()) return;
    const int e = order[k], i = eshape[e];
    wseg[k] = eseg[e];
    wshape[k] = i;
    wlo[k] = aabb_lo_on(boxes[i], axis[0]);
    whi[k] = aabb_hi_on(boxes[i], axis[0]);
  }));
  View<const int> seg{s.seg.data(), ne}, shp{s.shape.data(), ne}, wv = m.shape_world.view();
  View<const real> vlo{s.lo.data(), ne}, vhi{s.hi.data(), ne};
  // Sweep: entry a pairs with every later entry b of its segment whose interval starts before a's
  // ends; in a world's segment, two shared shapes are skipped (their pair belongs to segment -1).
  size_counts(s, d, ne);
  View<std::int64_t> cnt{s.counts.data(), ne};
  parallel_for(d, ne_run, IMPULSE_KERNEL((std::int64_t a), {
    if (gate.closed()) return;
    std::int64_t c = 0;
    const int i = shp[a];
    for (std::int64_t b = a + 1; b < ne && seg[b] == seg[a] && vlo[b] <= vhi[a]; ++b) {
      const int j = shp[b];
      if (seg[a] >= 0 && wv[i] < 0 && wv[j] < 0) continue;
      if (aabb_overlap(boxes[i], boxes[j]) && shape_pair_passes_filters(f, i, j)) ++c;
    }
    cnt[a] = c;
  }));
  scan_counts(d, s, ne, gate);
  store_pair_count(d, s, ne, gate);
  const std::int64_t cap = s.pair_capacity;
  View<std::int64_t> out = s.pairs.view();
  View<const std::int64_t> off{s.offsets.data(), ne};
  parallel_for(d, ne_run, IMPULSE_KERNEL((std::int64_t a), {
    if (gate.closed()) return;
    std::int64_t w = off[a];
    const int i = shp[a];
    for (std::int64_t b = a + 1; b < ne && w < cap && seg[b] == seg[a] && vlo[b] <= vhi[a]; ++b) {
      const int j = shp[b];
      if (seg[a] >= 0 && wv[i] < 0 && wv[j] < 0) continue;
      if (aabb_overlap(boxes[i], boxes[j]) && shape_pair_passes_filters(f, i, j)) out[w++] = pair_key(i, j);
    }
  }));
  sort_found_pairs(d, s, gate);
}

std::vector<std::int64_t> filter_passing_pairs(const Model& m) {
  const int n = m.shape_count;
  const std::vector<int> world = m.shape_world.to_host(), group = m.shape_collision_group.to_host(),
                         body = m.shape_body.to_host();
  const std::vector<std::int64_t> excl = m.shape_collision_filter_pairs.to_host(),
                                  joints = m.joint_filter_body_pairs.to_host();
  FilterView f{{world.data(), n}, {group.data(), n}, {body.data(), n},
               {excl.data(), static_cast<std::int64_t>(excl.size())},
               {joints.data(), static_cast<std::int64_t>(joints.size())}};
  std::vector<std::int64_t> pairs;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (shape_pair_passes_filters(f, i, j)) pairs.push_back(pair_key(i, j));
  return pairs;
}

void broad_phase_explicit(const Model& m, View<const std::int64_t> list, View<const aabb> boxes, BroadPhaseScratch& s,
                          LaunchGate gate) {
  const Device d = m.device;
  const std::int64_t np = list.size;
  size_counts(s, d, np);
  View<std::int64_t> fl{s.counts.data(), np};
  parallel_for(d, gate.extent(d, np), IMPULSE_KERNEL((std::int64_t p), {
    if (gate.closed()) return;
    fl[p] = aabb_overlap(boxes[pair_key_first(list[p])], boxes[pair_key_second(list[p])]) ? 1 : 0;
  }));
  scan_counts(d, s, np, gate);
  store_pair_count(d, s, np, gate);
  const std::int64_t cap = s.pair_capacity;
  View<std::int64_t> out = s.pairs.view();
  View<const std::int64_t> off{s.offsets.data(), np};
  View<const std::int64_t> flc = fl;
  parallel_for(d, gate.extent(d, np), IMPULSE_KERNEL((std::int64_t p), {
    if (gate.closed()) return;
    if (flc[p] && off[p] < cap) out[off[p]] = list[p];
  }));
}

void narrow_phase(const Model& m, View<const transform> pose, View<const real> speed, real dt, real cap,
                  View<const std::int64_t> pairs, View<const int> found, View<PairContacts> out, View<int> count) {
  const ShapeView sv = shape_view(m);
  parallel_for_uneven(m.device, pairs.size, IMPULSE_KERNEL((std::int64_t p), {
    if (p >= found[0]) {  // past the broad phase's count (a GPU launches over the capacity)
      out[p].count = 0;
      count[p] = 0;
      return;
    }
    const int s0 = pair_key_first(pairs[p]), s1 = pair_key_second(pairs[p]);
    const real accept = speculative_gap(sv.gap[s0] + sv.gap[s1], speed[s0] + speed[s1], dt, cap);
    store_used_contacts(collide_shape_pair(sv, s0, s1, pose[s0], pose[s1], accept), out[p]);
    count[p] = out[p].count;
  }));
}

void write_contacts(const Model& m, View<const transform> body_q, View<const std::int64_t> pairs,
                    View<const PairContacts> pc, View<const std::int64_t> offset, Contacts& c) {
  const ShapeView sv = shape_view(m);
  const std::int64_t cap = c.rigid_contact_max;
  View<int> shape0 = c.rigid_contact_shape0.view(), shape1 = c.rigid_contact_shape1.view();
  View<vec3> point0 = c.rigid_contact_point0.view(), point1 = c.rigid_contact_point1.view();
  View<vec3> normal = c.rigid_contact_normal.view(), offset0 = c.rigid_contact_offset0.view(),
             offset1 = c.rigid_contact_offset1.view();
  View<real> margin0 = c.rigid_contact_margin0.view(), margin1 = c.rigid_contact_margin1.view();
  View<real> stiff = c.rigid_contact_stiffness.view(), damp = c.rigid_contact_damping.view(),
             fric = c.rigid_contact_friction.view();
  View<int> match = c.rigid_contact_match_index.view(), route = c.rigid_contact_route.view();
  parallel_for(m.device, pairs.size, IMPULSE_KERNEL((std::int64_t p), {
    const PairContacts& pcs = pc[p];  // a reference: its rows past count are never written
    if (pcs.count == 0) return;       // (also every item past the broad phase's count)
    const int s0 = pair_key_first(pairs[p]), s1 = pair_key_second(pairs[p]);
    const int b0 = sv.body[s0], b1 = sv.body[s1];
    const real th0 = effective_thickness(core_radius(sv.type[s0], sv.scale[s0]), sv.margin[s0]);
    const real th1 = effective_thickness(core_radius(sv.type[s1], sv.scale[s1]), sv.margin[s1]);
    const transform X0 = b0 >= 0 ? body_q[b0] : transform_identity();  // once per pair, not per row
    const transform X1 = b1 >= 0 ? body_q[b1] : transform_identity();
    const transform I0 = transform_inverse(X0), I1 = transform_inverse(X1);
    for (int k = 0; k < pcs.count; ++k) {
      const std::int64_t slot = offset[p] + k;  // the slot is taken (counted) first ...
      if (slot >= cap) continue;                // ... and the write skipped past capacity
      const PairContact& q = pcs.c[k];
      shape0[slot] = s0;
      shape1[slot] = s1;
      point0[slot] = transform_point(I0, q.a);
      point1[slot] = transform_point(I1, q.b);
      normal[slot] = q.n;
      offset0[slot] = transform_vector(I0, th0 * q.n);
      offset1[slot] = transform_vector(I1, -th1 * q.n);
      margin0[slot] = th0;
      margin1[slot] = th1;
      stiff[slot] = q.k;
      damp[slot] = 0;
      fric[slot] = 0;
      match[slot] = -1;
      route[slot] = pcs.route;
    }
  }));
  View<int> count = c.rigid_contact_count.view();
  const std::int64_t np = pairs.size;
  parallel_for(m.device, 1, IMPULSE_KERNEL((std::int64_t), { count[0] = static_cast<int>(offset[np]); }));
}

void eval_rigid_contact_kinematics(const Model& model, View<const transform> body_q, const Contacts& c,
                                   View<real> out_distance, View<vec3> out_point0_world, View<vec3> out_point1_world) {
  const int count = c.checked_count();
  if (out_distance.size < count || out_point0_world.size < count || out_point1_world.size < count)
    throw std::invalid_argument("eval_rigid_contact_kinematics: output arrays hold fewer than rigid_contact_count = " +
                                std::to_string(count) + " rows");
  check_contact_row_shapes(c.rigid_contact_shape0.view(), c.rigid_contact_shape1.view(), c.device, count,
                           model.shape_count, "eval_rigid_contact_kinematics");
  View<const int> body = model.shape_body.view();
  const ContactRowColumns rows{c.rigid_contact_shape0.view(), c.rigid_contact_shape1.view(),
                               c.rigid_contact_point0.view(), c.rigid_contact_point1.view(),
                               c.rigid_contact_normal.view(), c.rigid_contact_margin0.view(),
                               c.rigid_contact_margin1.view()};
  parallel_for(c.device, count, IMPULSE_KERNEL((std::int64_t i), {
    const ContactRow r = read_contact_row(rows, body, body_q, i);
    out_point0_world[i] = r.point0_world;
    out_point1_world[i] = r.point1_world;
    out_distance[i] = r.d;
  }));
}

void match_contacts(Device d, ContactHistory& h, Contacts& c, bool sticky, real r) {
  const std::int64_t cap = c.rigid_contact_max;
  View<const int> count = c.rigid_contact_count.view();
  View<const int> s0 = c.rigid_contact_shape0.view(), s1 = c.rigid_contact_shape1.view();
  View<vec3> p0 = c.rigid_contact_point0.view(), p1 = c.rigid_contact_point1.view(), nn = c.rigid_contact_normal.view(),
             o0 = c.rigid_contact_offset0.view(), o1 = c.rigid_contact_offset1.view();
  View<int> idx = c.rigid_contact_match_index.view();
  View<const int> hs0 = h.shape0.view(), hs1 = h.shape1.view(), hn = h.count.view();
  View<const vec3> hp0 = h.point0.view(), hp1 = h.point1.view(), hnn = h.normal.view(), ho0 = h.offset0.view(),
                   ho1 = h.offset1.view();
  // Per run of rows of one shape pair (rows are sorted by pair, so a pair's rows are one run, now
  // and in the history): the item at the run's first row matches the run greedily in row order,
  // each row to the nearest unused previous row of the pair within r (the first among equally
  // near ones). An overflowed record is not matched. Rows past the count read -1.
  parallel_for(d, cap, IMPULSE_KERNEL((std::int64_t i), {
    const std::int64_t n = count[0];
    if (n > cap) return;
    if (i >= n) {
      idx[i] = -1;
      return;
    }
    const std::int64_t key = pair_key(s0[i], s1[i]);
    if (i > 0 && pair_key(s0[i - 1], s1[i - 1]) == key) return;
    // The pair's previous rows [j0, j1): a binary search of the history's sorted pair keys.
    std::int64_t lo = 0, hi = hn[0];
    while (lo < hi) {
      const std::int64_t mid = (lo + hi) / 2;
      if (pair_key(hs0[mid], hs1[mid]) < key) lo = mid + 1;
      else hi = mid;
    }
    const std::int64_t j0 = lo;
    std::int64_t j1 = j0;
    while (j1 < hn[0] && j1 - j0 < kMaxPairContacts && pair_key(hs0[j1], hs1[j1]) == key) ++j1;
    bool used[kMaxPairContacts] = {};
    for (std::int64_t row = i; row < n && pair_key(s0[row], s1[row]) == key; ++row) {
      std::int64_t best = -1;
      real bd = r;
      for (std::int64_t j = j0; j < j1; ++j) {
        if (used[j - j0]) continue;
        const real dist = length(hp0[j] - p0[row]);
        if (dist < bd || (best < 0 && dist <= bd)) bd = dist, best = j;
      }
      idx[row] = static_cast<int>(best);
      if (best < 0) continue;
      used[best - j0] = true;
      if (sticky) p0[row] = hp0[best], p1[row] = hp1[best], nn[row] = hnn[best], o0[row] = ho0[best], o1[row] = ho1[best];
    }
  }));
  // The record (after the sticky replay) becomes the history; an overflowed record empties it.
  View<int> ws0 = h.shape0.view(), ws1 = h.shape1.view(), wn = h.count.view();
  View<vec3> wp0 = h.point0.view(), wp1 = h.point1.view(), wnn = h.normal.view(), wo0 = h.offset0.view(),
             wo1 = h.offset1.view();
  parallel_for(d, launch_extent(d, count, cap), IMPULSE_KERNEL((std::int64_t i), {
    if (count[0] > cap || i >= count[0]) return;
    ws0[i] = s0[i], ws1[i] = s1[i], wp0[i] = p0[i], wp1[i] = p1[i], wnn[i] = nn[i], wo0[i] = o0[i], wo1[i] = o1[i];
  }));
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), { wn[0] = count[0] > cap ? 0 : count[0]; }));
}

ContactHistory::ContactHistory(Device d, std::int64_t rows)
    : shape0(d, rows), shape1(d, rows), point0(d, rows), point1(d, rows), normal(d, rows), offset0(d, rows),
      offset1(d, rows), count(d, std::vector<int>{0}) {}

void ContactHistory::clear() {
  View<int> n = count.view();
  parallel_for(count.device(), 1, IMPULSE_KERNEL((std::int64_t), { n[0] = 0; }));
}

}  // namespace impulse
