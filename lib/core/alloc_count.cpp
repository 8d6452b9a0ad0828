#include "core/alloc_count.h"

namespace impulse {

namespace {
// Constant-initialised, so that an operator new called before main() can already count.
constinit std::atomic<std::uint64_t> g_count{0};
constinit std::atomic<bool> g_hook{false};
constinit std::atomic<std::uint64_t> g_launches{0};
}  // namespace

std::uint64_t allocation_count() { return g_count.load(std::memory_order_relaxed); }
void count_allocation() { g_count.fetch_add(1, std::memory_order_relaxed); }
bool allocation_hook_installed() { return g_hook.load(std::memory_order_relaxed); }
void install_allocation_hook() { g_hook.store(true, std::memory_order_relaxed); }
std::uint64_t launch_count() { return g_launches.load(std::memory_order_relaxed); }
void count_launch() { g_launches.fetch_add(1, std::memory_order_relaxed); }

}  // namespace impulse
