// A seeded uniform generator in [0, 1) for test scenes that must be the same on every machine and
// standard library (std::uniform_real_distribution is not): a 64-bit LCG (Knuth's MMIX constants),
// its top 53 bits as the fraction.
#pragma once

#include <cstdint>

#include "core/math.h"

namespace impulse::test {

class SeededUniform {
 public:
  explicit SeededUniform(unsigned seed) : s_(seed * 2654435761u + 1) {}
  real operator()() {
    s_ = s_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return real((s_ >> 11) & ((1ULL << 53) - 1)) / real(1ULL << 53);
  }

 private:
  std::uint64_t s_;
};

}  // namespace impulse::test
