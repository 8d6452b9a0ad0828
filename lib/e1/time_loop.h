// The caller's time loop: frames, substeps, control hold, clear_forces and double buffering
// (course E1 §7). The engine has no clock; the caller advances t by h after every step.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "e1/model.h"

namespace impulse {

/// @formula E1.7-substep  Step size of one substep (course E1 §7).
///   h = H / N        H [s] frame duration, N substeps; one frame advances N h = H.
inline real substep_dt(real H, int N) {
  if (!(H > 0)) throw std::invalid_argument("frame duration H must be positive (got " + std::to_string(H) + " s)");
  if (N < 1) throw std::invalid_argument("substeps N must be >= 1 (got " + std::to_string(N) + ")");
  return H / N;
}

/// When the caller writes Control: once per frame (a zero-order hold at the frame rate) or before
/// every substep (a controller at the substep rate: a different discrete system).
enum class ControlHold { per_frame, per_substep };

struct FrameConfig {
  real frame_dt = real(1) / 60;  // H [s]
  int substeps = 4;              // N
  ControlHold hold = ControlHold::per_frame;
};

/// Optional record of the loop's calls, in order (for the loop-order rule and for the book).
struct LoopTrace {
  std::vector<std::string> events;
  int control_updates = 0;
  int steps = 0;
};

/// @formula E1.7-xpbd-loop-order  One frame of the caller's loop (course E1 §7), per substep:
///   clear_forces(state_0) -> apply_forces(state_0, t) -> solver.step(state_0, state_1, control, h)
///   -> swap(state_0, state_1) -> t += h
/// update_control(control, t) runs once per frame or before every substep (hold). The swap
/// exchanges the two pointers (handles): no data is copied, so a View kept from a State is an
/// alias of whatever that buffer holds later, never a snapshot (use State::assign).
/// E1 has no collision step; E3 inserts collide(state_0, contacts) before solver.step.
template <class Solver, class ApplyForces, class UpdateControl>
void simulate_frame(Solver& solver, State*& state_0, State*& state_1, Control& control, const FrameConfig& cfg, real& t,
                    ApplyForces apply_forces, UpdateControl update_control, LoopTrace* trace = nullptr) {
  const real h = substep_dt(cfg.frame_dt, cfg.substeps);
  auto note = [&](const char* e) {
    if (trace) trace->events.push_back(e);
  };
  if (cfg.hold == ControlHold::per_frame) {
    update_control(control, t);
    note("update_control");
    if (trace) ++trace->control_updates;
  }
  for (int i = 0; i < cfg.substeps; ++i) {
    state_0->clear_forces();
    note("clear_forces");
    if (cfg.hold == ControlHold::per_substep) {
      update_control(control, t);
      note("update_control");
      if (trace) ++trace->control_updates;
    }
    apply_forces(*state_0, t);
    note("apply_forces");
    solver.step(*state_0, *state_1, control, h);
    note("step");
    if (trace) ++trace->steps;
    std::swap(state_0, state_1);
    note("swap");
    t += h;
    note("advance_time");
  }
}

}  // namespace impulse
