// The `impulse` command counts its heap allocations (lib/core/alloc_count.h), so that
// `impulse bench` can report allocations per step. The replaced global operator new forwards to
// malloc; the sanitizer builds (ASan, TSan) keep the sanitizer's own operator new (and report no count).
#include <cstdlib>
#include <new>

#include "core/alloc_count.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define IMPULSE_NO_ALLOC_HOOK 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define IMPULSE_NO_ALLOC_HOOK 1
#endif

#ifndef IMPULSE_NO_ALLOC_HOOK

namespace {
void* counted(std::size_t bytes) {
  impulse::count_allocation();
  void* p = std::malloc(bytes ? bytes : 1);
  if (!p) throw std::bad_alloc();
  return p;
}
void* counted_aligned(std::size_t bytes, std::align_val_t a) {
  impulse::count_allocation();
  const std::size_t al = static_cast<std::size_t>(a);
  const std::size_t rounded = bytes == 0 ? al : (bytes + al - 1) / al * al;  // aligned_alloc wants a multiple
  void* p = std::aligned_alloc(al, rounded);
  if (!p) throw std::bad_alloc();
  return p;
}
struct Install {
  Install() { impulse::install_allocation_hook(); }
} install;
}  // namespace

void* operator new(std::size_t n) { return counted(n); }
void* operator new[](std::size_t n) { return counted(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  impulse::count_allocation();
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  impulse::count_allocation();
  return std::malloc(n ? n : 1);
}
void* operator new(std::size_t n, std::align_val_t a) { return counted_aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_aligned(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

#endif
