// The oracle of SolverVBD's colouring (verify/e3/solvers/vbd/vbd_test.cpp): the sequential walk the
// solver ran as one kernel item before its relaxation rounds, written here over an edge list.
//   colour(b) = -1                                    b not dynamic
//   colour(b) = 1 + max colour(o) over the edges (o, b) with o < b and o dynamic  (0 with none)
// Bodies are visited in increasing number, so every colour(o) it reads is already final.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "e1/model.h"
#include "e3/contacts/contacts_view.h"

namespace impulse {

/// Body pairs the VBD sweep couples: the bodies of each live contact row and the parent and child
/// of each joint that is not FREE (a FREE joint has no rows). Read on the host (CPU model).
inline std::vector<std::pair<int, int>> vbd_coupled_pairs(const Model& m, const ContactsView* c) {
  std::vector<std::pair<int, int>> pairs;
  const auto type = m.joint_type.to_host(), parent = m.joint_parent.to_host(), child = m.joint_child.to_host();
  for (int j = 0; j < m.joint_count; ++j)
    if (JointType(type[j]) != JointType::free) pairs.emplace_back(parent[j], child[j]);
  if (!c) return pairs;
  const auto shape_body = m.shape_body.to_host();
  const int n = std::min(c->rigid_contact_count[0], c->rigid_contact_max);
  for (int i = 0; i < n; ++i) {
    const int s0 = c->rigid_contact_shape0[i], s1 = c->rigid_contact_shape1[i];
    pairs.emplace_back(s0 >= 0 ? shape_body[s0] : -1, s1 >= 0 ? shape_body[s1] : -1);
  }
  return pairs;
}

/// The colours of the walk in body order over the pairs (both orientations of each pair count).
inline std::vector<int> colour_in_body_order(const Model& m, const std::vector<std::pair<int, int>>& pairs) {
  const auto flags = m.body_flags.to_host();
  const auto inv_mass = m.body_inv_mass.to_host();
  auto dynamic = [&](int b) { return b >= 0 && !(flags[b] & int(BodyFlag::kinematic)) && inv_mass[b] > 0; };
  std::vector<int> colour(std::size_t(m.body_count), -1);
  for (int b = 0; b < m.body_count; ++b) {
    if (!dynamic(b)) continue;
    int c = 0;
    for (const auto& [x, y] : pairs) {
      const int o = x == b ? y : y == b ? x : -1;
      if (o >= 0 && o < b && dynamic(o)) c = std::max(c, colour[o] + 1);
    }
    colour[b] = c;
  }
  return colour;
}

}  // namespace impulse
