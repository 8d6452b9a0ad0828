// The course registry: every inventory item the engine implements, once, with its calculator.
//
// An item is identified by its inventory ID (E1.6-torque-example, E3.4-xpbd-pn, ST.2-bounce-example).
// Formulas and examples carry a calculator: named inputs and outputs with units, evaluated by the
// same lib/ functions the engine calls. Rules, tables and exercises are registered so that the
// coverage check can see them and name their tests; exercises are graded by lib/course/exercises.h.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/math.h"

namespace impulse::course {

enum class Status { implemented, prose_only };

/// A named input or output: a scalar (dim 1), a vector "x,y,z" (dim 3), a quaternion
/// "x,y,z,w" (dim 4) or a list of one or more numbers (dim 0); unit in SI ("m", "N m", "1/kg",
/// "-" for dimensionless).
struct Quantity {
  std::string name;
  std::string unit;
  int dim = 1;
  std::string doc;
};

using Values = std::map<std::string, std::vector<double>>;
using Calculator = std::function<Values(const Values&)>;

struct Item {
  std::string id;        // inventory ID
  std::string kind;      // formula, example, rule, table, exercise, algorithm, paper-fact
  std::string title;     // one line, our words
  std::string section;   // "E1 §6"
  Status status = Status::implemented;
  std::string reason;    // prose-only: why it has no runtime check
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

 private:
  std::vector<Item> items_;
};

/// The registry of the whole course (built once, on first use).
const Registry& registry();

/// Chapter of an ID: "E1", "E3" or "ST" (the text before the first '.').
std::string chapter_of(const std::string& id);

/// Evaluates an item's calculator after checking that every declared input is present with the
/// right dimension and that no unknown input was given; throws std::invalid_argument naming the
/// offending input.
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
