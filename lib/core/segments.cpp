#include "core/segments.h"

#include <stdexcept>
#include <string>

namespace impulse {

void build_segments(int key_count, const std::vector<int>& keys, std::vector<std::int64_t>& start,
                    std::vector<std::int64_t>& entry) {
  start.assign(std::size_t(key_count) + 1, 0);
  for (int k : keys) {
    if (k >= key_count)
      throw std::invalid_argument("build_segments: key " + std::to_string(k) + " >= key count " +
                                  std::to_string(key_count));
    if (k >= 0) ++start[std::size_t(k) + 1];
  }
  for (int k = 0; k < key_count; ++k) start[k + 1] += start[k];
  entry.assign(std::size_t(start[key_count]), 0);
  std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
  for (std::size_t e = 0; e < keys.size(); ++e)
    if (keys[e] >= 0) entry[fill[keys[e]]++] = std::int64_t(e);
}

}  // namespace impulse
