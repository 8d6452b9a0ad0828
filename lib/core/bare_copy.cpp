#include "core/bare_copy.h"

#include "core/parallel_for.h"

namespace impulse {

void bare_copy(Device d, View<const double> src, View<double> dst, std::int64_t per_item) {
  parallel_for(d, dst.size / per_item, IMPULSE_KERNEL((std::int64_t item), {
    for (std::int64_t i = item * per_item; i < (item + 1) * per_item; ++i) dst[i] = src[i];
  }));
}

}  // namespace impulse
