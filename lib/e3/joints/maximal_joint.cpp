#include "e3/joints/maximal_joint.h"

#include <stdexcept>
#include <string>

namespace impulse {

void require_maximal_joints(const Model& model, const char* solver) {
  const std::vector<int> type = model.joint_type.to_host();
  for (int j = 0; j < model.joint_count; ++j) {
    if (maximal_joint_supported(JointType(type[j]))) continue;
    const bool labelled = j < int(model.joint_label.size()) && !model.joint_label[j].empty();
    throw std::invalid_argument(std::string(solver) + ": joint " + std::to_string(j) +
                                (labelled ? " (" + model.joint_label[j] + ")" : "") + " has type " +
                                joint_type_name(JointType(type[j])) +
                                "; supported: REVOLUTE, BALL, FIXED, PRISMATIC and FREE");
  }
}

}  // namespace impulse
