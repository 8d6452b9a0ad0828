#pragma once
// One path, checked in the sources: only lib/core knows the backend, so an engine file never
// compares a Device nor tests __CUDA_ARCH__ (issue #25's grep, per solver folder).

#include <fstream>
#include <initializer_list>
#include <regex>
#include <string>

#include <gtest/gtest.h>

namespace impulse::test {

/// Fails the running test once per line of lib/<folder>/<file> that compares a Device
/// (`== Device::`, `Device::cpu !=`) or names __CUDA_ARCH__, and once per file it cannot open.
inline void expect_no_device_branch(const std::string& folder, std::initializer_list<const char*> files) {
  const std::regex device_test(R"((==|!=)\s*Device::|Device::\w+\s*(==|!=)|__CUDA_ARCH__)");
  for (const char* f : files) {
    std::ifstream in(std::string(IMPULSE_SOURCE_DIR) + "/lib/" + folder + "/" + f);
    EXPECT_TRUE(in) << folder << "/" << f;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
      EXPECT_FALSE(std::regex_search(line, device_test)) << folder << "/" << f << ":" << n << ": " << line;
  }
}

}  // namespace impulse::test
