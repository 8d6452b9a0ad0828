// The `impulse` command: the course registry, exercises, scenes, benchmarks and verification.
//
// Exit codes: 0 success, 1 a wrong answer or a failed check, 2 bad input (one line naming it).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/device.h"

namespace {

using impulse::cli::BadInput;

// The words CLI11 would otherwise read as a missing subcommand: name them and list the valid ones.
void check_subcommand_word(const CLI::App& app, int argc, char** argv, int at) {
  if (at >= argc) return;
  const std::string word = argv[at];
  if (word.empty() || word[0] == '-') return;
  std::string valid;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name() == word) return;
    valid += (valid.empty() ? "" : ", ") + sub->get_name();
  }
  throw BadInput("unknown subcommand '" + word + "' of '" + app.get_name() + "'; valid: " + valid);
}

int run(int argc, char** argv) {
  CLI::App app{"impulse: the rigid-body contact engine of the Newton/Stewart-Trinkle course, and its checker"};
  app.name("impulse");
  app.require_subcommand(1);
  app.footer("Each subcommand takes --help (or -h). Exit codes: 0 success, 1 a wrong answer or a failed check,\n"
             "2 bad input (one line naming the argument, its value and the allowed range).\n"
             "example: impulse calc E1.6-torque-example --f 0,10,0 --P 0.2,0,0 --C 0,0,0");
  app.set_version_flag("--version", std::string("impulse 0.1 (") + impulse::backend_summary() + ")");

  std::string chapter;
  bool json = false;

  auto* formulas = app.add_subcommand("formulas", "list every registered course item: ID  kind  status  title");
  formulas->add_option("--chapter", chapter, "E1, E3 or ST")->check(CLI::IsMember({"E1", "E3", "ST"}));
  formulas->add_flag("--json", json, "print JSON");
  formulas->footer("example: impulse formulas --chapter E3");

  auto* calc = app.add_subcommand("calc", "evaluate a formula: calc ID --<input> VALUE ... [--json]; calc ID --help");
  calc->prefix_command();
  calc->set_help_flag();

  auto* ex = app.add_subcommand("exercises", "course exercises: list | show ID | check ID ANSWER... | check --file F | variant | sheet | grade");
  ex->require_subcommand(1);
  auto* ex_list = ex->add_subcommand("list", "list the exercises");
  ex_list->add_option("--chapter", chapter, "E1, E3 or ST")->check(CLI::IsMember({"E1", "E3", "ST"}));
  ex_list->add_flag("--json", json, "print JSON");
  ex_list->footer("example: impulse exercises list --chapter E1");
  std::string ex_id;
  auto* ex_show = ex->add_subcommand("show", "print an exercise's question and what an answer looks like");
  ex_show->add_option("id", ex_id, "exercise ID")->required();
  ex_show->add_flag("--json", json, "print JSON");
  ex_show->footer("example: impulse exercises show E1.11-ex3");
  ex->footer("examples: impulse exercises show E1.11-ex3; impulse exercises check E1.11-ex3 0 -0.2 0");
  auto* ex_check = ex->add_subcommand("check", "grade an answer: check ID VALUE... or check --file answers.toml");
  ex_check->prefix_command();
  ex_check->set_help_flag();
  auto* ex_variant = ex->add_subcommand("variant", "one student's numbers: variant ID --seed S [--key]");
  ex_variant->prefix_command();
  ex_variant->set_help_flag();
  auto* ex_grade = ex->add_subcommand("grade", "grade a class: grade DIR [--json] [--gradescope PATH] [--html PATH]");
  ex_grade->prefix_command();
  ex_grade->set_help_flag();
  auto* ex_sheet = ex->add_subcommand("sheet", "one student's sheet: sheet --seed S --out DIR [--exercises ID,...]");
  ex_sheet->prefix_command();
  ex_sheet->set_help_flag();

  auto* scenes = app.add_subcommand("scenes", "list the scenes and their options");
  scenes->add_flag("--json", json, "print JSON");
  scenes->footer("each scene's options, with units, defaults and ranges: impulse run SCENE --help\n"
                 "example: impulse scenes --json");

  auto* run_cmd = app.add_subcommand("run", "run a scene and write its CSV files: run SCENE [--out DIR] [--<option> V]...");
  run_cmd->prefix_command();
  run_cmd->set_help_flag();
  auto* bench = app.add_subcommand("bench", "measure a scene: bench SCENE [--<option> V]... [--json]");
  bench->prefix_command();
  bench->set_help_flag();

  auto* verify = app.add_subcommand("verify", "recompute every value the course or the paper prints; PASS/FAIL per ID");
  verify->add_option("--chapter", chapter, "E1, E3 or ST")->check(CLI::IsMember({"E1", "E3", "ST"}));
  verify->add_flag("--json", json, "print JSON");
  verify->footer("Per value: the course chapter and section with a short quote, printed or derived, the inputs,\n"
                 "computed and expected values with units, and the tolerance. Exit 1 when one fails.\n"
                 "example: impulse verify --chapter E1");

  auto* lcp = app.add_subcommand(
      "lcp", "solve an LCP from a file: lcp FILE|- [--json]; write a contact LCP set: lcp --write-set SET --out DIR");
  lcp->prefix_command();
  lcp->set_help_flag();

  auto* model = app.add_subcommand("model", "import a URDF or MJCF file and print its Model: model FILE [--scale S] ...");
  model->prefix_command();
  model->set_help_flag();

  check_subcommand_word(app, argc, argv, 1);
  if (argc > 1 && std::string(argv[1]) == "exercises") check_subcommand_word(*ex, argc, argv, 2);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    if (msg.empty()) msg = e.get_name();
    throw BadInput(msg);
  }

  using namespace impulse::cli;
  if (*formulas) return cmd_formulas(chapter, json);
  if (*calc) return cmd_calc(calc->remaining());
  if (*ex_list) return cmd_exercises_list(chapter, json);
  if (*ex_show) return cmd_exercises_show(ex_id, json);
  if (*ex_check) return cmd_exercises_check(ex_check->remaining());
  if (*ex_variant) return cmd_exercises_variant(ex_variant->remaining());
  if (*ex_grade) return cmd_exercises_grade(ex_grade->remaining());
  if (*ex_sheet) return cmd_exercises_sheet(ex_sheet->remaining());
  if (*scenes) return cmd_scenes(json);
  if (*run_cmd) return cmd_run(run_cmd->remaining());
  if (*bench) return cmd_bench(bench->remaining());
  if (*verify) return cmd_verify(chapter, json);
  if (*lcp) return cmd_lcp(lcp->remaining());
  if (*model) return cmd_model(model->remaining());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const BadInput& e) {
    std::fprintf(stderr, "impulse: error: %s\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "impulse: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "impulse: error: %s\n", e.what());
    return 2;
  }
}
