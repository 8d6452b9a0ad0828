// A SolverXPBD scene for the tests of its Gauss-Seidel pass (verify/e3/solvers/xpbd/): the chain
// collide -> materials -> step -> update_contacts, one substep per frame; the check that a step
// refuses its options by name; and the final poses and twists of a run on 1 and on 2 threads.
#pragma once

#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/threads.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/xpbd/solver_xpbd.h"

namespace impulse::test {

struct XpbdScene {
  Model model;
  CollisionPipeline pipeline;
  Contacts contacts;
  SolverXPBD solver;
  State s0, s1;
  Control control;
  XpbdScene(Model m, int iterations, bool gauss_seidel, bool warm, int manifold_sweeps = 0, bool linearised = false)
      : model(std::move(m)),
        pipeline(model),
        contacts(model, pipeline.rigid_contact_max(), /*request_force=*/true),
        solver(model, iterations),
        s0(model.state()),
        s1(model.state()),
        control(model.control()) {
    solver.rigid_contact_gauss_seidel = gauss_seidel;
    solver.contact_warm_start = warm;
    solver.contact_manifold_sweeps = manifold_sweeps;
    solver.contact_linearised = linearised;
  }
  void step(real h) {
    pipeline.collide(s0.body_q.view(), contacts);
    fill_contact_materials(model, SolverPath::xpbd, contacts);
    ContactsView v = contacts.view();
    solver.step(s0, s1, control, &v, h);
    solver.update_contacts(v);
    std::swap(s0, s1);
  }
  /// The bodies' weight, sum m |g| [N] (the Model's gravity).
  real weight() const {
    real w = 0;
    for (real m : model.body_mass.to_host()) w += m * length(model.gravity);
    return w;
  }
  /// The vertical force the ground carries by the last step's readback [N]: over the rows whose
  /// shape0 is the ground, minus the z part of the force (body1's on body0).
  real ground_support() const {
    const std::vector<int> s0 = contacts.rigid_contact_shape0.to_host(), body = model.shape_body.to_host();
    const std::vector<spatial_vector> f = contacts.force.to_host();
    real support = 0;
    for (int i = 0; i < contacts.checked_count(); ++i)
      if (body[s0[i]] < 0) support -= f[i].lin.z;
    return support;
  }
  /// Whether the next step throws std::invalid_argument with `what` in its message.
  bool step_refuses(const char* what) {
    try {
      step(real(1) / 600);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what()).find(what) != std::string::npos;
    }
    return false;
  }
};

// Cubes of half extent 0.1 m in a column, 1 mm apart, mu 0.5; the top one `ratio` times as dense
// (the e3-pile-stack and e3-pile-heavy layouts of bench/peers/scenes/pile.toml).
inline Model column(int n, real ratio) {
  ModelBuilder b(Axis::z, vec3{0, 0, -real(9.81)});
  b.rigid_gap = 0.01;
  b.add_ground_plane();
  for (int i = 0; i < n; ++i) {
    ShapeConfig cfg;
    cfg.mu = 0.5;
    cfg.density = i == n - 1 ? 1000 * ratio : 1000;
    b.add_shape_box(b.add_body({vec3{0, 0, real(0.101) + i * real(0.201)}, quat_identity()}), transform_identity(),
                    0.1, 0.1, 0.1, cfg);
  }
  return b.finalize();
}

// Two layers of cubes side by side (the e3-pile-boxes rule, the upper layer shifted by 0.05 m).
inline Model box_pile(int side) {
  ModelBuilder b(Axis::z, vec3{0, 0, -real(9.81)});
  b.rigid_gap = 0.01;
  b.add_ground_plane();
  ShapeConfig cfg;
  cfg.mu = 0.5;
  for (int layer = 0; layer < 2; ++layer)
    for (int k = 0; k < side * side; ++k) {
      const real s = layer ? real(0.05) : real(0);
      b.add_shape_box(b.add_body({vec3{(k % side) * real(0.3) + s, (k / side) * real(0.3) + s,
                                       real(0.101) + layer * real(0.201)},
                                  quat_identity()}),
                      transform_identity(), 0.1, 0.1, 0.1, cfg);
    }
  return b.finalize();
}

/// Whether `steps` steps of h = 1/600 s of XpbdScene(model(), iterations, gauss_seidel, warm,
/// manifold_sweeps, linearised) on 1 and on 2 threads end in bitwise the same poses and twists.
inline bool bitwise_same_on_one_and_two_threads(const std::function<Model()>& model, int iterations, bool gauss_seidel,
                                                bool warm, int manifold_sweeps, int steps, bool linearised = false) {
  const int saved = cpu_threads();
  std::vector<std::vector<transform>> q;
  std::vector<std::vector<spatial_vector>> qd;
  for (int threads : {1, 2}) {
    set_cpu_threads(threads);
    XpbdScene s(model(), iterations, gauss_seidel, warm, manifold_sweeps, linearised);
    for (int i = 0; i < steps; ++i) s.step(real(1) / 600);
    q.push_back(s.s0.body_q.to_host());
    qd.push_back(s.s0.body_qd.to_host());
  }
  set_cpu_threads(saved);
  return std::memcmp(q[0].data(), q[1].data(), sizeof(transform) * q[0].size()) == 0 &&
         std::memcmp(qd[0].data(), qd[1].data(), sizeof(spatial_vector) * qd[0].size()) == 0;
}

}  // namespace impulse::test
