// The per-element work of the collision pipeline (course E3 §2), as device-safe functions, and the
// launch functions that run them over all shapes, pairs or rows (collision_kernels.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/buffer.h"
#include "core/buffer_grow.h"
#include "core/math.h"
#include "core/spatial.h"
#include "e1/model.h"
#include "e3/contacts/contact_record.h"
#include "e3/collision/hydroelastic_contact.h"
#include "e3/collision/narrow_phase.h"

namespace impulse {

/// What the per-shape and per-pair functions read from the model.
struct ShapeView {
  View<const int> type, body;
  View<const transform> xform;
  View<const vec3> scale;
  View<const real> margin, gap;
  View<const int> source_start, source_count, bvh_root;
  View<const vec3> points;
  View<const int> shape_face_start, hull_face_start, hull_face_vertices;  // see Model
  View<const vec3> hull_face_normals;
  View<const int> triangles;
  View<const BvhNode> nodes;
  View<const int> edge_neighbor, edge_class, vertex_owner, ring_start, ring;
  View<const int> flags;  // ShapeFlagBits (route c reads shape_hydroelastic)
  View<const real> kh;    // [N/m^3] hydroelastic modulus
  View<const int> sdf_volume;          // route (c): index into sdf_volumes, -1 = closed form
  View<const SdfVolume> sdf_volumes;
  View<const real> sdf_values;         // [m]
};
ShapeView shape_view(const Model& m);

/// Shape s's SDF placed at world pose X (route c): its volume when it has one, else its closed form.
IMPULSE_HD inline SdfShape shape_sdf(const ShapeView& sv, int s, const transform& X) {
  SdfShape f{sv.type[s], sv.scale[s], X};
  const int v = sv.sdf_volume[s];
  if (v >= 0) {
    f.volume = sv.sdf_volumes[v];
    f.values = sv.sdf_values.data + f.volume.start;
  }
  return f;
}

/// Core of shape s placed at world pose X (not for planes and meshes).
IMPULSE_HD inline ConvexCore shape_core(const ShapeView& sv, int s, const transform& X) {
  ConvexCore c;
  c.type = sv.type[s];
  c.X = X;
  c.scale = sv.scale[s];
  c.radius = core_radius(c.type, c.scale);
  if (c.type == SHAPE_CONVEX_HULL) {
    c.points = sv.points.data + sv.source_start[s];
    c.point_count = sv.source_count[s];
    const int f0 = sv.shape_face_start[s];
    c.face_count = sv.shape_face_start[s + 1] - f0;
    c.face_start = sv.hull_face_start.data + f0;
    c.face_vertices = sv.hull_face_vertices.data;
    c.face_normals = sv.hull_face_normals.data + f0;
  }
  return c;
}

/// World pose of shape s: X_body * shape_transform, or shape_transform for a static shape.
IMPULSE_HD inline transform shape_world_pose(const ShapeView& sv, View<const transform> body_q, int s) {
  const int b = sv.body[s];
  return b >= 0 ? transform_multiply(body_q[b], sv.xform[s]) : sv.xform[s];
}

/// World AABB of shape s grown by thickness + gap + widen [m]; a plane's is unbounded (+-1e30).
IMPULSE_HD inline aabb shape_aabb(const ShapeView& sv, int s, const transform& X, real widen) {
  const int t = sv.type[s];
  const real grow = effective_thickness(core_radius(t, sv.scale[s]), sv.margin[s]) + sv.gap[s] + widen;
  if (t == SHAPE_PLANE) return {{-1e30, -1e30, -1e30}, {1e30, 1e30, 1e30}};
  if (t == SHAPE_MESH) {
    aabb box{{1e30, 1e30, 1e30}, {-1e30, -1e30, -1e30}};
    const aabb local = sv.nodes[sv.bvh_root[s]].box;
    for (int k = 0; k < 8; ++k) {
      const vec3 p = transform_point(X, {(k & 1) ? local.hi.x : local.lo.x, (k & 2) ? local.hi.y : local.lo.y,
                                         (k & 4) ? local.hi.z : local.lo.z});
      box.lo = vmin(box.lo, p);
      box.hi = vmax(box.hi, p);
    }
    const vec3 g{grow, grow, grow};
    return {box.lo - g, box.hi + g};
  }
  return core_aabb(shape_core(sv, s, X), grow);
}

/// Most candidate points gathered for one pair before reduction.
constexpr int kPairCandidateCap = 48;
static_assert(kPairCandidateCap >= kMaxPlaneVertices, "the plane route writes every vertex of a primitive core");

/// Contacts of one candidate pair (s0 < s1) at poses X0, X1 in a frame translated from the world
/// (collide_shape_pair's pair frame), reduced to at most kMaxPairContacts; points in that frame.
IMPULSE_HD inline PairContacts collide_shape_pair_in_frame(const ShapeView& sv, int s0, int s1, const transform& X0,
                                                           const transform& X1, real accept) {
  PairContacts out;
  const int t0 = sv.type[s0], t1 = sv.type[s1];
  const real th0 = effective_thickness(core_radius(t0, sv.scale[s0]), sv.margin[s0]);
  const real th1 = effective_thickness(core_radius(t1, sv.scale[s1]), sv.margin[s1]);
  ScratchArray<PairContact, kPairCandidateCap> buf;
  int n = 0;
  const bool hydro0 = (sv.flags[s0] & shape_hydroelastic) != 0, hydro1 = (sv.flags[s1] & shape_hydroelastic) != 0;
  const GeometryRoute route = geometry_route(t0, t1, hydro0, hydro1);
  out.route = static_cast<int>(route);
  switch (route) {
    case GeometryRoute::hydroelastic: {  // route (c): its own reduction, no point reduction after it
      const HydroReduced r = hydroelastic_reduce(shape_sdf(sv, s0, X0), shape_sdf(sv, s1, X1), sv.kh[s0], sv.kh[s1],
                                                 kHydroSampleGrid);
      out.count = hydroelastic_pair_contacts(r, th0, th1, out.c);
      return out;
    }
    case GeometryRoute::convex:
      n = t0 == SHAPE_SPHERE && t1 == SHAPE_SPHERE
              ? sphere_pair_candidates(X0, X1, th0 + th1, accept, buf, kPairCandidateCap)
              : -1;
      if (n < 0)
        n = convex_contact_candidates(shape_core(sv, s0, X0), shape_core(sv, s1, X1), th0 + th1, accept, buf,
                                      kPairCandidateCap);
      break;
    case GeometryRoute::plane_convex:
      n = t0 == SHAPE_PLANE
              ? plane_contact_candidates(X0, shape_core(sv, s1, X1), true, th0 + th1, accept, buf, kPairCandidateCap)
              : plane_contact_candidates(X1, shape_core(sv, s0, X0), false, th0 + th1, accept, buf, kPairCandidateCap);
      break;
    case GeometryRoute::mesh_bvh: {
      const bool mesh_first = t0 == SHAPE_MESH;
      const int sm = mesh_first ? s0 : s1, sc = mesh_first ? s1 : s0;
      const transform XM = mesh_first ? X0 : X1, XC = mesh_first ? X1 : X0;
      const vec3 scale = sv.scale[sm];
      // The other shape's box in the mesh frame, grown by the whole acceptance distance.
      const ConvexCore local = shape_core(sv, sc, transform_multiply(transform_inverse(XM), XC));
      const aabb q = core_aabb(local, th0 + th1 + accept);
      const ConvexCore other = shape_core(sv, sc, XC);
      const MeshView mesh{XM,
                          scale,
                          sv.points,
                          sv.triangles,
                          sv.edge_neighbor,
                          sv.edge_class,
                          sv.vertex_owner,
                          sv.ring_start,
                          sv.ring};
      int stack[64];
      int top = 0;
      stack[top++] = sv.bvh_root[sm];
      while (top > 0) {
        const BvhNode node = sv.nodes[stack[--top]];
        if (!aabb_overlap(node.box, q)) continue;
        if (node.count == 0) {
          if (top < 63) stack[top++] = node.left;
          if (top < 63) stack[top++] = node.right;
          continue;
        }
        for (int t = node.first; t < node.first + node.count; ++t) {
          vec3 tri[3];
          for (int k = 0; k < 3; ++k)
            tri[k] = transform_point(XM, mul_elem(sv.points[sv.triangles[3 * t + k]], scale));
          ConvexCore T;
          T.type = SHAPE_TRIANGLE;
          T.points = tri;
          T.point_count = 3;
          if (n > kPairCandidateCap - 2 * kMaxFeature) n = reduce_contacts(buf, n);
          const GjkResult g = gjk_distance(T, other);
          n += triangle_contact_candidates(T, other, g, mesh_first, th0 + th1, accept, buf + n,
                                           kPairCandidateCap - n);
          if (n > kPairCandidateCap - kMaxFeature) n = reduce_contacts(buf, n);
          n += triangle_feature_candidates(mesh, t, T, other, g, mesh_first, th0 + th1, accept, buf + n,
                                           kPairCandidateCap - n);
        }
      }
      break;
    }
    default: break;
  }
  n = reduce_contacts(buf, n);
  for (int k = 0; k < n; ++k) out.c[k] = buf[k];
  out.count = n;
  return out;
}

/// The origin of a pair's frame [m]: the position of its bounded shape (shape0's, or shape1's when
/// shape0 is a plane); the world's for a pair with a mesh. A mesh's triangles are placed by
/// R v + p with |v| up to the mesh's own size, so they carry eps times that size wherever the pair
/// is, and route (b)'s tolerances were set for world coordinates (contacts_across_scene_test: a
/// tilted 7.5 m floor of 5 cm cells); in a box's frame its GJK and EPA tolerances would fall below
/// that rounding (a face normal turned over at 5 m in float32).
IMPULSE_HD inline vec3 pair_frame_origin(int t0, int t1, const transform& X0, const transform& X1) {
  if (t0 == SHAPE_MESH || t1 == SHAPE_MESH) return vec3{};
  return t0 == SHAPE_PLANE ? X1.p : X0.p;
}

/// Contacts of one candidate pair (s0 < s1) at the given world poses, reduced to at most
/// kMaxPairContacts. accept is the summed (possibly speculative) gap [m]. The narrow phase works
/// in the pair's frame, the world translated so that one shape sits at its origin o
/// (pair_frame_origin), as Newton's does (newton/_src/geometry/simplex_solver.py and mpr.py move
/// shape B into shape A's frame, relative_position_b = R_A^T (p_B - p_A); multicontact.py adds
/// position_a back to the points):
///   X'_i = (p_i - o, q_i);   contacts of (X'_0, X'_1);   a = a' + o,  b = b' + o
/// In world coordinates every support point of a pair L from the origin carries a rounding of
/// eps L, so the normal of two faces s apart, (b - a) / s, is off by about eps L / s, and GJK's
/// overlap tolerances grow with L (precision_tolerance, scale |a| + |b| = 2L). In float32 at 30 m
/// (issue 26, the 10^4 box pile) two cube faces 1 mm apart got a normal tilted by 2e-3, 0.1 mm
/// apart by 2e-2, and 20 um apart read as overlapping; in the pair frame the same pair is tilted by
/// 4e-6, 4e-5 and 2e-4 (as at the origin) and stays apart. The coordinates are the pair's own size,
/// wherever the pair is.
IMPULSE_HD inline PairContacts collide_shape_pair(const ShapeView& sv, int s0, int s1, const transform& X0,
                                                  const transform& X1, real accept) {
  const vec3 o = pair_frame_origin(sv.type[s0], sv.type[s1], X0, X1);
  PairContacts out =
      collide_shape_pair_in_frame(sv, s0, s1, transform{X0.p - o, X0.q}, transform{X1.p - o, X1.q}, accept);
  for (int k = 0; k < out.count; ++k) {
    out.c[k].a += o;
    out.c[k].b += o;
  }
  return out;
}

// --- launch functions (collision_kernels.cpp) ------------------------------------------------

/// Stage "update AABB": world poses, AABBs and the speculative speed of every shape.
/// body_qd may be empty (no speculative widening); widen = min(|v_body| dt, cap) per shape.
void compute_shape_aabbs(const Model& m, View<const transform> body_q, View<const spatial_vector> body_qd,
                         real dt, real speculative_cap, View<transform> shape_world_pose_out, View<aabb> aabb_out,
                         View<real> shape_speed_out);

/// first[0] = the first body index with a non-finite pose, or -1, on the device (no readback: the
/// step's one readback reports it). flag: one int per body, blocks: first_flagged_blocks(bodies)
/// ints (core/first_flagged.h), both scratch on d.
void find_non_finite_body(Device d, View<const transform> body_q, View<int> flag, View<int> blocks, View<int> first);

/// Sums that choose the SAP sweep axis: the number of finite boxes, their centres and squared
/// centres [m], [m^2] per axis (double, as the host sums were).
struct SapMoments {
  double finite = 0, c[3] = {0, 0, 0}, sq[3] = {0, 0, 0};
};
IMPULSE_HD inline SapMoments operator+(const SapMoments& a, const SapMoments& b) {
  SapMoments r;
  r.finite = a.finite + b.finite;
  for (int k = 0; k < 3; ++k) r.c[k] = a.c[k] + b.c[k], r.sq[k] = a.sq[k] + b.sq[k];
  return r;
}
/// A box's share: its centre and squared centre, or zero for an unbounded box (a plane's).
IMPULSE_HD inline SapMoments sap_moments(const aabb& b) {
  SapMoments r;
  if (b.hi.x - b.lo.x > 1e29) return r;
  const double c[3] = {0.5 * (b.lo.x + b.hi.x), 0.5 * (b.lo.y + b.hi.y), 0.5 * (b.lo.z + b.hi.z)};
  r.finite = 1;
  for (int k = 0; k < 3; ++k) r.c[k] = c[k], r.sq[k] = c[k] * c[k];
  return r;
}
/// The axis of largest centre variance (the first on a tie); 0 without finite boxes.
IMPULSE_HD inline int sap_axis(const SapMoments& m) {
  int axis = 0;
  double best = -1;
  for (int k = 0; k < 3; ++k) {
    const double var = m.finite > 0 ? m.sq[k] / m.finite - (m.c[k] / m.finite) * (m.c[k] / m.finite) : 0;
    if (var > best) best = var, axis = k;
  }
  return axis;
}
IMPULSE_HD inline real aabb_lo_on(const aabb& b, int axis) { return axis == 0 ? b.lo.x : (axis == 1 ? b.lo.y : b.lo.z); }
IMPULSE_HD inline real aabb_hi_on(const aabb& b, int axis) { return axis == 0 ? b.hi.x : (axis == 1 ? b.hi.y : b.hi.z); }

/// A device flag that gates a pass (the broad-phase reuse's rebuild and fallback): flag[0] != 0
/// opens it, 0 closes it; an empty flag is always open. A gated launch runs over extent(d, n)
/// items: n when open and 0 when closed on the CPU, where reading the flag costs nothing, and n on
/// a GPU (core/scan.h's launch_extent, whose count is the flag), where every item of a closed pass
/// returns at once. The backend's primitives of a gated pass (scan, sorts) run on a GPU even when it
/// is closed, on inputs that the closed launches left as they were, and so rewrite what they
/// wrote before (see broad_phase_sap).
struct LaunchGate {
  View<const int> flag;
  IMPULSE_HD bool closed() const { return flag.size > 0 && flag[0] == 0; }
  /// Items a launch of n gated items runs over on d.
  std::int64_t extent(Device d, std::int64_t n) const;
};

/// The broad phases' working arrays, kept between calls by their owner (the pipeline) and grown
/// only when a count grows, so that a broad phase allocates nothing once they are large enough.
struct BroadPhaseScratch {
  /// Sets the pair capacity (shape_pairs_max) and allocates the result for it, once.
  BroadPhaseScratch(Device d = Device::cpu, std::int64_t pair_capacity = 0);
  // The result: the first min(found[0], pair_capacity) entries of pairs, sorted pair keys. The
  // count stays on the device (no readback); a broad phase that finds more pairs than the capacity
  // writes the first pair_capacity and counts them all (an overflow the step's readback reports).
  std::int64_t pair_capacity = 0;           // [pairs]
  Buffer<std::int64_t> pairs;               // (pair_capacity)
  Buffer<int> found;                        // (1) pairs found, saturated at INT_MAX
  Buffer<std::int64_t> counts, offsets;     // per shape (nxn), sweep entry (sap) or listed pair (explicit)
  // SAP: the sweep entries (segment, shape) of the model, made once (prepare_broad_phase_sap), their
  // sort keys and order, the sorted entries (segment, shape, interval on the axis), and the
  // per-shape moments that choose the axis
  const Model* entries_of = nullptr;  // the model the entries were made for
  std::int64_t entry_count = 0;
  Buffer<int> entry_seg, entry_shape;
  Buffer<std::int64_t> entry_key;
  Buffer<int> entry_order;
  Buffer<int> seg, shape;
  Buffer<real> lo, hi;
  Buffer<SapMoments> moments, moment_sum;
  Buffer<std::int64_t> moment_start;  // {0, shape_count}: one segment for segmented_sum
  Buffer<int> axis;                   // the sweep axis, 0..2, chosen on the device
  /// The pairs a pass over the result launches over on d (core/scan.h's launch_extent of found):
  /// the capacity on a GPU, the pairs found (at most the capacity) on the CPU; each item at or past
  /// found[0] does nothing.
  std::int64_t launch(Device d) const;
  /// The result as a view of launch(d) entries.
  View<const std::int64_t> result(Device d) const { return {pairs.data(), launch(d)}; }
};

/// Newton's default pair capacity for the nxn and SAP broad phases (_compute_per_world_shape_pairs_max
/// in newton/_src/sim/collide.py), capped: sum over worlds w of n_w (n_w - 1) / 2, with n_w the
/// world's shapes plus the shared ones (world -1), plus the shared shapes' own pairs; at most
/// max(64, 16 shape_count), since a pile's boxes overlap a handful of neighbours each and the bound
/// grows as shape_count^2 (Newton's docstring calls it "grossly wasteful" on large scenes).
std::int64_t estimate_shape_pairs_max(const Model& m);

/// Broad phases: sorted pair keys (pair_key(s0, s1), s0 < s1) of overlapping, filter-passing pairs,
/// written to s.pairs (s.found[0] of them). A closed gate leaves s as it was (see LaunchGate).
void broad_phase_nxn(const Model& m, View<const aabb> boxes, BroadPhaseScratch& s, LaunchGate gate = {});
void broad_phase_sap(const Model& m, View<const aabb> boxes, BroadPhaseScratch& s, LaunchGate gate = {});
/// The SAP's per-model tables (the sweep entries of every world's segment, from shape_world) and
/// working arrays, made once on the host and uploaded: the pipeline calls it at construction, so a
/// step does not; broad_phase_sap calls it for a scratch not yet prepared for m.
void prepare_broad_phase_sap(const Model& m, BroadPhaseScratch& s);
/// The explicit phase tests the pairs of list (sorted pair keys that pass every filter, see
/// filter_passing_pairs) for overlap only.
void broad_phase_explicit(const Model& m, View<const std::int64_t> list, View<const aabb> boxes, BroadPhaseScratch& s,
                          LaunchGate gate = {});

/// Every shape pair of the Model that passes the filters (world, group, exclusions, joints), as
/// sorted pair keys: the explicit broad phase's list, evaluated on the host with the same filter
/// function the kernels use. O(shape_count^2).
std::vector<std::int64_t> filter_passing_pairs(const Model& m);

/// Narrow phase over all candidate pairs: one PairContacts per pair, and its count in count[p]
/// (what the ordered prefix sum of the record reads). Items at or past found[0] (the broad phase's
/// device count) write count 0 and nothing else.
void narrow_phase(const Model& m, View<const transform> shape_pose, View<const real> shape_speed, real dt,
                  real speculative_cap, View<const std::int64_t> pairs, View<const int> found,
                  View<PairContacts> out, View<int> count);

struct Contacts;
/// The record writer: pair p's k-th contact takes slot offset[p] + k (the ordered equivalent of
/// "increment the count, then write if the slot is below capacity"); rows past rigid_contact_max
/// are skipped. offset has pairs.size + 1 entries (core/scan.h's exclusive_scan); rigid_contact_count
/// is set on the device to the total offset[pairs.size], which may exceed the capacity.
void write_contacts(const Model& m, View<const transform> body_q, View<const std::int64_t> pairs,
                    View<const PairContacts> pc, View<const std::int64_t> offset, Contacts& c);

/// Contacts::collide_status (kCollideStatusSize ints on the device) from what collide found: the
/// broad phase's pair count and capacity (slot 0, the non-finite body, is written by
/// find_non_finite_body).
void write_broad_phase_status(Device d, const BroadPhaseScratch& s, View<int> status);

/// @formula E3.2-contact-matching  The matching history: the previous record's rows (device
/// buffers of rigid_contact_max rows, allocated once) and their count.
struct ContactHistory {
  ContactHistory() = default;
  ContactHistory(Device d, std::int64_t rows);
  Buffer<int> shape0, shape1;
  Buffer<vec3> point0, point1, normal, offset0, offset1;  // [m], [m], [-], [m], [m] as in the record
  Buffer<int> count;  // rows held (one int on the device)
  /// Forgets every row (count 0, on the device).
  void clear();
};

/// Frame-to-frame matching of the record c against h (E3.2-contact-matching; see ContactMatching),
/// on the device: rigid_contact_match_index of every row (-1 unmatched and past the count); sticky
/// (ContactMatching::sticky) also replays a matched row's points, normal and offsets; then c becomes the history. An
/// overflowed record is not matched and empties the history. r: matching distance [m].
void match_contacts(Device d, ContactHistory& h, Contacts& c, bool sticky, real r);

}  // namespace impulse
