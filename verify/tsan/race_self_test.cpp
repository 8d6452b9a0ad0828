// The ThreadSanitizer pass's self-test (built by the tsan preset only): one launch whose items all
// write one output, the race the pass exists to find. ./run tsan requires ThreadSanitizer to report
// it; a pass that stayed silent here would prove nothing about the engine's launches.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/parallel_for.h"

int main() {
  std::vector<double> out(1, 0.0);
  double* o = out.data();
  impulse::parallel_for(impulse::Device::cpu, 4096, [=](std::int64_t i) { o[0] += double(i); });
  std::printf("race_self_test: sum %g (racy on purpose)\n", out[0]);
  return 0;
}
