// The shortest decimal of a double, for counting the significant figures an answer is printed with.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace impulse {

/// The shortest decimal that reads back as exactly x, in scientific notation ("3.33333e-02",
/// "2e+03"): the fewest digits d in 1..17 for which printf's "%.{d-1}e" round-trips through strtod.
/// One portable routine for every build (the browser toolchain's libc++ has no std::to_chars for
/// double). x must be finite.
inline std::string shortest_decimal(double x) {
  char buf[40];
  for (int precision = 0; precision < 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision, x);
    if (std::strtod(buf, nullptr) == x) return buf;
  }
  std::snprintf(buf, sizeof buf, "%.16e", x);
  return buf;
}

}  // namespace impulse
