// Launch sites for State buffers (either backend).
#include "core/parallel_for.h"
#include "e1/model.h"

namespace impulse {

void fill_zero(Device d, View<spatial_vector> v) {
  parallel_for(d, v.size, IMPULSE_KERNEL((std::int64_t i), { v[i] = spatial_vector{}; }));
}

}  // namespace impulse
