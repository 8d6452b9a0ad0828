// Registration of the E3 §4-§8 formulas that stand on their own: the XPBD per-contact pieces,
// the restitution target, and the force-observation transfers and averages.
#include <stdexcept>
#include <vector>

#include "course/registry.h"
#include "e1/spatial_shift.h"
#include "e3/force_observation.h"
#include "e3/xpbd_contact.h"

namespace impulse::course {

namespace {

Quantity s(const char* name, const char* unit, const char* doc) { return {name, unit, 1, doc}; }
Quantity v(const char* name, const char* unit, const char* doc) { return {name, unit, 3, doc}; }
Quantity list(const char* name, const char* unit, const char* doc) { return {name, unit, 0, doc}; }

void register_xpbd(Registry& r) {
  r.add({"E3.4-xpbd-w", "formula", "inverse effective mass w of a rigid normal contact", "E3 §4", Status::implemented, "",
         "lib/e3/xpbd_contact.h: xpbd_inverse_effective_mass",
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
         "lib/e3/xpbd_contact.h: xpbd_inverse_effective_mass", {}, {}, {}});
  r.add({"E3.4-xpbd-pn", "formula", "p_n = relaxation (-d) / (h w), and its average force p_n / h", "E3 §4",
         Status::implemented, "", "lib/e3/xpbd_contact.h: xpbd_normal_impulse, impulse_to_average_force",
         {s("d", "m", "signed gap (negative: penetration)"), s("h", "s", "step"), s("w", "1/kg", "inverse effective mass"),
          s("relaxation", "-", "rigid contact relaxation (0.8 by default)")},
         {{"p_n", "N s", 1, "normal impulse"}, {"F_avg", "N", 1, "equivalent average force p_n / h"}},
         [](const Values& x) {
           real h = scalar(x, "h");
           real p = xpbd_normal_impulse(scalar(x, "d"), h, scalar(x, "w"), scalar(x, "relaxation"));
           return Values{{"p_n", {p}}, {"F_avg", {impulse_to_average_force(p, h)}}};
         }});
  r.add({"E3.4-xpbd-pn-sides", "rule", "A receives -n p_n and B receives +n p_n", "E3 §4", Status::implemented, "",
         "lib/e3/xpbd_contact.h: xpbd_normal_impulse (sides by the normal's direction)", {}, {}, {}});
  r.add({"E3.4-impulse-to-force", "formula", "F_avg = p / h: an accumulated impulse is divided by h once", "E3 §4",
         Status::implemented, "", "lib/e3/xpbd_contact.h: impulse_to_average_force",
         {s("p", "N s", "accumulated impulse"), s("h", "s", "step")}, {{"F_avg", "N", 1, "average force"}},
         [](const Values& x) { return Values{{"F_avg", {impulse_to_average_force(scalar(x, "p"), scalar(x, "h"))}}}; }});
  r.add({"E3.4-joint-helper-denominator", "formula", "(h + alpha b) w + alpha / h, the joint correction's denominator",
         "E3 §4", Status::implemented, "", "lib/e3/xpbd_contact.h: xpbd_joint_denominator",
         {s("h", "s", "step"), s("w", "1/kg", "inverse effective mass"), s("alpha", "-", "compliance (units not given by the course)"),
          s("b", "-", "damping (units not given by the course)")},
         {{"den", "-", 1, "denominator"}},
         [](const Values& x) {
           return Values{{"den", {xpbd_joint_denominator(scalar(x, "h"), scalar(x, "w"), scalar(x, "alpha"), scalar(x, "b"))}}};
         }});
  r.add({"E3.4-friction-limit", "formula", "||dp_t|| <= mu p_n per contact and iteration", "E3 §4", Status::implemented, "",
         "lib/e3/xpbd_contact.h: clamp_friction_increment",
         {v("dp_t", "N s", "unlimited tangential impulse increment"), s("mu", "-", "friction coefficient"),
          s("p_n", "N s", "this iteration's normal impulse")},
         {{"dp_t_limited", "N s", 3, "increment after the limit"}},
         [](const Values& x) {
           return Values{{"dp_t_limited", as_values(clamp_friction_increment(vector3(x, "dp_t"), scalar(x, "mu"), scalar(x, "p_n")))}};
         }});
  r.add({"E3.4-torsion-rolling-limit", "formula", "torsional and rolling angular impulses limited by mu_torsional p_n and mu_rolling p_n",
         "E3 §4", Status::implemented, "", "lib/e3/xpbd_contact.h: clamp_angular_friction_increment",
         {v("dL", "N m s", "unlimited angular impulse increment"), v("n", "-", "unit contact normal"),
          s("mu_torsional", "m", "torsional friction"), s("mu_rolling", "m", "rolling friction"), s("p_n", "N s", "normal impulse")},
         {{"dL_limited", "N m s", 3, "increment after both limits"}},
         [](const Values& x) {
           return Values{{"dL_limited", as_values(clamp_angular_friction_increment(vector3(x, "dL"), vector3(x, "n"),
                                                                                  scalar(x, "mu_torsional"), scalar(x, "mu_rolling"),
                                                                                  scalar(x, "p_n")))}};
         }});
  r.add({"E3.4-readback-scale", "formula", "force readback scale 1/N (one side counted) or 2/(N_A + N_B) (both)", "E3 §4",
         Status::implemented, "", "lib/e3/xpbd_contact.h: contact_readback_scale",
         {s("body_A", "-", "body id of side A (-1: world)"), s("N_A", "-", "active contact count of A"),
          s("body_B", "-", "body id of side B (-1: world)"), s("N_B", "-", "active contact count of B")},
         {{"scale", "-", 1, "factor applied to the accumulated impulse"}},
         [](const Values& x) {
           return Values{{"scale", {contact_readback_scale(int(scalar(x, "body_A")), int(scalar(x, "N_A")),
                                                           int(scalar(x, "body_B")), int(scalar(x, "N_B")))}}};
         }});
  r.add({"E3.4-count-by-body-id", "rule", "the readback counts every side with a body id, kinematic ones included", "E3 §4",
         Status::implemented, "", "lib/e3/xpbd_contact.h: contact_readback_scale", {}, {}, {}});
}

void register_restitution(Registry& r) {
  r.add({"E3.5-gstar", "formula", "g* = largest gravity norm over the sides that have a body id", "E3 §5", Status::implemented, "",
         "lib/e3/xpbd_contact.h: restitution_gstar",
         {s("body_A", "-", "body id of A"), v("g_A", "m/s^2", "gravity of A's world"), s("body_B", "-", "body id of B"),
          v("g_B", "m/s^2", "gravity of B's world")},
         {{"gstar", "m/s^2", 1, "gravity scale of the threshold"}},
         [](const Values& x) {
           return Values{{"gstar", {restitution_gstar(int(scalar(x, "body_A")), vector3(x, "g_A"), int(scalar(x, "body_B")),
                                                      vector3(x, "g_B"))}}};
         }});
  r.add({"E3.5-target-velocity", "formula", "restitution target: -e v_old below -2 g* h, v_old above +2 g* h, else 0",
         "E3 §5", Status::implemented, "", "lib/e3/xpbd_contact.h: restitution_target_velocity",
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
         Status::implemented, "", "lib/e3/force_observation.h: wrench_reaction_torque",
         {v("tau_C0", "N m", "torque on body0 about C0"), v("C0", "m", "COM of body0"), v("C1", "m", "COM of body1"),
          v("f0", "N", "force on body0")},
         {{"f1", "N", 3, "force on body1"}, {"tau_C1", "N m", 3, "torque on body1 about C1"}},
         [](const Values& x) {
           return Values{{"f1", as_values(-vector3(x, "f0"))},
                         {"tau_C1", as_values(wrench_reaction_torque(vector3(x, "tau_C0"), vector3(x, "C0"), vector3(x, "C1"),
                                                                     vector3(x, "f0")))}};
         }});
  r.add({"E3.8-no-plain-negation", "rule", "negating all six numbers does not put a wrench at the other COM", "E3 §8",
         Status::implemented, "", "lib/e3/force_observation.h: wrench_reaction_torque", {}, {}, {}});
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
         Status::implemented, "", "lib/e3/force_observation.h: time_average_force",
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
         Status::implemented, "", "lib/e3/force_observation.h: time_average_torque",
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

void register_exercises(Registry& r) {
  const char* ids[][2] = {
      {"E3.10-ex2-xpbd-normal", "XPBD normal impulse and its average force for d = -0.002 m"},
      {"E3.10-ex3-readback-scale", "readback scale for contact counts 2 and 4"},
      {"E3.10-ex4-positive-gap-record", "a record inside the gap with d = +0.003 m gets no normal correction"},
      {"E3.10-ex5-wrench-reaction", "reaction torque at body1's COM"},
      {"E3.10-ex6-time-average", "average force over substeps of 0.001 s and 0.003 s"},
      {"E3.10-ex10-static-vs-kinematic-scale", "readback scale against a static and against a kinematic side"}};
  for (auto& e : ids)
    r.add({e[0], "exercise", e[1], "E3 §10", Status::implemented, "", std::string("exercises/e3/") + e[0] + ".toml", {}, {}, {}});
}

}  // namespace

void register_e3_solver(Registry& r) {
  register_xpbd(r);
  register_restitution(r);
  register_observation(r);
  register_exercises(r);
}

}  // namespace impulse::course
