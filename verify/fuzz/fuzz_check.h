// What every fuzz target demands of a parser: the input ends in a parsed model or in one exception
// of the kinds the command line turns into its one-line error (std::invalid_argument,
// std::runtime_error) with a message of one non-empty line. Anything else (another exception, a
// crash, a sanitizer report, a hang caught by libFuzzer's -timeout, an allocation over -rss_limit_mb)
// is a finding.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace impulse::fuzz {

[[noreturn]] inline void finding(const char* what, const char* message) {
  std::fprintf(stderr, "fuzz finding: %s: %s\n", what, message);
  std::abort();
}

inline void check_one_line(const char* message) {
  if (message[0] == '\0') finding("empty error message", "");
  if (std::strchr(message, '\n') || std::strchr(message, '\r')) finding("error message of more than one line", message);
}

/// Runs parse(); returns true when it ended in a parsed model, false on a one-line error.
template <class F>
bool parsed_or_one_line_error(F&& parse) {
  try {
    parse();
    return true;
  } catch (const std::invalid_argument& e) {
    check_one_line(e.what());
  } catch (const std::runtime_error& e) {
    check_one_line(e.what());
  }
  return false;
}

}  // namespace impulse::fuzz
