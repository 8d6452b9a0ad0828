// Body-body penetration of a pile from poses (see pile_overlap.h).
#include "bench/pile_overlap.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace impulse::course {

namespace {

struct D3 {
  double x, y, z;
};
D3 sub(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 cross(D3 a, D3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
D3 of(vec3 v) { return {double(v.x), double(v.y), double(v.z)}; }

// The three body axes of a pose (columns of its rotation) in world.
void axes(const transform& X, D3 u[3]) {
  u[0] = of(quat_rotate(X.q, vec3{1, 0, 0}));
  u[1] = of(quat_rotate(X.q, vec3{0, 1, 0}));
  u[2] = of(quat_rotate(X.q, vec3{0, 0, 1}));
}

std::int64_t cell_key(long i, long j, long k) {
  return (std::int64_t(i) * 73856093) ^ (std::int64_t(j) * 19349663) ^ (std::int64_t(k) * 83492791);
}

}  // namespace

// For a unit axis L: overlap = a (sum_k |u_k.L| + sum_k |v_k.L|) - |d.L|; the depth is the least
// overlap over the 15 axes (axes of near-zero length, parallel edges, are skipped).
double box_box_depth(double a, const transform& A, const transform& B) {
  D3 u[3], v[3];
  axes(A, u);
  axes(B, v);
  const D3 d = sub(of(B.p), of(A.p));
  double depth = 1e300;
  auto test = [&](D3 L) {
    const double len = std::sqrt(dot(L, L));
    if (len < 1e-9) return true;
    L = {L.x / len, L.y / len, L.z / len};
    double ra = 0, rb = 0;
    for (int k = 0; k < 3; ++k) ra += std::abs(dot(u[k], L)), rb += std::abs(dot(v[k], L));
    const double overlap = a * (ra + rb) - std::abs(dot(d, L));
    if (overlap <= 0) return false;
    depth = std::min(depth, overlap);
    return true;
  };
  for (int k = 0; k < 3; ++k)
    if (!test(u[k]) || !test(v[k])) return 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (!test(cross(u[i], v[j]))) return 0;
  return depth;
}

PileOverlap pile_overlap(const std::string& kind, double size, const std::vector<transform>& q) {
  const bool spheres = kind == "spheres";
  const double reach = spheres ? 2 * size : 2 * std::sqrt(3.0) * size;  // centres closer may overlap
  std::unordered_multimap<std::int64_t, int> grid;
  grid.reserve(q.size());
  auto cell = [&](double x) { return long(std::floor(x / reach)); };
  for (std::size_t b = 0; b < q.size(); ++b) grid.emplace(cell_key(cell(q[b].p.x), cell(q[b].p.y), cell(q[b].p.z)), int(b));
  PileOverlap r;
  for (std::size_t b = 0; b < q.size(); ++b) {
    const long ci = cell(q[b].p.x), cj = cell(q[b].p.y), ck = cell(q[b].p.z);
    for (long di = -1; di <= 1; ++di)
      for (long dj = -1; dj <= 1; ++dj)
        for (long dk = -1; dk <= 1; ++dk) {
          auto range = grid.equal_range(cell_key(ci + di, cj + dj, ck + dk));
          for (auto it = range.first; it != range.second; ++it) {
            const int o = it->second;
            if (o <= int(b)) continue;
            const D3 d = sub(of(q[o].p), of(q[b].p));
            if (cell(q[o].p.x) != ci + di || cell(q[o].p.y) != cj + dj || cell(q[o].p.z) != ck + dk) continue;
            if (dot(d, d) >= reach * reach) continue;
            const double depth = spheres ? 2 * size - std::sqrt(dot(d, d)) : box_box_depth(size, q[b], q[o]);
            if (depth <= 0) continue;
            r.max_depth = std::max(r.max_depth, depth);
            r.mean_depth += depth;
            ++r.pairs;
          }
        }
  }
  if (r.pairs) r.mean_depth /= r.pairs;
  return r;
}

}  // namespace impulse::course
