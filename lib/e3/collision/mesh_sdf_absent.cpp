// Mesh volumes in a build without OpenVDB (the browser module, or libopenvdb-dev not installed;
// lib/CMakeLists.txt picks this file then): a hydroelastic mesh is refused with one line.
#include <stdexcept>

#include "e3/collision/mesh_sdf.h"

namespace impulse {

bool mesh_sdf_available() { return false; }

void build_mesh_sdf(const SdfMeshSource& mesh, real*) {
  throw std::invalid_argument("shape " + std::to_string(mesh.shape) +
                              ": a hydroelastic mesh's signed-distance volume needs OpenVDB, which this build "
                              "leaves out (the browser module, or a build without libopenvdb-dev)");
}

}  // namespace impulse
