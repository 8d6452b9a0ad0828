// `st-lemke-path`: the pivot path of Lemke's method on our four-ball pile's 70 x 70 contact LCP
// (ST §3, course seed 004 L82; the LCP is lib/st/experiments.h: four_ball_seven_contact_lcp).
// One row per pivot: which variable entered and which left (w_i, z_i or the artificial z0), the
// value of z0 after the pivot, and how many z_i are basic. The path starts with z0 entering and
// ends when z0 leaves; every other entering variable is the complement of the one that just left.
#include <stdexcept>
#include <string>

#include "course/scenes.h"
#include "st/experiments.h"
#include "st/lcp.h"

namespace impulse::course {

namespace {

using namespace impulse::st;

// "w", "z" or "z0" and the index (-1 for z0) of a Lemke variable number (see LcpPivot).
std::pair<std::string, int> lemke_name(int var, int n) {
  if (var < n) return {"w", var};
  if (var < 2 * n) return {"z", var - n};
  return {"z0", -1};
}

int run_lemke_path(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const long long k = a.integer("directions");
  const double h = a.positive("h");
  if (k < 3 || k > 64) throw std::invalid_argument("option --directions must lie in [3, 64], got " + a.text("directions"));
  const ContactLcp L = four_ball_seven_contact_lcp(BallsSetup{}, h, int(k));
  LcpOptions opt;
  opt.trace = true;
  const LcpResult r = solve_lcp(L.A, L.b, opt);
  const int n = int(L.b.size());
  SceneTable& csv = out.table("st-lemke-path.csv");
  csv << "pivot,entering_kind,entering_index,leaving_kind,leaving_index,z0,basic_z\n";
  int basic_z = 0;
  for (std::size_t i = 0; i < r.trace.size(); ++i) {
    const LcpPivot& p = r.trace[i];
    const auto [ek, ei] = lemke_name(p.entering, n);
    const auto [lk, li] = lemke_name(p.leaving, n);
    basic_z += (ek == "z") - (lk == "z");
    csv << double(i + 1) << ',' << ek << ',' << ei << ',' << lk << ',' << li << ',' << p.z0 << ',' << basic_z << '\n';
  }
  log << "st-lemke-path: " << n << " x " << n << " LCP of the four-ball pile (" << k << " directions, h = " << h
      << " s): " << to_string(r.status) << " after " << r.pivots << " pivots, complementarity " << r.complementarity
      << "; " << basic_z << " z variables basic at the end\n";
  return r.status == LcpStatus::solved ? 0 : 1;
}

}  // namespace

void register_st_lemke_scenes(SceneCatalogue& c) {
  c.add({"st-lemke-path", "ST", "Lemke's pivot path on the four-ball pile's 70 x 70 contact LCP (one row per pivot)",
         {{"directions", "-", "8", "friction directions per contact (LCP size 7 (k + 2))"},
          {"h", "s", "0.005", "step of the run whose 7-contact LCP is taken"}},
         run_lemke_path, nullptr});
}

}  // namespace impulse::course
