// A counting hook for heap allocations, read by the benchmarks (allocations per step).
//
// device_alloc (every Buffer) counts itself here. Allocations through operator new are counted
// only in an executable that replaces the global operator new and calls count_allocation() from
// it (the `impulse` command does, in lib/cli/alloc_hook.cpp); allocation_hook_installed() says
// whether it did, so that a benchmark never reports a partial count as a full one.
#pragma once

#include <atomic>
#include <cstdint>

namespace impulse {

/// Allocations counted since the program started [-].
std::uint64_t allocation_count();
/// Adds one to the count (thread safe, relaxed).
void count_allocation();
/// True once an executable's replaced operator new has called install_allocation_hook().
bool allocation_hook_installed();
void install_allocation_hook();

/// parallel_for launches since the program started [-] (each counts itself; thread safe, relaxed).
/// In a CUDA build every launch from host code also allocates once: nvcc wraps each
/// __host__ __device__ lambda in an object that copies the closure to the heap, so there the
/// allocation count of a step is at least its launch count.
std::uint64_t launch_count();
void count_launch();

}  // namespace impulse
