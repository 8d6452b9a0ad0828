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
  CollisionModel cm = b.finalize(m.device, o.explicit_pairs);
  cm.model = &m;
  return cm;
}

}  // namespace impulse
