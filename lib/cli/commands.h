// The subcommands of `impulse` (lib/cli/cmd_*.cpp). Each returns the process exit code and throws
// BadInput (exit 2, one line) for bad input.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace impulse::cli {

struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

int cmd_formulas(const std::string& chapter, bool json);
int cmd_calc(const std::vector<std::string>& args);
int cmd_exercises_list(const std::string& chapter, bool json);
int cmd_exercises_show(const std::string& id, bool json);
int cmd_exercises_check(const std::vector<std::string>& args);
int cmd_exercises_variant(const std::vector<std::string>& args);  // cmd_grading.cpp
int cmd_exercises_grade(const std::vector<std::string>& args);    // cmd_grading.cpp
int cmd_exercises_sheet(const std::vector<std::string>& args);    // cmd_grading.cpp
int cmd_scenes(bool json);
int cmd_run(const std::vector<std::string>& args);
int cmd_bench(const std::vector<std::string>& args);
int cmd_verify(const std::string& chapter, bool json);
int cmd_lcp(const std::vector<std::string>& args);
int cmd_model(const std::vector<std::string>& args);

}  // namespace impulse::cli
