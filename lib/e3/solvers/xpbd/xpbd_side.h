// Shared pieces of SolverXPBD's two launch files (solver_xpbd_kernels.cpp, xpbd_restitution.cpp):
// one body's side of a contact or joint row, gathered from the body arrays (device-safe), and the
// host-to-device upload of a per-step table.
#pragma once

#include <vector>

#include "core/buffer.h"
#include "e1/model.h"
#include "e3/solvers/xpbd/xpbd_step.h"

namespace impulse::xpbd_detail {

/// Body b's side (pose, velocity, world COM, effective inverse mass and world inverse inertia);
/// a default side (static world) for b < 0.
IMPULSE_HD inline XpbdSide make_side(int b, View<const transform> q, View<const spatial_vector> qd, View<const vec3> com,
                                     View<const real> inv_m, View<const mat33> inv_I, View<const int> flags) {
  XpbdSide s;
  if (b < 0) return s;
  s.body = b;
  s.X = q[b];
  s.v = qd[b];
  s.com = transform_point(s.X, com[b]);
  s.inv_m = inv_m[b];
  s.inv_I = world_inv_inertia(s.X.q, inv_I[b]);
  s.kinematic = (flags[b] & int(BodyFlag::kinematic)) != 0;
  return s;
}

IMPULSE_HD inline void add_to(spatial_vector& a, const spatial_vector& b) {
  a.lin += b.lin;
  a.ang += b.ang;
}

template <class T>
Buffer<T> upload(Device d, const std::vector<T>& v) {
  return v.empty() ? Buffer<T>(d, 0) : Buffer<T>(d, v);
}

}  // namespace impulse::xpbd_detail
