// The Contacts record: allocation, clear, and the overflow-checked readers.
#include "e3/contacts/contacts.h"

#include <stdexcept>

#include "e3/collision/collision_kernels.h"

namespace impulse {

Contacts::Contacts(Device d, int max, bool request_force) : device(d), rigid_contact_max(max) {
  if (max < 0)
    throw std::invalid_argument("Contacts: rigid_contact_max must be >= 0, got " + std::to_string(max));
  rigid_contact_count = Buffer<int>(d, std::vector<int>{0});
  rigid_contact_shape0 = Buffer<int>(d, max);
  rigid_contact_shape1 = Buffer<int>(d, max);
  rigid_contact_point0 = Buffer<vec3>(d, max);
  rigid_contact_point1 = Buffer<vec3>(d, max);
  rigid_contact_normal = Buffer<vec3>(d, max);
  rigid_contact_offset0 = Buffer<vec3>(d, max);
  rigid_contact_offset1 = Buffer<vec3>(d, max);
  rigid_contact_margin0 = Buffer<real>(d, max);
  rigid_contact_margin1 = Buffer<real>(d, max);
  rigid_contact_stiffness = Buffer<real>(d, max);
  rigid_contact_damping = Buffer<real>(d, max);
  rigid_contact_friction = Buffer<real>(d, max);
  rigid_contact_match_index = Buffer<int>(d, max);
  if (request_force) force = Buffer<spatial_vector>(d, max);
}

void Contacts::clear() {
  const int zero = 0;
  rigid_contact_count.copy_from_host(&zero);
}

int Contacts::count() const {
  int n = 0;  // one int read into the stack (no allocation)
  device_copy(&n, Device::cpu, rigid_contact_count.data(), rigid_contact_count.device(), sizeof(int));
  return n;
}

std::string overflow_message(int count, int capacity) {
  return "Contact overflow: rigid_contact_count = " + std::to_string(count) + " exceeds rigid_contact_max = " +
         std::to_string(capacity) + "; the record is incomplete. Raise rigid_contact_max (at least " +
         std::to_string(count) + ") and collide again";
}

int Contacts::checked_count() const {
  const int n = count();
  if (n < 0 || n > rigid_contact_max) throw std::runtime_error(overflow_message(n, rigid_contact_max));
  return n;
}

ContactGeometrySnapshot snapshot_contact_geometry(const CollisionModel& model, View<const transform> body_q,
                                                  const Contacts& c) {
  ContactGeometrySnapshot s;
  s.count = c.checked_count();
  Buffer<real> distance(c.device, c.rigid_contact_max);
  Buffer<vec3> p0(c.device, c.rigid_contact_max), p1(c.device, c.rigid_contact_max);
  eval_rigid_contact_kinematics(model, body_q, c, distance.view(), p0.view(), p1.view());
  std::vector<real> d = distance.to_host();
  std::vector<vec3> a = p0.to_host(), b = p1.to_host(), n = c.rigid_contact_normal.to_host();
  s.distance_m.assign(d.begin(), d.begin() + s.count);
  s.point0_world_m.assign(a.begin(), a.begin() + s.count);
  s.point1_world_m.assign(b.begin(), b.begin() + s.count);
  s.normal_world.assign(n.begin(), n.begin() + s.count);
  return s;
}

}  // namespace impulse
