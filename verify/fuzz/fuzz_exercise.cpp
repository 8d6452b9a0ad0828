// Fuzz target: an exercise answer file (exercises/<chapter>/<ID>.toml, lib/course/exercises.h).
#include <cstddef>
#include <cstdint>
#include <string>

#include "course/exercises.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace impulse;
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::parsed_or_one_line_error([&] { course::parse_exercise(text, "<fuzz>"); });
  return 0;
}
