// Per-contact XPBD materials of a collision pipeline record (E3.3-xpbd-friction-mix and
// E3.3-xpbd-restitution-mix, one row a thread).
#include "core/parallel_for.h"
#include "e3/materials.h"
#include "e3/model_collision.h"

namespace impulse {

void XpbdContactInput::update() {
  int n = contacts_->count();
  if (n > contacts_->rigid_contact_max) n = contacts_->rigid_contact_max;  // readers refuse overflow themselves
  View<const ShapeMaterial> mat = collision_->shape_material.view();
  View<const int> s0 = contacts_->rigid_contact_shape0.view(), s1 = contacts_->rigid_contact_shape1.view();
  View<real> mu = mu_.view(), mt = mu_torsional_.view(), mr = mu_rolling_.view(), e = restitution_.view();
  parallel_for(contacts_->device, n, IMPULSE_LAMBDA(std::int64_t i) {
    const ShapeMaterial& a = mat[s0[i]];
    const ShapeMaterial& b = mat[s1[i]];
    XpbdContactMaterial f = xpbd_friction_mix(a, b);
    mu[i] = f.mu;
    mt[i] = f.mu_torsional;
    mr[i] = f.mu_rolling;
    e[i] = xpbd_restitution_mix(a, b);
  });
}

}  // namespace impulse
