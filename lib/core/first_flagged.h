// The first flagged item of a device array, found on the device: what a step reports at its one
// readback (the first body with a non-finite pose, the first contact row naming a shape outside
// the Model) without copying the flags to the host.
#pragma once

#include <cstdint>

#include "core/alloc_count.h"
#include "core/buffer.h"

namespace impulse {

/// Items a block of first_flagged scans, in index order [items].
constexpr std::int64_t kFirstFlaggedBlock = 256;
/// Scratch entries first_flagged needs for n flags: one per block of kFirstFlaggedBlock.
inline std::int64_t first_flagged_blocks(std::int64_t n) { return (n + kFirstFlaggedBlock - 1) / kFirstFlaggedBlock; }

/// out[0] = the least i in [0, flags.size) with flags[i] != 0, or -1 when there is none. Each block
/// of kFirstFlaggedBlock flags finds its own first one (in index order), then one item takes the
/// first block that found one, so the result does not depend on the schedule. block_first holds at
/// least first_flagged_blocks(flags.size) ints of scratch on d; out stays on the device.
void first_flagged(Device d, View<const int> flags, View<int> block_first, View<int> out,
                   LaunchSite where = LaunchSite());

}  // namespace impulse
