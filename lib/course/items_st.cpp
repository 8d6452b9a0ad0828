// Registration of the Stewart-Trinkle items (course seed 004: reading of Stewart & Trinkle 1996).
#include "course/registry.h"

namespace impulse::course {

void register_st(Registry&) {}

}  // namespace impulse::course
