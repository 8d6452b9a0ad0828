// Registration of the E3 §1 and §6 items about the solvers other than XPBD: the penalty law and
// SolverSemiImplicit, SolverFeatherstone and its MuJoCo-style integrators, SolverVBD's k_eff and
// read-back, SolverPADMM, and the §6 summary table.
#include <stdexcept>

#include "course/registry.h"
#include "e3/penalty_contact.h"

namespace impulse::course {

namespace {

Quantity s(const char* name, const char* unit, const char* doc) { return {name, unit, 1, doc}; }
Quantity v(const char* name, const char* unit, const char* doc) { return {name, unit, 3, doc}; }

Item rule(const char* id, const char* kind, const char* title, const char* section, const char* where) {
  return {id, kind, title, section, Status::implemented, "", where, {}, {}, {}};
}

void register_penalty(Registry& r) {
  r.add({"E3.6-penalty-law", "formula", "penalty normal scalar ke d + kd min(v_n, 0) and Huber-regularised friction",
         "E3 §6", Status::implemented, "",
         "lib/e3/penalty_contact.h: penalty_normal_scalar, penalty_friction, norm_huber",
         {s("d", "m", "gap along the internal normal (negative: penetrating)"),
          s("v_n", "m/s", "normal relative velocity n_i . (v_A - v_B)"), v("v_t", "m/s", "tangential relative velocity"),
          s("ke", "N/m", "stiffness"), s("kd", "N s/m", "damping"), s("kf", "N s/m", "friction stiffness"),
          s("mu", "-", "friction coefficient"), s("delta", "m/s", "friction_smoothing (Huber parameter)")},
         {{"a_n", "N", 1, "normal scalar"}, {"f_t", "N", 3, "friction force along v_t"}, {"s", "-", 1, "Huber value of v_t"}},
         [](const Values& x) {
           real d = scalar(x, "d");
           if (!(d < 0)) throw std::invalid_argument("input --d of E3.6-penalty-law must be < 0 (the penetration branch)");
           real a_n = penalty_normal_scalar(d, scalar(x, "v_n"), scalar(x, "ke"), scalar(x, "kd"));
           vec3 vt = vector3(x, "v_t");
           real delta = scalar(x, "delta");
           return Values{{"a_n", {a_n}},
                         {"f_t", as_values(penalty_friction(vt, a_n, scalar(x, "kf"), scalar(x, "mu"), delta))},
                         {"s", {norm_huber(vt, delta)}}};
         }});
  r.add(rule("E3.6-penalty-write-and-adhesion", "rule",
             "body A gets -(n_i a_n + f_t), B the opposite; d >= ka skipped; friction only while d < 0", "E3 §6",
             "lib/e3/penalty_contact.h: eval_body_contact"));
  r.add(rule("E3.6-semiimplicit-single-pass", "rule", "SemiImplicit assembles forces once per step, then integrates",
             "E3 §6", "lib/e3/solver_semi_implicit.h: SolverSemiImplicit::step"));
  r.add({"E3.6-symplectic-stability", "formula", "semi-implicit Euler on a linear spring is stable iff h sqrt(k/m) < 2",
         "E3 §6", Status::implemented, "", "lib/e3/penalty_contact.h: semi_implicit_critical_step",
         {s("k", "N/m", "spring stiffness"), s("m", "kg", "mass")},
         {{"h_crit", "s", 1, "critical step 2 sqrt(m/k)"}},
         [](const Values& x) {
           real k = scalar(x, "k"), m = scalar(x, "m");
           if (!(k > 0) || !(m > 0)) throw std::invalid_argument("inputs --k and --m of E3.6-symplectic-stability must be > 0");
           return Values{{"h_crit", {semi_implicit_critical_step(k, m)}}};
         }});
  r.add(rule("E3.6-no-update-contacts", "rule",
             "SemiImplicit and Featherstone have no update_contacts producer: calling it is an error", "E3 §6",
             "lib/e3/penalty_contacts_view.h: UpdateContactsNotImplemented"));
}

}  // namespace

void register_e3_other_solvers(Registry& r) { register_penalty(r); }

}  // namespace impulse::course
