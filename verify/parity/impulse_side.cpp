// parity_impulse: the impulse half of the Newton parity suite (verify/parity/README.md).
//
// Reads a case file (TOML, verify/parity/cases/*.toml), builds every case's scene through impulse's
// own ModelBuilder -> Model -> CollisionPipeline -> solver chain, runs the
// case's experiment and writes one JSON object: {case name: {quantity: [numbers...]}}. The Newton
// half (newton_side.py) reads the same file and prints the same keys; parity.py compares them.
// Nothing here knows an expected value: the case file holds the scene and the tolerance only.
//
// Experiments (case.kind):
//   layout   joint_q_start, joint_qd_start (with the trailing sentinel), coord_counts
//   mass     body_mass, body_com, body_inertia (row-major 3x3 per body)
//   fk       body_q (quaternion sign fixed to w >= 0), body_qd after eval_fk(case.joint_q, joint_qd)
//   ik       joint_q, joint_qd after eval_fk then eval_ik
//   dynamics mass_matrix (H(q), row-major), qdd (forward dynamics under gravity, no joint force)
//   collide  contact_count, contact_min_depth (min(0, deepest d)), contact_pairs, contact_depth, contact_normal, contact_point (one collide)
//   simulate per-step series over case.solver.steps: z (and x) of case.body index `trace_body`,
//            contact_count, fz (force on trace_body from update_contacts, XPBD only), sensor_fz (the
//            same body's SensorContact net force, XPBD only), vz (its COM's vertical velocity),
//            readback_gap (XPBD only, per step: m (vz_n - vz_n-1) - m g_z h - fz_n h, the part
//            of its momentum change that the readback leaves out) and the final body_q / body_qd
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <toml++/toml.h>
#include <vector>

#include "e1/kinematics.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/solvers/generalized/generalized_dynamics.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/observe/sensor_contact.h"
#include "e3/solvers/generalized/solver_featherstone.h"
#include "e3/solvers/generalized/solver_generalized_integrator.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "e3/solvers/vbd/vbd_rigid.h"

namespace {

using namespace impulse;
using json = nlohmann::json;
using Series = std::vector<double>;

struct CaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// --- reading the case description --------------------------------------------------------------

real num(const toml::table& t, const char* key, real fallback) {
  if (auto v = t[key].value<double>()) return real(*v);
  return fallback;
}

vec3 vec(const toml::table& t, const char* key, vec3 fallback) {
  const toml::array* a = t[key].as_array();
  if (!a) return fallback;
  if (a->size() != 3) throw CaseError(std::string(key) + " must have 3 numbers");
  return {real(a->get(0)->value<double>().value()), real(a->get(1)->value<double>().value()),
          real(a->get(2)->value<double>().value())};
}

std::vector<real> list(const toml::table& t, const char* key) {
  std::vector<real> out;
  if (const toml::array* a = t[key].as_array())
    for (const auto& e : *a) out.push_back(real(e.value<double>().value()));
  return out;
}

quat rot(const toml::table& t, const char* key) {
  const toml::array* a = t[key].as_array();
  if (!a) return quat_identity();
  if (a->size() != 4) throw CaseError(std::string(key) + " must be a quaternion (x, y, z, w)");
  quat q{real(a->get(0)->value<double>().value()), real(a->get(1)->value<double>().value()),
         real(a->get(2)->value<double>().value()), real(a->get(3)->value<double>().value())};
  return quat_normalize(q);
}

transform pose(const toml::table& t, const char* pos_key, const char* rot_key) {
  return {vec(t, pos_key, {0, 0, 0}), rot(t, rot_key)};
}

const toml::array* tables(const toml::table& t, const char* key) { return t[key].as_array(); }

struct Scene {
  ModelBuilder builder;
  std::vector<std::string> skipped; // why a part of the scene cannot be built here
};

void add_shape(Scene& sc, int body, const toml::table& s) {
  const std::string type = s["type"].value_or(std::string());
  const std::vector<real> size = list(s, "size");
  ShapeConfig cfg;  // Newton's ShapeConfig defaults
  cfg.density = num(s, "density", cfg.density);
  cfg.has_shape_collision = s["collide"].value_or(true);
  cfg.ke = num(s, "ke", cfg.ke);
  cfg.kd = num(s, "kd", cfg.kd);
  cfg.kf = num(s, "kf", cfg.kf);
  cfg.ka = num(s, "ka", cfg.ka);
  cfg.mu = num(s, "mu", cfg.mu);
  cfg.restitution = num(s, "restitution", cfg.restitution);
  cfg.mu_torsional = num(s, "mu_torsional", cfg.mu_torsional);
  cfg.mu_rolling = num(s, "mu_rolling", cfg.mu_rolling);
  cfg.margin = num(s, "margin", cfg.margin);
  cfg.gap = num(s, "gap", cfg.gap);
  cfg.collision_group = int(s["collision_group"].value_or(int64_t(cfg.collision_group)));
  const transform X = pose(s, "pos", "rot");
  auto need = [&](std::size_t n) {
    if (size.size() != n) throw CaseError("shape " + type + " needs size with " + std::to_string(n) + " numbers");
  };
  if (type == "box") {
    need(3);
    sc.builder.add_shape_box(body, X, size[0], size[1], size[2], cfg);
  } else if (type == "sphere") {
    need(1);
    sc.builder.add_shape_sphere(body, X, size[0], cfg);
  } else if (type == "capsule") {
    need(2);
    sc.builder.add_shape_capsule(body, X, size[0], size[1], cfg);
  } else if (type == "cylinder") {
    need(2);
    sc.builder.add_shape_cylinder(body, X, size[0], size[1], cfg);
  } else if (type == "cone") {
    need(2);
    sc.builder.add_shape_cone(body, X, size[0], size[1], cfg);
  } else if (type == "mesh") {
    const toml::array* v = s["vertices"].as_array();
    if (!v) throw CaseError("shape mesh needs vertices");
    std::vector<vec3> vertices;
    for (const auto& p : *v) {
      const toml::array* xyz = p.as_array();
      if (!xyz || xyz->size() != 3) throw CaseError("shape mesh: every vertex needs 3 numbers");
      vertices.push_back({real(xyz->get(0)->value<double>().value()), real(xyz->get(1)->value<double>().value()),
                          real(xyz->get(2)->value<double>().value())});
    }
    std::vector<int> indices;
    for (real i : list(s, "indices")) indices.push_back(int(i));
    sc.builder.add_shape_mesh(body, X, vertices, indices, {1, 1, 1}, cfg);
  } else if (type == "plane") {
    sc.builder.add_shape_plane(body, X, 0, 0, cfg);
  } else {
    throw CaseError("impulse's ModelBuilder has no '" + type + "' shape");
  }
}

Scene build_scene(const toml::table& c) {
  Scene sc;
  if (c["gravity"].as_array()) sc.builder.gravity = vec(c, "gravity", sc.builder.gravity);
  sc.builder.rigid_gap = num(c, "rigid_gap", sc.builder.rigid_gap);
  if (c["ground"].value_or(false)) sc.builder.add_ground_plane();
  if (const toml::array* shapes = tables(c, "shape"))
    for (const auto& s : *shapes) add_shape(sc, -1, *s.as_table());
  if (const toml::array* bodies = tables(c, "body")) {
    for (const auto& node : *bodies) {
      const toml::table& b = *node.as_table();
      MassProperties mp;
      mp.mass = num(b, "mass", 0);
      mp.com = vec(b, "com", {0, 0, 0});
      std::vector<real> I = list(b, "inertia");
      if (I.size() == 9)
        for (int r = 0; r < 9; ++r) mp.inertia.m[r / 3][r % 3] = I[r];
      const transform X = pose(b, "pos", "rot");
      const bool kinematic = b["kinematic"].value_or(false), lock = b["lock_inertia"].value_or(false);
      const int id = b["free"].value_or(true) ? sc.builder.add_body(X, mp, lock, kinematic)
                                             : sc.builder.add_link(X, mp, lock, kinematic);
      if (const toml::array* shapes = tables(b, "shape"))
        for (const auto& s : *shapes) add_shape(sc, id, *s.as_table());
    }
  }
  std::vector<int> joints;
  if (const toml::array* js = tables(c, "joint")) {
    for (const auto& node : *js) {
      const toml::table& j = *node.as_table();
      const std::string type = j["type"].value_or(std::string());
      const int parent = int(j["parent"].value_or(int64_t(-1))), child = int(j["child"].value_or(int64_t(0)));
      const transform Xp = pose(j, "parent_pos", "parent_rot"), Xc = pose(j, "child_pos", "child_rot");
      const vec3 axis = vec(j, "axis", {1, 0, 0});
      int id = -1;
      if (type == "revolute") id = sc.builder.add_joint_revolute(parent, child, Xp, Xc, axis);
      else if (type == "prismatic") id = sc.builder.add_joint_prismatic(parent, child, Xp, Xc, axis);
      else if (type == "ball") id = sc.builder.add_joint_ball(parent, child, Xp, Xc);
      else if (type == "fixed") id = sc.builder.add_joint_fixed(parent, child, Xp, Xc);
      else if (type == "free") id = sc.builder.add_joint_free(child, Xp, Xc, parent);
      else if (type == "distance")
        id = sc.builder.add_joint_distance(parent, child, Xp, Xc, num(j, "min_distance", -1), num(j, "max_distance", -1));
      else if (type == "d6") {
        std::vector<vec3> lin, ang;
        if (const toml::array* a = j["linear_axes"].as_array())
          for (const auto& e : *a) {
            const toml::array& v = *e.as_array();
            lin.push_back({real(*v[0].value<double>()), real(*v[1].value<double>()), real(*v[2].value<double>())});
          }
        if (const toml::array* a = j["angular_axes"].as_array())
          for (const auto& e : *a) {
            const toml::array& v = *e.as_array();
            ang.push_back({real(*v[0].value<double>()), real(*v[1].value<double>()), real(*v[2].value<double>())});
          }
        id = sc.builder.add_joint_d6(parent, child, Xp, Xc, lin, ang);
      } else {
        throw CaseError("unknown joint type '" + type + "'");
      }
      joints.push_back(id);
    }
  }
  if (!joints.empty()) sc.builder.add_articulation(joints);
  return sc;
}

// --- measuring -------------------------------------------------------------------------------

void put_q(Series& out, const transform& X) {
  quat q = X.q;
  if (q.w < 0) q = {-q.x, -q.y, -q.z, -q.w};  // q and -q are one rotation
  for (real v : {X.p.x, X.p.y, X.p.z, q.x, q.y, q.z, q.w}) out.push_back(double(v));
}

void put_qd(Series& out, const spatial_vector& s) {
  for (real v : {s.lin.x, s.lin.y, s.lin.z, s.ang.x, s.ang.y, s.ang.z}) out.push_back(double(v));
}

template <class T>
Series to_series(const std::vector<T>& v) {
  return Series(v.begin(), v.end());
}

CollisionPipelineOptions pipeline_options(const toml::table& c) {
  CollisionPipelineOptions o;
  const toml::table* p = c["pipeline"].as_table();
  if (!p) return o;
  o.broad_phase = parse_broad_phase_mode((*p)["broad_phase"].value_or(std::string("sap")));
  o.rigid_contact_max = int((*p)["rigid_contact_max"].value_or(int64_t(-1)));
  return o;
}

// Contact rows in a canonical form both engines can be compared in: shape0 < shape1 (normal and
// points swapped otherwise), world points, separation d = n.(p1 - p0) - (margin0 + margin1),
// sorted by shape pair and then by the rounded contact point.
struct Row {
  int s0, s1;
  double d;
  vec3 n, p0, p1;
};

std::vector<Row> contact_rows(const Model& m, const Contacts& k, const std::vector<transform>& body_q) {
  const int n = std::min(k.count(), int(k.rigid_contact_shape0.size()));
  auto S0 = k.rigid_contact_shape0.to_host(), S1 = k.rigid_contact_shape1.to_host();
  auto P0 = k.rigid_contact_point0.to_host(), P1 = k.rigid_contact_point1.to_host();
  auto N = k.rigid_contact_normal.to_host();
  auto M0 = k.rigid_contact_margin0.to_host(), M1 = k.rigid_contact_margin1.to_host();
  const std::vector<int> shape_body = m.shape_body.to_host();
  std::vector<Row> rows;
  for (int i = 0; i < n; ++i) {
    const int b0 = shape_body[S0[i]], b1 = shape_body[S1[i]];
    vec3 p0 = b0 >= 0 ? transform_point(body_q[b0], P0[i]) : P0[i];
    vec3 p1 = b1 >= 0 ? transform_point(body_q[b1], P1[i]) : P1[i];
    Row r{S0[i], S1[i], double(dot(N[i], p1 - p0) - (M0[i] + M1[i])), N[i], p0, p1};
    if (r.s0 > r.s1) {
      std::swap(r.s0, r.s1);
      std::swap(r.p0, r.p1);
      r.n = -r.n;
    }
    rows.push_back(r);
  }
  auto key = [](const Row& r) {
    vec3 c = (r.p0 + r.p1) * real(0.5);
    return std::make_tuple(r.s0, r.s1, std::lround(c.x * 1e4), std::lround(c.y * 1e4), std::lround(c.z * 1e4));
  };
  std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) { return key(a) < key(b); });
  return rows;
}

json measure_collide(const toml::table& c, const Scene& sc) {
  Model m = sc.builder.finalize();
  CollisionPipeline pipe(m, pipeline_options(c));
  Contacts k = pipe.contacts();
  State s = m.state();
  pipe.collide(s.body_q.view(), k);
  std::vector<Row> rows = contact_rows(m, k, s.body_q.to_host());
  Series pairs, depth, normal, point;
  for (const Row& r : rows) {
    pairs.push_back(r.s0);
    pairs.push_back(r.s1);
    depth.push_back(r.d);
    for (real v : {r.n.x, r.n.y, r.n.z}) normal.push_back(double(v));
    vec3 mid = (r.p0 + r.p1) * real(0.5);
    for (real v : {mid.x, mid.y, mid.z}) point.push_back(double(v));
  }
  double deepest = 0;
  for (double d : depth) deepest = std::min(deepest, d);
  return {{"contact_count", Series{double(k.count())}},
          {"contact_min_depth", Series{deepest}},
          {"contact_pairs", pairs},
          {"contact_depth", depth},
          {"contact_normal", normal},
          {"contact_point", point}};
}

// The force on body b of every contact that touches it, summed (z component), from a record whose
// force column update_contacts filled: force[i] is body1's wrench on body0.
double force_z_on(const Model& m, const Contacts& k, int b) {
  const int n = k.count();
  auto S0 = k.rigid_contact_shape0.to_host(), S1 = k.rigid_contact_shape1.to_host();
  auto F = k.force.to_host();
  const std::vector<int> shape_body = m.shape_body.to_host();
  double fz = 0;
  for (int i = 0; i < n; ++i) {
    if (shape_body[S0[i]] == b) fz += F[i].lin.z;
    if (shape_body[S1[i]] == b) fz -= F[i].lin.z;
  }
  return fz;
}

json measure_simulate(const toml::table& c, Scene& sc) {
  const toml::table* sv = c["solver"].as_table();
  if (!sv) throw CaseError("simulate needs a [case.solver] table");
  const std::string type = (*sv)["type"].value_or(std::string("xpbd"));
  const real h = num(*sv, "h", real(1.0 / 240));
  const int steps = int((*sv)["steps"].value_or(int64_t(1)));
  const int trace = int(c["trace_body"].value_or(int64_t(0)));
  Model m = sc.builder.finalize();
  // Initial velocities (world, at the COM) for each listed body.
  State s0 = m.state(), s1 = m.state();
  if (const toml::array* bodies = tables(c, "body")) {
    std::vector<spatial_vector> qd = s0.body_qd.to_host();
    std::vector<real> jqd = s0.joint_qd.to_host();
    const std::vector<int> qd_start = m.joint_qd_start.to_host(), jtype = m.joint_type.to_host(),
                           jchild = m.joint_child.to_host();
    int b = 0;
    for (const auto& node : *bodies) {
      const toml::table& t = *node.as_table();
      qd[b] = {vec(t, "vel", {0, 0, 0}), vec(t, "omega", {0, 0, 0})};
      for (int j = 0; j < m.joint_count; ++j)
        if (jchild[j] == b && jtype[j] == int(JointType::free))
          for (int k = 0; k < 6; ++k) {
            const vec3 v = k < 3 ? qd[b].lin : qd[b].ang;
            jqd[qd_start[j] + k] = k % 3 == 0 ? v.x : k % 3 == 1 ? v.y : v.z;
          }
      ++b;
    }
    s0.body_qd = Buffer<spatial_vector>(m.device, qd);
    s0.joint_qd = Buffer<real>(m.device, jqd);
  }
  Control ctl = m.control();
  CollisionPipelineOptions po = pipeline_options(c);
  po.request_contact_force = true;
  CollisionPipeline pipe(m, po);
  Contacts k = pipe.contacts();
  const bool collide = c["collide"].value_or(true);

  Series z, x, count, fz, sensor_fz, vz;
  const double vz0 = double(s0.body_qd.to_host()[trace].lin.z);
  auto record = [&](const State& s) {
    const transform X = s.body_q.to_host()[trace];
    z.push_back(double(X.p.z));
    x.push_back(double(X.p.x));
    vz.push_back(double(s.body_qd.to_host()[trace].lin.z));
  };
  // One step loop for every contact solver: collide the input state, fill the record's materials
  // for the solver's path, step, then the solver's readback (XPBD only: the other solvers have none).
  auto run = [&](auto& solver, SolverPath path, auto readback) {
    for (int i = 0; i < steps; ++i) {
      ContactsView v;
      if (collide) {
        pipe.collide(s0.body_q.view(), k);
        fill_contact_materials(m, path, k);
        v = k.view();
      }
      solver.step(s0, s1, ctl, collide ? &v : nullptr, h);
      readback(solver, v);
      count.push_back(collide ? k.count() : 0);
      std::swap(s0, s1);
      record(s0);
    }
  };
  auto no_readback = [](auto&, auto&) {};
  if (type == "xpbd") {
    SolverXPBD solver(m, int((*sv)["iterations"].value_or(int64_t(2))));
    solver.rigid_contact_relaxation = num(*sv, "rigid_contact_relaxation", solver.rigid_contact_relaxation);
    solver.rigid_contact_con_weighting = (*sv)["rigid_contact_con_weighting"].value_or(true);
    solver.enable_restitution = (*sv)["enable_restitution"].value_or(false);
    solver.angular_damping = num(*sv, "angular_damping", solver.angular_damping);
    ContactAttributes attributes;
    SensorContact sensor(m, attributes, {trace});
    run(solver, SolverPath::xpbd, [&](SolverXPBD& xs, ContactsView& v) {
      if (collide && k.count() > 0) {
        xs.update_contacts(v);
        fz.push_back(force_z_on(m, k, trace));
        sensor.update(v, s1);
        sensor_fz.push_back(double(sensor.net_force[0].z));
      } else {
        fz.push_back(0);
        sensor_fz.push_back(0);
      }
    });
  } else if (type == "semi_implicit" || type == "featherstone" || type == "vbd") {
    const SolverPath path = type == "vbd" ? SolverPath::vbd
                            : type == "featherstone" ? SolverPath::featherstone
                                                     : SolverPath::semi_implicit;
    if (type == "semi_implicit") {
      SolverSemiImplicit solver(m, num(*sv, "angular_damping", real(0.05)));
      run(solver, path, no_readback);
    } else if (type == "featherstone") {
      SolverFeatherstone solver(m);
      run(solver, path, no_readback);
    } else {
      SolverVBD solver(m, int((*sv)["iterations"].value_or(int64_t(10))));
      run(solver, path, no_readback);
    }
  } else if (type == "mujoco") {
    // Newton's SolverMuJoCo steps generalized coordinates with MuJoCo's integrators; impulse's
    // counterpart is SolverGeneralizedIntegrator (no contacts: the adapter's contact path is MuJoCo's).
    if (collide) throw CaseError("impulse's MuJoCo-semantics integrator has no contacts (set collide = false)");
    SolverGeneralizedIntegrator solver(m, (*sv)["integrator"].value_or(std::string("implicitfast")));
    for (int i = 0; i < steps; ++i) {
      solver.step(s0, s1, ctl, h);
      count.push_back(0);
      std::swap(s0, s1);
      record(s0);
    }
  } else {
    throw CaseError("impulse has no solver '" + type + "'");
  }
  Series q, qd;
  for (const transform& X : s0.body_q.to_host()) put_q(q, X);
  for (const spatial_vector& v : s0.body_qd.to_host()) put_qd(qd, v);
  json out = {{"z", z}, {"x", x}, {"contact_count", count}, {"body_q", q}, {"body_qd", qd}, {"vz", vz}};
  if (!fz.empty()) {
    // momentum change - gravity's impulse - the readback's impulse, per step [N s]
    const double mass = double(m.body_mass.to_host()[trace]), gz = double(m.gravity.z);
    Series gap;
    for (std::size_t i = 0; i < vz.size(); ++i)
      gap.push_back(mass * (vz[i] - (i ? vz[i - 1] : vz0)) - mass * gz * double(h) - fz[i] * double(h));
    out["readback_gap"] = gap;
  }
  if (!fz.empty()) out["fz"] = fz;
  if (!sensor_fz.empty()) out["sensor_fz"] = sensor_fz;
  return out;
}

json measure(const toml::table& c) {
  const std::string kind = c["kind"].value_or(std::string());
  Scene sc = build_scene(c);
  if (kind == "layout") {
    Model m = sc.builder.finalize();
    return {{"joint_q_start", to_series(m.joint_q_start.to_host())},
            {"joint_qd_start", to_series(m.joint_qd_start.to_host())},
            {"coord_counts", Series{double(m.joint_coord_count), double(m.joint_dof_count)}}};
  }
  if (kind == "mass") {
    Model m = sc.builder.finalize();
    Series com, inertia;
    for (vec3 p : m.body_com.to_host())
      for (real v : {p.x, p.y, p.z}) com.push_back(double(v));
    for (const mat33& I : m.body_inertia.to_host())
      for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k) inertia.push_back(double(I.m[r][k]));
    return {{"body_mass", to_series(m.body_mass.to_host())}, {"body_com", com}, {"body_inertia", inertia}};
  }
  if (kind == "fk" || kind == "ik") {
    Model m = sc.builder.finalize();
    std::vector<real> q = list(c, "joint_q"), qd = list(c, "joint_qd");
    if (q.empty()) q = m.joint_q.to_host();
    if (qd.empty()) qd = m.joint_qd.to_host();
    if (int(q.size()) != m.joint_coord_count || int(qd.size()) != m.joint_dof_count)
      throw CaseError("joint_q/joint_qd sizes do not match the model's " + std::to_string(m.joint_coord_count) + "/" +
                      std::to_string(m.joint_dof_count));
    Buffer<real> bq(m.device, q), bqd(m.device, qd);
    State s = m.state();
    eval_fk(m, bq.view(), bqd.view(), s);
    if (kind == "fk") {
      Series oq, oqd;
      for (const transform& X : s.body_q.to_host()) put_q(oq, X);
      for (const spatial_vector& v : s.body_qd.to_host()) put_qd(oqd, v);
      return {{"body_q", oq}, {"body_qd", oqd}};
    }
    Buffer<real> iq(m.device, m.joint_coord_count), iqd(m.device, m.joint_dof_count);
    eval_ik(m, s, iq.view(), iqd.view());
    return {{"joint_q", to_series(iq.to_host())}, {"joint_qd", to_series(iqd.to_host())}};
  }
  if (kind == "dynamics") {
    // Joint-space mass matrix H(q) (CRBA's quantity) and forward dynamics qdd(q, qd) under gravity
    // with zero joint forces (ABA's), for the Pinocchio oracle.
    Model m = sc.builder.finalize();
    std::vector<real> q = list(c, "joint_q"), qd = list(c, "joint_qd");
    if (int(q.size()) != m.joint_coord_count || int(qd.size()) != m.joint_dof_count)
      throw CaseError("joint_q/joint_qd sizes do not match the model");
    GeneralizedDynamics dyn(m);
    MatrixXr H = dyn.mass_matrix(q).dense();
    Series h;
    for (int r = 0; r < H.rows(); ++r)
      for (int k = 0; k < H.cols(); ++k) h.push_back(H(r, k));
    SolverGeneralizedIntegrator integ(m, "euler");
    const std::vector<real> a = integ.forward(q, qd);
    return {{"mass_matrix", h}, {"qdd", to_series(a)}};
  }
  if (kind == "collide") return measure_collide(c, sc);
  if (kind == "simulate") return measure_simulate(c, sc);
  throw CaseError("unknown kind '" + kind + "'");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: parity_impulse CASES.toml OUT.json   (writes {case: {quantity: [...]}})\n");
    return 2;
  }
  toml::table doc;
  try {
    doc = toml::parse_file(argv[1]);
  } catch (const toml::parse_error& e) {
    std::fprintf(stderr, "parity_impulse: %s: %s\n", argv[1], std::string(e.description()).c_str());
    return 2;
  }
  json out = json::object();
  if (const toml::array* cases = doc["case"].as_array()) {
    for (const auto& node : *cases) {
      const toml::table& c = *node.as_table();
      const std::string name = c["name"].value_or(std::string("?"));
      try {
        out[name] = measure(c);
      } catch (const std::exception& e) {
        // One engine lacking a feature is a verdict (not comparable), not a crash of the suite.
        out[name] = {{"error", e.what()}};
      }
    }
  }
  std::ofstream f(argv[2]);
  f << out.dump() << '\n';
  if (!f) {
    std::fprintf(stderr, "parity_impulse: cannot write %s\n", argv[2]);
    return 2;
  }
  return 0;
}
