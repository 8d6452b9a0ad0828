// The step's one readback (issue 25): a step of a solver with collide before it copies between the
// host and the device at most once (core/host_copies.h counts every such copy, even on the CPU,
// where it is in place or a memcpy), for SolverXPBD, SolverSemiImplicit, SolverVBD,
// SolverFeatherstone and SolverPADMM on a small pile under pipeline contacts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/buffer_grow.h"
#include "core/host_copies.h"
#include "core/scan.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/generalized/solver_featherstone.h"
#include "e3/solvers/padmm/solver_padmm.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"
#include "e3/solvers/vbd/vbd_rigid.h"
#include "e3/solvers/xpbd/solver_xpbd.h"

namespace impulse {
namespace {

// Two layers of four spheres (r = 0.1 m, 1 mm apart) on the ground plane, each on a FREE joint.
Model small_pile() {
  ModelBuilder b;
  b.add_ground_plane();
  const real r = 0.1;
  for (int layer = 0; layer < 2; ++layer)
    for (int k = 0; k < 4; ++k)
      b.add_shape_sphere(b.add_body({vec3{real(0.201) * (k % 2), real(0.201) * (k / 2), r + layer * real(0.201)},
                                     quat_identity()}),
                         transform_identity(), r);
  return b.finalize();
}

// Host copies of each of `steps` steps (collide, materials, solver step), after a first step that
// sizes every array. Also returns the record's rows at the last step, so that the pile is known
// to be in contact.
template <class Solver>
std::pair<std::vector<std::uint64_t>, int> copies_per_step(Model& m, Solver& solver, SolverPath path,
                                                           int steps = 3) {
  CollisionPipeline pipeline(m);
  Contacts c = pipeline.contacts();
  State s0 = m.state(), s1 = m.state();
  Control control = m.control();
  std::vector<std::uint64_t> copies;
  for (int i = 0; i <= steps; ++i) {
    const std::uint64_t before = host_copy_count();
    pipeline.collide(s0.body_q.view(), c);
    fill_contact_materials(m, path, c);
    const ContactsView v = c.view();
    solver.step(s0, s1, control, &v, 1e-3);
    if (i > 0) copies.push_back(host_copy_count() - before);
    std::swap(s0, s1);
  }
  return {copies, c.count()};
}

void expect_at_most_one(const std::pair<std::vector<std::uint64_t>, int>& r, const std::string& solver) {
  EXPECT_GT(r.second, 4) << solver << ": the pile has contact rows";
  for (std::size_t i = 0; i < r.first.size(); ++i) EXPECT_LE(r.first[i], 1u) << solver << " step " << i + 1;
}

}  // namespace

TEST(E3_step_readback, XpbdStepWithCollideCopiesOnce) {
  Model m = small_pile();
  SolverXPBD solver(m, 4);
  expect_at_most_one(copies_per_step(m, solver, SolverPath::xpbd), "SolverXPBD");
}

TEST(E3_step_readback, XpbdStepWithRestitutionAndCollideCopiesOnce) {
  Model m = small_pile();
  SolverXPBD solver(m, 4);
  solver.enable_restitution = true;
  expect_at_most_one(copies_per_step(m, solver, SolverPath::xpbd), "SolverXPBD with restitution");
}

TEST(E3_step_readback, SemiImplicitStepWithCollideCopiesOnce) {
  Model m = small_pile();
  SolverSemiImplicit solver(m);
  expect_at_most_one(copies_per_step(m, solver, SolverPath::semi_implicit), "SolverSemiImplicit");
}

TEST(E3_step_readback, VbdStepWithCollideCopiesOnce) {
  Model m = small_pile();
  SolverVBD solver(m);
  expect_at_most_one(copies_per_step(m, solver, SolverPath::vbd), "SolverVBD");
}

TEST(E3_step_readback, FeatherstoneStepWithCollideCopiesOnce) {
  Model m = small_pile();
  SolverFeatherstone solver(m);
  expect_at_most_one(copies_per_step(m, solver, SolverPath::featherstone), "SolverFeatherstone");
}

// PADMM's record check rides in its step report: the contact count is not read on its own.
TEST(E3_step_readback, PadmmStepWithCollideCopiesOnce) {
  Model m = small_pile();
  SolverPADMM solver(m);
  expect_at_most_one(copies_per_step(m, solver, SolverPath::semi_implicit), "SolverPADMM");
}

// A non-finite pose given to collide is flagged on the device and refused at each solver's one
// readback, naming the body and the reader.
template <class Solver>
std::string non_finite_message(Model& m, Solver& solver, SolverPath path) {
  CollisionPipeline pipeline(m);
  Contacts c = pipeline.contacts();
  State s0 = m.state(), s1 = m.state();
  Control control = m.control();
  std::vector<transform> q = s0.body_q.to_host();
  q[2].p.x = NAN;
  s0.body_q.copy_from_host(q.data());
  pipeline.collide(s0.body_q.view(), c);
  fill_contact_materials(m, path, c);
  const ContactsView v = c.view();
  try {
    solver.step(s0, s1, control, &v, 1e-3);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(E3_step_readback, NonFinitePoseIsRefusedAtEachSolversReadback) {
  Model m = small_pile();
  SolverXPBD xpbd(m, 4);
  SolverSemiImplicit semi(m);
  SolverVBD vbd(m);
  SolverFeatherstone fs(m);
  SolverPADMM padmm(m);
  const std::string body = "collide: body 2 has a non-finite pose (reported by ";
  EXPECT_EQ(non_finite_message(m, xpbd, SolverPath::xpbd), body + "SolverXPBD.step)");
  EXPECT_EQ(non_finite_message(m, semi, SolverPath::semi_implicit), body + "apply_penalty_contacts)");
  EXPECT_EQ(non_finite_message(m, vbd, SolverPath::vbd), body + "SolverVBD)");
  EXPECT_EQ(non_finite_message(m, fs, SolverPath::featherstone), body + "apply_penalty_contacts)");
  EXPECT_EQ(non_finite_message(m, padmm, SolverPath::semi_implicit), body + "SolverPADMM.step)");
}

// The counter itself: a to_host, a read_one and an in-place host_readable on the CPU count one each;
// a copy on the device none.
TEST(E3_step_readback, CounterCountsHostCopiesOnly) {
  Buffer<int> a(Device::cpu, std::vector<int>{1, 2, 3}), b(Device::cpu, 3);
  const std::uint64_t c0 = host_copy_count();
  copy_on_device(Device::cpu, b.data(), a.data(), 3 * sizeof(int));
  EXPECT_EQ(host_copy_count(), c0);
  EXPECT_EQ(b.to_host(), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(host_copy_count(), c0 + 1);
  EXPECT_EQ(read_one(Device::cpu, View<const int>(b.view()), 2), 3);
  EXPECT_EQ(host_copy_count(), c0 + 2);
  std::vector<int> staging;
  EXPECT_EQ(host_readable(View<const int>(b.view()), Device::cpu, 3, staging), b.data());  // in place ...
  EXPECT_EQ(host_copy_count(), c0 + 3);                                                    // ... yet counted
}

// More candidate pairs than the broad phase holds: collide copies nothing back, and the step's
// readback (or checked_count) refuses the record naming the pairs found, the capacity and how to
// raise it; with room for every pair the same pile steps.
TEST(E3_step_readback, BroadPhaseOverflowIsReportedAtTheReadback) {
  Model m = small_pile();
  CollisionPipelineOptions o;
  o.shape_pairs_max = 3;
  CollisionPipeline pipeline(m, o);
  EXPECT_EQ(pipeline.shape_pairs_max(), 3);
  Contacts c = pipeline.contacts();
  State s0 = m.state(), s1 = m.state();
  Control control = m.control();
  const std::uint64_t before = host_copy_count();
  pipeline.collide(s0.body_q.view(), c);
  EXPECT_EQ(host_copy_count(), before);
  fill_contact_materials(m, SolverPath::xpbd, c);
  const ContactsView v = c.view();
  SolverXPBD solver(m, 4);
  std::string message;
  try {
    solver.step(s0, s1, control, &v, 1e-3);
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  CollisionPipeline reference(m);  // the default capacity holds every pair of the pile
  Contacts r = reference.contacts();
  reference.collide(s0.body_q.view(), r);
  const std::vector<std::int64_t> all = reference.last_candidate_pairs();
  ASSERT_GT(all.size(), 3u);
  EXPECT_NE(message.find("collide found " + std::to_string(all.size()) + " candidate pairs"), std::string::npos) << message;
  EXPECT_NE(message.find("more than shape_pairs_max = 3"), std::string::npos) << message;
  EXPECT_NE(message.find("reported by SolverXPBD.step"), std::string::npos) << message;
  EXPECT_NE(message.find("Raise CollisionPipelineOptions::shape_pairs_max (at least "), std::string::npos) << message;
  EXPECT_THROW(c.checked_count(), std::runtime_error);
  EXPECT_THROW(CollisionPipeline(m, CollisionPipelineOptions{.shape_pairs_max = 0}), std::invalid_argument);
  // Enough room: the same collide is accepted and finds every pair.
  o.shape_pairs_max = 64;
  CollisionPipeline roomy(m, o);
  Contacts d = roomy.contacts();
  roomy.collide(s0.body_q.view(), d);
  EXPECT_GT(d.checked_count(), 4);
  EXPECT_EQ(roomy.last_candidate_pairs(), all);
}

}  // namespace impulse
