// Frames of shapes and joints (course E1 §2).
#pragma once

#include "core/math.h"

namespace impulse {

/// @formula E1.2-shape-compose  World pose of a shape from its body pose and its body-relative
/// xform (course E1 §1-§2): a shape xform is never a world pose by itself.
///   T_W,shape = T_WB T_B,shape
/// A static shape (body = -1) passes T_WB = identity, so its xform is already in world.
IMPULSE_HD inline transform shape_world_transform(const transform& body_q, const transform& shape_xform) {
  return transform_multiply(body_q, shape_xform);
}

}  // namespace impulse
