// The one reader of a Contacts row (course E3 §2, the record table): its two bodies, found through
// the Model's shape_body with the range check, and its world points, normal and gap. Every solver,
// SensorContact and the readback take a row's bodies from here, so that a row naming a shape
// outside the Model is refused everywhere with the same message (contact_row_shape_message).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/buffer.h"
#include "core/hd.h"
#include "core/math.h"
#include "e3/contacts/contact_record.h"
#include "e3/contacts/contacts_view.h"

namespace impulse {

/// Whether both shapes of a row are shapes of the Model: 0 <= s < shape_count.
IMPULSE_HD inline bool contact_row_shapes_valid(int s0, int s1, std::int64_t shape_count) {
  return s0 >= 0 && s0 < shape_count && s1 >= 0 && s1 < shape_count;
}

/// A row's two bodies (-1: static world geometry). Precondition: contact_row_shapes_valid.
struct ContactRowBodies {
  int body0, body1;
};
IMPULSE_HD inline ContactRowBodies contact_row_bodies(View<const int> shape_body, int s0, int s1) {
  return {shape_body[s0], shape_body[s1]};
}

/// The geometry columns of a record that the reader needs.
struct ContactRowColumns {
  View<const int> shape0, shape1;
  View<const vec3> point0, point1, normal;
  View<const real> margin0, margin1;
};
ContactRowColumns contact_row_columns(const ContactsView& c);

/// One row in world frame, at the given body poses:
///   p0 = X_b0 point0 (point0 itself for body -1), p1 = X_b1 point1,
///   d  = n . (p1 - p0) - (margin0 + margin1)                          [m] (E3.2-gap-function)
struct ContactRow {
  int shape0, shape1;
  int body0, body1;    // -1: static
  vec3 point0_world;   // [m] core point of shape0
  vec3 point1_world;   // [m] core point of shape1
  vec3 normal;         // [-] world, shape0 -> shape1
  real d;              // [m] signed gap, negative in penetration
};
/// Precondition: row i's shapes are valid (check_contact_row_shapes passed).
IMPULSE_HD inline ContactRow read_contact_row(const ContactRowColumns& c, View<const int> shape_body,
                                              View<const transform> body_q, std::int64_t i) {
  ContactRow r;
  r.shape0 = c.shape0[i];
  r.shape1 = c.shape1[i];
  const ContactRowBodies b = contact_row_bodies(shape_body, r.shape0, r.shape1);
  r.body0 = b.body0;
  r.body1 = b.body1;
  r.point0_world = r.body0 >= 0 ? transform_point(body_q[r.body0], c.point0[i]) : c.point0[i];
  r.point1_world = r.body1 >= 0 ? transform_point(body_q[r.body1], c.point1[i]) : c.point1[i];
  r.normal = c.normal[i];
  r.d = contact_surface_separation(r.point0_world, r.point1_world, r.normal, c.margin0[i], c.margin1[i]);
  return r;
}

/// The one message for a row naming a shape outside the Model.
std::string contact_row_shape_message(const std::string& who, std::int64_t row, int shape, int shape_count);

/// Refuses rows [0, n) of a record for model when one names a shape outside [0, shape_count):
/// throws std::invalid_argument(contact_row_shape_message(who, ...)) for the first such row. On the
/// CPU the shape columns are read in place; on a GPU they are copied to the host.
void check_contact_row_shapes(const ContactsView& c, int n, int shape_count, const std::string& who);
/// The same on the two shape columns of a record living on device d.
void check_contact_row_shapes(View<const int> shape0, View<const int> shape1, Device d, int n, int shape_count,
                              const std::string& who);

/// Both bodies of rows [0, n) (2 per row) after check_contact_row_shapes, on the host.
std::vector<int> contact_row_bodies_host(const ContactsView& c, int n, const std::vector<int>& shape_body,
                                         const std::string& who);

}  // namespace impulse
