#include "e3/observe/sensor_contact.h"
#include "e3/contacts/contact_row.h"

#include <stdexcept>
#include <string>

#include "e3/solvers/xpbd/solver_xpbd.h"

namespace impulse {

SensorContact::SensorContact(const Model& model, ContactAttributes& attributes, std::vector<int> bodies)
    : sensing_bodies(std::move(bodies)), model_(&model) {
  for (int b : sensing_bodies)
    if (b < 0 || b >= model.body_count)
      throw std::invalid_argument("SensorContact: sensing body " + std::to_string(b) + " is not a body of the Model (" +
                                  std::to_string(model.body_count) + " bodies)");
  request_contact_attributes(attributes, "force");
  net_force.assign(sensing_bodies.size(), vec3{});
  friction_force.assign(sensing_bodies.size(), vec3{});
  position.assign(sensing_bodies.size(), vec3{});
}

void SensorContact::update(const ContactsView& c, const State& state) {
  if (c.force.size == 0)
    throw std::runtime_error("SensorContact.update: contacts.force is not allocated (make the sensor before the Contacts)");
  if (c.model != model_) throw std::invalid_argument("SensorContact.update: the contact record was made for another Model");
  const Model& m = *model_;
  int count = contact_count(c);
  if (count > c.rigid_contact_max)
    throw std::invalid_argument("SensorContact.update: contact record overflowed (count " + std::to_string(count) + ")");
  std::vector<int> sides = contact_row_bodies_host(c, count, m.shape_body.to_host(), "SensorContact.update");
  auto force = view_to_host(View<const spatial_vector>(c.force), m.device, count);
  auto n = view_to_host(c.rigid_contact_normal, m.device, count);
  auto p0 = view_to_host(c.rigid_contact_point0, m.device, count), p1 = view_to_host(c.rigid_contact_point1, m.device, count);
  auto o0 = view_to_host(c.rigid_contact_offset0, m.device, count), o1 = view_to_host(c.rigid_contact_offset1, m.device, count);
  auto q = state.body_q.to_host();
  auto world = [&](int b, vec3 p) { return b >= 0 ? transform_point(q[b], p) : p; };
  for (std::size_t s = 0; s < sensing_bodies.size(); ++s) {
    int b = sensing_bodies[s];
    vec3 F{}, T{}, X{};
    real W = 0;
    for (int i = 0; i < count; ++i) {
      real sign = sides[2 * i] == b ? 1 : (sides[2 * i + 1] == b ? -1 : 0);
      if (sign == 0) continue;
      vec3 f = force[i].lin;
      F += sign * f;
      T += sign * (f - dot(f, n[i]) * n[i]);
      real mag = length(f);
      vec3 mid = real(0.5) * (world(sides[2 * i], p0[i] + o0[i]) + world(sides[2 * i + 1], p1[i] + o1[i]));
      X += mag * mid;
      W += mag;
    }
    net_force[s] = F;
    friction_force[s] = T;
    position[s] = W > 0 ? X / W : vec3{};
  }
}

}  // namespace impulse
