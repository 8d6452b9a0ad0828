#include "e1/spatial_kernels.h"

#include "core/parallel_for.h"
#include "e1/spatial_shift.h"

namespace impulse {

void eval_origin_velocities(Device d, View<const vec3> v_C, View<const vec3> omega, View<const quat> q,
                            View<const vec3> c_B, View<vec3> v_B) {
  parallel_for(d, v_B.size, IMPULSE_KERNEL((std::int64_t b), {
    v_B[b] = origin_velocity(v_C[b], omega[b], q[b], c_B[b]);
  }));
}

}  // namespace impulse
