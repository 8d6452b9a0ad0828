// The one row reader (lib/e3/contacts/contact_row.h): every solver, SensorContact and the readback
// refuse a record with a row naming a shape outside the Model (-1, shape_count, 10^6) with the same
// message, and every solver refuses a record whose materials were filled for another solver path.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "course/e3/solver_fixture_scenes.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/contacts/contact_row.h"
#include "e3/observe/sensor_contact.h"
#include "e3/solvers/generalized/solver_featherstone.h"
#include "e3/solvers/padmm/solver_padmm.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"
#include "e3/solvers/vbd/vbd_rigid.h"
#include "e3/solvers/xpbd/solver_xpbd.h"

using namespace impulse;

namespace {

// A 0.2 m box 1 mm into the ground (shapes 0 and 1), collided once: four rows, its bottom corners.
struct CollidedBox {
  Model m = ground_box_model(1, {0.1, 0.1, 0.1}, {0, 0, 0.1 - 0.001});
  CollisionPipeline pipeline;
  Contacts c;
  State s0, s1;
  Control control;
  explicit CollidedBox(const CollisionPipelineOptions& o = CollisionPipelineOptions())
      : pipeline(m, o), c(pipeline.contacts()), s0(m.state()), s1(m.state()), control(m.control()) {
    pipeline.collide(s0.body_q.view(), c);
  }
};

using Step = std::function<void(const Model&, State&, State&, const Control&, const ContactsView*)>;

// A box 1 mm into the ground (shapes 0 and 1), collided and filled for path; then row 0's shape1 is
// set to bad and step runs on the record. Returns the error message ("" when accepted).
std::string run_with_bad_shape(SolverPath path, int bad, const Step& step) {
  CollisionPipelineOptions o;
  o.request_contact_force = true;
  CollidedBox b(o);
  EXPECT_GE(b.c.count(), 1);
  fill_contact_materials(b.m, path, b.c);
  std::vector<int> s1col = b.c.rigid_contact_shape1.to_host();
  s1col[0] = bad;
  b.c.rigid_contact_shape1.copy_from_host(s1col.data());
  const ContactsView v = b.c.view();
  try {
    step(b.m, b.s0, b.s1, b.control, &v);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

void expect_refused(const char* who, SolverPath path, const Step& step) {
  for (int bad : {-1, 2, 1000000}) {  // the Model has 2 shapes
    const std::string w = run_with_bad_shape(path, bad, step);
    EXPECT_NE(w.find(contact_row_shape_message(who, 0, bad, 2)), std::string::npos) << who << " bad " << bad << ": " << w;
  }
  EXPECT_EQ(run_with_bad_shape(path, 1, step), "") << who;  // the row as collided is taken
}

// One step of solver S on the record, at h = 1 ms.
template <class S>
Step solver_step() {
  return [](const Model& m, State& a, State& b, const Control& c, const ContactsView* v) { S(m).step(a, b, c, v, 1e-3); };
}

}  // namespace

TEST(ContactRow, SolverXPBDRefusesARowNamingAShapeOutsideTheModel) {
  expect_refused("SolverXPBD.step", SolverPath::xpbd, solver_step<SolverXPBD>());
}

TEST(ContactRow, SolverSemiImplicitRefusesARowNamingAShapeOutsideTheModel) {
  expect_refused("apply_penalty_contacts", SolverPath::semi_implicit, solver_step<SolverSemiImplicit>());
}

TEST(ContactRow, SolverFeatherstoneRefusesARowNamingAShapeOutsideTheModel) {
  expect_refused("apply_penalty_contacts", SolverPath::featherstone, solver_step<SolverFeatherstone>());
}

TEST(ContactRow, SolverPADMMRefusesARowNamingAShapeOutsideTheModel) {
  expect_refused("SolverPADMM.step", SolverPath::semi_implicit, solver_step<SolverPADMM>());
}

TEST(ContactRow, SolverVBDRefusesARowNamingAShapeOutsideTheModel) {
  expect_refused("SolverVBD", SolverPath::vbd, solver_step<SolverVBD>());
}

TEST(ContactRow, SensorContactRefusesARowNamingAShapeOutsideTheModel) {
  expect_refused("SensorContact.update", SolverPath::xpbd,
                 [](const Model& m, State&, State& b, const Control&, const ContactsView* v) {
                   ContactAttributes attributes;
                   SensorContact sensor(m, attributes, {0});
                   sensor.update(*v, b);
                 });
}

// The readback's world points and gap come from the same reader; a bad row is refused there too.
TEST(ContactRow, ReadbackRefusesARowNamingAShapeOutsideTheModel) {
  CollidedBox b;
  const Model& m = b.m;
  Contacts& c = b.c;
  const State& s = b.s0;
  const ContactGeometrySnapshot g = snapshot_contact_geometry(m, s.body_q.view(), c);
  ASSERT_EQ(g.count, 4);
  for (real d : g.distance_m) EXPECT_NEAR(d, -0.001, 1e-12);  // the four bottom corners, 1 mm deep
  std::vector<int> s0 = c.rigid_contact_shape0.to_host();
  s0[3] = -1;
  c.rigid_contact_shape0.copy_from_host(s0.data());
  try {
    snapshot_contact_geometry(m, s.body_q.view(), c);
    ADD_FAILURE() << "a row naming shape -1 was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(contact_row_shape_message("eval_rigid_contact_kinematics", 3, -1, 2)),
              std::string::npos)
        << e.what();
  }
}

// The record says which path filled its materials; a solver of another path refuses it.
TEST(ContactRow, ASolverRefusesARecordFilledForAnotherPath) {
  CollidedBox b;
  const Model& m = b.m;
  Contacts& c = b.c;
  State &s0 = b.s0, &s1 = b.s1;
  const Control& control = b.control;
  auto refused = [&](SolverPath filled, const std::function<void(const ContactsView*)>& step) {
    fill_contact_materials(m, filled, c);
    EXPECT_EQ(c.material_path, int(filled));
    const ContactsView v = c.view();
    try {
      step(&v);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what()).find("were filled for the " + std::string(solver_path_name(filled)) + " path") !=
             std::string::npos;
    }
    return false;
  };
  auto xpbd = [&](const ContactsView* v) { SolverXPBD(m).step(s0, s1, control, v, 1e-3); };
  auto semi = [&](const ContactsView* v) { SolverSemiImplicit(m).step(s0, s1, control, v, 1e-3); };
  auto feather = [&](const ContactsView* v) { SolverFeatherstone(m).step(s0, s1, control, v, 1e-3); };
  auto padmm = [&](const ContactsView* v) { SolverPADMM(m).step(s0, s1, control, v, 1e-3); };
  auto vbd = [&](const ContactsView* v) { SolverVBD(m).step(s0, s1, control, v, 1e-3); };
  EXPECT_TRUE(refused(SolverPath::vbd, xpbd));
  EXPECT_TRUE(refused(SolverPath::xpbd, semi));
  EXPECT_TRUE(refused(SolverPath::vbd, feather));
  EXPECT_TRUE(refused(SolverPath::xpbd, padmm));
  EXPECT_TRUE(refused(SolverPath::semi_implicit, vbd));
  EXPECT_FALSE(refused(SolverPath::featherstone, semi));  // the two penalty paths mix alike
  EXPECT_FALSE(refused(SolverPath::xpbd, xpbd));
}

// The columns are declared once (contact_columns.h); a view with a column shorter than its count is
// refused naming that column, whichever column it is.
TEST(ContactRow, ASolverRefusesAColumnShorterThanTheCount) {
  CollidedBox b;
  const Model& m = b.m;
  Contacts& c = b.c;
  State &s0 = b.s0, &s1 = b.s1;
  const Control& control = b.control;
  fill_contact_materials(m, SolverPath::semi_implicit, c);
  const int n = c.count();
  ASSERT_EQ(n, 4);
  int columns = 0;
#define SHORTEN(type, name, unit, doc)                                                                        \
  {                                                                                                          \
    ContactsView v = c.view();                                                                               \
    v.name.size = n - 1;                                                                                     \
    std::string w;                                                                                           \
    try {                                                                                                    \
      SolverSemiImplicit(m).step(s0, s1, control, &v, 1e-3);                                                 \
    } catch (const std::invalid_argument& e) {                                                               \
      w = e.what();                                                                                          \
    }                                                                                                        \
    EXPECT_EQ(w, "apply_penalty_contacts: contact column " #name " has 3 rows, fewer than the 4 rows read"); \
    ++columns;                                                                                               \
  }
  IMPULSE_CONTACT_COLUMNS(SHORTEN)
#undef SHORTEN
  EXPECT_EQ(columns, 22);
}

// SolverXPBD reads no count on the host: every column must span the capacity.
TEST(ContactRow, SolverXPBDRefusesAColumnShorterThanTheCapacity) {
  CollidedBox b;
  const Model& m = b.m;
  Contacts& c = b.c;
  State &s0 = b.s0, &s1 = b.s1;
  const Control& control = b.control;
  fill_contact_materials(m, SolverPath::xpbd, c);
  ContactsView v = c.view();
  v.rigid_contact_restitution.size = c.rigid_contact_max - 1;
  try {
    SolverXPBD(m).step(s0, s1, control, &v, 1e-3);
    ADD_FAILURE() << "a short column was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "SolverXPBD.step: contact column rigid_contact_restitution has " +
                                         std::to_string(c.rigid_contact_max - 1) + " rows, fewer than the " +
                                         std::to_string(c.rigid_contact_max) + " rows read");
  }
}
