// Registration of the E3 §6 items about the solvers other than XPBD (the penalty law and
// SolverSemiImplicit, SolverFeatherstone and its MuJoCo-style integrators, SolverVBD's k_eff and
// read-back, SolverPADMM, the §6 summary table) and E3.1-local-linearization. The other §1 IDs
// (discrete dynamics, Delassus, NCP, paradigms, ...) are registered with the collision chapter
// (branch e3); the tests here add evidence for them under their suites' own IDs.
#include <stdexcept>

#include "course/formula_call.h"
#include "course/registry.h"
#include "course/e3/solver_compare.h"
#include "e3/solvers/padmm/padmm.h"
#include "e3/solvers/generalized/solver_featherstone.h"
#include "e3/solvers/generalized/generalized_dynamics.h"
#include "e3/solvers/generalized/solver_generalized_integrator.h"
#include "e3/solvers/vbd/vbd_rigid.h"
#include "e3/solvers/shared/penalty_contact.h"

namespace impulse::course {

namespace {

void register_penalty(Registry& r) {
  r.add(formula("E3.6-penalty-law", "penalty normal scalar ke d + kd min(v_n, 0) and Huber-regularised friction",
         "E3 §6",
         "lib/e3/solvers/shared/penalty_contact.h: penalty_normal_scalar, penalty_friction, norm_huber",
         {scalar_q("d", "m", "gap along the internal normal (negative: penetrating)"),
          scalar_q("v_n", "m/s", "normal relative velocity n_i . (v_A - v_B)"), vector_q("v_t", "m/s", "tangential relative velocity"),
          scalar_q("ke", "N/m", "stiffness"), scalar_q("kd", "N s/m", "damping"), scalar_q("kf", "N s/m", "friction stiffness"),
          scalar_q("mu", "-", "friction coefficient"), scalar_q("delta", "m/s", "friction_smoothing (Huber parameter)")},
         {scalar_q("a_n", "N", "normal scalar"), vector_q("f_t", "N", "friction force along v_t"), scalar_q("s", "-", "Huber value of v_t")},
         [](const Values& x) {
           real d = scalar(x, "d");
           if (!(d < 0)) throw std::invalid_argument("input --d of E3.6-penalty-law must be < 0 (the penetration branch)");
           real a_n = penalty_normal_scalar(d, scalar(x, "v_n"), scalar(x, "ke"), scalar(x, "kd"));
           vec3 vt = vector3(x, "v_t");
           real delta = scalar(x, "delta");
           return Values{{"a_n", {a_n}},
                         {"f_t", as_values(penalty_friction(vt, a_n, scalar(x, "kf"), scalar(x, "mu"), delta))},
                         {"s", {norm_huber(vt, delta)}}};
         }));
  r.add(rule("E3.6-penalty-write-and-adhesion", "rule",
             "body A gets -(n_i a_n + f_t), B the opposite; d >= ka skipped; friction only while d < 0", "E3 §6",
             "lib/e3/solvers/shared/penalty_contact.h: eval_body_contact"));
  r.add(rule("E3.6-semiimplicit-single-pass", "rule", "SemiImplicit assembles forces once per step, then integrates",
             "E3 §6", "lib/e3/solvers/penalty/solver_semi_implicit.h: SolverSemiImplicit::step"));
  r.add(formula("E3.6-symplectic-stability", "semi-implicit Euler on a linear spring is stable iff h sqrt(k/m) < 2",
         "E3 §6", "lib/e3/solvers/shared/penalty_contact.h: semi_implicit_critical_step",
         {scalar_q("k", "N/m", "spring stiffness"), scalar_q("m", "kg", "mass")},
         {scalar_q("h_crit", "s", "critical step 2 sqrt(m/k)")},
         [](const Values& x) {
           real k = scalar(x, "k"), m = scalar(x, "m");
           if (!(k > 0) || !(m > 0)) throw std::invalid_argument("inputs --k and --m of E3.6-symplectic-stability must be > 0");
           return Values{{"h_crit", {semi_implicit_critical_step(k, m)}}};
         }));
  r.add(rule("E3.6-no-update-contacts", "rule",
             "SemiImplicit and Featherstone have no update_contacts producer: calling it is an error", "E3 §6",
             "lib/e3/contacts/contacts_view.h: UpdateContactsNotImplemented"));
}

void register_padmm(Registry& r) {
  r.add(rule("E3.6-kamino-overview", "rule",
             "Kamino-style maximal coordinates: forward dynamics, then velocity, then pose (Euler); joints as bilateral rows",
             "E3 §6", "lib/e3/solvers/padmm/solver_padmm.h: SolverPADMM::step, append_joint_rows"));
  // Read off a default-constructed PADMMSettings, the struct SolverPADMM is built with.
  r.add(item("E3.6-padmm-defaults", "rule", "PADMM defaults: tolerances 1e-6, 200 iterations, containers warm start 0.9",
         "E3 §6", "lib/e3/solvers/padmm/padmm.h: PADMMSettings", {},
         {scalar_q("primal_tolerance", "N s", "tolerance on the primal residual r_p"),
          scalar_q("dual_tolerance", "m/s", "tolerance on the dual residual r_d"),
          scalar_q("compl_tolerance", "J", "tolerance on the complementarity residual r_c"),
          scalar_q("max_iterations", "-", "iteration budget per solve"),
          scalar_q("warmstart_containers", "-", "1 when the warm start is the containers mode"),
          scalar_q("warmstart_scale", "-", "scale of the previous impulses in the warm start")},
         [](const Values&) {
           const PADMMSettings d{};
           return Values{{"primal_tolerance", {double(d.primal_tolerance)}},
                         {"dual_tolerance", {double(d.dual_tolerance)}},
                         {"compl_tolerance", {double(d.compl_tolerance)}},
                         {"max_iterations", {double(d.max_iterations)}},
                         {"warmstart_containers", {d.warmstart_mode == WarmstartMode::containers ? 1.0 : 0.0}},
                         {"warmstart_scale", {double(d.warmstart_scale)}}};
         }));
  r.add(rule("E3.6-padmm-convergence", "rule", "converged only when iterations > 1 and all three residuals meet tolerance",
             "E3 §6", "lib/e3/solvers/padmm/padmm.h: padmm_converged"));
  r.add(rule("E3.6-kamino-status", "rule", "per-world status (converged, iterations, r_p [N s], r_d [m/s], r_c [J])",
             "E3 §6", "lib/e3/solvers/padmm/solver_padmm.h: SolverPADMM::status"));
  r.add(rule("E3.10-ex7-padmm-vs-xpbd", "exercise", "reporting an exhausted PADMM budget", "E3 §10",
             "exercises/e3/E3.10-ex7-padmm-vs-xpbd.toml"));
}

void register_generalized(Registry& r) {
  r.add(rule("E3.6-featherstone", "formula",
             "Featherstone: FK, J^T projection, H = J^T I J + armature, Cholesky, qdd, joint-space integration",
             "E3 §6", "lib/e3/solvers/generalized/generalized_dynamics.h: GeneralizedDynamics::mass_matrix; lib/e3/solvers/generalized/solver_featherstone.h"));
  r.add(rule("E3.6-shared-penalty-kernel", "rule", "SemiImplicit and Featherstone call the same penalty contact kernel",
             "E3 §6", "lib/e3/solvers/shared/penalty_contact_kernels.h: apply_penalty_contacts"));
  // The integrator parse_integrator gives when no name is set (0 euler, 1 rk4, 2 implicit, 3 implicitfast).
  r.add(item("E3.6-mujoco-integrator-default", "rule", "integrators euler, rk4, implicit, implicitfast; default implicitfast",
         "E3 §6", "lib/e3/solvers/generalized/solver_generalized_integrator.h: parse_integrator", {},
         {scalar_q("default_integrator", "-", "0 euler, 1 rk4, 2 implicit, 3 implicitfast")},
         [](const Values&) { return Values{{"default_integrator", {double(int(parse_integrator("")))}}}; }));
  r.add(rule("E3.6-integrator-table", "table", "what each of the four integrators does, and its order on a smooth chain",
             "E3 §6", "lib/e3/solvers/generalized/solver_generalized_integrator.h: SolverGeneralizedIntegrator"));
  r.add(rule("E3.6-rk4-stages", "rule", "rk4: four forward evaluations per step with the classic weights", "E3 §6",
             "lib/e3/solvers/generalized/solver_generalized_integrator.h: SolverGeneralizedIntegrator::step"));
  r.add(rule("E3.6-euler-damping", "rule", "euler: velocity first, joint damping implicit", "E3 §6",
             "lib/e3/solvers/generalized/solver_generalized_integrator.h: SolverGeneralizedIntegrator::step"));
  r.add(rule("E3.6-implicit-vs-implicitfast", "rule",
             "implicit adds the RNE velocity derivative and solves by LU; implicitfast keeps the symmetric part", "E3 §6",
             "lib/e3/solvers/generalized/solver_generalized_integrator.h: SolverGeneralizedIntegrator::step"));
  r.add(formula("E3.6-velocity-implicit", "(M - h D) dv = h r, velocity-implicit update", "E3 §6", "lib/e3/solvers/generalized/velocity_implicit.h: velocity_implicit_solve",
         {scalar_q("M", "kg", "mass (1 DOF)"), scalar_q("D", "kg/s", "force derivative df/dv"), scalar_q("h", "s", "step"), scalar_q("r", "N", "total force")},
         {scalar_q("dv", "m/s", "velocity change")},
         [](const Values& x) {
           MatrixXr M(1, 1), D(1, 1);
           M << real(scalar(x, "M"));
           D << real(scalar(x, "D"));
           VectorXr r(1);
           r << real(scalar(x, "r"));
           return Values{{"dv", {velocity_implicit_step(M, D, r, scalar(x, "h"), false)[0]}}};
         }));
  r.add(item("E3.6-linear-damping", "example", "linear damping f = -B v puts M + h B in the matrix", "E3 §6", "lib/e3/solvers/generalized/velocity_implicit.h: velocity_implicit_solve (D = -B)",
         {scalar_q("M", "kg", "mass"), scalar_q("B", "kg/s", "damping coefficient"), scalar_q("h", "s", "step"), scalar_q("r", "N", "total force")},
         {scalar_q("dv", "m/s", "velocity change")},
         [](const Values& x) {
           MatrixXr M(1, 1), D(1, 1);
           M << real(scalar(x, "M"));
           D << real(-scalar(x, "B"));
           VectorXr r(1);
           r << real(scalar(x, "r"));
           return Values{{"dv", {velocity_implicit_step(M, D, r, scalar(x, "h"), true)[0]}}};
         }));
  r.add(rule("E3.6-advance-order", "rule", "velocity first, then positions; quaternions by rotation, not addition",
             "E3 §6", "lib/e3/solvers/generalized/generalized_dynamics.h: GeneralizedDynamics::integrate_coords"));
}

void register_vbd(Registry& r) {
  r.add(formula("E3.6-vbd-keff", "k_eff = k rho / (k + rho) of a compliant ALM row", "E3 §6",
         "lib/e3/solvers/vbd/vbd_rigid.h: compliant_alm_coefficients",
         {scalar_q("k", "N/m", "material stiffness"), scalar_q("rho", "N/m", "numerical metric")},
         {scalar_q("k_eff", "N/m", "effective stiffness"), scalar_q("s", "-", "retention k / (k + rho)")},
         [](const Values& x) {
           CompliantAlmCoefficients c = compliant_alm_coefficients(scalar(x, "k"), scalar(x, "rho"));
           return Values{{"k_eff", {c.k_eff}}, {"s", {c.s}}};
         }));
  r.add(rule("E3.6-vbd-structure", "rule",
             "VBD: fixed iterations of block descent, multiplier history, velocities from the pose history", "E3 §6",
             "lib/e3/solvers/vbd/vbd_rigid.h: SolverVBD::step"));
  r.add(rule("E3.6-vbd-readback", "rule",
             "collect_rigid_contact_forces returns the force on body1 and needs the pose history actually used",
             "E3 §6", "lib/e3/solvers/vbd/vbd_rigid.h: SolverVBD::collect_rigid_contact_forces"));
}

void register_table_and_scope(Registry& r) {
  r.add(rule("E3.6-summary-table", "table", "the §6 summary table: every built solver on the same scenes, with its readback",
             "E3 §6", "lib/course/e3/solver_compare.h: solver_summary_table, AnySolver"));
  r.add(rule("E3.1-local-linearization", "rule",
             "a fixed normal and Jacobian are a local assumption; orientations are never advanced by vector addition",
             "E3 §1", "lib/e1/integrator.h: quat_update; lib/e3/solvers/generalized/generalized_dynamics.h: integrate_coords"));
  r.add(in_newton("E3.6-mujoco-branches", "rule", "SolverMuJoCo has a CPU mj_step branch and a MuJoCo-Warp branch",
                  "E3 §6", "about Newton's MuJoCo adapter; this engine has no MuJoCo backend to branch into",
                  "verify/parity/newton_claims.py: claim_branches"));
  r.add(prose("E3.6-mujoco-dependency-pins", "rule", "mujoco / mujoco-warp 3.12.0 pins and the checked MuJoCo-Warp commit",
              "E3 §6", "dependency identity of Newton's Python package; nothing here depends on MuJoCo"));
  r.add(prose("E3.6-mujoco-warp-solvers", "rule", "MuJoCo-Warp's CG and Newton optimisers and their scaled stop tests",
              "E3 §6", "internals of the MuJoCo-Warp backend, which this engine does not contain"));
  r.add(in_newton("E3.6-mujoco-ke-mapping", "rule",
                  "ke/kd are mapped to MuJoCo solref through backend weights, not one-to-one", "E3 §6",
                  "a property of Newton's MuJoCo adapter; there is no solref conversion in this engine",
                  "verify/parity/newton_claims.py: claim_ke_mapping"));
  r.add(prose("E3.6-special-paths", "rule", "Style3D and ImplicitMPM are specialised paths, not rows of the rigid table",
              "E3 §6", "scope statement: those solvers are deferred to chapter E6 and are not part of this engine"));
}

}  // namespace

void register_e3_other_solvers(Registry& r) {
  register_table_and_scope(r);
  register_vbd(r);
  register_generalized(r);
  register_penalty(r);
  register_padmm(r);
}

}  // namespace impulse::course
