// The faces of a convex hull, computed once on the host when a hull shape is added (course E3 §2:
// the convex route clips a hull's face like a box's face). Qhull does the geometry.
#pragma once

#include <string>
#include <vector>

#include "core/math.h"

namespace impulse {

/// Polygonal faces of a convex hull: coplanar facets are merged, so a cube has 6 quadrilaterals.
struct HullFaces {
  std::vector<int> start;     // CSR: face f has vertices [start[f], start[f + 1]) (faces + 1 entries)
  std::vector<int> vertices;  // indices into the input points, counter-clockwise seen from outside
  std::vector<vec3> normals;  // outward unit normal per face, frame of the input points [-]
};

/// Faces of the convex hull of points (Qhull's default merging of coplanar facets, no
/// triangulation). Points inside the hull or on a face's interior are vertices of no face. Throws
/// std::invalid_argument starting with who when Qhull fails (for points that span no volume).
HullFaces convex_hull_faces(const std::vector<vec3>& points, const std::string& who);

}  // namespace impulse
