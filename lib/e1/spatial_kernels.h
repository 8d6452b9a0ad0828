// Batched E1 §6 reference-point shifts over many bodies (SoA arrays, either backend).
#pragma once

#include "core/buffer.h"
#include "core/math.h"

namespace impulse {

/// For every body b: v_B[b] = origin_velocity(v_C[b], omega[b], q[b], c_B[b])   [m/s]
/// (E1.6-origin-velocity). All views have the same size and live on device d.
void eval_origin_velocities(Device d, View<const vec3> v_C, View<const vec3> omega, View<const quat> q,
                            View<const vec3> c_B, View<vec3> v_B);

}  // namespace impulse
