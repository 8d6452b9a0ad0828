// Registration of the E3 items (course seed 000: contacts, solvers and force observation).
// Part 1: §1 (the contact problem), §2 (from shapes to Contacts), §3 (materials), exercise 1.
#include <Eigen/Dense>

#include "course/registry.h"
#include "e3/contacts/contact_record.h"
#include "e3/dynamics_model.h"
#include "e3/contacts/materials.h"

namespace impulse::course {

namespace {

Quantity in_vec(const char* name, const char* unit, const char* doc) { return {name, unit, 3, doc}; }
Quantity in_scalar(const char* name, const char* unit, const char* doc) { return {name, unit, 1, doc}; }

// A rule, table or other item without numbers.
Item plain(const char* id, const char* kind, const char* title, const char* section, const char* where) {
  return {id, kind, title, section, Status::implemented, "", where, {}, {}, {}};
}
Item prose(const char* id, const char* kind, const char* title, const char* section, const char* reason) {
  return {id, kind, title, section, Status::prose_only, reason, "", {}, {}, {}};
}

ShapeMaterial material_from(const Values& v, const char* side) {
  ShapeMaterial m;
  const std::string s(side);
  m.mu = scalar(v, "mu" + s);
  return m;
}

void register_section1(Registry& r) {
  r.add(prose("E3.1-source-identity", "rule", "the course reads Newton 1.6.1 at a fixed commit; its numbers are paper derivations",
              "E3 §1", "context of the course text; every E3 golden value cites its seed line and says 'analytic'"));
  r.add(prose("E3.1-three-layers", "rule", "contact model, integrator and numerical solver are separate layers", "E3 §1",
              "a reading guide; the engine selects behaviour by explicit options, which the solver chapters show"));
  r.add(prose("E3.1-paradigms", "rule", "penalty, XPBD, regularised and dual hard contact are different semantics", "E3 §1",
              "a map of the solver paths; each path's semantics is tested with that path (E3 §4-§6)"));
  r.add({"E3.1-discrete-dynamics", "formula", "one step: M (v+ - v) = h f_ext + J^T p", "E3 §1", Status::implemented, "",
         "lib/e3/dynamics_model.h: discrete_velocity_update",
         {in_scalar("m", "kg", "mass of a point body (M = m I)"), in_vec("v_n", "m/s", "velocity before the step"),
          in_scalar("h", "s", "time step"), in_vec("f_ext", "N", "external force"),
          in_vec("Jt_p", "N s", "constraint impulse mapped to the body, J^T p")},
         {{"v_next", "m/s", 3, "velocity after the step"}},
         [](const Values& v) {
           Eigen::MatrixXd M = scalar(v, "m") * Eigen::MatrixXd::Identity(3, 3), J = Eigen::MatrixXd::Identity(3, 3);
           auto e = [&](const char* n) { vec3 x = vector3(v, n); return Eigen::Vector3d(x.x, x.y, x.z); };
           Eigen::VectorXd out = discrete_velocity_update(M, e("v_n"), scalar(v, "h"), e("f_ext"), J, e("Jt_p"));
           return Values{{"v_next", {out[0], out[1], out[2]}}};
         }});
  r.add({"E3.1-delassus", "formula", "W = J M^-1 J^T, the constraint-space inverse effective mass", "E3 §1",
         Status::implemented, "", "lib/e3/dynamics_model.h: delassus_operator",
         {in_scalar("m_A", "kg", "mass of body A"), in_scalar("m_B", "kg", "mass of body B"),
          in_vec("I_A", "kg m^2", "principal inertia of A (world-aligned)"),
          in_vec("I_B", "kg m^2", "principal inertia of B (world-aligned)"), in_vec("r_A", "m", "contact point - COM of A"),
          in_vec("r_B", "m", "contact point - COM of B"), in_vec("n", "-", "unit normal from A to B")},
         {{"W", "1/kg", 1, "J M^-1 J^T of the single normal row"}},
         [](const Values& v) {
           // One normal row on two free bodies: J = [-n^T, -(r_A x n)^T, n^T, (r_B x n)^T].
           Eigen::MatrixXd M = Eigen::MatrixXd::Zero(12, 12);
           vec3 IA = vector3(v, "I_A"), IB = vector3(v, "I_B");
           for (int k = 0; k < 3; ++k) M(k, k) = scalar(v, "m_A"), M(6 + k, 6 + k) = scalar(v, "m_B");
           M(3, 3) = IA.x, M(4, 4) = IA.y, M(5, 5) = IA.z, M(9, 9) = IB.x, M(10, 10) = IB.y, M(11, 11) = IB.z;
           vec3 n = vector3(v, "n"), ca = cross(vector3(v, "r_A"), n), cb = cross(vector3(v, "r_B"), n);
           Eigen::MatrixXd J(1, 12);
           J << -n.x, -n.y, -n.z, -ca.x, -ca.y, -ca.z, n.x, n.y, n.z, cb.x, cb.y, cb.z;
           return Values{{"W", {delassus_operator(M, J)(0, 0)}}};
         }});
  r.add({"E3.1-ncp", "formula", "0 <= p_n perp u_n >= 0 and ||p_t|| <= mu p_n", "E3 §1", Status::implemented, "",
         "lib/e3/dynamics_model.h: ncp_residual",
         {in_scalar("p_n", "N s", "normal impulse"), in_scalar("u_n", "m/s", "normal constraint velocity"),
          in_vec("p_t", "N s", "friction impulse"), in_scalar("mu", "-", "friction coefficient")},
         {{"normal_sign", "-", 1, "violation of p_n >= 0 and u_n >= 0"},
          {"complementarity", "N m", 1, "|p_n u_n|"},
          {"friction_cone", "N s", 1, "max(0, ||p_t|| - mu p_n)"}},
         [](const Values& v) {
           NcpResidual q = ncp_residual(scalar(v, "p_n"), scalar(v, "u_n"), vector3(v, "p_t"), scalar(v, "mu"));
           return Values{{"normal_sign", {q.normal_sign}}, {"complementarity", {q.complementarity}},
                         {"friction_cone", {q.friction_cone}}};
         }});
}

void register_section2(Registry& r) {
  const char* S = "E3 §2";
  r.add(plain("E3.2-xpbd-activation", "rule", "a record inside the gap is kept but gets no XPBD normal correction", S,
              "lib/e3/solvers/xpbd/xpbd_contact.h: xpbd_normal_impulse; lib/e3/contacts/contact_materials.h: fill_contact_materials"));
  r.add(plain("E3.2-pipeline-api", "rule", "CollisionPipeline(model), pipeline.contacts(), pipeline.collide(state, contacts)",
              S, "lib/e3/collision/collision_pipeline.h: CollisionPipeline"));
  r.add(plain("E3.2-pipeline-order", "rule", "clear/AABB, filtering, broad phase, narrow phase, reduction/matching, Contacts",
              S, "lib/e3/collision/collision_pipeline.cpp: CollisionPipeline::collide"));
  r.add(plain("E3.2-collide-uses-passed-state", "rule", "collide reads the body poses it is given, nothing else", S,
              "lib/e3/collision/collision_pipeline.cpp: CollisionPipeline::collide"));
  r.add(plain("E3.2-broadphase-modes", "rule", "nxn, sap and explicit only generate candidates, and the same ones", S,
              "lib/e3/collision/collision_kernels.cpp: broad_phase_nxn, broad_phase_sap, broad_phase_explicit"));
  r.add(plain("E3.2-geometry-routes", "rule", "convex pairs by GJK/EPA, meshes by BVH, SDF/hydroelastic separate", S,
              "lib/e3/collision/narrow_phase.h: geometry_route, convex_contact_candidates, triangle_contact_candidates, "
              "triangle_feature_candidates"));
  r.add(plain("E3.2-reduction", "rule", "reduction bounds and changes the contact set; it is not a solver iteration", S,
              "lib/e3/collision/narrow_phase.h: reduce_contacts, keep_deepest_layer"));
  r.add(plain("E3.2-hydro-preconditions", "rule", "hydroelastic needs both sides qualified; planes have the flag off", S,
              "lib/e3/collision/collision_model.cpp: add_shape_plane; lib/e3/collision/narrow_phase.h: geometry_route"));
  r.add(plain("E3.2-filter-table", "table", "world, group, pair filters, margin, gap and speculative gap", S,
              "lib/e3/collision/filter.h; lib/e3/contacts/contact_record.h"));
  r.add(plain("E3.2-shape-world", "rule", "different non-negative worlds never collide; -1 is shared but group-filtered", S,
              "lib/e3/collision/filter.h: test_world_and_group_pair"));
  r.add(plain("E3.2-collision-group", "rule", "0 none; positive with same or negative; negative with all but itself", S,
              "lib/e3/collision/filter.h: test_group_pair"));
  r.add(plain("E3.2-same-body-filter", "rule", "shapes of one body, exclusion pairs and joint parent/child are filtered", S,
              "lib/e3/collision/filter.h: shape_pair_passes_filters"));
  r.add(plain("E3.2-margin", "rule", "margins push both surfaces out and add in the gap function", S,
              "lib/e3/contacts/contact_record.h: effective_thickness"));
  r.add(plain("E3.2-gap", "rule", "gap keeps candidates beyond the surface; the default is the builder's rigid_gap", S,
              "lib/e3/collision/collision_model.cpp: CollisionSceneBuilder::add_shape"));
  r.add(plain("E3.2-speculative-gap", "rule", "optional widening by speed x dt, capped; not continuous detection", S,
              "lib/e3/contacts/contact_record.h: speculative_gap"));
  r.add({"E3.2-gap-function", "formula", "d = n^T (p1 - p0) - (m0 + m1)", S, Status::implemented, "",
         "lib/e3/contacts/contact_record.h: contact_surface_separation",
         {in_vec("p0", "m", "world core point of shape0"), in_vec("p1", "m", "world core point of shape1"),
          in_vec("n", "-", "unit normal from shape0 to shape1"), in_scalar("m0", "m", "effective thickness of shape0"),
          in_scalar("m1", "m", "effective thickness of shape1")},
         {{"d", "m", 1, "signed effective surface gap"}},
         [](const Values& v) {
           return Values{{"d", {contact_surface_separation(vector3(v, "p0"), vector3(v, "p1"), vector3(v, "n"),
                                                           scalar(v, "m0"), scalar(v, "m1"))}}};
         }});
  r.add(plain("E3.2-writer-accept", "rule", "a candidate is written when d <= gap0 + gap1 (inclusive)", S,
              "lib/e3/contacts/contact_record.h: writer_accepts; lib/e3/collision/narrow_phase.h"));
  r.add(plain("E3.2-record-table", "table", "the fields of the Contacts record, their frames and units", S,
              "lib/e3/contacts/contacts.h: Contacts"));
  r.add(plain("E3.2-field-count", "rule", "rigid_contact_count is one element, not the capacity", S,
              "lib/e3/contacts/contacts.h: Contacts::rigid_contact_count"));
  r.add(plain("E3.2-field-shape", "rule", "shape0/1 are shape ids; the body is shape_body[shape], -1 static", S,
              "lib/e3/contacts/contacts.h: rigid_contact_shape0/1"));
  r.add(plain("E3.2-field-point", "rule", "point0/1 are in each body's frame (world when static)", S,
              "lib/e3/collision/collision_kernels.cpp: write_contacts, eval_rigid_contact_kinematics"));
  r.add(plain("E3.2-field-normal", "rule", "the normal is a world unit vector from shape0 to shape1", S,
              "lib/e3/collision/narrow_phase.h: convex_contact_candidates"));
  r.add(plain("E3.2-field-offset", "rule", "offset0/1 are body-frame and turn with the body", S,
              "lib/e3/collision/collision_kernels.cpp: write_contacts"));
  r.add(plain("E3.2-field-margin", "rule", "margin0/1 is radius + shape margin, not shape_margin", S,
              "lib/e3/collision/collision_kernels.cpp: write_contacts"));
  r.add(plain("E3.2-field-overrides", "rule", "per-contact stiffness/damping/friction: 0 means unset", S,
              "lib/e3/contacts/materials.h: penalty_mix; lib/e3/collision/collision_kernels.cpp: write_contacts"));
  r.add(plain("E3.2-field-force", "rule", "the force array exists only when requested before allocation", S,
              "lib/e3/contacts/contacts.h: Contacts::Contacts(request_force)"));
  r.add(plain("E3.2-clear", "rule", "clear() resets the count only", S, "lib/e3/contacts/contacts.cpp: Contacts::clear"));
  r.add(plain("E3.2-overflow-count", "rule", "the count is taken first, writes past capacity skipped: count > capacity", S,
              "lib/e3/collision/collision_kernels.cpp: write_contacts"));
  r.add(plain("E3.2-overflow-policy", "rule", "an overflowed record is refused, never clamped", S,
              "lib/e3/contacts/contacts.cpp: Contacts::checked_count, snapshot_contact_geometry"));
  r.add(plain("E3.2-verify-buffers", "rule", "verify_buffers warns on overflow; no reallocation or roll-back", S,
              "lib/e3/collision/collision_pipeline.cpp: CollisionPipeline::collide"));
  r.add(plain("E3.2-contact-matching", "rule", "latest/sticky correspondence between frames; sorted rows; reset", S,
              "lib/e3/collision/collision_pipeline.cpp: CollisionPipeline::match"));
  r.add(plain("E3.2-matching-not-warmstart", "rule", "matching stores geometry only; a row index is no contact ID", S,
              "lib/e3/collision/collision_pipeline.cpp: CollisionPipeline::match"));
}

void register_section3(Registry& r) {
  const char* S = "E3 §3";
  auto two_mu = std::vector<Quantity>{in_scalar("mu0", "-", "friction of shape 0"), in_scalar("mu1", "-", "friction of shape 1")};
  r.add(plain("E3.3-shapeconfig-units", "rule", "ShapeConfig fields and units (kh in N/m^3, torsional/rolling in m)", S,
              "lib/e3/contacts/materials.h: ShapeMaterial"));
  r.add(plain("E3.3-material-table", "table", "each solver path combines the two sides' materials its own way", S,
              "lib/e3/contacts/materials.h: combined_mu and the *_mix functions"));
  r.add({"E3.3-xpbd-friction-mix", "formula", "XPBD: arithmetic mean of mu, torsional and rolling friction", S,
         Status::implemented, "", "lib/e3/contacts/materials.h: xpbd_friction_mix",
         {in_scalar("mu0", "-", "friction of shape 0"), in_scalar("mu1", "-", "friction of shape 1"),
          in_scalar("t0", "m", "torsional friction of shape 0"), in_scalar("t1", "m", "torsional friction of shape 1"),
          in_scalar("r0", "m", "rolling friction of shape 0"), in_scalar("r1", "m", "rolling friction of shape 1")},
         {{"mu", "-", 1, "combined friction"}, {"mu_torsional", "m", 1, "combined torsional friction"},
          {"mu_rolling", "m", 1, "combined rolling friction"}},
         [](const Values& v) {
           ShapeMaterial a, b;
           a.mu = scalar(v, "mu0"), b.mu = scalar(v, "mu1");
           a.mu_torsional = scalar(v, "t0"), b.mu_torsional = scalar(v, "t1");
           a.mu_rolling = scalar(v, "r0"), b.mu_rolling = scalar(v, "r1");
           XpbdContactMaterial m = xpbd_friction_mix(a, b);
           return Values{{"mu", {m.mu}}, {"mu_torsional", {m.mu_torsional}}, {"mu_rolling", {m.mu_rolling}}};
         }});
  r.add({"E3.3-xpbd-restitution-mix", "formula", "XPBD restitution pass: e = (e0 + e1)/2", S, Status::implemented, "",
         "lib/e3/contacts/materials.h: xpbd_restitution_mix",
         {in_scalar("e0", "-", "restitution of shape 0"), in_scalar("e1", "-", "restitution of shape 1")},
         {{"e", "-", 1, "combined restitution"}},
         [](const Values& v) {
           ShapeMaterial a, b;
           a.restitution = scalar(v, "e0"), b.restitution = scalar(v, "e1");
           return Values{{"e", {xpbd_restitution_mix(a, b)}}};
         }});
  r.add({"E3.3-penalty-mix", "formula", "penalty: means of ke, kd, kf, ka, mu; positive per-contact values override", S,
         Status::implemented, "", "lib/e3/contacts/materials.h: penalty_mix",
         {in_scalar("ke0", "N/m", "stiffness 0"), in_scalar("ke1", "N/m", "stiffness 1"),
          in_scalar("kd0", "N s/m", "damping 0"), in_scalar("kd1", "N s/m", "damping 1"),
          in_scalar("kf0", "N s/m", "friction damping 0"), in_scalar("kf1", "N s/m", "friction damping 1"),
          in_scalar("ka0", "m", "adhesion distance 0"), in_scalar("ka1", "m", "adhesion distance 1"),
          in_scalar("mu0", "-", "friction 0"), in_scalar("mu1", "-", "friction 1"),
          in_scalar("stiffness", "N/m", "per-contact stiffness, 0 = unset"),
          in_scalar("damping", "N s/m", "per-contact damping, 0 = unset"),
          in_scalar("friction", "-", "per-contact friction scale, 0 = unset")},
         {{"ke", "N/m", 1, "used stiffness"}, {"kd", "N s/m", 1, "used damping"}, {"kf", "N s/m", 1, "used friction damping"},
          {"ka", "m", 1, "used adhesion distance"}, {"mu", "-", 1, "used friction"}},
         [](const Values& v) {
           ShapeMaterial a, b;
           a.ke = scalar(v, "ke0"), b.ke = scalar(v, "ke1"), a.kd = scalar(v, "kd0"), b.kd = scalar(v, "kd1");
           a.kf = scalar(v, "kf0"), b.kf = scalar(v, "kf1"), a.ka = scalar(v, "ka0"), b.ka = scalar(v, "ka1");
           a.mu = scalar(v, "mu0"), b.mu = scalar(v, "mu1");
           PenaltyContactMaterial m =
               penalty_mix(a, b, {scalar(v, "stiffness"), scalar(v, "damping"), scalar(v, "friction")});
           return Values{{"ke", {m.ke}}, {"kd", {m.kd}}, {"kf", {m.kf}}, {"ka", {m.ka}}, {"mu", {m.mu}}};
         }});
  r.add({"E3.3-vbd-mix", "formula", "VBD: means of ke and kd, mu = sqrt(mu0 mu1)", S, Status::implemented, "",
         "lib/e3/contacts/materials.h: vbd_mix",
         {in_scalar("ke0", "N/m", "stiffness 0"), in_scalar("ke1", "N/m", "stiffness 1"),
          in_scalar("kd0", "N s/m", "damping 0"), in_scalar("kd1", "N s/m", "damping 1"),
          in_scalar("mu0", "-", "friction 0"), in_scalar("mu1", "-", "friction 1")},
         {{"ke", "N/m", 1, "combined stiffness"}, {"kd", "N s/m", 1, "combined damping"}, {"mu", "-", 1, "combined friction"}},
         [](const Values& v) {
           ShapeMaterial a, b;
           a.ke = scalar(v, "ke0"), b.ke = scalar(v, "ke1"), a.kd = scalar(v, "kd0"), b.kd = scalar(v, "kd1");
           a.mu = scalar(v, "mu0"), b.mu = scalar(v, "mu1");
           VbdContactMaterial m = vbd_mix(a, b);
           return Values{{"ke", {m.ke}}, {"kd", {m.kd}}, {"mu", {m.mu}}};
         }});
  r.add({"E3.3-mujoco-mix", "rule", "MuJoCo adapter: priority wins; else max friction and condim, solmix weights", S,
         Status::implemented, "", "lib/e3/contacts/materials.h: mujoco_mix",
         {in_scalar("mu0", "-", "friction 0"), in_scalar("mu1", "-", "friction 1"),
          in_scalar("priority0", "-", "priority 0"), in_scalar("priority1", "-", "priority 1"),
          in_scalar("condim0", "-", "condim 0"), in_scalar("condim1", "-", "condim 1"),
          in_scalar("solmix0", "-", "solmix 0"), in_scalar("solmix1", "-", "solmix 1")},
         {{"mu", "-", 1, "combined sliding friction"}, {"condim", "-", 1, "combined condim"},
          {"mix", "-", 1, "weight of shape 0 in the response"}},
         [](const Values& v) {
           ShapeMaterial a, b;
           a.mu = scalar(v, "mu0"), b.mu = scalar(v, "mu1");
           a.priority = static_cast<int>(scalar(v, "priority0")), b.priority = static_cast<int>(scalar(v, "priority1"));
           a.condim = static_cast<int>(scalar(v, "condim0")), b.condim = static_cast<int>(scalar(v, "condim1"));
           a.solmix = scalar(v, "solmix0"), b.solmix = scalar(v, "solmix1");
           MujocoContactMaterial m = mujoco_mix(a, b);
           return Values{{"mu", {m.friction[0]}}, {"condim", {double(m.condim)}}, {"mix", {m.mix}}};
         }});
  r.add({"E3.3-kamino-mix", "rule", "Kamino: average/multiply/max/min; defaults average friction, min restitution", S,
         Status::implemented, "", "lib/e3/contacts/materials.h: kamino_mix, kamino_combine",
         {in_scalar("x0", "-", "value of shape 0"), in_scalar("x1", "-", "value of shape 1")},
         {{"average", "-", 1, "(x0 + x1)/2"}, {"multiply", "-", 1, "x0 x1"}, {"max", "-", 1, "max"}, {"min", "-", 1, "min"},
          {"default_mu", "-", 1, "friction with the default mode (average)"},
          {"default_e", "-", 1, "restitution with the default mode (min)"}},
         [](const Values& v) {
           const real x0 = scalar(v, "x0"), x1 = scalar(v, "x1");
           ShapeMaterial a, b;
           a.mu = a.restitution = x0, b.mu = b.restitution = x1;
           KaminoContactMaterial d = kamino_mix(a, b);
           return Values{{"average", {kamino_combine(MixMode::average, x0, x1)}},
                         {"multiply", {kamino_combine(MixMode::multiply, x0, x1)}},
                         {"max", {kamino_combine(MixMode::max, x0, x1)}},
                         {"min", {kamino_combine(MixMode::min, x0, x1)}},
                         {"default_mu", {d.mu}},
                         {"default_e", {d.restitution}}};
         }});
  r.add({"E3.3-mu-example", "example", "mu 0.2 and 0.8: XPBD/penalty 0.5, VBD 0.4, MuJoCo 0.8", S, Status::implemented,
         "", "lib/e3/contacts/materials.h: combined_mu", two_mu,
         {{"mu_xpbd", "-", 1, "XPBD"}, {"mu_penalty", "-", 1, "SemiImplicit / Featherstone"}, {"mu_vbd", "-", 1, "VBD"},
          {"mu_mujoco", "-", 1, "MuJoCo adapter, equal priority"}, {"mu_kamino", "-", 1, "Kamino, default mode"}},
         [](const Values& v) {
           ShapeMaterial a = material_from(v, "0"), b = material_from(v, "1");
           return Values{{"mu_xpbd", {combined_mu(SolverPath::xpbd, a, b)}},
                         {"mu_penalty", {combined_mu(SolverPath::semi_implicit, a, b)}},
                         {"mu_vbd", {combined_mu(SolverPath::vbd, a, b)}},
                         {"mu_mujoco", {combined_mu(SolverPath::mujoco, a, b)}},
                         {"mu_kamino", {combined_mu(SolverPath::kamino, a, b)}}};
         }});
  r.add({"E3.3-hydro-Fagg", "formula", "F_agg = sum_i A_i p_i n_i", S, Status::implemented, "",
         "lib/e3/contacts/materials.h: hydro_force_aggregate",
         {in_vec("A", "m^2", "areas of three pressure elements"), in_vec("p", "Pa", "their pressures"),
          in_vec("n0", "-", "unit normal of element 0"), in_vec("n1", "-", "unit normal of element 1"),
          in_vec("n2", "-", "unit normal of element 2")},
         {{"F_agg", "N", 3, "aggregated force"}},
         [](const Values& v) {
           vec3 A = vector3(v, "A"), p = vector3(v, "p");
           real area[3] = {A.x, A.y, A.z}, pressure[3] = {p.x, p.y, p.z};
           vec3 n[3] = {vector3(v, "n0"), vector3(v, "n1"), vector3(v, "n2")};
           return Values{{"F_agg", as_values(hydro_force_aggregate(area, pressure, n, 3))}};
         }});
  r.add({"E3.3-hydro-keq", "formula", "k_contact = ||F_agg|| / sum_j depth_j", S, Status::implemented, "",
         "lib/e3/contacts/materials.h: hydro_equivalent_stiffness",
         {in_vec("F_agg", "N", "aggregated force"), in_vec("depth", "m", "penetration depths of three reduced contacts")},
         {{"k_contact", "N/m", 1, "equivalent contact stiffness"}},
         [](const Values& v) {
           vec3 d = vector3(v, "depth");
           real depth[3] = {d.x, d.y, d.z};
           return Values{{"k_contact", {hydro_equivalent_stiffness(vector3(v, "F_agg"), depth, 3)}}};
         }});
  r.add({"E3.3-hydro-kh-series", "formula", "k_eff = k_a k_b / (k_a + k_b)", S, Status::implemented, "",
         "lib/e3/contacts/materials.h: hydro_kh_series",
         {in_scalar("k_a", "N/m^3", "kh of side a"), in_scalar("k_b", "N/m^3", "kh of side b")},
         {{"k_eff", "N/m^3", 1, "series stiffness"}},
         [](const Values& v) { return Values{{"k_eff", {hydro_kh_series(scalar(v, "k_a"), scalar(v, "k_b"))}}}; }});
  r.add(prose("E3.3-hydro-not-deformable", "rule", "the hydroelastic route does not make shapes deformable", S,
              "an interpretation caution; impulse builds no hydroelastic route, so there is nothing to execute"));
  r.add(plain("E3.3-hydro-consumers", "rule", "only penalty paths (and MuJoCo without its own contacts) use contact stiffness",
              S, "lib/e3/contacts/materials.h: consumes_contact_stiffness, XpbdContactMaterial"));
}

void register_exercises(Registry& r) {
  r.add({"E3.10-ex1-mu-combination", "exercise", "mu 0.25 and 1.0 combined by XPBD, VBD and MuJoCo", "E3 §10",
         Status::implemented, "", "exercises/e3/E3.10-ex1-mu-combination.toml (key: E3.3-mu-example)", {}, {}, {}});
}

}  // namespace

void register_e3(Registry& r) {
  register_section1(r);
  register_section2(r);
  register_section3(r);
  register_exercises(r);
}

}  // namespace impulse::course
