// Input domains of the course calculators: what each input may be, checked by evaluate() before
// any calculator runs, so that `impulse calc` never prints a number for an input outside its
// domain (a negative mass, a zero rotation axis, a friction coefficient below zero).
//
// One rule for the whole course, read off the input's unit and the course's symbol for it; the
// few exceptions name their item. Sources: the ranges the course states (E1 §3 "mass > 0",
// E3 §3 "mu >= 0", "restitution in [0, 1]", E3 §4 "requires w > 0", ST §2 "k >= 3 directions").
#include <cmath>
#include <cstdio>
#include <set>

#include "course/registry.h"

namespace impulse::course {

namespace {

std::string number_text(double x) {
  if (x == Domain::kCeiling) return "1e12";
  if (x == -Domain::kCeiling) return "-1e12";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", x);
  return buf;
}

bool is_one_of(const std::string& s, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (s == n) return true;
  return false;
}

}  // namespace

Domain any_real() { return {}; }
Domain positive() {
  Domain d;
  d.lo = 0;
  d.lo_open = true;
  return d;
}
Domain nonnegative() {
  Domain d;
  d.lo = 0;
  return d;
}
Domain closed(double lo, double hi) {
  Domain d;
  d.lo = lo;
  d.hi = hi;
  return d;
}
Domain count(double lo, double hi) {
  Domain d = closed(lo, hi);
  d.integer = true;
  return d;
}
Domain grid_step(double step, double hi) {
  Domain d = closed(step, hi);
  d.multiple_of = step;
  return d;
}
Domain nonzero_vector() {
  Domain d;
  d.norm = Domain::Norm::nonzero;
  return d;
}
Domain unit_vector() {
  Domain d;
  d.norm = Domain::Norm::unit;
  return d;
}

std::string Domain::describe(int dim) const {
  std::string range = (integer ? "integer in " : multiple_of > 0 ? "a multiple of " + number_text(multiple_of) + " in " : "") + std::string(lo_open ? "(" : "[") + number_text(lo) + ", " +
                      number_text(hi) + (hi_open ? ")" : "]");
  const char* what = dim == 4 ? "quaternion" : "vector";
  switch (norm) {
    case Norm::unit: {
      char tol[16];
      std::snprintf(tol, sizeof tol, "%g", kUnitTol);
      return std::string("unit ") + what + " (| |v| - 1 | <= " + tol + ")";
    }
    case Norm::nonzero: return std::string("non-zero ") + what + ", components in " + range;
    case Norm::any: break;
  }
  return dim == 1 ? range : "components in " + range;
}

std::string Domain::violation(const std::vector<double>& v) const {
  double norm2 = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double x = v[i];
    const std::string which = v.size() == 1 ? "" : "component " + std::to_string(i + 1) + " = ";
    if (!std::isfinite(x)) return which + "'" + number_text(x) + "' is not a finite number";
    const bool below = lo_open ? !(x > lo) : !(x >= lo);
    const bool above = hi_open ? !(x < hi) : !(x <= hi);
    if (below || above) return which + number_text(x) + " is out of range";
    if (integer && x != std::floor(x)) return which + number_text(x) + " is not a whole number";
    if (multiple_of > 0 && std::abs(x / multiple_of - std::round(x / multiple_of)) > 1e-9)
      return which + number_text(x) + " is not a multiple of " + number_text(multiple_of);
    norm2 += x * x;
  }
  const double n = std::sqrt(norm2);
  if (norm == Norm::nonzero && !(n > 0)) return "the zero vector has no direction";
  if (norm == Norm::unit && !(std::abs(n - 1) <= kUnitTol))
    return "its length is " + number_text(n) + ", not 1 (| |v| - 1 | must be <= " + number_text(kUnitTol) + ")";
  return "";
}

Domain default_domain(const std::string& item, const Quantity& q) {
  const std::string& n = q.name;
  const std::string& u = q.unit;
  // Directions: quaternions and normals are unit; an axis is normalised by its formula (non-zero).
  if (q.dim == 4) return item == "E1.2-mjcf-wxyz" ? nonzero_vector() : unit_vector();
  if (is_one_of(n, {"n", "n0", "n1", "n2"}) && q.dim == 3) return unit_vector();
  if (n == "axis") return nonzero_vector();
  // Whole numbers: joint and contact counts, option switches, body indices (-1: the world).
  if (is_one_of(n, {"free", "revolute", "prismatic", "ball", "fixed", "distance", "N_A", "N_B"})) return count(0, 1e6);
  if (is_one_of(n, {"d6_linear", "d6_angular"})) return count(0, 3);
  if (item.rfind("E1.7-substep", 0) == 0 && n == "N") return count(1, 1e6);
  if (n == "k" && item.rfind("ST.", 0) == 0) return count(3, 1000);  // ST §2: at least three directions
  if (n == "up_axis") return count(0, 2);
  // ST §4: the four-ball run is compared with its reference at h = 0.00125 s over T = 1 s.
  if (item == "ST.4-error-metrics" && n == "h") return grid_step(0.00125, 0.1);
  if (n == "degree") return count(0, 1);
  if (is_one_of(n, {"body_A", "body_B"})) return count(-1, 1e6);
  if (is_one_of(n, {"priority0", "priority1"})) return count(-1e6, 1e6);
  if (is_one_of(n, {"condim0", "condim1"})) return count(1, 6);
  // Dimensionless material numbers.
  if (n.rfind("mu", 0) == 0) return nonnegative();  // mu, mu0, mu_pn, mu_torsional, ...: E3 §3 mu >= 0
  if (is_one_of(n, {"e", "e0", "e1"})) return closed(0, 1);  // restitution
  if (n == "relaxation") {
    Domain d = closed(0, 1);
    d.lo_open = true;
    return d;
  }
  if (is_one_of(n, {"s", "scale"})) return positive();
  if (is_one_of(n, {"solmix0", "solmix1", "alpha"})) return nonnegative();
  if (n == "b" && item == "E3.4-joint-helper-denominator") return nonnegative();
  // By unit.
  if (u == "kg" || u == "kg/m^3" || u == "Hz" || u == "s") return positive();  // masses, densities, rates, steps
  if (u == "kg m^2") {
    // Point masses have zero inertia where the formula only adds or rotates it.
    static const std::set<std::string> may_be_zero{"E1.3-parallel-axis", "E1.3-combined-com", "E1.4-scaling-laws",
                                                   "E1.4-explicit-inertial-scale"};
    return may_be_zero.count(item) ? nonnegative() : positive();
  }
  if (u == "1/kg") return n == "w" || n == "W" ? positive() : nonnegative();  // E3 §4: w > 0; inv_m of a static body is 0
  if (u == "1/(kg m^2)" || u == "1/s") return nonnegative();
  if (u == "N/m^3" && (n == "k_a" || n == "k_b")) return positive();  // series stiffness divides by both
  if (u == "N/m" || u == "N s/m" || u == "N/m^3" || u == "Pa" || u == "m^2") return nonnegative();
  if (u == "kg/s") return n == "B" ? nonnegative() : any_real();  // D = df/dv may be negative
  if (u == "m/s" && n == "delta") return positive();
  if (u == "m") {
    if (is_one_of(n, {"hx", "hy", "hz", "depth"})) return positive();
    if (is_one_of(n, {"m0", "m1", "t0", "t1", "r0", "r1", "ka0", "ka1"})) return nonnegative();
    if (n == "q" && item.rfind("ST.2", 0) == 0) return nonnegative();  // ST §2: height above the ground
  }
  if (u == "N s" && n == "p_n" && item.rfind("E3.4", 0) == 0) return nonnegative();  // a normal impulse pushes
  return any_real();
}

}  // namespace impulse::course
