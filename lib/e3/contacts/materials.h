// Material combination along each solver path (course E3 §3), and the hydroelastic helpers.
//
// Newton stores one generic ShapeConfig per shape; every consumer combines the two sides of a rigid
// contact in its own way, and some consumers ignore fields entirely. The course's table is the
// specification; each row is one function here, on plain data, callable from kernels.
#pragma once

#include <cmath>

#include "core/hd.h"
#include "core/math.h"

namespace impulse {

/// @formula E3.3-shapeconfig-units  The generic per-shape material record and its units (course E3 §3).
///   Not every solver path reads every field (see combine_material and E3.3-material-table).
/// Defaults are Newton's ModelBuilder.ShapeConfig defaults (builder.py:501-571).
struct ShapeMaterial {
  real ke = 2.5e3;           // normal contact stiffness [N/m]
  real kd = 100.0;           // normal contact damping [N s/m]
  real kf = 1000.0;          // tangential (friction) damping [N s/m]
  real ka = 0.0;             // adhesion distance [m]
  real mu = 1.0;             // Coulomb friction coefficient [-]
  real restitution = 0.0;    // coefficient of restitution [-]
  real mu_torsional = 0.005; // torsional friction [m]: turns a normal force [N] into a torque limit [N m]
  real mu_rolling = 0.0001;  // rolling friction [m]: turns a normal force [N] into a torque limit [N m]
  real kh = 1.0e10;          // hydroelastic pressure modulus [N/m^3] (not a Young's modulus in Pa)
  int priority = 0;          // MuJoCo-style priority [-]
  int condim = 3;            // MuJoCo-style contact dimensionality [-] (1, 3, 4 or 6)
  real solmix = 1.0;         // MuJoCo-style mixing weight [-]
  real solref[2] = {0.02, 1.0};  // MuJoCo-style (time constant [s], damping ratio [-]) when positive
};

/// Per-contact values written into the Contacts record (rigid_contact_stiffness/damping/friction).
/// Zero means "unset", not physical zero (E3.2-field-overrides).
struct ContactOverrides {
  real stiffness = 0;  // [N/m]; > 0 replaces the combined ke on penalty paths
  real damping = 0;    // [N s/m]; > 0 replaces the combined kd on penalty paths
  real friction = 0;   // [-]; > 0 multiplies the combined mu on penalty paths
};

/// XPBD's rigid position contact reads only friction data: no ke/kd/kf/ka, no per-contact
/// stiffness. The struct has no stiffness field on purpose (E3.3-hydro-consumers).
struct XpbdContactMaterial {
  real mu;            // [-]
  real mu_torsional;  // [m]
  real mu_rolling;    // [m]
};

/// @formula E3.3-xpbd-friction-mix  XPBD position-contact friction (course E3 §3).
///   mu = (mu0 + mu1)/2,  mu_torsional = (t0 + t1)/2,  mu_rolling = (r0 + r1)/2
/// Scope: rigid contact between two valid shapes. Ignores ke, kd, kf, ka and every per-contact
/// override: its signature takes none of them.
IMPULSE_HD inline XpbdContactMaterial xpbd_friction_mix(const ShapeMaterial& a, const ShapeMaterial& b) {
  return {real(0.5) * (a.mu + b.mu), real(0.5) * (a.mu_torsional + b.mu_torsional),
          real(0.5) * (a.mu_rolling + b.mu_rolling)};
}

/// @formula E3.3-xpbd-restitution-mix  XPBD restitution pass coefficient (course E3 §3).
///   e = (e0 + e1)/2        [-]
/// Scope: used only when the solver runs its restitution pass (enable_restitution = true); the
/// pass also has a velocity threshold and finite manifold iterations (course §5).
IMPULSE_HD inline real xpbd_restitution_mix(const ShapeMaterial& a, const ShapeMaterial& b) {
  return real(0.5) * (a.restitution + b.restitution);
}

/// Combined penalty parameters of one contact.
struct PenaltyContactMaterial {
  real ke;  // [N/m]
  real kd;  // [N s/m]
  real kf;  // [N s/m]
  real ka;  // [m]
  real mu;  // [-]
};

/// @formula E3.3-penalty-mix  SemiImplicit / Featherstone rigid penalty material (course E3 §3).
///   ke = (ke0+ke1)/2, kd = (kd0+kd1)/2, kf = (kf0+kf1)/2, ka = (ka0+ka1)/2, mu = (mu0+mu1)/2
///   per-contact: stiffness s > 0 replaces ke; damping > 0 replaces kd; friction scale c > 0 gives
///   mu = c * mu; a value of 0 means unset (the combined value is used).
IMPULSE_HD inline PenaltyContactMaterial penalty_mix(const ShapeMaterial& a, const ShapeMaterial& b,
                                                     const ContactOverrides& c) {
  PenaltyContactMaterial m{real(0.5) * (a.ke + b.ke), real(0.5) * (a.kd + b.kd), real(0.5) * (a.kf + b.kf),
                           real(0.5) * (a.ka + b.ka), real(0.5) * (a.mu + b.mu)};
  if (c.stiffness > 0) m.ke = c.stiffness;
  if (c.damping > 0) m.kd = c.damping;
  if (c.friction > 0) m.mu = c.friction * m.mu;
  return m;
}

struct VbdContactMaterial {
  real ke;  // [N/m]
  real kd;  // [N s/m]
  real mu;  // [-]
};

/// @formula E3.3-vbd-mix  VBD rigid contact material (course E3 §3).
///   ke = (ke0+ke1)/2,  kd = (kd0+kd1)/2,  mu = sqrt(mu0 * mu1)
/// Scope: rigid-rigid contact; VBD does not read the per-contact overrides (Newton
/// rigid_vbd_kernels.py _average_contact_material).
IMPULSE_HD inline VbdContactMaterial vbd_mix(const ShapeMaterial& a, const ShapeMaterial& b) {
  return {real(0.5) * (a.ke + b.ke), real(0.5) * (a.kd + b.kd), sqrt(a.mu * b.mu)};
}

struct MujocoContactMaterial {
  real friction[3];  // (sliding [-], torsional [m], rolling [m])
  int condim;        // [-]
  real mix;          // weight of side a in the response mix [-], in [0, 1]
  real solref[2];    // (time constant [s], damping ratio [-]) or the component-wise min
};

/// @formula E3.3-mujoco-mix  MuJoCo adapter combination of two geoms (course E3 §3).
///   priority a > b: a's friction and condim, mix = 1;  b > a: b's, mix = 0;
///   equal: friction_k = max(a_k, b_k), condim = max, mix = solmix_a / (solmix_a + solmix_b)
///          (0.5 when both solmix are ~0);
///   solref = mix * solref_a + (1 - mix) * solref_b when both time constants are > 0,
///            else the component-wise min.
/// Shape modes and per-contact overrides of the adapter are outside this function.
IMPULSE_HD inline MujocoContactMaterial mujoco_mix(const ShapeMaterial& a, const ShapeMaterial& b) {
  MujocoContactMaterial m{};
  const real fa[3] = {a.mu, a.mu_torsional, a.mu_rolling}, fb[3] = {b.mu, b.mu_torsional, b.mu_rolling};
  if (a.priority != b.priority) {
    const bool a_wins = a.priority > b.priority;
    for (int k = 0; k < 3; ++k) m.friction[k] = a_wins ? fa[k] : fb[k];
    m.condim = a_wins ? a.condim : b.condim;
    m.mix = a_wins ? real(1) : real(0);
  } else {
    for (int k = 0; k < 3; ++k) m.friction[k] = fa[k] > fb[k] ? fa[k] : fb[k];
    m.condim = a.condim > b.condim ? a.condim : b.condim;
    const real s = a.solmix + b.solmix;
    m.mix = s > real(1e-15) ? a.solmix / s : real(0.5);
  }
  if (a.solref[0] > 0 && b.solref[0] > 0) {
    for (int k = 0; k < 2; ++k) m.solref[k] = m.mix * a.solref[k] + (1 - m.mix) * b.solref[k];
  } else {
    for (int k = 0; k < 2; ++k) m.solref[k] = a.solref[k] < b.solref[k] ? a.solref[k] : b.solref[k];
  }
  return m;
}

/// Kamino's material mix modes.
enum class MixMode { average, multiply, max, min };

/// One Kamino combine of two scalars under a mix mode.
IMPULSE_HD inline real kamino_combine(MixMode mode, real x0, real x1) {
  switch (mode) {
    case MixMode::average: return real(0.5) * (x0 + x1);
    case MixMode::multiply: return x0 * x1;
    case MixMode::max: return x0 > x1 ? x0 : x1;
    case MixMode::min: return x0 < x1 ? x0 : x1;
  }
  return x0;
}

struct KaminoContactMaterial {
  real mu;           // [-]
  real restitution;  // [-]
};

/// @formula E3.3-kamino-mix  Kamino combination of Newton contacts (course E3 §3).
///   mu = combine(friction_mode, mu0, mu1), e = combine(restitution_mode, e0, e1),
///   combine in {average (x0+x1)/2, multiply x0 x1, max, min};
///   defaults: friction average, restitution min (not XPBD's mean).
IMPULSE_HD inline KaminoContactMaterial kamino_mix(const ShapeMaterial& a, const ShapeMaterial& b,
                                                   MixMode friction_mode = MixMode::average,
                                                   MixMode restitution_mode = MixMode::min) {
  return {kamino_combine(friction_mode, a.mu, b.mu), kamino_combine(restitution_mode, a.restitution, b.restitution)};
}

/// The consumer paths of the course's material table (E3.3-material-table).
enum class SolverPath { xpbd, semi_implicit, featherstone, vbd, mujoco, kamino };

/// The friction coefficient each path actually uses for a pair without overrides (the table's
/// mu column; E3.3-mu-example compares them on one pair).
IMPULSE_HD inline real combined_mu(SolverPath path, const ShapeMaterial& a, const ShapeMaterial& b) {
  switch (path) {
    case SolverPath::xpbd: return xpbd_friction_mix(a, b).mu;
    case SolverPath::semi_implicit:
    case SolverPath::featherstone: return penalty_mix(a, b, ContactOverrides{}).mu;
    case SolverPath::vbd: return vbd_mix(a, b).mu;
    case SolverPath::mujoco: return mujoco_mix(a, b).friction[0];
    case SolverPath::kamino: return kamino_mix(a, b).mu;
  }
  return 0;
}

/// @formula E3.3-hydro-consumers  Which paths turn per-contact stiffness (and so hydroelastic
/// output) into a response (course E3 §3): SemiImplicit, Featherstone, and MuJoCo with
/// use_mujoco_contacts = false. XPBD's rigid kernel takes no contact stiffness; VBD ignores the
/// per-contact arrays; Kamino is not listed as a valid consumer.
IMPULSE_HD inline bool consumes_contact_stiffness(SolverPath path, bool use_mujoco_contacts = false) {
  switch (path) {
    case SolverPath::semi_implicit:
    case SolverPath::featherstone: return true;
    case SolverPath::mujoco: return !use_mujoco_contacts;
    default: return false;
  }
}

/// @formula E3.3-hydro-kh-series  k_eff = k_a k_b / (k_a + k_b) (course E3 §3).
/// Effective stiffness of two hydroelastic moduli in series.
///   k_eff = k_a k_b / (k_a + k_b)        [N/m^3];  0 when k_a + k_b <= 0 (Newton's guard)
/// @param k_a [N/m^3] kh of side a
/// @param k_b [N/m^3] kh of side b
/// @return k_eff [N/m^3] series stiffness
IMPULSE_HD inline real hydro_kh_series(real k_a, real k_b) {
  const real s = k_a + k_b;
  return s > 0 ? k_a * k_b / s : real(0);
}

/// @formula E3.3-hydro-Fagg  Aggregated force of a pressure surface (course E3 §3).
///   F_agg = sum_i A_i p_i n_i        A_i [m^2], p_i [Pa], n_i unit (world), F_agg [N]
/// Summed in index order (deterministic).
IMPULSE_HD inline vec3 hydro_force_aggregate(const real* area, const real* pressure, const vec3* normal, int count) {
  vec3 F{};
  for (int i = 0; i < count; ++i) F += (area[i] * pressure[i]) * normal[i];
  return F;
}

/// @formula E3.3-hydro-keq  Equivalent contact stiffness exported from a reduced patch (course E3 §3).
///   k_contact = ||F_agg|| / sum_j depth_j        [N/m];  depth_j > 0 are the penetration depths [m]
/// Precondition: sum_j depth_j > 0 (the caller checks; 0 is returned otherwise).
IMPULSE_HD inline real hydro_equivalent_stiffness(vec3 F_agg, const real* depth, int count) {
  real s = 0;
  for (int j = 0; j < count; ++j) s += depth[j];
  return s > 0 ? length(F_agg) / s : real(0);
}

}  // namespace impulse
