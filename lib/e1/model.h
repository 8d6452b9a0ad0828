// ModelBuilder -> Model -> State / Control (course E1 §1-§5, Newton's names).
//
// ModelBuilder is editable host data: bodies (links), joints, articulations and shapes, with their
// initial values. finalize(device) validates it, lays out the index tables and copies everything into
// a Model of device arrays (structure of arrays). The Model is not linked to the builder: editing
// the builder afterwards changes nothing until the next finalize. model.state() and
// model.control() clone the Model's initial values; a State holds the mutable physical state and no
// clock (the caller keeps time).
//
// Numbering spaces are separate: body IDs, shape IDs, joint IDs, articulation IDs and positions in
// joint_q / joint_qd (found through joint_q_start / joint_qd_start) are different counters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/buffer.h"
#include "core/spatial.h"
#include "e1/joints.h"
#include "e1/mass.h"
#include "e3/collision/filter.h"
#include "e3/collision/geometry.h"
#include "e3/collision/mesh_sdf.h"

namespace impulse {

enum class Axis : int { x = 0, y = 1, z = 2 };

/// Stored per-body flag. There is no STATIC flag: static geometry is a shape with body = -1.
enum class BodyFlag : int { dynamic = 1, kinematic = 2 };

/// One shape numbering for the builder, the Model and the collision pipeline (the values are the
/// collision kernels' CollisionShapeType, e3/collision/geometry.h).
enum class ShapeType : int { plane = 0, sphere = 1, capsule = 2, box = 3, cylinder = 4, convex_hull = 5, mesh = 6, cone = 8 };

/// Bits of Model::shape_flags (Newton's ShapeFlags: VISIBLE, COLLIDE_SHAPES, HYDROELASTIC).
enum ShapeFlagBits : int { shape_visible = 1, shape_collide = 2, shape_hydroelastic = 16 };

/// Per-shape settings of add_shape_* (course E1 §2, E3 §3), Newton
/// 1.6.1's ModelBuilder.ShapeConfig fields and defaults (newton/_src/sim/builder.py). Checked when
/// the shape is added (validate_shape_config); finalize writes them per shape into the Model
/// (shape_material_*, shape_margin, shape_gap, shape_collision_group, shape_flags).
struct ShapeConfig {
  real density = 1000;          // [kg/m^3]; 0 adds no mass
  real ke = 2.5e3;              // normal contact stiffness [N/m]
  real kd = 100.0;              // normal contact damping [N s/m]
  real kf = 1000.0;             // friction damping [N s/m]
  real ka = 0.0;                // adhesion distance [m]
  real mu = 1.0;                // Coulomb friction coefficient [-]
  real restitution = 0.0;       // coefficient of restitution [-], in [0, 1]
  real mu_torsional = 0.005;    // torsional friction [m]
  real mu_rolling = 0.0001;     // rolling friction [m]
  real margin = 0.0;            // outward surface offset [m]
  real gap = -1;                // extra detection distance [m]; < 0 = unset: the builder's rigid_gap (Newton: None)
  int collision_group = 1;      // 0 = collides with nothing; negative: with every group but its own
  bool is_static = false;       // contributes zero mass; does NOT freeze the body it belongs to
  bool is_visible = true;       // drawn
  bool has_shape_collision = true;  // takes part in shape-shape collision
  // Route (c), hydroelastic contact on SDFs (E3 §2): primitives use closed forms, a mesh gets a
  // signed-distance volume at finalize (voxel: sdf_target_voxel_size, else its longest side /
  // sdf_max_resolution; padding sdf_padding, else 2 voxels; see mesh_sdf.h).
  bool is_hydroelastic = false; // both shapes of a pair must set it; switched off for planes
  real kh = 1.0e10;             // hydroelastic pressure modulus [N/m^3]
  real sdf_narrow_band_range[2] = {-0.1, 0.1};  // (inner < 0 < outer) [m]
  real sdf_target_voxel_size = 0;  // [m]; 0 = unset (Newton: None), else > 0
  int sdf_max_resolution = 0;      // voxels; 0 = unset (Newton: None), else a positive multiple of 8 below 65536
  real sdf_padding = -1;           // [m]; < 0 = unset (Newton: None)
  bool force_sdf = false;
};

/// Checks every field of cfg for a shape of type t; throws std::invalid_argument with one line
/// naming who, the field, its value and its domain.
void validate_shape_config(const ShapeConfig& cfg, ShapeType t, const std::string& who);

/// One correction finalize applied to input data (bound_mass, bound_inertia, balance_inertia);
/// the values before and after are both kept.
struct InertiaCorrection {
  int body = -1;
  std::string label;
  std::string field;       // "mass (bound_mass)", "inertia (bound_inertia)" or "inertia (balance_inertia)"
  real mass_before = 0;    // [kg]
  real mass_after = 0;     // [kg]
  mat33 before;            // [kg m^2] inertia before this correction
  mat33 after;             // [kg m^2] inertia after it
};

struct State;
struct Control;
class Model;
class ModelBuilder;
void finalize_shape_geometry(const ModelBuilder& b, Device d, Model& m);

/// An array of a finalized Model: read-only to everyone but the builder that fills it (const views,
/// const data, host copies, and conversion to a const Buffer for a deep copy). Nothing edits a
/// finalized model's arrays by hand; a change goes through the builder and a new finalize.
template <class T>
class ModelArray {
 public:
  ModelArray() = default;
  std::int64_t size() const { return b_.size(); }
  Device device() const { return b_.device(); }
  const T* data() const { return b_.data(); }
  View<const T> view() const { return b_.view(); }
  std::vector<T> to_host() const { return b_.to_host(); }
  operator const Buffer<T>&() const { return b_; }

 private:
  friend class ModelBuilder;
  friend class Model;
  friend void finalize_shape_geometry(const ModelBuilder& b, Device d, Model& m);
  friend void finalize_sdf_volumes(const ModelBuilder& b, Device d, Model& m);
  ModelArray& operator=(Buffer<T> b) {
    b_ = std::move(b);
    return *this;
  }
  View<T> mutable_view() { return b_.view(); }
  Buffer<T> b_;
};

struct HullFaces;

class ModelBuilder {
 public:
  /// up_axis defaults to Z (right-handed). gravity, when omitted, is 9.81 m/s^2 along -up_axis;
  /// an explicit vector [m/s^2] is kept as given, whatever up_axis is.
  explicit ModelBuilder(Axis up_axis = Axis::z, std::optional<vec3> gravity = std::nullopt);

  Axis up_axis;
  vec3 gravity;                  // [m/s^2]
  // Optional corrections applied by finalize, each recorded in Model::corrections (never silent):
  bool balance_inertia = false;  // rebalance triangle-violating inertias
  real bound_mass = 0;           // [kg] when > 0, raise smaller masses of dynamic bodies to it
  real bound_inertia = 0;        // [kg m^2] when > 0, raise principal moments below it to it
  real rigid_gap = 0.1;          // [m] the gap of every shape whose ShapeConfig leaves gap unset
  int current_world = -1;        // world of the shapes added next; -1 = shared by every world

  /// A body (link) with no joint. xform: world pose of the body origin. mass/com/inertia: explicit
  /// values [kg, m, kg m^2 about com] to which shape masses are added (unless lock_inertia).
  int add_link(const transform& xform = transform_identity(), const MassProperties& explicit_mass = {},
               bool lock_inertia = false, bool is_kinematic = false, const std::string& label = "");
  /// Convenience: one link, one FREE joint from the world and a one-body articulation. Returns the body ID.
  int add_body(const transform& xform = transform_identity(), const MassProperties& explicit_mass = {},
               bool lock_inertia = false, bool is_kinematic = false, const std::string& label = "");

  // Joints return a joint ID. parent = -1 is the world. Axes are directions in the joint frame
  // (normalised at finalize; zero length is rejected).
  int add_joint_revolute(int parent, int child, const transform& parent_xform, const transform& child_xform,
                         vec3 axis, const std::string& label = "");
  int add_joint_prismatic(int parent, int child, const transform& parent_xform, const transform& child_xform,
                          vec3 axis, const std::string& label = "");
  int add_joint_ball(int parent, int child, const transform& parent_xform = transform_identity(),
                     const transform& child_xform = transform_identity(), const std::string& label = "");
  int add_joint_free(int child, const transform& parent_xform = transform_identity(),
                     const transform& child_xform = transform_identity(), int parent = -1, const std::string& label = "");
  /// Same 7/6 layout as FREE, plus a constraint keeping the anchor distance in [min_distance, max_distance] [m].
  int add_joint_distance(int parent, int child, const transform& parent_xform, const transform& child_xform,
                         real min_distance, real max_distance, const std::string& label = "");
  int add_joint_fixed(int parent, int child, const transform& parent_xform = transform_identity(),
                      const transform& child_xform = transform_identity(), const std::string& label = "");
  /// D6 with the given linear then angular axes (0..3 each); q/qd sizes = number of axes.
  int add_joint_d6(int parent, int child, const transform& parent_xform, const transform& child_xform,
                   const std::vector<vec3>& linear_axes, const std::vector<vec3>& angular_axes,
                   const std::string& label = "");
  /// Groups joints (contiguous, increasing IDs, parents before children) into an articulation.
  int add_articulation(const std::vector<int>& joints, const std::string& label = "");

  // Shapes return a shape ID. body = -1: static world geometry. xform is relative to the body.
  int add_shape_box(int body, const transform& xform, real hx, real hy, real hz, const ShapeConfig& cfg = {},
                    const std::string& label = "");
  int add_shape_sphere(int body, const transform& xform, real radius, const ShapeConfig& cfg = {},
                       const std::string& label = "");
  int add_shape_capsule(int body, const transform& xform, real radius, real half_height,
                        const ShapeConfig& cfg = {}, const std::string& label = "");
  int add_shape_cylinder(int body, const transform& xform, real radius, real half_height,
                         const ShapeConfig& cfg = {}, const std::string& label = "");
  /// Solid cone along the shape's local z: base disk of radius at z = -half_height, apex at
  /// +half_height (Newton's cone; the origin is half way up, the COM a quarter of the height above the base).
  int add_shape_cone(int body, const transform& xform, real radius, real half_height, const ShapeConfig& cfg = {},
                     const std::string& label = "");
  /// Plane through the xform origin with normal +z of the xform; width/length 0 = infinite. No mass.
  /// Its hydroelastic flag is always switched off (E3.2-hydro-preconditions), as in Newton.
  int add_shape_plane(int body = -1, const transform& xform = transform_identity(), real width = 0, real length = 0,
                      const ShapeConfig& cfg = {}, const std::string& label = "");
  /// Convex hull of the given points (at least 4, not coplanar), scaled per axis. Its faces are
  /// computed here (Qhull); a face with more than kMaxFeature vertices is an error naming the shape,
  /// the face and its size. Mass and inertia of the scaled hull from density.
  int add_shape_convex_hull(int body, const transform& xform, const std::vector<vec3>& points, vec3 scale = {1, 1, 1},
                            const ShapeConfig& cfg = {}, const std::string& label = "");
  /// Triangle mesh: vertices, 3 indices per triangle, per-axis scale. Vertices at exactly the same
  /// position are one vertex (welded) for the adjacency; an edge shared by more than two triangles
  /// (non-manifold) is an error naming the shape and the edge.
  /// Static (body -1): a mesh shape, collided triangle by triangle through its BVH (route b);
  /// triangles are two-sided and the winding (counter-clockwise = front) only orients the edge classes.
  /// On a body: the mesh must be closed (every edge shared by two triangles); its mass and inertia
  /// are the solid it bounds (mesh_mass_properties), and it collides as the convex hull of its
  /// vertices (route a), so the shape is stored as a convex_hull.
  int add_shape_mesh(int body, const transform& xform, const std::vector<vec3>& vertices,
                     const std::vector<int>& indices, vec3 scale = {1, 1, 1}, const ShapeConfig& cfg = {},
                     const std::string& label = "");
  /// Explicit exclusion pair: the two shapes never collide (E3.2-same-body-filter).
  void add_shape_collision_filter_pair(int shape_a, int shape_b);

  /// Appends a copy of another builder (one more "world" of the same robot), its root bodies placed
  /// by xform. Body, joint, shape, articulation IDs and coordinate starts of the copy are all offset.
  void add_builder(const ModelBuilder& other, const transform& xform = transform_identity());

  /// Infinite static ground plane through height * up with its normal along +up_axis (so opposite to
  /// the default gravity whatever the up axis). Returns the shape ID.
  int add_ground_plane(real height = 0, const ShapeConfig& cfg = {}, const std::string& label = "ground");

  /// Merges every child of a FIXED joint (parent >= 0) into its parent: shapes move with their xforms
  /// composed, masses are summed even into a lock_inertia parent, later joints are re-parented and
  /// IDs renumbered. Returns the old-to-new body ID map (-1 for merged bodies).
  std::vector<int> collapse_fixed_joints();

  /// Validates and lays out the model on device d. Throws std::invalid_argument naming the body,
  /// joint or shape and the field of the first problem found.
  Model finalize(Device d = Device::cpu) const;

  int body_count() const { return int(body_q.size()); }
  int joint_count() const { return int(joint_type.size()); }
  int shape_count() const { return int(shape_body.size()); }
  int articulation_count() const { return int(articulation_label.size()); }
  int joint_coord_count() const { return int(joint_q.size()); }
  int joint_dof_count() const { return int(joint_qd.size()); }

  // Builder data (host). Per body:
  std::vector<transform> body_q;           // world pose of the body origin
  std::vector<MassProperties> body_mass_properties;  // mass [kg], com [m] (body), inertia [kg m^2] about com
  std::vector<bool> body_lock_inertia;
  std::vector<BodyFlag> body_flags;
  std::vector<std::string> body_label;
  // Per joint:
  std::vector<JointType> joint_type;
  std::vector<int> joint_parent, joint_child, joint_articulation;
  std::vector<transform> joint_X_p, joint_X_c;  // parent_xform, child_xform
  std::vector<JointAxes> joint_axes;
  std::vector<real> joint_distance_min, joint_distance_max;  // [m] (DISTANCE only)
  std::vector<std::string> joint_label;
  std::vector<real> joint_q, joint_qd;  // initial coordinates / velocities, laid out by joint order
  // Per articulation:
  std::vector<std::string> articulation_label;
  // Per shape:
  std::vector<int> shape_body;
  std::vector<transform> shape_transform;
  std::vector<ShapeType> shape_type;
  std::vector<vec3> shape_scale;  // box (hx,hy,hz); sphere (r,0,0); capsule/cylinder (r,half_height,0); plane (w,l,0) [m];
                                  // hull and mesh: per-axis scale [-]
  std::vector<ShapeConfig> shape_config;
  std::vector<int> shape_world;   // -1 = shared by every world
  std::vector<std::string> shape_label;
  // Hull and mesh sources: shape s owns geo_points [shape_source_start, + count) when a hull, the
  // triangles [shape_source_start, + count) of geo_triangles when a mesh.
  std::vector<int> shape_source_start, shape_source_count;
  std::vector<vec3> geo_points;     // unscaled shape frame [m]
  std::vector<int> geo_triangles;   // 3 welded absolute indices into geo_points per triangle
  // Hull faces (Qhull, coplanar facets merged), in shape order: shape s owns shape_hull_face_count[s]
  // faces; face f has the vertices hull_face_vertices[hull_face_start[f] .. hull_face_start[f + 1]),
  // hull-local indices, counter-clockwise seen from outside.
  std::vector<int> shape_hull_face_count, hull_face_start = {0}, hull_face_vertices;
  std::vector<vec3> hull_face_normals;
  std::vector<std::pair<int, int>> shape_collision_filter_pairs;
  // Hydroelastic meshes (route c): each one's closed surface and volume layout, built at finalize.
  std::vector<SdfMeshSource> sdf_mesh_sources;

 private:
  std::string shape_name(ShapeType t, const std::string& label) const;
  void check_shape(int body, const transform& xform, ShapeType t, vec3 scale, const ShapeConfig& cfg,
                   const std::string& who) const;
  int add_joint(JointType t, int parent, int child, const transform& X_p, const transform& X_c, const JointAxes& ax,
                const std::string& label);
  // A convex_hull shape of points with the given faces, without its mass.
  int add_hull_shape(int body, const transform& xform, const std::vector<vec3>& points, const HullFaces& faces,
                     vec3 scale, const ShapeConfig& cfg, const std::string& label);
  int add_shape(int body, const transform& xform, ShapeType t, vec3 scale, const ShapeConfig& cfg,
                const std::string& label);
  // finalize's stages, in its order: each checks its part of the builder and writes it into m.
  void finalize_shapes(Device d, Model& m) const;
  void finalize_bodies(Device d, Model& m) const;
  std::vector<JointAxes> checked_joint_axes(std::vector<int>& parent_joint) const;
  std::vector<int> articulation_starts(const std::vector<int>& parent_joint) const;
  void finalize_joints(Device d, Model& m) const;
};

/// Mass properties of one shape about its own COM in its own axes (zero for a plane).
/// Hulls: see convex_hull_mass_properties.
MassProperties shape_mass_properties(ShapeType t, vec3 scale, real density);

/// Mass properties of a convex polyhedron of uniform density, about its COM
/// in its own (scaled) axes, summed over the tetrahedra (0, a, b, c) of a fan of every face:
///   V_t = a . (b x c) / 6,  m = rho sum V_t,  c = sum V_t (a + b + c) / 4 / sum V_t,
///   C = rho sum V_t / 20 (a a^T + b b^T + c c^T + s s^T), s = a + b + c   (covariance about 0)
///   I_0 = tr(C) 1 - C,  I_com = I_0 - m (|c|^2 1 - c c^T)            [kg, m, kg m^2]
/// points: hull vertices (unscaled), faces as ModelBuilder stores them (local indices), scale per axis.
/// Any closed polyhedron with outward faces works (the volume integrals do not need convexity).
MassProperties convex_hull_mass_properties(const std::vector<vec3>& points, const std::vector<int>& face_start,
                                           const std::vector<int>& face_vertices, vec3 scale, real density);

/// Mass properties of the solid a closed triangle mesh bounds (3 indices per triangle into vertices,
/// unscaled), about its COM: convex_hull_mass_properties with every triangle as a face (the
/// divergence-theorem volume integrals, Mirtich 1996 / Eberly), after flipping every triangle when
/// the mesh is wound inward (negative signed volume), as Newton's compute_inertia_mesh does.
MassProperties mesh_mass_properties(const std::vector<vec3>& vertices, const std::vector<int>& indices, vec3 scale,
                                    real density);

/// @formula E1.3-mass-accumulation  Whether a shape adds mass to its body (course E1 §3): only when
/// it is not static, its density is > 0, it is attached to a body, and that body is not locked.
bool shape_contributes_mass(const ShapeConfig& cfg, int body, bool body_locked);

class Model {
 public:
  Device device = Device::cpu;
  Axis up_axis = Axis::z;
  vec3 gravity;  // [m/s^2]; after changing it, notify the solver (see set_gravity)

  int body_count = 0, joint_count = 0, shape_count = 0, articulation_count = 0;
  int joint_coord_count = 0;  // length of joint_q (== joint_q_start[joint_count])
  int joint_dof_count = 0;    // length of joint_qd (== joint_qd_start[joint_count])

  // Bodies (body_count each).
  ModelArray<transform> body_q;         // initial world pose of the body origin [m, -]
  ModelArray<spatial_vector> body_qd;   // initial (v_C [m/s], omega [rad/s]), world, v at the COM
  ModelArray<vec3> body_com;            // COM in body coordinates [m]
  ModelArray<mat33> body_inertia;       // about the COM, body axes [kg m^2]
  ModelArray<mat33> body_inv_inertia;   // [1/(kg m^2)]; zero for a zero-mass body
  ModelArray<real> body_mass;           // [kg]
  ModelArray<real> body_inv_mass;       // [1/kg]; zero for a zero-mass body
  ModelArray<int> body_flags;           // BodyFlag
  std::vector<std::string> body_label;

  // Joints (joint_count each unless noted).
  ModelArray<int> joint_type;           // JointType
  ModelArray<int> joint_parent;         // parent body ID, -1 = world
  ModelArray<int> joint_child;          // child body ID
  ModelArray<int> joint_articulation;   // articulation ID, -1 = none
  ModelArray<transform> joint_X_p;      // parent_xform [m, -]
  ModelArray<transform> joint_X_c;      // child_xform [m, -]
  ModelArray<JointAxes> joint_axes;     // unit axes in the joint frame, linear first
  ModelArray<int> joint_q_start;        // (joint_count + 1), trailing sentinel = joint_coord_count
  ModelArray<int> joint_qd_start;       // (joint_count + 1), trailing sentinel = joint_dof_count
  ModelArray<real> joint_distance_min;  // [m] DISTANCE joints only
  ModelArray<real> joint_distance_max;  // [m]
  ModelArray<real> joint_q;             // (joint_coord_count) initial coordinates [m, rad, -]
  ModelArray<real> joint_qd;            // (joint_dof_count) initial velocities [m/s, rad/s]
  ModelArray<real> joint_f;             // (joint_dof_count) control: generalised forces [N, N m]
  ModelArray<real> joint_target_pos;    // (joint_dof_count) control: position targets [m, rad]
  ModelArray<real> joint_target_vel;    // (joint_dof_count) control: velocity targets [m/s, rad/s]
  std::vector<std::string> joint_label;

  ModelArray<int> articulation_start;   // (articulation_count + 1), first joint of each, sentinel = end

  // Shapes (shape_count each).
  ModelArray<int> shape_body;           // owning body ID, -1 = static world geometry
  ModelArray<transform> shape_transform;// pose relative to the body (world pose when body = -1)
  ModelArray<int> shape_type;           // ShapeType
  ModelArray<vec3> shape_scale;         // see ModelBuilder::shape_scale [m]
  ModelArray<int> shape_flags;          // ShapeFlagBits
  std::vector<std::string> shape_label;
  // Shape materials, ShapeConfig field for field (E3 §3); each solver path combines two of them.
  ModelArray<real> shape_material_ke;            // [N/m]
  ModelArray<real> shape_material_kd;            // [N s/m]
  ModelArray<real> shape_material_kf;            // [N s/m]
  ModelArray<real> shape_material_ka;            // [m]
  ModelArray<real> shape_material_mu;            // [-]
  ModelArray<real> shape_material_restitution;   // [-]
  ModelArray<real> shape_material_mu_torsional;  // [m]
  ModelArray<real> shape_material_mu_rolling;    // [m]
  ModelArray<real> shape_material_kh;            // [N/m^3]
  // Collision (E3 §2).
  real rigid_gap = 0.1;                      // the builder's default gap [m]
  ModelArray<real> shape_margin;                 // outward surface offset [m]
  ModelArray<real> shape_gap;                    // extra detection distance beyond the surface [m]
  ModelArray<int> shape_world;                   // world index, -1 = shared by every world
  ModelArray<int> shape_collision_group;         // 0 = none (also for has_shape_collision = false); see test_group_pair
  ModelArray<int> shape_source_start;            // hull: first point; mesh: first triangle
  ModelArray<int> shape_source_count;            // hull: point count; mesh: triangle count
  ModelArray<int> shape_bvh_root;                // mesh: root node in mesh_bvh_nodes, else -1
  ModelArray<vec3> geo_points;                   // hull and mesh vertices, unscaled shape frame [m]
  ModelArray<int> shape_face_start;              // (shape_count + 1) CSR start of each shape's hull faces
  ModelArray<int> hull_face_start;               // (faces + 1) CSR start into hull_face_vertices
  ModelArray<int> hull_face_vertices;            // hull-local point indices, counter-clockwise from outside
  ModelArray<vec3> hull_face_normals;            // outward unit normal per face, unscaled shape frame [-]
  ModelArray<int> mesh_triangles;                // 3 absolute indices into geo_points per triangle (welded)
  ModelArray<BvhNode> mesh_bvh_nodes;            // every mesh's BVH nodes
  // Mesh adjacency (route b's edge and vertex features); edge k of triangle t runs from vertex k to
  // vertex (k + 1) % 3, stored at 3 t + k.
  ModelArray<int> mesh_edge_neighbor;            // triangle across edge k (absolute), -1 on a boundary
  ModelArray<int> mesh_edge_class;               // MeshEdgeClass of edge k, relative to t's winding
  ModelArray<int> mesh_vertex_owner;             // lowest triangle using geo_points[i], -1 if none
  ModelArray<int> mesh_vertex_ring_start;        // CSR start into mesh_vertex_ring per geo_points entry
  ModelArray<int> mesh_vertex_ring;              // vertices joined to each vertex by a mesh edge
  // Route (c) volumes of hydroelastic meshes (primitives' SDFs are closed forms, sdf_primitives.h).
  ModelArray<int> shape_sdf_volume;              // index into sdf_volumes, -1 = none
  ModelArray<SdfVolume> sdf_volumes;             // one dense volume per hydroelastic mesh (shape frame)
  ModelArray<real> sdf_values;                   // [m] every volume's samples, see SdfVolume::start
  ModelArray<std::int64_t> shape_collision_filter_pairs;  // sorted pair_key(s0, s1): explicit exclusions
  ModelArray<std::int64_t> joint_filter_body_pairs;       // sorted pair_key(parent, child) of every joint with a parent body

  /// What the pair filter reads.
  FilterView filter_view() const {
    return {shape_world.view(), shape_collision_group.view(), shape_body.view(), shape_collision_filter_pairs.view(),
            joint_filter_body_pairs.view()};
  }

  std::vector<InertiaCorrection> corrections;  // what finalize changed, before and after

  /// A new State whose arrays are copies of the Model's initial values (body_f zero).
  State state() const;
  /// Control arrays: copies of the Model's by default; with clone_variables = false they refer to
  /// the Model's own arrays (writes go into the Model).
  Control control(bool clone_variables = true);
  /// Changes gravity [m/s^2]. A solver that cached the model must be told (notify_model_changed).
  void set_gravity(vec3 g) { gravity = g; }
};

/// The mutable physical state. No clock: the caller keeps time.
struct State {
  Buffer<transform> body_q;         // (body_count) world pose of the body origin
  Buffer<spatial_vector> body_qd;   // (body_count) (v_C [m/s], omega [rad/s]), world, v at the COM
  Buffer<spatial_vector> body_f;    // (body_count) external input (f [N], tau_C [N m]), world, about the COM
  Buffer<real> joint_q;             // (joint_coord_count)
  Buffer<real> joint_qd;            // (joint_dof_count)

  /// Zeroes body_f only (not joint_q/qd, poses, Control or solver history).
  void clear_forces();
  /// Copies every array of src into this State (a real copy, not an alias). Throws
  /// std::invalid_argument naming the first array whose size or device differs.
  void assign(const State& src);
};

/// Time-varying inputs. Solvers read the views; when cloned they point into this Control's own
/// buffers, otherwise into the Model's arrays.
struct Control {
  Control() = default;
  Control(const Control&) = delete;
  Control& operator=(const Control&) = delete;
  Control(Control&&) = default;
  Control& operator=(Control&&) = default;

  View<real> joint_f;           // (joint_dof_count) [N, N m]; FREE/DISTANCE: world force and torque at the child COM
  View<real> joint_target_pos;  // (joint_dof_count) [m, rad]
  View<real> joint_target_vel;  // (joint_dof_count) [m/s, rad/s]
  bool cloned = true;

  Buffer<real> own_joint_f, own_joint_target_pos, own_joint_target_vel;
};

/// Zeroes a spatial vector array on its device (lib/e1/state_kernels.cpp).
void fill_zero(Device d, View<spatial_vector> v);

}  // namespace impulse
