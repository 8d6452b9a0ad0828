#include "course/registry.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "course/formula_call.h"

namespace impulse::course {

void Registry::add(Item item) {
  if (find(item.id)) throw std::logic_error("course registry: duplicate ID " + item.id);
  for (Quantity& q : item.inputs)
    if (!q.domain) q.domain = default_domain(item.id, q);
  items_.push_back(std::move(item));
}

namespace {

// Reading order: chapter E1, E3, ST, then the section number ("E3 §10 ex. 7" -> 10).
std::pair<int, int> reading_position(const Item& it) {
  const std::string ch = chapter_of(it.id);
  const int c = ch == "E1" ? 0 : ch == "E3" ? 1 : 2;
  const auto at = it.section.find("§");
  int s = 1 << 20;
  if (at != std::string::npos) {
    std::size_t k = at + std::string("§").size(), end = k;
    while (end < it.section.size() && std::isdigit(static_cast<unsigned char>(it.section[end]))) ++end;
    if (end > k) s = std::stoi(it.section.substr(k, end - k));
  }
  return {c, s};
}

}  // namespace

void Registry::sort_by_section() {
  std::stable_sort(items_.begin(), items_.end(),
                   [](const Item& a, const Item& b) { return reading_position(a) < reading_position(b); });
}

const Item* Registry::find(const std::string& id) const {
  for (const Item& i : items_)
    if (i.id == id) return &i;
  return nullptr;
}

const Registry& registry() {
  static const Registry r = [] {
    Registry reg;
    register_e1(reg);
    register_e3(reg);
    register_e3_solver(reg);
    register_e3_other_solvers(reg);
    register_st(reg);
    register_generated(reg);
    reg.sort_by_section();
    return reg;
  }();
  return r;
}

std::string chapter_of(const std::string& id) { return id.substr(0, id.find('.')); }

Values evaluate(const Item& item, const Values& inputs) {
  if (!item.calc) throw std::invalid_argument(item.id + " has no calculator (it is a " + item.kind + ")");
  for (const auto& [name, value] : inputs) {
    const Quantity* q = nullptr;
    for (const Quantity& in : item.inputs)
      if (in.name == name) q = &in;
    if (!q) throw std::invalid_argument("unknown input --" + name + " for " + item.id);
    if (q->dim == 0 ? value.empty() : static_cast<int>(value.size()) != q->dim) {
      std::string takes = q->dim == 0   ? "one or more comma-separated numbers"
                          : q->dim == 1 ? "1 number"
                                        : std::to_string(q->dim) + " comma-separated numbers";
      throw std::invalid_argument("input --" + name + " of " + item.id + " takes " + takes + ", got " +
                                  std::to_string(value.size()));
    }
    const Domain d = q->domain.value_or(any_real());
    const std::string why = d.violation(value);
    if (!why.empty())
      throw std::invalid_argument("input --" + name + " [" + q->unit + "] of " + item.id + ": " + why + "; allowed: " +
                                  d.describe(q->dim));
  }
  for (const Quantity& in : item.inputs)
    if (!inputs.count(in.name)) throw std::invalid_argument("missing input --" + in.name + " [" + in.unit + "] for " + item.id);
  Values out = item.calc(inputs);
  // Inputs inside their domains can still combine into a result outside double range (or 0/0).
  for (const auto& [name, value] : out)
    for (double x : value)
      if (!std::isfinite(x))
        throw std::invalid_argument(item.id + ": output " + name + " is not finite for these inputs (they overflow "
                                    "or divide by zero; reduce their magnitudes)");
  return out;
}

double scalar(const Values& v, const std::string& name) { return v.at(name).at(0); }
vec3 vector3(const Values& v, const std::string& name) {
  const auto& a = v.at(name);
  return {a.at(0), a.at(1), a.at(2)};
}
quat quaternion(const Values& v, const std::string& name) {
  const auto& a = v.at(name);
  return {a.at(0), a.at(1), a.at(2), a.at(3)};
}
std::vector<double> as_values(vec3 v) { return {v.x, v.y, v.z}; }
std::vector<double> as_values(quat q) { return {q.x, q.y, q.z, q.w}; }

}  // namespace impulse::course
