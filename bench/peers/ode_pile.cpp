// The pile of bench/peers/scenes/pile.toml in ODE 0.16 (Debian libode-dev, double precision): a
// hash space, dSpaceCollide with at most 4 contact points per pair (impulse's kMaxPairContacts),
// dWorldQuickStep at peer_iterations, ODE's default ERP 0.2 and CFM 1e-5. Coulomb friction with
// the friction pyramid (dContactApprox1), rolling friction rho for the spheres. Auto-disable
// (sleeping) is off, as in impulse. Collision and the solve are timed apart (the user calls both).
//   ode_pile --scene pile.toml --kind spheres|boxes --n N [--steps S] [--iterations I]
#include <ode/ode.h>

#include "pile_common.h"

namespace {

constexpr int kMaxPairContacts = 4;

struct World {
  dWorldID world;
  dJointGroupID group;
  const pile::Spec* spec;
  int contacts = 0;
};

void near_callback(void* data, dGeomID g1, dGeomID g2) {
  World& w = *static_cast<World*>(data);
  dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
  if (b1 && b2 && dAreConnected(b1, b2)) return;
  dContact c[kMaxPairContacts];
  const int n = dCollide(g1, g2, kMaxPairContacts, &c[0].geom, sizeof(dContact));
  for (int i = 0; i < n; ++i) {
    c[i].surface.mode = dContactApprox1;
    c[i].surface.mu = w.spec->mu;
    if (w.spec->mu_rolling > 0) {
      c[i].surface.mode |= dContactRolling;
      c[i].surface.rho = c[i].surface.rho2 = w.spec->mu_rolling;
      c[i].surface.rhoN = 0;
    }
    dJointID j = dJointCreateContact(w.world, w.group, &c[i]);
    dJointAttach(j, b1, b2);
  }
  w.contacts += n;
}

int main_(int argc, char** argv) {
  const pile::Args a = pile::parse_args(argc, argv, "usage: ode_pile --scene FILE --kind spheres|boxes --n N [--steps S] [--iterations I]");
  const pile::Spec s = pile::read_spec(a.scene, a.kind);
  pile::Report r;
  r.engine = "ode";
  r.n = a.n;
  r.steps = a.steps > 0 ? a.steps : s.steps;
  r.iterations = a.iterations > 0 ? a.iterations : s.peer_iterations;

  dInitODE2(0);
  World w;
  w.world = dWorldCreate();
  w.group = dJointGroupCreate(0);
  w.spec = &s;
  dSpaceID space = dHashSpaceCreate(nullptr);
  dWorldSetGravity(w.world, 0, 0, -s.gravity);
  dWorldSetQuickStepNumIterations(w.world, r.iterations);
  dWorldSetAutoDisableFlag(w.world, 0);
  dCreatePlane(space, 0, 0, 1, 0);

  const std::vector<pile::V3> p = pile::positions(s, a.n);
  r.checksum = pile::checksum(p);
  std::vector<dBodyID> bodies;
  std::vector<double> masses;
  for (const pile::V3& x : p) {
    const double density = pile::density(s, int(masses.size()), a.n);
    dBodyID b = dBodyCreate(w.world);
    dMass m;
    dGeomID g;
    if (s.kind == "spheres") {
      dMassSetSphere(&m, density, s.size);
      g = dCreateSphere(space, s.size);
    } else {
      dMassSetBox(&m, density, 2 * s.size, 2 * s.size, 2 * s.size);
      g = dCreateBox(space, 2 * s.size, 2 * s.size, 2 * s.size);
    }
    masses.push_back(m.mass);
    dBodySetMass(b, &m);
    dGeomSetBody(g, b);
    dBodySetPosition(b, x[0], x[1], x[2]);
    bodies.push_back(b);
  }

  double collide_s = 0, solve_s = 0;
  auto step = [&] {
    const pile::clock::time_point t0 = pile::clock::now();
    w.contacts = 0;
    dSpaceCollide(space, &w, &near_callback);
    const pile::clock::time_point t1 = pile::clock::now();
    dWorldQuickStep(w.world, s.h);
    dJointGroupEmpty(w.group);
    collide_s = std::chrono::duration<double>(t1 - t0).count();
    solve_s = pile::since(t1);
    return pile::since(t0);
  };
  auto read = [&] {
    std::vector<pile::Body> out(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const dReal *x = dBodyGetPosition(bodies[i]), *R = dBodyGetRotation(bodies[i]);
      const dReal *v = dBodyGetLinearVel(bodies[i]), *om = dBodyGetAngularVel(bodies[i]);
      pile::Body& b = out[i];
      b.x = {x[0], x[1], x[2]};
      for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) b.R[3 * row + col] = R[4 * row + col];  // ODE: 3x4, row-major
      b.v = {v[0], v[1], v[2]};
      b.w = {om[0], om[1], om[2]};
      b.m = masses[i];
    }
    return out;
  };
  auto contacts = [&] { return double(w.contacts); };
  pile::run(s, r, step, read, contacts, &collide_s, &solve_s);
  pile::print(r, s);
  dJointGroupDestroy(w.group);
  dSpaceDestroy(space);
  dWorldDestroy(w.world);
  dCloseODE();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return main_(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ode_pile: %s\n", e.what());
    return 2;
  }
}
