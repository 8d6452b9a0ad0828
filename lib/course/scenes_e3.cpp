// E3 scenes (filled by the E3 chapter work).
#include "course/scenes.h"

namespace impulse::course {

void register_e3_scenes(SceneCatalogue&) {}

}  // namespace impulse::course
