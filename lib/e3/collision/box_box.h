// The penetration of two overlapping box cores by the separating-axis test (impulse's fast path of
// route (a) for the box-box pair, not a course item; the course's route runs GJK then EPA).
//
// The Minkowski difference A - B of two boxes is a convex polytope whose face normals are among 15
// directions: the three face normals of each box and the nine cross products of an edge direction
// of A with one of B (Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH 1996, section 4; Ericson,
// "Real-Time Collision Detection", 2005, section 4.4.1). Along a unit direction L the boxes overlap by
//   o(L) = r_A(L) + r_B(L) - |d . L|,   r_A(L) = sum_i e_A,i |u_A,i . L|,   d = c_B - c_A     [m]
// and for every L, o(L) is at least the penetration depth, which o reaches at one of the 15: so the
// smallest o over them is the depth EPA computes (min over unit u of the support of A - B along u),
// and its direction, signed from A to B, the normal. Faces are kept on near ties (an edge axis must
// be shallower by a relative 1e-9, in float32 by the rounding), as the manifold clips faces; a
// cross product shorter than 1e-6 (near-parallel edges) is no axis: the face axes then bound the
// depth. Overlapping boxes skip GJK and EPA; boxes apart along an axis go to GJK for their distance.
//
// Witness points, as convex_contact_candidates takes EPA's (pa on A, pb on B, s = n . (pb - pa) =
// -depth): for a face axis of A, the centre of B's support feature along -n (a vertex, edge or
// face: a support coordinate within 1e-9 of 0 takes the centre, 0) moved by depth n onto A's face
// plane, and into the face (clamped to its extents) where it overhangs, then pb = pa - depth n;
// for a face axis of B the mirror image; for an edge axis, the closest points of the two support
// edges' lines. Along a face normal the candidates are the clipped faces alone, which hold the
// deepest point; the witness is added only when the clip is empty, and for an edge axis where no
// clipped point is as deep (manifold_with_deepest).
#pragma once

#include "core/hd.h"
#include "core/math.h"
#include "e3/collision/geometry.h"

namespace impulse {

struct BoxBoxPenetration {
  vec3 normal;          // unit, from A to B
  real depth = 0;       // [m] >= 0
  vec3 point_a, point_b;  // [m] world witness points on A and B
  bool face = false;      // the normal is a face normal of A or B (else an edge-edge cross product)
};

namespace box_box_detail {

/// A box's world centre, unit axes and half extents.
struct Obb {
  vec3 c;
  vec3 u[3];
  real e[3];
};

IMPULSE_HD inline Obb obb_of(const ConvexCore& b) {
  Obb o;
  o.c = b.X.p;
  o.u[0] = quat_rotate(b.X.q, vec3{1, 0, 0});
  o.u[1] = quat_rotate(b.X.q, vec3{0, 1, 0});
  o.u[2] = quat_rotate(b.X.q, vec3{0, 0, 1});
  o.e[0] = b.scale.x;
  o.e[1] = b.scale.y;
  o.e[2] = b.scale.z;
  return o;
}

/// r(L) = sum_i e_i |u_i . L|   [m]
IMPULSE_HD inline real obb_radius(const Obb& o, vec3 L) {
  return o.e[0] * rabs(dot(o.u[0], L)) + o.e[1] * rabs(dot(o.u[1], L)) + o.e[2] * rabs(dot(o.u[2], L));
}

/// The centre of o's support feature along unit dir: c + sum_i e_i sign(u_i . dir) u_i, with a
/// coordinate whose |u_i . dir| is within tie of 0 left at the centre.
IMPULSE_HD inline vec3 obb_support_centre(const Obb& o, vec3 dir, real tie) {
  vec3 p = o.c;
  for (int i = 0; i < 3; ++i) {
    const real k = dot(o.u[i], dir);
    if (k > tie) p += o.e[i] * o.u[i];
    else if (k < -tie) p -= o.e[i] * o.u[i];
  }
  return p;
}

/// x with its coordinates along o's axes other than k clamped to the half extents (x on the plane of
/// o's face k stays on it, moved into the face).
IMPULSE_HD inline vec3 clamp_to_face(const Obb& o, int k, vec3 x) {
  for (int i = 0; i < 3; ++i) {
    if (i == k) continue;
    const real c = dot(x - o.c, o.u[i]);
    if (c > o.e[i]) x -= (c - o.e[i]) * o.u[i];
    else if (c < -o.e[i]) x -= (c + o.e[i]) * o.u[i];
  }
  return x;
}

/// Closest points of the lines p + s a and q + t b (a, b unit, not parallel).
IMPULSE_HD inline void line_line_closest(vec3 p, vec3 a, vec3 q, vec3 b, vec3& on_p, vec3& on_q) {
  const vec3 r = p - q;
  const real ab = dot(a, b), ar = dot(a, r), br = dot(b, r);
  const real den = 1 - ab * ab;
  const real s = (ab * br - ar) / den;
  const real t = (br - ab * ar) / den;  // from a . (p + s a - q - t b) = 0 and b . (...) = 0
  on_p = p + s * a;
  on_q = q + t * b;
}

}  // namespace box_box_detail

/// The penetration of two box cores: see the header. Returns false when the boxes are apart along
/// one of the 15 axes (o < 0), and the caller then takes GJK for their distance.
IMPULSE_HD inline bool box_box_penetration(const ConvexCore& A, const ConvexCore& B, BoxBoxPenetration& out) {
  using namespace box_box_detail;
  const Obb a = obb_of(A), b = obb_of(B);
  const vec3 d = b.c - a.c;
  const real size = a.e[0] + a.e[1] + a.e[2] + b.e[0] + b.e[1] + b.e[2];
  real best = real(1e300);
  vec3 best_axis;
  int kind = -1, ia = 0, ib = 0;  // kind 0: face of A (ia), 1: face of B (ib), 2: edges ia x ib
  for (int k = 0; k < 6; ++k) {
    const vec3 L = k < 3 ? a.u[k] : b.u[k - 3];
    const real o = obb_radius(a, L) + obb_radius(b, L) - rabs(dot(d, L));
    if (o < best) best = o, best_axis = L, kind = k < 3 ? 0 : 1, ia = k < 3 ? k : 0, ib = k < 3 ? 0 : k - 3;
  }
  const real face_best = best;
  // an edge axis must be shallower by a relative 1e-9 (float32: the rounding of the projections)
  const real prefer = precision_tolerance(real(1e-9) * size, real(16), size + length(d));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const vec3 c = cross(a.u[i], b.u[j]);
      const real len = length(c);
      if (len < real(1e-6)) continue;
      const vec3 L = c / len;
      const real o = obb_radius(a, L) + obb_radius(b, L) - rabs(dot(d, L));
      if (o < best && o < face_best - prefer) best = o, best_axis = L, kind = 2, ia = i, ib = j;
    }
  if (best < 0) return false;
  vec3 n = dot(d, best_axis) >= 0 ? best_axis : -best_axis;
  const real tie = precision_tolerance(real(1e-9), real(16), real(1));  // of a unit axis' component
  out.normal = n;
  out.depth = best;
  out.face = kind != 2;
  if (kind == 0) {
    out.point_a = clamp_to_face(a, ia, obb_support_centre(b, -n, tie) + best * n);
    out.point_b = out.point_a - best * n;
  } else if (kind == 1) {
    out.point_b = clamp_to_face(b, ib, obb_support_centre(a, n, tie) - best * n);
    out.point_a = out.point_b + best * n;
  } else {
    // the support edges: A's edge along u_A,ia extreme along n, B's along u_B,ib extreme along -n
    vec3 pa = a.c, pb = b.c;
    for (int k = 0; k < 3; ++k) {
      if (k != ia) pa += (dot(a.u[k], n) >= 0 ? a.e[k] : -a.e[k]) * a.u[k];
      if (k != ib) pb += (dot(b.u[k], n) <= 0 ? b.e[k] : -b.e[k]) * b.u[k];
    }
    line_line_closest(pa, a.u[ia], pb, b.u[ib], out.point_a, out.point_b);
  }
  return true;
}

}  // namespace impulse
