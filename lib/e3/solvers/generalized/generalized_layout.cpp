// The per-articulation layout of the generalized-coordinate dynamics: host code, run once.
#include "e3/solvers/generalized/generalized_layout.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace impulse {

GeneralizedLayout generalized_layout(const Model& m, const char* who) {
  const std::string w(who);
  auto type = m.joint_type.to_host();
  auto child = m.joint_child.to_host();
  auto qd_start = m.joint_qd_start.to_host();
  auto art = m.articulation_start.to_host();
  auto joint_art = m.joint_articulation.to_host();
  for (int j = 0; j < m.joint_count; ++j) {
    JointType t = JointType(type[j]);
    std::string name = "joint " + std::to_string(j) + " (" + joint_type_name(t) + ")";
    if (t == JointType::distance || t == JointType::d6)
      throw std::invalid_argument(w + ": " + name +
                                  " is not supported (a DISTANCE joint is a loop-closing constraint; D6 is not implemented here)");
    if (joint_art[j] < 0) throw std::invalid_argument(w + ": " + name + " belongs to no articulation");
  }
  GeneralizedLayout L;
  const int nb = m.body_count;
  L.body_dof_begin.assign(nb, 0);
  L.body_dof_end.assign(nb, 0);
  L.body_art.assign(nb, -1);
  L.body_row.assign(nb, 0);
  for (int a = 0; a + 1 < int(art.size()); ++a) {
    const int d0 = art[a] < art[a + 1] ? qd_start[art[a]] : 0;
    const int d1 = art[a] < art[a + 1] ? qd_start[art[a + 1]] : 0;
    L.art_joint_begin.push_back(art[a]);
    L.art_joint_end.push_back(art[a + 1]);
    L.art_dof_begin.push_back(d0);
    L.art_dof_end.push_back(d1);
    for (int j = art[a]; j < art[a + 1]; ++j) {
      L.body_dof_begin[child[j]] = d0;
      L.body_dof_end[child[j]] = d1;
      L.body_art[child[j]] = a;
      L.body_row[child[j]] = 6 * (j - art[a]);
    }
    L.max_art_dof = std::max(L.max_art_dof, d1 - d0);
  }
  auto flags = m.body_flags.to_host();
  auto mass = m.body_mass.to_host();
  for (int b = 0; b < nb; ++b)
    if (L.body_art[b] < 0 && mass[b] > 0 && !(flags[b] & int(BodyFlag::kinematic)))
      throw std::invalid_argument(w + ": body " + std::to_string(b) +
                                  " is moved by no joint; generalized coordinates cannot move it");
  return L;
}

std::vector<real> checked_armature(std::vector<real> armature, int dof_count, const char* who) {
  if (armature.empty()) armature.assign(dof_count, 0);
  if (int(armature.size()) != dof_count)
    throw std::invalid_argument(std::string(who) + ": armature has " + std::to_string(armature.size()) +
                                " entries, the model has " + std::to_string(dof_count) + " DOF");
  for (real a : armature)
    if (!(a >= 0)) throw std::invalid_argument(std::string(who) + ": armature must be >= 0");
  return armature;
}

std::string not_spd_message(int articulation) {
  return std::string("SolverFeatherstone: the joint-space mass matrix H") +
         (articulation >= 0 ? " of articulation " + std::to_string(articulation) : "") +
         " is not symmetric positive definite (a massless link? add armature explicitly if that is intended)";
}

}  // namespace impulse
