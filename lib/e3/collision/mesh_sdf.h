// The signed-distance volumes of hydroelastic meshes (course E3 §2, route (c)): their layout,
// checked where the shape is added, and their build at finalize (OpenVDB's mesh-to-volume
// conversion, then copied into a dense lattice that the collision kernels sample, sdf_volume.h).
// The browser module and a build without libopenvdb-dev leave the build out (mesh_sdf_absent.cpp):
// a hydroelastic mesh is then refused with one line saying so.
#pragma once

#include <string>
#include <vector>

#include "core/device.h"
#include "core/math.h"
#include "e3/collision/sdf_volume.h"

namespace impulse {

class ModelBuilder;
class Model;

/// A hydroelastic mesh as the builder keeps it until finalize: its closed surface, scaled, in the
/// shape frame, and the layout of its volume.
struct SdfMeshSource {
  int shape = -1;
  std::vector<vec3> points;    // [m] scaled vertices, shape frame
  std::vector<int> triangles;  // 3 indices into points per triangle
  SdfVolume layout;            // lo, voxel, nx, ny, nz (start is set at finalize)
};

/// The volume layout of a mesh whose scaled vertices are points:
///   voxel = voxel_size when > 0, else (longest side of the vertices' box) / max_resolution  [m]
///   pad   = padding when >= 0, else 2 voxel                                              [m]
///   lo    = floor((box.lo - pad) / voxel) voxel,  n_k = ceil((box.hi_k + pad) / voxel) - lo_k / voxel + 1
/// Throws std::invalid_argument starting with who when nx ny nz > kSdfMaxSamples, naming the field
/// that set the voxel (ShapeConfig.sdf_target_voxel_size or sdf_max_resolution), the count, the cap
/// and the smallest voxel that fits.
SdfVolume mesh_sdf_layout(const std::vector<vec3>& points, real voxel_size, int max_resolution, real padding,
                          const std::string& who);

/// Whether this build makes mesh volumes (false in the browser module and without OpenVDB).
bool mesh_sdf_available();

/// Writes layout's nx ny nz samples of the closed mesh's signed distance into values (x fastest):
/// exact distance to the nearest triangle at every sample, negative inside, over the whole box (the
/// interior filled, not a narrow band). Throws std::invalid_argument when mesh_sdf_available() is false.
void build_mesh_sdf(const SdfMeshSource& mesh, real* values);

/// finalize's stage for the volumes: Model::shape_sdf_volume, sdf_volumes and sdf_values from the
/// builder's sdf_mesh_sources, each volume built once.
void finalize_sdf_volumes(const ModelBuilder& b, Device d, Model& m);

}  // namespace impulse
