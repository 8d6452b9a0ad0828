// The count of host<->device copies (copy_on_device lives beside device_copy in buffer.cpp).
#include "core/host_copies.h"

#include <atomic>

namespace impulse {

namespace {
constinit std::atomic<std::uint64_t> g_host_copies{0};
}  // namespace

std::uint64_t host_copy_count() { return g_host_copies.load(std::memory_order_relaxed); }
void count_host_copy() { g_host_copies.fetch_add(1, std::memory_order_relaxed); }

}  // namespace impulse
