// Buffers that a stage keeps between calls: grown only when a count grows, read on the host without
// a copy where the device is the host.
#pragma once

#include <cstdint>
#include <vector>

#include "core/buffer.h"
#include "core/host_copies.h"

namespace impulse {

/// Makes b hold at least n elements on device d, growing it geometrically (to at least twice its
/// old size) so that a count that creeps up reallocates rarely; the contents are not kept. A
/// no-op when b already holds n elements there. Returns true when it allocated.
template <class T>
bool grow_to(Buffer<T>& b, Device d, std::int64_t n) {
  if (b.size() >= n && b.device() == d) return false;
  const std::int64_t doubled = b.device() == d ? 2 * b.size() : 0;
  b = Buffer<T>(d, n > doubled ? n : doubled);
  return true;
}

/// A host-readable pointer to the first n elements of v on device d: v.data itself on the CPU,
/// where the device memory is host memory (no copy), else a copy into host (grown, never shrunk).
/// Counts as a host copy either way (core/host_copies.h): a GPU would copy.
template <class T>
const T* host_readable(View<const T> v, Device d, std::int64_t n, std::vector<T>& host) {
  if (n <= 0) return v.data;
  if (d == Device::cpu) {
    count_host_copy();
    return v.data;
  }
  if (std::int64_t(host.size()) < n) host.resize(std::size_t(n));
  device_copy(host.data(), Device::cpu, v.data, d, sizeof(T) * n);
  return host.data();
}

}  // namespace impulse

namespace impulse {

/// Where host code may write the first n elements of v on device d: v.data itself on the CPU (no
/// copy), else host staging space (grown, never shrunk); publish_host_writes then puts them in v.
template <class T>
T* host_writable(View<T> v, Device d, std::int64_t n, std::vector<T>& host) {
  if (d == Device::cpu || n <= 0) return v.data;
  if (std::int64_t(host.size()) < n) host.resize(std::size_t(n));
  return host.data();
}

/// Copies what host code wrote at p (from host_writable) into v on device d; nothing when p is v.data.
template <class T>
void publish_host_writes(View<T> v, Device d, std::int64_t n, const T* p) {
  if (p != v.data && n > 0) device_copy(v.data, d, p, Device::cpu, sizeof(T) * n);
}

}  // namespace impulse
