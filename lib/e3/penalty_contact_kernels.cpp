// Launch site of eval_body_contact over a Contacts record (course E3 §6).
#include "e3/penalty_contact_kernels.h"

#include <stdexcept>

#include "core/parallel_for.h"
#include "e1/integrator.h"
#include "e3/penalty_contact.h"

namespace impulse {

void apply_penalty_contacts(const Model& m, View<const transform> body_q, View<const spatial_vector> body_qd,
                            const PenaltyContactsView& c, real delta, View<spatial_vector> on_A,
                            View<spatial_vector> on_B, View<spatial_vector> wrench) {
  const std::int64_t cmax = c.rigid_contact_max();
  if (on_A.size < cmax || on_B.size < cmax)
    throw std::invalid_argument("apply_penalty_contacts: scratch arrays smaller than rigid_contact_max");
  auto shape_body = m.shape_body.view();
  auto com = m.body_com.view();
  PenaltyContactsView cv = c;
  parallel_for(m.device, cmax, IMPULSE_LAMBDA(std::int64_t i) {
    on_A[i] = spatial_vector{};
    on_B[i] = spatial_vector{};
    if (i >= cv.rigid_contact_count[0]) return;
    int a = shape_body[cv.rigid_contact_shape0[i]], b = shape_body[cv.rigid_contact_shape1[i]];
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
                                               cv.rigid_contact_thickness0[i], cv.rigid_contact_thickness1[i], mat, delta);
    on_A[i] = w.on_A;
    on_B[i] = w.on_B;
  });
  parallel_for(m.device, m.body_count, IMPULSE_LAMBDA(std::int64_t b) {
    spatial_vector acc = wrench[b];
    const int n = cv.rigid_contact_count[0];
    for (int i = 0; i < n; ++i) {
      if (shape_body[cv.rigid_contact_shape0[i]] == b) {
        acc.lin += on_A[i].lin;
        acc.ang += on_A[i].ang;
      }
      if (shape_body[cv.rigid_contact_shape1[i]] == b) {
        acc.lin += on_B[i].lin;
        acc.ang += on_B[i].ang;
      }
    }
    wrench[b] = acc;
  });
}

}  // namespace impulse
