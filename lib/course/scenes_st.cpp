// Stewart-Trinkle scenes (filled by the ST chapter work).
#include "course/scenes.h"

namespace impulse::course {

void register_st_scenes(SceneCatalogue&) {}

}  // namespace impulse::course
