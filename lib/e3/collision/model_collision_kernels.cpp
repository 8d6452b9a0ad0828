// Per-contact materials of a collision pipeline record, one row a thread: XPBD
// (E3.3-xpbd-friction-mix, E3.3-xpbd-restitution-mix) and the penalty paths (E3.3-penalty-mix,
// E3.3-vbd-mix).
#include "core/parallel_for.h"
#include "e3/contacts/materials.h"
#include "e3/collision/model_collision.h"

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

void PenaltyContactInput::update() {
  const int n = contacts_->checked_count();
  View<const ShapeMaterial> mat = collision_->shape_material.view();
  View<const int> s0 = contacts_->rigid_contact_shape0.view(), s1 = contacts_->rigid_contact_shape1.view();
  View<const real> stiffness = contacts_->rigid_contact_stiffness.view(), damping = contacts_->rigid_contact_damping.view(),
                   friction = contacts_->rigid_contact_friction.view();
  View<real> ke = ke_.view(), kd = kd_.view(), kf = kf_.view(), ka = ka_.view(), mu = mu_.view();
  const bool vbd = path_ == SolverPath::vbd;
  parallel_for(contacts_->device, n, IMPULSE_LAMBDA(std::int64_t i) {
    const ShapeMaterial& a = mat[s0[i]];
    const ShapeMaterial& b = mat[s1[i]];
    if (vbd) {
      VbdContactMaterial m = vbd_mix(a, b);
      ke[i] = m.ke;
      kd[i] = m.kd;
      kf[i] = 0;
      ka[i] = 0;
      mu[i] = m.mu;
    } else {
      PenaltyContactMaterial m = penalty_mix(a, b, ContactOverrides{stiffness[i], damping[i], friction[i]});
      ke[i] = m.ke;
      kd[i] = m.kd;
      kf[i] = m.kf;
      ka[i] = m.ka;
      mu[i] = m.mu;
    }
  });
}

}  // namespace impulse
