// The shortest decimal of a double, for counting the significant figures an answer is printed with.
#pragma once

#include <cmath>
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

/// shortest_decimal's digits written without an exponent ("0.0008", "2000", "-0.48"); "inf", "nan"
/// with their sign for the non-finite.
inline std::string shortest_fixed(double x) {
  if (std::isnan(x)) return std::signbit(x) ? "-nan" : "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  if (x == 0) return std::signbit(x) ? "-0" : "0";
  const std::string s = shortest_decimal(x);  // "-d.ddde+XX"
  const std::string sign = s[0] == '-' ? "-" : "";
  const std::size_t e = s.find('e');
  std::string digits;
  for (std::size_t i = sign.size(); i < e; ++i)
    if (s[i] != '.') digits += s[i];
  // x = 0.d1 d2 ... * 10^point
  const int point = std::atoi(s.c_str() + e + 1) + 1;
  const int n = int(digits.size());
  if (point <= 0) return sign + "0." + std::string(std::size_t(-point), '0') + digits;
  if (point >= n) return sign + digits + std::string(std::size_t(point - n), '0');
  return sign + digits.substr(0, std::size_t(point)) + "." + digits.substr(std::size_t(point));
}

/// The shorter of shortest_fixed and shortest_decimal, the fixed one on a tie ("0.48", "1e-05",
/// "2000"): what std::to_chars(double) prints, for the builds whose libc++ lacks it.
inline std::string shortest_general(double x) {
  const std::string f = shortest_fixed(x), e = shortest_decimal(x);
  return f.size() <= e.size() ? f : e;
}

}  // namespace impulse
