// A bare copy on a device: the reference a streaming kernel's throughput is compared with (bytes
// per second of a copy of as many bytes as the kernel reads and writes). Measured, never asserted.
#pragma once

#include "core/buffer.h"

namespace impulse {

/// dst[i] = src[i] for every i < dst.size on device d, `per_item` consecutive elements per
/// parallel_for item (one item per body, as the kernel it is compared with launches). dst.size must
/// be a multiple of per_item.
void bare_copy(Device d, View<const double> src, View<double> dst, std::int64_t per_item);

}  // namespace impulse
