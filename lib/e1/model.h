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

namespace impulse {

enum class Axis : int { x = 0, y = 1, z = 2 };

/// Stored per-body flag. There is no STATIC flag: static geometry is a shape with body = -1.
enum class BodyFlag : int { dynamic = 1, kinematic = 2 };

enum class ShapeType : int { sphere = 0, box = 1, capsule = 2, cylinder = 3, plane = 4 };

/// Bits of Model::shape_flags.
enum ShapeFlagBits : int { shape_visible = 1, shape_collide = 2 };

struct ShapeConfig {
  real density = 1000;       // [kg/m^3]; 0 adds no mass
  bool is_static = false;    // contributes zero mass; does NOT freeze the body it belongs to
  bool is_visible = true;    // drawn
  bool has_collision = true; // takes part in collision
};

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
  /// Plane through the xform origin with normal +z of the xform; width/length 0 = infinite. No mass.
  int add_shape_plane(int body = -1, const transform& xform = transform_identity(), real width = 0, real length = 0,
                      const ShapeConfig& cfg = {}, const std::string& label = "");

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
  std::vector<vec3> shape_scale;  // box (hx,hy,hz); sphere (r,0,0); capsule/cylinder (r,half_height,0); plane (w,l,0) [m]
  std::vector<ShapeConfig> shape_config;
  std::vector<std::string> shape_label;

 private:
  int add_joint(JointType t, int parent, int child, const transform& X_p, const transform& X_c, const JointAxes& ax,
                const std::string& label);
  int add_shape(int body, const transform& xform, ShapeType t, vec3 scale, const ShapeConfig& cfg,
                const std::string& label);
};

/// Mass properties of one shape about its own COM in its own axes (zero for a plane).
MassProperties shape_mass_properties(ShapeType t, vec3 scale, real density);

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
  Buffer<transform> body_q;         // initial world pose of the body origin [m, -]
  Buffer<spatial_vector> body_qd;   // initial (v_C [m/s], omega [rad/s]), world, v at the COM
  Buffer<vec3> body_com;            // COM in body coordinates [m]
  Buffer<mat33> body_inertia;       // about the COM, body axes [kg m^2]
  Buffer<mat33> body_inv_inertia;   // [1/(kg m^2)]; zero for a zero-mass body
  Buffer<real> body_mass;           // [kg]
  Buffer<real> body_inv_mass;       // [1/kg]; zero for a zero-mass body
  Buffer<int> body_flags;           // BodyFlag
  std::vector<std::string> body_label;

  // Joints (joint_count each unless noted).
  Buffer<int> joint_type;           // JointType
  Buffer<int> joint_parent;         // parent body ID, -1 = world
  Buffer<int> joint_child;          // child body ID
  Buffer<int> joint_articulation;   // articulation ID, -1 = none
  Buffer<transform> joint_X_p;      // parent_xform [m, -]
  Buffer<transform> joint_X_c;      // child_xform [m, -]
  Buffer<JointAxes> joint_axes;     // unit axes in the joint frame, linear first
  Buffer<int> joint_q_start;        // (joint_count + 1), trailing sentinel = joint_coord_count
  Buffer<int> joint_qd_start;       // (joint_count + 1), trailing sentinel = joint_dof_count
  Buffer<real> joint_distance_min;  // [m] DISTANCE joints only
  Buffer<real> joint_distance_max;  // [m]
  Buffer<real> joint_q;             // (joint_coord_count) initial coordinates [m, rad, -]
  Buffer<real> joint_qd;            // (joint_dof_count) initial velocities [m/s, rad/s]
  Buffer<real> joint_f;             // (joint_dof_count) control: generalised forces [N, N m]
  Buffer<real> joint_target_pos;    // (joint_dof_count) control: position targets [m, rad]
  Buffer<real> joint_target_vel;    // (joint_dof_count) control: velocity targets [m/s, rad/s]
  std::vector<std::string> joint_label;

  Buffer<int> articulation_start;   // (articulation_count + 1), first joint of each, sentinel = end

  // Shapes (shape_count each).
  Buffer<int> shape_body;           // owning body ID, -1 = static world geometry
  Buffer<transform> shape_transform;// pose relative to the body (world pose when body = -1)
  Buffer<int> shape_type;           // ShapeType
  Buffer<vec3> shape_scale;         // see ModelBuilder::shape_scale [m]
  Buffer<int> shape_flags;          // ShapeFlagBits
  std::vector<std::string> shape_label;

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
