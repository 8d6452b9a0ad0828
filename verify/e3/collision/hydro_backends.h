// What the route (c) tests of hydroelastic_test.cpp and mesh_sdf_test.cpp share: one collide read
// out as rows (collided_rows), and route (c) on both backends for the GPU tests: a
// compliant ball (kh 1e7 N/m^3, centre 10 mm lower than resting, 10 mm off the axis) on a nearly
// rigid box (kh 1e14 N/m^3, sdf_max_resolution 64), both hydroelastic, collided once on the CPU and
// once on CUDA; the records must agree in count, gaps and stiffness (tolerances for the different
// float contraction of the two compilers).
#pragma once

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "core/device.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contacts.h"

namespace impulse {

/// The record of one collide of m at its initial poses: the row count (checked), each row's gap,
/// the pair stiffness column [N/m] and the route column.
struct CollidedRows {
  int n = 0;
  ContactGeometrySnapshot g;
  std::vector<real> k;
  std::vector<int> route;
};

inline CollidedRows collided_rows(const Model& m) {
  CollisionPipeline pipeline(m);
  Contacts contacts = pipeline.contacts();
  pipeline.collide(m.body_q.view(), contacts);
  return {contacts.checked_count(), snapshot_contact_geometry(m, m.body_q.view(), contacts),
          contacts.rigid_contact_stiffness.to_host(), contacts.rigid_contact_route.to_host()};
}

/// add_ball(builder, body, config) adds the ball's shape to body with config (is_hydroelastic and
/// kh already set; the SDF resolution is the caller's).
template <class AddBall>
void expect_hydroelastic_rows_match_across_backends(AddBall add_ball) {
  auto rows = [&](Device d) {
    ModelBuilder b;
    ShapeConfig ground, ball;
    ground.is_hydroelastic = ball.is_hydroelastic = true;
    ground.sdf_max_resolution = 64;
    ground.kh = 1e14;
    ball.kh = 1e7;
    b.add_shape_box(-1, {{0, 0, -0.5}, quat_identity()}, 1, 1, 0.5, ground);
    add_ball(b, b.add_body({{0.01, 0, 0.09}, quat_identity()}), ball);
    Model m = b.finalize(d);
    CollisionPipeline pipeline(m);
    Contacts c = pipeline.contacts();
    pipeline.collide(m.body_q.view(), c);
    const ContactGeometrySnapshot g = snapshot_contact_geometry(m, m.body_q.view(), c);
    return std::make_pair(g, c.rigid_contact_stiffness.to_host());
  };
  const auto [gc, kc] = rows(Device::cpu);
  const auto [gg, kg] = rows(Device::cuda);
  ASSERT_EQ(gc.count, gg.count);
  ASSERT_GE(gc.count, 1);
  for (int i = 0; i < gc.count; ++i) {
    EXPECT_NEAR(gc.distance_m[i], gg.distance_m[i], 1e-9);
    EXPECT_NEAR(kc[i], kg[i], 1e-9 * kc[i]);
  }
}

}  // namespace impulse
