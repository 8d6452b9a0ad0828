// Host-side pieces of SolverXPBD: body segments of the contact list and the manifold subset choice.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "e3/solvers/xpbd/solver_xpbd.h"

namespace impulse {

std::vector<int> contact_bodies(const Model& model, const ContactsView& c, int count) {
  std::vector<int> s0(count), s1(count);
  if (count > 0) {
    device_copy(s0.data(), Device::cpu, c.rigid_contact_shape0.data, model.device, sizeof(int) * count);
    device_copy(s1.data(), Device::cpu, c.rigid_contact_shape1.data, model.device, sizeof(int) * count);
  }
  auto shape_body = model.shape_body.to_host();
  std::vector<int> sides(2 * std::size_t(count));
  for (int i = 0; i < count; ++i) {
    for (int k = 0; k < 2; ++k) {
      int s = k == 0 ? s0[i] : s1[i];
      if (s < -1 || s >= model.shape_count)
        throw std::invalid_argument("SolverXPBD.step: contact " + std::to_string(i) + " names shape " + std::to_string(s) +
                                    ", outside the Model's " + std::to_string(model.shape_count) + " shapes");
      sides[2 * i + k] = s >= 0 ? shape_body[s] : -1;
    }
  }
  return sides;
}

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
