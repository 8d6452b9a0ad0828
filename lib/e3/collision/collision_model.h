// The collision model: the constant shape data the collision pipeline reads (course E3 §2).
//
// A structure of arrays named as Newton's Model names them (shape_body, shape_transform,
// shape_world, shape_collision_group, ...), so that an adapter from the E1 Model is a field-by-field
// copy. Body poses are not part of it: collide() takes body_q from the State it is given
// (E3.2-collide-uses-passed-state).
//
// CollisionSceneBuilder is a small builder of its own for tests, scenes and benchmarks; it
// validates every shape and names the bad one in its error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/buffer.h"
#include "core/math.h"
#include "e3/collision/filter.h"
#include "e3/collision/geometry.h"
#include "e3/contacts/materials.h"

namespace impulse {

/// A node of a triangle-mesh bounding-volume hierarchy, in the mesh's (scaled) shape frame.
struct BvhNode {
  aabb box;       // [m]
  int left = -1;  // child node indices (absolute); -1 for a leaf
  int right = -1;
  int first = 0;  // leaf: first triangle (absolute index into mesh_triangles / 3)
  int count = 0;  // leaf: number of triangles; 0 for an inner node
};

class Model;

struct CollisionModel {
  const Model* model = nullptr;  // the Model it was built from (collision_model_from); null for a scene-builder model
  Device device = Device::cpu;
  int shape_count = 0;
  int body_count = 0;
  real rigid_gap = 0.1;  // the builder's default shape gap [m]

  Buffer<int> shape_type;              // CollisionShapeType (shape_count)
  Buffer<int> shape_body;              // owning body, -1 = static world shape (shape_count)
  Buffer<transform> shape_transform;   // shape pose in its body's frame (world for body -1) (shape_count)
  Buffer<vec3> shape_scale;            // sizes, see geometry.h [m] or [-] (shape_count)
  Buffer<real> shape_margin;           // outward surface offset [m] (shape_count)
  Buffer<real> shape_gap;              // extra detection distance beyond the surface [m] (shape_count)
  Buffer<int> shape_world;             // world index, -1 = shared by all worlds (shape_count)
  Buffer<int> shape_collision_group;   // 0 = none; see test_group_pair (shape_count)
  Buffer<ShapeMaterial> shape_material;  // generic material record (shape_count)
  Buffer<int> shape_source_start;      // hull: first point; mesh: first triangle (shape_count)
  Buffer<int> shape_source_count;      // hull: point count; mesh: triangle count (shape_count)
  Buffer<int> shape_bvh_root;          // mesh: root node in mesh_bvh_nodes, else -1 (shape_count)

  Buffer<vec3> geo_points;             // hull vertices and mesh vertices, unscaled shape frame [m]
  // Convex hull faces (Qhull, coplanar facets merged), all hulls' faces in shape order: shape s owns
  // faces [shape_face_start[s], shape_face_start[s + 1]) (none unless s is a hull). Face f has the
  // vertices hull_face_vertices[hull_face_start[f] .. hull_face_start[f + 1]), at most kMaxFeature,
  // counter-clockwise seen from outside; a vertex index i is local to its hull: the point
  // geo_points[shape_source_start[s] + i].
  Buffer<int> shape_face_start;        // CSR start into the faces per shape (shape_count + 1)
  Buffer<int> hull_face_start;         // CSR start into hull_face_vertices per face (faces + 1)
  Buffer<int> hull_face_vertices;      // hull-local point indices, counter-clockwise from outside
  Buffer<vec3> hull_face_normals;      // outward unit normal per face, unscaled shape frame [-]
  Buffer<int> mesh_triangles;          // 3 absolute indices into geo_points per triangle (welded)
  Buffer<BvhNode> mesh_bvh_nodes;      // all meshes' BVH nodes
  // Mesh adjacency (route b's edge and vertex features); edge k of triangle t runs from vertex k to
  // vertex (k + 1) % 3, stored at 3 t + k.
  Buffer<int> mesh_edge_neighbor;      // triangle across edge k (absolute), -1 on a boundary (3 per triangle)
  Buffer<int> mesh_edge_class;         // MeshEdgeClass of edge k, relative to t's winding (3 per triangle)
  Buffer<int> mesh_vertex_owner;       // lowest triangle using geo_points[i], -1 if none (geo_points size)
  Buffer<int> mesh_vertex_ring_start;  // CSR start into mesh_vertex_ring per geo_points entry (size + 1)
  Buffer<int> mesh_vertex_ring;        // vertices joined to each vertex by a mesh edge (geo_points indices)

  Buffer<std::int64_t> shape_collision_filter_pairs;  // sorted pair_key(s0, s1): explicit exclusions
  Buffer<std::int64_t> joint_filter_body_pairs;       // sorted pair_key(parent, child): filtered joints
  Buffer<std::int64_t> shape_contact_pairs;           // sorted pairs passing every filter (explicit mode)
  bool has_shape_contact_pairs = false;

  FilterView filter_view() const {
    return {shape_world.view(), shape_collision_group.view(), shape_body.view(), shape_collision_filter_pairs.view(),
            joint_filter_body_pairs.view()};
  }
};

/// Per-shape options of CollisionSceneBuilder.
struct ShapeOptions {
  transform xform = transform_identity();  // pose in the body frame (world for body -1)
  real margin = 0;                         // [m], >= 0
  real gap = -1;                           // [m]; < 0 means unset: the builder's rigid_gap is used
  int world = -1;                          // -1 shared, else >= 0
  int collision_group = 1;                 // Newton's default group
  ShapeMaterial material;
  bool is_hydroelastic = false;            // only for the route rule; see add_shape_plane
  std::string label;                       // optional name used in messages
};

class CollisionSceneBuilder {
 public:
  real rigid_gap = 0.1;  // default shape gap [m] (Newton ModelBuilder.rigid_gap)

  /// Adds a body and its initial pose (world frame); returns its index.
  int add_body(const transform& body_q = transform_identity(), const std::string& label = "");

  /// Infinite plane z = 0 of its frame, normal +z. A plane's hydroelastic flag is always switched
  /// off (E3.2-hydro-preconditions), as in Newton.
  int add_shape_plane(int body, ShapeOptions o = {});
  int add_shape_sphere(int body, real radius, ShapeOptions o = {});
  /// Capsule along the local z axis: radius and half height of the segment [m].
  int add_shape_capsule(int body, real radius, real half_height, ShapeOptions o = {});
  /// Box of half extents (hx, hy, hz) [m].
  int add_shape_box(int body, real hx, real hy, real hz, ShapeOptions o = {});
  /// Cylinder along the local z axis: radius and half height [m].
  int add_shape_cylinder(int body, real radius, real half_height, ShapeOptions o = {});
  /// Convex hull of the given points (at least 4, not coplanar), scaled per axis. Its faces are
  /// computed here (Qhull); a face with more than kMaxFeature vertices is an error naming the shape,
  /// the face and its size.
  int add_shape_convex_hull(int body, const std::vector<vec3>& points, vec3 scale = {1, 1, 1}, ShapeOptions o = {});
  /// Static triangle mesh (body must be -1): vertices, 3 indices per triangle, per-axis scale.
  /// Vertices at exactly the same position are one vertex (welded) for the adjacency; an edge
  /// shared by more than two triangles (non-manifold) is an error naming the shape and the edge.
  /// Triangles are two-sided; the winding (counter-clockwise = front) only orients the edge classes.
  int add_shape_mesh(int body, const std::vector<vec3>& vertices, const std::vector<int>& triangles,
                     vec3 scale = {1, 1, 1}, ShapeOptions o = {});

  /// Explicit exclusion pair: the two shapes never collide (E3.2-same-body-filter).
  void add_shape_collision_filter_pair(int s0, int s1);
  /// Records a joint between parent and child bodies; with collision_filter_parent the shapes of
  /// the two bodies never collide (Newton's joint parent/child filter).
  void add_joint(int parent, int child, bool collision_filter_parent = true);

  int shape_count() const { return static_cast<int>(type_.size()); }
  int body_count() const { return static_cast<int>(body_q_.size()); }
  const std::vector<transform>& body_q() const { return body_q_; }

  /// Builds the model on device d. explicit_pairs: also precompute shape_contact_pairs, the pairs
  /// that pass every filter (needed by the explicit broad phase; O(n^2) on the host).
  CollisionModel finalize(Device d = Device::cpu, bool explicit_pairs = true) const;

 private:
  int add_shape(int body, int type, vec3 scale, ShapeOptions& o);

  std::vector<transform> body_q_;
  std::vector<int> type_, body_, world_, group_, src_start_, src_count_;
  std::vector<transform> xform_;
  std::vector<vec3> scale_;
  std::vector<real> margin_, gap_;
  std::vector<ShapeMaterial> material_;
  std::vector<vec3> points_;
  std::vector<int> triangles_;
  // Hull faces as CollisionModel stores them; face_count_ per shape.
  std::vector<int> face_count_, face_start_ = {0}, face_vertices_;
  std::vector<vec3> face_normals_;
  std::vector<std::int64_t> exclusions_, joint_pairs_;
};

}  // namespace impulse
