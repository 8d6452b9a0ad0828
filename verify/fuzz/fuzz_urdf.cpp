// Fuzz target: the URDF importer (lib/e1/importers.h), then ModelBuilder::finalize on what it built.
// The importer options come from the input's length, so one corpus file reaches several of them.
#include <cstddef>
#include <cstdint>
#include <string>

#include "e1/importers.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace impulse;
  const std::string text(reinterpret_cast<const char*>(data), size);
  UrdfOptions o;
  o.floating = size & 1;
  o.collapse_fixed_joints = size & 2;
  o.parse_visuals_as_colliders = size & 4;
  o.ignore_inertial_definitions = size & 8;
  fuzz::parsed_or_one_line_error([&] {
    ModelBuilder b;
    add_urdf(b, text, o, "<fuzz>");
    b.finalize();
  });
  return 0;
}
