// Host<->device copies, counted: the step's one readback is the only copy a step may make (tests
// and `impulse bench` read the count per step), and a copy that stays on one device says so.
//
// Every copy that reads or writes host memory counts itself: device_copy with either side on the
// host (core/buffer.h: Buffer::to_host, copy_from_host, view_to_host, core/scan.h's read_one) and
// host_readable (core/buffer_grow.h), even on the CPU, where the device memory is host memory and
// the copy is in place or a memcpy: a GPU would copy there. launch_extent (core/scan.h) reads a
// count without a copy on a GPU and does not count. copy_on_device never counts.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/device.h"

namespace impulse {

/// Host<->device copies since the program started [-] (thread safe, relaxed).
std::uint64_t host_copy_count();
/// Adds one to the count.
void count_host_copy();

/// Copies bytes from src to dst, both on device d (a device-to-device copy: not a host copy).
void copy_on_device(Device d, void* dst, const void* src, std::size_t bytes);

}  // namespace impulse
