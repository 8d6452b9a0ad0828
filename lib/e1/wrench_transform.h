// Frame change of a wrench, the other sign convention the course's §6 errata note separates from
// the reference-point shift (course E1 §6).
#pragma once

#include "core/spatial.h"

namespace impulse {

/// @formula E1.6-source-errata  Express a wrench given in frame S in frame D (Newton's
/// transform_wrench, linear-first here):
///   f_D   = R_DS f_S
///   tau_D = R_DS tau_S + p x (R_DS f_S)          [N m]
/// p [m] is the origin of S expressed in D (source origin in the destination frame). With R = I this
/// is shift_torque(tau_S, f, r = -p): the +p here and the -r of E1.6-ref-point-shift agree, while the
/// conventions primer's "tau_new = tau_old + r x f" for r = new - old does not.
IMPULSE_HD inline spatial_vector transform_wrench(const transform& X_DS, const spatial_vector& w_S) {
  vec3 f = quat_rotate(X_DS.q, w_S.lin);
  return {f, quat_rotate(X_DS.q, w_S.ang) + cross(X_DS.p, f)};
}

}  // namespace impulse
