// The material stage of the chain (course E3 §3): after each collide, the two shapes' materials of
// every row of the Contacts record are combined for the solver path that will read it, into the
// record's own material columns. The formulas are the functions of materials.h.
#pragma once

#include "e3/contacts/contacts.h"
#include "e3/contacts/materials.h"

namespace impulse {

class Model;

/// The Model's per-shape material columns (shape_material_*), read as one ShapeMaterial per shape.
/// Fields the Model does not store (the MuJoCo-style priority, condim, solmix, solref) keep
/// ShapeMaterial's defaults; no path filled here reads them.
struct ShapeMaterialColumns {
  View<const real> ke, kd, kf, ka, mu, restitution, mu_torsional, mu_rolling, kh;
  IMPULSE_HD ShapeMaterial operator[](std::int64_t s) const {
    ShapeMaterial m;
    m.ke = ke[s];
    m.kd = kd[s];
    m.kf = kf[s];
    m.ka = ka[s];
    m.mu = mu[s];
    m.restitution = restitution[s];
    m.mu_torsional = mu_torsional[s];
    m.mu_rolling = mu_rolling[s];
    m.kh = kh[s];
    return m;
  }
};
ShapeMaterialColumns shape_material_columns(const Model& model);

/// The name of a solver path ("xpbd", "semi_implicit", ...).
const char* solver_path_name(SolverPath path);

/// Refuses a record whose material columns fill_contact_materials filled for a path other than
/// path_a or path_b (pass the same twice for one): std::invalid_argument naming who and both paths.
/// A record without a recorded path (material_path = -1, a fixture's) is accepted.
void check_contact_material_path(const ContactsView& c, SolverPath path_a, SolverPath path_b, const char* who);

/// Fills the per-row material columns of rows [0, min(count, rigid_contact_max)) for one path:
///   xpbd:                        mu, mu_torsional, mu_rolling (E3.3-xpbd-friction-mix),
///                                restitution (E3.3-xpbd-restitution-mix)
///   semi_implicit, featherstone: ke, kd, kf, ka, mu = penalty_mix of the two shapes' materials with
///                                the record's per-contact overrides (stiffness, damping,
///                                friction; 0 = unset) (E3.3-penalty-mix); SolverPADMM reads these too
///   vbd:                         ke, kd, mu = vbd_mix (overrides ignored); kf = ka = 0, which VBD
///                                reads neither of (E3.3-vbd-mix)
/// The other columns keep what they held; contacts.material_path records the path. An overflowed record is filled up to its capacity and
/// left for the solvers to refuse (E3.2-overflow-policy). Throws std::invalid_argument for a path
/// without a solver here (mujoco, kamino), for a record on another device, or for a record made for a
/// Model other than model.
void fill_contact_materials(const Model& model, SolverPath path, Contacts& contacts);

}  // namespace impulse
