// The browser module's answer for the parts of the engine that are built on native libraries and so
// stay out of it (lib/CMakeLists.txt, IMPULSE_WEB): the URDF and MJCF importers (tinyxml2) and the
// faces of a convex hull (Qhull). Each entry point refuses with one line naming what is missing and
// where it runs, which the page shows in place of a result.
#include <stdexcept>

#include "e1/importers.h"
#include "e3/collision/hull_faces.h"

namespace impulse {

namespace {
[[noreturn]] void not_in_browser(const std::string& what, const std::string& library) {
  throw std::invalid_argument(what + " is not in the browser build (it needs " + library +
                              "); run it with the impulse command or the Python module");
}
}  // namespace

int add_urdf(ModelBuilder&, const std::string&, const UrdfOptions&, const std::string& file) {
  not_in_browser("the URDF importer (" + file + ")", "tinyxml2");
}

void add_mjcf(ModelBuilder&, const std::string&, const MjcfOptions&, const std::string& file) {
  not_in_browser("the MJCF importer (" + file + ")", "tinyxml2");
}

HullFaces convex_hull_faces(const std::vector<vec3>&, const std::string& who) {
  not_in_browser(who + ": the faces of a convex hull", "Qhull");
}

}  // namespace impulse
