// The contact LCP sets of `./run bench-peers` (bench/peers/run_peers.py), written by
// `impulse lcp --write-set NAME --out DIR`: every engine of the LCP comparison reads these files.
//
//   scenes    LCPs that the Stewart-Trinkle scenes solve: the vertical point (st-bounce), a point
//             on an incline, the falling rod (st-rod), the four-ball pile (st-balls) with k = 4, 8
//             and 16 friction directions, its 7-contact LCP at each k, and rows of touching balls
//             (the family of `impulse bench st-lcp`)
//   held-out  drawn differently: random piles of 3-10 balls dropped onto each other, random
//             velocities, spins, friction coefficients, step sizes and direction counts, from a
//             fixed seed (no scene's layout or parameters)
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

namespace impulse::cli {

struct NamedLcp {
  std::string name;     // file stem, e.g. "st-balls-k8-step0042"
  std::string origin;   // one line: where it comes from (system, step, h, directions, contacts)
  Eigen::MatrixXd M;    // (n x n) the contact LCP matrix A of lib/st/stepper.h
  Eigen::VectorXd q;    // (n) its vector b
};

/// The scenes set: from each scene run the first LCP of up to `per_run` steps, evenly spaced over
/// the steps that have contacts, always including the run's largest LCP.
std::vector<NamedLcp> scene_lcp_set(int per_run);

/// The held-out set: `count` LCPs of random ball piles from `seed` (same seed, same files).
std::vector<NamedLcp> held_out_lcp_set(int count, std::uint64_t seed);

}  // namespace impulse::cli
