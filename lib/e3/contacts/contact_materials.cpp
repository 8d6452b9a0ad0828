// Per-row materials of a Contacts record, one row a thread (course E3 §3).
#include "e3/contacts/contact_materials.h"

#include <stdexcept>

#include "core/parallel_for.h"
#include "core/scan.h"
#include "e1/model.h"
#include "e3/contacts/contact_row.h"

namespace impulse {

ShapeMaterialColumns shape_material_columns(const Model& m) {
  return {m.shape_material_ke.view(),          m.shape_material_kd.view(),           m.shape_material_kf.view(),
          m.shape_material_ka.view(),          m.shape_material_mu.view(),           m.shape_material_restitution.view(),
          m.shape_material_mu_torsional.view(), m.shape_material_mu_rolling.view(), m.shape_material_kh.view()};
}

const char* solver_path_name(SolverPath path) {
  switch (path) {
    case SolverPath::xpbd: return "xpbd";
    case SolverPath::semi_implicit: return "semi_implicit";
    case SolverPath::featherstone: return "featherstone";
    case SolverPath::vbd: return "vbd";
    case SolverPath::mujoco: return "mujoco";
    case SolverPath::kamino: return "kamino";
  }
  return "unknown";
}

void check_contact_material_path(const ContactsView& c, SolverPath path_a, SolverPath path_b, const char* who) {
  if (c.material_path < 0 || c.material_path == int(path_a) || c.material_path == int(path_b)) return;
  throw std::invalid_argument(std::string(who) + ": the record's material columns were filled for the " +
                              solver_path_name(SolverPath(c.material_path)) + " path, not this solver's " +
                              solver_path_name(path_a) + " path (call fill_contact_materials with its path)");
}

void fill_contact_materials(const Model& model, SolverPath path, Contacts& c) {
  if (path != SolverPath::xpbd && path != SolverPath::semi_implicit && path != SolverPath::featherstone &&
      path != SolverPath::vbd)
    throw std::invalid_argument("fill_contact_materials: path must be xpbd, semi_implicit, featherstone or vbd");
  if (c.device != model.device)
    throw std::invalid_argument("fill_contact_materials: the record lives on another device than the Model");
  if (c.model != &model)
    throw std::invalid_argument("fill_contact_materials: the record was made for another Model");
  // Rows to launch over (core/scan.h's launch_extent): each row reads the count on the device (no
  // host round trip between collide and the step). Rows past the count (or past the capacity of an
  // overflowed record, which the readers refuse themselves) do nothing.
  c.material_path = int(path);
  const int cap = c.rigid_contact_max;
  const std::int64_t n = launch_extent(c.device, c.rigid_contact_count.view(), cap);
  View<const int> count = c.rigid_contact_count.view();
  const ShapeMaterialColumns mat = shape_material_columns(model);
  View<const int> s0 = c.rigid_contact_shape0.view(), s1 = c.rigid_contact_shape1.view();
  const std::int64_t S = model.shape_count;  // a row naming another shape is left for the solver to refuse
  View<real> mu = c.rigid_contact_mu.view();
  if (path == SolverPath::xpbd) {
    View<real> mt = c.rigid_contact_mu_torsional.view(), mr = c.rigid_contact_mu_rolling.view(),
               e = c.rigid_contact_restitution.view();
    parallel_for(c.device, n, IMPULSE_KERNEL((std::int64_t i), {
      if (i >= count[0] || !contact_row_shapes_valid(s0[i], s1[i], S)) return;
      const ShapeMaterial a = mat[s0[i]];
      const ShapeMaterial b = mat[s1[i]];
      XpbdContactMaterial f = xpbd_friction_mix(a, b);
      mu[i] = f.mu;
      mt[i] = f.mu_torsional;
      mr[i] = f.mu_rolling;
      e[i] = xpbd_restitution_mix(a, b);
    }));
    return;
  }
  View<const real> stiffness = c.rigid_contact_stiffness.view(), damping = c.rigid_contact_damping.view(),
                   friction = c.rigid_contact_friction.view();
  View<real> ke = c.rigid_contact_ke.view(), kd = c.rigid_contact_kd.view(), kf = c.rigid_contact_kf.view(),
             ka = c.rigid_contact_ka.view();
  const bool vbd = path == SolverPath::vbd;
  parallel_for(c.device, n, IMPULSE_KERNEL((std::int64_t i), {
    if (i >= count[0] || !contact_row_shapes_valid(s0[i], s1[i], S)) return;
    const ShapeMaterial a = mat[s0[i]];
    const ShapeMaterial b = mat[s1[i]];
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
  }));
}

}  // namespace impulse
