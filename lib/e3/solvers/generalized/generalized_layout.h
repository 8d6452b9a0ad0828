// The per-articulation layout of the generalized-coordinate dynamics (course E3 §6), built once on
// the host from a Model: which joints and DOF each articulation owns, where each body's six rows
// sit in its articulation's Jacobian, and the checks that reject a model the Featherstone
// dynamics cannot handle. GeneralizedDynamics (the host reference) and SolverFeatherstone (the
// device passes) both read it, so both accept exactly the same models.
#pragma once

#include <string>
#include <vector>

#include "core/math.h"
#include "e1/model.h"

namespace impulse {

/// Articulation a owns joints [art_joint_begin[a], art_joint_end[a]) (parents first, finalize's
/// order) and DOF [art_dof_begin[a], art_dof_end[a]). Body b is the child of a joint of
/// articulation body_art[b] (-1: moved by no joint), its rows in J_a are body_row[b] .. +5 and its
/// Jacobian is zero outside DOF [body_dof_begin[b], body_dof_end[b]).
struct GeneralizedLayout {
  std::vector<int> art_joint_begin, art_joint_end, art_dof_begin, art_dof_end;
  std::vector<int> body_dof_begin, body_dof_end, body_art, body_row;
  int max_art_dof = 0;
};

/// Builds the layout. Throws std::invalid_argument naming the joint or body it cannot handle (a
/// DISTANCE/D6 joint, a joint outside every articulation, a dynamic body moved by no joint).
/// `who` opens the message ("generalized dynamics").
GeneralizedLayout generalized_layout(const Model& model, const char* who);

/// The armature [kg or kg m^2 per DOF]: empty gives zeros; otherwise one value >= 0 per DOF, else
/// std::invalid_argument naming the length or the value.
std::vector<real> checked_armature(std::vector<real> armature, int dof_count, const char* who);

/// The error of a joint-space mass matrix that is not symmetric positive definite: "SolverFeatherstone:
/// the joint-space mass matrix H of articulation a is not ..." (articulation < 0: no articulation named).
std::string not_spd_message(int articulation);

}  // namespace impulse
