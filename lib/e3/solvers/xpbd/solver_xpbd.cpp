// Host-side pieces of SolverXPBD: body segments of the contact list and the manifold subset choice.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "e3/solvers/xpbd/solver_xpbd.h"

namespace impulse {

std::vector<int> select_manifold_contacts(const std::vector<real>& depth, const std::vector<vec3>& point, int max_contacts) {
  const int n = int(depth.size());
  std::vector<real> mind(std::size_t(n) + 1);
  std::vector<int> taken(std::size_t(n) + 1), chosen(std::size_t(n < max_contacts ? n : max_contacts) + 1);
  const int m = select_manifold_candidates(
      n, [&](int i) { return depth[std::size_t(i)]; }, [&](int i) { return point[std::size_t(i)]; }, max_contacts,
      mind.data(), taken.data(), chosen.data());
  chosen.resize(std::size_t(m));
  return chosen;
}

}  // namespace impulse
