// Typed arrays on the CPU or on a CUDA GPU: plain cudaMalloc, explicit copies, never managed memory.
//
// A Buffer owns its storage; a View (pointer + count) is what kernels capture. Copying a Buffer is
// a deep copy on the same device (a snapshot is a real copy); moving transfers ownership.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/device.h"
#include "core/hd.h"

namespace impulse {

void* device_alloc(Device d, std::size_t bytes);
void device_free(Device d, void* p);
/// Copies bytes between any two devices (host<->host, host<->cuda, cuda<->cuda).
void device_copy(void* dst, Device dst_dev, const void* src, Device src_dev, std::size_t bytes);

template <class T>
struct View {
  T* data = nullptr;
  std::int64_t size = 0;
  IMPULSE_HD T& operator[](std::int64_t i) const { return data[i]; }
  /// A mutable view converts to a read-only one.
  template <class U = T, std::enable_if_t<!std::is_const_v<U>, int> = 0>
  IMPULSE_HD operator View<const U>() const {
    return {data, size};
  }
};

template <class T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(Device d, std::int64_t n) : dev_(d), n_(n) {
    if (n_ > 0) ptr_ = static_cast<T*>(device_alloc(dev_, sizeof(T) * n_));
  }
  Buffer(Device d, const std::vector<T>& host) : Buffer(d, static_cast<std::int64_t>(host.size())) {
    if (n_ > 0) device_copy(ptr_, dev_, host.data(), Device::cpu, sizeof(T) * n_);
  }
  Buffer(const Buffer& o) : Buffer(o.dev_, o.n_) {
    if (n_ > 0) device_copy(ptr_, dev_, o.ptr_, o.dev_, sizeof(T) * n_);
  }
  Buffer(Buffer&& o) noexcept { swap(o); }
  Buffer& operator=(Buffer o) noexcept {
    swap(o);
    return *this;
  }
  ~Buffer() {
    if (ptr_) device_free(dev_, ptr_);
  }
  void swap(Buffer& o) noexcept {
    std::swap(dev_, o.dev_);
    std::swap(ptr_, o.ptr_);
    std::swap(n_, o.n_);
  }

  Device device() const { return dev_; }
  std::int64_t size() const { return n_; }
  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  View<T> view() { return {ptr_, n_}; }
  View<const T> view() const { return {ptr_, n_}; }

  /// Copies the contents into a host vector (works for either device).
  std::vector<T> to_host() const {
    std::vector<T> h(static_cast<std::size_t>(n_));
    if (n_ > 0) device_copy(h.data(), Device::cpu, ptr_, dev_, sizeof(T) * n_);
    return h;
  }
  /// Overwrites the contents from a host array of exactly size() elements.
  void copy_from_host(const T* src) {
    if (n_ > 0) device_copy(ptr_, dev_, src, Device::cpu, sizeof(T) * n_);
  }

 private:
  Device dev_ = Device::cpu;
  T* ptr_ = nullptr;
  std::int64_t n_ = 0;
};

/// Host copy of the first n elements of a view living on device d.
template <class T>
std::vector<std::remove_const_t<T>> view_to_host(View<T> v, Device d, std::int64_t n) {
  std::vector<std::remove_const_t<T>> h(static_cast<std::size_t>(n));
  if (n > 0) device_copy(h.data(), Device::cpu, v.data, d, sizeof(T) * n);
  return h;
}

}  // namespace impulse
