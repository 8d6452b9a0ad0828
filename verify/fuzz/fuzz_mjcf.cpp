// Fuzz target: the MJCF importer (lib/e1/importers.h), then ModelBuilder::finalize on what it built.
#include <cstddef>
#include <cstdint>
#include <string>

#include "e1/importers.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace impulse;
  const std::string text(reinterpret_cast<const char*>(data), size);
  MjcfOptions o;
  o.ignore_inertial_definitions = size & 1;
  fuzz::parsed_or_one_line_error([&] {
    ModelBuilder b;
    add_mjcf(b, text, o, "<fuzz>");
    b.finalize();
  });
  return 0;
}
