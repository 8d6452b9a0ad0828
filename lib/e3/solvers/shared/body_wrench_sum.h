// Per-body sums of two-sided wrenches (a joint's parent and child, a contact's two shapes), shared by
// the penalty contacts and the penalty joints of course E3 §6.
#pragma once

#include <vector>

#include "core/buffer.h"
#include "core/spatial.h"

namespace impulse {

/// Adds item i's side0[i] to wrench[sides[2i]] and side1[i] to wrench[sides[2i+1]] (a side with
/// body -1 adds nothing). Each body adds its entries in item order, side 0 before side 1, through a
/// body-grouped index (lib/core/segments.h): bitwise deterministic on any thread count and
/// O(bodies + items). Throws std::invalid_argument for a body >= body_count.
void add_two_sided_wrenches(Device device, int body_count, const std::vector<int>& sides,
                            View<const spatial_vector> side0, View<const spatial_vector> side1,
                            View<spatial_vector> wrench);

/// The sum itself over a body-grouped index already on the device (start: body_count + 1 entries,
/// entry: 2 * item + side, as build_segments_on writes it): wrench[b] += the entries of b in order.
void add_two_sided_wrenches_on(Device device, int body_count, View<const std::int64_t> start,
                               View<const std::int64_t> entry, View<const spatial_vector> side0,
                               View<const spatial_vector> side1, View<spatial_vector> wrench);

}  // namespace impulse
