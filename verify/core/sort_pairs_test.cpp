// Tests of lib/core/sort_pairs.h: the stable key-value sort and the order-preserving key of a real.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "core/sort_pairs.h"

using namespace impulse;

// Oracle: std::stable_sort of (key, value) by key alone, on a copy.
RC_GTEST_PROP(SortPairs, EqualsStdStableSort, ()) {
  const int n = *rc::gen::inRange(0, 400);
  const std::vector<std::int64_t> keys0 = *rc::gen::container<std::vector<std::int64_t>>(
      std::size_t(n), rc::gen::inRange<std::int64_t>(-5, 6));  // few distinct keys: many ties
  std::vector<int> values0(static_cast<std::size_t>(n));
  std::iota(values0.begin(), values0.end(), 100);
  std::vector<std::pair<std::int64_t, int>> oracle;
  for (int i = 0; i < n; ++i) oracle.push_back({keys0[std::size_t(i)], values0[std::size_t(i)]});
  std::stable_sort(oracle.begin(), oracle.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::int64_t> keys = keys0;
  std::vector<int> values = values0;
  sort_pairs(Device::cpu, View<std::int64_t>{keys.data(), n}, View<int>{values.data(), n});
  for (int i = 0; i < n; ++i) {
    RC_ASSERT(keys[std::size_t(i)] == oracle[std::size_t(i)].first);
    RC_ASSERT(values[std::size_t(i)] == oracle[std::size_t(i)].second);
  }
}

TEST(SortPairs, RefusesTooFewValues) {
  std::vector<std::int64_t> keys{3, 1};
  std::vector<int> values{0};
  EXPECT_THROW(sort_pairs(Device::cpu, View<std::int64_t>{keys.data(), 2}, View<int>{values.data(), 1}),
               std::invalid_argument);
}

// The key orders as the number: for any two reals, compare(x, y) == compare(key(x), key(y)).
RC_GTEST_PROP(SortPairs, RealKeyOrdersAsTheNumber, ()) {
  const auto real_gen = rc::gen::oneOf(rc::gen::inRange(-1000000, 1000000), rc::gen::element(0, 1, -1));
  const double x = *real_gen * std::pow(10.0, *rc::gen::inRange(-300, 300) / 10.0);
  const double y = *rc::gen::element(x, -x, std::nextafter(x, 1e300), std::nextafter(x, -1e300), 0.0, -0.0,
                                     double(*real_gen));
  RC_ASSERT((x < y) == (real_sort_key(x) < real_sort_key(y)));
  RC_ASSERT((x == y) == (real_sort_key(x) == real_sort_key(y)));
}

TEST(SortPairs, RealKeyEnds) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_LT(real_sort_key(-inf), real_sort_key(-1e30));
  EXPECT_LT(real_sort_key(-1e-300), real_sort_key(0.0));
  EXPECT_EQ(real_sort_key(-0.0), real_sort_key(0.0));
  EXPECT_LT(real_sort_key(1e30), real_sort_key(inf));
}
