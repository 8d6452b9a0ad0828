// The course registry: every inventory item the engine implements, once, with its calculator.
//
// An item is identified by its inventory ID (E1.6-torque-example, E3.4-xpbd-pn, ST.2-bounce-example).
// Formulas and examples carry a calculator: named inputs and outputs with units, evaluated by the
// same lib/ functions the engine calls. Rules, tables and exercises are registered so that the
// coverage check can see them and name their tests; exercises are graded by lib/course/exercises.h.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/math.h"

namespace impulse::course {

/// implemented: a function here and its tests; prose_only: no runtime check, with a reason;
/// in_newton: a claim about Newton itself that impulse has no part to run (its MuJoCo adapter),
/// run in Newton by the parity suite in every release (verify/parity/newton_claims.py).
enum class Status { implemented, prose_only, in_newton };

/// The status as `impulse formulas --json` and Python's formulas() spell it.
inline const char* status_name(Status s) {
  return s == Status::implemented ? "implemented" : s == Status::prose_only ? "prose-only" : "checked in Newton";
}

/// The values an input may take; evaluate() refuses anything outside before a calculator runs.
/// Every component must be finite and within [lo, hi] (or the open ends); integer inputs must be
/// whole; a vector may further be required non-zero or of unit length (| |v| - 1 | <= kUnitTol).
struct Domain {
  enum class Norm { any, nonzero, unit };
  double lo = -kCeiling, hi = kCeiling;  // in the input's unit
  bool lo_open = false, hi_open = false;
  bool integer = false;
  double multiple_of = 0;  // > 0: x / multiple_of must be whole (a step on a reference grid)
  Norm norm = Norm::any;

  /// No physical input of the course comes near 1e12 in SI units; the ceiling keeps products and
  /// squares inside double range, so that a calculator never prints inf for finite input.
  static constexpr double kCeiling = 1e12;
  static constexpr double kUnitTol = 1e-4;  // a unit vector or quaternion typed with 5 digits passes

  /// "" when v is inside; otherwise what is wrong ("component 2 = -1 is outside (0, 1e12]").
  std::string violation(const std::vector<double>& v) const;
  /// The allowed range in words: "(0, 1e12]", "integer in [0, 1000000]", "unit quaternion ...".
  std::string describe(int dim) const;
};

// The domains the course's inputs use.
Domain any_real();                    // finite, |x| <= 1e12
Domain positive();                    // (0, 1e12]: masses, densities, lengths, steps
Domain nonnegative();                 // [0, 1e12]: friction, stiffness, inverse masses
Domain closed(double lo, double hi);  // [lo, hi]
Domain count(double lo, double hi);   // integer in [lo, hi]
Domain grid_step(double step, double hi);  // a multiple of step in [step, hi]
Domain nonzero_vector();              // |v| > 0 (normalised by the formula)
Domain unit_vector();                 // | |v| - 1 | <= 1e-4 (quaternions too)

/// A named input or output: a scalar (dim 1), a vector "x,y,z" (dim 3), a quaternion
/// "x,y,z,w" (dim 4) or a list of one or more numbers (dim 0); unit in SI ("m", "N m", "1/kg",
/// "-" for dimensionless). Inputs carry a domain; one left empty at registration gets the
/// course-wide rule of default_domain().
struct Quantity {
  std::string name;
  std::string unit;
  int dim = 1;
  std::string doc;
  std::optional<Domain> domain = std::nullopt;
};

using Values = std::map<std::string, std::vector<double>>;
using Calculator = std::function<Values(const Values&)>;

struct Item {
  std::string id;        // inventory ID
  std::string kind;      // formula, example, rule, table, exercise, algorithm, paper-fact
  std::string title;     // one line, our words
  std::string section;   // "E1 §6"
  Status status = Status::implemented;
  std::string reason;    // prose-only: why it has no runtime check; in_newton: why only Newton can run it
  std::string function;  // where it lives: "lib/e1/spatial_shift.h: shift_torque"
  std::vector<Quantity> inputs;
  std::vector<Quantity> outputs;
  Calculator calc;       // empty for items without numbers
};

class Registry {
 public:
  /// Registers an item; throws std::logic_error on a duplicate ID.
  void add(Item item);
  const Item* find(const std::string& id) const;
  const std::vector<Item>& items() const { return items_; }
  /// Puts the items in reading order (chapter E1, E3, ST, then section number), stably: the
  /// hand-written and the generated entries of one section keep their registration order.
  void sort_by_section();

 private:
  std::vector<Item> items_;
};

/// The registry of the whole course (built once, on first use).
const Registry& registry();

/// Chapter of an ID: "E1", "E3" or "ST" (the text before the first '.').
std::string chapter_of(const std::string& id);

/// The domain of an input registered without one, from its name and unit (lib/course/domains.cpp):
/// quaternions unit; masses, lengths of shapes, steps and rates positive; friction, stiffness,
/// damping, inverse masses and inertias non-negative; restitution in [0, 1]; counts whole.
Domain default_domain(const std::string& item_id, const Quantity& q);

/// Evaluates an item's calculator after checking that every declared input is present with the
/// right dimension, inside its domain, and that no unknown input was given; throws
/// std::invalid_argument naming the offending input, its value and the allowed range. A result
/// that is not finite (an overflow) is refused the same way instead of being printed.
Values evaluate(const Item& item, const Values& inputs);

// Accessors used by calculators.
double scalar(const Values& v, const std::string& name);
vec3 vector3(const Values& v, const std::string& name);
quat quaternion(const Values& v, const std::string& name);
std::vector<double> as_values(vec3 v);
std::vector<double> as_values(quat q);

// Per-chapter registration (lib/course/items_*.cpp).
void register_e1(Registry& r);
void register_e3(Registry& r);
void register_e3_solver(Registry& r);  // E3 §4-§8: XPBD contact formulas and force observation
void register_e3_other_solvers(Registry& r);  // E3 §1, §6: SemiImplicit, Featherstone, integrators, VBD, PADMM
void register_st(Registry& r);

}  // namespace impulse::course
