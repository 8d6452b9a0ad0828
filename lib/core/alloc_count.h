// A counting hook for heap allocations, read by the benchmarks (allocations per step).
//
// device_alloc (every Buffer) counts itself here. Allocations through operator new are counted
// only in an executable that replaces the global operator new and calls count_allocation() from
// it (the `impulse` command does, in lib/cli/alloc_hook.cpp); allocation_hook_installed() says
// whether it did, so that a benchmark never reports a partial count as a full one.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace impulse {

/// Allocations counted since the program started [-].
std::uint64_t allocation_count();
/// Adds one to the count (thread safe, relaxed).
void count_allocation();
/// True once an executable's replaced operator new has called install_allocation_hook().
bool allocation_hook_installed();
void install_allocation_hook();

/// Launches since the program started [-]: every parallel_for and every scan or sort of
/// core/scan.h counts itself (thread safe, relaxed). A launch allocates nothing in any build: its
/// body is an IMPULSE_KERNEL (core/hd.h), never a __host__ __device__ lambda, whose nvcc wrapper
/// copies the closure to the heap.
std::uint64_t launch_count();

/// A launch's call site, which names it: a default argument LaunchSite() of a launching function
/// holds its caller's function name, line and file (the GCC/Clang/nvcc builtins; std::source_location
/// is missing from the clang 14 and emscripten libraries this project also builds with).
struct LaunchSite {
  const char* function;
  unsigned line;
  const char* file;
  constexpr LaunchSite(const char* fn = __builtin_FUNCTION(), unsigned ln = __builtin_LINE(),
                       const char* f = __builtin_FILE())
      : function(fn), line(ln), file(f) {}
};

/// Counts one launch under its call site (the launching function and line, the launch's name) and
/// under the current stage (set_launch_stage). Allocates nothing: sites live in a fixed table of
/// 1024 (site, stage) entries; launches past a full table count in the total only.
void count_launch(const LaunchSite& where = LaunchSite());

/// The stage later launches count under (a benchmark's "collide", "solve", ...; nullptr: none).
/// The string must outlive the counts (a literal).
void set_launch_stage(const char* stage);

struct LaunchSiteCount {
  std::string name;   // "broad_phase_nxn:103": the launching function's name and the line
  std::string stage;  // set_launch_stage's at the time, or ""
  std::uint64_t count = 0;
};
/// Every (site, stage) counted so far, sites of the same name summed (a header's launch seen from
/// two files), sorted by stage then name. Allocates (a report, never inside a step).
std::vector<LaunchSiteCount> launch_site_counts();

}  // namespace impulse
