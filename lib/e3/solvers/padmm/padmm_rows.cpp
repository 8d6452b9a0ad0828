// Host forms of the row formulas of padmm_rows.h: a joint's rows appended to a vector (declared in
// solver_padmm.h, where the course registry finds it), and W assembled entry by entry from
// delassus_entry (what SolverPADMM's island items run).
#include "e3/solvers/padmm/padmm_rows.h"
#include "e3/solvers/padmm/solver_padmm.h"

#include <stdexcept>
#include <string>

namespace impulse {

void append_joint_rows(int joint, JointType type, int body0, int body1, const transform& Xp, const transform& Xc,
                       vec3 c_p, vec3 c_c, const JointAxes& axes, std::vector<PADMMJointRow>& out) {
  if (type == JointType::free) return;
  if (!maximal_joint_supported(type) || joint_row_count(type) == 0)
    throw std::invalid_argument("SolverPADMM: joint " + std::to_string(joint) + " has type " + joint_type_name(type) +
                                "; supported: FREE, BALL, REVOLUTE, PRISMATIC, FIXED");
  const std::size_t at = out.size();
  out.resize(at + std::size_t(joint_row_count(type)));
  write_joint_rows(joint, type, body0, body1, Xp, Xc, c_p, c_c, axes, &out[at]);
}

MatrixXr assemble_delassus(const std::vector<PADMMContactRow>& rows, const std::vector<PADMMBodyInverse>& bodies) {
  return assemble_delassus({}, rows, bodies);
}

MatrixXr assemble_delassus(const std::vector<PADMMJointRow>& joints, const std::vector<PADMMContactRow>& rows,
                           const std::vector<PADMMBodyInverse>& bodies) {
  const int nj = int(joints.size()), n = nj + 3 * int(rows.size()), nb = int(bodies.size());
  std::vector<PADMMScalarRow> scalar;
  for (const PADMMJointRow& r : joints) scalar.push_back(joint_scalar_row(r));
  for (const PADMMContactRow& r : rows)
    for (int a = 0; a < 3; ++a) scalar.push_back(contact_scalar_row(r, a));
  for (int i = 0; i < n; ++i)
    for (int k : {scalar[i].body0, scalar[i].body1})
      if (k >= nb)
        throw std::invalid_argument("assemble_delassus: row " + std::to_string(i) + " names body " + std::to_string(k) +
                                    " of " + std::to_string(nb));
  MatrixXr W(n, n);
  for (int a = 0; a < n; ++a)
    for (int c = 0; c < n; ++c) W(a, c) = delassus_entry(scalar[a], scalar[c], bodies.data());
  return W;
}

}  // namespace impulse
