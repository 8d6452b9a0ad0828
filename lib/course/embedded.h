// Text files compiled into the library (see cmake/embed.cmake): exercises/**/*.toml,
// golden/{course,paper}/*.toml and the benchmark scenes bench/peers/scenes/*.toml, keyed by their
// path relative to the repository root.
#pragma once

namespace impulse::course {

struct EmbeddedFile {
  const char* path;
  const char* text;
};

extern const EmbeddedFile embedded_files[];
extern const int embedded_file_count;

}  // namespace impulse::course
