#include "e3/collision/model_collision.h"

#include <stdexcept>

#include "e1/model.h"
#include "e3/collision/geometry.h"

namespace impulse {

CollisionModel collision_model_from(const Model& m, const ModelCollisionOptions& o) {
  CollisionSceneBuilder b;
  b.rigid_gap = o.rigid_gap;
  std::vector<transform> body_q = m.body_q.to_host();
  for (int i = 0; i < m.body_count; ++i) b.add_body(body_q[i]);
  std::vector<int> type = m.shape_type.to_host(), body = m.shape_body.to_host(), flags = m.shape_flags.to_host();
  std::vector<transform> X = m.shape_transform.to_host();
  std::vector<vec3> scale = m.shape_scale.to_host();
  for (int s = 0; s < m.shape_count; ++s) {
    ShapeOptions so;
    so.xform = X[s];
    so.margin = o.margin;
    so.material = o.material;
    so.label = m.shape_label.empty() ? "" : m.shape_label[s];
    if (!(flags[s] & shape_collide)) so.collision_group = 0;
    const vec3 k = scale[s];
    switch (ShapeType(type[s])) {
      case ShapeType::sphere: b.add_shape_sphere(body[s], k.x, so); break;
      case ShapeType::box: b.add_shape_box(body[s], k.x, k.y, k.z, so); break;
      case ShapeType::capsule: b.add_shape_capsule(body[s], k.x, k.y, so); break;
      case ShapeType::cylinder: b.add_shape_cylinder(body[s], k.x, k.y, so); break;
      case ShapeType::plane:
        if (k.x != 0 || k.y != 0)
          throw std::invalid_argument("shape " + std::to_string(s) +
                                      ": the collision pipeline takes infinite planes only (width = length = 0)");
        b.add_shape_plane(body[s], so);
        break;
      default: throw std::invalid_argument("shape " + std::to_string(s) + ": unknown shape type");
    }
  }
  std::vector<int> parent = m.joint_parent.to_host(), child = m.joint_child.to_host();
  for (int j = 0; j < m.joint_count; ++j)
    if (parent[j] >= 0) b.add_joint(parent[j], child[j], true);
  return b.finalize(m.device, o.explicit_pairs);
}

XpbdContactInput::XpbdContactInput(const Model& model, const CollisionModel& collision, Contacts& contacts)
    : model_(&model),
      collision_(&collision),
      contacts_(&contacts),
      mu_(contacts.device, contacts.rigid_contact_max),
      mu_torsional_(contacts.device, contacts.rigid_contact_max),
      mu_rolling_(contacts.device, contacts.rigid_contact_max),
      restitution_(contacts.device, contacts.rigid_contact_max) {
  if (collision.shape_count != model.shape_count)
    throw std::invalid_argument("XpbdContactInput: the collision model has " + std::to_string(collision.shape_count) +
                                " shapes, the Model " + std::to_string(model.shape_count));
}

namespace {

// The fields a solver's contact view reads straight from the pipeline's record (geometry, counts
// and the force output); ContactsView and PenaltyContactsView name them alike.
template <class SolverView>
void set_record_fields(Contacts& c, SolverView& v) {
  v.rigid_contact_count = c.rigid_contact_count.view();
  v.rigid_contact_shape0 = c.rigid_contact_shape0.view();
  v.rigid_contact_shape1 = c.rigid_contact_shape1.view();
  v.rigid_contact_point0 = c.rigid_contact_point0.view();
  v.rigid_contact_point1 = c.rigid_contact_point1.view();
  v.rigid_contact_normal = c.rigid_contact_normal.view();
  v.rigid_contact_offset0 = c.rigid_contact_offset0.view();
  v.rigid_contact_offset1 = c.rigid_contact_offset1.view();
  v.rigid_contact_thickness0 = c.rigid_contact_margin0.view();
  v.rigid_contact_thickness1 = c.rigid_contact_margin1.view();
  v.force = c.force.view();
}

}  // namespace

ContactsView XpbdContactInput::view() {
  Contacts& c = *contacts_;
  ContactsView v;
  v.model = model_;
  v.rigid_contact_max = c.rigid_contact_max;
  set_record_fields(c, v);
  v.rigid_contact_mu = mu_.view();
  v.rigid_contact_mu_torsional = mu_torsional_.view();
  v.rigid_contact_mu_rolling = mu_rolling_.view();
  v.rigid_contact_restitution = restitution_.view();
  return v;
}

PenaltyContactInput::PenaltyContactInput(const Model& model, const CollisionModel& collision, Contacts& contacts,
                                         SolverPath path)
    : collision_(&collision),
      contacts_(&contacts),
      path_(path),
      ke_(contacts.device, contacts.rigid_contact_max),
      kd_(contacts.device, contacts.rigid_contact_max),
      kf_(contacts.device, contacts.rigid_contact_max),
      ka_(contacts.device, contacts.rigid_contact_max),
      mu_(contacts.device, contacts.rigid_contact_max) {
  if (path != SolverPath::semi_implicit && path != SolverPath::featherstone && path != SolverPath::vbd)
    throw std::invalid_argument("PenaltyContactInput: the path must be semi_implicit, featherstone or vbd");
  if (collision.shape_count != model.shape_count)
    throw std::invalid_argument("PenaltyContactInput: the collision model has " + std::to_string(collision.shape_count) +
                                " shapes, the Model " + std::to_string(model.shape_count));
}

PenaltyContactsView PenaltyContactInput::view() {
  Contacts& c = *contacts_;
  PenaltyContactsView v;
  set_record_fields(c, v);
  v.rigid_contact_ke = ke_.view();
  v.rigid_contact_kd = kd_.view();
  v.rigid_contact_kf = kf_.view();
  v.rigid_contact_ka = ka_.view();
  v.rigid_contact_mu = mu_.view();
  return v;
}

}  // namespace impulse
