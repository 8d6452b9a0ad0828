// The Contacts record: allocation, its view, clear, and the overflow-checked readers.
#include "e3/contacts/contacts.h"

#include <stdexcept>

#include "core/fill.h"
#include "core/scan.h"
#include "e1/model.h"
#include "e3/collision/collision_kernels.h"
#include "e3/contacts/contact_row.h"

namespace impulse {

void request_contact_attributes(ContactAttributes& attributes, const std::string& name) {
  if (name != "force")
    throw std::invalid_argument("request_contact_attributes: unknown contact attribute '" + name +
                                "' (only \"force\" exists)");
  attributes.force = true;
}

Contacts::Contacts(Device d, int max, bool request_force) : device(d), rigid_contact_max(max) {
  if (max < 0)
    throw std::invalid_argument("Contacts: rigid_contact_max must be >= 0, got " + std::to_string(max));
  rigid_contact_count = Buffer<int>(d, std::vector<int>{0});
#define IMPULSE_CONTACT_ALLOCATE(type, name, unit, doc) name = Buffer<type>(d, max);
  IMPULSE_CONTACT_COLUMNS(IMPULSE_CONTACT_ALLOCATE)
#undef IMPULSE_CONTACT_ALLOCATE
  if (request_force) force = Buffer<spatial_vector>(d, std::vector<spatial_vector>(std::size_t(max)));
  collide_status = Buffer<int>(d, std::vector<int>{-1, 0, 0});
}

Contacts::Contacts(const Model& m, int max, bool request_force) : Contacts(m.device, max, request_force) {
  model = &m;
}

ContactsView Contacts::view() {
  ContactsView v;
  v.model = model;
  v.device = device;
  v.rigid_contact_max = rigid_contact_max;
  v.rigid_contact_count = rigid_contact_count.view();
#define IMPULSE_CONTACT_VIEW_OF(type, name, unit, doc) v.name = name.view();
  IMPULSE_CONTACT_COLUMNS(IMPULSE_CONTACT_VIEW_OF)
#undef IMPULSE_CONTACT_VIEW_OF
  v.material_path = material_path;
  v.force = force.view();
  v.collide_status = collide_status.view();
  return v;
}

int contact_count(const ContactsView& c) {
  if (c.rigid_contact_count.size != 1)
    throw std::invalid_argument("ContactsView: rigid_contact_count must be a one-element array (got " +
                                std::to_string(c.rigid_contact_count.size) + ")");
  return read_one(c.device, c.rigid_contact_count, 0);
}

void check_contact_column_sizes(const ContactsView& c, int n, const char* who) {
#define IMPULSE_CONTACT_SIZE_CHECK(type, name, unit, doc)                                                          \
  if (c.name.size < n)                                                                                           \
    throw std::invalid_argument(std::string(who) + ": contact column " #name " has " + std::to_string(c.name.size) + \
                                " rows, fewer than the " + std::to_string(n) + " rows read");
  IMPULSE_CONTACT_COLUMNS(IMPULSE_CONTACT_SIZE_CHECK)
#undef IMPULSE_CONTACT_SIZE_CHECK
}

int checked_contact_count(const ContactsView& c, const Model& model, const char* who) {
  if (c.model != &model)
    throw std::invalid_argument(std::string(who) +
                                ": the contact record was made for another Model (a foreign record)");
  if (c.collide_status.size >= kCollideStatusSize)
    check_collide_status(view_to_host(c.collide_status, c.device, kCollideStatusSize).data(), who);
  const int n = contact_count(c);
  if (n < 0 || n > c.rigid_contact_max)
    throw std::invalid_argument(std::string(who) + ": contact record overflowed (count " + std::to_string(n) +
                                " > rigid_contact_max " + std::to_string(c.rigid_contact_max) +
                                "): the record is incomplete");
  check_contact_column_sizes(c, n, who);
  check_contact_row_shapes(c, n, model.shape_count, who);
  return n;
}

void Contacts::clear() { fill(device, rigid_contact_count.view(), 0); }

int Contacts::count() const {
  return read_one(rigid_contact_count.device(), rigid_contact_count.view(), 0);  // no allocation
}

std::string overflow_message(int count, int capacity) {
  return "Contact overflow: rigid_contact_count = " + std::to_string(count) + " exceeds rigid_contact_max = " +
         std::to_string(capacity) + "; the record is incomplete. Raise rigid_contact_max (at least " +
         std::to_string(count) + ") and collide again";
}

void check_collide_status(const int* status, const std::string& who) {
  if (status[0] >= 0)
    throw std::invalid_argument("collide: body " + std::to_string(status[0]) + " has a non-finite pose (reported by " +
                                who + ")");
  if (status[1] > status[2])
    throw std::runtime_error("Broad-phase overflow: collide found " + std::to_string(status[1]) +
                             " candidate pairs, more than shape_pairs_max = " + std::to_string(status[2]) +
                             "; the record is incomplete (reported by " + who +
                             "). Raise CollisionPipelineOptions::shape_pairs_max (at least " +
                             std::to_string(status[1]) + ") and collide again");
}

int Contacts::checked_count() const {
  if (collide_status.size() >= kCollideStatusSize)
    check_collide_status(collide_status.to_host().data(), "Contacts.checked_count");
  const int n = count();
  if (n < 0 || n > rigid_contact_max) throw std::runtime_error(overflow_message(n, rigid_contact_max));
  return n;
}

ContactGeometrySnapshot snapshot_contact_geometry(const Model& model, View<const transform> body_q,
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
