// Launch site of eval_body_contact over a Contacts record (course E3 §6).
#include "e3/solvers/shared/penalty_contact_kernels.h"
#include "e3/contacts/contact_row.h"
#include "e3/contacts/contact_materials.h"

#include <stdexcept>
#include <string>

#include "core/buffer_grow.h"
#include "core/parallel_for.h"
#include "core/segments_device.h"
#include "e1/integrator.h"
#include "e3/solvers/shared/body_wrench_sum.h"
#include "e3/solvers/shared/penalty_contact.h"

namespace impulse {

void apply_penalty_contacts(const Model& m, View<const transform> body_q, View<const spatial_vector> body_qd,
                            const ContactsView& c, real delta, PenaltyContactScratch& scratch,
                            View<spatial_vector> wrench, int extra) {
  if (c.model != &m)
    throw std::invalid_argument("apply_penalty_contacts: the contact record was made for another Model (a foreign record)");
  check_contact_material_path(c, SolverPath::semi_implicit, SolverPath::featherstone, "apply_penalty_contacts");
  scratch.record.launch(c, m.shape_count, extra);
  const std::int64_t n = record_launch_extent(c);
  const Device d = m.device;
  grow_to(scratch.on_A, d, c.rigid_contact_max);
  grow_to(scratch.on_B, d, c.rigid_contact_max);
  grow_to(scratch.sides, d, 2 * std::int64_t(c.rigid_contact_max));
  grow_to(scratch.entry, d, 2 * std::int64_t(c.rigid_contact_max));
  grow_to(scratch.start, d, std::int64_t(m.body_count) + 1);
  grow_to(scratch.fill, d, m.body_count);
  View<spatial_vector> on_A = scratch.on_A.view(), on_B = scratch.on_B.view();
  View<int> sides{scratch.sides.data(), 2 * n};
  auto shape_body = m.shape_body.view();
  auto com = m.body_com.view();
  ContactsView cv = c;
  const std::int64_t cap = c.rigid_contact_max, S = m.shape_count;
  // The body of each side of every row (entry = 2 * contact + side), grouped by body below, so that
  // each body sums its own contributions in contact order. Rows past the count, every row of an
  // overflowed record and a row naming a shape outside the Model add nothing (the readback refuses
  // the last two).
  parallel_for(d, n, IMPULSE_KERNEL((std::int64_t i), {
    const int rows = (cv.rigid_contact_count[0] >= 0 && cv.rigid_contact_count[0] <= cap) ? cv.rigid_contact_count[0] : 0;
    if (i >= rows || !contact_row_shapes_valid(cv.rigid_contact_shape0[i], cv.rigid_contact_shape1[i], S)) {
      sides[2 * i] = -1;
      sides[2 * i + 1] = -1;
      on_A[i] = spatial_vector{};
      on_B[i] = spatial_vector{};
      return;
    }
    const ContactRowBodies rb = contact_row_bodies(shape_body, cv.rigid_contact_shape0[i], cv.rigid_contact_shape1[i]);
    sides[2 * i] = rb.body0;
    sides[2 * i + 1] = rb.body1;
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
  }));
  build_segments_on(d, m.body_count, View<const int>(sides), scratch.start.view(), scratch.entry.view(),
                    scratch.fill.view());
  add_two_sided_wrenches_on(d, m.body_count, scratch.start.view(), scratch.entry.view(), on_A, on_B, wrench);
}

int read_penalty_contacts_check(const Model& m, const ContactsView& c, PenaltyContactScratch& scratch) {
  return scratch.record.read(c, m.shape_count, "apply_penalty_contacts");
}

}  // namespace impulse
