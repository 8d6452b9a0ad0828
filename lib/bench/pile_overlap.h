// Body-body penetration of a pile, measured from poses alone (the quality a user sees: bodies
// sinking into each other), independent of any engine's collision code.
//
//   spheres of radius r:  depth(i, j) = max(0, 2 r - |x_i - x_j|)
//   cubes of half extent a: depth(i, j) = the smallest overlap of the two boxes' projections over
//     the 15 separating axes (3 + 3 face normals, 9 edge cross products); for two convex
//     polyhedra this is the penetration depth (the shortest translation that separates them).
// Candidate pairs come from a uniform grid of cell 2 r (spheres) or 2 sqrt(3) a (cubes).
#pragma once

#include <string>
#include <vector>

#include "core/math.h"

namespace impulse::course {

struct PileOverlap {
  double max_depth = 0;   // [m] deepest pair
  double mean_depth = 0;  // [m] mean over the pairs that overlap
  int pairs = 0;          // pairs that overlap [-]
};

/// kind "spheres" or "boxes"; size = radius or half extent [m].
PileOverlap pile_overlap(const std::string& kind, double size, const std::vector<transform>& q);

/// Penetration depth of two cubes of half extent a (the 15-axis rule above) [m]; 0 when apart.
double box_box_depth(double a, const transform& A, const transform& B);

}  // namespace impulse::course
