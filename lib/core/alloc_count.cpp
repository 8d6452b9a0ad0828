#include "core/alloc_count.h"

#include <cstddef>
#include <map>
#include <utility>

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

namespace {
struct SiteSlot {
  std::atomic<const char*> file{nullptr};
  std::atomic<std::uint32_t> line{0};
  std::atomic<const char*> stage{nullptr};
  std::atomic<const char*> function{nullptr};
  std::atomic<std::uint64_t> count{0};
};
constexpr std::size_t kSlots = 1024;
SiteSlot g_sites[kSlots];
std::atomic<const char*> g_stage{nullptr};

}  // namespace

void set_launch_stage(const char* stage) { g_stage.store(stage, std::memory_order_relaxed); }

void count_launch(const LaunchSite& where) {
  g_launches.fetch_add(1, std::memory_order_relaxed);
  const char* file = where.file;
  const std::uint32_t line = where.line;
  const char* stage = g_stage.load(std::memory_order_relaxed);
  std::size_t h = (reinterpret_cast<std::uintptr_t>(file) ^ (std::size_t(line) * 0x9e3779b97f4a7c15ULL) ^
                   (reinterpret_cast<std::uintptr_t>(stage) >> 3)) % kSlots;
  for (std::size_t probe = 0; probe < kSlots; ++probe, h = (h + 1) % kSlots) {
    SiteSlot& s = g_sites[h];
    const char* f = s.file.load(std::memory_order_acquire);
    if (f == nullptr) {
      const char* expected = nullptr;
      if (s.file.compare_exchange_strong(expected, file, std::memory_order_acq_rel)) {
        s.line.store(line, std::memory_order_relaxed);
        s.stage.store(stage, std::memory_order_relaxed);
        s.function.store(where.function, std::memory_order_release);
        s.count.fetch_add(1, std::memory_order_relaxed);
        return;
      }
      f = expected;
    }
    if (f == file && s.line.load(std::memory_order_relaxed) == line && s.stage.load(std::memory_order_relaxed) == stage) {
      s.count.fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
}

std::vector<LaunchSiteCount> launch_site_counts() {
  std::map<std::pair<std::string, std::string>, std::uint64_t> sum;
  for (const SiteSlot& s : g_sites) {
    const char* file = s.file.load(std::memory_order_acquire);
    if (!file) continue;
    const char* stage = s.stage.load(std::memory_order_relaxed);
    const char* function = s.function.load(std::memory_order_acquire);
    const std::string name = std::string(function ? function : "?") + ":" + std::to_string(s.line.load(std::memory_order_relaxed));
    sum[{stage ? stage : "", name}] += s.count.load(std::memory_order_relaxed);
  }
  std::vector<LaunchSiteCount> out;
  for (const auto& [key, n] : sum) out.push_back({key.second, key.first, n});
  return out;
}

}  // namespace impulse
