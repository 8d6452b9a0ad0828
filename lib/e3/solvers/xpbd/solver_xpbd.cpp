// Host-side pieces of SolverXPBD: body segments of the contact list and the manifold subset choice.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "e3/solvers/xpbd/solver_xpbd.h"

namespace impulse {

std::vector<int> select_manifold_contacts(const std::vector<real>& depth, const std::vector<vec3>& point, int max_contacts) {
  int n = int(depth.size());
  std::vector<int> chosen;
  if (n <= max_contacts) {
    for (int i = 0; i < n; ++i) chosen.push_back(i);
    return chosen;
  }
  int deepest = 0;
  for (int i = 1; i < n; ++i)
    if (depth[i] < depth[deepest]) deepest = i;
  chosen.push_back(deepest);
  std::vector<real> mind(n, std::numeric_limits<real>::infinity());
  std::vector<bool> taken(n, false);
  taken[deepest] = true;
  while (int(chosen.size()) < max_contacts) {
    int last = chosen.back(), best = -1;
    for (int i = 0; i < n; ++i) {
      if (taken[i]) continue;
      mind[i] = std::min(mind[i], length(point[i] - point[last]));
      if (best < 0 || mind[i] > mind[best]) best = i;
    }
    taken[best] = true;
    chosen.push_back(best);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace impulse
