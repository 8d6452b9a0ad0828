// One vocabulary for every registry entry (lib/course/items_*.cpp and the entries that
// cmake/formula_items.py writes from the formulas' doc comments), and the calculator of a formula
// whose calculator is the engine function itself.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "course/registry.h"

namespace impulse::course {

/// A named quantity of dim numbers (1 scalar, 3 vector, 4 quaternion x,y,z,w, 0 a list); an input
/// without a domain gets the course-wide default (default_domain) when it is registered.
inline Quantity quantity(std::string name, std::string unit, int dim, std::string doc,
                         std::optional<Domain> domain = std::nullopt) {
  return {std::move(name), std::move(unit), dim, std::move(doc), std::move(domain)};
}
inline Quantity scalar_q(std::string name, std::string unit, std::string doc) {
  return quantity(std::move(name), std::move(unit), 1, std::move(doc));
}
inline Quantity vector_q(std::string name, std::string unit, std::string doc) {
  return quantity(std::move(name), std::move(unit), 3, std::move(doc));
}
inline Quantity quat_q(std::string name, std::string doc) { return quantity(std::move(name), "-", 4, std::move(doc)); }
inline Quantity list_q(std::string name, std::string unit, std::string doc) {
  return quantity(std::move(name), std::move(unit), 0, std::move(doc));
}

/// An implemented item with a calculator: kind is formula, example, exercise, rule, table, ...;
/// where names the file and the function(s): "lib/e3/contacts/materials.h: xpbd_friction_mix".
inline Item item(std::string id, std::string kind, std::string title, std::string section, std::string where,
                 std::vector<Quantity> inputs, std::vector<Quantity> outputs, Calculator calc) {
  return {std::move(id), std::move(kind), std::move(title), std::move(section), Status::implemented, "",
          std::move(where), std::move(inputs), std::move(outputs), std::move(calc)};
}
inline Item formula(std::string id, std::string title, std::string section, std::string where,
                    std::vector<Quantity> inputs, std::vector<Quantity> outputs, Calculator calc) {
  return item(std::move(id), "formula", std::move(title), std::move(section), std::move(where), std::move(inputs),
              std::move(outputs), std::move(calc));
}
/// An implemented item without numbers (a rule, a table, an algorithm): where it lives.
inline Item rule(std::string id, std::string kind, std::string title, std::string section, std::string where) {
  return item(std::move(id), std::move(kind), std::move(title), std::move(section), std::move(where), {}, {}, {});
}
/// A prose-only item: the one-line reason it has no runtime check.
inline Item prose(std::string id, std::string kind, std::string title, std::string section, std::string reason) {
  return {std::move(id), std::move(kind), std::move(title), std::move(section), Status::prose_only, std::move(reason),
          "", {}, {}, {}};
}

/// A claim about Newton itself that impulse cannot run (no MuJoCo backend here): the parity suite
/// runs it in each Newton release; where names verify/parity/newton_claims.py's function.
inline Item in_newton(std::string id, std::string kind, std::string title, std::string section, std::string reason,
                      std::string where) {
  return {std::move(id), std::move(kind), std::move(title), std::move(section), Status::in_newton, std::move(reason),
          std::move(where), {}, {}, {}};
}

namespace detail {

template <class T>
T input_as(const Values& v, const std::string& name) {
  if constexpr (std::is_floating_point_v<T>) return T(scalar(v, name));
  else if constexpr (std::is_same_v<T, int>) return int(scalar(v, name));  // the domain made it whole
  else if constexpr (std::is_same_v<T, vec3>) return vector3(v, name);
  else {
    static_assert(std::is_same_v<T, quat>, "a generated formula takes real, int, vec3 or quat");
    return quaternion(v, name);
  }
}

template <class T>
std::vector<double> result_values(const T& x) {
  if constexpr (std::is_same_v<T, bool>) return {x ? 1.0 : 0.0};
  else if constexpr (std::is_arithmetic_v<T>) return {double(x)};
  else return as_values(x);
}

template <class R, class... A, std::size_t... I>
Values call(R (*f)(A...), const Values& v, const std::array<std::string, sizeof...(A)>& names,
            const std::string& out, std::index_sequence<I...>) {
  return Values{{out, result_values(f(input_as<std::decay_t<A>>(v, names[I])...))}};
}

}  // namespace detail

/// The calculator of a formula that is one engine function: inputs named as its parameters, in
/// order, and one output, the function's result.
template <class R, class... A>
Calculator calculator(R (*f)(A...), std::array<std::string, sizeof...(A)> names, std::string out) {
  return [f, names, out](const Values& v) { return detail::call(f, v, names, out, std::index_sequence_for<A...>{}); };
}

/// The entries written from the doc comments (generated/formula_items.cpp, cmake/formula_items.py).
void register_generated(Registry& r);

}  // namespace impulse::course
