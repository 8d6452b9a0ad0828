// Hull and mesh checks, mesh BVH construction, mesh adjacency and the filter pairs of a Model.
#include "e3/collision/shape_geometry.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "e1/model.h"
#include "e3/collision/filter.h"
#include "e3/collision/narrow_phase.h"

namespace impulse {

const char* shape_type_name(int type) {
  switch (type) {
    case SHAPE_PLANE: return "plane";
    case SHAPE_SPHERE: return "sphere";
    case SHAPE_CAPSULE: return "capsule";
    case SHAPE_BOX: return "box";
    case SHAPE_CYLINDER: return "cylinder";
    case SHAPE_CONVEX_HULL: return "convex_hull";
    case SHAPE_MESH: return "mesh";
    case SHAPE_TRIANGLE: return "triangle";
    case SHAPE_CONE: return "cone";
  }
  return "unknown";
}

namespace {

bool finite(real x) { return std::isfinite(static_cast<double>(x)); }
bool finite(vec3 v) { return finite(v.x) && finite(v.y) && finite(v.z); }

// Median-split BVH over triangles [first, first + count) of tris (absolute triangle ids in order).
int build_bvh(std::vector<BvhNode>& nodes, std::vector<int>& order, const std::vector<aabb>& box, int begin, int end) {
  BvhNode node;
  node.box = box[order[begin]];
  for (int i = begin + 1; i < end; ++i) {
    node.box.lo = vmin(node.box.lo, box[order[i]].lo);
    node.box.hi = vmax(node.box.hi, box[order[i]].hi);
  }
  const int id = static_cast<int>(nodes.size());
  nodes.push_back(node);
  if (end - begin <= 2) {
    nodes[id].first = begin;
    nodes[id].count = end - begin;
    return id;
  }
  const vec3 ext = node.box.hi - node.box.lo;
  const int axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2);
  auto key = [&](int t) {
    const vec3 c = (box[t].lo + box[t].hi) * real(0.5);
    return axis == 0 ? c.x : (axis == 1 ? c.y : c.z);
  };
  const int mid = (begin + end) / 2;
  std::nth_element(order.begin() + begin, order.begin() + mid, order.begin() + end,
                   [&](int a, int b) { return key(a) < key(b) || (key(a) == key(b) && a < b); });
  const int l = build_bvh(nodes, order, box, begin, mid);
  const int r = build_bvh(nodes, order, box, mid, end);
  nodes[id].left = l;
  nodes[id].right = r;
  return id;
}

// Edge adjacency of n triangles (3 welded vertex indices each, tris): nbr[3 t + k] is the local
// triangle across edge k (vertex k -> vertex (k + 1) % 3), or -1. Returns false for an edge used by
// more than two triangles and reports it in bad (3 t + k of its first use) and uses.
bool edge_neighbors(const int* tris, int n, std::vector<int>& nbr, int& bad, int& uses) {
  std::vector<std::tuple<int, int, int>> edges;  // (lower vertex, higher vertex, 3 t + k)
  edges.reserve(3 * static_cast<std::size_t>(n));
  for (int t = 0; t < n; ++t)
    for (int k = 0; k < 3; ++k) {
      const int a = tris[3 * t + k], b = tris[3 * t + (k + 1) % 3];
      edges.emplace_back(std::min(a, b), std::max(a, b), 3 * t + k);
    }
  std::sort(edges.begin(), edges.end());
  nbr.assign(3 * static_cast<std::size_t>(n), -1);
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i + 1;
    while (j < edges.size() && std::get<0>(edges[j]) == std::get<0>(edges[i]) &&
           std::get<1>(edges[j]) == std::get<1>(edges[i]))
      ++j;
    if (j - i > 2) {
      bad = std::get<2>(edges[i]);
      uses = static_cast<int>(j - i);
      return false;
    }
    if (j - i == 2) {
      nbr[std::get<2>(edges[i])] = std::get<2>(edges[i + 1]) / 3;
      nbr[std::get<2>(edges[i + 1])] = std::get<2>(edges[i]) / 3;
    }
    i = j;
  }
  return true;
}

}  // namespace

HullFaces checked_hull_faces(const std::vector<vec3>& points, vec3 scale, const std::string& who) {
  if (points.size() < 4) throw std::invalid_argument(who + ": needs at least 4 points");
  if (!(scale.x > 0 && scale.y > 0 && scale.z > 0)) throw std::invalid_argument(who + ": scale must be > 0");
  // Not coplanar: some point lies off the plane of a non-degenerate triangle.
  real size = 0;
  for (const vec3& p : points) {
    if (!finite(p)) throw std::invalid_argument(who + ": a point is not finite");
    size = std::max(size, length(p - points[0]));
  }
  bool solid = false;
  for (std::size_t i = 1; i < points.size() && !solid; ++i)
    for (std::size_t j = i + 1; j < points.size() && !solid; ++j) {
      const vec3 n = cross(points[i] - points[0], points[j] - points[0]);
      if (length(n) <= 1e-9 * size * size) continue;
      for (const vec3& p : points)
        if (std::abs(dot(normalize(n), p - points[0])) > 1e-9 * size) solid = true;
    }
  if (!solid) throw std::invalid_argument(who + ": the points are coplanar (a hull needs volume)");
  HullFaces faces = convex_hull_faces(points, who);
  const int face_count = static_cast<int>(faces.normals.size());
  for (int f = 0; f < face_count; ++f) {
    const int n = faces.start[f + 1] - faces.start[f];
    if (n > kMaxFeature)
      throw std::invalid_argument(who + ": hull face " + std::to_string(f) + " has " + std::to_string(n) +
                                  " vertices, more than the " + std::to_string(kMaxFeature) +
                                  " a manifold clips (kMaxFeature): use fewer points on that face");
  }
  return faces;
}

std::vector<int> checked_mesh_triangles(int body, const std::vector<vec3>& vertices, const std::vector<int>& tris,
                                        vec3 scale, const std::string& who, bool hydroelastic) {
  if (tris.empty() || tris.size() % 3 != 0)
    throw std::invalid_argument(who + ": needs a non-empty triangle list with 3 indices per triangle");
  if (!(scale.x > 0 && scale.y > 0 && scale.z > 0)) throw std::invalid_argument(who + ": scale must be > 0");
  for (const vec3& v : vertices)
    if (!finite(v)) throw std::invalid_argument(who + ": a vertex is not finite");
  const int nv = static_cast<int>(vertices.size());
  for (std::size_t t = 0; t < tris.size() / 3; ++t) {
    for (int k = 0; k < 3; ++k)
      if (tris[3 * t + k] < 0 || tris[3 * t + k] >= nv)
        throw std::invalid_argument(who + ": triangle " + std::to_string(t) + " indexes vertex " +
                                    std::to_string(tris[3 * t + k]) + " of " + std::to_string(nv));
    const vec3 a = mul_elem(vertices[tris[3 * t]], scale), b = mul_elem(vertices[tris[3 * t + 1]], scale),
               c = mul_elem(vertices[tris[3 * t + 2]], scale);
    const real e = std::max({length(b - a), length(c - a), length(c - b)});
    if (!(length(cross(b - a, c - a)) > 1e-12 * e * e) || e <= 0)
      throw std::invalid_argument(who + ": triangle " + std::to_string(t) + " is degenerate (zero area)");
  }
  // Weld vertices at exactly the same position: each index maps to the first vertex there.
  std::map<std::tuple<real, real, real>, int> first_at;
  std::vector<int> welded(tris.size());
  for (std::size_t i = 0; i < tris.size(); ++i) {
    const vec3 p = vertices[tris[i]];
    welded[i] = first_at.emplace(std::make_tuple(p.x, p.y, p.z), tris[i]).first->second;
  }
  std::vector<int> nbr;
  int bad = 0, uses = 0;
  if (!edge_neighbors(welded.data(), static_cast<int>(tris.size() / 3), nbr, bad, uses))
    throw std::invalid_argument(who + ": the edge between vertices " + std::to_string(welded[bad]) + " and " +
                                std::to_string(welded[bad - bad % 3 + (bad + 1) % 3]) + " is shared by " +
                                std::to_string(uses) +
                                " triangles (non-manifold; at most 2 are allowed: split the mesh into shapes)");
  if (hydroelastic)
    for (std::size_t e = 0; e < nbr.size(); ++e)
      if (nbr[e] < 0)
        throw std::invalid_argument(who + ": the edge between vertices " + std::to_string(welded[e]) + " and " +
                                    std::to_string(welded[e - e % 3 + (e + 1) % 3]) +
                                    " bounds one triangle; a hydroelastic mesh must be closed (watertight: its "
                                    "signed-distance volume needs an inside)");
  if (body >= 0)
    for (std::size_t e = 0; e < nbr.size(); ++e)
      if (nbr[e] < 0)
        throw std::invalid_argument(who + ": the edge between vertices " + std::to_string(welded[e]) + " and " +
                                    std::to_string(welded[e - e % 3 + (e + 1) % 3]) +
                                    " bounds one triangle; a mesh on a body must be closed (body " +
                                    std::to_string(body) + "; open meshes are static only, body -1)");
  return welded;
}

void finalize_shape_geometry(const ModelBuilder& b, Device d, Model& m) {
  const int n = b.shape_count();
  const std::vector<vec3>& points_ = b.geo_points;
  const std::vector<int>& triangles_ = b.geo_triangles;
  const std::vector<vec3>& scale_ = b.shape_scale;
  std::vector<int> type_(n);
  for (int s = 0; s < n; ++s) type_[s] = int(b.shape_type[s]);
  const std::vector<int>& src_start_ = b.shape_source_start;
  const std::vector<int>& src_count_ = b.shape_source_count;
  // Mesh BVHs: one tree per mesh, triangles reordered so that leaves are contiguous.
  std::vector<int> tris_out(triangles_.size());
  std::vector<BvhNode> nodes;
  std::vector<int> root(n, -1), start = src_start_;
  for (int s = 0; s < n; ++s) {
    if (type_[s] != SHAPE_MESH) continue;
    const int first = src_start_[s], count = src_count_[s];
    std::vector<aabb> box(triangles_.size() / 3);
    std::vector<int> order(count);
    for (int t = 0; t < count; ++t) {
      const int tri = first + t;
      order[t] = tri;
      vec3 a = mul_elem(points_[triangles_[3 * tri]], scale_[s]), b = mul_elem(points_[triangles_[3 * tri + 1]], scale_[s]),
           c = mul_elem(points_[triangles_[3 * tri + 2]], scale_[s]);
      box[tri] = {vmin(a, vmin(b, c)), vmax(a, vmax(b, c))};
    }
    std::vector<int> local(order);
    const std::size_t node_base = nodes.size();
    root[s] = build_bvh(nodes, local, box, 0, count);
    for (std::size_t k = node_base; k < nodes.size(); ++k)
      if (nodes[k].count > 0) nodes[k].first += first;
    for (int t = 0; t < count; ++t)
      for (int k = 0; k < 3; ++k) tris_out[3 * (first + t) + k] = triangles_[3 * local[t] + k];
  }
  // Mesh adjacency on the final triangle order: neighbours, edge classes (scaled shape frame, where
  // angles are those of the collided geometry), vertex owners and vertex rings (CSR).
  std::vector<int> edge_nbr(tris_out.size(), -1), edge_class(tris_out.size(), EDGE_BOUNDARY);
  std::vector<int> owner(points_.size(), -1), ring_start(points_.size() + 1, 0), ring;
  std::vector<std::pair<int, int>> links;
  for (int s = 0; s < n; ++s) {
    if (type_[s] != SHAPE_MESH) continue;
    const int first = src_start_[s], count = src_count_[s];
    std::vector<int> nbr;
    int bad = 0, uses = 0;
    edge_neighbors(tris_out.data() + 3 * first, count, nbr, bad, uses);  // manifold: checked in add_shape_mesh
    auto P = [&](int i) { return mul_elem(points_[i], scale_[s]); };
    for (int t = first; t < first + count; ++t)
      for (int k = 0; k < 3; ++k) {
        const int ia = tris_out[3 * t + k], ib = tris_out[3 * t + (k + 1) % 3], ic = tris_out[3 * t + (k + 2) % 3];
        if (owner[ia] < 0) owner[ia] = t;
        links.push_back({ia, ib});
        links.push_back({ib, ia});
        const int local = nbr[3 * (t - first) + k];
        if (local < 0) continue;
        const int u = first + local;
        int id = tris_out[3 * u];
        for (int j = 0; j < 3; ++j)
          if (tris_out[3 * u + j] != ia && tris_out[3 * u + j] != ib) id = tris_out[3 * u + j];
        edge_nbr[3 * t + k] = u;
        edge_class[3 * t + k] = classify_mesh_edge(P(ia), P(ib), P(ic), P(id));
      }
  }
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  for (const auto& l : links) ++ring_start[l.first + 1];
  for (std::size_t i = 1; i < ring_start.size(); ++i) ring_start[i] += ring_start[i - 1];
  for (const auto& l : links) ring.push_back(l.second);  // links are sorted by their first vertex
  std::vector<std::int64_t> excl, joints;
  for (const auto& [s0, s1] : b.shape_collision_filter_pairs) excl.push_back(pair_key(s0, s1));
  for (int j = 0; j < b.joint_count(); ++j)
    if (b.joint_parent[j] >= 0) joints.push_back(pair_key(b.joint_parent[j], b.joint_child[j]));
  std::sort(excl.begin(), excl.end());
  excl.erase(std::unique(excl.begin(), excl.end()), excl.end());
  std::sort(joints.begin(), joints.end());
  joints.erase(std::unique(joints.begin(), joints.end()), joints.end());

  m.shape_source_start = Buffer<int>(d, start);
  m.shape_source_count = Buffer<int>(d, src_count_);
  m.shape_bvh_root = Buffer<int>(d, root);
  m.geo_points = Buffer<vec3>(d, points_);
  std::vector<int> shape_face_start(n + 1, 0);
  for (int s = 0; s < n; ++s) shape_face_start[s + 1] = shape_face_start[s] + b.shape_hull_face_count[s];
  m.shape_face_start = Buffer<int>(d, shape_face_start);
  m.hull_face_start = Buffer<int>(d, b.hull_face_start);
  m.hull_face_vertices = Buffer<int>(d, b.hull_face_vertices);
  m.hull_face_normals = Buffer<vec3>(d, b.hull_face_normals);
  m.mesh_triangles = Buffer<int>(d, tris_out);
  m.mesh_bvh_nodes = Buffer<BvhNode>(d, nodes);
  m.mesh_edge_neighbor = Buffer<int>(d, edge_nbr);
  m.mesh_edge_class = Buffer<int>(d, edge_class);
  m.mesh_vertex_owner = Buffer<int>(d, owner);
  m.mesh_vertex_ring_start = Buffer<int>(d, ring_start);
  m.mesh_vertex_ring = Buffer<int>(d, ring);
  m.shape_collision_filter_pairs = Buffer<std::int64_t>(d, excl);
  m.joint_filter_body_pairs = Buffer<std::int64_t>(d, joints);
}

}  // namespace impulse
