// Tests of the backend layer: device selection, buffers, parallel_for and ordered sums.
#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <numeric>

#include "core/buffer.h"
#include "core/device.h"
// This file launches on the CPU only; it is compiled by the host compiler in every build.
#define IMPULSE_HOST_ONLY_PARALLEL_FOR
#include "core/parallel_for.h"
#include "core/reduce.h"
#include "e1/spatial_kernels.h"
#include "e1/spatial_shift.h"
#include "support/generators.h"

using namespace impulse;

TEST(CoreDevice, SelectsCpuAndRejectsUnknownNames) {
  EXPECT_EQ(select_device("cpu"), Device::cpu);
  EXPECT_NO_THROW(select_device("auto"));
  try {
    select_device("tpu");
    FAIL() << "tpu accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'tpu'"), std::string::npos);
  }
}

TEST(CoreDevice, CudaRequestExplainsWhyItIsUnavailable) {
  if (cuda_built() && cuda_device_count() > 0) GTEST_SKIP() << "a GPU is present";
  try {
    select_device("cuda");
    FAIL() << "cuda accepted without a GPU";
  } catch (const std::runtime_error& e) {
    std::string m = e.what();
    EXPECT_TRUE(m.find("no CUDA support") != std::string::npos || m.find("no CUDA GPU") != std::string::npos) << m;
  }
}

TEST(CoreBuffer, CopyIsDeepAndMoveTransfers) {
  Buffer<double> a(Device::cpu, std::vector<double>{1, 2, 3});
  Buffer<double> b = a;
  b.data()[0] = 42;
  EXPECT_EQ(a.to_host()[0], 1);
  EXPECT_EQ(b.to_host()[0], 42);
  Buffer<double> c = std::move(b);
  EXPECT_EQ(c.size(), 3);
  EXPECT_EQ(c.to_host()[0], 42);
}

TEST(CoreParallelFor, VisitsEveryIndexOnce) {
  const std::int64_t n = 100003;
  Buffer<int> hits(Device::cpu, std::vector<int>(n, 0));
  View<int> h = hits.view();
  parallel_for(Device::cpu, n, IMPULSE_KERNEL((std::int64_t i), { h[i] += 1; }));
  auto v = hits.to_host();
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0LL), n);
  EXPECT_EQ(*std::min_element(v.begin(), v.end()), 1);
}

// Under nvcc IMPULSE_KERNEL makes a KernelPair (core/hd.h); the CPU loops run its host half only,
// the GPU launch its device half. Here the device half marks what it would touch with -1.
TEST(CoreParallelFor, RunsTheHostHalfOfAKernelPairOnTheCpu) {
  const std::int64_t n = 5000;
  Buffer<int> hits(Device::cpu, std::vector<int>(n, 0));
  View<int> h = hits.view();
  const KernelPair pair{[=](std::int64_t i) { h[i] = -1; }, [=](std::int64_t i) { h[i] += 1; }};
  parallel_for(Device::cpu, n, pair);
  parallel_for_uneven(Device::cpu, n, pair);
  auto v = hits.to_host();
  EXPECT_EQ(*std::min_element(v.begin(), v.end()), 2);
  EXPECT_EQ(*std::max_element(v.begin(), v.end()), 2);
}

namespace {
std::vector<double> segmented(int threads, const std::vector<double>& values, const std::vector<std::int64_t>& start) {
  omp_set_num_threads(threads);
  Buffer<double> v(Device::cpu, values), out(Device::cpu, static_cast<std::int64_t>(start.size()) - 1);
  Buffer<std::int64_t> s(Device::cpu, start);
  segmented_sum<double>(Device::cpu, {v.data(), v.size()}, {s.data(), s.size()}, out.view());
  return out.to_host();
}
}  // namespace

// Ordered sums do not depend on the thread count, bit for bit, and equal a serial left fold.
RC_GTEST_PROP(CoreReduce, SegmentedSumIsBitwiseDeterministic, ()) {
  auto sizes = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 40));
  std::vector<std::int64_t> start{0};
  std::vector<double> values;
  for (int s : sizes) {
    for (int k = 0; k < s; ++k) values.push_back(*gen::in_range(-1e3, 1e3) * std::pow(10.0, *rc::gen::inRange(-8, 8)));
    start.push_back(static_cast<std::int64_t>(values.size()));
  }
  auto one = segmented(1, values, start), two = segmented(2, values, start);
  omp_set_num_threads(omp_get_num_procs());
  RC_ASSERT(one.size() == sizes.size());
  // memcmp on an empty vector's data() (possibly null) is undefined: compare only when non-empty.
  // (Not inside RC_ASSERT: its expression capture evaluates both operands of ||.)
  RC_ASSERT(one.size() == two.size());
  const bool same = one.empty() || std::memcmp(one.data(), two.data(), one.size() * sizeof(double)) == 0;
  RC_ASSERT(same);
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    double acc = 0;
    for (std::int64_t k = start[s]; k < start[s + 1]; ++k) acc += values[k];
    RC_ASSERT(acc == one[s]);
  }
}

namespace {
// A random grouped index of two-sided items (build_segments_on's layout): every entry 2 i + side of
// `items` items joins one of `segments` segments at random, and a segment lists its entries in
// decreasing order (so entry order is not item order).
struct GroupedIndex {
  std::vector<std::vector<std::int64_t>> members;  // per segment, its entries in increasing order
  std::vector<std::int64_t> start{0}, entry;
};
GroupedIndex random_grouped_index(int items, int segments) {
  GroupedIndex g;
  g.members.resize(static_cast<std::size_t>(segments));
  for (std::int64_t e = 0; e < 2 * items; ++e) g.members[std::size_t(*rc::gen::inRange(0, segments))].push_back(e);
  for (auto& m : g.members) {
    g.entry.insert(g.entry.end(), m.rbegin(), m.rend());
    g.start.push_back(static_cast<std::int64_t>(g.entry.size()));
  }
  return g;
}
}  // namespace

// segmented_sum_into adds each segment's gathered entries onto out's old value one by one, in
// entry order: bitwise the serial left fold from that value (not old + (sum of the entries)), under
// any schedule of the segments.
RC_GTEST_PROP(CoreReduce, SegmentedSumIntoFoldsGatheredEntriesOntoOut, ()) {
  const int items = *rc::gen::inRange(0, 30), segments = *rc::gen::inRange(1, 8);
  auto random_sv = [] {
    auto x = [] { return *gen::in_range(-1e3, 1e3) * std::pow(10.0, *rc::gen::inRange(-8, 8)); };
    return spatial_vector{{x(), x(), x()}, {x(), x(), x()}};
  };
  std::vector<spatial_vector> side0, side1, init;
  for (int i = 0; i < items; ++i) side0.push_back(random_sv()), side1.push_back(random_sv());
  for (int s = 0; s < segments; ++s) init.push_back(random_sv());
  const GroupedIndex g = random_grouped_index(items, segments);
  const std::vector<std::int64_t>&start = g.start, &entry = g.entry;
  Buffer<spatial_vector> a(Device::cpu, side0), b(Device::cpu, side1), out(Device::cpu, init);
  Buffer<std::int64_t> st(Device::cpu, start), en(Device::cpu, entry);
  segmented_sum_into(Device::cpu, View<const std::int64_t>(st.view()), View<const std::int64_t>(en.view()),
                     TwoSidedEntry{a.view(), b.view()}, out.view());
  const std::vector<spatial_vector> got = out.to_host();
  for (int s = 0; s < segments; ++s) {
    spatial_vector acc = init[std::size_t(s)];
    for (std::int64_t k = start[std::size_t(s)]; k < start[std::size_t(s) + 1]; ++k) {
      const std::int64_t e = entry[std::size_t(k)];
      const spatial_vector& w = (e & 1) ? side1[std::size_t(e >> 1)] : side0[std::size_t(e >> 1)];
      acc.lin = acc.lin + w.lin;
      acc.ang = acc.ang + w.ang;
    }
    RC_ASSERT(std::memcmp(&acc, &got[std::size_t(s)], sizeof(spatial_vector)) == 0);
  }
}

namespace {
// keep: entry e counts where mask[e >> 1] is set (XPBD's active rows).
struct MaskedItem {
  View<const int> mask;
  bool operator()(std::int64_t e) const { return mask[e >> 1] != 0; }
};
// finish: the sum and the count of each segment into two arrays.
struct StoreSumAndCount {
  View<spatial_vector> sum;
  View<int> count;
  void operator()(std::int64_t s, const spatial_vector& acc, int N) const {
    sum[s] = acc;
    count[s] = N;
  }
};
}  // namespace

// segmented_sum_where folds the kept entries of each segment from zero in entry order and hands the
// sum and the number kept to finish: bitwise the serial fold over the masked entries, under any
// thread count.
RC_GTEST_PROP(CoreReduce, SegmentedSumWhereFoldsTheKeptEntriesAndCountsThem, ()) {
  const int items = *rc::gen::inRange(0, 30), segments = *rc::gen::inRange(1, 8);
  auto x = [] { return *gen::in_range(-1e3, 1e3) * std::pow(10.0, *rc::gen::inRange(-8, 8)); };
  std::vector<spatial_vector> side0, side1;
  std::vector<int> mask;
  for (int i = 0; i < items; ++i) {
    side0.push_back({{x(), x(), x()}, {x(), x(), x()}});
    side1.push_back({{x(), x(), x()}, {x(), x(), x()}});
    mask.push_back(*rc::gen::inRange(0, 2));
  }
  const GroupedIndex g = random_grouped_index(items, segments);
  const std::vector<std::int64_t>&start = g.start, &entry = g.entry;
  const std::vector<std::vector<std::int64_t>>& members = g.members;
  Buffer<spatial_vector> a(Device::cpu, side0), b(Device::cpu, side1);
  Buffer<int> keep(Device::cpu, mask);
  Buffer<std::int64_t> st(Device::cpu, start), en(Device::cpu, entry);
  std::vector<std::vector<spatial_vector>> sums;
  std::vector<std::vector<int>> counts;
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    Buffer<spatial_vector> sum(Device::cpu, segments);
    Buffer<int> count(Device::cpu, segments);
    segmented_sum_where<spatial_vector>(Device::cpu, segments, st.view(), en.view(), MaskedItem{keep.view()},
                                        TwoSidedEntry{a.view(), b.view()}, StoreSumAndCount{sum.view(), count.view()});
    sums.push_back(sum.to_host());
    counts.push_back(count.to_host());
  }
  omp_set_num_threads(omp_get_num_procs());
  for (int s = 0; s < segments; ++s) {
    spatial_vector acc{};
    int N = 0;
    // The segment lists its entries in decreasing e (entry order): the fold runs from the back.
    for (auto it = members[std::size_t(s)].rbegin(); it != members[std::size_t(s)].rend(); ++it) {
      const std::int64_t e = *it;
      if (!mask[std::size_t(e >> 1)]) continue;
      const spatial_vector& w = (e & 1) ? side1[std::size_t(e >> 1)] : side0[std::size_t(e >> 1)];
      acc.lin = acc.lin + w.lin;
      acc.ang = acc.ang + w.ang;
      ++N;
    }
    for (std::size_t r = 0; r < sums.size(); ++r) {
      RC_ASSERT(std::memcmp(&acc, &sums[r][std::size_t(s)], sizeof(spatial_vector)) == 0);
      RC_ASSERT(counts[r][std::size_t(s)] == N);
    }
  }
}

// The batched kernel calls the same formula as the scalar function, element for element.
TEST(E1_6_origin_velocity, BatchedKernelEqualsScalarFormula) {
  const int n = 1000;
  std::vector<vec3> v(n), w(n), c(n);
  std::vector<quat> q(n);
  for (int i = 0; i < n; ++i) {
    v[i] = {0.01 * i, 1, -2};
    w[i] = {0.5, -0.001 * i, 2};
    c[i] = {0.1, 0, 0.0001 * i};
    q[i] = quat_from_axis_angle({1, 1, 0.1 * i}, 0.01 * i);
  }
  Buffer<vec3> bv(Device::cpu, v), bw(Device::cpu, w), bc(Device::cpu, c), out(Device::cpu, n);
  Buffer<quat> bq(Device::cpu, q);
  eval_origin_velocities(Device::cpu, {bv.data(), n}, {bw.data(), n}, {bq.data(), n}, {bc.data(), n}, out.view());
  auto got = out.to_host();
  for (int i = 0; i < n; ++i) {
    vec3 e = origin_velocity(v[i], w[i], q[i], c[i]);
    ASSERT_EQ(std::memcmp(&got[i], &e, sizeof(vec3)), 0) << i;
  }
}

// CPU/GPU parity of the same kernel (skips without a GPU).
TEST(E1_6_origin_velocity, GpuParityWithCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU in this build/machine";
  const int n = 1 << 16;
  std::vector<vec3> v(n), w(n), c(n);
  std::vector<quat> q(n);
  for (int i = 0; i < n; ++i) {
    v[i] = {1e-4 * i, 1, -2};
    w[i] = {0.5, -1e-5 * i, 2};
    c[i] = {0.1, 0, 1e-6 * i};
    q[i] = quat_from_axis_angle({1, 1, 1e-3 * i}, 1e-4 * i);
  }
  std::vector<vec3> results[2];
  Device devs[2] = {Device::cpu, Device::cuda};
  for (int k = 0; k < 2; ++k) {
    Buffer<vec3> bv(devs[k], v), bw(devs[k], w), bc(devs[k], c), out(devs[k], n);
    Buffer<quat> bq(devs[k], q);
    eval_origin_velocities(devs[k], {bv.data(), n}, {bw.data(), n}, {bq.data(), n}, {bc.data(), n}, out.view());
    results[k] = out.to_host();
  }
  for (int i = 0; i < n; ++i) {
    ASSERT_NEAR(results[0][i].x, results[1][i].x, 1e-12);
    ASSERT_NEAR(results[0][i].y, results[1][i].y, 1e-12);
    ASSERT_NEAR(results[0][i].z, results[1][i].z, 1e-12);
  }
}
