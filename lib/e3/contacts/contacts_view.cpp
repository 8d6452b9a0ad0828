#include "e3/contacts/contacts_view.h"

#include <stdexcept>

#include "e1/model.h"

namespace impulse {

void request_contact_attributes(ContactAttributes& attributes, const std::string& name) {
  if (name != "force")
    throw std::invalid_argument("request_contact_attributes: unknown contact attribute '" + name +
                                "' (only \"force\" exists)");
  attributes.force = true;
}

RigidContacts::RigidContacts(const Model& m, int capacity, const ContactAttributes& attributes)
    : model(&m), rigid_contact_max(capacity) {
  if (capacity < 1)
    throw std::invalid_argument("RigidContacts: capacity must be >= 1 (got " + std::to_string(capacity) + ")");
  Device d = m.device;
  rigid_contact_count = Buffer<int>(d, std::vector<int>{0});
  rigid_contact_shape0 = Buffer<int>(d, capacity);
  rigid_contact_shape1 = Buffer<int>(d, capacity);
  rigid_contact_point0 = Buffer<vec3>(d, capacity);
  rigid_contact_point1 = Buffer<vec3>(d, capacity);
  rigid_contact_offset0 = Buffer<vec3>(d, capacity);
  rigid_contact_offset1 = Buffer<vec3>(d, capacity);
  rigid_contact_normal = Buffer<vec3>(d, capacity);
  rigid_contact_thickness0 = Buffer<real>(d, capacity);
  rigid_contact_thickness1 = Buffer<real>(d, capacity);
  rigid_contact_mu = Buffer<real>(d, capacity);
  rigid_contact_mu_torsional = Buffer<real>(d, capacity);
  rigid_contact_mu_rolling = Buffer<real>(d, capacity);
  rigid_contact_restitution = Buffer<real>(d, capacity);
  if (attributes.force) force = Buffer<spatial_vector>(d, std::vector<spatial_vector>(capacity));
}

ContactsView RigidContacts::view() {
  ContactsView v;
  v.model = model;
  v.rigid_contact_max = rigid_contact_max;
  v.rigid_contact_count = rigid_contact_count.view();
  v.rigid_contact_shape0 = rigid_contact_shape0.view();
  v.rigid_contact_shape1 = rigid_contact_shape1.view();
  v.rigid_contact_point0 = rigid_contact_point0.view();
  v.rigid_contact_point1 = rigid_contact_point1.view();
  v.rigid_contact_offset0 = rigid_contact_offset0.view();
  v.rigid_contact_offset1 = rigid_contact_offset1.view();
  v.rigid_contact_normal = rigid_contact_normal.view();
  v.rigid_contact_thickness0 = rigid_contact_thickness0.view();
  v.rigid_contact_thickness1 = rigid_contact_thickness1.view();
  v.rigid_contact_mu = rigid_contact_mu.view();
  v.rigid_contact_mu_torsional = rigid_contact_mu_torsional.view();
  v.rigid_contact_mu_rolling = rigid_contact_mu_rolling.view();
  v.rigid_contact_restitution = rigid_contact_restitution.view();
  v.force = force.view();
  return v;
}

int RigidContacts::count() const {
  int n = 0;  // one int read into the stack (no allocation)
  device_copy(&n, Device::cpu, rigid_contact_count.data(), rigid_contact_count.device(), sizeof(int));
  return n;
}

int contact_count(const ContactsView& c) {
  if (c.rigid_contact_count.size != 1 || !c.model)
    throw std::invalid_argument("ContactsView: rigid_contact_count must be a one-element array of a record made for a Model");
  int n = 0;
  device_copy(&n, Device::cpu, c.rigid_contact_count.data, c.model->device, sizeof(int));
  return n;
}

}  // namespace impulse
