// Sorting keys that carry values, on a device array: the stable sort a pass uses to order entries
// by a computed key (the SAP's sweep entries by their interval start, then by world), and the
// integer key of a real number that orders as the number does.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/alloc_count.h"
#include "core/buffer.h"
#include "core/hd.h"

namespace impulse {

/// Sorts keys[0, n) ascending and moves values[0, n) with them, n = keys.size (values holds at
/// least n): stable, so equal keys keep the order their values had (CUB's radix sort of pairs on a
/// GPU, a stable sort on the CPU; both keep their scratch and grow it, never free it).
void sort_pairs(Device d, View<std::int64_t> keys, View<int> values, LaunchSite where = LaunchSite());

/// Binary search: the first position in keys[0, n) (ascending, as sort_pairs leaves them) whose key
/// is not below k; n when every key is below k. A key's rank among equal keys at position p is
/// p - first_not_below(keys, p, keys[p]).
IMPULSE_HD inline std::int64_t first_not_below(const std::int64_t* keys, std::int64_t n, std::int64_t k) {
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// A sort key of x that orders as x does (x < y  <=>  key(x) < key(y) for every non-NaN x, y; -0
/// and +0 give one key): the IEEE-754 bits of the double with the sign bit set for x >= 0 and
/// every bit flipped for x < 0 (then unsigned order is numeric order), shifted to the signed range.
IMPULSE_HD inline std::int64_t real_sort_key(double x) {
  x = x + 0.0;  // -0 -> +0
  std::uint64_t u;
  memcpy(&u, &x, sizeof u);
  const std::uint64_t sign = std::uint64_t(1) << 63;
  u = (u & sign) ? ~u : (u | sign);
  return static_cast<std::int64_t>(u ^ sign);
}

}  // namespace impulse
