// Constants shared by the E1 formulas.
#pragma once

#include "core/hd.h"

namespace impulse {

constexpr real kPi = real(3.14159265358979323846);

}  // namespace impulse
