// SolverVBD, rigid bodies with compliant-ALM normal contacts (course E3 §6): every stage a pass over
// lib/core's primitives, so one source runs on the CPU and on a GPU.
#include "e3/solvers/vbd/vbd_rigid.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/buffer_grow.h"
#include "core/host_copies.h"
#include "core/parallel_for.h"
#include "core/scan.h"
#include "core/segments_device.h"
#include "e1/integrator.h"
#include "e3/contacts/contact_materials.h"
#include "e3/contacts/contact_row.h"
#include "e3/contacts/contacts.h"
#include "e3/joints/maximal_joint.h"
#include "e3/solvers/vbd/vbd_block.h"

namespace impulse {

namespace {

// A row's sort key: (pair of shapes, row) = ((s0 S + s1) << kRowBits) | row. Rows naming a shape
// outside the Model sort first (kBadKey + row), rows past the count last (kNoKey). After the sort a
// row's history key is (pair << kRowBits) | ordinal, its rank among the rows of its pair.
constexpr int kRowBits = 24;
constexpr std::int64_t kRowMask = (std::int64_t(1) << kRowBits) - 1;
constexpr std::int64_t kBadKey = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kNoKey = std::numeric_limits<std::int64_t>::max();

// First position in keys[lo, hi) (ascending) whose key is >= x.
IMPULSE_HD inline std::int64_t lower_bound_key(const std::int64_t* keys, std::int64_t lo, std::int64_t hi, std::int64_t x) {
  while (lo < hi) {
    std::int64_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Rotation vector of q relative to p (q = exp(theta) p), shortest way round.
IMPULSE_HD inline vec3 rotation_between(quat p, quat q) { return quat_rotation_vector(quat_mul(q, quat_conjugate(p))); }

IMPULSE_HD inline int max_int(int a, int b) { return a > b ? a : b; }

// Skew matrix S(r) with S(r) w = r x w.
IMPULSE_HD inline mat33 skew(vec3 r) {
  mat33 S;
  S.m[0][1] = -r.z, S.m[0][2] = r.y, S.m[1][0] = r.z, S.m[1][2] = -r.x, S.m[2][0] = -r.y, S.m[2][1] = r.x;
  return S;
}

// Projector removing the unit direction a (a = 0 gives the identity).
IMPULSE_HD inline mat33 remove_direction(vec3 a) {
  const real v[3] = {a.x, a.y, a.z};
  mat33 P = mat33_identity();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) P.m[i][j] -= v[i] * v[j];
  return P;
}

IMPULSE_HD inline vec3 row_point(int b, vec3 p, View<const transform> X) { return b >= 0 ? transform_point(X[b], p) : p; }

// Gap of a row at the poses q [m] (negative: penetrating).
IMPULSE_HD inline real row_gap(const VbdRow& r, View<const transform> q) {
  vec3 x0 = row_point(r.body0, r.p0, q) + r.m0 * r.n;
  vec3 x1 = row_point(r.body1, r.p1, q) - r.m1 * r.n;
  return dot(r.n, x1 - x0);
}

// Normal separation speed of a row between two pose sets [m/s].
IMPULSE_HD inline real row_separation_speed(const VbdRow& r, View<const transform> now, View<const transform> prev, real dt) {
  return dot(r.n, (row_point(r.body1, r.p1, now) - row_point(r.body1, r.p1, prev)) -
                      (row_point(r.body0, r.p0, now) - row_point(r.body0, r.p0, prev))) / dt;
}

// Slip of body1's contact point relative to body0's between two pose sets, divided by dt [m/s].
IMPULSE_HD inline vec3 row_slip_velocity(const VbdRow& r, View<const transform> now, View<const transform> prev, real dt) {
  vec3 u = ((row_point(r.body1, r.p1, now) - row_point(r.body1, r.p1, prev)) -
            (row_point(r.body0, r.p0, now) - row_point(r.body0, r.p0, prev))) / dt;
  return u - dot(u, r.n) * r.n;
}

}  // namespace

// The views every body and joint pass reads (captured by value into the launches).
struct SolverVBD::Views {
  View<transform> q;  // the iterate (state_out.body_q)
  View<const transform> q0;
  View<const vec3> com;
  View<const mat33> I, I_inv;
  View<const real> mass, inv_mass;
  View<const int> flags;
  View<const int> jtype, jparent, jchild;
  View<const transform> jX_p, jX_c;
  View<const JointAxes> jaxes;
  View<CompliantAlmCoefficients> jc_lin, jc_ang;
  View<vec3> jlam_lin, jlam_ang;
  View<const std::int64_t> joint_start, joint_entry;
  View<const VbdRow> rows;
  View<const real> lam;
  View<const std::int64_t> row_start, row_entry;
  View<vec3> c_tilde;
  View<quat> q_tilde;

  IMPULSE_HD bool dynamic(int b) const { return b >= 0 && !(flags[b] & int(BodyFlag::kinematic)) && inv_mass[b] > 0; }
  IMPULSE_HD JointFrames frames(int j, View<const transform> X) const {
    int p = jparent[j], c = jchild[j];
    return joint_frames(p >= 0, p >= 0 ? X[p] : transform_identity(), p >= 0 ? com[p] : vec3{}, X[c], com[c], jX_p[j],
                        jX_c[j]);
  }
  // Force and torque of joint j on its child at the poses X (the multiplier after one dual step).
  IMPULSE_HD spatial_vector joint_reaction(int j, View<const transform> X, JointFrames& fr, JointErrors& e) const {
    JointType t = JointType(jtype[j]);
    fr = frames(j, X);
    e = joint_errors(t, jaxes[j], fr);
    return spatial_vector{-jc_lin[j].k_eff * e.lin + jc_lin[j].s * jlam_lin[j],
                          -jc_ang[j].k_eff * e.ang + jc_ang[j].s * jlam_ang[j]};
  }
};

SolverVBD::Views SolverVBD::views(const State* in, State* out) const {
  const Model& m = *model_;
  Views v;
  if (out) v.q = out->body_q.view();
  v.q0 = in ? in->body_q.view() : body_q_prev_.view();  // the start poses (body_q_prev_ is a copy)
  v.com = m.body_com.view();
  v.I = m.body_inertia.view(), v.I_inv = m.body_inv_inertia.view();
  v.mass = m.body_mass.view(), v.inv_mass = m.body_inv_mass.view();
  v.flags = m.body_flags.view();
  v.jtype = m.joint_type.view(), v.jparent = m.joint_parent.view(), v.jchild = m.joint_child.view();
  v.jX_p = m.joint_X_p.view(), v.jX_c = m.joint_X_c.view();
  v.jaxes = m.joint_axes.view();
  v.jc_lin = s_.jc_lin.view(), v.jc_ang = s_.jc_ang.view();
  v.jlam_lin = const_cast<Buffer<vec3>&>(joint_lambda_lin_).view();  // written by dual_update only
  v.jlam_ang = const_cast<Buffer<vec3>&>(joint_lambda_ang_).view();
  v.joint_start = joint_start_.view(), v.joint_entry = joint_entry_.view();
  v.rows = s_.rows.view(), v.lam = s_.lam.view();
  v.row_start = s_.row_start.view(), v.row_entry = s_.row_entry.view();
  v.c_tilde = s_.c_tilde.view(), v.q_tilde = s_.q_tilde.view();
  return v;
}

namespace {

// One body's 6x6 Newton step at the current iterate (block coordinate descent): inertia about the
// target, each contact row's normal force and lagged friction, each joint's hard row; d = -H^-1 g.
IMPULSE_HD inline void body_step(const SolverVBD::Views& v, int b, real h, real rho, real eps_v) {
  View<const transform> q(v.q), q0(v.q0);
  mat33 R = quat_to_mat33(q[b].q);
  mat33 I_w = R * v.I[b] * transpose(R);
  vec3 c = world_com(q[b], v.com[b]);
  VbdBlock B;
  const real h2 = h * h;
  for (int i = 0; i < 3; ++i) B.H[i][i] = v.mass[b] / h2;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) B.H[3 + i][3 + j] = I_w.m[i][j] / h2;
  vec3 dc = c - v.c_tilde[b], dth = rotation_between(v.q_tilde[b], q[b].q);
  const real dcv[3] = {dc.x, dc.y, dc.z}, dthv[3] = {dth.x, dth.y, dth.z};
  for (int i = 0; i < 3; ++i) {
    B.g[i] = v.mass[b] / h2 * dcv[i];
    real s = 0;
    for (int j = 0; j < 3; ++j) s += B.H[3 + i][3 + j] * dthv[j];
    B.g[3 + i] = s;
  }
  for (std::int64_t k = v.row_start[b]; k < v.row_start[b + 1]; ++k) {
    const std::int64_t i = v.row_entry[k] >> 1;
    const VbdRow r = v.rows[i];
    CompliantAlmCoefficients cf = compliant_alm_coefficients(r.k, rho);
    real fn = vbd_contact_normal_force(cf, row_gap(r, q), v.lam[i], r.kd, row_separation_speed(r, q, q0, h));
    if (!(fn > 0)) continue;
    real side = r.body1 == b ? 1 : -1;
    vec3 x = r.body1 == b ? transform_point(q[b], r.p1) - r.m1 * r.n : transform_point(q[b], r.p0) + r.m0 * r.n;
    vec3 rxn = cross(x - c, r.n);
    const real J[6] = {side * r.n.x, side * r.n.y, side * r.n.z, side * rxn.x, side * rxn.y, side * rxn.z};
    for (int a = 0; a < 6; ++a) B.g[a] -= fn * J[a];
    add_outer(B, cf.k_eff + r.kd / h, J);
    // Friction from the slip over the step, with its lagged stiffness on the tangent plane.
    vec3 u_t = row_slip_velocity(r, q, q0, h);
    vec3 ft = side * vbd_friction_force(r.mu, fn, u_t, eps_v);
    vec3 rxf = cross(x - c, ft);
    const real F[6] = {ft.x, ft.y, ft.z, rxf.x, rxf.y, rxf.z};
    for (int a = 0; a < 6; ++a) B.g[a] -= F[a];
    const real slip = length(u_t);
    real kt = r.mu * fn / ((slip > eps_v ? slip : eps_v) * h);
    vec3 t1, t2;
    tangent_basis(r.n, t1, t2);
    const vec3 tangents[2] = {t1, t2};
    for (vec3 t : tangents) {
      vec3 rxt = cross(x - c, t);
      const real Jt[6] = {t.x, t.y, t.z, rxt.x, rxt.y, rxt.z};
      add_outer(B, kt, Jt);
    }
  }
  for (std::int64_t k = v.joint_start[b]; k < v.joint_start[b + 1]; ++k) {
    const int j = int(v.joint_entry[k] >> 1);
    JointType t = JointType(v.jtype[j]);
    JointFrames fr;
    JointErrors e;
    spatial_vector F = v.joint_reaction(j, q, fr, e);
    const bool is_child = v.jchild[j] == b;
    vec3 r = is_child ? fr.r_c : fr.r_p;
    real side = is_child ? 1 : -1;
    vec3 tau = side * (cross(r, F.lin) + F.ang);
    vec3 fl = side * F.lin;
    const real gl[6] = {fl.x, fl.y, fl.z, tau.x, tau.y, tau.z};
    for (int a = 0; a < 6; ++a) B.g[a] -= gl[a];
    // J = [P, -P S(r)] (3x6): H += k_lin J^T J; the angular rows add k_ang A on the rotation block.
    mat33 P = t == JointType::prismatic ? remove_direction(e.axis_p) : mat33_identity();
    mat33 PS = P * skew(r);
    real Jm[3][6];
    for (int i = 0; i < 3; ++i)
      for (int a = 0; a < 3; ++a) Jm[i][a] = P.m[i][a], Jm[i][3 + a] = -PS.m[i][a];
    const real kl = v.jc_lin[j].k_eff, ka = v.jc_ang[j].k_eff;
    for (int a = 0; a < 6; ++a)
      for (int c2 = 0; c2 < 6; ++c2) {
        real s = 0;
        for (int i = 0; i < 3; ++i) s += Jm[i][a] * Jm[i][c2];
        B.H[a][c2] += kl * s;
      }
    if (t != JointType::ball) {
      mat33 A = t == JointType::revolute ? remove_direction(e.axis_p) : mat33_identity();
      for (int i = 0; i < 3; ++i)
        for (int c2 = 0; c2 < 3; ++c2) B.H[3 + i][3 + c2] += ka * A.m[i][c2];
    }
  }
  real d[6];
  ldlt_solve6(B, d);
  vec3 dlin{d[0], d[1], d[2]}, dang{d[3], d[4], d[5]};
  quat r_new = quat_update(q[b].q, dang, 1);
  v.q[b] = {origin_from_com(c + dlin, r_new, v.com[b]), r_new};
}

}  // namespace

SolverVBD::SolverVBD(const Model& model, int iters, real rho_, real eps_v)
    : iterations(iters), rho(rho_), friction_epsilon(eps_v), model_(&model) {
  if (!(eps_v > 0)) throw std::invalid_argument("SolverVBD: friction_epsilon must be > 0 m/s");
  if (iters < 1) throw std::invalid_argument("SolverVBD: iterations must be >= 1 (got " + std::to_string(iters) + ")");
  if (!(rho_ > 0)) throw std::invalid_argument("SolverVBD: rho must be > 0 N/m");
  require_maximal_joints(model, "SolverVBD");
  const Device d = model.device;
  const int nb = model.body_count, nj = model.joint_count;
  joint_lambda_lin_ = Buffer<vec3>(d, nj);
  joint_lambda_ang_ = Buffer<vec3>(d, nj);
  hist_count_ = Buffer<int>(d, 1);
  body_q_prev_ = Buffer<transform>(d, nb);
  build_joint_segments();
  s_.readback = Buffer<std::int64_t>(d, std::int64_t(nb) + 4 + kCollideStatusSize);
  s_.readback_host.assign(std::size_t(nb) + 4 + kCollideStatusSize, 0);
  reset();
}

// The attached joints of each body (entry 2 j: the child, 2 j + 1: the parent), in joint order.
void SolverVBD::build_joint_segments() {
  const Model& model = *model_;
  const Device d = model.device;
  const int nb = model.body_count, nj = model.joint_count;
  Buffer<int> sides(d, 2 * std::int64_t(nj));
  joint_start_ = Buffer<std::int64_t>(d, std::int64_t(nb) + 1);
  joint_entry_ = Buffer<std::int64_t>(d, 2 * std::int64_t(nj));
  Buffer<std::int64_t> fill(d, nb);
  auto sd = sides.view();
  auto jtype = model.joint_type.view(), jparent = model.joint_parent.view(), jchild = model.joint_child.view();
  parallel_for(d, nj, IMPULSE_KERNEL((std::int64_t j), {
    const bool rows = JointType(jtype[j]) != JointType::free;
    sd[2 * j] = rows ? jchild[j] : -1;
    sd[2 * j + 1] = rows ? jparent[j] : -1;
  }));
  build_segments_on(d, nb, View<const int>(sd), joint_start_.view(), joint_entry_.view(), fill.view());
}

void SolverVBD::reset() {
  const Device d = model_->device;
  auto ll = joint_lambda_lin_.view(), la = joint_lambda_ang_.view();
  auto hc = hist_count_.view();
  parallel_for(d, model_->joint_count, IMPULSE_KERNEL((std::int64_t j), { ll[j] = vec3{}, la[j] = vec3{}; }));
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), { hc[0] = 0; }));
  has_prev_ = false;
}

std::vector<transform> SolverVBD::body_q_prev() const {
  return has_prev_ ? body_q_prev_.to_host() : std::vector<transform>{};
}

spatial_vector SolverVBD::joint_lambda(int j) const {
  if (j < 0 || j >= model_->joint_count)
    throw std::invalid_argument("SolverVBD.joint_lambda: joint " + std::to_string(j) + " does not exist");
  const Device d = model_->device;
  return {read_one(d, View<const vec3>(joint_lambda_lin_.view()), j), read_one(d, View<const vec3>(joint_lambda_ang_.view()), j)};
}

void SolverVBD::update_contacts(ContactsView&) const {
  throw UpdateContactsNotImplemented("SolverVBD (use collect_rigid_contact_forces)");
}

// The step, stage by stage (course E3 §6). The one readback (read_back) brings the colour starts
// and the record's status to the host before the first pose is written (a second one only on a step
// whose colour count outgrew the relaxation rounds, see colour_bodies).
void SolverVBD::step(const State& in, State& out, const Control& control, const ContactsView* contacts, real h) {
  check_step(in, out, control, contacts, h);
  gather_forces(in, control);                  // body_f, and joint_f as wrenches on the start poses
  const int launch = prepare_rows(contacts);   // contact rows with their multipliers, per-body row lists
  joint_metrics(h);                            // each joint row's metric from its bodies' inertial support
  colour_bodies();                             // colours: no two neighbours share one
  read_back(launch, contacts);                 // colour starts, the record's count and first bad row
  while (extend_colours()) read_back(launch, contacts);  // only when the colour count outgrew the rounds
  predict_targets(in, out, h);                 // inertial targets, the initial guess
  for (int it = 0; it < iterations; ++it) {
    sweep_bodies(out, h);                      // one sweep of per-body 6x6 Newton steps, colour by colour
    dual_update(out, launch, contacts, h);     // multipliers at the new poses
  }
  finish_step(in, out, launch, contacts, h);   // keep the multipliers; velocities from the pose history
}

void SolverVBD::check_step(const State& in, const State& out, const Control& control, const ContactsView* contacts,
                           real h) const {
  const Model& m = *model_;
  if (&in == &out) throw std::invalid_argument("SolverVBD.step: state_in and state_out must be different States");
  if (!(h > 0)) throw std::invalid_argument("SolverVBD.step: dt must be > 0 s");
  if (control.joint_f.size != 0 && control.joint_f.size != m.joint_dof_count)
    throw std::invalid_argument("SolverVBD.step: control.joint_f has the wrong length");
  if (!contacts) return;
  if (contacts->model != &m)
    throw std::invalid_argument("SolverVBD: the contact record was made for another Model (a foreign record)");
  if (contacts->rigid_contact_count.size != 1)
    throw std::invalid_argument("SolverVBD: rigid_contact_count must be a one-element array");
  check_contact_column_sizes(*contacts, contacts->rigid_contact_max, "SolverVBD");
  check_contact_material_path(*contacts, SolverPath::vbd, SolverPath::vbd, "SolverVBD");
  const std::int64_t S = m.shape_count;
  if (contacts->rigid_contact_max > kRowMask || S * S >= (std::int64_t(1) << (62 - kRowBits)))
    throw std::invalid_argument("SolverVBD: rigid_contact_max " + std::to_string(contacts->rigid_contact_max) + " with " +
                                std::to_string(S) +
                                " shapes is past the row keys (allowed: rigid_contact_max < 2^24, shapes < 2^19)");
}

void SolverVBD::gather_forces(const State& in, const Control& control) {
  const Model& m = *model_;
  const Device d = m.device;
  grow_to(s_.f, d, m.body_count);
  gather_body_wrenches(m, in, control, s_.f.view());
  copy_on_device(d, body_q_prev_.data(), in.body_q.data(), sizeof(transform) * std::size_t(m.body_count));
  has_prev_ = true;
  if (control.joint_f.size == 0) return;
  // Each body sums the actuation wrenches of its joints on the start poses, in joint order.
  const Views v = views(&in, nullptr);
  auto f = s_.f.view();
  auto qd_start = m.joint_qd_start.view();
  View<const real> jf = control.joint_f;
  parallel_for(d, m.body_count, IMPULSE_KERNEL((std::int64_t b), {
    for (std::int64_t k = v.joint_start[b]; k < v.joint_start[b + 1]; ++k) {
      const int j = int(v.joint_entry[k] >> 1);
      JointType t = JointType(v.jtype[j]);
      JointFrames fr = v.frames(j, v.q0);
      vec3 fa{}, ta{};
      joint_actuation(t, joint_errors(t, v.jaxes[j], fr), fr, &jf[qd_start[j]], fa, ta);
      JointWrench w = joint_wrench_pair(fr, fa, ta);
      const spatial_vector& add = (v.joint_entry[k] & 1) ? w.on_parent : w.on_child;
      f[b].lin += add.lin;
      f[b].ang += add.ang;
    }
  }));
}

// Rows on the device: each row's bodies and data, its multiplier looked up in the history by its
// key (the sort of core/scan.h ranks a pair's rows), and the rows touching each body
// (build_segments_on, entry = 2 * row + side). Returns the rows a row pass launches over.
int SolverVBD::prepare_rows(const ContactsView* contacts) const {
  const Model& m = *model_;
  const Device d = m.device;
  const int nb = m.body_count;
  const int cap = contacts ? contacts->rigid_contact_max : 0;
  grow_to(s_.row_start, d, std::int64_t(nb) + 1);
  grow_to(s_.fill, d, nb);
  grow_to(s_.rows, d, cap);
  grow_to(s_.lam, d, cap);
  grow_to(s_.sorted, d, cap);
  grow_to(s_.row_key, d, cap);
  grow_to(s_.sides, d, 2 * std::int64_t(cap));
  grow_to(s_.row_entry, d, 2 * std::int64_t(cap));
  const int launch = contacts ? int(launch_extent(d, contacts->rigid_contact_count, cap)) : 0;
  auto rb = s_.readback.view();
  // What collide found wrong (Contacts::collide_status), for the readback.
  View<const int> collide_status = contacts ? contacts->collide_status : View<const int>{};
  const bool collided = collide_status.size >= kCollideStatusSize;
  parallel_for(d, kCollideStatusSize, IMPULSE_KERNEL((std::int64_t j), {
    rb[nb + 4 + j] = collided ? collide_status[j] : (j == 0 ? -1 : 0);
  }));
  if (launch == 0) {
    parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), { rb[nb + 1] = 0, rb[nb + 2] = -1, rb[nb + 3] = 0; }));
    build_segments_on(d, nb, View<const int>{s_.sides.data(), 0}, s_.row_start.view(), s_.row_entry.view(), s_.fill.view());
    return 0;
  }
  const ContactsView c = *contacts;
  const std::int64_t S = m.shape_count;
  auto shape_body = m.shape_body.view();
  auto rows = s_.rows.view();
  auto sorted = s_.sorted.view();
  auto sides = s_.sides.view();
  parallel_for(d, launch, IMPULSE_KERNEL((std::int64_t i), {
    const int n = c.rigid_contact_count[0];
    const int live = (n >= 0 && n <= cap) ? n : 0;
    sides[2 * i] = sides[2 * i + 1] = -1;
    if (i >= live) {
      sorted[i] = kNoKey;
      return;
    }
    const int s0 = c.rigid_contact_shape0[i], s1 = c.rigid_contact_shape1[i];
    if (!contact_row_shapes_valid(s0, s1, S)) {
      sorted[i] = kBadKey + i;
      return;
    }
    const ContactRowBodies rb2 = contact_row_bodies(shape_body, s0, s1);
    rows[i] = {rb2.body0, rb2.body1, c.rigid_contact_point0[i], c.rigid_contact_point1[i], c.rigid_contact_normal[i],
               c.rigid_contact_margin0[i], c.rigid_contact_margin1[i], c.rigid_contact_ke[i], c.rigid_contact_kd[i],
               c.rigid_contact_mu[i]};
    sorted[i] = ((std::int64_t(s0) * S + s1) << kRowBits) | i;
    sides[2 * i] = rb2.body0;
    sides[2 * i + 1] = rb2.body1 == rb2.body0 ? -1 : rb2.body1;
  }));
  sort_keys(d, View<std::int64_t>{sorted.data, launch});
  // The record's status for the readback: its count, its first row naming a shape outside the Model.
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), {
    rb[nb + 1] = c.rigid_contact_count[0];
    rb[nb + 2] = -1;
    if (sorted[0] >= kBadKey + cap) return;
    const std::int64_t i = sorted[0] - kBadKey;
    const int s0 = c.rigid_contact_shape0[i];
    rb[nb + 2] = i;
    rb[nb + 3] = (s0 >= 0 && s0 < S) ? c.rigid_contact_shape1[i] : s0;
  }));
  // Each row's history key (pair, ordinal) and its multiplier from the history.
  auto row_key = s_.row_key.view();
  auto lam = s_.lam.view();
  auto hkey = hist_key_.view();
  auto hlam = hist_lam_.view();
  auto hcount = hist_count_.view();
  parallel_for(d, launch, IMPULSE_KERNEL((std::int64_t p), {
    const std::int64_t key = sorted[p];
    if (key < kBadKey + cap || key == kNoKey) return;
    const std::int64_t pair = key >> kRowBits, i = key & kRowMask;
    const std::int64_t first = lower_bound_key(sorted.data, 0, p, pair << kRowBits);
    const std::int64_t k = (pair << kRowBits) | (p - first);
    row_key[i] = k;
    const std::int64_t nh = hcount[0];
    const std::int64_t at = lower_bound_key(hkey.data, 0, nh, k);
    lam[i] = (at < nh && hkey[at] == k) ? hlam[at] : real(0);
  }));
  build_segments_on(d, nb, View<const int>{sides.data, 2 * std::int64_t(launch)}, s_.row_start.view(),
                    s_.row_entry.view(), s_.fill.view());
  return launch;
}

// Each joint's linear and angular metric (joint_row_metric): the sums of its dynamic sides' 1/m and
// trace(I^-1)/3.
void SolverVBD::joint_metrics(real h) {
  const Model& m = *model_;
  const Device d = m.device;
  grow_to(s_.jc_lin, d, m.joint_count);
  grow_to(s_.jc_ang, d, m.joint_count);
  const Views v = views(nullptr, nullptr);
  const real rho_ = rho, k = std::numeric_limits<real>::infinity();
  parallel_for(d, m.joint_count, IMPULSE_KERNEL((std::int64_t j), {
    real w_lin = 0, w_ang = 0;
    const int sides[2] = {v.jparent[j], v.jchild[j]};
    for (int b : sides) {
      if (!v.dynamic(b)) continue;
      w_lin += v.inv_mass[b];
      w_ang += (v.I_inv[b].m[0][0] + v.I_inv[b].m[1][1] + v.I_inv[b].m[2][2]) / 3;
    }
    v.jc_lin[j] = compliant_alm_coefficients(k, joint_row_metric(rho_, w_lin, h));
    v.jc_ang[j] = compliant_alm_coefficients(k, joint_row_metric(rho_, w_ang, h));
  }));
}

// Colours (course E3 §6). Newton colours its bodies once, by joints only (ModelBuilder.color ->
// color_rigid_bodies in newton/_src/sim/graph_coloring.py), and solver_vbd.py launches one body pass
// per colour, so two bodies in contact may share a colour and run together. Here contacts are
// edges too and the colouring is redone each step: colour(b) = 1 + the largest
// colour among b's lower-numbered dynamic neighbours through a contact row or a joint (0 with none),
// -1 for a body the sweep skips. Neighbours never share a colour, and every lower-numbered neighbour
// of b is in an earlier colour and every higher-numbered one in a later colour, so solving colour by
// colour reads exactly the poses the sweep in body order read: the same result, bit for bit, with
// each colour's bodies free to run in any order.
//
// colour(b) is the length of the longest chain of neighbours b_0 < b_1 < ... < b_k = b: the
// longest-path level of the graph with its edges pointing to the higher number. It is found by
// relaxation rounds, each one pass over the bodies reading the previous round's colours:
//   c_0(b) = 0,   c_(r+1)(b) = max(0, max over lower dynamic neighbours o of c_r(o) + 1)
// By induction c_r(b) = min(colour(b), r), so after R rounds every body below R has its colour,
// and the colouring is complete exactly when no body reached R (the colour starts, read back with
// the step's readback, say so). R is the last step's colour count plus one, rounded up to even (a
// count grown by one or two still completes); a step whose count outgrew it runs as many rounds
// again and reads back once more (extend_colours).
void SolverVBD::colour_bodies() {
  const Model& m = *model_;
  const Device d = m.device;
  const int nb = m.body_count;
  grow_to(s_.colour, d, nb);
  grow_to(s_.colour_next, d, nb);
  grow_to(s_.colour_entry, d, nb);
  colour_rounds_done_ = 0;
  relax_colours(colour_rounds_next_);
}

// Relaxation rounds (an even number, at least `rounds`, so the colours end in s_.colour), then each
// colour's bodies listed by build_segments_on; the colour starts go to the readback. The step's
// first round reads c_0 = 0 for every dynamic body without an array holding it.
void SolverVBD::relax_colours(int rounds) {
  const Model& m = *model_;
  const Device d = m.device;
  const int nb = m.body_count;
  const Views v = views(nullptr, nullptr);
  for (int r = 0; r < rounds + rounds % 2; ++r) {
    const bool from_zero = colour_rounds_done_ + r == 0;
    const View<const int> in = (r % 2 ? s_.colour_next : s_.colour).view();
    const View<int> out = (r % 2 ? s_.colour : s_.colour_next).view();
    parallel_for(d, nb, IMPULSE_KERNEL((std::int64_t i), {
      const int b = int(i);
      if (!v.dynamic(b)) {
        out[b] = -1;
        return;
      }
      int c = 0;
      for (std::int64_t k = v.row_start[b]; k < v.row_start[b + 1]; ++k) {
        const VbdRow& row = v.rows[v.row_entry[k] >> 1];
        const int o = row.body0 == b ? row.body1 : row.body0;
        if (o >= 0 && o < b && v.dynamic(o)) c = max_int(c, (from_zero ? 0 : in[o]) + 1);
      }
      for (std::int64_t k = v.joint_start[b]; k < v.joint_start[b + 1]; ++k) {
        const int j = int(v.joint_entry[k] >> 1);
        const int o = v.jchild[j] == b ? v.jparent[j] : v.jchild[j];
        if (o >= 0 && o < b && v.dynamic(o)) c = max_int(c, (from_zero ? 0 : in[o]) + 1);
      }
      out[b] = c;
    }));
  }
  colour_rounds_done_ += rounds + rounds % 2;
  build_segments_on(d, nb, View<const int>(s_.colour.view()), View<std::int64_t>{s_.readback.data(), std::int64_t(nb) + 1},
                    s_.colour_entry.view(), s_.fill.view());
}

// After a readback: false when the colouring is complete (no body reached the round count R, or R
// covers the longest possible chain, nb - 1), remembering the count for the next step's rounds;
// otherwise runs R more rounds and returns true (the caller reads back again).
bool SolverVBD::extend_colours() {
  const int nb = model_->body_count;
  const std::int64_t* start = s_.readback_host.data();
  const int R = colour_rounds_done_;
  if (R >= nb - 1 || start[R] == start[nb]) {
    int count = 0;
    while (count < nb && start[count] < start[nb]) ++count;
    colour_rounds_next_ = count + 1;
    return false;
  }
  relax_colours(R);
  return true;
}

std::vector<int> SolverVBD::body_colours() const {
  if (!has_prev_) return {};
  std::vector<int> c = s_.colour.to_host();
  c.resize(std::size_t(model_->body_count));
  return c;
}

// The step's one readback: the colour starts (bodies + 1 entries), the record's count, its first row
// naming a shape outside the Model and that shape, and what collide found wrong. A refused collide,
// a record that overflowed or names such a shape is refused here, before any pose is written.
void SolverVBD::read_back(int launch, const ContactsView* contacts) {
  const int nb = model_->body_count;
  device_copy(s_.readback_host.data(), Device::cpu, s_.readback.data(), model_->device,
              sizeof(std::int64_t) * s_.readback_host.size());
  if (!contacts) return;
  int collide[kCollideStatusSize];
  for (int j = 0; j < kCollideStatusSize; ++j) collide[j] = int(s_.readback_host[std::size_t(nb + 4 + j)]);
  check_collide_status(collide, "SolverVBD");
  if (launch == 0) return;
  const std::int64_t count = s_.readback_host[nb + 1], bad = s_.readback_host[nb + 2];
  if (count < 0 || count > contacts->rigid_contact_max)
    throw std::invalid_argument("SolverVBD: contact record overflowed (count " + std::to_string(count) +
                                " > rigid_contact_max " + std::to_string(contacts->rigid_contact_max) +
                                "): the record is incomplete");
  if (bad >= 0)
    throw std::invalid_argument(
        contact_row_shape_message("SolverVBD", bad, int(s_.readback_host[nb + 3]), model_->shape_count));
}

// Inertial targets (the unconstrained prediction) and the initial guess, in state_out.body_q.
void SolverVBD::predict_targets(const State& in, State& out, real h) {
  const Model& m = *model_;
  const Device d = m.device;
  grow_to(s_.c_tilde, d, m.body_count);
  grow_to(s_.q_tilde, d, m.body_count);
  const Views v = views(&in, &out);
  auto f = s_.f.view();
  auto v0 = in.body_qd.view();
  const vec3 gravity = m.gravity;
  parallel_for(d, m.body_count, IMPULSE_KERNEL((std::int64_t b), {
    v.q[b] = v.q0[b];
    v.c_tilde[b] = vec3{};
    v.q_tilde[b] = quat{};
    if (!v.dynamic(int(b))) return;
    vec3 c = world_com(v.q0[b], v.com[b]), vl = v0[b].lin;
    linear_update(vl, c, f[b].lin, v.inv_mass[b], gravity, h);
    v.c_tilde[b] = c;
    v.q_tilde[b] = quat_update(v.q0[b].q, angular_update(v.q0[b].q, v0[b].ang, f[b].ang, v.I[b], v.I_inv[b], h), h);
    v.q[b] = {origin_from_com(c, v.q_tilde[b], v.com[b]), v.q_tilde[b]};
  }));
}

// One sweep of per-body 6x6 Newton steps: one launch per colour over its bodies (colour_bodies).
void SolverVBD::sweep_bodies(State& out, real h) {
  const Model& m = *model_;
  const int nb = m.body_count;
  const std::int64_t* start = s_.readback_host.data();
  const Views v = views(nullptr, &out);
  auto entry = s_.colour_entry.view();
  const real rho_ = rho, eps_v = friction_epsilon;
  for (int c = 0; c < nb && start[c] < start[nb]; ++c) {
    const std::int64_t first = start[c];
    parallel_for(m.device, start[c + 1] - first, IMPULSE_KERNEL((std::int64_t k), {
      body_step(v, int(entry[first + k]), h, rho_, eps_v);
    }));
  }
}

// Dual ascent once per sweep: each row's and joint's multiplier takes its force at the new poses.
void SolverVBD::dual_update(State& out, int launch, const ContactsView* contacts, real h) {
  const Model& m = *model_;
  const Device d = m.device;
  const Views v = views(nullptr, &out);
  const View<const transform> q0 = body_q_prev_.view();
  const real rho_ = rho;
  if (contacts && launch > 0) {
    const View<const int> count = contacts->rigid_contact_count;
    auto lam = s_.lam.view();
    const int cap = contacts->rigid_contact_max;
    parallel_for(d, launch, IMPULSE_KERNEL((std::int64_t i), {
      const int n = count[0];
      if (i >= ((n >= 0 && n <= cap) ? n : 0)) return;
      const VbdRow r = v.rows[i];
      CompliantAlmCoefficients cf = compliant_alm_coefficients(r.k, rho_);
      lam[i] = vbd_contact_normal_force(cf, row_gap(r, v.q), lam[i], r.kd, row_separation_speed(r, v.q, q0, h));
    }));
  }
  parallel_for(d, m.joint_count, IMPULSE_KERNEL((std::int64_t j), {
    if (JointType(v.jtype[j]) == JointType::free) return;
    JointFrames fr;
    JointErrors e;
    spatial_vector F = v.joint_reaction(int(j), v.q, fr, e);
    v.jlam_lin[j] = F.lin;
    v.jlam_ang[j] = F.ang;
  }));
}

// The multipliers are kept for the next step (the history, in key order: the sorted rows' order);
// velocities from the pose history.
void SolverVBD::finish_step(const State& in, State& out, int launch, const ContactsView* contacts, real h) {
  const Model& m = *model_;
  const Device d = m.device;
  const int cap = contacts ? contacts->rigid_contact_max : 0;
  if (hist_key_.size() < cap) {  // grown: the history is copied over
    Buffer<std::int64_t> k(d, cap);
    Buffer<real> l(d, cap);
    if (hist_key_.size() > 0) {
      copy_on_device(d, k.data(), hist_key_.data(), sizeof(std::int64_t) * std::size_t(hist_key_.size()));
      copy_on_device(d, l.data(), hist_lam_.data(), sizeof(real) * std::size_t(hist_lam_.size()));
    }
    hist_key_ = std::move(k);
    hist_lam_ = std::move(l);
  }
  auto hkey = hist_key_.view();
  auto hlam = hist_lam_.view();
  auto hcount = hist_count_.view();
  auto sorted = s_.sorted.view();
  auto row_key = s_.row_key.view();
  auto lam = s_.lam.view();
  const std::int64_t lo = kBadKey + cap;
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), { hcount[0] = 0; }));
  if (contacts && launch > 0) {
    const View<const int> count = contacts->rigid_contact_count;
    parallel_for(d, launch, IMPULSE_KERNEL((std::int64_t p), {
      const int n = count[0];
      if (p == 0) hcount[0] = (n >= 0 && n <= cap) ? n : 0;
      const std::int64_t key = sorted[p];
      if (key < lo || key == kNoKey) return;
      const std::int64_t i = key & kRowMask;
      hkey[p] = row_key[i];
      hlam[p] = lam[i];
    }));
  }
  const Views v = views(&in, &out);
  auto v0 = in.body_qd.view();
  auto vel = out.body_qd.view();
  parallel_for(d, m.body_count, IMPULSE_KERNEL((std::int64_t b), {
    vel[b] = v0[b];
    if (!v.dynamic(int(b))) return;
    vel[b] = {(world_com(v.q[b], v.com[b]) - world_com(v.q0[b], v.com[b])) / h, rotation_between(v.q0[b].q, v.q[b].q) / h};
  }));
}

std::vector<VbdContactForce> SolverVBD::collect_rigid_contact_forces(const std::vector<transform>& body_q,
                                                                     const std::vector<transform>& body_q_prev,
                                                                     const ContactsView& contacts, real dt) const {
  if (!(dt > 0)) throw std::invalid_argument("collect_rigid_contact_forces: dt must be > 0 s");
  const Model& m = *model_;
  if (int(body_q.size()) != m.body_count || body_q_prev.size() != body_q.size())
    throw std::invalid_argument("collect_rigid_contact_forces: body_q and body_q_prev need one pose per body");
  const int n = checked_contact_count(contacts, m, "SolverVBD");
  check_contact_material_path(contacts, SolverPath::vbd, SolverPath::vbd, "SolverVBD");
  const Device d = m.device;
  grow_to(s_.q_now, d, m.body_count);
  grow_to(s_.q_then, d, m.body_count);
  grow_to(s_.forces, d, n);
  s_.q_now.copy_from_host(body_q.data());
  s_.q_then.copy_from_host(body_q_prev.data());
  prepare_rows(&contacts);
  const Views v = views(nullptr, nullptr);
  const View<const transform> now = s_.q_now.view(), prev = s_.q_then.view();
  auto out = s_.forces.view();
  const real rho_ = rho, eps_v = friction_epsilon;
  parallel_for(d, n, IMPULSE_KERNEL((std::int64_t i), {
    const VbdRow r = v.rows[i];
    vec3 x0 = row_point(r.body0, r.p0, now) + r.m0 * r.n, x1 = row_point(r.body1, r.p1, now) - r.m1 * r.n;
    real fn = vbd_contact_normal_force(compliant_alm_coefficients(r.k, rho_), row_gap(r, now), v.lam[i], r.kd,
                                       row_separation_speed(r, now, prev, dt));
    vec3 ft = vbd_friction_force(r.mu, fn, row_slip_velocity(r, now, prev, dt), eps_v);
    out[i] = {r.body0, r.body1, x0, x1, fn * r.n + ft};
  }));
  std::vector<VbdContactForce> host = s_.forces.to_host();
  host.resize(std::size_t(n));
  return host;
}

}  // namespace impulse
