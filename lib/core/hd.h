// Host/device portability macros and the engine's scalar type.
//
// One source, two backends (the pbrt-v4 pattern): a function marked IMPULSE_HD compiles for the
// CPU under any compiler and, under nvcc, for the GPU as well. IMPULSE_LAMBDA makes a lambda that
// parallel_for can launch on either backend; it always captures by value (views, never `this`).
#pragma once

#if defined(__CUDACC__)
#define IMPULSE_HD __host__ __device__
#define IMPULSE_LAMBDA(...) [=] __host__ __device__(__VA_ARGS__)
#else
#define IMPULSE_HD
#define IMPULSE_LAMBDA(...) [=](__VA_ARGS__)
#endif

namespace impulse {

/// Scalar type of every physical quantity in the engine. Double by default: the course's numbers
/// (e.g. 0.00104167 kg m^2) and the LCP pivoting are checked to 1e-9 and tighter. Configure with
/// -DIMPULSE_SINGLE_PRECISION=ON for float32, the precision Newton itself runs in.
#if defined(IMPULSE_SINGLE_PRECISION)
using real = float;
#else
using real = double;
#endif

}  // namespace impulse
