// fill: every element of a device array set to one value, on the device (no host copy): what a
// step uses to reset a count or a flag that lives on the device (cudaMemset's job, for any T).
#pragma once

#include <cstdint>

#include "core/buffer.h"
#include "core/parallel_for.h"

namespace impulse {

/// v[i] = value for every i < v.size, on device d. where: the launch's name (core/alloc_count.h).
template <class T>
void fill(Device d, View<T> v, T value, LaunchSite where = LaunchSite()) {
  parallel_for(d, v.size, IMPULSE_KERNEL((std::int64_t i), { v[i] = value; }), where);
}

}  // namespace impulse
