// `impulse run SCENE --animate OUT`: hands the scene to python/impulse/animate.py.
#pragma once

#include <string>

namespace impulse::cli {

/// Checks the arguments (exit 2 via BadInput) and replaces this process by the Python animation
/// writer; returns only by throwing.
int run_animation(const std::string& scene, const std::string& out, const std::string& poster);

}  // namespace impulse::cli
