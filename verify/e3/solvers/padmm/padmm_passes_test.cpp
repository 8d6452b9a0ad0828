// SolverPADMM as passes over core primitives (course E3 §6): the step against the host reference it
// replaced (padmm_host_reference.h: union-find islands, Eigen assembly and LLT), one source for both
// backends, no allocation after the first step, and the same result on a GPU.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/alloc_count.h"
#include "core/device.h"
#include "course/e3/penalty_contact_fixture.h"
#include "e1/mass.h"
#include "e3/solvers/padmm/padmm_host_reference.h"
#include "e3/solvers/padmm/solver_padmm.h"
#include "support/generators.h"
#include "support/source_scan.h"

using namespace impulse;

namespace {

// A random scene on a ground plane: `chains` hanging revolute chains of 1..3 links whose bobs are
// spheres that may touch the ground, and `loose` free spheres dropped close together (so that
// contacts join them into islands of several bodies), every body with a random velocity.
struct RandomScene {
  Model m;
  std::vector<spatial_vector> qd;
};

RandomScene random_scene(int chains, int loose, Device d = Device::cpu) {
  ModelBuilder b;
  b.add_shape_plane();
  ShapeConfig massless;
  massless.density = 0;
  const real r = real(0.05);
  std::vector<int> joints;
  for (int c = 0; c < chains; ++c) {
    const int links = *rc::gen::inRange(1, 4);
    const real len = real(0.3);
    vec3 pivot{real(1.5) * c, 0, real(0.3) * links + *gen::in_range(-0.05, 0.05)};
    int parent = -1;
    std::vector<int> chain;
    for (int i = 0; i < links; ++i) {
      const quat q = quat_from_axis_angle({0, 1, 0}, *gen::in_range(-0.6, 0.6));
      const vec3 com = pivot + quat_rotate(q, {0, 0, -len});
      const real I_c = real(1e-3);
      const int body = b.add_link({com, q}, MassProperties{*gen::in_range(0.5, 2), vec3{}, mat33_diag({I_c, I_c, I_c})}, true);
      b.add_shape_sphere(body, transform_identity(), r, massless);
      const transform X_p = parent < 0 ? transform{pivot, quat_identity()} : transform{{0, 0, -len}, quat_identity()};
      chain.push_back(b.add_joint_revolute(parent, body, X_p, {{0, 0, len}, quat_identity()}, {0, 1, 0}));
      parent = body;
      pivot = com + quat_rotate(q, {0, 0, -len});
    }
    b.add_articulation(chain);
  }
  for (int i = 0; i < loose; ++i) {
    const vec3 c{real(-1) + (2 * r + real(0.005)) * (i % 3) + *gen::in_range(-0.002, 0.002),
                 (2 * r + real(0.005)) * (i / 3) + *gen::in_range(-0.002, 0.002), r + *gen::in_range(-0.001, 0.005)};
    const real mass = *gen::in_range(0.2, 2), I = real(0.4) * mass * r * r;
    const int body = b.add_body({c, *gen::unit_quat()}, MassProperties{mass, vec3{}, mat33_diag({I, I, I})}, true);
    b.add_shape_sphere(body, transform_identity(), r, massless);
  }
  RandomScene s{b.finalize(d), {}};
  for (int k = 0; k < s.m.body_count; ++k) s.qd.push_back({*gen::vector(0.5), *gen::vector(2)});
  return s;
}

// Two spheres of radius 0.1 m resting against each other on the ground (one island of two bodies).
Model sphere_pair_on_ground(Device d = Device::cpu) {
  ModelBuilder b;
  b.add_shape_plane();
  ShapeConfig massless;
  massless.density = 0;
  const real r = real(0.1), I = real(0.4) * r * r;
  for (int i = 0; i < 2; ++i) {
    const int body = b.add_body({{real(0.199) * i, 0, real(0.099)}, quat_identity()}, MassProperties{1, vec3{}, mat33_diag({I, I, I})}, true);
    b.add_shape_sphere(body, transform_identity(), r, massless);
  }
  return b.finalize(d);
}

}  // namespace

// Oracle: 10 steps of a random scene (joint chains touching the ground, loose spheres touching each
// other and the ground, friction 0.5, with or without the warm start) by SolverPADMM's passes on the
// CPU against the host reference, both stepped from the reference's state each step. Both solve
// the same islands with the same iteration and differ only in the order of floating-point sums
// (Eigen's vectorised products and LLT against the passes' plain loops; many runs are bitwise
// equal). rho in [5, 20] keeps the iteration on these light bodies contractive: at rho = 1 it does
// not converge on them, and 200 iterations amplify a 1e-17 difference to O(1) m/s (measured), so
// no tolerance would hold there. Measured here: at most 2e-12 over 10 steps; asserted 1e-9.
RC_GTEST_PROP(E3_6_padmm_convergence, OracleStepEqualsHostReferenceOnRandomScenes, ()) {
  RandomScene scene = random_scene(*rc::gen::inRange(0, 3), *rc::gen::inRange(1, 7));
  Model& m = scene.m;
  State s0 = m.state(), a1 = m.state(), b1 = m.state();
  s0.body_qd.copy_from_host(scene.qd.data());
  Control c = m.control();
  GroundContactFixture fx(m.device, 64, 0.02, PenaltyMaterial{0, 0, 0, 0, 0.5});
  PADMMSettings st;
  st.warmstart_mode = *rc::gen::arbitrary<bool>() ? WarmstartMode::containers : WarmstartMode::none;
  st.rho = *gen::in_range(5, 20);
  SolverPADMM passes(m, st);
  padmm_reference::HostSolver host(m, st);
  for (int k = 0; k < 10; ++k) {
    fx.generate(m, s0);
    ContactsView v = fx.view();
    passes.step(s0, a1, c, &v, 0.01);
    host.step(s0, b1, c, &v, 0.01);
    RC_ASSERT(passes.status()[0].converged == host.status()[0].converged);
    RC_ASSERT(std::abs(passes.status()[0].iterations - host.status()[0].iterations) <= 1);
    const auto qa = a1.body_q.to_host(), qb = b1.body_q.to_host();
    const auto va = a1.body_qd.to_host(), vb = b1.body_qd.to_host();
    for (int i = 0; i < m.body_count; ++i) {
      RC_ASSERT(length(qa[i].p - qb[i].p) <= 1e-9);
      RC_ASSERT(std::abs(qa[i].q.w - qb[i].q.w) + length(vec3{qa[i].q.x - qb[i].q.x, qa[i].q.y - qb[i].q.y, qa[i].q.z - qb[i].q.z}) <= 1e-9);
      RC_ASSERT(length(va[i].lin - vb[i].lin) <= 1e-9);
      RC_ASSERT(length(va[i].ang - vb[i].ang) <= 1e-9);
    }
    std::swap(s0, b1);
  }
}

// Islands that take more than one batch of labelling rounds: a chain of 64 links numbered along the
// chain needs about 64 / 30 batches of four rounds (each round gathers the smallest neighbouring
// label and jumps twice). The step must equal the host reference's union-find islands.
TEST(E3_6_padmm_convergence, OracleLongChainIslandsEqualHostReference) {
  ModelBuilder b;
  std::vector<int> joints;
  int parent = -1;
  const real len = real(0.05), I_c = real(1e-4);
  for (int i = 0; i < 64; ++i) {
    const vec3 com{0, 0, 4 - len * real(2 * i + 1)};
    const int body = b.add_link({com, quat_identity()}, MassProperties{real(0.1), vec3{}, mat33_diag({I_c, I_c, I_c})}, true);
    const transform X_p = parent < 0 ? transform{{0, 0, 4}, quat_identity()} : transform{{0, 0, -len}, quat_identity()};
    joints.push_back(b.add_joint_revolute(parent, body, X_p, {{0, 0, len}, quat_identity()}, {0, 1, 0}));
    parent = body;
  }
  b.add_articulation(joints);
  Model m = b.finalize();
  State a0 = m.state(), a1 = m.state(), b0 = m.state(), b1 = m.state();
  std::vector<spatial_vector> qd(64, spatial_vector{{real(0.2), 0, 0}, {0, real(0.5), 0}});
  a0.body_qd.copy_from_host(qd.data());
  b0.body_qd.copy_from_host(qd.data());
  Control c = m.control();
  SolverPADMM passes(m);
  padmm_reference::HostSolver host(m);
  for (int k = 0; k < 3; ++k) {
    passes.step(a0, a1, c, nullptr, 0.01);
    host.step(b0, b1, c, nullptr, 0.01);
    std::swap(a0, a1);
    std::swap(b0, b1);
    EXPECT_EQ(passes.status()[0].iterations, host.status()[0].iterations);
  }
  const auto qa = a0.body_q.to_host(), qb = b0.body_q.to_host();
  for (int k = 0; k < 64; ++k) {
    EXPECT_NEAR(qa[k].p.x, qb[k].p.x, 1e-9) << "body " << k;
    EXPECT_NEAR(qa[k].p.z, qb[k].p.z, 1e-9) << "body " << k;
  }
}

// One path: SolverPADMM's sources never ask which backend they run on (only lib/core knows).
TEST(E3_6_padmm_convergence, SolverSourcesCompareNoDevice) {
  test::expect_no_device_branch("e3/solvers/padmm", {"solver_padmm.h", "solver_padmm.cpp", "padmm.h",
                                "padmm.cpp", "padmm_block.h", "padmm_rows.h", "padmm_rows.cpp",
                                "../shared/dense_cholesky.h"});
}

// Buffers are sized at construction or on the first step (grown with the contact count and the
// island layout): later steps with the same contacts allocate no Buffer (core/alloc_count.h).
TEST(E3_6_padmm_convergence, StepsAfterTheFirstAllocateNoBuffer) {
  Model m = sphere_pair_on_ground();
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  GroundContactFixture fx(m.device, 16, 0.02, PenaltyMaterial{0, 0, 0, 0, 0.5});
  fx.generate(m, s0);
  ContactsView v = fx.view();
  SolverPADMM solver(m);
  solver.step(s0, s1, c, &v, 1e-3);
  const std::uint64_t before = allocation_count();
  for (int i = 0; i < 3; ++i) {
    solver.step(s1, s0, c, &v, 1e-3);
    std::swap(s0, s1);
  }
  EXPECT_EQ(allocation_count(), before);
}

// Both backends from one source: a model finalised for CUDA is accepted and stepped there; 100 steps
// of two touching spheres on the ground agree with the CPU run to 1e-9 (the GPU contracts products
// into fused multiply-adds, so roundoff differs; the contract is one source, not bitwise).
TEST(E3_6_padmm_convergence, GpuModelIsAcceptedAndMatchesCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU";
  Model mc = sphere_pair_on_ground(Device::cpu), mg = sphere_pair_on_ground(Device::cuda);
  SolverPADMM cpu(mc), gpu(mg);
  State c0 = mc.state(), c1 = mc.state(), g0 = mg.state(), g1 = mg.state();
  Control cc = mc.control(), cg = mg.control();
  GroundContactFixture fc(Device::cpu, 16, 0.02, PenaltyMaterial{0, 0, 0, 0, 0.5});
  GroundContactFixture fg(Device::cuda, 16, 0.02, PenaltyMaterial{0, 0, 0, 0, 0.5});
  for (int i = 0; i < 100; ++i) {
    fc.generate(mc, c0);
    fg.generate(mg, g0);
    ContactsView vc = fc.view(), vg = fg.view();
    cpu.step(c0, c1, cc, &vc, 1e-3);
    gpu.step(g0, g1, cg, &vg, 1e-3);
    std::swap(c0, c1);
    std::swap(g0, g1);
  }
  const auto qc = c0.body_q.to_host(), qg = g0.body_q.to_host();
  for (std::size_t k = 0; k < qc.size(); ++k) {
    EXPECT_NEAR(qg[k].p.x, qc[k].p.x, 1e-9) << "body " << k;
    EXPECT_NEAR(qg[k].p.z, qc[k].p.z, 1e-9) << "body " << k;
  }
  EXPECT_EQ(gpu.status()[0].converged, cpu.status()[0].converged);
}
