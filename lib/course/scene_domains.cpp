// The domains of the scene options (`impulse run` / `impulse bench`): physical ranges for the
// physical options, and ceilings for the sizes, so that no option value can make a scene run for
// hours, allocate more memory than a laptop has, or write CSV until the disk fills.
//
// Ceilings, chosen from the measured costs (docs/guide/measurements.md, 2 cores): 1e5 steps,
// 1e7 bodies for the embarrassingly parallel E1 loops, 1e6 for contact scenes, 2e4 shapes for
// the O(N^2) nxn broad phase, 1000 for Lemke's O(n^3) tableau, 100 repeats, 60 s of simulated time.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "course/scenes.h"

namespace impulse::course {

namespace {

std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", x);
  return buf;
}

OptionDomain number(double lo, double hi, bool lo_open = false, bool hi_open = false) {
  OptionDomain d;
  d.lo = lo;
  d.hi = hi;
  d.lo_open = lo_open;
  d.hi_open = hi_open;
  return d;
}
OptionDomain positive(double hi) { return number(0, hi, true); }
OptionDomain whole(double lo, double hi) {
  OptionDomain d = number(lo, hi);
  d.kind = OptionDomain::Kind::integer;
  return d;
}
OptionDomain choice(std::vector<std::string> words) {
  OptionDomain d;
  d.kind = OptionDomain::Kind::choice;
  d.choices = std::move(words);
  return d;
}

}  // namespace

std::string OptionDomain::describe() const {
  if (kind == Kind::choice) {
    std::string s = "one of ";
    for (std::size_t i = 0; i < choices.size(); ++i) s += (i ? ", " : "") + choices[i];
    return s;
  }
  return std::string(kind == Kind::integer ? "a whole number in " : "") + (lo_open ? "(" : "[") + number_text(lo) + ", " +
         number_text(hi) + (hi_open ? ")" : "]");
}

std::string OptionDomain::violation(const std::string& text) const {
  if (kind == Kind::choice) {
    for (const std::string& c : choices)
      if (text == c) return "";
    return "'" + text + "' is not a valid choice; allowed: " + describe();
  }
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') return "'" + text + "' is not a number; allowed: " + describe();
  if (!std::isfinite(x)) return "'" + text + "' is not a finite number; allowed: " + describe();
  const bool below = lo_open ? !(x > lo) : !(x >= lo);
  const bool above = hi_open ? !(x < hi) : !(x <= hi);
  if (below || above) return text + " is out of range; allowed: " + describe();
  if (kind == Kind::integer && x != std::floor(x)) return "'" + text + "' is not a whole number; allowed: " + describe();
  return "";
}

OptionDomain scene_option_domain(const std::string& scene, const std::string& o) {
  // Sizes.
  if (o == "steps") return scene == "e3-penalty-stability" ? whole(1, 1000) : whole(1, 100000);  // the unstable run grows
  if (o == "repeat") return whole(1, 100);
  if (o == "frames") return whole(1, 100000);
  if (o == "substeps") return whole(1, 1000);
  if (o == "iterations") return whole(1, 100);
  if (o == "nonlinear") return whole(0, 100);
  if (o == "directions") return whole(3, 32);  // ST §2: k >= 3 friction directions
  if (o == "per-world") return whole(0, 1000000);
  if (o == "threads") return whole(1, 256);
  if (o == "compare-threads") return whole(0, 1);
  if (o == "broad-phase-reuse") return whole(0, 1);
  if (o == "contact-warm-start") return whole(0, 1);
  if (o == "gauss-seidel") return whole(0, 1);
  if (o == "linearised") return whole(0, 1);
  if (o == "manifold-sweeps") return whole(0, 64);
  if (o == "warm-start-friction-scale") return number(0, 1);
  if (o == "warm-start-scale") return number(0, 1);
  if (o == "weighting") return whole(0, 1);
  if (o == "n") {
    if (scene.rfind("e3-pile-", 0) == 0) return whole(1, 100000);  // whole-step piles: 10^5 at a few steps
    if (scene == "e1-spatial-shift" || scene == "e1-free-bodies") return whole(1, 10000000);
    if (scene == "st-lcp") return whole(5, 1000);  // Lemke: ~8 s at n = 1000 on 2 cores
    return whole(1, 1000000);
  }
  // Words.
  if (o == "device") return choice({"cpu", "cuda", "auto"});
  if (o == "mode") return scene == "e3-broadphase" ? choice({"nxn", "sap"}) : choice({"nxn", "sap", "explicit"});
  if (o == "collide") return choice({"every", "once"});  // the pile benches: collide every substep or once a frame
  if (o == "solver") return choice({"xpbd", "semi_implicit", "featherstone", "padmm", "vbd"});
  // Time.
  if (o == "h" || o == "dt") return number(1e-5, 0.1);  // [s]: scenes of fixed length take at most 1e5 steps
  if (o == "T" || o == "duration") return scene == "st-balls" ? number(0.5, 60) : number(0.01, 60);  // [s]; the balls close their contacts by 0.5 s
  if (o == "fps") return positive(10000);  // [1/s]
  // Materials and bodies.
  if (o == "m" || o == "mass") return number(1e-6, 1e6);  // [kg]
  if (o == "inertia") return number(1e-6, 1e6);       // [kg m^2]
  if (o == "mu") return number(0, 2);                 // E3 §3: mu >= 0; the course uses up to 1
  if (o == "e") return number(0, 1);                  // restitution
  if (o == "relaxation") return number(0, 1, true);   // XPBD rigid contact relaxation, as E3.4-xpbd-pn
  if (o == "ke") return positive(1e10);               // [N/m]
  if (o == "kh") return number(1e4, 1e12);            // [N/m^3] hydroelastic modulus (route c)
  if (o == "grid") return whole(2, 64);               // lattice lines per axis (kHydroMaxGrid)
  if (o == "gap") return number(0, 1);                // [m]
  if (o == "broad-phase-reuse-margin") return number(0, 1);  // [m] growth of the reused AABBs
  if (o == "below") return number(0, 1, true, true);  // h / h_crit of the stable run
  if (o == "above") return number(1, 1.5, true);      // h / h_crit of the unstable run (diverges, stays finite)
  if (o == "speed") return positive(1000);            // [m/s]
  if (o == "q") return number(0, 100);                // [m] height above the ground
  if (o == "z0" || o == "offset" || o == "px") return number(-100, 100);  // [m]
  if (o == "g") return number(0, 100);                // [m/s^2] gravity magnitude along -z
  if (o == "v" || o == "v0") return scene == "st-block" ? positive(1000) : number(-1000, 1000);  // [m/s]
  if (o == "wx" || o == "wy" || o == "wz") return number(-10000, 10000);  // [rad/s]
  if (o == "fy") return number(-1e6, 1e6);            // [N]
  return number(-1e6, 1e6);
}

std::string scene_combination_violation(const std::string& scene, const std::map<std::string, std::string>& v) {
  auto num = [&](const char* k) { return std::strtod(v.at(k).c_str(), nullptr); };
  for (const char* T : {"T", "duration"}) {
    if (!v.count(T) || !v.count("h")) continue;
    const double steps = num(T) / num("h") * (v.count("substeps") ? num("substeps") : 1);
    if (!(steps <= kMaxSceneSteps))
      return "options --" + std::string(T) + " " + v.at(T) + " and --h " + v.at("h") +
             (v.count("substeps") ? " with --substeps " + v.at("substeps") : std::string()) + " of scene " + scene + " make " +
             number_text(std::ceil(steps)) + " steps; at most " + number_text(kMaxSceneSteps) +
             " (raise --h or shorten the run)";
  }
  if (v.count("frames") && v.count("substeps") && num("frames") * num("substeps") > kMaxSceneSteps)
    return "options --frames " + v.at("frames") + " and --substeps " + v.at("substeps") + " of scene " + scene + " make " +
           number_text(num("frames") * num("substeps")) + " steps; at most " + number_text(kMaxSceneSteps);
  if (v.count("steps") && v.count("substeps") && num("steps") * num("substeps") > kMaxSceneSteps)
    return "options --steps " + v.at("steps") + " and --substeps " + v.at("substeps") + " of scene " + scene + " make " +
           number_text(num("steps") * num("substeps")) + " substeps; at most " + number_text(kMaxSceneSteps);
  // Work: bodies times steps, about a minute of the slowest solver at the ceiling.
  if (v.count("n") && v.count("steps") && num("n") * num("steps") > 1e8)
    return "options --n " + v.at("n") + " and --steps " + v.at("steps") + " of scene " + scene + " make " +
           number_text(num("n") * num("steps")) + " body-steps; at most 1e8 (lower one of them)";
  if (v.count("per-world") && v.count("n") && num("per-world") > num("n"))
    return "option --per-world " + v.at("per-world") + " of scene " + scene + " is larger than --n " + v.at("n");
  if (v.count("mode") && v.at("mode") == "nxn" && v.count("n") && num("n") > 20000)
    return "option --n " + v.at("n") + " of scene " + scene + " with --mode nxn: the all-pairs broad phase allows at most "
           "20000 shapes (use --mode sap)";
  // The penalty-family solvers' contact fixture holds up to n^2 records (scenes_e3_solvers.cpp).
  if (scene == "e3-spheres" && v.count("solver") && v.at("solver") != "xpbd" && num("n") > 10000)
    return "option --n " + v.at("n") + " of scene e3-spheres with --solver " + v.at("solver") +
           ": at most 10000 spheres (its contact fixture holds n^2 records); xpbd takes up to 1000000";
  return "";
}

}  // namespace impulse::course
