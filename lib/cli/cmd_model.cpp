// impulse model FILE [--format urdf|mjcf] [--scale S] [--fixed-base] [--density RHO] [--json]
//
// Imports a URDF or MJCF file with lib/e1/importers.h, finalizes the Model and prints what the
// course reads off a Model (E1 §1-§5): bodies with mass and COM, joints with their type and their
// slices of joint_q / joint_qd, and the q/qd sizes. Bad files and bad options exit 2 with one line.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "e1/importers.h"
#include "e1/model.h"

namespace impulse::cli {

namespace {

// Ceilings: the course's robots have tens of links; a file 1000 times larger is a mistake.
constexpr std::uintmax_t kMaxFileBytes = 16u << 20;  // 16 MiB
constexpr int kMaxBodies = 10000;

void print_model_help() {
  std::cout << "impulse model FILE [--format urdf|mjcf] [--scale S] [--fixed-base] [--density RHO] [--json]\n"
               "  Imports a URDF or MJCF file (the subsets of lib/e1/importers.h) and prints the Model:\n"
               "  bodies (mass [kg], COM [m] in body coordinates), joints (type, parent, child, q/qd slices)\n"
               "  and the joint_q / joint_qd sizes (course E1 §4-§5).\n"
               "  --format F     urdf or mjcf (default: from the extension .urdf / .xml / .mjcf)\n"
               "  --scale S      uniform length scale, S in (0, 1000] (E1.4-scaling-laws); default 1\n"
               "  --fixed-base   URDF: attach the root by a FIXED joint instead of FREE\n"
               "  --density RHO  [kg/m^3] for geometry without mass, RHO in (0, 1e6]; default 1000\n"
               "  --json         print JSON\n"
               "  FILE must be at most 16 MiB and give at most 10000 bodies.\n"
               "example:\n  impulse model robot.urdf --fixed-base\n"
               "exit 0 success, 2 bad file or option (one line with the file and line)\n";
}

double option_number(const std::string& name, const std::string& text, double lo, double hi) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') throw BadInput("--" + name + ": '" + text + "' is not a number");
  if (!(x > lo && x <= hi))
    throw BadInput("--" + name + ": " + text + " is outside (" + std::to_string(int(lo)) + ", " + std::to_string(int(hi)) + "]");
  return x;
}

const char* format_of(const std::filesystem::path& p) {
  const std::string ext = p.extension().string();
  if (ext == ".urdf") return "urdf";
  if (ext == ".xml" || ext == ".mjcf") return "mjcf";
  return "";
}

}  // namespace

int cmd_model(const std::vector<std::string>& args) {
  std::string path, format;
  real scale = 1, density = 1000;
  bool fixed_base = false, as_json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw BadInput(a + " needs a value");
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      print_model_help();
      return 0;
    } else if (a == "--json") {
      as_json = true;
    } else if (a == "--fixed-base") {
      fixed_base = true;
    } else if (a == "--format") {
      format = value();
      if (format != "urdf" && format != "mjcf") throw BadInput("--format: '" + format + "' is not urdf or mjcf");
    } else if (a == "--scale") {
      scale = option_number("scale", value(), 0, 1000);
    } else if (a == "--density") {
      density = option_number("density", value(), 0, 1e6);
    } else if (a.size() > 1 && a[0] == '-') {
      throw BadInput("model: unknown option '" + a + "' (see impulse model --help)");
    } else if (!path.empty()) {
      throw BadInput("model takes one FILE, got '" + path + "' and '" + a + "'");
    } else {
      path = a;
    }
  }
  if (path.empty()) throw BadInput("model needs a FILE (.urdf, or .xml/.mjcf for MJCF)");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw BadInput("model: '" + path + "' is not a readable file");
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  if (ec || bytes > kMaxFileBytes)
    throw BadInput("model: '" + path + "' has " + std::to_string(bytes) + " bytes; the limit is 16 MiB");
  if (format.empty()) format = format_of(path);
  if (format.empty()) throw BadInput("model: cannot tell the format of '" + path + "'; give --format urdf or --format mjcf");
  std::ifstream f(path);
  if (!f) throw BadInput("model: cannot read '" + path + "'");
  std::stringstream buf;
  buf << f.rdbuf();

  ModelBuilder builder;
  Model model;
  try {
    if (format == "urdf") {
      UrdfOptions o;
      o.scale = scale;
      o.density = density;
      o.floating = !fixed_base;
      add_urdf(builder, buf.str(), o, path);
    } else {
      MjcfOptions o;
      o.scale = scale;
      o.density = density;
      add_mjcf(builder, buf.str(), o, path);
    }
    if (int(builder.body_mass_properties.size()) > kMaxBodies)
      throw BadInput("model: '" + path + "' gives " + std::to_string(builder.body_mass_properties.size()) +
                     " bodies; the limit is " + std::to_string(kMaxBodies));
    model = builder.finalize();
  } catch (const BadInput&) {
    throw;
  } catch (const std::exception& e) {
    throw BadInput(e.what());
  }

  const auto mass = model.body_mass.to_host();
  const auto com = model.body_com.to_host();
  const auto inertia = model.body_inertia.to_host();
  const auto pose = model.body_q.to_host();
  const auto type = model.joint_type.to_host();
  const auto parent = model.joint_parent.to_host();
  const auto child = model.joint_child.to_host();
  const auto q0 = model.joint_q_start.to_host();
  const auto qd0 = model.joint_qd_start.to_host();
  // The importers refuse bad numbers; a Model that still holds one is refused here, not printed.
  for (int b = 0; b < model.body_count; ++b) {
    bool finite = std::isfinite(mass[b]) && std::isfinite(com[b].x) && std::isfinite(com[b].y) && std::isfinite(com[b].z);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) finite = finite && std::isfinite(inertia[b].m[i][j]);
    const vec3 p = pose[b].p;
    if (!(std::abs(p.x) <= 1e12 && std::abs(p.y) <= 1e12 && std::abs(p.z) <= 1e12))
      throw BadInput(path + ": body '" + model.body_label[b] + "' starts at (" + std::to_string(p.x) + ", " +
                     std::to_string(p.y) + ", " + std::to_string(p.z) + ") m; positions must lie within [-1e12, 1e12] m");
    if (!finite || mass[b] < 0)
      throw BadInput(path + ": body '" + model.body_label[b] + "' has mass " + std::to_string(mass[b]) +
                     " kg, or a non-finite COM or inertia; masses must be finite and >= 0");
  }

  if (as_json) {
    nlohmann::json bodies = nlohmann::json::array(), joints = nlohmann::json::array();
    for (int b = 0; b < model.body_count; ++b)
      bodies.push_back({{"label", model.body_label[b]}, {"mass", mass[b]}, {"com", {com[b].x, com[b].y, com[b].z}}});
    for (int j = 0; j < model.joint_count; ++j)
      joints.push_back({{"label", model.joint_label[j]}, {"type", joint_type_name(JointType(type[j]))},
                        {"parent", parent[j]}, {"child", child[j]}, {"q_start", q0[j]}, {"q_count", q0[j + 1] - q0[j]},
                        {"qd_start", qd0[j]}, {"qd_count", qd0[j + 1] - qd0[j]}});
    std::cout << nlohmann::json{{"file", path},
                                {"format", format},
                                {"body_count", model.body_count},
                                {"joint_count", model.joint_count},
                                {"shape_count", model.shape_count},
                                {"articulation_count", model.articulation_count},
                                {"joint_coord_count", model.joint_coord_count},
                                {"joint_dof_count", model.joint_dof_count},
                                {"bodies", bodies},
                                {"joints", joints}}
                     .dump(2)
              << '\n';
    return 0;
  }
  std::cout << path << " (" << format << "): " << model.body_count << " bodies, " << model.joint_count << " joints, "
            << model.shape_count << " shapes, " << model.articulation_count << " articulation(s)\n"
            << "joint_q: " << model.joint_coord_count << " coordinates, joint_qd: " << model.joint_dof_count
            << " velocities\nbodies (mass [kg], COM in body coordinates [m]):\n";
  for (int b = 0; b < model.body_count; ++b)
    std::cout << "  " << b << "  " << model.body_label[b] << "  " << mass[b] << "  (" << com[b].x << ", " << com[b].y
              << ", " << com[b].z << ")\n";
  std::cout << "joints (type, parent -> child, joint_q slice, joint_qd slice):\n";
  for (int j = 0; j < model.joint_count; ++j)
    std::cout << "  " << j << "  " << model.joint_label[j] << "  " << joint_type_name(JointType(type[j])) << "  "
              << parent[j] << " -> " << child[j] << "  q[" << q0[j] << ":" << q0[j + 1] << "]  qd[" << qd0[j] << ":"
              << qd0[j + 1] << "]\n";
  for (const InertiaCorrection& c : model.corrections)
    std::cout << "correction: body " << c.body << " " << c.field << '\n';
  return 0;
}

}  // namespace impulse::cli
