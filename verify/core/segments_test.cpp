// Tests of lib/core/segments: the stable grouping of entries by key used by the per-body sums.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <vector>

#include "core/segments.h"
// This file launches on the CPU only; it is compiled by the host compiler in every build.
#define IMPULSE_HOST_ONLY_PARALLEL_FOR
#include "core/segments_device.h"

using namespace impulse;

TEST(Segments, GroupsByKeyKeepsOrderSkipsNegative) {
  const std::vector<int> keys = {2, -1, 0, 2, 1, 0, -1};
  std::vector<std::int64_t> start, entry;
  build_segments(3, keys, start, entry);
  EXPECT_EQ(start, (std::vector<std::int64_t>{0, 2, 3, 5}));
  EXPECT_EQ(entry, (std::vector<std::int64_t>{2, 5, 4, 0, 3}));
}

TEST(Segments, RejectsKeyOutOfRange) {
  std::vector<std::int64_t> start, entry;
  EXPECT_THROW(build_segments(2, {0, 2}, start, entry), std::invalid_argument);
}

// Against the direct definition: segment k lists exactly the positions with key k, in order.
RC_GTEST_PROP(Segments, EqualsScanPerKey, ()) {
  const int n_keys = *rc::gen::inRange(1, 20);
  const auto keys = *rc::gen::container<std::vector<int>>(rc::gen::inRange(-1, n_keys));
  std::vector<std::int64_t> start, entry;
  build_segments(n_keys, keys, start, entry);
  RC_ASSERT(start.size() == std::size_t(n_keys) + 1);
  for (int k = 0; k < n_keys; ++k) {
    std::vector<std::int64_t> expected;
    for (std::size_t e = 0; e < keys.size(); ++e)
      if (keys[e] == k) expected.push_back(std::int64_t(e));
    RC_ASSERT(std::vector<std::int64_t>(entry.begin() + start[k], entry.begin() + start[k + 1]) == expected);
  }
}

// The device builder into caller-kept arrays (its CPU path, on host memory) equals build_segments,
// and the arrays may be longer than needed (a step's capacity): only keys.size entries are read.
RC_GTEST_PROP(Segments, DeviceBuilderEqualsHostBuilder, ()) {
  const int n_keys = *rc::gen::inRange(1, 20);
  const auto keys = *rc::gen::container<std::vector<int>>(rc::gen::inRange(-2, n_keys));
  std::vector<std::int64_t> start, entry;
  build_segments(n_keys, keys, start, entry);
  // Every schedule: the atomic scatter lands in another order under each, the per-segment sort
  // must restore the same result.
  const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
  for (ScheduleKind kind : {ScheduleKind::ordered, ScheduleKind::reverse, ScheduleKind::shuffle}) {
    const Schedule old = set_cpu_schedule(Schedule{kind, seed, false});
    std::vector<std::int64_t> d_start(std::size_t(n_keys) + 1, -7), d_entry(keys.size() + 3, -7),
        fill(std::size_t(n_keys), -7);
    build_segments_on(Device::cpu, n_keys, View<const int>{keys.data(), std::int64_t(keys.size())},
                      View<std::int64_t>{d_start.data(), std::int64_t(d_start.size())},
                      View<std::int64_t>{d_entry.data(), std::int64_t(d_entry.size())},
                      View<std::int64_t>{fill.data(), std::int64_t(fill.size())});
    set_cpu_schedule(old);
    RC_ASSERT(d_start == start);
    RC_ASSERT(std::vector<std::int64_t>(d_entry.begin(), d_entry.begin() + std::int64_t(entry.size())) == entry);
  }
}
