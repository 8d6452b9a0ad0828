// Launch site of the penalty joints of SolverSemiImplicit (course E3 §6).
#pragma once

#include "e1/model.h"

namespace impulse {

/// Adds the penalty wrench (eval_body_joint, lib/e3/joints/maximal_joint.h) of every REVOLUTE, BALL,
/// FIXED and PRISMATIC joint to wrench[b] (world, about the COM) of its parent and child, from the
/// given poses and twists. Per-joint wrenches go to the scratch arrays (joint_count each), then each
/// body sums its contributions in joint order (bitwise deterministic, O(bodies + joints)).
/// joint_f: control.joint_f (joint_dof_count) or empty; ke [N/m], kd [N s/m].
void apply_penalty_joints(const Model& model, View<const transform> body_q, View<const spatial_vector> body_qd,
                          View<const real> joint_f, real ke, real kd, View<spatial_vector> scratch_parent,
                          View<spatial_vector> scratch_child, View<spatial_vector> wrench);

}  // namespace impulse
