// A hydroelastic mesh's signed-distance volume built by OpenVDB (Debian's libopenvdb-dev):
// openvdb::tools::meshToSignedDistanceField computes, at every voxel of a band around the surface,
// the distance to the nearest triangle and its sign; an interior band as deep as half the box's
// longest side fills the whole inside, so the volume carries the depths the pressure law reads
// (p = -kh phi), not only a narrow band. (An infinite interior band makes OpenVDB fill the inside
// by a cheaper sweep whose values were 2 to 10 voxels off; a finite band dilates the exact
// closest-triangle search, measured within 0.3 voxel on an icosphere, verify/.../mesh_sdf_test.cpp.) The sparse grid is then copied into the dense lattice the
// kernels sample (sdf_volume.h). Compiled only when CMake finds OpenVDB (lib/CMakeLists.txt).
#include <openvdb/openvdb.h>
#include <openvdb/tools/MeshToVolume.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>

#include "e3/collision/mesh_sdf.h"

namespace impulse {

bool mesh_sdf_available() { return true; }

void build_mesh_sdf(const SdfMeshSource& mesh, real* values) {
  openvdb::initialize();
  const SdfVolume& v = mesh.layout;
  std::vector<openvdb::Vec3s> points;
  points.reserve(mesh.points.size());
  for (const vec3& p : mesh.points) points.emplace_back(float(p.x), float(p.y), float(p.z));
  std::vector<openvdb::Vec3I> triangles;
  for (std::size_t t = 0; t + 2 < mesh.triangles.size(); t += 3)
    triangles.emplace_back(mesh.triangles[t], mesh.triangles[t + 1], mesh.triangles[t + 2]);
  const std::vector<openvdb::Vec4I> quads;
  const openvdb::math::Transform::Ptr xform = openvdb::math::Transform::createLinearTransform(double(v.voxel));
  // Exterior band: every sample of the box, whose corners lie up to sqrt(3) pad outside [voxels].
  const vec3 hi = sdf_volume_hi(v);
  real reach = 0;
  for (const vec3& p : mesh.points)
    reach = std::max({reach, p.x - v.lo.x, hi.x - p.x, p.y - v.lo.y, hi.y - p.y, p.z - v.lo.z, hi.z - p.z});
  const float ex_band = float(std::sqrt(3.0) * reach / v.voxel + 2);
  const real longest = std::max({hi.x - v.lo.x, hi.y - v.lo.y, hi.z - v.lo.z});
  const float in_band = float(0.5 * longest / v.voxel + 2);
  openvdb::FloatGrid::Ptr grid;
  // One thread: the build is once per shape, and TBB's workers would be threads the sanitizer and
  // schedule passes do not see.
  tbb::task_arena one(1);
  one.execute([&] {
    grid = openvdb::tools::meshToSignedDistanceField<openvdb::FloatGrid>(*xform, points, triangles, quads, ex_band,
                                                                         in_band);
  });
  const openvdb::FloatGrid::ConstAccessor acc = grid->getConstAccessor();
  // Sample (i, j, k) sits at lo + voxel (i, j, k): index space (i0 + i, j0 + j, k0 + k).
  const int i0 = int(std::lround(v.lo.x / v.voxel)), j0 = int(std::lround(v.lo.y / v.voxel)),
            k0 = int(std::lround(v.lo.z / v.voxel));
  std::int64_t at = 0;
  for (int k = 0; k < v.nz; ++k)
    for (int j = 0; j < v.ny; ++j)
      for (int i = 0; i < v.nx; ++i) values[at++] = real(acc.getValue(openvdb::Coord(i0 + i, j0 + j, k0 + k)));
}

}  // namespace impulse
