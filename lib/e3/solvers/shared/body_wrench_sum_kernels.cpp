#include "e3/solvers/shared/body_wrench_sum.h"

#include <cstdint>

#include "core/parallel_for.h"
#include "core/reduce.h"
#include "core/segments.h"

namespace impulse {

void add_two_sided_wrenches(Device device, int body_count, const std::vector<int>& sides,
                            View<const spatial_vector> side0, View<const spatial_vector> side1,
                            View<spatial_vector> wrench) {
  std::vector<std::int64_t> start_h, entry_h;
  build_segments(body_count, sides, start_h, entry_h);
  const Buffer<std::int64_t> start(device, start_h), entry(device, entry_h);
  add_two_sided_wrenches_on(device, body_count, start.view(), entry.view(), side0, side1, wrench);
}

void add_two_sided_wrenches_on(Device device, int body_count, View<const std::int64_t> st,
                               View<const std::int64_t> en, View<const spatial_vector> side0,
                               View<const spatial_vector> side1, View<spatial_vector> wrench) {
  segmented_sum_into(device, st, en, TwoSidedEntry{side0, side1}, View<spatial_vector>{wrench.data, body_count});
}

}  // namespace impulse
