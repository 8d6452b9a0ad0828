// Registration of the E3 §4-§8 formulas that stand on their own: the XPBD per-contact pieces,
// the restitution target, and the force-observation transfers and averages.
#include <cmath>
#include <stdexcept>
#include <vector>

#include "course/formula_call.h"
#include "course/registry.h"
#include "e1/integrator.h"
#include "e1/spatial_shift.h"
#include "e3/observe/force_observation.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "e3/solvers/xpbd/xpbd_contact.h"
#include "e3/solvers/xpbd/xpbd_step.h"

namespace impulse::course {

namespace {

void register_step(Registry& r) {
  const char* solver = "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step";
  r.add(rule("E3.4-step-order", "rule", "SolverXPBD.step: predict, fixed iterations of contacts then joints, save impulses, restitution, kinematic restore",
             "E3 §4", solver));
  r.add(rule("E3.4-impulse-buffers", "rule", "the contact impulse buffer is fresh and zero every step", "E3 §4", solver));
  r.add(rule("E3.4-jointf-temp-wrench", "rule", "joint_f goes into a temporary wrench; state_in.body_f is never written", "E3 §4", solver));
  r.add(rule("E3.4-kinematic-restore", "rule", "kinematic bodies get their prescribed state back at the end of the step", "E3 §4", solver));
  r.add(formula("E3.4-predict-linear", "predictor: v* = v + h (f/m + g), x_C* = x_C + h v*", "E3 §4",
         "lib/e1/integrator.h: linear_update (the E1 §10 predictor)",
         {vector_q("v", "m/s", "COM velocity"), vector_q("x_C", "m", "COM position"), vector_q("f", "N", "external force"), scalar_q("m", "kg", "mass"),
          vector_q("g", "m/s^2", "gravity"), scalar_q("h", "s", "step")},
         {vector_q("v_star", "m/s", "predicted velocity"), vector_q("x_star", "m", "predicted COM")},
         [](const Values& x) {
           vec3 vel = vector3(x, "v"), c = vector3(x, "x_C");
           real m = scalar(x, "m");
           if (!(m > 0)) throw std::invalid_argument("input --m of E3.4-predict-linear must be positive");
           linear_update(vel, c, vector3(x, "f"), 1 / m, vector3(x, "g"), scalar(x, "h"));
           return Values{{"v_star", as_values(vel)}, {"x_star", as_values(c)}};
         }));
  r.add(formula("E3.4-predict-angular", "predictor: omega in the body frame with the gyroscopic term, then the quaternion",
         "E3 §4", "lib/e1/integrator.h: angular_update, quat_update",
         {vector_q("omega", "rad/s", "world angular velocity"), vector_q("tau", "N m", "world torque"), vector_q("I", "kg m^2", "diagonal body inertia"),
          scalar_q("h", "s", "step")},
         {vector_q("omega_star", "rad/s", "predicted world angular velocity (identity orientation)")},
         [](const Values& x) {
           vec3 I = vector3(x, "I");
           if (!(I.x > 0 && I.y > 0 && I.z > 0)) throw std::invalid_argument("input --I of E3.4-predict-angular must be positive");
           vec3 w = angular_update(quat_identity(), vector3(x, "omega"), vector3(x, "tau"), mat33_diag(I),
                                   mat33_diag({1 / I.x, 1 / I.y, 1 / I.z}), scalar(x, "h"));
           return Values{{"omega_star", as_values(w)}};
         }));
  r.add(formula("E3.4-angular-damping", "omega <- (1 - gamma h) omega, not exp(-gamma h)", "E3 §4",
         "lib/e1/integrator.h: damp_angular",
         {scalar_q("gamma", "1/s", "angular damping"), scalar_q("h", "s", "step")},
         {scalar_q("factor", "-", "multiplier of omega"), scalar_q("exponential", "-", "exp(-gamma h), for contrast")},
         [](const Values& x) {
           real g = scalar(x, "gamma"), h = scalar(x, "h");
           return Values{{"factor", {damp_angular({1, 0, 0}, g, h).x}}, {"exponential", {std::exp(-g * h)}}};
         }));
  r.add(rule("E3.4-not-backward-euler", "rule", "the predictor is explicit; only the constraint projection corrects it", "E3 §4",
             "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step (integrate_bodies)"));
  r.add(rule("E3.4-apply-deltas", "rule", "apply_body_deltas: dv = w inv_m dp, x_C += h dv, gyroscopic angular update, unit quaternion",
             "E3 §4", "lib/e3/solvers/xpbd/xpbd_step.h: xpbd_apply_body_delta"));
  r.add(rule("E3.4-friction-anchor", "rule", "friction from the anchors' tangential displacement, plus h v_t of a kinematic surface",
             "E3 §4", "lib/e3/solvers/xpbd/xpbd_step.h: xpbd_contact_delta"));
  // The defaults are read off a SolverXPBD built on an empty Model, so `impulse verify` checks the
  // fields the engine uses, not a copy of the numbers.
  auto xpbd_defaults = [](const Values&) {
    const Model m = ModelBuilder().finalize();
    const SolverXPBD s(m);
    return Values{{"iterations", {double(s.iterations)}},
                  {"rigid_contact_relaxation", {double(s.rigid_contact_relaxation)}},
                  {"rigid_contact_con_weighting", {s.rigid_contact_con_weighting ? 1.0 : 0.0}}};
  };
  const std::vector<Quantity> default_outputs{
      scalar_q("iterations", "-", "position iterations per step"),
      scalar_q("rigid_contact_relaxation", "-", "relaxation of the normal correction"),
      scalar_q("rigid_contact_con_weighting", "-", "1 when each body's correction is divided by its active count")};
  r.add(item("E3.4-iterations-fixed", "rule", "iterations = 2 by default, a fixed loop with no tolerance and no early exit",
         "E3 §4", solver, {}, default_outputs, xpbd_defaults));
  r.add(rule("E3.4-jacobi-atomics", "rule", "Jacobi accumulation (here: ordered per-body sums instead of atomics)", "E3 §4", solver));
  r.add(rule("E3.4-iterations-not-substeps", "rule", "iterations revisit constraints in one h; no new time, no re-detection", "E3 §4", solver));
  r.add(rule("E3.4-no-warm-start", "rule", "the impulse accumulator is not the next step's starting multiplier", "E3 §4", solver));
  r.add(item("E3.4-contact-weighting", "rule", "weighting on by default: each body's correction divided by its active count N",
         "E3 §4", solver, {}, default_outputs, xpbd_defaults));
}

void register_restitution_pass(Registry& r) {
  const char* pass = "lib/e3/solvers/xpbd/xpbd_restitution.cpp: SolverXPBD::apply_restitution";
  r.add(rule("E3.5-restitution-gate", "rule", "the restitution pass runs only with enable_restitution", "E3 §5", pass));
  r.add(rule("E3.5-restitution-record", "rule", "predicted velocities are recorded; marked contacts grouped by body pair", "E3 §5", pass));
  r.add(item("E3.5-manifold-cap", "rule", "at most 12 contacts per manifold, chosen deterministically", "E3 §5", "lib/e3/solvers/xpbd/solver_xpbd.cpp: select_manifold_contacts", {},
         {scalar_q("manifold_max_contacts", "-", "contacts kept per body-pair manifold")},
         [](const Values&) {
           return Values{{"manifold_max_contacts", {double(SolverXPBD::restitution_manifold_max_contacts)}}};
         }));
  r.add(item("E3.5-iteration-counts", "rule", "8 Gauss-Seidel sweeps per outer iteration, 2 outer iterations by default",
         "E3 §5", pass, {},
         {scalar_q("inner_sweeps", "-", "Gauss-Seidel sweeps per outer iteration"),
          scalar_q("outer_iterations", "-", "default rigid_contact_restitution_iterations")},
         [](const Values&) {
           const Model m = ModelBuilder().finalize();
           const SolverXPBD s(m);
           return Values{{"inner_sweeps", {double(SolverXPBD::restitution_inner_iterations)}},
                         {"outer_iterations", {double(s.rigid_contact_restitution_iterations)}}};
         }));
  r.add(rule("E3.5-manifold-average", "rule", "each body's velocity delta is the mean over the manifolds that acted on it", "E3 §5", pass));
  r.add(rule("E3.5-pgs-bounds", "rule", "PGS with accumulated lower bounds: bounded negative in the first outer iteration, 0 after",
             "E3 §5", "lib/e3/solvers/xpbd/xpbd_step.h: restitution_pgs_increment"));
  r.add(rule("E3.5-readback-excludes-restitution", "rule", "update_contacts reads the position impulses only, not the restitution pass",
             "E3 §5", "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::update_contacts"));
  r.add(rule("E3.5-e-zero-still-acts", "rule", "with e = 0 an enabled pass still changes post-projection velocities", "E3 §5", pass));
}

void register_numerics(Registry& r) {
  const char* solver = "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step";
  r.add(rule("E3.7-h-vs-iterations", "rule", "h changes time, stiffness and readback; iterations only the residual at fixed h", "E3 §7",
             solver));
  r.add(rule("E3.7-collision-frequency", "rule", "an XPBD step keeps the record of its collide call (no re-detection)", "E3 §7", solver));
  r.add(rule("E3.7-stable-vs-accurate", "rule", "at rest is not balanced: weighting and the readback scale bias the forces", "E3 §7",
             solver));
  r.add(rule("E3.7-small-velocity-clamp", "rule", "apply_body_deltas zeroes |v| < 1e-4 and |omega| < 1e-4 separately", "E3 §7",
             "lib/e3/solvers/xpbd/xpbd_step.h: xpbd_apply_body_delta"));
  r.add(rule("E3.7-determinism", "rule", "ordered sums: bitwise identical on the CPU for any thread count (not across platforms)",
             "E3 §7", solver));
}

void register_readback(Registry& r) {
  r.add(rule("E3.8-contacts-force-contract", "rule", "Contacts.force: wrench of body1 on body0 at body0's COM, world", "E3 §8",
             "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::update_contacts"));
  r.add(rule("E3.8-joint-f-is-input", "rule", "Control.joint_f is an actuation input, read by the step, never a measured force",
             "E3 §8", "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step (temporary wrench)"));
  r.add(rule("E3.8-body-parent-f-semantics", "rule", "body_parent_f: the parent's COM world wrench on the child through its joint, joint_f included",
             "E3 §8", "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step (body_parent_f)"));
  r.add(rule("E3.8-body-f-semantics", "rule", "State.body_f is an external input; the XPBD step never writes it", "E3 §8",
             "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step"));
  r.add(rule("E3.8-xpbd-force-lifecycle", "rule", "request force before making the record; step then update_contacts on the same record",
             "E3 §8", "lib/e3/contacts/contacts.h: request_contact_attributes"));
  r.add(rule("E3.8-update-guards", "rule", "update_contacts checks force storage, a previous step and the capacity only", "E3 §8",
             "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::update_contacts"));
  r.add(rule("E3.8-xpbd-torque-approx", "rule", "XPBD torque accumulates each iteration's lever arms: approximate at the final COM",
             "E3 §8", "lib/e3/solvers/xpbd/xpbd_step.h: xpbd_contact_delta (angular parts r x p per iteration)"));
  r.add(rule("E3.8-mujoco-torque-gap", "rule", "a contact-point torque without the lever-arm shift is not the COM torque", "E3 §8",
             "lib/e1/spatial_shift.h: wrench_torque_at_com; lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp (COM torques)"));
  r.add(rule("E3.8-sensor-order", "rule", "SensorContact requests force, so it must be made before the record", "E3 §8",
             "lib/e3/observe/sensor_contact.h: SensorContact::SensorContact"));
  r.add(rule("E3.8-sensor-aggregation", "rule", "SensorContact sums the linear force only (+ body0, - body1), tangential part, weighted midpoint",
             "E3 §8", "lib/e3/observe/sensor_contact.h: SensorContact::update"));
}

void register_xpbd(Registry& r) {
  r.add(formula("E3.4-xpbd-w", "inverse effective mass w of a rigid normal contact", "E3 §4",
         "lib/e3/solvers/xpbd/xpbd_contact.h: xpbd_inverse_effective_mass",
         {scalar_q("inv_m_A", "1/kg", "effective inverse mass of A (0 for kinematic/static)"),
          vector_q("inv_I_A", "1/(kg m^2)", "diagonal of A's world inverse inertia"), vector_q("r_A", "m", "COM of A to contact point"),
          scalar_q("inv_m_B", "1/kg", "effective inverse mass of B"), vector_q("inv_I_B", "1/(kg m^2)", "diagonal of B's world inverse inertia"),
          vector_q("r_B", "m", "COM of B to contact point"), vector_q("n", "-", "unit normal from A to B")},
         {scalar_q("w", "1/kg", "inverse effective mass")},
         [](const Values& x) {
           real w = xpbd_inverse_effective_mass(scalar(x, "inv_m_A"), mat33_diag(vector3(x, "inv_I_A")), vector3(x, "r_A"),
                                                scalar(x, "inv_m_B"), mat33_diag(vector3(x, "inv_I_B")), vector3(x, "r_B"),
                                                vector3(x, "n"));
           return Values{{"w", {w}}};
         }));
  r.add(rule("E3.4-xpbd-w-kinematic", "rule", "a kinematic or static side adds nothing to w", "E3 §4",
         "lib/e3/solvers/xpbd/xpbd_contact.h: xpbd_inverse_effective_mass"));
  r.add(formula("E3.4-xpbd-pn", "p_n = relaxation (-d) / (h w), and its average force p_n / h", "E3 §4", "lib/e3/solvers/xpbd/xpbd_contact.h: xpbd_normal_impulse, impulse_to_average_force",
         {scalar_q("d", "m", "signed gap (negative: penetration)"), scalar_q("h", "s", "step"), scalar_q("w", "1/kg", "inverse effective mass"),
          scalar_q("relaxation", "-", "rigid contact relaxation (0.8 by default)")},
         {scalar_q("p_n", "N s", "normal impulse"), scalar_q("F_avg", "N", "equivalent average force p_n / h")},
         [](const Values& x) {
           real h = scalar(x, "h");
           real p = xpbd_normal_impulse(scalar(x, "d"), h, scalar(x, "w"), scalar(x, "relaxation"));
           return Values{{"p_n", {p}}, {"F_avg", {impulse_to_average_force(p, h)}}};
         }));
  r.add(rule("E3.4-xpbd-pn-sides", "rule", "A receives -n p_n and B receives +n p_n", "E3 §4",
         "lib/e3/solvers/xpbd/xpbd_contact.h: xpbd_normal_impulse (sides by the normal's direction)"));
  r.add(formula("E3.4-readback-scale", "force readback scale 1/N (one side counted) or 2/(N_A + N_B) (both)", "E3 §4", "lib/e3/solvers/xpbd/xpbd_contact.h: contact_readback_scale",
         {scalar_q("body_A", "-", "body id of side A (-1: world)"), scalar_q("N_A", "-", "active contact count of A"),
          scalar_q("body_B", "-", "body id of side B (-1: world)"), scalar_q("N_B", "-", "active contact count of B")},
         {scalar_q("scale", "-", "factor applied to the accumulated impulse"),
          scalar_q("weight_A", "-", "weight of A's correction in the solver, 1/N_A (0 for the world, id -1)"),
          scalar_q("weight_B", "-", "weight of B's correction in the solver, 1/N_B (0 for the world, id -1)")},
         [](const Values& x) {
           const int a = int(scalar(x, "body_A")), n_a = int(scalar(x, "N_A"));
           const int b = int(scalar(x, "body_B")), n_b = int(scalar(x, "N_B"));
           return Values{{"scale", {contact_readback_scale(a, n_a, b, n_b)}},
                         {"weight_A", {a >= 0 ? contact_count_weight(true, n_a) : real(0)}},
                         {"weight_B", {b >= 0 ? contact_count_weight(true, n_b) : real(0)}}};
         }));
  r.add(rule("E3.4-count-by-body-id", "rule", "the readback counts every side with a body id, kinematic ones included", "E3 §4", "lib/e3/solvers/xpbd/xpbd_contact.h: contact_readback_scale"));
}

void register_restitution(Registry& r) {
}

void register_observation(Registry& r) {
  r.add(formula("E3.8-wrench-transfer", "tau_O = tau_C0 + (C0 - O) x f0: move a wrench's torque to a point", "E3 §8", "lib/e1/spatial_shift.h: wrench_torque_at_com (the E1 §6 shift)",
         {vector_q("tau_C0", "N m", "torque about C0"), vector_q("C0", "m", "COM of body0"), vector_q("O", "m", "new reference point"),
          vector_q("f0", "N", "force on body0")},
         {vector_q("tau_O", "N m", "torque about O")},
         [](const Values& x) {
           return Values{{"tau_O", as_values(wrench_torque_at_com(vector3(x, "tau_C0"), vector3(x, "C0"), vector3(x, "O"),
                                                                  vector3(x, "f0")))}};
         }));
  r.add(formula("E3.8-wrench-reaction", "reaction at the other COM: f1 = -f0, tau_C1 = -tau_C0 - (C0 - C1) x f0", "E3 §8", "lib/e3/observe/force_observation.h: wrench_reaction_torque",
         {vector_q("tau_C0", "N m", "torque on body0 about C0"), vector_q("C0", "m", "COM of body0"), vector_q("C1", "m", "COM of body1"),
          vector_q("f0", "N", "force on body0")},
         {vector_q("f1", "N", "force on body1"), vector_q("tau_C1", "N m", "torque on body1 about C1")},
         [](const Values& x) {
           return Values{{"f1", as_values(-vector3(x, "f0"))},
                         {"tau_C1", as_values(wrench_reaction_torque(vector3(x, "tau_C0"), vector3(x, "C0"), vector3(x, "C1"),
                                                                     vector3(x, "f0")))}};
         }));
  r.add(rule("E3.8-no-plain-negation", "rule", "negating all six numbers does not put a wrench at the other COM", "E3 §8", "lib/e3/observe/force_observation.h: wrench_reaction_torque"));
  r.add(formula("E3.8-mujoco-point-fix", "tau_C0 = tau_P + (P - C0) x f0: a contact-point torque moved to the COM",
         "E3 §8", "lib/e1/spatial_shift.h: wrench_torque_at_com (the E1 §6 shift)",
         {vector_q("tau_P", "N m", "torque about the contact point"), vector_q("P", "m", "world contact point"), vector_q("C0", "m", "COM of body0"),
          vector_q("f0", "N", "force on body0")},
         {vector_q("tau_C0", "N m", "torque about the COM")},
         [](const Values& x) {
           return Values{{"tau_C0", as_values(wrench_torque_at_com(vector3(x, "tau_P"), vector3(x, "P"), vector3(x, "C0"),
                                                                   vector3(x, "f0")))}};
         }));
  r.add(formula("E3.8-time-average-force", "time-weighted average force over substeps of unequal length", "E3 §8", "lib/e3/observe/force_observation.h: time_average_force",
         {list_q("fbar", "N", "per-substep average forces along one direction"), list_q("h", "s", "substep lengths, as many as fbar")},
         {scalar_q("fbar_T", "N", "average over the whole interval"), scalar_q("naive_mean", "N", "plain mean of fbar (wrong for unequal h)")},
         [](const Values& x) {
           const auto& f = x.at("fbar");
           const auto& h = x.at("h");
           if (f.size() != h.size())
             throw std::invalid_argument("inputs --fbar and --h of E3.8-time-average-force must have the same length");
           for (double hk : h)
             if (!(hk > 0)) throw std::invalid_argument("input --h of E3.8-time-average-force must be positive");
           std::vector<vec3> fv;
           double mean = 0;
           for (double fk : f) {
             fv.push_back({fk, 0, 0});
             mean += fk / f.size();
           }
           std::vector<real> hv(h.begin(), h.end());
           return Values{{"fbar_T", {time_average_force(fv.data(), hv.data(), int(fv.size())).x}}, {"naive_mean", {mean}}};
         }));
  r.add(formula("E3.8-time-average-torque", "time-weighted average torque about a fixed world point", "E3 §8", "lib/e3/observe/force_observation.h: time_average_torque",
         {vector_q("tau_C1", "N m", "substep 1: torque about its COM"), vector_q("C1", "m", "substep 1: COM"), vector_q("f1", "N", "substep 1: force"),
          scalar_q("h1", "s", "substep 1: length"), vector_q("tau_C2", "N m", "substep 2: torque about its COM"), vector_q("C2", "m", "substep 2: COM"),
          vector_q("f2", "N", "substep 2: force"), scalar_q("h2", "s", "substep 2: length"), vector_q("O", "m", "fixed reference point")},
         {vector_q("taubar_O", "N m", "average torque about O")},
         [](const Values& x) {
           vec3 tau[2] = {vector3(x, "tau_C1"), vector3(x, "tau_C2")}, C[2] = {vector3(x, "C1"), vector3(x, "C2")},
                f[2] = {vector3(x, "f1"), vector3(x, "f2")};
           real h[2] = {scalar(x, "h1"), scalar(x, "h2")};
           if (!(h[0] > 0 && h[1] > 0)) throw std::invalid_argument("substep lengths --h1 and --h2 must be positive");
           return Values{{"taubar_O", as_values(time_average_torque(tau, C, f, h, 2, vector3(x, "O")))}};
         }));
}

void register_readback_contract(Registry& r) {
  r.add(rule("E3.7-kinematics-gradient", "rule", "with the set and normals frozen, distance is affine in the pose; no event derivative",
       "E3 §7", "lib/e3/contacts/contacts.h: eval_rigid_contact_kinematics"));
  r.add(prose("E3.7-float32", "rule", "float32 arrays cap the meaningful tolerance; a tiny threshold is not float64 precision",
         "E3 §7",
         "impulse runs in double unless built with IMPULSE_SINGLE_PRECISION; the rule is how to read a float32 run's tolerances"));
  r.add(rule("E3.8-four-objects-table", "table", "joint_f, body_f, body_parent_f and Contacts.force are four different things",
       "E3 §8", "lib/e3/solvers/xpbd/solver_xpbd.h: step, update_contacts, body_parent_f"));
  r.add(rule("E3.8-kamino-wrench-conversion", "rule", "a conversion to the COM uses the State it is given: pass that step's State",
       "E3 §8", "lib/e1/spatial_shift.h: wrench_torque_at_com"));
  r.add(rule("E3.9-readback-example-contract", "rule", "request, create, collide, overflow check, step, update, copy: one step, read once",
       "E3 §9", "lib/course/e3/readback_example.h: run_readback_example"));
  r.add(rule("E3.9-snapshot-function", "rule", "snapshot_contact_geometry refuses overflow and returns count-long arrays of d and points",
       "E3 §9", "lib/e3/contacts/contacts.h: snapshot_contact_geometry"));
  r.add(rule("E3.9-mixed-sampling", "rule", "snapshot distances follow the State given; normals and the set follow the last collide",
       "E3 §9", "lib/e3/contacts/contacts.h: eval_rigid_contact_kinematics"));
  r.add(rule("E3.10-pitfalls-table", "table", "ten readback pitfalls, each demonstrated by the rule it links", "E3 §10",
       "verify/e3/observe/readback_example_test.cpp (links the demonstrating rules)"));
  r.add(in_newton("E3.8-mujoco-cpu-update", "rule", "SolverMuJoCo's CPU branch raises on update_contacts", "E3 §8",
                  "about Newton's MuJoCo adapter (see E3.6-mujoco-branches); this engine has no MuJoCo backend",
                  "verify/parity/newton_claims.py: claim_cpu_update"));
  r.add(prose("E3.11-acceptance-scope", "rule", "the chapter's review scope and what comes next", "E3 §11",
         "a statement about the course's own review process and later chapters; nothing in it runs"));
}

void register_exercises(Registry& r) {
  const char* ids[][2] = {
      {"E3.10-ex2-xpbd-normal", "XPBD normal impulse and its average force for d = -0.002 m"},
      {"E3.10-ex3-readback-scale", "readback scale for contact counts 2 and 4"},
      {"E3.10-ex4-positive-gap-record", "a record inside the gap with d = +0.003 m gets no normal correction"},
      {"E3.10-ex5-wrench-reaction", "reaction torque at body1's COM"},
      {"E3.10-ex6-time-average", "average force over substeps of 0.001 s and 0.003 s"},
      {"E3.10-ex10-static-vs-kinematic-scale", "readback scale against a static and against a kinematic side"},
      {"E3.10-ex8-mujoco-torque", "why a world-frame contact-point torque is not the COM torque"},
      {"E3.10-ex9-matching-warmstart", "contact matching does not warm-start XPBD's position impulses"}};
  for (auto& e : ids)
    r.add(rule(e[0], "exercise", e[1], "E3 §10", std::string("exercises/e3/") + e[0] + ".toml"));
}

}  // namespace

void register_e3_solver(Registry& r) {
  register_step(r);
  register_restitution_pass(r);
  register_numerics(r);
  register_readback(r);
  register_xpbd(r);
  register_restitution(r);
  register_observation(r);
  register_readback_contract(r);
  register_exercises(r);
}

}  // namespace impulse::course
