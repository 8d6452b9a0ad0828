// TEST AND SCENE FIXTURE: analytic sphere/box-on-plane and sphere-sphere contact records.
#include "course/e3/penalty_contact_fixture.h"

#include <stdexcept>
#include <string>

namespace impulse {

GroundContactFixture::GroundContactFixture(Device d, int capacity, real gap, const PenaltyMaterial& material,
                                           bool with_force)
    : gap_(gap), material_(material), record_(d, capacity < 1 ? 0 : capacity, with_force) {
  if (capacity < 1) throw std::invalid_argument("GroundContactFixture: capacity must be >= 1");
  if (!(gap >= 0)) throw std::invalid_argument("GroundContactFixture: gap must be >= 0 m");
  record_.clear();
}

void GroundContactFixture::generate(const Model& m, const State& s) {
  auto body_q = s.body_q.to_host();
  auto shape_body = m.shape_body.to_host();
  auto shape_type = m.shape_type.to_host();
  auto shape_x = m.shape_transform.to_host();
  auto shape_scale = m.shape_scale.to_host();
  std::vector<int> s0, s1;
  std::vector<vec3> p0, p1, nrm, o0, o1;
  std::vector<real> t0, t1;
  auto push = [&](int a, int b, vec3 pa, vec3 pb, vec3 n, real ta, real tb, vec3 oa, vec3 ob) {
    s0.push_back(a); s1.push_back(b); p0.push_back(pa); p1.push_back(pb); nrm.push_back(n);
    t0.push_back(ta); t1.push_back(tb); o0.push_back(oa); o1.push_back(ob);
  };
  auto world_of = [&](int sh) {
    int b = shape_body[sh];
    return b < 0 ? shape_x[sh] : transform_multiply(body_q[b], shape_x[sh]);
  };
  auto body_frame = [&](int sh) { int b = shape_body[sh]; return b < 0 ? transform_identity() : body_q[b]; };
  for (int pl = 0; pl < m.shape_count; ++pl) {
    if (ShapeType(shape_type[pl]) != ShapeType::plane || shape_body[pl] >= 0) continue;
    vec3 n = transform_vector(shape_x[pl], {0, 0, 1}), P = shape_x[pl].p;
    for (int sh = 0; sh < m.shape_count; ++sh) {
      if (shape_body[sh] < 0) continue;
      transform Xw = world_of(sh), Xb = body_frame(sh);
      vec3 n_body = quat_rotate_inv(Xb.q, n);
      if (ShapeType(shape_type[sh]) == ShapeType::sphere) {
        real r = shape_scale[sh].x;
        real h = dot(n, Xw.p - P);
        if (h - r > gap_) continue;
        push(pl, sh, Xw.p - h * n, shape_x[sh].p, n, 0, r, vec3{}, -r * n_body);
      } else if (ShapeType(shape_type[sh]) == ShapeType::box) {
        vec3 e = shape_scale[sh];
        for (int c = 0; c < 8; ++c) {
          vec3 corner{(c & 1 ? 1 : -1) * e.x, (c & 2 ? 1 : -1) * e.y, (c & 4 ? 1 : -1) * e.z};
          vec3 xw = transform_point(Xw, corner);
          real h = dot(n, xw - P);
          if (h > gap_) continue;
          push(pl, sh, xw - h * n, transform_point(shape_x[sh], corner), n, 0, 0, vec3{}, vec3{});
        }
      }
    }
  }
  for (int a = 0; a < m.shape_count; ++a) {
    if (ShapeType(shape_type[a]) != ShapeType::sphere || shape_body[a] < 0) continue;
    for (int b = a + 1; b < m.shape_count; ++b) {
      if (ShapeType(shape_type[b]) != ShapeType::sphere || shape_body[b] < 0 || shape_body[b] == shape_body[a]) continue;
      transform Xa = world_of(a), Xb = world_of(b);
      vec3 dlt = Xb.p - Xa.p;
      real dist = length(dlt), ra = shape_scale[a].x, rb = shape_scale[b].x;
      if (dist - ra - rb > gap_ || !(dist > 0)) continue;
      vec3 n = dlt / dist;
      push(a, b, shape_x[a].p, shape_x[b].p, n, ra, rb, ra * quat_rotate_inv(body_frame(a).q, n),
           -rb * quat_rotate_inv(body_frame(b).q, n));
    }
  }
  int n = int(s0.size());
  if (n > record_.rigid_contact_max)
    throw std::runtime_error("GroundContactFixture: " + std::to_string(n) + " records needed, capacity " +
                             std::to_string(record_.rigid_contact_max));
  record_.model = &m;
  count_ = n;
  record_.rigid_contact_count.copy_from_host(&count_);
  std::vector<real> ke(n, material_.ke), kd(n, material_.kd), kf(n, material_.kf), ka(n, material_.ka),
      mu(n, material_.mu), zero(n, 0);
  const Device dev = record_.device;
  auto put = [&](auto& buf, const auto& host) {
    if (n > 0) device_copy(buf.data(), dev, host.data(), Device::cpu, sizeof(host[0]) * n);
  };
  put(record_.rigid_contact_shape0, s0); put(record_.rigid_contact_shape1, s1);
  put(record_.rigid_contact_point0, p0); put(record_.rigid_contact_point1, p1);
  put(record_.rigid_contact_normal, nrm);
  put(record_.rigid_contact_offset0, o0); put(record_.rigid_contact_offset1, o1);
  put(record_.rigid_contact_margin0, t0); put(record_.rigid_contact_margin1, t1);
  put(record_.rigid_contact_ke, ke); put(record_.rigid_contact_kd, kd); put(record_.rigid_contact_kf, kf);
  put(record_.rigid_contact_ka, ka); put(record_.rigid_contact_mu, mu);
  put(record_.rigid_contact_mu_torsional, zero); put(record_.rigid_contact_mu_rolling, zero);
  put(record_.rigid_contact_restitution, zero);
}

}  // namespace impulse
