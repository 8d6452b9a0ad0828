// Tests of the run-time CPU schedule (lib/core/schedule.h) and the primitives of lib/core/scan.h
// that every engine pass calls instead of knowing its backend.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

// This file launches on the CPU only; it is compiled by the host compiler in every build.
#define IMPULSE_HOST_ONLY_PARALLEL_FOR
#include "core/parallel_for.h"
#include "core/scan.h"
#include "core/schedule.h"

using namespace impulse;

namespace {
// The order in which one launch of n items visits them under schedule s (one thread below 1024
// items under ordered, so the order is observable there too).
std::vector<std::int64_t> visit_order(const Schedule& s, std::int64_t n) {
  const Schedule old = set_cpu_schedule(s);
  std::vector<std::int64_t> order;
  parallel_for(Device::cpu, n, [&](std::int64_t i) { order.push_back(i); });
  set_cpu_schedule(old);
  return order;
}
}  // namespace

TEST(Schedule, ParsesTheThreeFormsAndCapacity) {
  EXPECT_EQ(parse_schedule(nullptr).kind, ScheduleKind::ordered);
  EXPECT_EQ(parse_schedule("reverse").kind, ScheduleKind::reverse);
  EXPECT_EQ(parse_schedule("parallel").team_threshold(), 2);
  EXPECT_EQ(parse_schedule("ordered").team_threshold(), 1024);
  const Schedule s = parse_schedule("shuffle:42+capacity");
  EXPECT_EQ(s.kind, ScheduleKind::shuffle);
  EXPECT_EQ(s.seed, 42u);
  EXPECT_TRUE(s.capacity);
  EXPECT_FALSE(parse_schedule("ordered").capacity);
  for (const char* bad : {"random", "shuffle:", "shuffle:x", "shuffle:-1", "shuffle:99999999999999999999999", "+capacity"})
    EXPECT_THROW(parse_schedule(bad), std::invalid_argument) << bad;
}

TEST(Schedule, ReverseVisitsBackwards) {
  const std::vector<std::int64_t> order = visit_order(Schedule{ScheduleKind::reverse, 0, false}, 5);
  EXPECT_EQ(order, (std::vector<std::int64_t>{4, 3, 2, 1, 0}));
}

// A shuffled launch visits every item exactly once, not in index order, and another seed draws
// another order.
RC_GTEST_PROP(Schedule, ShuffleIsAPermutation, ()) {
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 3000);
  const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
  std::vector<std::int64_t> order = visit_order(Schedule{ScheduleKind::shuffle, seed, false}, n);
  std::vector<std::int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::int64_t> iota(std::size_t(n), 0);
  std::iota(iota.begin(), iota.end(), 0);
  RC_ASSERT(sorted == iota);
  if (n >= 8) {
    RC_ASSERT(order != iota);
    RC_ASSERT(order != visit_order(Schedule{ScheduleKind::shuffle, seed + 1, false}, n));
  }
}

TEST(Scan, ExclusiveWithTotalAtTheEnd) {
  const std::vector<int> counts = {3, 0, 2, 5};
  std::vector<std::int64_t> offsets(5, -1);
  exclusive_scan(Device::cpu, View<const int>{counts.data(), 4}, View<std::int64_t>{offsets.data(), 5});
  EXPECT_EQ(offsets, (std::vector<std::int64_t>{0, 3, 3, 5, 10}));
  std::vector<std::int64_t> short_out(4);
  EXPECT_THROW(exclusive_scan(Device::cpu, View<const int>{counts.data(), 4}, View<std::int64_t>{short_out.data(), 4}),
               std::invalid_argument);
  EXPECT_EQ(read_one(Device::cpu, View<const std::int64_t>{offsets.data(), 5}, 4), 10);
}

TEST(Scan, SortKeysAscending) {
  std::vector<std::int64_t> k = {5, -3, 9, 0, 5, 1};
  sort_keys(Device::cpu, View<std::int64_t>{k.data(), 6});
  EXPECT_EQ(k, (std::vector<std::int64_t>{-3, 0, 1, 5, 5, 9}));
}

// The CPU's radix sort against std::sort (an independent sort): keys spread over the whole int64
// range (every digit of the sort varies, negative keys included), over a narrow range (passes
// skipped), and with repeats, at sizes past the 2^11 buckets of a pass.
TEST(Scan, SortKeysEqualsStdSort) {
  std::mt19937_64 rng(26);
  for (const std::uint64_t mask : {~std::uint64_t(0), std::uint64_t(0xfff00000fffull), std::uint64_t(7)})
    for (const std::size_t n : {std::size_t(2), std::size_t(100), std::size_t(5000)}) {
      std::vector<std::int64_t> k(n);
      for (std::int64_t& x : k) x = std::int64_t(rng() & mask) - (mask == 7 ? 3 : 0);
      std::vector<std::int64_t> want = k;
      std::sort(want.begin(), want.end());
      sort_keys(Device::cpu, View<std::int64_t>{k.data(), std::int64_t(n)});
      EXPECT_EQ(k, want) << "mask " << mask << " n " << n;
    }
}

// The extent of a pass over a record's rows: the count read in place on the CPU, clamped to the
// capacity; the capacity, as on a GPU, under a +capacity schedule.
TEST(Scan, LaunchExtent) {
  const Schedule old = set_cpu_schedule(Schedule{});
  int count = 7;
  const View<const int> c{&count, 1};
  EXPECT_EQ(launch_extent(Device::cpu, c, 10), 7);
  count = 12;
  EXPECT_EQ(launch_extent(Device::cpu, c, 10), 10);
  count = -1;
  EXPECT_EQ(launch_extent(Device::cpu, c, 10), 0);
  set_cpu_schedule(Schedule{ScheduleKind::ordered, 0, true});
  EXPECT_EQ(launch_extent(Device::cpu, c, 10), 10);
  set_cpu_schedule(old);
}
