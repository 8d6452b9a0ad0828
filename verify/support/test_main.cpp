// Test entry point shared by every verify_* executable.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // The RapidCheck configuration in use (ctest sets a fixed seed per property, verify/CMakeLists.txt):
  // printed so that a failing run's log says how to run it again.
  if (const char* rc = std::getenv("RC_PARAMS")) std::printf("RC_PARAMS=%s\n", rc);
  return RUN_ALL_TESTS();
}
