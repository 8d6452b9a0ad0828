// The collision geometry of hull and mesh shapes (course E3 §2): the checks ModelBuilder makes when
// such a shape is added, and the arrays finalize derives for the Model (mesh BVHs, mesh adjacency,
// hull face tables, filter pairs), which the collision kernels read.
#pragma once

#include <string>
#include <vector>

#include "core/device.h"
#include "core/math.h"
#include "e3/collision/hull_faces.h"

namespace impulse {

class ModelBuilder;
class Model;

/// The faces of the hull of points after the checks: at least 4 finite points, not coplanar, a
/// positive scale, no face with more than kMaxFeature vertices. Throws std::invalid_argument
/// starting with who.
HullFaces checked_hull_faces(const std::vector<vec3>& points, vec3 scale, const std::string& who);

/// The triangle indices of a mesh after the checks (3 indices per triangle in range, finite vertices,
/// positive scale, no zero-area triangle, at most two triangles per edge, and on a body (body >= 0)
/// exactly two: a closed surface that bounds a solid; also when hydroelastic), each index
/// replaced by the first vertex at exactly the same position (welded). Throws std::invalid_argument
/// starting with who.
std::vector<int> checked_mesh_triangles(int body, const std::vector<vec3>& vertices, const std::vector<int>& indices,
                                        vec3 scale, const std::string& who, bool hydroelastic = false);

/// Writes the Model's geometry arrays (shape_source_*, geo_points, hull faces, mesh triangles in BVH
/// order with their BVH and adjacency, the sorted filter pairs) from the builder's shapes and joints.
void finalize_shape_geometry(const ModelBuilder& b, Device d, Model& m);

}  // namespace impulse
