#include "course/e3/xpbd_demos.h"

#include <cmath>

namespace impulse {

namespace {

int add_cube(ModelBuilder& b, vec3 p, real half) {
  int body = b.add_body({p, quat_identity()});
  b.add_shape_box(body, transform_identity(), half, half, half);
  return body;
}

}  // namespace

ModelBuilder demo_box_on_plane(real half, real gap) {
  ModelBuilder b;
  b.add_shape_plane();
  add_cube(b, {0, 0, half + gap}, half);
  return b;
}

ModelBuilder demo_pyramid(real half) {
  ModelBuilder b;
  b.add_shape_plane();
  const real clear = real(0.02) * half;  // [m] horizontal clearance between cubes of one row
  const real step = 2 * half + clear;
  for (int i = -1; i <= 1; ++i) add_cube(b, {i * step, 0, half}, half);
  for (int i = 0; i < 2; ++i) add_cube(b, {(i - real(0.5)) * step, 0, 3 * half}, half);
  add_cube(b, {0, 0, 5 * half}, half);
  return b;
}

ModelBuilder demo_sphere_drop(real r, real z) {
  ModelBuilder b;
  b.add_shape_plane();
  int body = b.add_body({{0, 0, z + r}, quat_identity()});
  b.add_shape_sphere(body, transform_identity(), r);
  return b;
}

ModelBuilder demo_sphere_pile(int n, real r, int layers) {
  ModelBuilder b;
  b.add_shape_plane();
  int per_layer = (n + layers - 1) / layers;
  int side = int(std::ceil(std::sqrt(real(per_layer))));
  const real spacing = real(2.02) * r;
  for (int i = 0; i < n; ++i) {
    int layer = i / per_layer, k = i % per_layer;
    real shift = layer % 2 ? r : 0;  // upper layers sit in the hollows of the layer below
    vec3 p{(k % side) * spacing + shift, (k / side) * spacing + shift, r + layer * real(1.5) * spacing};
    int body = b.add_body({p, quat_identity()});
    b.add_shape_sphere(body, transform_identity(), r);
  }
  return b;
}

ModelBuilder demo_platform(bool kinematic, real half) {
  ModelBuilder b;
  const real ph = real(0.25);  // [m] platform half height
  if (kinematic) {
    int p = b.add_body({{0, 0, -ph}, quat_identity()}, {}, false, true);
    b.add_shape_box(p, transform_identity(), 4, 4, ph);
  } else {
    b.add_shape_box(-1, {{0, 0, -ph}, quat_identity()}, 4, 4, ph);
  }
  add_cube(b, {-2 * half - real(0.1), 0, half}, half);
  add_cube(b, {2 * half + real(0.1), 0, half}, half);
  return b;
}

XpbdWorld::XpbdWorld(const ModelBuilder& builder, int capacity, const FixtureOptions& fx, int iterations, Device device)
    : fixture(fx) {
  model = std::make_unique<Model>(builder.finalize(device));
  request_contact_attributes(attributes, "force");
  state_0 = std::make_unique<State>(model->state());
  state_1 = std::make_unique<State>(model->state());
  control = model->control();
  contacts = std::make_unique<Contacts>(*model, capacity, attributes.force);
  solver = std::make_unique<SolverXPBD>(*model, iterations);
}

void XpbdWorld::step(real h) {
  collide_fixture(*model, *state_0, *contacts, fixture);
  ContactsView v = contacts->view();
  solver->step(*state_0, *state_1, control, &v, h);
  solver->update_contacts(v);
  std::swap(state_0, state_1);
  t += h;
}

vec3 XpbdWorld::contact_force_on(int b) const {
  auto f = contacts->force.to_host();
  auto s0 = contacts->rigid_contact_shape0.to_host(), s1 = contacts->rigid_contact_shape1.to_host();
  auto sb = model->shape_body.to_host();
  int n = contacts->count();
  vec3 F{};
  for (int i = 0; i < n; ++i) {
    if (s0[i] >= 0 && sb[s0[i]] == b) F += f[i].lin;
    if (s1[i] >= 0 && sb[s1[i]] == b) F -= f[i].lin;
  }
  return F;
}

vec3 XpbdWorld::support_force_on(int b) const {
  auto f = contacts->force.to_host();
  auto s1 = contacts->rigid_contact_shape1.to_host();
  auto sb = model->shape_body.to_host();
  int n = contacts->count();
  vec3 F{};
  for (int i = 0; i < n; ++i)
    if (s1[i] >= 0 && sb[s1[i]] == b) F -= f[i].lin;
  return F;
}

}  // namespace impulse
