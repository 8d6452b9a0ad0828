// Collision filtering (course E3 §2, the filter table): which shape pairs may become candidates.
//
// Order of the tests as Newton applies them: world, collision group, then the pair lists (same
// body, explicit exclusions, joint parent/child). All functions are symmetric in their arguments.
#pragma once

#include <cstdint>

#include "core/buffer.h"
#include "core/hd.h"

namespace impulse {

/// @formula E3.2-collision-group  Collision-group rule (course E3 §2; Newton test_group_pair).
///   g0 == 0 or g1 == 0      -> false (0 disables collision)
///   g0 > 0 and g1 > 0       -> g0 == g1
///   signs differ (non-zero) -> true
///   g0 < 0 and g1 < 0       -> g0 != g1
/// Not a bit mask and not MuJoCo contype/conaffinity.
IMPULSE_HD inline bool test_group_pair(int g0, int g1) {
  if (g0 == 0 || g1 == 0) return false;
  if (g0 > 0) return g0 == g1 || g1 < 0;
  return g0 != g1;
}

/// @formula E3.2-shape-world  World rule, then the group rule (course E3 §2).
///   w0 >= 0, w1 >= 0, w0 != w1 -> false; otherwise (same world, or either is -1) -> group rule.
/// Precondition: w0, w1 >= -1 (the builder rejects anything below -1).
IMPULSE_HD inline bool test_world_and_group_pair(int w0, int w1, int g0, int g1) {
  if (w0 != -1 && w1 != -1 && w0 != w1) return false;
  return test_group_pair(g0, g1);
}

/// Canonical key of an unordered pair (a, b): (min << 32) | max. Sorting keys sorts pairs
/// lexicographically by (min, max).
IMPULSE_HD inline std::int64_t pair_key(int a, int b) {
  const int lo = a < b ? a : b, hi = a < b ? b : a;
  return (static_cast<std::int64_t>(lo) << 32) | static_cast<std::int64_t>(static_cast<std::uint32_t>(hi));
}
IMPULSE_HD inline int pair_key_first(std::int64_t k) { return static_cast<int>(k >> 32); }
IMPULSE_HD inline int pair_key_second(std::int64_t k) { return static_cast<int>(k & 0xffffffffLL); }

/// Binary search of a key in a sorted key list.
IMPULSE_HD inline bool sorted_contains(View<const std::int64_t> keys, std::int64_t k) {
  std::int64_t lo = 0, hi = keys.size;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (keys[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo < keys.size && keys[lo] == k;
}

/// What the pair filter reads (a view of the Model's filtering arrays).
struct FilterView {
  View<const int> shape_world;            // [-] (shape_count), -1 = shared
  View<const int> shape_collision_group;  // [-] (shape_count), 0 = no collision
  View<const int> shape_body;             // [-] (shape_count), -1 = static (world)
  View<const std::int64_t> shape_collision_filter_pairs;  // sorted pair_key(shape, shape): explicit exclusions
  View<const std::int64_t> joint_filter_body_pairs;       // sorted pair_key(parent body, child body)
};

/// @formula E3.2-same-body-filter  Full pair filter of the course's table (course E3 §2).
///   pass = world/group rule
///          and body0 != body1                (shapes of one body never collide; Newton also
///                                             filters two shapes that are both static, body -1)
///          and (s0, s1) not an explicit exclusion pair
///          and (body0, body1) not a filtered joint parent/child pair
IMPULSE_HD inline bool shape_pair_passes_filters(const FilterView& f, int s0, int s1) {
  if (s0 == s1) return false;
  if (!test_world_and_group_pair(f.shape_world[s0], f.shape_world[s1], f.shape_collision_group[s0],
                                 f.shape_collision_group[s1]))
    return false;
  const int b0 = f.shape_body[s0], b1 = f.shape_body[s1];
  if (b0 == b1) return false;
  if (sorted_contains(f.shape_collision_filter_pairs, pair_key(s0, s1))) return false;
  if (sorted_contains(f.joint_filter_body_pairs, pair_key(b0, b1))) return false;
  return true;
}

}  // namespace impulse
