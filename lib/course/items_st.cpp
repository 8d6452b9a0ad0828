// Registration of the Stewart-Trinkle items (course seed 004: reading of Stewart & Trinkle 1996).
//
// Numeric items carry calculators that run the engine's functions (lib/st/): the vertical point
// and the block go through the general stepper st_step, not a separate formula.
#include <cmath>

#include "course/formula_call.h"
#include "course/registry.h"
#include "st/bounce.h"
#include "st/experiments.h"
#include "st/friction_cone.h"
#include "st/lcp.h"
#include "st/stepper.h"
#include "st/systems.h"

namespace impulse::course {

namespace {

using namespace impulse::st;

// The vertical point's inputs, shared by the §2 calculators.
std::vector<Quantity> point_inputs() {
  return {scalar_q("m", "kg", "mass"), scalar_q("q", "m", "height above the ground (>= 0)"),
          scalar_q("v", "m/s", "velocity before the step (up positive)"), scalar_q("h", "s", "step"),
          scalar_q("g", "m/s^2", "gravity")};
}

StepResult point_step(const Values& x) {
  const VerticalPoint sys(scalar(x, "m"), scalar(x, "g"));
  StepOptions opt;
  opt.h = scalar(x, "h");
  return st_step(sys, Eigen::VectorXd::Constant(1, scalar(x, "q")), Eigen::VectorXd::Constant(1, scalar(x, "v")), {},
                 opt);
}

// The rod of the paper with our inertia (RodSetup), at a chosen pose.
PlanarRod rod() { return RodSetup{}.system(); }

void register_lcp(Registry& r) {
  r.add(formula("ST.2-perp-definition", "a perp b: a >= 0, b >= 0 and a b = 0", "ST §2",
         "lib/st/lcp.h: complementary",
         {scalar_q("a", "-", "first quantity (e.g. p_n [N s])"), scalar_q("b", "-", "second quantity (e.g. phi [m])")},
         {scalar_q("complementary", "-", "1 when 0 <= a perp b >= 0 holds exactly, else 0")},
         [](const Values& v) { return Values{{"complementary", {complementary(scalar(v, "a"), scalar(v, "b")) ? 1.0 : 0.0}}}; }));
  r.add(rule("ST.0-prereq-complementarity", "rule", "two complementary nonnegative quantities are never both positive",
         "ST §0", "lib/st/lcp.h: complementary, solve_lcp"));
  r.add(rule("ST.3-lemke-lexicographic", "rule", "contact LCPs are solved by Lemke pivoting with lexicographic tie-breaking",
         "ST §3", "lib/st/lcp.h: solve_lcp"));
}

void register_formulas(Registry& r) {
  r.add(formula("ST.1-state-notation", "q, v and a configuration-dependent SPD mass matrix M(q)", "ST §1", "lib/st/contact_system.h: ContactSystem::mass",
         {scalar_q("theta", "rad", "rod angle")},
         {vector_q("M_diag", "kg", "diagonal of the rod's M(q): m, m, I [kg, kg, kg m^2]"),
          scalar_q("min_eigenvalue", "kg m^2", "smallest eigenvalue of M(q) (> 0: SPD)")},
         [](const Values& v) {
           Eigen::MatrixXd M = rod().mass(Eigen::Vector3d(0, 1, scalar(v, "theta")));
           return Values{{"M_diag", {M(0, 0), M(1, 1), M(2, 2)}},
                         {"min_eigenvalue", {Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues().minCoeff()}}};
         }));
  r.add(formula("ST.1-gap-sign", "phi > 0 separated, = 0 touching, < 0 penetrating (the rod's ends)", "ST §1", "lib/st/systems.h: PlanarRod::contact",
         {scalar_q("y", "m", "rod centre height"), scalar_q("theta", "rad", "rod angle")},
         {scalar_q("phi_left", "m", "gap of the end at s = -1"), scalar_q("phi_right", "m", "gap of the end at s = +1")},
         [](const Values& v) {
           const Eigen::Vector3d q(0, scalar(v, "y"), scalar(v, "theta"));
           return Values{{"phi_left", {rod().contact(0, q).phi}}, {"phi_right", {rod().contact(1, q).phi}}};
         }));
  r.add(formula("ST.2-momentum-update", "M (v+ - v) = h f + J_n^T p_n + J_t^T p_t", "ST §2",
         "lib/st/stepper.h: st_step", point_inputs(),
         {scalar_q("v_plus", "m/s", "velocity after the step"), scalar_q("p_n", "N s", "normal impulse"),
          scalar_q("momentum_residual", "N s", "|M(v+ - v) - h f - p_n|")},
         [](const Values& v) {
           StepResult s = point_step(v);
           return Values{{"v_plus", {s.v(0)}}, {"p_n", {s.p_n(0)}}, {"momentum_residual", {s.momentum_residual}}};
         }));
  r.add(formula("ST.2-position-update", "q+ = q + h v+ (the new velocity)", "ST §2",
         "lib/st/stepper.h: st_step", point_inputs(),
         {scalar_q("q_plus", "m", "position after the step"),
          scalar_q("position_residual", "m", "q+ - q - h v+")},
         [](const Values& v) {
           StepResult s = point_step(v);
           return Values{{"q_plus", {s.q(0)}},
                         {"position_residual", {s.q(0) - scalar(v, "q") - scalar(v, "h") * s.v(0)}}};
         }));
  r.add(formula("ST.2-symbol-definitions", "v_n = J_n v and v_t = J_t v at a contact (the rod's right end)",
         "ST §2", "lib/st/systems.h: PlanarRod::contact",
         {scalar_q("theta", "rad", "rod angle"), scalar_q("vx", "m/s", "centre velocity x"),
          scalar_q("vy", "m/s", "centre velocity y"), scalar_q("omega", "rad/s", "angular velocity")},
         {scalar_q("v_n", "m/s", "normal velocity of the end's lowest point"),
          scalar_q("v_t", "m/s", "tangential velocity of the end's lowest point")},
         [](const Values& v) {
           const ContactGeometry c = rod().contact(1, Eigen::Vector3d(0, 1, scalar(v, "theta")));
           const Eigen::Vector3d vel(scalar(v, "vx"), scalar(v, "vy"), scalar(v, "omega"));
           return Values{{"v_n", {c.n.dot(vel)}}, {"v_t", {c.t.col(0).dot(vel)}}};
         }));
  r.add(formula("ST.2-normal-complementarity", "0 <= p_n perp phi(q+) >= 0", "ST §2",
         "lib/st/stepper.h: st_step", point_inputs(),
         {scalar_q("p_n", "N s", "normal impulse"), scalar_q("phi_next", "m", "gap after the step"),
          scalar_q("product", "N s m", "p_n phi(q+)")},
         [](const Values& v) {
           StepResult s = point_step(v);
           return Values{{"p_n", {s.p_n(0)}}, {"phi_next", {s.phi(0)}}, {"product", {s.p_n(0) * s.phi(0)}}};
         }));
  r.add(formula("ST.2-linearized-gap", "phi(q+) ~ phi(q) + h J_n v+ (the rod's right end)", "ST §2", "lib/st/systems.h: PlanarRod::contact",
         {scalar_q("y", "m", "centre height"), scalar_q("theta", "rad", "angle"), scalar_q("vy", "m/s", "vertical velocity v+"),
          scalar_q("omega", "rad/s", "angular velocity v+"), scalar_q("h", "s", "step")},
         {scalar_q("phi_linear", "m", "phi(q) + h n^T v+"), scalar_q("phi_true", "m", "phi(q + h v+)")},
         [](const Values& v) {
           const Eigen::Vector3d q(0, scalar(v, "y"), scalar(v, "theta")), vel(0, scalar(v, "vy"), scalar(v, "omega"));
           const double h = scalar(v, "h");
           const ContactGeometry c = rod().contact(1, q);
           return Values{{"phi_linear", {c.phi + h * c.n.dot(vel)}}, {"phi_true", {rod().contact(1, q + h * vel).phi}}};
         }));
  r.add(formula("ST.2-linearized-normal-complementarity", "0 <= p_n perp phi(q) + h J_n v+ >= 0", "ST §2", "lib/st/stepper.h: assemble_contact_lcp", point_inputs(),
         {scalar_q("p_n", "N s", "normal impulse"), scalar_q("gap_linear", "m", "phi(q) + h v+"),
          scalar_q("product", "N s m", "p_n (phi(q) + h v+)")},
         [](const Values& v) {
           StepResult s = point_step(v);
           const double w = scalar(v, "q") + scalar(v, "h") * s.v(0);
           return Values{{"p_n", {s.p_n(0)}}, {"gap_linear", {w}}, {"product", {s.p_n(0) * w}}};
         }));
  r.add(formula("ST.2-polyhedral-friction", "p_t = D beta, beta >= 0, sum beta <= mu p_n (largest p_t per direction)",
         "ST §2", "lib/st/friction_cone.h: polygon_support",
         {scalar_q("k", "-", "number of directions (>= 3)"), scalar_q("mu_pn", "N s", "mu p_n"),
          scalar_q("theta", "rad", "direction in the tangent plane")},
         {scalar_q("max_friction", "N s", "largest |D beta| along theta")},
         [](const Values& v) {
           return Values{{"max_friction", {polygon_support(int(std::lround(scalar(v, "k"))), scalar(v, "mu_pn"), scalar(v, "theta"))}}};
         }));
  r.add(formula("ST.2-point-mass-model", "v+ = v - h g + p/m, q+ = q + h v+, 0 <= q+ perp p >= 0", "ST §2", "lib/st/systems.h: VerticalPoint; lib/st/stepper.h: st_step", point_inputs(),
         {scalar_q("v_plus", "m/s", "velocity after the step"), scalar_q("q_plus", "m", "height after the step"),
          scalar_q("p", "N s", "normal impulse")},
         [](const Values& v) {
           StepResult s = point_step(v);
           return Values{{"v_plus", {s.v(0)}}, {"q_plus", {s.q(0)}}, {"p", {s.p_n(0)}}};
         }));
  r.add(item("ST.2-bounce-example", "example", "m=1, q=0.01, v=-1, h=0.02, g=10: prediction -0.014 m, v+ = -0.5 m/s, p = 0.7 N s",
         "ST §2", "lib/st/stepper.h: st_step; lib/st/bounce.h: bounce_step", point_inputs(),
         {scalar_q("free_prediction", "m", "q + h (v - h g)"), scalar_q("v_plus", "m/s", "velocity after the step"),
          scalar_q("p", "N s", "normal impulse"), scalar_q("q_plus", "m", "height after the step")},
         [](const Values& v) {
           StepResult s = point_step(v);
           const BounceStep b = bounce_step(scalar(v, "m"), scalar(v, "q"), scalar(v, "v"), scalar(v, "h"), scalar(v, "g"));
           return Values{{"free_prediction", {b.free_prediction}}, {"v_plus", {s.v(0)}}, {"p", {s.p_n(0)}}, {"q_plus", {s.q(0)}}};
         }));
  r.add(formula("ST.2-nonlinear-complementarity", "0 <= p_n perp phi(q+) >= 0 with the true gap, by a sequence of LCPs",
         "ST §2", "lib/st/stepper.cpp: st_step (re-linearisation loop)",
         {scalar_q("theta", "rad", "rod angle in [-pi/2, 0]: the right end is the lower one and touches the table"),
          scalar_q("omega", "rad/s", "spin (negative drives the touching end down)"), scalar_q("h", "s", "step")},
         {scalar_q("phi_linearised_only", "m", "true gap after a linearised-only step"),
          scalar_q("phi_nonlinear", "m", "true gap after the §3.6 iteration"),
          scalar_q("iterations", "-", "re-linearisations used")},
         [](const Values& v) {
           const PlanarRod sys = rod();
           const double th = scalar(v, "theta");
           // Only the lower end may touch: with theta > 0 the touching right end would be the upper
           // one and the left end 0.5 sin(theta) m inside the table.
           if (!(th >= -M_PI / 2 && th <= 0))
             throw std::invalid_argument("input --theta of ST.2-nonlinear-complementarity must lie in [-pi/2, 0] rad "
                                         "(the touching right end is the lower one), got " + std::to_string(th));
           if (!(scalar(v, "h") > 0))
             throw std::invalid_argument("input --h of ST.2-nonlinear-complementarity must be > 0 s");
           const Eigen::Vector3d q(0, 0.05 - 0.25 * std::sin(th), th), vel(0, 0, scalar(v, "omega"));
           StepOptions opt;  // the default iteration limit (10), as the chapter states
           opt.h = scalar(v, "h");
           const int limit = opt.max_nonlinear_iterations;
           opt.max_nonlinear_iterations = 0;
           const StepResult lin = st_step(sys, q, vel, {}, opt);
           opt.max_nonlinear_iterations = limit;
           const StepResult non = st_step(sys, q, vel, {}, opt);
           return Values{{"phi_linearised_only", {lin.phi.minCoeff()}},
                         {"phi_nonlinear", {non.phi.minCoeff()}},
                         {"iterations", {double(non.nonlinear_iterations)}}};
         }));
  r.add(rule("ST.3-initial-active-set", "rule", "first contact set = previous active contacts U predicted violations",
         "ST §3", "lib/st/stepper.h: initial_contact_set"));
  r.add(item("ST.3-block-impulse-example", "example", "1 kg at 1 m/s stopped in one step: 1 N s; 100 N at h = 0.01, 1000 N at 0.001",
         "ST §3", "lib/st/stepper.h: st_step; lib/st/bounce.h: average_force",
         {scalar_q("m", "kg", "mass"), scalar_q("v", "m/s", "downward speed at contact"), scalar_q("h", "s", "step")},
         {scalar_q("p", "N s", "upward impulse"), scalar_q("F_avg", "N", "p / h"),
          scalar_q("v_plus", "m/s", "velocity after the step")},
         [](const Values& v) {
           const VerticalPoint sys(scalar(v, "m"), 0.0);
           StepOptions opt;
           opt.h = scalar(v, "h");
           const StepResult s = st_step(sys, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, -scalar(v, "v")), {}, opt);
           return Values{{"p", {s.p_n(0)}}, {"F_avg", {average_force(s.p_n(0), opt.h)}}, {"v_plus", {s.v(0)}}};
         }));
  r.add(formula("ST.4-error-metrics", "velocity error = time integral of max-norm difference; position error = max norm",
         "ST §4", "lib/st/experiments.h: trajectory_errors",
         {scalar_q("h", "s", "step of the four-ball run (a multiple of 0.00125)")},
         {scalar_q("velocity_error", "m", "integral of ||v_h - v_ref||_inf dt"),
          scalar_q("position_error", "m", "max ||x_h - x_ref||_inf over the coarse grid")},
         [](const Values& v) {
           const auto rows = convergence_table(BallsSetup{}, {scalar(v, "h")}, 0.00125, 8);
           return Values{{"velocity_error", {rows[0].error.velocity}}, {"position_error", {rows[0].error.position}}};
         }));
  r.add(item("ST.4-more-directions-less-error", "rule", "more friction directions: smaller polygon error, larger LCP",
         "ST §4", "lib/st/friction_cone.h: polygon_cone_error",
         {scalar_q("k", "-", "number of directions (>= 3)")},
         {scalar_q("polygon_error", "-", "1 - cos(pi / k)")},
         [](const Values& v) { return Values{{"polygon_error", {polygon_cone_error(int(std::lround(scalar(v, "k"))))}}}; }));
}

void register_rules(Registry& r) {
  r.add(rule("ST.0-collisions-break-smooth-dynamics", "rule", "an impact is a finite velocity jump within one step, no smooth force needed", "ST §0", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.0-contact-over-interval", "rule", "contact acts over the step as an impulse [N s], not as a force at an instant", "ST §0", "lib/st/stepper.h: StepResult::p_n"));
  r.add(rule("ST.0-prereq-impulse", "rule", "an impulse is the time integral of a force; it equals the momentum change", "ST §0", "lib/st/bounce.h: impulse_of_constant_force"));
  r.add(rule("ST.0-prereq-unilateral", "rule", "contacts only push: p_n >= 0 in every solved step", "ST §0", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.0-prereq-friction-cone", "rule", "friction stays in the (polyhedral) cone: sum beta <= mu p_n", "ST §0", "lib/st/stepper.h: StepResult::cone_residual"));
  r.add(rule("ST.1-rod-velocity-jump", "rule", "the falling rod's velocity jumps at first contact by O(1) for every h", "ST §1", "lib/st/experiments.h: RodSetup, simulate"));
  r.add(rule("ST.1-unilateral-push-only", "rule", "a separating body receives no normal impulse", "ST §1", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.1-impulse-finite-as-force-unbounded", "rule", "the impact impulse stays m|dv| while p/h grows like 1/h", "ST §1", "lib/st/stepper.h: st_step; lib/st/bounce.h: average_force"));
  r.add(rule("ST.1-coulomb-stick-mode", "rule", "on a shallow incline friction holds the block strictly inside the cone", "ST §1", "lib/st/systems.h: PointOnPlane; lib/st/stepper.h: st_step"));
  r.add(rule("ST.1-coulomb-slide-mode", "rule", "a sliding block gets friction on the cone boundary, opposing the motion", "ST §1", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.1-mode-not-preassigned", "rule", "stick or slide comes out of the LCP; the step takes no mode input", "ST §1", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.2-gap-implies-zero-impulse", "rule", "a positive next gap forces p_n = 0", "ST §2", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.2-impulse-implies-contact", "rule", "a positive impulse puts the next position on the contact boundary", "ST §2", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.2-zero-pressure-contact-allowed", "rule", "a touching contact may carry zero impulse", "ST §2", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.2-friction-opposes-sliding", "rule", "the friction impulse opposes the sliding velocity", "ST §2", "lib/st/stepper.h: assemble_contact_lcp"));
  r.add(rule("ST.2-paper-p8-dissipation", "paper-fact", "for a given p_n the friction impulse maximises dissipation over the polygon", "ST §2", "lib/st/stepper.h: assemble_contact_lcp"));
  r.add(rule("ST.2-paper-p8-lcp", "paper-fact", "eliminating v+ turns the linearised step into one LCP", "ST §2", "lib/st/stepper.h: assemble_contact_lcp"));
  r.add(rule("ST.2-point-mass-branches", "rule", "free prediction >= 0: p = 0; else q+ = 0 and p solves for it", "ST §2", "lib/st/bounce.h: bounce_step"));
  r.add(rule("ST.2-one-condition-two-branches", "rule", "one complementarity condition covers the free and the contact branch", "ST §2", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.2-endpoint-not-restitution", "rule", "the bounce ends on the ground still moving down: not a restitution law", "ST §2", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.2-velocity-level-insufficient", "rule", "a velocity-only condition leaves an existing penetration in place", "ST §2", "lib/st/stepper.h: NormalLevel"));
  r.add(rule("ST.2-position-level-consistency", "rule", "with the position-level condition no contact ends a step penetrating", "ST §2", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.2-curvature-tangent-plane", "rule", "a gap linearised on the tangent plane can be met while the curved gap is violated", "ST §2", "lib/st/stepper.h: StepOptions::max_nonlinear_iterations"));
  r.add(rule("ST.2-solution-not-proof", "rule", "every step reports its cost (pivots) and residuals instead of assuming them small", "ST §2", "lib/st/stepper.h: StepResult"));
  r.add(rule("ST.3-alg-overview", "algorithm", "the ten-line teaching flow of one step", "ST §3", "lib/st/stepper.cpp: st_step"));
  r.add(rule("ST.3-alg-00-inputs", "algorithm", "a step needs q, v, the model, mu and h; bad ones are rejected", "ST §3", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.3-alg-01-candidate-contacts", "algorithm", "contacts predicted to close within the step join the set", "ST §3", "lib/st/stepper.h: initial_contact_set"));
  r.add(rule("ST.3-alg-02-build-geometry", "algorithm", "gaps, normals, tangents and M(q) of the contacts in the set", "ST §3", "lib/st/systems.h"));
  r.add(rule("ST.3-alg-03-discretize-cone", "algorithm", "the friction cone becomes k directions in the tangent plane", "ST §3", "lib/st/friction_cone.h: friction_directions"));
  r.add(rule("ST.3-alg-04-assemble", "algorithm", "momentum, position and complementarity assembled into one LCP", "ST §3", "lib/st/stepper.h: assemble_contact_lcp"));
  r.add(rule("ST.3-alg-05-solve", "algorithm", "Lemke gives the impulses; v+ follows from the momentum balance", "ST §3", "lib/st/stepper.cpp: st_step"));
  r.add(rule("ST.3-alg-06-check-other-constraints", "algorithm", "the new position is checked against every contact", "ST §3", "lib/st/stepper.cpp: st_step"));
  r.add(rule("ST.3-alg-07-add-and-resolve", "algorithm", "a missed contact is added and the step solved again", "ST §3", "lib/st/stepper.cpp: st_step"));
  r.add(rule("ST.3-alg-08-relinearize", "algorithm", "re-linearise the gaps at the new position and solve again (§3.6)", "ST §3", "lib/st/stepper.cpp: st_step"));
  r.add(rule("ST.3-alg-09-return", "algorithm", "the step returns q+, v+, impulses and residuals", "ST §3", "lib/st/stepper.h: StepResult"));
  r.add(rule("ST.3-detection-still-needed", "rule", "every step still evaluates every contact's gap (no event location, but detection)", "ST §3", "lib/st/stepper.cpp: st_step"));
  r.add(rule("ST.3-peak-growth-not-divergence", "rule", "under refinement the impulse and the state converge while p/h grows", "ST §3", "lib/st/stepper.h: st_step"));
  r.add(rule("ST.4-first-impact-spikes", "rule", "near the first impact the runs differ most; that window is measured on its own", "ST §4", "lib/st/experiments.h: simulate"));
  r.add(rule("ST.4-ev3-fig2-rod-sequence", "paper-fact", "the rod falls, hits with one end, turns, hits with the other, lies flat", "ST §4", "lib/st/experiments.h: RodSetup"));
  r.add(rule("ST.4-ev4-fig3-4-convergence", "paper-fact", "the rod's vertical and angular velocity curves approach each other as h shrinks", "ST §4", "lib/st/experiments.h: RodSetup, simulate"));
  r.add(rule("ST.4-p14-angular-velocity-spike", "paper-fact", "the angular-velocity spike at first contact, recorded per h", "ST §4", "lib/st/experiments.h: RodSetup, simulate"));
  r.add(rule("ST.4-coarse-spikes-not-ignorable", "rule", "the error metrics include the impact windows", "ST §4", "lib/st/experiments.h: trajectory_errors"));
  r.add(rule("ST.4-table1-reference-solution", "paper-fact", "the Table 1 reference is the run at h = 0.00125 s, not an exact solution", "ST §4", "lib/st/experiments.h: convergence_table"));
  r.add(rule("ST.4-ev5-table1-values", "paper-fact", "Table 1: errors fall from h = 0.02 to 0.0025 (paper 0.5050->0.0700, 0.2505->0.0298)", "ST §4", "lib/st/experiments.h: convergence_table"));
  r.add(rule("ST.2-linearization-dissipation-loss", "rule", "linearised gaps on a curved contact can add energy; which §3.6 normals cure it depends on the gap's convexity", "ST §2", "lib/st/experiments.h: dissipation_audit"));
  r.add(rule("ST.4-implicit-not-unconditionally-physical", "rule", "being implicit is not enough: the linearised-only step leaves the rod penetrating", "ST §4", "lib/st/stepper.h: StepOptions::max_nonlinear_iterations"));
  r.add(rule("ST.4-lcp-70x70", "paper-fact", "four balls with 7 contacts and 8 directions give a 70 x 70 LCP", "ST §4", "lib/st/experiments.h: four_ball_seven_contact_lcp"));
  r.add(rule("ST.4-size-scales-with-contacts", "rule", "LCP size = contacts x (directions + 2), not a function of body count", "ST §4", "lib/st/stepper.h: assemble_contact_lcp"));
  r.add(rule("ST.5-cost1-lcp-complexity", "rule", "degeneracy and tolerances matter: results are stable under the pivot tolerances", "ST §5", "lib/st/lcp.h: LcpOptions"));
  r.add(rule("ST.5-cost2-separate-error-sources", "rule", "cone, step size and linearisation studied one at a time", "ST §5", "lib/st/experiments.h"));
  r.add(rule("ST.6-same-step-verification", "rule", "each step checks v+, q+ and the gaps together", "ST §6", "lib/st/stepper.h: StepResult"));
}

void register_prose(Registry& r) {
  r.add(prose("ST.0-reading-title", "paper-fact", "reading no. 036: compute impulses, do not chase unbounded forces", "ST §0", "bibliographic: the reading's number and title; nothing to compute"));
  r.add(prose("ST.0-citation", "paper-fact", "Stewart and Trinkle, IJNME 39(15):2673-2691, 1996", "ST §0", "bibliographic reference, cited in chapters/st; nothing to compute"));
  r.add(prose("ST.0-posa-lineage", "rule", "Posa's contact-implicit trajectory optimisation inherits the idea", "ST §0", "lineage remark about a later paper; no trajectory optimiser here"));
  r.add(prose("ST.0-prereq-convergence-meaning", "rule", "convergence speaks of the model under refinement, not of reality", "ST §0", "a statement about interpretation; the convergence tests compare only with finer runs"));
  r.add(prose("ST.1-stiff-spring-drawback", "rule", "a smooth-force model of impact needs stiff springs and tiny steps", "ST §1", "design rationale for the impulse formulation; no penalty model is built"));
  r.add(prose("ST.1-event-location-drawback", "rule", "locating every collision time is complicated with many contacts", "ST §1", "design rationale; the stepper has no event location to test"));
  r.add(prose("ST.1-paper-sec2-sec3-order", "paper-fact", "the paper models admissible configurations (§2) before discretising (§3)", "ST §1", "citation locator of the paper's structure"));
  r.add(prose("ST.1-ideal-model-scope", "rule", "the model is ideal rigid inelastic contact, not real material behaviour", "ST §1", "scope statement; stated in the chapter, no test asserts restitution"));
  r.add(prose("ST.1-params-need-identification", "rule", "contact parameters of real tasks need their own identification", "ST §1", "about real robots; the suite's mu values are declared inputs"));
  r.add(prose("ST.2-notation-not-verbatim", "rule", "the reading's subscripts on M and f are didactic, not the paper's", "ST §2", "notation remark; our choice (M, k at q_k) is stated in lib/st/stepper.h"));
  r.add(prose("ST.2-paper-eq14-15", "paper-fact", "paper p.7 eqs (14)-(15) hold the position, momentum and friction conditions", "ST §2", "citation locator; the equations themselves are ST.2-momentum-update etc."));
  r.add(prose("ST.2-dissipation-local-not-global", "rule", "maximal dissipation holds per contact for given p_n, not globally", "ST §2", "a caution against over-reading; no global-minimisation claim is made"));
  r.add(prose("ST.2-mujoco-parallel-model", "rule", "MuJoCo is a parallel contact model, not a descendant", "ST §2", "lineage remark; no MuJoCo comparison here"));
  r.add(prose("ST.2-trajopt-module-composition", "rule", "trajectory optimisation reuses the complementarity relations", "ST §2", "lineage remark; no trajectory optimiser here"));
  r.add(prose("ST.2-no-blowup-not-accuracy", "rule", "a run that does not blow up says nothing about peak-force accuracy", "ST §2", "interpretation rule; the chapter says so and no test claims peak-force accuracy"));
  r.add(prose("ST.2-manuscript-pp7-8", "paper-fact", "the bounce discussion cites author manuscript pp. 7-8", "ST §2", "citation locator"));
  r.add(prose("ST.2-paper-sec3-6", "paper-fact", "paper p.13 §3.6 discusses the curvature risk", "ST §2", "citation locator; the content is ST.2-nonlinear-complementarity"));
  r.add(prose("ST.2-three-levels", "rule", "mathematical solution, mechanism and experiment are different levels", "ST §2", "reading structure; the tests are grouped this way in verify/st"));
  r.add(prose("ST.2-impulse-not-peak-force", "rule", "an impulse [N s] is not a peak force [N]", "ST §2", "unit discipline; force is only ever p/h (ST.3-average-force)"));
  r.add(prose("ST.3-paper-sec4-lemke", "paper-fact", "paper §4 uses Lemke with an explicit tableau and lexicographic pivoting", "ST §3", "citation locator; implemented as ST.3-lemke-lexicographic"));
  r.add(prose("ST.4-figures-from-manuscript", "paper-fact", "the rod and ball figures come from the 21-page manuscript", "ST §4", "citation locator"));
  r.add(prose("ST.4-fine-reference-not-measurement", "rule", "a fine-step reference is not a measurement of reality", "ST §4", "interpretation rule; tables are labelled self-convergence"));
  r.add(prose("ST.4-ev1-fig1-eq14-15", "paper-fact", "p.7 Fig. 1: the circular cone and its polygon", "ST §4", "citation locator; the polygon error is ST.4-more-directions-less-error"));
  r.add(prose("ST.4-ev2-sec3-6", "paper-fact", "p.13 §3.6 as evidence that linearised geometry can add energy", "ST §4", "citation locator; see ST.2-nonlinear-complementarity"));
  r.add(prose("ST.4-fig2-not-general-proof", "rule", "one rod sequence does not prove all parameters are safe", "ST §4", "interpretation rule"));
  r.add(prose("ST.4-jump-slope-not-contact-force", "rule", "the slope of a finite-step jump is not a contact force", "ST §4", "interpretation rule; no test derives a force from dv/dt"));
  r.add(prose("ST.4-fig4-inset-locator", "paper-fact", "page locator 'Fig. 4 inset'", "ST §4", "ambiguous page locator with no data"));
  r.add(prose("ST.4-table1-trend-only", "rule", "Table 1 shows a trend for one example, not a universal order", "ST §4", "interpretation rule; the chapter reports our table as one example"));
  r.add(prose("ST.5-cost3-model-mismatch", "rule", "a converged model solution may still disagree with the real device", "ST §5", "about real hardware; nothing here to measure"));
  r.add(prose("ST.5-author-acknowledged-limitations", "paper-fact", "the authors admit dissipation loss and spikes near contact", "ST §5", "citation; see ST.4-p14-angular-velocity-spike"));
  r.add(prose("ST.5-policy-exploits-simulator", "rule", "learned policies may exploit step size and cone resolution", "ST §5", "the reading's own remark about learning; no learning here"));
  r.add(prose("ST.5-stable-not-validated", "rule", "running stably is not validation", "ST §5", "interpretation rule; the suite checks residuals, not only stability"));
  r.add(prose("ST.6-hybrid-vs-timestepping-distinct", "rule", "hybrid event solving and time stepping are different algorithms", "ST §6", "interpretation remark about Tedrake's framing"));
  r.add(prose("ST.7-contact-implicit-trajopt", "rule", "contact-implicit trajectory optimisation makes contact impulses decision variables", "ST §7", "lineage remark; no trajectory optimiser here"));
  r.add(prose("ST.7-mujoco-inner-loop", "rule", "MuJoCo puts simulation in the control loop with another contact design", "ST §7", "lineage remark; no MuJoCo comparison here"));
}

void register_exercises(Registry& r) {
  r.add(rule("ST.6-exercise-velocity-only-step", "exercise", "what a velocity-only contact step misses", "ST §6", "exercises/st/ST.6-exercise-velocity-only-step.toml"));
  r.add(rule("ST.8-q1-why-product-zero", "exercise", "why p_n >= 0 and phi >= 0 need p_n phi = 0", "ST §8", "exercises/st/ST.8-q1-why-product-zero.toml"));
  r.add(rule("ST.8-q2-peak-force-growth", "exercise", "why a growing force peak under refinement is not divergence",
         "ST §8", "exercises/st/ST.8-q2-peak-force-growth.toml"));
  r.add(rule("ST.8-q3-table-vs-real-grasp", "exercise", "does a convergence table validate real grasping?", "ST §8", "exercises/st/ST.8-q3-table-vs-real-grasp.toml"));
}

}  // namespace

void register_st(Registry& r) {
  register_lcp(r);
  register_formulas(r);
  register_rules(r);
  register_prose(r);
  register_exercises(r);
}

}  // namespace impulse::course
