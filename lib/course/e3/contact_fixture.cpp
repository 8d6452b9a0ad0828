#include "course/e3/contact_fixture.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace impulse {

namespace {

struct Record {
  int shape0, shape1;
  vec3 point0, point1;    // body frame
  vec3 offset0, offset1;  // body frame
  vec3 normal;            // world
  real thickness0, thickness1;
};

struct ShapeInfo {
  int body;
  ShapeType type;
  vec3 scale;
  transform X;       // world pose of the shape
  transform X_body;  // world pose of its body (identity for body -1)
};

vec3 axis_of(const transform& X, int k) {
  vec3 e{};
  (k == 0 ? e.x : k == 1 ? e.y : e.z) = 1;
  return quat_rotate(X.q, e);
}
real comp(vec3 v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }

vec3 to_body(const ShapeInfo& s, vec3 p_world) { return transform_point(transform_inverse(s.X_body), p_world); }
vec3 dir_to_body(const ShapeInfo& s, vec3 d_world) { return quat_rotate_inv(s.X_body.q, d_world); }

void plane_sphere(int ip, const ShapeInfo& P, int is, const ShapeInfo& S, real gap, std::vector<Record>& out) {
  vec3 n = axis_of(P.X, 2), c = S.X.p;
  real r = S.scale.x;
  real dist = dot(n, c - P.X.p);
  if (dist - r > gap) return;
  vec3 on_plane = c - dist * n;
  out.push_back({ip, is, to_body(P, on_plane), to_body(S, c), vec3{}, dir_to_body(S, -r * n), n, 0, r});
}

void box_corners(const ShapeInfo& B, vec3* corners) {
  int k = 0;
  for (int sx = -1; sx <= 1; sx += 2)
    for (int sy = -1; sy <= 1; sy += 2)
      for (int sz = -1; sz <= 1; sz += 2)
        corners[k++] = transform_point(B.X, vec3{sx * B.scale.x, sy * B.scale.y, sz * B.scale.z});
}

void plane_box(int ip, const ShapeInfo& P, int ib, const ShapeInfo& B, real gap, std::vector<Record>& out) {
  vec3 n = axis_of(P.X, 2), corners[8];
  box_corners(B, corners);
  for (vec3 c : corners) {
    real d = dot(n, c - P.X.p);
    if (d > gap) continue;
    out.push_back({ip, ib, to_body(P, c - d * n), to_body(B, c), vec3{}, vec3{}, n, 0, 0});
  }
}

// The face of box S whose outward normal is closest to dir (used for the second box of a pair).
void facing_face(const ShapeInfo& S, vec3 dir, int& axis, real& sign) {
  real best = -1;
  for (int k = 0; k < 3; ++k) {
    real c = dot(axis_of(S.X, k), dir);
    if (std::fabs(c) > best) {
      best = std::fabs(c);
      axis = k;
      sign = c >= 0 ? 1 : -1;
    }
  }
}

// The face of box S that the point p lies farthest beyond (the separating face of a resting pair).
void face_toward(const ShapeInfo& S, vec3 p, int& axis, real& sign) {
  vec3 l = transform_point(transform_inverse(S.X), p);
  real best = 0;
  for (int k = 0; k < 3; ++k) {
    real c = std::fabs(comp(l, k)) - comp(S.scale, k);
    if (k == 0 || c > best) {
      best = c;
      axis = k;
      sign = comp(l, k) >= 0 ? 1 : -1;
    }
  }
}

// Corners of the face (axis, sign) of box S, in world.
void face_corners(const ShapeInfo& S, int axis, real sign, vec3* out) {
  int u = (axis + 1) % 3, v = (axis + 2) % 3, k = 0;
  for (int su = -1; su <= 1; su += 2)
    for (int sv = -1; sv <= 1; sv += 2) {
      real c[3];
      c[axis] = sign * comp(S.scale, axis);
      c[u] = su * comp(S.scale, u);
      c[v] = sv * comp(S.scale, v);
      out[k++] = transform_point(S.X, vec3{c[0], c[1], c[2]});
    }
}

// Whether world point p projects inside the face (axis) of box S, with a small tolerance [m].
bool inside_face(const ShapeInfo& S, int axis, vec3 p) {
  vec3 l = transform_point(transform_inverse(S.X), p);
  const real tol = 1e-9;
  for (int k = 0; k < 3; ++k)
    if (k != axis && std::fabs(comp(l, k)) > comp(S.scale, k) + tol) return false;
  return true;
}

void box_box(int ia, const ShapeInfo& A, int ib, const ShapeInfo& B, real gap, std::vector<Record>& out) {
  int fa = 0, fb = 0;
  real sa = 1, sb = 1;
  face_toward(A, B.X.p, fa, sa);
  vec3 n = sa * axis_of(A.X, fa);  // A's face normal, A -> B
  facing_face(B, -n, fb, sb);
  vec3 nb = sb * axis_of(B.X, fb);  // B's face normal, pointing back at A
  vec3 ca[4], cb[4];
  face_corners(A, fa, sa, ca);
  face_corners(B, fb, sb, cb);
  vec3 plane_a = ca[0], plane_b = cb[0];
  // Corners of B's face inside A's face: the A point is the projection onto A's face plane.
  for (vec3 p : cb) {
    if (!inside_face(A, fa, p)) continue;
    real d = dot(n, p - plane_a);
    if (d > gap) continue;
    out.push_back({ia, ib, to_body(A, p - d * n), to_body(B, p), vec3{}, vec3{}, n, 0, 0});
  }
  // Corners of A's face inside B's face (skipping ones that coincide with a B corner already added).
  for (vec3 p : ca) {
    if (!inside_face(B, fb, p)) continue;
    bool dup = false;
    for (vec3 q : cb)
      if (length(q - p - dot(n, q - p) * n) < 1e-9 && inside_face(A, fa, q)) dup = true;
    if (dup) continue;
    real den = dot(nb, n);
    if (std::fabs(den) < 1e-6) continue;
    real t = dot(nb, plane_b - p) / den;  // p + t n lies on B's face plane
    if (t > gap) continue;
    out.push_back({ia, ib, to_body(A, p), to_body(B, p + t * n), vec3{}, vec3{}, n, 0, 0});
  }
}

void sphere_sphere(int ia, const ShapeInfo& A, int ib, const ShapeInfo& B, real gap, std::vector<Record>& out) {
  vec3 dc = B.X.p - A.X.p;
  real dist = length(dc), ra = A.scale.x, rb = B.scale.x;
  if (dist - ra - rb > gap || dist == 0) return;
  vec3 n = dc / dist;
  out.push_back({ia, ib, to_body(A, A.X.p), to_body(B, B.X.p), dir_to_body(A, ra * n), dir_to_body(B, -rb * n), n, ra, rb});
}

}  // namespace

int collide_fixture(const Model& model, const State& state, Contacts& contacts, const FixtureOptions& opt) {
  if (contacts.model != &model) throw std::invalid_argument("collide_fixture: the contact record was made for another Model");
  auto shape_body = model.shape_body.to_host();
  auto shape_type = model.shape_type.to_host();
  auto shape_scale = model.shape_scale.to_host();
  auto shape_X = model.shape_transform.to_host();
  auto shape_flags = model.shape_flags.to_host();
  auto body_q = state.body_q.to_host();
  std::vector<ShapeInfo> s(model.shape_count);
  for (int i = 0; i < model.shape_count; ++i) {
    transform Xb = shape_body[i] >= 0 ? body_q[shape_body[i]] : transform_identity();
    s[i] = {shape_body[i], ShapeType(shape_type[i]), shape_scale[i], transform_multiply(Xb, shape_X[i]), Xb};
  }
  auto collides = [&](int i) { return (shape_flags[i] & shape_collide) != 0; };
  std::vector<Record> rec;
  std::vector<int> planes, boxes, spheres;
  for (int i = 0; i < model.shape_count; ++i) {
    if (!collides(i)) continue;
    if (s[i].type == ShapeType::plane) planes.push_back(i);
    if (s[i].type == ShapeType::box) boxes.push_back(i);
    if (s[i].type == ShapeType::sphere) spheres.push_back(i);
  }
  for (int p : planes) {
    for (int i : spheres)
      if (s[i].body != s[p].body) plane_sphere(p, s[p], i, s[i], opt.gap, rec);
    for (int i : boxes)
      if (s[i].body != s[p].body) plane_box(p, s[p], i, s[i], opt.gap, rec);
  }
  for (std::size_t a = 0; a < boxes.size(); ++a)
    for (std::size_t b = a + 1; b < boxes.size(); ++b) {
      const ShapeInfo &A = s[boxes[a]], &B = s[boxes[b]];
      if (A.body == B.body) continue;
      // The lower box (along gravity's opposite, world z) is shape0 so that the normal points up.
      if (A.X.p.z <= B.X.p.z) box_box(boxes[a], A, boxes[b], B, opt.gap, rec);
      else box_box(boxes[b], B, boxes[a], A, opt.gap, rec);
    }
  // Sphere pairs: a uniform grid of cell size 2 r_max + gap, neighbours in the 27 cells around.
  if (!spheres.empty()) {
    real rmax = 0;
    for (int i : spheres) rmax = std::fmax(rmax, s[i].scale.x);
    real cell = 2 * rmax + opt.gap;
    auto key = [](std::int64_t x, std::int64_t y, std::int64_t z) {
      return (x & 0x1FFFFF) | ((y & 0x1FFFFF) << 21) | ((z & 0x1FFFFF) << 42);
    };
    auto cell_of = [&](vec3 p, std::int64_t* c) {
      c[0] = std::int64_t(std::floor(p.x / cell));
      c[1] = std::int64_t(std::floor(p.y / cell));
      c[2] = std::int64_t(std::floor(p.z / cell));
    };
    std::unordered_map<std::int64_t, std::vector<int>> grid;
    for (int i : spheres) {
      std::int64_t c[3];
      cell_of(s[i].X.p, c);
      grid[key(c[0], c[1], c[2])].push_back(i);
    }
    for (int i : spheres) {
      std::int64_t c[3];
      cell_of(s[i].X.p, c);
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dz = -1; dz <= 1; ++dz) {
            auto it = grid.find(key(c[0] + dx, c[1] + dy, c[2] + dz));
            if (it == grid.end()) continue;
            for (int j : it->second)
              if (j > i && s[j].body != s[i].body) sphere_sphere(i, s[i], j, s[j], opt.gap, rec);
          }
    }
  }

  int n = int(rec.size()), stored = std::min(n, contacts.rigid_contact_max);
  std::vector<int> sh0(contacts.rigid_contact_max, -1), sh1(contacts.rigid_contact_max, -1);
  std::vector<vec3> p0(contacts.rigid_contact_max), p1(contacts.rigid_contact_max), o0(contacts.rigid_contact_max),
      o1(contacts.rigid_contact_max), nn(contacts.rigid_contact_max);
  std::vector<real> t0(contacts.rigid_contact_max), t1(contacts.rigid_contact_max);
  for (int k = 0; k < stored; ++k) {
    const Record& r = rec[k];
    sh0[k] = r.shape0;
    sh1[k] = r.shape1;
    p0[k] = r.point0;
    p1[k] = r.point1;
    o0[k] = r.offset0;
    o1[k] = r.offset1;
    nn[k] = r.normal;
    t0[k] = r.thickness0;
    t1[k] = r.thickness1;
  }
  contacts.rigid_contact_count.copy_from_host(&n);
  contacts.rigid_contact_shape0.copy_from_host(sh0.data());
  contacts.rigid_contact_shape1.copy_from_host(sh1.data());
  contacts.rigid_contact_point0.copy_from_host(p0.data());
  contacts.rigid_contact_point1.copy_from_host(p1.data());
  contacts.rigid_contact_offset0.copy_from_host(o0.data());
  contacts.rigid_contact_offset1.copy_from_host(o1.data());
  contacts.rigid_contact_normal.copy_from_host(nn.data());
  contacts.rigid_contact_margin0.copy_from_host(t0.data());
  contacts.rigid_contact_margin1.copy_from_host(t1.data());
  std::vector<real> mu(contacts.rigid_contact_max, opt.mu), mt(contacts.rigid_contact_max, opt.mu_torsional),
      mr(contacts.rigid_contact_max, opt.mu_rolling), e(contacts.rigid_contact_max, opt.restitution);
  contacts.rigid_contact_mu.copy_from_host(mu.data());
  contacts.rigid_contact_mu_torsional.copy_from_host(mt.data());
  contacts.rigid_contact_mu_rolling.copy_from_host(mr.data());
  contacts.rigid_contact_restitution.copy_from_host(e.data());
  return n;
}

}  // namespace impulse
