// A generalised-coordinate integrator: the state contract of SolverMuJoCo / Featherstone in its
// smallest honest form (course E1 §5, §8). Its authoritative state is joint_q / joint_qd: step
// advances q by q_{n+1} = q_n + h N(q_n) qd_n at constant joint velocity (no dynamics, no forces),
// then eval_fk writes the body fields. Its reset puts the selected joints back to the Model's
// initial values, as SolverMuJoCo's override does.
#pragma once

#include <vector>

#include "e1/model.h"

namespace impulse {

class SolverJointIntegrator {
 public:
  /// The Model must outlive the solver.
  explicit SolverJointIntegrator(const Model& model) : model_(&model) {}
  /// state_out.joint_q/qd from state_in.joint_q/qd; state_out.body_q/qd by eval_fk. state_in.body_q
  /// is not read: editing only body poses does not move a generalised-coordinate solver.
  void step(const State& state_in, State& state_out, const Control& control, real dt);
  /// @formula E1.8-mujoco-reset  Reset of a generalised-coordinate backend (course E1 §8): the
  /// selected joints (all when mask is empty; mask[j] != 0 selects joint j) get the Model's
  /// initial joint_q / joint_qd back, then eval_fk refreshes the bodies. Whatever snapshot was
  /// restored into those joints is overwritten.
  void reset(State& state, const std::vector<int>& mask = {}) const;

 private:
  const Model* model_;
};

}  // namespace impulse
