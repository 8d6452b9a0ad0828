// The pile of bench/peers/scenes/pile.toml in Bullet 3 (Debian libbullet-dev, the float64
// libraries): btDiscreteDynamicsWorld with the DBVT broad phase and the sequential-impulse solver
// at peer_iterations. Friction and rolling friction combine as products in Bullet, so each object
// gets the square root and every pair the file's value. Deactivation (sleeping) is off, as in
// impulse. Collision (broad + narrow phase) and the constraint solve are timed apart by overriding
// the world's two virtual stages.
//   bullet_pile --scene pile.toml --kind spheres|boxes --n N [--steps S] [--iterations I]
#include <btBulletDynamicsCommon.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "pile_common.h"

namespace {

struct TimedWorld : btDiscreteDynamicsWorld {
  using btDiscreteDynamicsWorld::btDiscreteDynamicsWorld;
  double collide_s = 0, solve_s = 0;
  void performDiscreteCollisionDetection() override {
    const pile::clock::time_point t = pile::clock::now();
    btDiscreteDynamicsWorld::performDiscreteCollisionDetection();
    collide_s += pile::since(t);
  }
  void solveConstraints(btContactSolverInfo& info) override {
    const pile::clock::time_point t = pile::clock::now();
    btDiscreteDynamicsWorld::solveConstraints(info);
    solve_s += pile::since(t);
  }
};

int main_(int argc, char** argv) {
  const pile::Args a = pile::parse_args(argc, argv, "usage: bullet_pile --scene FILE --kind spheres|boxes --n N [--steps S] [--iterations I]");
  const pile::Spec s = pile::read_spec(a.scene, a.kind);
  pile::Report r;
  r.engine = "bullet";
  r.n = a.n;
  r.steps = a.steps > 0 ? a.steps : s.steps;
  r.iterations = a.iterations > 0 ? a.iterations : s.peer_iterations;

  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  TimedWorld world(&dispatcher, &broadphase, &solver, &config);
  world.setGravity(btVector3(0, 0, -s.gravity));
  world.getSolverInfo().m_numIterations = r.iterations;

  const double mu = std::sqrt(s.mu), rolling = std::sqrt(s.mu_rolling);
  btStaticPlaneShape ground_shape(btVector3(0, 0, 1), 0);
  btRigidBody ground(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &ground_shape));
  ground.setFriction(mu);
  ground.setRollingFriction(rolling);
  world.addRigidBody(&ground);

  std::unique_ptr<btCollisionShape> shape;
  const double volume = s.kind == "spheres" ? 4.0 / 3.0 * M_PI * s.size * s.size * s.size : 8 * s.size * s.size * s.size;
  if (s.kind == "spheres") shape = std::make_unique<btSphereShape>(s.size);
  else shape = std::make_unique<btBoxShape>(btVector3(s.size, s.size, s.size));
  std::vector<double> masses;
  const std::vector<pile::V3> p = pile::positions(s, a.n);
  r.checksum = pile::checksum(p);
  std::vector<std::unique_ptr<btDefaultMotionState>> motion;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  for (const pile::V3& x : p) {
    const double mass = pile::density(s, int(masses.size()), a.n) * volume;
    masses.push_back(mass);
    btVector3 inertia;
    shape->calculateLocalInertia(mass, inertia);
    btTransform X;
    X.setIdentity();
    X.setOrigin(btVector3(x[0], x[1], x[2]));
    motion.push_back(std::make_unique<btDefaultMotionState>(X));
    btRigidBody::btRigidBodyConstructionInfo info(mass, motion.back().get(), shape.get(), inertia);
    info.m_friction = mu;
    info.m_rollingFriction = rolling;
    bodies.push_back(std::make_unique<btRigidBody>(info));
    bodies.back()->setActivationState(DISABLE_DEACTIVATION);
    world.addRigidBody(bodies.back().get());
  }

  auto step = [&] {
    const pile::clock::time_point t = pile::clock::now();
    world.stepSimulation(s.h, 0);  // maxSubSteps = 0: one step of exactly h
    return pile::since(t);
  };
  auto read = [&] {
    std::vector<pile::Body> out(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const btTransform& X = bodies[i]->getCenterOfMassTransform();
      const btMatrix3x3& R = X.getBasis();
      pile::Body& b = out[i];
      b.x = {X.getOrigin().x(), X.getOrigin().y(), X.getOrigin().z()};
      for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) b.R[3 * row + col] = R[row][col];
      const btVector3 &v = bodies[i]->getLinearVelocity(), &w = bodies[i]->getAngularVelocity();
      b.v = {v.x(), v.y(), v.z()};
      b.w = {w.x(), w.y(), w.z()};
      b.m = masses[i];
    }
    return out;
  };
  auto contacts = [&] {
    double c = 0;
    for (int i = 0; i < dispatcher.getNumManifolds(); ++i) c += dispatcher.getManifoldByIndexInternal(i)->getNumContacts();
    return c;
  };
  pile::run(s, r, step, read, contacts, &world.collide_s, &world.solve_s);
  pile::print(r, s);
  // Out without tearing the world down: Bullet 3.24 removes a body's pairs by scanning the whole pair
  // cache (btHashedOverlappingPairCache::removeOverlappingPairsContainingProxy), so removing the N
  // bodies took 123 s at N = 10^5 spheres, untimed but most of the peer run's 10^5 phase.
  std::fflush(stdout);
  std::_Exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return main_(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bullet_pile: %s\n", e.what());
    return 2;
  }
}
