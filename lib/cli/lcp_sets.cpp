#include "cli/lcp_sets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

#include "st/experiments.h"
#include "st/stepper.h"
#include "st/systems.h"

namespace impulse::cli {

namespace {

using namespace impulse::st;

struct StepLcp {
  long step = 0;  // step index of the run (0: the first step)
  int contacts = 0;
  ContactLcp lcp;
};

// The first LCP of one step as st_step assembles it on its first pass (lib/st/stepper.cpp): the
// free velocity v_free = v + h W k, the initial contact set, the geometry at q and the gaps
// c = phi(q) (the first linearisation point is q itself). Empty when the set is empty.
StepLcp first_lcp_of_step(const ContactSystem& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                          const std::vector<int>& active, const StepOptions& opt) {
  const Eigen::MatrixXd M = sys.mass(q);
  const Eigen::MatrixXd W = M.llt().solve(Eigen::MatrixXd::Identity(M.rows(), M.cols()));
  const Eigen::VectorXd v_free = v + opt.h * (W * sys.force(q, v));
  const std::vector<int> set = initial_contact_set(sys, q, v_free, active, opt);
  StepLcp s;
  s.contacts = int(set.size());
  std::vector<ContactGeometry> geo;
  Eigen::VectorXd c(s.contacts);
  for (int a = 0; a < s.contacts; ++a) {
    geo.push_back(sys.contact(set[a], q));
    c(a) = geo.back().phi;
  }
  if (s.contacts > 0) s.lcp = assemble_contact_lcp(W, v_free, geo, c, opt.h, opt.directions, opt.level);
  return s;
}

// Every step's first LCP of a run of `steps` steps from (q, v), the steps without contacts left out.
std::vector<StepLcp> run_lcps(const ContactSystem& sys, Eigen::VectorXd q, Eigen::VectorXd v, long steps,
                              const StepOptions& opt) {
  std::vector<StepLcp> out;
  std::vector<int> active;
  for (long k = 0; k < steps; ++k) {
    StepLcp s = first_lcp_of_step(sys, q, v, active, opt);
    s.step = k;
    if (s.contacts > 0) out.push_back(std::move(s));
    const StepResult r = st_step(sys, q, v, active, opt);
    active = active_contacts(r);
    q = r.q;
    v = r.v;
  }
  return out;
}

std::string step_name(const std::string& run, long step) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04ld", step);
  return run + "-step" + buf;
}

// Up to per_run of a run's LCPs, evenly spaced, plus its largest one (the first of that size).
void pick(const std::string& run, const std::string& what, const std::vector<StepLcp>& all, double h, int directions,
          int per_run, std::vector<NamedLcp>& out) {
  if (all.empty()) return;
  std::vector<std::size_t> idx;
  const std::size_t take = std::min<std::size_t>(std::size_t(per_run), all.size());
  for (std::size_t i = 0; i < take; ++i) idx.push_back(take == 1 ? 0 : i * (all.size() - 1) / (take - 1));
  std::size_t largest = 0;
  for (std::size_t i = 1; i < all.size(); ++i)
    if (all[i].lcp.b.size() > all[largest].lcp.b.size()) largest = i;
  if (std::find(idx.begin(), idx.end(), largest) == idx.end()) idx.push_back(largest);
  std::sort(idx.begin(), idx.end());
  idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
  for (std::size_t i : idx) {
    std::ostringstream o;
    o << what << ": first LCP of step " << all[i].step << ", h = " << h << " s, " << directions << " friction directions, "
      << all[i].contacts << " contacts, n = " << all[i].lcp.b.size();
    out.push_back({step_name(run, all[i].step), o.str(), all[i].lcp.A, all[i].lcp.b});
  }
}

// Uniform in [0, 1) from 53 bits of a 64-bit Mersenne twister draw (the same on every platform,
// unlike std::uniform_real_distribution).
struct Draw {
  std::mt19937_64 rng;
  double unit() { return double(rng() >> 11) * 0x1.0p-53; }
  double in(double lo, double hi) { return lo + (hi - lo) * unit(); }
  int pick(int n) { return int(rng() % std::uint64_t(n)); }
};

}  // namespace

std::vector<NamedLcp> scene_lcp_set(int per_run) {
  std::vector<NamedLcp> out;
  {  // st-bounce's defaults: m = 1 kg, q = 0.01 m, v = -1 m/s, h = 0.02 s, g = 10 m/s^2, 25 steps
    StepOptions opt;
    opt.h = 0.02;
    const VerticalPoint sys(1.0, 10.0);
    pick("st-bounce", "st-bounce (vertical point)",
         run_lcps(sys, Eigen::VectorXd::Constant(1, 0.01), Eigen::VectorXd::Constant(1, -1.0), 25, opt), opt.h, 0,
         per_run, out);
  }
  {  // a point sliding down a 20 degree incline with mu = 0.3 (it slides: tan 20 deg = 0.36 > 0.3)
    StepOptions opt;
    opt.h = 0.01;
    const double a = 20.0 * M_PI / 180.0;
    const PointOnPlane sys(1.0, 9.81, 0.3, Eigen::Vector3d(std::sin(a), 0.0, std::cos(a)));
    pick("incline", "point on a 20 degree incline, mu = 0.3", run_lcps(sys, Eigen::Vector3d::Zero(),
         Eigen::Vector3d(0.0, 0.5, 0.0), 50, opt), opt.h, opt.directions, per_run, out);
  }
  {  // st-rod's defaults (lib/st/experiments.h: RodSetup), h = 0.0025 s, 1 s
    const RodSetup s;
    StepOptions opt;
    opt.h = 0.0025;
    pick("st-rod", "st-rod (falling rod)", run_lcps(s.system(), s.q0(), s.v0(), std::lround(s.T / opt.h), opt), opt.h,
         2, per_run, out);
  }
  for (int k : {4, 8, 16}) {  // st-balls at h = 0.005 s with k directions, and its 7-contact LCP
    const BallsSetup s;
    StepOptions opt;
    opt.h = 0.005;
    opt.directions = k;
    const std::string run = "st-balls-k" + std::to_string(k);
    pick(run, "st-balls (four-ball pile)", run_lcps(s.system(), s.q0(), s.v0(), std::lround(s.T / opt.h), opt), opt.h,
         k, per_run, out);
    const ContactLcp L = four_ball_seven_contact_lcp(s, opt.h, k);
    out.push_back({run + "-seven", "st-balls: the first 7-contact LCP (four_ball_seven_contact_lcp), h = 0.005 s, " +
                                       std::to_string(k) + " friction directions, n = " + std::to_string(L.b.size()),
                   L.A, L.b});
  }
  for (int contacts : {4, 10, 15}) {  // the `bench st-lcp` family: a row of touching balls, 8 directions
    int balls = 1;
    while (balls + balls * (balls - 1) / 2 < contacts) ++balls;
    const ContactLcp L = row_of_balls_lcp(balls, contacts, 8, 0.01);
    out.push_back({"st-lcp-row-n" + std::to_string(L.b.size()),
                   "st-lcp: a row of " + std::to_string(balls) + " touching balls, " + std::to_string(contacts) +
                       " contacts, 8 friction directions, h = 0.01 s, n = " + std::to_string(L.b.size()),
                   L.A, L.b});
  }
  return out;
}

std::vector<NamedLcp> held_out_lcp_set(int count, std::uint64_t seed) {
  Draw d{std::mt19937_64(seed)};
  const int directions[] = {4, 6, 8, 12, 16};
  const double steps[] = {0.001, 0.002, 0.005, 0.01};
  const double r = 0.1;  // [m] ball radius
  std::vector<NamedLcp> out;
  while (int(out.size()) < count) {
    const int balls = 3 + d.pick(8);
    const double mu_floor = d.in(0.1, 1.0), mu_ball = d.in(0.1, 1.0);
    StepOptions opt;
    opt.h = steps[d.pick(4)];
    opt.directions = directions[d.pick(5)];
    const Balls sys(balls, 1.0, r, mu_floor, mu_ball, 9.81);
    // Drop each ball at a random (x, y) onto the floor or the balls below it, within -2 mm
    // (penetrating) to +4 mm (apart) of touching.
    Eigen::VectorXd q = Eigen::VectorXd::Zero(sys.dofs()), v = Eigen::VectorXd::Zero(sys.dofs());
    for (int b = 0; b < balls; ++b) {
      const double x = d.in(-0.15, 0.15), y = d.in(-0.15, 0.15);
      double z = r;
      for (int a = 0; a < b; ++a) {
        const double dx = x - q(6 * a), dy = y - q(6 * a + 1), s2 = 4 * r * r - dx * dx - dy * dy;
        if (s2 > 0) z = std::max(z, q(6 * a + 2) + std::sqrt(s2));
      }
      q.segment<3>(6 * b) = Eigen::Vector3d(x, y, z + d.in(-0.002, 0.004));
      v.segment<3>(6 * b) = Eigen::Vector3d(d.in(-0.5, 0.5), d.in(-0.5, 0.5), d.in(-1.0, 0.2));
      v.segment<3>(6 * b + 3) = Eigen::Vector3d(d.in(-5, 5), d.in(-5, 5), d.in(-5, 5));
    }
    const StepLcp s = first_lcp_of_step(sys, q, v, {}, opt);
    if (s.contacts == 0) continue;
    std::ostringstream o;
    o << "held-out: random pile of " << balls << " balls (seed " << seed << ", draw " << out.size() << "), mu_floor = "
      << mu_floor << ", mu_ball = " << mu_ball << ", h = " << opt.h << " s, " << opt.directions
      << " friction directions, " << s.contacts << " contacts, n = " << s.lcp.b.size();
    char name[32];
    std::snprintf(name, sizeof name, "held-out-%03d", int(out.size()));
    out.push_back({name, o.str(), s.lcp.A, s.lcp.b});
  }
  return out;
}

}  // namespace impulse::cli
