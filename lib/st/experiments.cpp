#include "st/experiments.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "st/friction_cone.h"

namespace impulse::st {

TrajectoryStepper::TrajectoryStepper(const ContactSystem& sys, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                                     double T, const StepOptions& opt)
    : sys_(sys), opt_(opt) {
  if (!(T >= 0)) throw std::invalid_argument("simulate: duration must be >= 0");
  if (!(opt.h > 0)) throw std::invalid_argument("simulate: step h must be positive");
  steps_ = std::lround(T / opt.h);
  tr_.h = opt.h;
  tr_.t.push_back(0);
  tr_.q.push_back(q0);
  tr_.v.push_back(v0);
}

void TrajectoryStepper::step() {
  if (done()) throw std::logic_error("TrajectoryStepper::step: the run is over");
  const StepResult r = st_step(sys_, tr_.q.back(), tr_.v.back(), active_, opt_);
  active_ = active_contacts(r);
  StepSummary sum;
  sum.t = double(tr_.steps.size() + 1) * opt_.h;
  sum.contacts = int(r.contact_set.size());
  sum.lcp_size = r.lcp_max_size;
  sum.pivots = r.pivots;
  sum.nonlinear_iterations = r.nonlinear_iterations;
  sum.passes = r.passes;
  sum.lcp_complementarity = r.lcp_complementarity;
  sum.momentum_residual = r.momentum_residual;
  sum.gap_violation = r.gap_violation;
  sum.cone_residual = r.cone_residual;
  sum.impulse = r.p_n.sum();
  sum.status = r.status;
  tr_.worst_complementarity = std::max(tr_.worst_complementarity, r.lcp_complementarity);
  tr_.all_solved = tr_.all_solved && r.status == LcpStatus::solved;
  tr_.steps.push_back(sum);
  tr_.t.push_back(sum.t);
  tr_.q.push_back(r.q);
  tr_.v.push_back(r.v);
}

Trajectory simulate(const ContactSystem& sys, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0, double T,
                    const StepOptions& opt) {
  TrajectoryStepper s(sys, q0, v0, T, opt);
  while (!s.done()) s.step();
  return s.trajectory();
}

PlanarRod RodSetup::system() const { return PlanarRod(m, inertia, length, radius, mu, g); }
Eigen::VectorXd RodSetup::q0() const { return Eigen::Vector3d(0, height, angle); }
Eigen::VectorXd RodSetup::v0() const { return Eigen::Vector3d(0, 0, spin); }

Balls BallsSetup::system() const { return Balls(4, m, radius, mu_floor, mu_ball, g); }
Eigen::VectorXd BallsSetup::q0() const {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(24);
  const double r = radius;
  for (int b = 0; b < 3; ++b) q.segment<3>(6 * b) = Eigen::Vector3d(2 * r * b, 0, r);
  // D rests on A and B at x = r, height r + sqrt((2r)^2 - r^2); start `drop` above that.
  q.segment<3>(18) = Eigen::Vector3d(r, 0, r + std::sqrt(3.0) * r + drop);
  return q;
}
Eigen::VectorXd BallsSetup::v0() const {
  Eigen::VectorXd v = Eigen::VectorXd::Zero(24);
  v.segment<3>(18) = d_velocity;
  v.segment<3>(21) = d_spin;
  return v;
}

ErrorPair trajectory_errors(const Trajectory& run, const Trajectory& ref, const std::vector<int>& position_coords) {
  const double ratio = run.h / ref.h;
  const long r = std::lround(ratio);
  if (r < 1 || std::abs(ratio - double(r)) > 1e-9)
    throw std::invalid_argument("trajectory errors: h = " + std::to_string(run.h) +
                                " is not an integer multiple of the reference step " + std::to_string(ref.h));
  const long steps = std::min<long>(long(run.steps.size()), long(ref.steps.size()) / r);
  ErrorPair e;
  for (long k = 0; k < steps; ++k) {
    // v_h is v_{k+1} on (t_k, t_{k+1}]; the reference has r steps there.
    for (long j = 0; j < r; ++j)
      e.velocity += (run.v[k + 1] - ref.v[k * r + j + 1]).cwiseAbs().maxCoeff() * ref.h;
    for (int c : position_coords)
      e.position = std::max(e.position, std::abs(run.q[k + 1](c) - ref.q[(k + 1) * r](c)));
  }
  return e;
}

BeadInBowl BowlSetup::system() const { return BeadInBowl(m, radius, g); }
Eigen::VectorXd BowlSetup::q0() const { return Eigen::Vector2d(0, -radius); }
Eigen::VectorXd BowlSetup::v0() const { return Eigen::Vector2d(speed, 0); }

DissipationAudit dissipation_audit(const ContactSystem& sys, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                                   double T, const StepOptions& opt, double tol) {
  if (!(tol >= 0)) throw std::invalid_argument("dissipation_audit: tolerance must be >= 0");
  const Trajectory tr = simulate(sys, q0, v0, T, opt);
  auto smallest_gap = [&](const Eigen::VectorXd& q) {
    double phi = std::numeric_limits<double>::infinity();
    for (int i = 0; i < sys.contact_count(); ++i) phi = std::min(phi, sys.contact(i, q).phi);
    return phi;
  };
  DissipationAudit a;
  a.t = tr.t;
  for (std::size_t k = 0; k < tr.q.size(); ++k) a.energy.push_back(sys.energy(tr.q[k], tr.v[k]));
  for (std::size_t k = 0; k + 1 < tr.q.size(); ++k) {
    a.phi_start.push_back(smallest_gap(tr.q[k]));
    const double gain = a.energy[k + 1] - a.energy[k];
    if (gain > tol) {
      ++a.gain_steps;
      if (a.phi_start.back() < 0) ++a.gain_steps_from_penetration;
    }
    a.max_step_gain = std::max(a.max_step_gain, gain);
    a.max_rise = std::max(a.max_rise, a.energy[k + 1] - a.energy[0]);
    a.worst_gap = std::min(a.worst_gap, smallest_gap(tr.q[k + 1]));
  }
  return a;
}

std::vector<ConvergenceRow> convergence_table(const BallsSetup& s, const std::vector<double>& hs, double h_ref,
                                              int directions, Trajectory* reference) {
  const Balls sys = s.system();
  StepOptions opt;
  opt.directions = directions;
  opt.h = h_ref;
  const Trajectory ref = simulate(sys, s.q0(), s.v0(), s.T, opt);
  std::vector<int> centres;
  for (int b = 0; b < sys.count(); ++b)
    for (int c = 0; c < 3; ++c) centres.push_back(6 * b + c);
  std::vector<ConvergenceRow> rows;
  for (double h : hs) {
    opt.h = h;
    const Trajectory run = simulate(sys, s.q0(), s.v0(), s.T, opt);
    ConvergenceRow row;
    row.h = h;
    row.error = trajectory_errors(run, ref, centres);
    row.worst_complementarity = run.worst_complementarity;
    for (const StepSummary& st : run.steps) row.max_lcp = std::max(row.max_lcp, st.lcp_size);
    rows.push_back(row);
  }
  if (reference) *reference = ref;
  return rows;
}


ContactLcp row_of_balls_lcp(int balls, int contacts, int directions, double h) {
  if (balls < 1) throw std::invalid_argument("row of balls: need at least one ball");
  const Balls sys(balls, 1.0, 0.1, 0.4, 0.3, 9.81);
  if (contacts < 1 || contacts > sys.contact_count())
    throw std::invalid_argument("row of balls: " + std::to_string(balls) + " balls have " +
                                std::to_string(sys.contact_count()) + " contacts, asked for " + std::to_string(contacts));
  Eigen::VectorXd q = Eigen::VectorXd::Zero(sys.dofs()), v = Eigen::VectorXd::Zero(sys.dofs());
  for (int b = 0; b < balls; ++b) {
    q.segment<3>(6 * b) = Eigen::Vector3d(0.2 * b, 0, 0.1);
    v.segment<3>(6 * b) = Eigen::Vector3d(0.3 * std::sin(1.7 * b), 0.2 * std::cos(2.3 * b), -0.5);
  }
  const Eigen::MatrixXd W = sys.mass(q).inverse();
  const Eigen::VectorXd v_free = v + h * (W * sys.force(q, v));
  std::vector<ContactGeometry> geo;
  Eigen::VectorXd c(contacts);
  for (int i = 0; i < contacts; ++i) {
    geo.push_back(sys.contact(i, q));
    c(i) = geo.back().phi;
  }
  return assemble_contact_lcp(W, v_free, geo, c, h, directions, NormalLevel::position);
}

ContactLcp four_ball_seven_contact_lcp(const BallsSetup& s, double h, int directions) {
  const Balls sys = s.system();
  StepOptions opt;
  opt.h = h;
  opt.directions = directions;
  Eigen::VectorXd q = s.q0(), v = s.v0();
  std::vector<int> active;
  for (long step = 0; step < std::lround(s.T / h); ++step) {
    const Eigen::MatrixXd W = sys.mass(q).inverse();
    const Eigen::VectorXd v_free = v + h * (W * sys.force(q, v));
    const std::vector<int> set = initial_contact_set(sys, q, v_free, active, opt);
    if (set.size() == 7) {
      std::vector<ContactGeometry> geo;
      Eigen::VectorXd c(7);
      for (int a = 0; a < 7; ++a) {
        geo.push_back(sys.contact(set[a], q));
        c(a) = geo.back().phi;
      }
      return assemble_contact_lcp(W, v_free, geo, c, h, directions, NormalLevel::position);
    }
    const StepResult r = st_step(sys, q, v, active, opt);
    active = active_contacts(r);
    q = r.q;
    v = r.v;
  }
  throw std::runtime_error("four-ball run never closed 7 contacts");
}

namespace {

// A point sliding on the level plane from v0 along angle `a` in the (t1, t2) frame until rest:
// returns the first step's friction direction error [rad], the path length [m] and LCP stats.
void slide(int k, double h, double a, double& direction_error, double& distance, int& lcp_size, int& pivots) {
  const double mu = 0.5, g = 9.81, v0 = 1.0;
  const PointOnPlane sys(1.0, g, mu, Eigen::Vector3d::UnitZ());
  const Eigen::Vector3d dir = std::cos(a) * sys.t1 + std::sin(a) * sys.t2;
  Eigen::VectorXd q = Eigen::Vector3d::Zero(), v = v0 * dir;
  StepOptions opt;
  opt.h = h;
  opt.directions = k;
  std::vector<int> active;
  distance = 0;
  for (int step = 0; step < 1000000; ++step) {
    const StepResult r = st_step(sys, q, v, active, opt);
    if (step == 0) {
      lcp_size = r.lcp_size;
      pivots = r.pivots;
      const Eigen::Vector3d f = r.friction_gen.head<3>();
      direction_error = std::acos(std::clamp(-f.normalized().dot(dir), -1.0, 1.0));
    }
    active = active_contacts(r);
    distance += (r.q - q).head<2>().norm();
    q = r.q;
    v = r.v;
    if (v.norm() < 1e-12) break;
  }
}

}  // namespace

ConeRow friction_cone_row(int k, double h) {
  ConeRow row;
  row.k = k;
  row.polygon_error = polygon_cone_error(k);
  row.stop_distance_circle = 1.0 / (2 * 0.5 * 9.81);
  double unused_error = 0;
  int unused_size = 0, unused_pivots = 0;
  // Direction error: sliding just short of an edge normal, the polygon pushes back along its vertex.
  slide(k, h, 0.99 * M_PI / k, row.direction_error, row.stop_distance, row.lcp_size, row.pivots);
  // Magnitude error: sliding along an edge normal, the polygon's friction is cos(pi/k) mu p_n.
  slide(k, h, M_PI / k, unused_error, row.stop_distance, unused_size, unused_pivots);
  return row;
}

}  // namespace impulse::st
