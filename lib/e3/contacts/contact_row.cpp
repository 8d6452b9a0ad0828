// The row reader's host side: the range check of a record's shapes and its one message.
#include "e3/contacts/contact_row.h"

#include <stdexcept>

#include "core/buffer_grow.h"

namespace impulse {

ContactRowColumns contact_row_columns(const ContactsView& c) {
  return {c.rigid_contact_shape0, c.rigid_contact_shape1, c.rigid_contact_point0, c.rigid_contact_point1,
          c.rigid_contact_normal, c.rigid_contact_margin0, c.rigid_contact_margin1};
}

std::string contact_row_shape_message(const std::string& who, std::int64_t row, int shape, int shape_count) {
  return who + ": contact " + std::to_string(row) + " names shape " + std::to_string(shape) + ", outside the Model's " +
         std::to_string(shape_count) + " shapes (allowed: 0 <= shape < " + std::to_string(shape_count) + ")";
}

namespace {

// The shape columns of rows [0, n) as host pointers: in place on the CPU, copied from a GPU.
struct HostShapes {
  const int* s0 = nullptr;
  const int* s1 = nullptr;
  std::vector<int> copy0, copy1;
};
HostShapes host_shapes(View<const int> s0, View<const int> s1, Device d, int n) {
  HostShapes h;
  h.s0 = host_readable(s0, d, n, h.copy0);
  h.s1 = host_readable(s1, d, n, h.copy1);
  return h;
}

}  // namespace

void check_contact_row_shapes(const ContactsView& c, int n, int shape_count, const std::string& who) {
  check_contact_row_shapes(c.rigid_contact_shape0, c.rigid_contact_shape1, c.device, n, shape_count, who);
}

void check_contact_row_shapes(View<const int> shape0, View<const int> shape1, Device d, int n, int shape_count,
                              const std::string& who) {
  if (n <= 0) return;
  const HostShapes h = host_shapes(shape0, shape1, d, n);
  for (int i = 0; i < n; ++i)
    if (!contact_row_shapes_valid(h.s0[i], h.s1[i], shape_count)) {
      const bool first_bad = !(h.s0[i] >= 0 && h.s0[i] < shape_count);
      throw std::invalid_argument(contact_row_shape_message(who, i, first_bad ? h.s0[i] : h.s1[i], shape_count));
    }
}

std::vector<int> contact_row_bodies_host(const ContactsView& c, int n, const std::vector<int>& shape_body,
                                         const std::string& who) {
  const int S = int(shape_body.size());
  check_contact_row_shapes(c, n, S, who);
  const HostShapes h = host_shapes(c.rigid_contact_shape0, c.rigid_contact_shape1, c.device, n);
  const View<const int> body{shape_body.data(), S};
  std::vector<int> sides(2 * std::size_t(n > 0 ? n : 0));
  for (int i = 0; i < n; ++i) {
    const ContactRowBodies b = contact_row_bodies(body, h.s0[i], h.s1[i]);
    sides[2 * i] = b.body0;
    sides[2 * i + 1] = b.body1;
  }
  return sides;
}

}  // namespace impulse
