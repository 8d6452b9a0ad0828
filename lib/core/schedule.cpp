#include "core/schedule.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace impulse {

namespace {

Schedule& current() {
  static Schedule s = parse_schedule(std::getenv("IMPULSE_SCHEDULE"));
  return s;
}

// SplitMix64's finaliser: the round function of the permutation.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

Schedule parse_schedule(const char* text) {
  Schedule s;
  if (!text || !*text) return s;
  std::string v(text);
  const std::string cap = "+capacity";
  if (v.size() >= cap.size() && v.compare(v.size() - cap.size(), cap.size(), cap) == 0) {
    s.capacity = true;
    v.resize(v.size() - cap.size());
  }
  auto bad = [&] {
    return std::invalid_argument(std::string("IMPULSE_SCHEDULE: '") + text +
                                 "' is not one of ordered, parallel, reverse, shuffle:SEED (SEED an integer in [0, 2^64)), "
                                 "each optionally followed by +capacity");
  };
  if (v == "ordered") {
    s.kind = ScheduleKind::ordered;
  } else if (v == "parallel") {
    s.kind = ScheduleKind::parallel;
  } else if (v == "reverse") {
    s.kind = ScheduleKind::reverse;
  } else if (v.rfind("shuffle:", 0) == 0 && v.size() > 8 && v.find_first_not_of("0123456789", 8) == std::string::npos &&
             v.size() - 8 <= 20) {
    errno = 0;
    const unsigned long long seed = std::strtoull(v.c_str() + 8, nullptr, 10);
    if (errno == ERANGE) throw bad();
    s.kind = ScheduleKind::shuffle;
    s.seed = seed;
  } else {
    throw bad();
  }
  return s;
}

const Schedule& cpu_schedule() { return current(); }

Schedule set_cpu_schedule(const Schedule& s) {
  const Schedule old = current();
  current() = s;
  return old;
}

std::int64_t shuffled_item(std::uint64_t seed, std::uint64_t launch, std::int64_t n, std::int64_t k) {
  int bits = 1;
  while ((std::int64_t(1) << bits) < n) ++bits;
  const int half = (bits + 1) / 2;
  const std::uint64_t mask = (std::uint64_t(1) << half) - 1;
  const std::uint64_t key = mix(seed ^ mix(launch));
  std::uint64_t x = std::uint64_t(k);
  do {
    std::uint64_t l = x >> half, r = x & mask;
    for (std::uint64_t round = 0; round < 4; ++round) {
      const std::uint64_t t = l ^ (mix(key + round * 0x632be59bd9b4e019ULL + r) & mask);
      l = r;
      r = t;
    }
    x = (l << half) | r;
  } while (x >= std::uint64_t(n));
  return std::int64_t(x);
}

}  // namespace impulse
