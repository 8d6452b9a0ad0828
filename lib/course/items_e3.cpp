// Registration of the E3 items (course seed 000: contacts, solvers and force observation).
#include "course/registry.h"

namespace impulse::course {

void register_e3(Registry&) {}

}  // namespace impulse::course
