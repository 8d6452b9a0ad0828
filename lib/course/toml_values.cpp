#include "course/toml_values.h"

#include <sstream>
#include <stdexcept>

#include "core/text.h"

namespace impulse::course {

std::string where(const toml::node& n, const std::string& file) {
  return file + ":" + std::to_string(n.source().begin.line);
}

toml::table parse_toml(const std::string& text, const std::string& file) {
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    std::ostringstream s;
    s << file << ':' << e.source().begin.line << ':' << e.source().begin.column << ": " << e.description();
    throw std::runtime_error(one_line(s.str()));
  }
}

std::vector<double> toml_numbers(const toml::node& n, const std::string& key, const std::string& file) {
  if (auto v = n.value<double>()) return {*v};
  std::vector<double> out;
  if (const toml::array* a = n.as_array()) {
    for (const toml::node& e : *a) {
      auto v = e.value<double>();
      if (!v) throw std::runtime_error(one_line(where(e, file) + ": '" + key + "' must hold numbers only"));
      out.push_back(*v);
    }
    return out;
  }
  throw std::runtime_error(one_line(where(n, file) + ": '" + key + "' must be a number or an array of numbers"));
}

Values toml_values(const toml::node* n, const std::string& key, const std::string& file) {
  Values out;
  if (!n) return out;
  const toml::table* t = n->as_table();
  if (!t) throw std::runtime_error(one_line(where(*n, file) + ": '" + key + "' must be a table"));
  for (const auto& [k, v] : *t) out[std::string(k.str())] = toml_numbers(v, key + "." + std::string(k.str()), file);
  return out;
}

std::string toml_string(const toml::table& t, const std::string& key, const std::string& file, bool required) {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) throw std::runtime_error(one_line(file + ": missing key '" + key + "'"));
    return "";
  }
  auto s = n->value<std::string>();
  if (!s) throw std::runtime_error(one_line(where(*n, file) + ": '" + key + "' must be a string"));
  return *s;
}

}  // namespace impulse::course
