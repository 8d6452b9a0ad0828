// Registration of the E3 items (course seed 000: contacts, solvers and force observation).
// Part 1: §1 (the contact problem), §2 (from shapes to Contacts), §3 (materials), exercise 1.
#include <Eigen/Dense>

#include "course/formula_call.h"
#include "course/registry.h"
#include "e3/contacts/contact_record.h"
#include "e3/dynamics_model.h"
#include "e3/contacts/materials.h"

namespace impulse::course {

namespace {

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
  r.add(formula("E3.1-discrete-dynamics", "one step: M (v+ - v) = h f_ext + J^T p", "E3 §1",
         "lib/e3/dynamics_model.h: discrete_velocity_update",
         {scalar_q("m", "kg", "mass of a point body (M = m I)"), vector_q("v_n", "m/s", "velocity before the step"),
          scalar_q("h", "s", "time step"), vector_q("f_ext", "N", "external force"),
          vector_q("Jt_p", "N s", "constraint impulse mapped to the body, J^T p")},
         {vector_q("v_next", "m/s", "velocity after the step")},
         [](const Values& v) {
           Eigen::MatrixXd M = scalar(v, "m") * Eigen::MatrixXd::Identity(3, 3), J = Eigen::MatrixXd::Identity(3, 3);
           auto e = [&](const char* n) { vec3 x = vector3(v, n); return Eigen::Vector3d(x.x, x.y, x.z); };
           Eigen::VectorXd out = discrete_velocity_update(M, e("v_n"), scalar(v, "h"), e("f_ext"), J, e("Jt_p"));
           return Values{{"v_next", {out[0], out[1], out[2]}}};
         }));
  r.add(formula("E3.1-delassus", "W = J M^-1 J^T, the constraint-space inverse effective mass", "E3 §1", "lib/e3/dynamics_model.h: delassus_operator",
         {scalar_q("m_A", "kg", "mass of body A"), scalar_q("m_B", "kg", "mass of body B"),
          vector_q("I_A", "kg m^2", "principal inertia of A (world-aligned)"),
          vector_q("I_B", "kg m^2", "principal inertia of B (world-aligned)"), vector_q("r_A", "m", "contact point - COM of A"),
          vector_q("r_B", "m", "contact point - COM of B"), vector_q("n", "-", "unit normal from A to B")},
         {scalar_q("W", "1/kg", "J M^-1 J^T of the single normal row")},
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
         }));
  r.add(formula("E3.1-ncp", "0 <= p_n perp u_n >= 0 and ||p_t|| <= mu p_n", "E3 §1",
         "lib/e3/dynamics_model.h: ncp_residual",
         {scalar_q("p_n", "N s", "normal impulse"), scalar_q("u_n", "m/s", "normal constraint velocity"),
          vector_q("p_t", "N s", "friction impulse"), scalar_q("mu", "-", "friction coefficient")},
         {scalar_q("normal_sign", "-", "violation of p_n >= 0 and u_n >= 0"),
          scalar_q("complementarity", "N m", "|p_n u_n|"),
          scalar_q("friction_cone", "N s", "max(0, ||p_t|| - mu p_n)")},
         [](const Values& v) {
           NcpResidual q = ncp_residual(scalar(v, "p_n"), scalar(v, "u_n"), vector3(v, "p_t"), scalar(v, "mu"));
           return Values{{"normal_sign", {q.normal_sign}}, {"complementarity", {q.complementarity}},
                         {"friction_cone", {q.friction_cone}}};
         }));
}

void register_section2(Registry& r) {
  const char* S = "E3 §2";
  r.add(rule("E3.2-xpbd-activation", "rule", "a record inside the gap is kept but gets no XPBD normal correction", S,
              "lib/e3/solvers/xpbd/xpbd_contact.h: xpbd_normal_impulse; lib/e3/contacts/contact_materials.h: fill_contact_materials"));
  r.add(rule("E3.2-pipeline-api", "rule", "CollisionPipeline(model), pipeline.contacts(), pipeline.collide(state, contacts)",
              S, "lib/e3/collision/collision_pipeline.h: CollisionPipeline"));
  r.add(rule("E3.2-pipeline-order", "rule", "clear/AABB, filtering, broad phase, narrow phase, reduction/matching, Contacts",
              S, "lib/e3/collision/collision_pipeline.cpp: CollisionPipeline::collide"));
  r.add(rule("E3.2-collide-uses-passed-state", "rule", "collide reads the body poses it is given, nothing else", S,
              "lib/e3/collision/collision_pipeline.cpp: CollisionPipeline::collide"));
  r.add(rule("E3.2-broadphase-modes", "rule", "nxn, sap and explicit only generate candidates, and the same ones", S,
              "lib/e3/collision/collision_kernels.cpp: broad_phase_nxn, broad_phase_sap, broad_phase_explicit"));
  r.add(rule("E3.2-geometry-routes", "rule", "convex pairs by GJK/EPA, meshes by BVH, SDF/hydroelastic separate", S,
              "lib/e3/collision/narrow_phase.h: geometry_route, convex_contact_candidates, triangle_contact_candidates, "
              "triangle_feature_candidates; lib/e3/collision/hydroelastic_contact.h: hydroelastic_reduce"));
  r.add(rule("E3.2-reduction", "rule", "reduction bounds and changes the contact set; it is not a solver iteration", S,
              "lib/e3/collision/narrow_phase.h: reduce_contacts, keep_deepest_layer"));
  r.add(rule("E3.2-hydro-preconditions", "rule", "hydroelastic needs both sides qualified; planes have the flag off", S,
              "lib/e1/model.cpp: add_shape_plane, validate_shape_config; lib/e3/collision/narrow_phase.h: geometry_route"));
  r.add(rule("E3.2-filter-table", "table", "world, group, pair filters, margin, gap and speculative gap", S,
              "lib/e3/collision/filter.h; lib/e3/contacts/contact_record.h"));
  r.add(rule("E3.2-shape-world", "rule", "different non-negative worlds never collide; -1 is shared but group-filtered", S,
              "lib/e3/collision/filter.h: test_world_and_group_pair"));
  r.add(rule("E3.2-collision-group", "rule", "0 none; positive with same or negative; negative with all but itself", S,
              "lib/e3/collision/filter.h: test_group_pair"));
  r.add(rule("E3.2-same-body-filter", "rule", "shapes of one body, exclusion pairs and joint parent/child are filtered", S,
              "lib/e3/collision/filter.h: shape_pair_passes_filters"));
  r.add(rule("E3.2-margin", "rule", "margins push both surfaces out and add in the gap function", S,
              "lib/e3/contacts/contact_record.h: effective_thickness"));
  r.add(rule("E3.2-gap", "rule", "gap keeps candidates beyond the surface; the default is the builder's rigid_gap", S,
              "lib/e1/model.cpp: ModelBuilder::finalize"));
  r.add(rule("E3.2-speculative-gap", "rule", "optional widening by speed x dt, capped; not continuous detection", S,
              "lib/e3/contacts/contact_record.h: speculative_gap"));
  r.add(rule("E3.2-writer-accept", "rule", "a candidate is written when d <= gap0 + gap1 (inclusive)", S,
              "lib/e3/contacts/contact_record.h: writer_accepts; lib/e3/collision/narrow_phase.h"));
  r.add(rule("E3.2-record-table", "table", "the fields of the Contacts record, their frames and units", S,
              "lib/e3/contacts/contacts.h: Contacts"));
  r.add(rule("E3.2-field-count", "rule", "rigid_contact_count is one element, not the capacity", S,
              "lib/e3/contacts/contacts.h: Contacts::rigid_contact_count"));
  r.add(rule("E3.2-field-shape", "rule", "shape0/1 are shape ids; the body is shape_body[shape], -1 static", S,
              "lib/e3/contacts/contacts.h: rigid_contact_shape0/1"));
  r.add(rule("E3.2-field-point", "rule", "point0/1 are in each body's frame (world when static)", S,
              "lib/e3/collision/collision_kernels.cpp: write_contacts, eval_rigid_contact_kinematics"));
  r.add(rule("E3.2-field-normal", "rule", "the normal is a world unit vector from shape0 to shape1", S,
              "lib/e3/collision/narrow_phase.h: convex_contact_candidates"));
  r.add(rule("E3.2-field-offset", "rule", "offset0/1 are body-frame and turn with the body", S,
              "lib/e3/collision/collision_kernels.cpp: write_contacts"));
  r.add(rule("E3.2-field-margin", "rule", "margin0/1 is radius + shape margin, not shape_margin", S,
              "lib/e3/collision/collision_kernels.cpp: write_contacts"));
  r.add(rule("E3.2-field-overrides", "rule", "per-contact stiffness/damping/friction: 0 means unset", S,
              "lib/e3/contacts/materials.h: penalty_mix; lib/e3/collision/collision_kernels.cpp: write_contacts"));
  r.add(rule("E3.2-field-force", "rule", "the force array exists only when requested before allocation", S,
              "lib/e3/contacts/contacts.h: Contacts::Contacts(request_force)"));
  r.add(rule("E3.2-clear", "rule", "clear() resets the count only", S, "lib/e3/contacts/contacts.cpp: Contacts::clear"));
  r.add(rule("E3.2-overflow-count", "rule", "the count is taken first, writes past capacity skipped: count > capacity", S,
              "lib/e3/collision/collision_kernels.cpp: write_contacts"));
  r.add(rule("E3.2-overflow-policy", "rule", "an overflowed record is refused, never clamped", S,
              "lib/e3/contacts/contacts.cpp: Contacts::checked_count, snapshot_contact_geometry"));
  r.add(rule("E3.2-verify-buffers", "rule", "verify_buffers warns on overflow; no reallocation or roll-back", S,
              "lib/e3/collision/collision_pipeline.cpp: CollisionPipeline::collide"));
  r.add(rule("E3.2-contact-matching", "rule", "latest/sticky correspondence between frames; sorted rows; reset", S,
              "lib/e3/collision/collision_pipeline.cpp: CollisionPipeline::match"));
  r.add(rule("E3.2-matching-not-warmstart", "rule", "matching stores geometry only; a row index is no contact ID", S,
              "lib/e3/collision/collision_pipeline.cpp: CollisionPipeline::match"));
}

void register_section3(Registry& r) {
  const char* S = "E3 §3";
  auto two_mu = std::vector<Quantity>{scalar_q("mu0", "-", "friction of shape 0"), scalar_q("mu1", "-", "friction of shape 1")};
  r.add(rule("E3.3-shapeconfig-units", "rule", "ShapeConfig fields and units (kh in N/m^3, torsional/rolling in m)", S,
              "lib/e3/contacts/materials.h: ShapeMaterial"));
  r.add(rule("E3.3-material-table", "table", "each solver path combines the two sides' materials its own way", S,
              "lib/e3/contacts/materials.h: combined_mu and the *_mix functions"));
  r.add(formula("E3.3-xpbd-friction-mix", "XPBD: arithmetic mean of mu, torsional and rolling friction", S, "lib/e3/contacts/materials.h: xpbd_friction_mix",
         {scalar_q("mu0", "-", "friction of shape 0"), scalar_q("mu1", "-", "friction of shape 1"),
          scalar_q("t0", "m", "torsional friction of shape 0"), scalar_q("t1", "m", "torsional friction of shape 1"),
          scalar_q("r0", "m", "rolling friction of shape 0"), scalar_q("r1", "m", "rolling friction of shape 1")},
         {scalar_q("mu", "-", "combined friction"), scalar_q("mu_torsional", "m", "combined torsional friction"),
          scalar_q("mu_rolling", "m", "combined rolling friction")},
         [](const Values& v) {
           ShapeMaterial a, b;
           a.mu = scalar(v, "mu0"), b.mu = scalar(v, "mu1");
           a.mu_torsional = scalar(v, "t0"), b.mu_torsional = scalar(v, "t1");
           a.mu_rolling = scalar(v, "r0"), b.mu_rolling = scalar(v, "r1");
           XpbdContactMaterial m = xpbd_friction_mix(a, b);
           return Values{{"mu", {m.mu}}, {"mu_torsional", {m.mu_torsional}}, {"mu_rolling", {m.mu_rolling}}};
         }));
  r.add(formula("E3.3-xpbd-restitution-mix", "XPBD restitution pass: e = (e0 + e1)/2", S,
         "lib/e3/contacts/materials.h: xpbd_restitution_mix",
         {scalar_q("e0", "-", "restitution of shape 0"), scalar_q("e1", "-", "restitution of shape 1")},
         {scalar_q("e", "-", "combined restitution")},
         [](const Values& v) {
           ShapeMaterial a, b;
           a.restitution = scalar(v, "e0"), b.restitution = scalar(v, "e1");
           return Values{{"e", {xpbd_restitution_mix(a, b)}}};
         }));
  r.add(formula("E3.3-penalty-mix", "penalty: means of ke, kd, kf, ka, mu; positive per-contact values override", S, "lib/e3/contacts/materials.h: penalty_mix",
         {scalar_q("ke0", "N/m", "stiffness 0"), scalar_q("ke1", "N/m", "stiffness 1"),
          scalar_q("kd0", "N s/m", "damping 0"), scalar_q("kd1", "N s/m", "damping 1"),
          scalar_q("kf0", "N s/m", "friction damping 0"), scalar_q("kf1", "N s/m", "friction damping 1"),
          scalar_q("ka0", "m", "adhesion distance 0"), scalar_q("ka1", "m", "adhesion distance 1"),
          scalar_q("mu0", "-", "friction 0"), scalar_q("mu1", "-", "friction 1"),
          scalar_q("stiffness", "N/m", "per-contact stiffness, 0 = unset"),
          scalar_q("damping", "N s/m", "per-contact damping, 0 = unset"),
          scalar_q("friction", "-", "per-contact friction scale, 0 = unset")},
         {scalar_q("ke", "N/m", "used stiffness"), scalar_q("kd", "N s/m", "used damping"), scalar_q("kf", "N s/m", "used friction damping"),
          scalar_q("ka", "m", "used adhesion distance"), scalar_q("mu", "-", "used friction")},
         [](const Values& v) {
           ShapeMaterial a, b;
           a.ke = scalar(v, "ke0"), b.ke = scalar(v, "ke1"), a.kd = scalar(v, "kd0"), b.kd = scalar(v, "kd1");
           a.kf = scalar(v, "kf0"), b.kf = scalar(v, "kf1"), a.ka = scalar(v, "ka0"), b.ka = scalar(v, "ka1");
           a.mu = scalar(v, "mu0"), b.mu = scalar(v, "mu1");
           PenaltyContactMaterial m =
               penalty_mix(a, b, {scalar(v, "stiffness"), scalar(v, "damping"), scalar(v, "friction")});
           return Values{{"ke", {m.ke}}, {"kd", {m.kd}}, {"kf", {m.kf}}, {"ka", {m.ka}}, {"mu", {m.mu}}};
         }));
  r.add(formula("E3.3-vbd-mix", "VBD: means of ke and kd, mu = sqrt(mu0 mu1)", S,
         "lib/e3/contacts/materials.h: vbd_mix",
         {scalar_q("ke0", "N/m", "stiffness 0"), scalar_q("ke1", "N/m", "stiffness 1"),
          scalar_q("kd0", "N s/m", "damping 0"), scalar_q("kd1", "N s/m", "damping 1"),
          scalar_q("mu0", "-", "friction 0"), scalar_q("mu1", "-", "friction 1")},
         {scalar_q("ke", "N/m", "combined stiffness"), scalar_q("kd", "N s/m", "combined damping"), scalar_q("mu", "-", "combined friction")},
         [](const Values& v) {
           ShapeMaterial a, b;
           a.ke = scalar(v, "ke0"), b.ke = scalar(v, "ke1"), a.kd = scalar(v, "kd0"), b.kd = scalar(v, "kd1");
           a.mu = scalar(v, "mu0"), b.mu = scalar(v, "mu1");
           VbdContactMaterial m = vbd_mix(a, b);
           return Values{{"ke", {m.ke}}, {"kd", {m.kd}}, {"mu", {m.mu}}};
         }));
  r.add(item("E3.3-mujoco-mix", "rule", "MuJoCo adapter: priority wins; else max friction and condim, solmix weights", S, "lib/e3/contacts/materials.h: mujoco_mix",
         {scalar_q("mu0", "-", "friction 0"), scalar_q("mu1", "-", "friction 1"),
          scalar_q("priority0", "-", "priority 0"), scalar_q("priority1", "-", "priority 1"),
          scalar_q("condim0", "-", "condim 0"), scalar_q("condim1", "-", "condim 1"),
          scalar_q("solmix0", "-", "solmix 0"), scalar_q("solmix1", "-", "solmix 1")},
         {scalar_q("mu", "-", "combined sliding friction"), scalar_q("condim", "-", "combined condim"),
          scalar_q("mix", "-", "weight of shape 0 in the response")},
         [](const Values& v) {
           ShapeMaterial a, b;
           a.mu = scalar(v, "mu0"), b.mu = scalar(v, "mu1");
           a.priority = static_cast<int>(scalar(v, "priority0")), b.priority = static_cast<int>(scalar(v, "priority1"));
           a.condim = static_cast<int>(scalar(v, "condim0")), b.condim = static_cast<int>(scalar(v, "condim1"));
           a.solmix = scalar(v, "solmix0"), b.solmix = scalar(v, "solmix1");
           MujocoContactMaterial m = mujoco_mix(a, b);
           return Values{{"mu", {m.friction[0]}}, {"condim", {double(m.condim)}}, {"mix", {m.mix}}};
         }));
  r.add(item("E3.3-kamino-mix", "rule", "Kamino: average/multiply/max/min; defaults average friction, min restitution", S, "lib/e3/contacts/materials.h: kamino_mix, kamino_combine",
         {scalar_q("x0", "-", "value of shape 0"), scalar_q("x1", "-", "value of shape 1")},
         {scalar_q("average", "-", "(x0 + x1)/2"), scalar_q("multiply", "-", "x0 x1"), scalar_q("max", "-", "max"), scalar_q("min", "-", "min"),
          scalar_q("default_mu", "-", "friction with the default mode (average)"),
          scalar_q("default_e", "-", "restitution with the default mode (min)")},
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
         }));
  r.add(item("E3.3-mu-example", "example", "mu 0.2 and 0.8: XPBD/penalty 0.5, VBD 0.4, MuJoCo 0.8", S, "lib/e3/contacts/materials.h: combined_mu", two_mu,
         {scalar_q("mu_xpbd", "-", "XPBD"), scalar_q("mu_penalty", "-", "SemiImplicit / Featherstone"), scalar_q("mu_vbd", "-", "VBD"),
          scalar_q("mu_mujoco", "-", "MuJoCo adapter, equal priority"), scalar_q("mu_kamino", "-", "Kamino, default mode")},
         [](const Values& v) {
           ShapeMaterial a = material_from(v, "0"), b = material_from(v, "1");
           return Values{{"mu_xpbd", {combined_mu(SolverPath::xpbd, a, b)}},
                         {"mu_penalty", {combined_mu(SolverPath::semi_implicit, a, b)}},
                         {"mu_vbd", {combined_mu(SolverPath::vbd, a, b)}},
                         {"mu_mujoco", {combined_mu(SolverPath::mujoco, a, b)}},
                         {"mu_kamino", {combined_mu(SolverPath::kamino, a, b)}}};
         }));
  r.add(formula("E3.3-hydro-Fagg", "F_agg = sum_i A_i p_i n_i", S,
         "lib/e3/contacts/materials.h: hydro_force_aggregate",
         {vector_q("A", "m^2", "areas of three pressure elements"), vector_q("p", "Pa", "their pressures"),
          vector_q("n0", "-", "unit normal of element 0"), vector_q("n1", "-", "unit normal of element 1"),
          vector_q("n2", "-", "unit normal of element 2")},
         {vector_q("F_agg", "N", "aggregated force")},
         [](const Values& v) {
           vec3 A = vector3(v, "A"), p = vector3(v, "p");
           real area[3] = {A.x, A.y, A.z}, pressure[3] = {p.x, p.y, p.z};
           vec3 n[3] = {vector3(v, "n0"), vector3(v, "n1"), vector3(v, "n2")};
           return Values{{"F_agg", as_values(hydro_force_aggregate(area, pressure, n, 3))}};
         }));
  r.add(formula("E3.3-hydro-keq", "k_contact = ||F_agg|| / sum_j depth_j", S,
         "lib/e3/contacts/materials.h: hydro_equivalent_stiffness",
         {vector_q("F_agg", "N", "aggregated force"), vector_q("depth", "m", "penetration depths of three reduced contacts")},
         {scalar_q("k_contact", "N/m", "equivalent contact stiffness")},
         [](const Values& v) {
           vec3 d = vector3(v, "depth");
           real depth[3] = {d.x, d.y, d.z};
           return Values{{"k_contact", {hydro_equivalent_stiffness(vector3(v, "F_agg"), depth, 3)}}};
         }));
  r.add(prose("E3.3-hydro-not-deformable", "rule", "the hydroelastic route does not make shapes deformable", S,
              "an interpretation caution (the course marks it REVIEW): the route is built (lib/e3/collision/"
              "hydroelastic_contact.h) and its output is four springs refreshed per collide, which chapters/e3/04-materials.md shows"));
  r.add(rule("E3.3-hydro-consumers", "rule", "only penalty paths (and MuJoCo without its own contacts) use contact stiffness",
              S, "lib/e3/contacts/materials.h: consumes_contact_stiffness, XpbdContactMaterial"));
}

void register_exercises(Registry& r) {
  r.add(rule("E3.10-ex1-mu-combination", "exercise", "mu 0.25 and 1.0 combined by XPBD, VBD and MuJoCo", "E3 §10", "exercises/e3/E3.10-ex1-mu-combination.toml (key: E3.3-mu-example)"));
}

}  // namespace

void register_e3(Registry& r) {
  register_section1(r);
  register_section2(r);
  register_section3(r);
  register_exercises(r);
}

}  // namespace impulse::course
