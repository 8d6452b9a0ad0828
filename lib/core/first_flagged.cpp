#include "core/first_flagged.h"

#include "core/parallel_for.h"

namespace impulse {

void first_flagged(Device d, View<const int> flags, View<int> block_first, View<int> out, LaunchSite where) {
  const std::int64_t n = flags.size, blocks = first_flagged_blocks(n);
  parallel_for(d, blocks, IMPULSE_KERNEL((std::int64_t k), {
    const std::int64_t i1 = (k + 1) * kFirstFlaggedBlock < n ? (k + 1) * kFirstFlaggedBlock : n;
    int first = -1;
    for (std::int64_t i = k * kFirstFlaggedBlock; i < i1 && first < 0; ++i)
      if (flags[i] != 0) first = static_cast<int>(i);
    block_first[k] = first;
  }), where);
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), {
    int first = -1;
    for (std::int64_t k = 0; k < blocks && first < 0; ++k) first = block_first[k];
    out[0] = first;
  }), where);
}

}  // namespace impulse
