// TEST AND SCENE FIXTURES for the E3 §6 solvers.
#include "course/e3/solver_fixture_scenes.h"

#include <cmath>
#include <stdexcept>

#include "e1/mass.h"

namespace impulse {

namespace {

MassProperties sphere_props(real m, real r) {
  real I = real(0.4) * m * r * r;
  return {m, vec3{}, mat33_diag({I, I, I})};
}

ShapeConfig massless() {
  ShapeConfig c;
  c.density = 0;
  return c;
}

}  // namespace

ShapeConfig contact_shape_config(const PenaltyMaterial& material) {
  ShapeConfig c = massless();
  c.ke = material.ke;
  c.kd = material.kd;
  c.kf = material.kf;
  c.ka = material.ka;
  c.mu = material.mu;
  c.mu_torsional = 0;
  c.mu_rolling = 0;
  c.restitution = 0;
  return c;
}

Model ground_sphere_model(real m, real r, vec3 c, Device d) {
  ModelBuilder b;
  b.add_shape_plane();
  int body = b.add_body({c, quat_identity()}, sphere_props(m, r), true);
  b.add_shape_sphere(body, transform_identity(), r, massless());
  return b.finalize(d);
}

Model ground_box_model(real m, vec3 e, vec3 c, Device d, const PenaltyMaterial* material) {
  const ShapeConfig cfg = material ? contact_shape_config(*material) : massless();
  ModelBuilder b;
  b.add_shape_plane(-1, transform_identity(), 0, 0, cfg);
  real k = m / 3;
  MassProperties p{m, vec3{}, mat33_diag({k * (e.y * e.y + e.z * e.z), k * (e.x * e.x + e.z * e.z),
                                          k * (e.x * e.x + e.y * e.y)})};
  int body = b.add_body({c, quat_identity()}, p, true);
  b.add_shape_box(body, transform_identity(), e.x, e.y, e.z, cfg);
  return b.finalize(d);
}

Model sphere_stack_model(int n, real m, real r, real lift, Device d) {
  if (n < 1) throw std::invalid_argument("sphere_stack_model: n must be >= 1");
  ModelBuilder b;
  b.add_shape_plane();
  for (int i = 0; i < n; ++i) {
    int body = b.add_body({vec3{0, 0, r + i * (2 * r + lift)}, quat_identity()}, sphere_props(m, r), true);
    b.add_shape_sphere(body, transform_identity(), r, massless());
  }
  return b.finalize(d);
}

Model box_stack_model(int n, real m, real e, Device d, const PenaltyMaterial* material) {
  if (n < 1) throw std::invalid_argument("box_stack_model: n must be >= 1");
  const ShapeConfig cfg = material ? contact_shape_config(*material) : massless();
  ModelBuilder b;
  b.add_shape_plane(-1, transform_identity(), 0, 0, cfg);
  const real k = m * e * e * real(2) / 3;  // m (e^2 + e^2) / 3 for a cube of half extent e
  for (int i = 0; i < n; ++i) {
    int body = b.add_body({vec3{0, 0, e * (2 * i + 1)}, quat_identity()}, {m, vec3{}, mat33_diag({k, k, k})}, true);
    b.add_shape_box(body, transform_identity(), e, e, e, cfg);
  }
  return b.finalize(d);
}

Model sphere_grid_model(int n, real m, real r, real z0, Device d) {
  if (n < 1) throw std::invalid_argument("sphere_grid_model: n must be >= 1");
  ModelBuilder b;
  b.add_shape_plane();
  int side = int(std::ceil(std::sqrt(real(n))));
  for (int i = 0; i < n; ++i) {
    vec3 c{4 * r * (i % side), 4 * r * (i / side), z0};
    int body = b.add_body({c, quat_identity()}, sphere_props(m, r), true);
    b.add_shape_sphere(body, transform_identity(), r, massless());
  }
  return b.finalize(d);
}

Model pendulum_chain_model(int n, real m, real l, real r, real q0, Device d) {
  if (n < 1) throw std::invalid_argument("pendulum_chain_model: n must be >= 1");
  ModelBuilder b;
  std::vector<int> joints;
  int parent = -1;
  for (int i = 0; i < n; ++i) {
    int body = b.add_link({vec3{0, 0, -l * (i + 1)}, quat_identity()}, sphere_props(m, r), true);
    // The joint sits at the parent's COM (the world origin for link 0), l above the child's COM.
    joints.push_back(b.add_joint_revolute(parent, body, transform_identity(), {vec3{0, 0, l}, quat_identity()}, {0, 1, 0}));
    parent = body;
  }
  b.add_articulation(joints);
  for (real& q : b.joint_q) q = q0;
  return b.finalize(d);
}

}  // namespace impulse
