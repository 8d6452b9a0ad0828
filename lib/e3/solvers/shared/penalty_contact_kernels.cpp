// Launch site of eval_body_contact over a Contacts record (course E3 §6).
#include "e3/solvers/shared/penalty_contact_kernels.h"
#include "e3/contacts/contact_row.h"
#include "e3/contacts/contact_materials.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "core/parallel_for.h"
#include "e1/integrator.h"
#include "e3/solvers/shared/body_wrench_sum.h"
#include "e3/solvers/shared/penalty_contact.h"

namespace impulse {

void apply_penalty_contacts(const Model& m, View<const transform> body_q, View<const spatial_vector> body_qd,
                            const ContactsView& c, real delta, View<spatial_vector> on_A,
                            View<spatial_vector> on_B, View<spatial_vector> wrench) {
  const std::int64_t cmax = c.rigid_contact_max;
  if (on_A.size < cmax || on_B.size < cmax)
    throw std::invalid_argument("apply_penalty_contacts: scratch arrays smaller than rigid_contact_max");
  // The body of each side of every record, grouped by body on the host (entry = 2 * contact + side),
  // so that each body sums its own contributions in contact order: O(bodies + contacts).
  const int count = checked_contact_count(c, m, "apply_penalty_contacts");
  check_contact_material_path(c, SolverPath::semi_implicit, SolverPath::featherstone, "apply_penalty_contacts");
  std::vector<int> s0(std::size_t(count), 0), s1(std::size_t(count), 0);
  if (count > 0) {
    device_copy(s0.data(), Device::cpu, c.rigid_contact_shape0.data, m.device, sizeof(int) * std::size_t(count));
    device_copy(s1.data(), Device::cpu, c.rigid_contact_shape1.data, m.device, sizeof(int) * std::size_t(count));
  }
  const std::vector<int> shape_body_h = m.shape_body.to_host();
  std::vector<int> sides(2 * std::size_t(count));
  for (int i = 0; i < count; ++i) {
    for (int k = 0; k < 2; ++k) {
      const int shape = k ? s1[i] : s0[i];
      if (shape < 0 || shape >= int(shape_body_h.size()))
        throw std::invalid_argument("apply_penalty_contacts: contact " + std::to_string(i) + " names shape " +
                                    std::to_string(shape) + ", outside [0, " + std::to_string(shape_body_h.size()) + ")");
      sides[2 * std::size_t(i) + k] = shape_body_h[shape];
    }
  }

  auto shape_body = m.shape_body.view();
  auto com = m.body_com.view();
  ContactsView cv = c;
  parallel_for(m.device, count, IMPULSE_LAMBDA(std::int64_t i) {
    const ContactRowBodies rb = contact_row_bodies(shape_body, cv.rigid_contact_shape0[i], cv.rigid_contact_shape1[i]);
    const int a = rb.body0, b = rb.body1;
    transform X_A = a >= 0 ? body_q[a] : transform_identity();
    transform X_B = b >= 0 ? body_q[b] : transform_identity();
    spatial_vector V_A = a >= 0 ? body_qd[a] : spatial_vector{};
    spatial_vector V_B = b >= 0 ? body_qd[b] : spatial_vector{};
    vec3 c_A = a >= 0 ? world_com(X_A, com[a]) : vec3{};
    vec3 c_B = b >= 0 ? world_com(X_B, com[b]) : vec3{};
    PenaltyMaterial mat{cv.rigid_contact_ke[i], cv.rigid_contact_kd[i], cv.rigid_contact_kf[i], cv.rigid_contact_ka[i],
                        cv.rigid_contact_mu[i]};
    PenaltyContactWrench w = eval_body_contact(X_A, c_A, V_A, X_B, c_B, V_B, cv.rigid_contact_point0[i],
                                               cv.rigid_contact_point1[i], cv.rigid_contact_normal[i],
                                               cv.rigid_contact_margin0[i], cv.rigid_contact_margin1[i], mat, delta);
    on_A[i] = w.on_A;
    on_B[i] = w.on_B;
  });
  add_two_sided_wrenches(m.device, m.body_count, sides, on_A, on_B, wrench);
}

}  // namespace impulse
