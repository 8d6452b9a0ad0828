// URDF and MJCF importers (subsets) into a ModelBuilder (course E1 §2, §4).
//
// Supported URDF: <robot>, <link> with <inertial> (origin, mass, inertia), <collision> and <visual>
// with <origin> and box/sphere/cylinder/capsule geometry; <joint> of type revolute, continuous,
// prismatic, fixed or floating with <origin>, <parent>, <child>, <axis>. Meshes are rejected.
// Supported MJCF: <compiler angle inertiafromgeom eulerseq="xyz">, <worldbody> with nested <body pos
// quat|euler>, <inertial pos quat mass diaginertia>, <joint type hinge|slide|ball|free pos axis>,
// <freejoint>, <geom type box|sphere|capsule|cylinder|plane size pos quat|euler density|mass>.
//
// Scaling follows the course's two laws (E1.4-scaling-laws): an explicit inertial keeps its mass,
// its COM is multiplied by scale and its inertia by scale^2 (E1.4-explicit-inertial-scale);
// geometry lengths are multiplied by scale, so density-derived mass grows by scale^3 and inertia by
// scale^5. Errors name the file and line (std::invalid_argument); nothing is repaired silently.
#pragma once

#include <string>

#include "e1/model.h"

namespace impulse {

struct UrdfOptions {
  transform xform = transform_identity();   // placement of the root link in the builder's world
  bool floating = true;                      // root attached by a FREE joint (else FIXED)
  real scale = 1;                            // uniform length scale (> 0)
  Axis up_axis = Axis::z;                    // the file's up axis; rotated onto the builder's
  bool ignore_inertial_definitions = false;  // derive mass from collision geometry and density instead
  bool parse_visuals_as_colliders = false;   // visual geometry becomes colliders (default: visual only)
  bool collapse_fixed_joints = false;        // merge FIXED children into their parents after import
  real density = 1000;                       // [kg/m^3] for geometry-derived mass
};

/// Imports a URDF document (text) into the builder as one articulation; file names the source in
/// error messages. Returns the body ID of the root link.
int add_urdf(ModelBuilder& builder, const std::string& text, const UrdfOptions& options = {},
             const std::string& file = "<urdf>");

struct MjcfOptions {
  transform xform = transform_identity();
  real scale = 1;
  Axis up_axis = Axis::z;
  bool ignore_inertial_definitions = false;
  real density = 1000;  // [kg/m^3] geoms without density or mass
};

/// Imports an MJCF document; each top-level body of <worldbody> becomes one articulation, geoms
/// directly in <worldbody> become static shapes (body = -1).
void add_mjcf(ModelBuilder& builder, const std::string& text, const MjcfOptions& options = {},
              const std::string& file = "<mjcf>");

/// @formula E1.2-mjcf-wxyz  MJCF writes quaternions w x y z; the engine stores x y z w (course E1 §2).
inline quat quat_from_wxyz(real w, real x, real y, real z) { return {x, y, z, w}; }

}  // namespace impulse
