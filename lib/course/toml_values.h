// Reading the course's TOML data files (exercises, golden values) with toml++.
#pragma once

#include <string>
#include <vector>

#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>

#include "course/registry.h"

namespace impulse::course {

/// Parses a document; throws std::runtime_error "file:line:col: message" on a syntax error.
toml::table parse_toml(const std::string& text, const std::string& file);

/// A number or an array of numbers as a vector of doubles; throws std::runtime_error naming the
/// key and the line when it is neither.
std::vector<double> toml_numbers(const toml::node& n, const std::string& key, const std::string& file);

/// { name = number | [numbers] ... } as Values.
Values toml_values(const toml::node* n, const std::string& key, const std::string& file);

std::string toml_string(const toml::table& t, const std::string& key, const std::string& file, bool required = true);

/// "file:line" of a node, for error messages.
std::string where(const toml::node& n, const std::string& file);

}  // namespace impulse::course
