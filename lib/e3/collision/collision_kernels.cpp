// Launch sites of the collision pipeline (compiled by nvcc when CUDA is enabled).
//
// Determinism: every stage writes its outputs by index, and the only variable-length outputs (the
// candidate pairs and the contact rows) are placed by an exclusive prefix sum over per-element
// counts, so the record's row order does not depend on thread count or scheduling.
#include "e3/collision/collision_kernels.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/buffer_grow.h"
#include "core/parallel_for.h"
#include "core/scan.h"
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

/// Per-element counts and offsets for n elements, grown only when n grows.
void size_counts(BroadPhaseScratch& s, Device d, std::int64_t n) {
  grow_to(s.counts, d, n);
  grow_to(s.offsets, d, n + 1);
}

/// offsets[0, n] of the first n counts (core/scan.h) and their total, read back: the length of the
/// pair list the next pass writes.
std::int64_t scan_counts(Device d, BroadPhaseScratch& s, std::int64_t n) {
  exclusive_scan(d, View<const std::int64_t>{s.counts.data(), n}, View<std::int64_t>{s.offsets.data(), n + 1});
  return read_one(d, View<const std::int64_t>{s.offsets.data(), n + 1}, n);
}

}  // namespace

void compute_shape_aabbs(const Model& m, View<const transform> body_q, View<const spatial_vector> body_qd,
                         real dt, real cap, View<transform> pose_out, View<aabb> aabb_out, View<real> speed_out) {
  const ShapeView sv = shape_view(m);
  parallel_for(m.device, m.shape_count, IMPULSE_LAMBDA(std::int64_t s) {
    const transform X = shape_world_pose(sv, body_q, static_cast<int>(s));
    const int b = sv.body[s];
    const real speed = (b >= 0 && body_qd.size > 0) ? length(body_qd[b].lin) : real(0);
    const real widen = speed * dt < cap ? speed * dt : cap;
    pose_out[s] = X;
    speed_out[s] = speed;
    aabb_out[s] = shape_aabb(sv, static_cast<int>(s), X, widen);
  });
}

int find_non_finite_body(Device d, View<const transform> body_q, View<int> flag, std::vector<int>& host) {
  View<int> out = flag;
  parallel_for(d, body_q.size, IMPULSE_LAMBDA(std::int64_t b) {
    const transform t = body_q[b];
    const real sum = t.p.x + t.p.y + t.p.z + t.q.x + t.q.y + t.q.z + t.q.w;
    out[b] = (sum - sum == 0) ? 0 : 1;  // NaN or inf make sum - sum non-zero (NaN)
  });
  const int* h = host_readable(View<const int>(flag), d, body_q.size, host);
  for (std::int64_t b = 0; b < body_q.size; ++b)
    if (h[b]) return static_cast<int>(b);
  return -1;
}

void broad_phase_nxn(const Model& m, View<const aabb> boxes, BroadPhaseScratch& s) {
  const Device d = m.device;
  const int n = m.shape_count;
  const FilterView f = m.filter_view();
  // Pass 1: per shape i, the number of partners j > i; pass 2: write them in (i, j) order.
  size_counts(s, d, n);
  View<std::int64_t> cnt{s.counts.data(), n};
  parallel_for(d, n, IMPULSE_LAMBDA(std::int64_t i) {
    std::int64_t c = 0;
    for (int j = static_cast<int>(i) + 1; j < n; ++j)
      if (aabb_overlap(boxes[i], boxes[j]) && shape_pair_passes_filters(f, static_cast<int>(i), j)) ++c;
    cnt[i] = c;
  });
  const std::int64_t total = scan_counts(d, s, n);
  grow_to(s.pairs, d, total);
  s.pair_count = total;
  View<std::int64_t> out{s.pairs.data(), total};
  View<const std::int64_t> off{s.offsets.data(), n};
  parallel_for(d, n, IMPULSE_LAMBDA(std::int64_t i) {
    std::int64_t w = off[i];
    for (int j = static_cast<int>(i) + 1; j < n; ++j)
      if (aabb_overlap(boxes[i], boxes[j]) && shape_pair_passes_filters(f, static_cast<int>(i), j))
        out[w++] = pair_key(static_cast<int>(i), j);
  });
}

void broad_phase_sap(const Model& m, View<const aabb> boxes, BroadPhaseScratch& s) {
  const Device d = m.device;
  const int n = m.shape_count;
  const FilterView f = m.filter_view();
  // Host set-up, O(n log n): one segment per world, as Newton sweeps each world separately. A shape
  // of world w >= 0 enters segment w; a shared shape (world -1) enters every world's segment and
  // the segment of shared shapes, where the pairs of two shared shapes are found (only there).
  const aabb* hb = host_readable(boxes, d, n, s.host_boxes);
  if (s.world_of != &m) {  // the worlds of the shapes do not change: read once per model
    s.world = m.shape_world.to_host();
    s.worlds.clear();
    for (int w : s.world)
      if (w >= 0) s.worlds.push_back(w);
    std::sort(s.worlds.begin(), s.worlds.end());
    s.worlds.erase(std::unique(s.worlds.begin(), s.worlds.end()), s.worlds.end());
    s.world_of = &m;
  }
  const std::vector<int>& world = s.world;
  // Sweep axis: the one along which the finite box centres spread most.
  double mean[3] = {0, 0, 0}, sq[3] = {0, 0, 0};
  int finite_count = 0;
  for (int i = 0; i < n; ++i) {
    const aabb& b = hb[i];
    if (b.hi.x - b.lo.x > 1e29) continue;
    const double c[3] = {0.5 * (b.lo.x + b.hi.x), 0.5 * (b.lo.y + b.hi.y), 0.5 * (b.lo.z + b.hi.z)};
    for (int k = 0; k < 3; ++k) mean[k] += c[k], sq[k] += c[k] * c[k];
    ++finite_count;
  }
  int axis = 0;
  double best = -1;
  for (int k = 0; k < 3; ++k) {
    const double var = finite_count ? sq[k] / finite_count - (mean[k] / finite_count) * (mean[k] / finite_count) : 0;
    if (var > best) best = var, axis = k;
  }
  auto lo_of = [&](const aabb& b) { return axis == 0 ? b.lo.x : (axis == 1 ? b.lo.y : b.lo.z); };
  auto hi_of = [&](const aabb& b) { return axis == 0 ? b.hi.x : (axis == 1 ? b.hi.y : b.hi.z); };
  using Entry = BroadPhaseScratch::SapEntry;
  std::vector<Entry>& e = s.entries;
  e.clear();
  for (int i = 0; i < n; ++i) {
    if (world[i] >= 0) {
      e.push_back({world[i], i, lo_of(hb[i]), hi_of(hb[i])});
    } else {
      e.push_back({-1, i, lo_of(hb[i]), hi_of(hb[i])});
      for (int w : s.worlds) e.push_back({w, i, lo_of(hb[i]), hi_of(hb[i])});
    }
  }
  std::sort(e.begin(), e.end(), [](const Entry& a, const Entry& b) {
    if (a.segment != b.segment) return a.segment < b.segment;
    if (a.lo != b.lo) return a.lo < b.lo;
    return a.shape < b.shape;
  });
  const std::int64_t ne = static_cast<std::int64_t>(e.size());
  grow_to(s.seg, d, ne);
  grow_to(s.shape, d, ne);
  grow_to(s.lo, d, ne);
  grow_to(s.hi, d, ne);
  // The sorted columns, written straight into the device arrays where they are host memory.
  int* hseg = host_writable(s.seg.view(), d, ne, s.host_seg);
  int* hshape = host_writable(s.shape.view(), d, ne, s.host_shape);
  real* hlo = host_writable(s.lo.view(), d, ne, s.host_lo);
  real* hhi = host_writable(s.hi.view(), d, ne, s.host_hi);
  for (std::int64_t k = 0; k < ne; ++k) hseg[k] = e[k].segment, hshape[k] = e[k].shape, hlo[k] = e[k].lo, hhi[k] = e[k].hi;
  publish_host_writes(s.seg.view(), d, ne, hseg);
  publish_host_writes(s.shape.view(), d, ne, hshape);
  publish_host_writes(s.lo.view(), d, ne, hlo);
  publish_host_writes(s.hi.view(), d, ne, hhi);
  View<const int> seg{s.seg.data(), ne}, shp{s.shape.data(), ne}, wv = m.shape_world.view();
  View<const real> vlo{s.lo.data(), ne}, vhi{s.hi.data(), ne};
  // Sweep: entry a pairs with every later entry b of its segment whose interval starts before a's
  // ends; in a world's segment, two shared shapes are skipped (their pair belongs to segment -1).
  size_counts(s, d, ne);
  View<std::int64_t> cnt{s.counts.data(), ne};
  parallel_for(d, ne, IMPULSE_LAMBDA(std::int64_t a) {
    std::int64_t c = 0;
    const int i = shp[a];
    for (std::int64_t b = a + 1; b < ne && seg[b] == seg[a] && vlo[b] <= vhi[a]; ++b) {
      const int j = shp[b];
      if (seg[a] >= 0 && wv[i] < 0 && wv[j] < 0) continue;
      if (aabb_overlap(boxes[i], boxes[j]) && shape_pair_passes_filters(f, i, j)) ++c;
    }
    cnt[a] = c;
  });
  const std::int64_t total = scan_counts(d, s, ne);
  grow_to(s.pairs, d, total);
  s.pair_count = total;
  View<std::int64_t> out{s.pairs.data(), total};
  View<const std::int64_t> off{s.offsets.data(), ne};
  parallel_for(d, ne, IMPULSE_LAMBDA(std::int64_t a) {
    std::int64_t w = off[a];
    const int i = shp[a];
    for (std::int64_t b = a + 1; b < ne && seg[b] == seg[a] && vlo[b] <= vhi[a]; ++b) {
      const int j = shp[b];
      if (seg[a] >= 0 && wv[i] < 0 && wv[j] < 0) continue;
      if (aabb_overlap(boxes[i], boxes[j]) && shape_pair_passes_filters(f, i, j)) out[w++] = pair_key(i, j);
    }
  });
  // Canonical order (s0, s1), the same as the other broad phases.
  sort_keys(d, out);
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

void broad_phase_explicit(const Model& m, View<const std::int64_t> list, View<const aabb> boxes, BroadPhaseScratch& s) {
  const Device d = m.device;
  const std::int64_t np = list.size;
  size_counts(s, d, np);
  View<std::int64_t> fl{s.counts.data(), np};
  parallel_for(d, np, IMPULSE_LAMBDA(std::int64_t p) {
    fl[p] = aabb_overlap(boxes[pair_key_first(list[p])], boxes[pair_key_second(list[p])]) ? 1 : 0;
  });
  const std::int64_t total = scan_counts(d, s, np);
  grow_to(s.pairs, d, total);
  s.pair_count = total;
  View<std::int64_t> out{s.pairs.data(), total};
  View<const std::int64_t> off{s.offsets.data(), np};
  View<const std::int64_t> flc = fl;
  parallel_for(d, np, IMPULSE_LAMBDA(std::int64_t p) {
    if (flc[p]) out[off[p]] = list[p];
  });
}

void narrow_phase(const Model& m, View<const transform> pose, View<const real> speed, real dt, real cap,
                  View<const std::int64_t> pairs, View<PairContacts> out, View<int> count) {
  const ShapeView sv = shape_view(m);
  parallel_for_uneven(m.device, pairs.size, IMPULSE_LAMBDA(std::int64_t p) {
    const int s0 = pair_key_first(pairs[p]), s1 = pair_key_second(pairs[p]);
    const real accept = speculative_gap(sv.gap[s0] + sv.gap[s1], speed[s0] + speed[s1], dt, cap);
    out[p] = collide_shape_pair(sv, s0, s1, pose[s0], pose[s1], accept);
    count[p] = out[p].count;
  });
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
  parallel_for(m.device, pairs.size, IMPULSE_LAMBDA(std::int64_t p) {
    const int s0 = pair_key_first(pairs[p]), s1 = pair_key_second(pairs[p]);
    const int b0 = sv.body[s0], b1 = sv.body[s1];
    const real th0 = effective_thickness(core_radius(sv.type[s0], sv.scale[s0]), sv.margin[s0]);
    const real th1 = effective_thickness(core_radius(sv.type[s1], sv.scale[s1]), sv.margin[s1]);
    const PairContacts pcs = pc[p];
    for (int k = 0; k < pcs.count; ++k) {
      const std::int64_t slot = offset[p] + k;  // the slot is taken (counted) first ...
      if (slot >= cap) continue;                // ... and the write skipped past capacity
      const PairContact& q = pcs.c[k];
      const transform X0 = b0 >= 0 ? body_q[b0] : transform_identity();
      const transform X1 = b1 >= 0 ? body_q[b1] : transform_identity();
      const transform I0 = transform_inverse(X0), I1 = transform_inverse(X1);
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
  });
  View<int> count = c.rigid_contact_count.view();
  const std::int64_t np = pairs.size;
  parallel_for(m.device, 1, IMPULSE_LAMBDA(std::int64_t) { count[0] = static_cast<int>(offset[np]); });
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
  parallel_for(c.device, count, IMPULSE_LAMBDA(std::int64_t i) {
    const ContactRow r = read_contact_row(rows, body, body_q, i);
    out_point0_world[i] = r.point0_world;
    out_point1_world[i] = r.point1_world;
    out_distance[i] = r.d;
  });
}

}  // namespace impulse
