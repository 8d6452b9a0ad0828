// The record check on the device (one pass over the rows, core/first_flagged.h) and its readback.
#include "e3/contacts/contact_record_check.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/buffer_grow.h"
#include "core/first_flagged.h"
#include "core/parallel_for.h"
#include "core/scan.h"
#include "e3/contacts/contact_row.h"
#include "e3/contacts/contacts.h"

namespace impulse {

std::int64_t record_launch_extent(const ContactsView& c) {
  std::int64_t shortest = c.rigid_contact_max;
#define IMPULSE_CONTACT_SHORTEST(type, name, unit, doc) shortest = std::min(shortest, c.name.size);
  IMPULSE_CONTACT_COLUMNS(IMPULSE_CONTACT_SHORTEST)
#undef IMPULSE_CONTACT_SHORTEST
  return std::min(launch_extent(c.device, c.rigid_contact_count, c.rigid_contact_max), shortest);
}

void ContactRecordCheck::launch(const ContactsView& c, int shape_count, int extra) {
  const Device d = c.device;
  const int cap = c.rigid_contact_max;
  grow_to(flags_, d, cap);
  grow_to(blocks_, d, first_flagged_blocks(cap));
  grow_to(slots_, d, kSlots + extra);
  extra_ = extra;
  if (host_.size() < std::size_t(kSlots + extra)) host_.resize(std::size_t(kSlots + extra));
  const std::int64_t n = record_launch_extent(c);
  // Rows of a complete record below its count; a row is flagged when it names a shape outside the Model.
  View<const int> count = c.rigid_contact_count, s0 = c.rigid_contact_shape0, s1 = c.rigid_contact_shape1;
  View<int> flags{flags_.data(), n};
  const std::int64_t S = shape_count;
  parallel_for(d, n, IMPULSE_KERNEL((std::int64_t i), {
    const int rows = (count[0] >= 0 && count[0] <= cap) ? count[0] : 0;
    flags[i] = (i < rows && !contact_row_shapes_valid(s0[i], s1[i], S)) ? 1 : 0;
  }));
  View<int> slots{slots_.data(), kSlots + extra};
  first_flagged(d, View<const int>(flags), blocks_.view(), View<int>{slots.data + 1, 1});
  View<const int> collide = c.collide_status;
  const bool collided = collide.size >= kCollideStatusSize;
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), {
    slots[0] = count[0];
    const int bad = slots[1];
    slots[2] = bad < 0 ? 0 : (s0[bad] >= 0 && s0[bad] < S) ? s1[bad] : s0[bad];
    for (int j = 0; j < kCollideStatusSize; ++j) slots[3 + j] = collided ? collide[j] : (j == 0 ? -1 : 0);
    for (int j = kSlots; j < slots.size; ++j) slots[j] = 0;
  }));
}

int ContactRecordCheck::read(const ContactsView& c, int shape_count, const char* who) {
  device_copy(host_.data(), Device::cpu, slots_.data(), c.device, sizeof(int) * std::size_t(kSlots + extra_));
  return check(host_.data(), c, shape_count, who);
}

int ContactRecordCheck::check(const int* host_slots, const ContactsView& c, int shape_count, const char* who) {
  check_collide_status(&host_slots[3], who);
  const int n = host_slots[0];
  if (n < 0 || n > c.rigid_contact_max)
    throw std::invalid_argument(std::string(who) + ": contact record overflowed (count " + std::to_string(n) +
                                " > rigid_contact_max " + std::to_string(c.rigid_contact_max) +
                                "): the record is incomplete");
  check_contact_column_sizes(c, n, who);
  if (host_slots[1] >= 0)
    throw std::invalid_argument(contact_row_shape_message(who, host_slots[1], host_slots[2], shape_count));
  return n;
}

}  // namespace impulse
