// Host/device portability macros, the launch body of parallel_for, and the engine's scalar type.
//
// One source, two backends (the pbrt-v4 pattern): a function marked IMPULSE_HD compiles for the
// CPU under any compiler and, under nvcc, for the GPU as well.
//
// IMPULSE_KERNEL((parameters), { body }) makes what parallel_for launches, e.g.
//
//   parallel_for(d, n, IMPULSE_KERNEL((std::int64_t i), { out[i] = 2 * in[i]; }));
//
// It captures by value (views, never `this`). Without nvcc it is one plain lambda. Under nvcc it is
// a KernelPair of two lambdas made from the same parameters and body: a __device__ lambda that the
// GPU kernel runs and a plain lambda that the CPU loop runs. One __host__ __device__ lambda would
// serve both, but nvcc wraps every such lambda made in host code in a type-erased holder whose
// constructor copies the closure to the heap (__nv_hdl_wrapper_t, seen in CUDA 13.0): one allocation
// per launch, inside every step. A __device__ lambda's holder and a plain lambda keep the closure
// inline, so the pair allocates nothing (measured: 0 allocations per step on the sphere pile in the
// default CUDA build, where the host-device lambda made one per launch).
//
// The body is a macro argument (so that it can appear twice): commas in it are fine, a preprocessor
// directive inside it is not. A compile error in a body is reported by g++ and clang (the cpu,
// float32 and sanitizer builds) at its own line; nvcc, which compiles the host compiler's
// preprocessed text, reports the line where IMPULSE_KERNEL starts and prints the expanded body
// with a caret under the error.
#pragma once

#if defined(__CUDACC__)
#define IMPULSE_HD __host__ __device__
#define IMPULSE_KERNEL(params, ...) \
  ::impulse::KernelPair{[=] __device__ params __VA_ARGS__, [=] params __VA_ARGS__}
#else
#define IMPULSE_HD
#define IMPULSE_KERNEL(params, ...) [=] params __VA_ARGS__
#endif

namespace impulse {

/// A launch body as two closures of one source: `device` for the GPU kernel, `host` for the CPU
/// loop (what IMPULSE_KERNEL makes under nvcc; parallel_for runs the half that fits its backend).
template <class OnDevice, class OnHost>
struct KernelPair {
  OnDevice device;
  OnHost host;
};
template <class OnDevice, class OnHost>
KernelPair(OnDevice, OnHost) -> KernelPair<OnDevice, OnHost>;

/// Scalar type of every physical quantity in the engine. Double by default: the course's numbers
/// (e.g. 0.00104167 kg m^2) and the LCP pivoting are checked to 1e-9 and tighter. Configure with
/// -DIMPULSE_SINGLE_PRECISION=ON for float32, the precision Newton itself runs in.
#if defined(IMPULSE_SINGLE_PRECISION)
using real = float;
#else
using real = double;
#endif

}  // namespace impulse
