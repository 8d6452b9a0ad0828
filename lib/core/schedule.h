// The CPU schedule of every launch, chosen at run time (IMPULSE_SCHEDULE), so that the contract of
// parallel_for (each item writes its own outputs; the result does not depend on the order the items
// run in) is tested rather than assumed:
//
//   IMPULSE_SCHEDULE=ordered          OpenMP threads, items in index order within a thread (default);
//                                     a launch below 1024 items runs on the calling thread
//   IMPULSE_SCHEDULE=parallel         as ordered, but every launch of 2 items or more on the thread
//                                     team (the ThreadSanitizer pass: small scenes, several threads)
//   IMPULSE_SCHEDULE=reverse          one thread, items n-1 down to 0
//   IMPULSE_SCHEDULE=shuffle:SEED     one thread, items in a pseudo-random permutation of [0, n)
//                                     drawn from SEED and the launch's number
//   ...+capacity                      (e.g. shuffle:7+capacity) passes whose row count lives on the
//                                     device launch over the capacity on the CPU too, as on a GPU
//
// A bad value is refused with one line naming the variable, its value and the allowed forms.
#pragma once

#include <cstdint>

#include "core/hd.h"

namespace impulse {

enum class ScheduleKind { ordered, parallel, reverse, shuffle };

struct Schedule {
  ScheduleKind kind = ScheduleKind::ordered;
  std::uint64_t seed = 0;
  bool capacity = false;  // launch_extent returns the capacity on the CPU too
  /// The fewest items an ordered launch runs on the OpenMP team (fewer: the calling thread).
  std::int64_t team_threshold() const { return kind == ScheduleKind::parallel ? 2 : 1024; }
};

/// Parses a value of IMPULSE_SCHEDULE; throws std::invalid_argument with one line otherwise.
Schedule parse_schedule(const char* text);

/// The schedule of this process: IMPULSE_SCHEDULE read once (ordered when unset).
const Schedule& cpu_schedule();

/// Replaces the schedule (tests); returns the previous one.
Schedule set_cpu_schedule(const Schedule& s);

/// The k-th item of a launch of n items under a shuffled schedule: a bijection of [0, n) keyed by
/// (seed, launch), a 4-round Feistel network on the smallest even-bit power of two >= n with cycle
/// walking back into [0, n). Allocates nothing.
std::int64_t shuffled_item(std::uint64_t seed, std::uint64_t launch, std::int64_t n, std::int64_t k);

}  // namespace impulse
