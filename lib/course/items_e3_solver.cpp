// Registration of the E3 §4-§8 formulas that stand on their own: the XPBD per-contact pieces,
// the restitution target, and the force-observation transfers and averages.
#include <cmath>
#include <stdexcept>
#include <vector>

#include "course/registry.h"
#include "e1/integrator.h"
#include "e1/spatial_shift.h"
#include "e3/observe/force_observation.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "e3/solvers/xpbd/xpbd_contact.h"
#include "e3/solvers/xpbd/xpbd_step.h"

namespace impulse::course {

namespace {

Quantity s(const char* name, const char* unit, const char* doc) { return {name, unit, 1, doc}; }
Quantity v(const char* name, const char* unit, const char* doc) { return {name, unit, 3, doc}; }
Quantity list(const char* name, const char* unit, const char* doc) { return {name, unit, 0, doc}; }

Item rule(const char* id, const char* title, const char* section, const char* where) {
  return {id, "rule", title, section, Status::implemented, "", where, {}, {}, {}};
}

void register_step(Registry& r) {
  const char* solver = "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step";
  r.add(rule("E3.4-step-order", "SolverXPBD.step: predict, fixed iterations of contacts then joints, save impulses, restitution, kinematic restore",
             "E3 §4", solver));
  r.add(rule("E3.4-impulse-buffers", "the contact impulse buffer is fresh and zero every step", "E3 §4", solver));
  r.add(rule("E3.4-jointf-temp-wrench", "joint_f goes into a temporary wrench; state_in.body_f is never written", "E3 §4", solver));
  r.add(rule("E3.4-kinematic-restore", "kinematic bodies get their prescribed state back at the end of the step", "E3 §4", solver));
  r.add({"E3.4-predict-linear", "formula", "predictor: v* = v + h (f/m + g), x_C* = x_C + h v*", "E3 §4", Status::implemented, "",
         "lib/e1/integrator.h: linear_update (the E1 §10 predictor)",
         {v("v", "m/s", "COM velocity"), v("x_C", "m", "COM position"), v("f", "N", "external force"), s("m", "kg", "mass"),
          v("g", "m/s^2", "gravity"), s("h", "s", "step")},
         {{"v_star", "m/s", 3, "predicted velocity"}, {"x_star", "m", 3, "predicted COM"}},
         [](const Values& x) {
           vec3 vel = vector3(x, "v"), c = vector3(x, "x_C");
           real m = scalar(x, "m");
           if (!(m > 0)) throw std::invalid_argument("input --m of E3.4-predict-linear must be positive");
           linear_update(vel, c, vector3(x, "f"), 1 / m, vector3(x, "g"), scalar(x, "h"));
           return Values{{"v_star", as_values(vel)}, {"x_star", as_values(c)}};
         }});
  r.add({"E3.4-predict-angular", "formula", "predictor: omega in the body frame with the gyroscopic term, then the quaternion",
         "E3 §4", Status::implemented, "", "lib/e1/integrator.h: angular_update, quat_update",
         {v("omega", "rad/s", "world angular velocity"), v("tau", "N m", "world torque"), v("I", "kg m^2", "diagonal body inertia"),
          s("h", "s", "step")},
         {{"omega_star", "rad/s", 3, "predicted world angular velocity (identity orientation)"}},
         [](const Values& x) {
           vec3 I = vector3(x, "I");
           if (!(I.x > 0 && I.y > 0 && I.z > 0)) throw std::invalid_argument("input --I of E3.4-predict-angular must be positive");
           vec3 w = angular_update(quat_identity(), vector3(x, "omega"), vector3(x, "tau"), mat33_diag(I),
                                   mat33_diag({1 / I.x, 1 / I.y, 1 / I.z}), scalar(x, "h"));
           return Values{{"omega_star", as_values(w)}};
         }});
  r.add({"E3.4-angular-damping", "formula", "omega <- (1 - gamma h) omega, not exp(-gamma h)", "E3 §4", Status::implemented, "",
         "lib/e1/integrator.h: damp_angular",
         {s("gamma", "1/s", "angular damping"), s("h", "s", "step")},
         {{"factor", "-", 1, "multiplier of omega"}, {"exponential", "-", 1, "exp(-gamma h), for contrast"}},
         [](const Values& x) {
           real g = scalar(x, "gamma"), h = scalar(x, "h");
           return Values{{"factor", {damp_angular({1, 0, 0}, g, h).x}}, {"exponential", {std::exp(-g * h)}}};
         }});
  r.add(rule("E3.4-not-backward-euler", "the predictor is explicit; only the constraint projection corrects it", "E3 §4",
             "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step (integrate_bodies)"));
  r.add(rule("E3.4-apply-deltas", "apply_body_deltas: dv = w inv_m dp, x_C += h dv, gyroscopic angular update, unit quaternion",
             "E3 §4", "lib/e3/solvers/xpbd/xpbd_step.h: xpbd_apply_body_delta"));
  r.add(rule("E3.4-friction-anchor", "friction from the anchors' tangential displacement, plus h v_t of a kinematic surface",
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
      {"iterations", "-", 1, "position iterations per step"},
      {"rigid_contact_relaxation", "-", 1, "relaxation of the normal correction"},
      {"rigid_contact_con_weighting", "-", 1, "1 when each body's correction is divided by its active count"}};
  r.add({"E3.4-iterations-fixed", "rule", "iterations = 2 by default, a fixed loop with no tolerance and no early exit",
         "E3 §4", Status::implemented, "", solver, {}, default_outputs, xpbd_defaults});
  r.add(rule("E3.4-jacobi-atomics", "Jacobi accumulation (here: ordered per-body sums instead of atomics)", "E3 §4", solver));
  r.add(rule("E3.4-iterations-not-substeps", "iterations revisit constraints in one h; no new time, no re-detection", "E3 §4", solver));
  r.add(rule("E3.4-no-warm-start", "the impulse accumulator is not the next step's starting multiplier", "E3 §4", solver));
  r.add({"E3.4-contact-weighting", "rule", "weighting on by default: each body's correction divided by its active count N",
         "E3 §4", Status::implemented, "", solver, {}, default_outputs, xpbd_defaults});
}

void register_restitution_pass(Registry& r) {
  const char* pass = "lib/e3/solvers/xpbd/xpbd_restitution.cpp: SolverXPBD::apply_restitution";
  r.add(rule("E3.5-restitution-gate", "the restitution pass runs only with enable_restitution", "E3 §5", pass));
  r.add(rule("E3.5-restitution-record", "predicted velocities are recorded; marked contacts grouped by body pair", "E3 §5", pass));
  r.add({"E3.5-manifold-cap", "rule", "at most 12 contacts per manifold, chosen deterministically", "E3 §5",
         Status::implemented, "", "lib/e3/solvers/xpbd/solver_xpbd.cpp: select_manifold_contacts", {},
         {{"manifold_max_contacts", "-", 1, "contacts kept per body-pair manifold"}},
         [](const Values&) {
           return Values{{"manifold_max_contacts", {double(SolverXPBD::restitution_manifold_max_contacts)}}};
         }});
  r.add({"E3.5-iteration-counts", "rule", "8 Gauss-Seidel sweeps per outer iteration, 2 outer iterations by default",
         "E3 §5", Status::implemented, "", pass, {},
         {{"inner_sweeps", "-", 1, "Gauss-Seidel sweeps per outer iteration"},
          {"outer_iterations", "-", 1, "default rigid_contact_restitution_iterations"}},
         [](const Values&) {
           const Model m = ModelBuilder().finalize();
           const SolverXPBD s(m);
           return Values{{"inner_sweeps", {double(SolverXPBD::restitution_inner_iterations)}},
                         {"outer_iterations", {double(s.rigid_contact_restitution_iterations)}}};
         }});
  r.add(rule("E3.5-manifold-average", "each body's velocity delta is the mean over the manifolds that acted on it", "E3 §5", pass));
  r.add(rule("E3.5-pgs-bounds", "PGS with accumulated lower bounds: bounded negative in the first outer iteration, 0 after",
             "E3 §5", "lib/e3/solvers/xpbd/xpbd_step.h: restitution_pgs_increment"));
  r.add(rule("E3.5-readback-excludes-restitution", "update_contacts reads the position impulses only, not the restitution pass",
             "E3 §5", "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::update_contacts"));
  r.add(rule("E3.5-e-zero-still-acts", "with e = 0 an enabled pass still changes post-projection velocities", "E3 §5", pass));
}

void register_numerics(Registry& r) {
  const char* solver = "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step";
  r.add(rule("E3.7-h-vs-iterations", "h changes time, stiffness and readback; iterations only the residual at fixed h", "E3 §7",
             solver));
  r.add(rule("E3.7-collision-frequency", "an XPBD step keeps the record of its collide call (no re-detection)", "E3 §7", solver));
  r.add(rule("E3.7-stable-vs-accurate", "at rest is not balanced: weighting and the readback scale bias the forces", "E3 §7",
             solver));
  r.add(rule("E3.7-small-velocity-clamp", "apply_body_deltas zeroes |v| < 1e-4 and |omega| < 1e-4 separately", "E3 §7",
             "lib/e3/solvers/xpbd/xpbd_step.h: xpbd_apply_body_delta"));
  r.add(rule("E3.7-determinism", "ordered sums: bitwise identical on the CPU for any thread count (not across platforms)",
             "E3 §7", solver));
}

void register_readback(Registry& r) {
  r.add(rule("E3.8-contacts-force-contract", "Contacts.force: wrench of body1 on body0 at body0's COM, world", "E3 §8",
             "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::update_contacts"));
  r.add(rule("E3.8-joint-f-is-input", "Control.joint_f is an actuation input, read by the step, never a measured force",
             "E3 §8", "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step (temporary wrench)"));
  r.add(rule("E3.8-body-parent-f-semantics", "body_parent_f: the parent's COM world wrench on the child through its joint, joint_f included",
             "E3 §8", "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step (body_parent_f)"));
  r.add(rule("E3.8-body-f-semantics", "State.body_f is an external input; the XPBD step never writes it", "E3 §8",
             "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::step"));
  r.add(rule("E3.8-xpbd-force-lifecycle", "request force before making the record; step then update_contacts on the same record",
             "E3 §8", "lib/e3/contacts/contacts.h: request_contact_attributes"));
  r.add(rule("E3.8-update-guards", "update_contacts checks force storage, a previous step and the capacity only", "E3 §8",
             "lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp: SolverXPBD::update_contacts"));
  r.add(rule("E3.8-xpbd-torque-approx", "XPBD torque accumulates each iteration's lever arms: approximate at the final COM",
             "E3 §8", "lib/e3/solvers/xpbd/xpbd_step.h: xpbd_contact_delta (angular parts r x p per iteration)"));
  r.add(rule("E3.8-mujoco-torque-gap", "a contact-point torque without the lever-arm shift is not the COM torque", "E3 §8",
             "lib/e1/spatial_shift.h: wrench_torque_at_com; lib/e3/solvers/xpbd/solver_xpbd_kernels.cpp (COM torques)"));
  r.add(rule("E3.8-sensor-order", "SensorContact requests force, so it must be made before the record", "E3 §8",
             "lib/e3/observe/sensor_contact.h: SensorContact::SensorContact"));
  r.add(rule("E3.8-sensor-aggregation", "SensorContact sums the linear force only (+ body0, - body1), tangential part, weighted midpoint",
             "E3 §8", "lib/e3/observe/sensor_contact.h: SensorContact::update"));
}

void register_xpbd(Registry& r) {
  r.add({"E3.4-xpbd-w", "formula", "inverse effective mass w of a rigid normal contact", "E3 §4", Status::implemented, "",
         "lib/e3/solvers/xpbd/xpbd_contact.h: xpbd_inverse_effective_mass",
         {s("inv_m_A", "1/kg", "effective inverse mass of A (0 for kinematic/static)"),
          v("inv_I_A", "1/(kg m^2)", "diagonal of A's world inverse inertia"), v("r_A", "m", "COM of A to contact point"),
          s("inv_m_B", "1/kg", "effective inverse mass of B"), v("inv_I_B", "1/(kg m^2)", "diagonal of B's world inverse inertia"),
          v("r_B", "m", "COM of B to contact point"), v("n", "-", "unit normal from A to B")},
         {{"w", "1/kg", 1, "inverse effective mass"}},
         [](const Values& x) {
           real w = xpbd_inverse_effective_mass(scalar(x, "inv_m_A"), mat33_diag(vector3(x, "inv_I_A")), vector3(x, "r_A"),
                                                scalar(x, "inv_m_B"), mat33_diag(vector3(x, "inv_I_B")), vector3(x, "r_B"),
                                                vector3(x, "n"));
           return Values{{"w", {w}}};
         }});
  r.add({"E3.4-xpbd-w-kinematic", "rule", "a kinematic or static side adds nothing to w", "E3 §4", Status::implemented, "",
         "lib/e3/solvers/xpbd/xpbd_contact.h: xpbd_inverse_effective_mass", {}, {}, {}});
  r.add({"E3.4-xpbd-pn", "formula", "p_n = relaxation (-d) / (h w), and its average force p_n / h", "E3 §4",
         Status::implemented, "", "lib/e3/solvers/xpbd/xpbd_contact.h: xpbd_normal_impulse, impulse_to_average_force",
         {s("d", "m", "signed gap (negative: penetration)"), s("h", "s", "step"), s("w", "1/kg", "inverse effective mass"),
          s("relaxation", "-", "rigid contact relaxation (0.8 by default)")},
         {{"p_n", "N s", 1, "normal impulse"}, {"F_avg", "N", 1, "equivalent average force p_n / h"}},
         [](const Values& x) {
           real h = scalar(x, "h");
           real p = xpbd_normal_impulse(scalar(x, "d"), h, scalar(x, "w"), scalar(x, "relaxation"));
           return Values{{"p_n", {p}}, {"F_avg", {impulse_to_average_force(p, h)}}};
         }});
  r.add({"E3.4-xpbd-pn-sides", "rule", "A receives -n p_n and B receives +n p_n", "E3 §4", Status::implemented, "",
         "lib/e3/solvers/xpbd/xpbd_contact.h: xpbd_normal_impulse (sides by the normal's direction)", {}, {}, {}});
  r.add({"E3.4-impulse-to-force", "formula", "F_avg = p / h: an accumulated impulse is divided by h once", "E3 §4",
         Status::implemented, "", "lib/e3/solvers/xpbd/xpbd_contact.h: impulse_to_average_force",
         {s("p", "N s", "accumulated impulse"), s("h", "s", "step")}, {{"F_avg", "N", 1, "average force"}},
         [](const Values& x) { return Values{{"F_avg", {impulse_to_average_force(scalar(x, "p"), scalar(x, "h"))}}}; }});
  r.add({"E3.4-joint-helper-denominator", "formula", "(h + alpha b) w + alpha / h, the joint correction's denominator",
         "E3 §4", Status::implemented, "", "lib/e3/solvers/xpbd/xpbd_contact.h: xpbd_joint_denominator",
         {s("h", "s", "step"), s("w", "1/kg", "inverse effective mass"), s("alpha", "-", "compliance (units not given by the course)"),
          s("b", "-", "damping (units not given by the course)")},
         {{"den", "-", 1, "denominator"}},
         [](const Values& x) {
           return Values{{"den", {xpbd_joint_denominator(scalar(x, "h"), scalar(x, "w"), scalar(x, "alpha"), scalar(x, "b"))}}};
         }});
  r.add({"E3.4-friction-limit", "formula", "||dp_t|| <= mu p_n per contact and iteration", "E3 §4", Status::implemented, "",
         "lib/e3/solvers/xpbd/xpbd_contact.h: clamp_friction_increment",
         {v("dp_t", "N s", "unlimited tangential impulse increment"), s("mu", "-", "friction coefficient"),
          s("p_n", "N s", "this iteration's normal impulse")},
         {{"dp_t_limited", "N s", 3, "increment after the limit"}},
         [](const Values& x) {
           return Values{{"dp_t_limited", as_values(clamp_friction_increment(vector3(x, "dp_t"), scalar(x, "mu"), scalar(x, "p_n")))}};
         }});
  r.add({"E3.4-torsion-rolling-limit", "formula", "torsional and rolling angular impulses limited by mu_torsional p_n and mu_rolling p_n",
         "E3 §4", Status::implemented, "", "lib/e3/solvers/xpbd/xpbd_contact.h: clamp_angular_friction_increment",
         {v("dL", "N m s", "unlimited angular impulse increment"), v("n", "-", "unit contact normal"),
          s("mu_torsional", "m", "torsional friction"), s("mu_rolling", "m", "rolling friction"), s("p_n", "N s", "normal impulse")},
         {{"dL_limited", "N m s", 3, "increment after both limits"}},
         [](const Values& x) {
           return Values{{"dL_limited", as_values(clamp_angular_friction_increment(vector3(x, "dL"), vector3(x, "n"),
                                                                                  scalar(x, "mu_torsional"), scalar(x, "mu_rolling"),
                                                                                  scalar(x, "p_n")))}};
         }});
  r.add({"E3.4-readback-scale", "formula", "force readback scale 1/N (one side counted) or 2/(N_A + N_B) (both)", "E3 §4",
         Status::implemented, "", "lib/e3/solvers/xpbd/xpbd_contact.h: contact_readback_scale",
         {s("body_A", "-", "body id of side A (-1: world)"), s("N_A", "-", "active contact count of A"),
          s("body_B", "-", "body id of side B (-1: world)"), s("N_B", "-", "active contact count of B")},
         {{"scale", "-", 1, "factor applied to the accumulated impulse"},
          {"weight_A", "-", 1, "weight of A's correction in the solver, 1/N_A (0 for the world, id -1)"},
          {"weight_B", "-", 1, "weight of B's correction in the solver, 1/N_B (0 for the world, id -1)"}},
         [](const Values& x) {
           const int a = int(scalar(x, "body_A")), n_a = int(scalar(x, "N_A"));
           const int b = int(scalar(x, "body_B")), n_b = int(scalar(x, "N_B"));
           return Values{{"scale", {contact_readback_scale(a, n_a, b, n_b)}},
                         {"weight_A", {a >= 0 ? contact_count_weight(true, n_a) : real(0)}},
                         {"weight_B", {b >= 0 ? contact_count_weight(true, n_b) : real(0)}}};
         }});
  r.add({"E3.4-count-by-body-id", "rule", "the readback counts every side with a body id, kinematic ones included", "E3 §4",
         Status::implemented, "", "lib/e3/solvers/xpbd/xpbd_contact.h: contact_readback_scale", {}, {}, {}});
}

void register_restitution(Registry& r) {
  r.add({"E3.5-gstar", "formula", "g* = largest gravity norm over the sides that have a body id", "E3 §5", Status::implemented, "",
         "lib/e3/solvers/xpbd/xpbd_contact.h: restitution_gstar",
         {s("body_A", "-", "body id of A"), v("g_A", "m/s^2", "gravity of A's world"), s("body_B", "-", "body id of B"),
          v("g_B", "m/s^2", "gravity of B's world")},
         {{"gstar", "m/s^2", 1, "gravity scale of the threshold"}},
         [](const Values& x) {
           return Values{{"gstar", {restitution_gstar(int(scalar(x, "body_A")), vector3(x, "g_A"), int(scalar(x, "body_B")),
                                                      vector3(x, "g_B"))}}};
         }});
  r.add({"E3.5-target-velocity", "formula", "restitution target: -e v_old below -2 g* h, v_old above +2 g* h, else 0",
         "E3 §5", Status::implemented, "", "lib/e3/solvers/xpbd/xpbd_contact.h: restitution_target_velocity",
         {s("v_old", "m/s", "pre-projection normal velocity, positive separating"), s("e", "-", "restitution"),
          s("gstar", "m/s^2", "gravity scale"), s("h", "s", "step")},
         {{"v_target", "m/s", 1, "target separating velocity"}},
         [](const Values& x) {
           return Values{{"v_target", {restitution_target_velocity(scalar(x, "v_old"), scalar(x, "e"), scalar(x, "gstar"),
                                                                   scalar(x, "h"))}}};
         }});
}

void register_observation(Registry& r) {
  r.add({"E3.8-wrench-transfer", "formula", "tau_O = tau_C0 + (C0 - O) x f0: move a wrench's torque to a point", "E3 §8",
         Status::implemented, "", "lib/e1/spatial_shift.h: wrench_torque_at_com (the E1 §6 shift)",
         {v("tau_C0", "N m", "torque about C0"), v("C0", "m", "COM of body0"), v("O", "m", "new reference point"),
          v("f0", "N", "force on body0")},
         {{"tau_O", "N m", 3, "torque about O"}},
         [](const Values& x) {
           return Values{{"tau_O", as_values(wrench_torque_at_com(vector3(x, "tau_C0"), vector3(x, "C0"), vector3(x, "O"),
                                                                  vector3(x, "f0")))}};
         }});
  r.add({"E3.8-wrench-reaction", "formula", "reaction at the other COM: f1 = -f0, tau_C1 = -tau_C0 - (C0 - C1) x f0", "E3 §8",
         Status::implemented, "", "lib/e3/observe/force_observation.h: wrench_reaction_torque",
         {v("tau_C0", "N m", "torque on body0 about C0"), v("C0", "m", "COM of body0"), v("C1", "m", "COM of body1"),
          v("f0", "N", "force on body0")},
         {{"f1", "N", 3, "force on body1"}, {"tau_C1", "N m", 3, "torque on body1 about C1"}},
         [](const Values& x) {
           return Values{{"f1", as_values(-vector3(x, "f0"))},
                         {"tau_C1", as_values(wrench_reaction_torque(vector3(x, "tau_C0"), vector3(x, "C0"), vector3(x, "C1"),
                                                                     vector3(x, "f0")))}};
         }});
  r.add({"E3.8-no-plain-negation", "rule", "negating all six numbers does not put a wrench at the other COM", "E3 §8",
         Status::implemented, "", "lib/e3/observe/force_observation.h: wrench_reaction_torque", {}, {}, {}});
  r.add({"E3.8-mujoco-point-fix", "formula", "tau_C0 = tau_P + (P - C0) x f0: a contact-point torque moved to the COM",
         "E3 §8", Status::implemented, "", "lib/e1/spatial_shift.h: wrench_torque_at_com (the E1 §6 shift)",
         {v("tau_P", "N m", "torque about the contact point"), v("P", "m", "world contact point"), v("C0", "m", "COM of body0"),
          v("f0", "N", "force on body0")},
         {{"tau_C0", "N m", 3, "torque about the COM"}},
         [](const Values& x) {
           return Values{{"tau_C0", as_values(wrench_torque_at_com(vector3(x, "tau_P"), vector3(x, "P"), vector3(x, "C0"),
                                                                   vector3(x, "f0")))}};
         }});
  r.add({"E3.8-time-average-force", "formula", "time-weighted average force over substeps of unequal length", "E3 §8",
         Status::implemented, "", "lib/e3/observe/force_observation.h: time_average_force",
         {list("fbar", "N", "per-substep average forces along one direction"), list("h", "s", "substep lengths, as many as fbar")},
         {{"fbar_T", "N", 1, "average over the whole interval"}, {"naive_mean", "N", 1, "plain mean of fbar (wrong for unequal h)"}},
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
         }});
  r.add({"E3.8-time-average-torque", "formula", "time-weighted average torque about a fixed world point", "E3 §8",
         Status::implemented, "", "lib/e3/observe/force_observation.h: time_average_torque",
         {v("tau_C1", "N m", "substep 1: torque about its COM"), v("C1", "m", "substep 1: COM"), v("f1", "N", "substep 1: force"),
          s("h1", "s", "substep 1: length"), v("tau_C2", "N m", "substep 2: torque about its COM"), v("C2", "m", "substep 2: COM"),
          v("f2", "N", "substep 2: force"), s("h2", "s", "substep 2: length"), v("O", "m", "fixed reference point")},
         {{"taubar_O", "N m", 3, "average torque about O"}},
         [](const Values& x) {
           vec3 tau[2] = {vector3(x, "tau_C1"), vector3(x, "tau_C2")}, C[2] = {vector3(x, "C1"), vector3(x, "C2")},
                f[2] = {vector3(x, "f1"), vector3(x, "f2")};
           real h[2] = {scalar(x, "h1"), scalar(x, "h2")};
           if (!(h[0] > 0 && h[1] > 0)) throw std::invalid_argument("substep lengths --h1 and --h2 must be positive");
           return Values{{"taubar_O", as_values(time_average_torque(tau, C, f, h, 2, vector3(x, "O")))}};
         }});
}

void register_readback_contract(Registry& r) {
  auto rule = [&](const char* id, const char* kind, const char* title, const char* section, const char* where) {
    r.add({id, kind, title, section, Status::implemented, "", where, {}, {}, {}});
  };
  rule("E3.7-kinematics-gradient", "rule", "with the set and normals frozen, distance is affine in the pose; no event derivative",
       "E3 §7", "lib/e3/contacts/contacts.h: eval_rigid_contact_kinematics");
  r.add({"E3.7-float32", "rule", "float32 arrays cap the meaningful tolerance; a tiny threshold is not float64 precision",
         "E3 §7", Status::prose_only,
         "impulse runs in double unless built with IMPULSE_SINGLE_PRECISION; the rule is how to read a float32 run's tolerances",
         "", {}, {}, {}});
  rule("E3.8-four-objects-table", "table", "joint_f, body_f, body_parent_f and Contacts.force are four different things",
       "E3 §8", "lib/e3/solvers/xpbd/solver_xpbd.h: step, update_contacts, body_parent_f");
  rule("E3.8-kamino-wrench-conversion", "rule", "a conversion to the COM uses the State it is given: pass that step's State",
       "E3 §8", "lib/e1/spatial_shift.h: wrench_torque_at_com");
  rule("E3.9-readback-example-contract", "rule", "request, create, collide, overflow check, step, update, copy: one step, read once",
       "E3 §9", "lib/course/e3/readback_example.h: run_readback_example");
  rule("E3.9-snapshot-function", "rule", "snapshot_contact_geometry refuses overflow and returns count-long arrays of d and points",
       "E3 §9", "lib/e3/contacts/contacts.h: snapshot_contact_geometry");
  rule("E3.9-mixed-sampling", "rule", "snapshot distances follow the State given; normals and the set follow the last collide",
       "E3 §9", "lib/e3/contacts/contacts.h: eval_rigid_contact_kinematics");
  rule("E3.10-pitfalls-table", "table", "ten readback pitfalls, each demonstrated by the rule it links", "E3 §10",
       "verify/e3/observe/readback_example_test.cpp (links the demonstrating rules)");
  r.add({"E3.8-mujoco-cpu-update", "rule", "SolverMuJoCo's CPU branch raises on update_contacts", "E3 §8", Status::prose_only,
         "about Newton's MuJoCo adapter (see E3.6-mujoco-branches); this engine has no MuJoCo backend", "", {}, {}, {}});
  r.add({"E3.11-acceptance-scope", "rule", "the chapter's review scope and what comes next", "E3 §11", Status::prose_only,
         "a statement about the course's own review process and later chapters; nothing in it runs", "", {}, {}, {}});
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
    r.add({e[0], "exercise", e[1], "E3 §10", Status::implemented, "", std::string("exercises/e3/") + e[0] + ".toml", {}, {}, {}});
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
