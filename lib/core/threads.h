// The number of CPU threads a launch may use: the one place outside parallel_for that touches
// OpenMP (a benchmark comparing one and two threads sets it; lib/core/device.cpp).
#pragma once

namespace impulse {

/// Threads a CPU launch may use: OpenMP's maximum, or 1 in a build without OpenMP (the
/// single-threaded browser module).
int cpu_threads();

/// Sets the threads of later CPU launches; n >= 1 (std::invalid_argument otherwise). Without
/// OpenMP every launch runs on one thread whatever n is.
void set_cpu_threads(int n);

}  // namespace impulse
