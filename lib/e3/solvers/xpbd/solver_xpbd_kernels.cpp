// SolverXPBD::step as the course's list of stages (E3 §4-§5), each a named launch site (either
// backend), and update_contacts (§8). The restitution pass (§5) is xpbd_restitution.cpp.
#include <chrono>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/host_copies.h"
#include "core/parallel_for.h"
#include "core/reduce.h"
#include "core/segments.h"
#include "core/segments_device.h"
#include "core/sort_pairs.h"
#include "core/fill.h"
#include "e1/integrator.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "e3/contacts/contact_row.h"
#include "e3/contacts/contact_materials.h"
#include "e3/contacts/contacts.h"
#include "e3/solvers/xpbd/xpbd_side.h"

namespace impulse {

using xpbd_detail::add_to;
using xpbd_detail::make_side;
using xpbd_detail::upload;

namespace {

/// Rows per block of the end-of-step status pass (finish_trace).
constexpr int kStatusBlock = 1024;

/// Sort key of a row past the record's count (contact_warm_start): sorts after every pair key.
constexpr std::int64_t kDeadRowKey = std::numeric_limits<std::int64_t>::max();

/// E3.8 readback of one row after an iteration: the row's impulse on body0, scaled by 1/N or
/// 2/(N_A + N_B) (contact_readback_scale), added to its accumulated impulse.
IMPULSE_HD inline void accumulate_row_impulse(std::int64_t i, bool weighting, View<const int> sd, View<const int> cnt,
                                              const spatial_vector& dA, spatial_vector& imp) {
  int ba = sd[2 * i], bb = sd[2 * i + 1];
  real s = 1;
  if (weighting) s = contact_readback_scale(ba, ba >= 0 ? cnt[ba] : 0, bb, bb >= 0 ? cnt[bb] : 0);
  imp.lin += s * dA.lin;
  imp.ang += s * dA.ang;
}

// keep: a contact row's entry counts when the row was active in this iteration.
struct ActiveContactRow {
  View<const int> active;
  IMPULSE_HD bool operator()(std::int64_t e) const { return active[e >> 1] != 0; }
};

// The body's delta from its own rows (the sum acc of N rows), weighted, applied to its pose and
// twist (xpbd_apply_body_delta). Contacts (count_weighted): weight 1/N or 1 (contact_count_weight),
// the count kept for the readback's scale, and nothing on a step without contact rows (live[0] = 0:
// no contact stage, nor its velocity clamp); joints: weight 1.
struct ApplyBodyDelta {
  View<const vec3> com_B;
  View<const mat33> I_B, inv_I;
  View<const real> inv_m;
  View<transform> q;
  View<spatial_vector> qd;
  real h;
  bool count_weighted;
  bool weighting;         // rigid_contact_con_weighting
  View<const int> live;   // (1) contact rows of the step (count_weighted only)
  View<int> cnt;          // (body_count) N of each body (count_weighted only)
  IMPULSE_HD void operator()(std::int64_t b, const spatial_vector& acc, int N) const {
    real weight = 1;
    if (count_weighted) {
      if (live[0] == 0) return;
      cnt[b] = N;
      weight = contact_count_weight(weighting, N);
    }
    transform X = q[b];
    spatial_vector v = qd[b];
    xpbd_apply_body_delta(X, v, com_B[b], I_B[b], inv_I[b], inv_m[b], acc, weight, h);
    q[b] = X;
    qd[b] = v;
  }
};

// value: the joint_f wrench of joint e >> 1 on the body of entry e (child +, parent -).
struct JointForceEntry {
  View<const int> jtype, jparent, qd_start;
  View<const JointAxes> jaxes;
  View<const transform> jXp, q_in;
  View<const real> jf;
  IMPULSE_HD spatial_vector operator()(std::int64_t e) const {
    const std::int64_t j = e >> 1;
    const real sign = (e & 1) ? real(1) : real(-1);
    const transform Xp = jparent[j] >= 0 ? q_in[jparent[j]] : transform_identity();
    const spatial_vector w = joint_force_on_child(JointType(jtype[j]), jaxes[j], transform_multiply(Xp, jXp[j]).q,
                                                  &jf[qd_start[j]]);
    return spatial_vector{sign * w.lin, sign * w.ang};
  }
};

}  // namespace

SolverXPBD::SolverXPBD(const Model& model, int iters) : iterations(iters), model_(&model), gravity_(model.gravity) {
  const Model& m = model;
  auto flags = m.body_flags.to_host();
  auto inv_m = m.body_inv_mass.to_host();
  auto inv_I = m.body_inv_inertia.to_host();
  for (int b = 0; b < m.body_count; ++b)
    if (flags[b] & int(BodyFlag::kinematic)) {
      has_kinematic_ = true;
      inv_m[b] = 0;
      inv_I[b] = mat33{};
    }
  inv_mass_eff_ = upload(m.device, inv_m);
  inv_inertia_eff_ = upload(m.device, inv_I);
  // Joints with rows or a joint_f to apply between two bodies: every joint but FREE.
  auto type = m.joint_type.to_host();
  auto parent = m.joint_parent.to_host();
  auto child = m.joint_child.to_host();
  auto axes = m.joint_axes.to_host();
  std::vector<int> sides;
  for (int j = 0; j < m.joint_count; ++j) {
    if (JointType(type[j]) == JointType::d6 && axes[j].n_ang == 2)
      throw std::invalid_argument("SolverXPBD: joint " + std::to_string(j) +
                                  " is a D6 with two angular axes, which this solver cannot lock (use 0, 1 or 3)");
    bool rows = JointType(type[j]) != JointType::free;
    has_joint_rows_ = has_joint_rows_ || rows;
    sides.push_back(rows ? parent[j] : -1);
    sides.push_back(rows ? child[j] : -1);
  }
  std::vector<std::int64_t> start, entry;
  build_segments(m.body_count, sides, start, entry);
  joint_body_start_ = upload(m.device, start);
  joint_body_entry_ = upload(m.device, entry);
  wrench_ = Buffer<spatial_vector>(m.device, m.body_count);
  body_delta_ = Buffer<spatial_vector>(m.device, m.body_count);
  body_count_ = Buffer<int>(m.device, m.body_count);
  body_parent_f_ = Buffer<spatial_vector>(m.device, std::vector<spatial_vector>(m.body_count));
  step_.joint_impulse = Buffer<spatial_vector>(m.device, m.joint_count);
  step_.joint_dP = Buffer<spatial_vector>(m.device, m.joint_count);
  step_.joint_dC = Buffer<spatial_vector>(m.device, m.joint_count);
  step_.contact_start = Buffer<std::int64_t>(m.device, std::int64_t(m.body_count) + 1);
  step_.segment_fill = Buffer<std::int64_t>(m.device, m.body_count);
  step_.live = Buffer<int>(m.device, std::vector<int>{0});
}

void SolverXPBD::notify_model_changed() { gravity_ = model_->gravity; }

// The step, stage by stage (solver_xpbd.h lists what each stage does).
void SolverXPBD::step(const State& in, State& out, const Control& control, const ContactsView* contacts, real h) {
  check_step(in, out, control, contacts, h);
  begin_step(contacts);                          // 1. rows, contact segments, zero impulses (device)
  predict(in, control, out, h);                  // 2.+3. body_f + joint_f, the E1 §10 predictor
  if (contacts && rigid_contact_gauss_seidel) {
    if (contact_warm_start) warm_start_contacts(out, *contacts, h);  //  the last step's impulses, applied
    colour_contacts(*contacts);                  //    colours: no two rows of one share a moving body
  }
  for (int it = 0; it < iterations; ++it) {      // 4. fixed iterations, no early exit
    if (contacts) {
      const auto t0 = std::chrono::steady_clock::now();
      if (rigid_contact_gauss_seidel) {
        if (contact_linearised && (it == 0 || has_joint_rows_))
          linearise_contacts(out, *contacts, h, it == 0);  //  rows at the poses; body moves zeroed
        solve_contacts_coloured(out, *contacts, it, h);  // colour by colour, each row applied at once
        if (contact_linearised && (it == iterations - 1 || has_joint_rows_))
          move_linearised_bodies(out, h);        //    the summed moves onto the poses
      } else {
        solve_contacts(out, *contacts, it, h);   //    rigid contact deltas (and it - 1's readback impulses)
        apply_contact_deltas(out, it, h);        //    weighted apply
      }
      trace_.contact_pass_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    if (has_joint_rows_) {
      solve_joints(out, h);                      //    joint deltas
      apply_joint_deltas(out, h);                //    apply
    }
  }
  if (contacts && !rigid_contact_gauss_seidel) accumulate_contact_impulses(iterations - 1);  // the last iteration's readback
  if (contacts && contact_warm_start) keep_contact_history(*contacts);  // the next step's warm start
  store_impulses(in, control, contacts, h);      // 5. for update_contacts and body_parent_f
  if (enable_restitution && contacts) apply_restitution(out, *contacts, h);  // 6. §5 velocity pass
  restore_kinematic(in, out);
  finish_trace(contacts);                        // the step's one readback: record status, trace
}

void SolverXPBD::check_step(const State& in, const State& out, const Control& control, const ContactsView* contacts,
                            real h) {
  const Model& m = *model_;
  const int B = m.body_count;
  if (!(h > 0)) throw std::invalid_argument("SolverXPBD.step: step h must be positive (got " + std::to_string(h) + " s)");
  if (iterations <= 0)
    throw std::invalid_argument("SolverXPBD.step: iterations must be >= 1 (got " + std::to_string(iterations) + ")");
  if (enable_restitution && rigid_contact_restitution_iterations <= 0)
    throw std::invalid_argument("SolverXPBD.step: rigid_contact_restitution_iterations must be >= 1 (got " +
                                std::to_string(rigid_contact_restitution_iterations) + ")");
  if (contact_warm_start && !rigid_contact_gauss_seidel)
    throw std::invalid_argument("SolverXPBD.step: contact_warm_start needs rigid_contact_gauss_seidel (the Jacobi pass has no warm start)");
  if (contact_manifold_sweeps != 0 && !rigid_contact_gauss_seidel)
    throw std::invalid_argument("SolverXPBD.step: contact_manifold_sweeps needs rigid_contact_gauss_seidel (the Jacobi pass solves rows apart)");
  if (contact_linearised && !rigid_contact_gauss_seidel)
    throw std::invalid_argument("SolverXPBD.step: contact_linearised needs rigid_contact_gauss_seidel (the Jacobi pass applies rows apart)");
  if (!(contact_manifold_sweeps >= 0 && contact_manifold_sweeps <= 64))
    throw std::invalid_argument("SolverXPBD.step: contact_manifold_sweeps must be a whole number in [0, 64] (got " +
                                std::to_string(contact_manifold_sweeps) + ")");
  if (contact_warm_start) {
    if (!(contact_warm_start_scale >= 0 && contact_warm_start_scale <= 1))
      throw std::invalid_argument("SolverXPBD.step: contact_warm_start_scale must be in [0, 1] (got " +
                                  std::to_string(contact_warm_start_scale) + ")");
    if (!(contact_warm_start_friction_scale >= 0 && contact_warm_start_friction_scale <= 1))
      throw std::invalid_argument("SolverXPBD.step: contact_warm_start_friction_scale must be in [0, 1] (got " +
                                  std::to_string(contact_warm_start_friction_scale) + ")");
    if (!(contact_warm_start_distance > 0 && contact_warm_start_distance < real(1e30)))
      throw std::invalid_argument("SolverXPBD.step: contact_warm_start_distance must be a finite number > 0 m (got " +
                                  std::to_string(contact_warm_start_distance) + ")");
  }
  if (&in == &out) throw std::invalid_argument("SolverXPBD.step: state_in and state_out must be different States");
  if (in.body_q.size() != B || out.body_q.size() != B || in.body_qd.size() != B || out.body_qd.size() != B ||
      in.body_f.size() != B)
    throw std::invalid_argument("SolverXPBD.step: State body arrays do not match the model (" + std::to_string(B) +
                                " bodies)");
  if (control.joint_f.size != 0 && control.joint_f.size != m.joint_dof_count)
    throw std::invalid_argument("SolverXPBD.step: control.joint_f has the wrong length");
  // The record's count and shapes live on the device: they are checked there (begin_step makes a bad
  // record's rows inert) and reported by finish_trace's readback.
  if (contacts) {
    if (contacts->model != model_)
      throw std::invalid_argument("SolverXPBD.step: the contact record was made for another Model (a foreign record)");
    if (contacts->rigid_contact_count.size != 1)
      throw std::invalid_argument("SolverXPBD.step: rigid_contact_count must be a one-element array");
    check_contact_column_sizes(*contacts, contacts->rigid_contact_max, "SolverXPBD.step");  // no count read here
    check_contact_material_path(*contacts, SolverPath::xpbd, SolverPath::xpbd, "SolverXPBD.step");
  }
}

// Stage 1. Per row, on the device: its two bodies (rows at and past the record's count, or every row
// of an overflowed record, get none and do nothing; a row naming a shape outside the Model is marked
// -2), zero impulses (no warm start from the previous step); then the per-body contact segments.
// Buffers are sized at the first step and grown only when the capacity grows.
void SolverXPBD::begin_step(const ContactsView* contacts) {
  const Model& m = *model_;
  const Device dev = m.device;
  trace_.contact_passes = 0;
  trace_.contact_pass_seconds = 0;
  trace_.joint_passes = 0;
  trace_.active_contacts.clear();  // clear() keeps the vectors' storage
  trace_.restitution_ran = false;
  trace_.restitution_manifolds = 0;
  trace_.restitution_max_manifold_size = 0;
  trace_.restitution_sweeps = 0;
  trace_.restitution_lambda_min_per_outer.clear();
  trace_.restitution_body_dv.clear();
  restitution_trace_pending_ = false;
  step_.contact_passes = 0;
  const int cap = contacts ? contacts->rigid_contact_max : 0;
  if (contact_impulse_.size() != cap) {
    contact_impulse_ = Buffer<spatial_vector>(dev, cap);
    step_.impulse_rows = cap;  // fresh storage: every row to be zeroed
  }
  step_.capacity = cap;
  grow_to(step_.side, dev, 2 * std::int64_t(cap));
  grow_to(step_.contact_entry, dev, 2 * std::int64_t(cap));
  grow_to(step_.sides, dev, m.body_count);
  grow_to(step_.dA, dev, cap);
  grow_to(step_.dB, dev, cap);
  grow_to(step_.active, dev, std::int64_t(cap) * iterations);
  grow_to(step_.ever_active, dev, cap);
  if (has_joint_rows_) {  // child-side joint impulses of this step, for body_parent_f
    auto jimp = step_.joint_impulse.view();
    parallel_for(dev, m.joint_count, IMPULSE_KERNEL((std::int64_t j), { jimp[j] = spatial_vector{}; }));
  }
  if (!contacts) return;
  const ContactsView c = *contacts;
  // Rows a row pass launches over (core/scan.h's launch_extent): the count stays on the device and
  // each row reads it there; past the count a row does nothing.
  const int launch = int(launch_extent(dev, c.rigid_contact_count, cap));
  step_.launch = launch;
  const int S = m.shape_count;
  auto shape_body = m.shape_body.view();
  View<int> sd{step_.side.data(), 2 * std::int64_t(launch)};
  auto ever = step_.ever_active.view();
  auto imp = contact_impulse_.view();
  auto live = step_.live.view();
  if (launch == 0) parallel_for(dev, 1, IMPULSE_KERNEL((std::int64_t), { live[0] = 0; }));
  // The pass also zeroes the impulses of rows a previous step left non-zero past this step's launch.
  const int zero_rows = launch > step_.impulse_rows ? launch : step_.impulse_rows;
  step_.impulse_rows = launch;
  parallel_for(dev, zero_rows, IMPULSE_KERNEL((std::int64_t i), {
    imp[i] = spatial_vector{};
    if (i >= launch) return;
    const int n = c.rigid_contact_count[0];
    const int rows = (n >= 0 && n <= cap) ? n : 0;
    if (i == 0) live[0] = rows;
    ever[i] = 0;
    int a = -1, b = -1;
    if (i < rows) {
      const int s0 = c.rigid_contact_shape0[i], s1 = c.rigid_contact_shape1[i];
      if (!contact_row_shapes_valid(s0, s1, S)) {
        a = b = -2;
      } else {
        const ContactRowBodies rb = contact_row_bodies(shape_body, s0, s1);
        a = rb.body0;
        b = rb.body1;
      }
    }
    sd[2 * i] = a;
    sd[2 * i + 1] = b;
  }));
  build_segments_on(dev, m.body_count, View<const int>(sd), step_.contact_start.view(), step_.contact_entry.view(),
                    step_.segment_fill.view());
}

// Stages 2 and 3. External wrench (body_f + joint_f; state_in.body_f is never written) and the E1 §10
// predictor. Without joint_f the wrench is body_f itself, read in place. The predicted state is kept
// for the restitution pass.
void SolverXPBD::predict(const State& in, const Control& control, State& out, real h) {
  const Model& m = *model_;
  View<const spatial_vector> wrench_in = in.body_f.view();
  if (control.joint_f.size != 0 && m.joint_count != 0) {
    gather_body_wrenches(m, in, control, wrench_.view());
    wrench_in = wrench_.view();
  }
  // joint_f of the joints with rows (all but FREE) on their parent and child, each body summing its own
  if (control.joint_f.size != 0 && has_joint_rows_) {
    const JointForceEntry value{m.joint_type.view(), m.joint_parent.view(), m.joint_qd_start.view(),
                                m.joint_axes.view(), m.joint_X_p.view(), in.body_q.view(), control.joint_f};
    segmented_sum_into(m.device, View<const std::int64_t>(joint_body_start_.view()),
                       View<const std::int64_t>(joint_body_entry_.view()), value, wrench_.view());
  }
  integrate_bodies(m, in, wrench_in, out, gravity_, angular_damping, h);
  if (enable_restitution) {
    grow_to(step_.q_pred, m.device, m.body_count);
    grow_to(step_.qd_pred, m.device, m.body_count);
    copy_on_device(m.device, step_.q_pred.data(), out.body_q.data(), sizeof(transform) * m.body_count);
    copy_on_device(m.device, step_.qd_pred.data(), out.body_qd.data(), sizeof(spatial_vector) * m.body_count);
  }
}

// Each body's XpbdSide at the current poses (world COM, world inverse inertia: make_side), once per
// contact pass, for the rows to read; nothing on a step without contact rows.
void SolverXPBD::make_sides(const State& out) {
  const Model& m = *model_;
  auto flags = m.body_flags.view();
  auto com_B = m.body_com.view();
  auto inv_m = inv_mass_eff_.view();
  auto inv_I = inv_inertia_eff_.view();
  auto q = out.body_q.view();
  auto qd = out.body_qd.view();
  View<const int> live = step_.live.view();
  auto sides = step_.sides.view();
  parallel_for(m.device, m.body_count, IMPULSE_KERNEL((std::int64_t b), {
    if (live[0] == 0) return;
    sides[b] = make_side(int(b), q, qd, com_B, inv_m, inv_I, flags);
  }));
}

// Stage 4a. Every contact row's deltas on its two bodies from the current poses (no writes to bodies).
// Each body's side (world COM, world inverse inertia: make_side) is made once per iteration, before
// the rows, which read it (a body has several rows; the poses do not change during the pass).
// Fused into the same pass over the rows: the previous iteration's readback impulses (4c), which read
// that iteration's row deltas before this one overwrites them (nothing in between touches either).
void SolverXPBD::solve_contacts(State& out, const ContactsView& c, int it, real h) {
  const Model& m = *model_;
  const real relax = rigid_contact_relaxation;
  const int cap = step_.capacity;
  View<const int> sd{step_.side.data(), 2 * std::int64_t(cap)};
  View<const int> live = step_.live.view();
  auto a_out = step_.dA.view();
  auto b_out = step_.dB.view();
  View<int> act{step_.active.data() + std::int64_t(it) * cap, cap};
  View<const int> prev_act{step_.active.data() + std::int64_t(it > 0 ? it - 1 : 0) * cap, it > 0 ? cap : 0};
  auto ever = step_.ever_active.view();
  const bool weighting = rigid_contact_con_weighting;
  View<const int> cnt = body_count_.view();
  auto imp = contact_impulse_.view();
  View<const XpbdSide> sides = step_.sides.view();
  const XpbdSide world{};  // the static side, made once here (per row it was 216 bytes cleared each time)
  make_sides(out);
  parallel_for(m.device, step_.launch, IMPULSE_KERNEL((std::int64_t i), {
    if (i >= live[0]) return;
    if (prev_act.size > 0 && prev_act[i]) accumulate_row_impulse(i, weighting, sd, cnt, a_out[i], imp[i]);
    int ba = sd[2 * i], bb = sd[2 * i + 1];
    XpbdContactDelta r;
    if (c.rigid_contact_shape0[i] != c.rigid_contact_shape1[i] && ba != bb) {
      r = xpbd_contact_delta(ba >= 0 ? sides[ba] : world, bb >= 0 ? sides[bb] : world, c.rigid_contact_point0[i], c.rigid_contact_point1[i], c.rigid_contact_offset0[i],
                             c.rigid_contact_offset1[i], c.rigid_contact_normal[i], c.rigid_contact_margin0[i],
                             c.rigid_contact_margin1[i], c.rigid_contact_mu[i], c.rigid_contact_mu_torsional[i],
                             c.rigid_contact_mu_rolling[i], relax, h);
    }
    a_out[i] = r.dA;
    b_out[i] = r.dB;
    act[i] = r.active;
    ever[i] |= r.active;
  }));
  ++step_.contact_passes;
}

// Stage 3b (contact_warm_start). Each row starts from the impulses its (shape pair, rank among the
// pair's rows) had at the end of the last step, times contact_warm_start_scale, applied at the
// predicted poses (xpbd_contact_delta_accumulated); a row new to this step starts from zero. The rows'
// pair keys are sorted on the device (dead rows last), looked up in the last step's sorted keys.
void SolverXPBD::warm_start_contacts(State& out, const ContactsView& c, real h) {
  const Model& m = *model_;
  const Device dev = m.device;
  const int cap = step_.capacity, launch = step_.launch;
  grow_to(step_.p_acc, dev, cap);
  grow_to(step_.t_acc, dev, cap);
  grow_to(step_.key, dev, cap);
  grow_to(step_.key_order, dev, cap);
  if (step_.history_count.size() == 0) step_.history_count = Buffer<std::int64_t>(dev, std::vector<std::int64_t>{0});
  bool fresh = grow_to(step_.history_key, dev, cap);
  fresh = grow_to(step_.history_p, dev, cap) || fresh;
  fresh = grow_to(step_.history_t, dev, cap) || fresh;
  fresh = grow_to(step_.history_point, dev, cap) || fresh;
  if (fresh) fill(dev, step_.history_count.view(), std::int64_t(0));
  if (launch == 0) return;
  const std::int64_t S = m.shape_count;
  View<const int> live = step_.live.view();
  auto key = step_.key.view();
  auto order = step_.key_order.view();
  parallel_for(dev, launch, IMPULSE_KERNEL((std::int64_t i), {
    key[i] = i < live[0] ? std::int64_t(c.rigid_contact_shape0[i]) * S + c.rigid_contact_shape1[i] : kDeadRowKey;
    order[i] = int(i);
  }));
  sort_pairs(dev, View<std::int64_t>{key.data, launch}, View<int>{order.data, launch});
  View<const std::int64_t> hist_key = step_.history_key.view(), hist_count = step_.history_count.view();
  View<const real> hist_p = step_.history_p.view();
  View<const vec3> hist_t = step_.history_t.view();
  View<const vec3> hist_x = step_.history_point.view();
  auto p_acc = step_.p_acc.view();
  auto t_acc = step_.t_acc.view();
  const real scale = contact_warm_start_scale;
  const real near2 = contact_warm_start_distance * contact_warm_start_distance;
  const real tscale = contact_warm_start_friction_scale;
  parallel_for(dev, launch, IMPULSE_KERNEL((std::int64_t p), {
    const std::int64_t k = key[p];
    const int row = order[p];
    p_acc[row] = 0;
    t_acc[row] = vec3{};
    if (k == kDeadRowKey) return;
    // the nearest of the pair's last rows, by the contact point on shape0 in its body frame
    const std::int64_t n = hist_count[0];
    const vec3 x = c.rigid_contact_point0[row];
    std::int64_t best = -1;
    real best_d2 = near2;
    for (std::int64_t at = first_not_below(hist_key.data, n, k); at < n && hist_key[at] == k; ++at) {
      const vec3 e = hist_x[at] - x;
      const real d2 = dot(e, e);
      if (d2 < best_d2 || (best < 0 && d2 == best_d2)) {  // ties: the first
        best_d2 = d2;
        best = at;
      }
    }
    if (best >= 0) {
      p_acc[row] = scale * hist_p[best];
      t_acc[row] = tscale * hist_t[best];
    }
  }));
  // The warm impulses as iteration 0's deltas, applied with weight 1 (apply_contact_deltas).
  View<const XpbdSide> sides = step_.sides.view();
  View<const int> sd{step_.side.data(), 2 * std::int64_t(cap)};
  auto a_out = step_.dA.view();
  auto b_out = step_.dB.view();
  View<int> act{step_.active.data(), cap};
  auto imp = contact_impulse_.view();
  const XpbdSide world{};
  make_sides(out);
  parallel_for(dev, launch, IMPULSE_KERNEL((std::int64_t i), {
    if (i >= live[0]) return;
    const int ba = sd[2 * i], bb = sd[2 * i + 1];
    XpbdContactDelta r;
    if (c.rigid_contact_shape0[i] != c.rigid_contact_shape1[i] && ba != bb)
      r = xpbd_contact_warm_delta(ba >= 0 ? sides[ba] : world, bb >= 0 ? sides[bb] : world, c.rigid_contact_point0[i],
                                  c.rigid_contact_point1[i], c.rigid_contact_normal[i], p_acc[i], t_acc[i]);
    a_out[i] = r.dA;
    b_out[i] = r.dB;
    act[i] = r.active;
    imp[i] = r.dA;
  }));
  apply_contact_deltas(out, 0, h);
}

// Stage 5a (contact_warm_start). The rows' accumulated impulses in sorted key order, the next step's
// warm start; the count stays on the device.
void SolverXPBD::keep_contact_history(const ContactsView& c) {
  const Device dev = model_->device;
  const int launch = step_.launch;
  View<const int> live = step_.live.view();
  View<const std::int64_t> key = step_.key.view();
  View<const int> order = step_.key_order.view();
  View<const real> p_acc = step_.p_acc.view();
  View<const vec3> t_acc = step_.t_acc.view();
  auto hk = step_.history_key.view();
  auto hp = step_.history_p.view();
  auto ht = step_.history_t.view();
  auto hx = step_.history_point.view();
  auto hc = step_.history_count.view();
  parallel_for(dev, launch > 0 ? launch : 1, IMPULSE_KERNEL((std::int64_t p), {
    const int n = launch > 0 ? live[0] : 0;
    if (p == 0) hc[0] = n;
    if (p >= n) return;
    hk[p] = key[p];
    hp[p] = p_acc[order[p]];
    ht[p] = t_acc[order[p]];
    hx[p] = c.rigid_contact_point0[order[p]];
  }));
}

namespace {

/// Priority of row i in the colouring: a mix of i (SplitMix64's finaliser) above i itself, so that
/// priorities are unique, positive and spread, whatever the record's row order.
IMPULSE_HD inline std::int64_t colour_priority(std::int64_t i) {
  std::uint64_t z = std::uint64_t(i) + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return std::int64_t(((z >> 33) << 32) | (std::uint64_t(i) & 0xffffffffull));
}

constexpr std::int64_t kNoPriority = std::numeric_limits<std::int64_t>::max();

/// Whether rows i and j of the record belong to the same shape pair.
IMPULSE_HD inline bool same_shape_pair(const ContactsView& c, std::int64_t i, std::int64_t j) {
  return c.rigid_contact_shape0[i] == c.rigid_contact_shape0[j] && c.rigid_contact_shape1[i] == c.rigid_contact_shape1[j];
}

/// One contact row of the Gauss-Seidel pass: its correction from its bodies' current poses, applied
/// to them at once (weight 1); no other row of its colour touches them.
struct ColouredContactRow {
  ContactsView c;
  View<const int> sd, flags;
  View<const vec3> com_B;
  View<const mat33> I_B, inv_I;
  View<const real> inv_m;
  View<transform> q;
  View<spatial_vector> qd;
  View<int> act, ever;
  View<spatial_vector> imp;
  View<real> p_acc;
  View<vec3> t_acc;
  bool accumulated;
  real relax, h;
  int sweeps;                // contact_manifold_sweeps
  View<const int> live;      // (1) rows of the step
  bool linear;               // contact_linearised: the rows below, on the bodies' summed moves
  View<const XpbdLinearRow> lrows;
  View<spatial_vector> move;
  View<vec3> l_acc;
  View<const XpbdLinearRowRest> lrest;
  IMPULSE_HD void apply(int b, const spatial_vector& d) const {
    transform X = q[b];
    spatial_vector v = qd[b];
    xpbd_apply_body_delta(X, v, com_B[b], I_B[b], inv_I[b], inv_m[b], d, 1, h);
    q[b] = X;
    qd[b] = v;
  }
  IMPULSE_HD XpbdSide side(int b) const {  // body b at its current pose, the world for -1
    return b >= 0 ? make_side(b, q, qd, com_B, inv_m, inv_I, flags) : XpbdSide{};
  }
  // One linearised row (contact_linearised): xpbd_linear_row on its bodies' moves, then torsion and
  // rolling (xpbd_linear_row_angular).
  IMPULSE_HD void linear_row(std::int64_t i) const {
    const int ba = sd[2 * i], bb = sd[2 * i + 1];
    if (c.rigid_contact_shape0[i] == c.rigid_contact_shape1[i] || ba == bb) {
      act[i] = 0;
      return;
    }
    spatial_vector mA = ba >= 0 ? move[ba] : spatial_vector{}, mB = bb >= 0 ? move[bb] : spatial_vector{};
    linear_row_on(i, mA, mB);
    if (ba >= 0) move[ba] = mA;
    if (bb >= 0) move[bb] = mB;
  }
  // Row i on its bodies' moves mA, mB (held by the caller).
  IMPULSE_HD void linear_row_on(std::int64_t i, spatial_vector& mA, spatial_vector& mB) const {
    const XpbdLinearRow& r = lrows[i];
    int moved = xpbd_linear_row(r, 0, relax, h, p_acc[i], t_acc[i], mA, mB);
    if ((r.mu_torsional > 0 || r.mu_rolling > 0) &&
        xpbd_linear_row_angular(r, lrest[i], relax, h, p_acc[i], l_acc[i], mA, mB))
      moved = 1;
    act[i] = moved;
    ever[i] |= moved;
  }
  // The rows [i, end) of one shape pair (one body pair), sweeps times, their bodies' moves held
  // over the sweeps.
  IMPULSE_HD void linear_pair(std::int64_t i, std::int64_t end) const {
    const int ba = sd[2 * i], bb = sd[2 * i + 1];
    if (c.rigid_contact_shape0[i] == c.rigid_contact_shape1[i] || ba == bb) {
      for (std::int64_t j = i; j < end; ++j) act[j] = 0;
      return;
    }
    spatial_vector mA = ba >= 0 ? move[ba] : spatial_vector{}, mB = bb >= 0 ? move[bb] : spatial_vector{};
    for (int s = 0; s < sweeps; ++s)
      for (std::int64_t j = i; j < end; ++j) linear_row_on(j, mA, mB);
    if (ba >= 0) move[ba] = mA;
    if (bb >= 0) move[bb] = mB;
  }
  IMPULSE_HD void row(std::int64_t i) const {
    if (linear) return linear_row(i);
    const int ba = sd[2 * i], bb = sd[2 * i + 1];
    XpbdContactDelta r;
    if (c.rigid_contact_shape0[i] != c.rigid_contact_shape1[i] && ba != bb) {
      const XpbdSide A = side(ba), B = side(bb);
      if (accumulated)
        r = xpbd_contact_delta_accumulated(A, B, c.rigid_contact_point0[i], c.rigid_contact_point1[i],
                                           c.rigid_contact_offset0[i], c.rigid_contact_offset1[i],
                                           c.rigid_contact_normal[i], c.rigid_contact_margin0[i],
                                           c.rigid_contact_margin1[i], c.rigid_contact_mu[i],
                                           c.rigid_contact_mu_torsional[i], c.rigid_contact_mu_rolling[i], relax, h,
                                           p_acc[i], t_acc[i]);
      else
        r = xpbd_contact_delta(A, B, c.rigid_contact_point0[i], c.rigid_contact_point1[i], c.rigid_contact_offset0[i],
                               c.rigid_contact_offset1[i], c.rigid_contact_normal[i], c.rigid_contact_margin0[i],
                               c.rigid_contact_margin1[i], c.rigid_contact_mu[i], c.rigid_contact_mu_torsional[i],
                               c.rigid_contact_mu_rolling[i], relax, h);
      if (r.active) {
        if (ba >= 0) apply(ba, r.dA);
        if (bb >= 0) apply(bb, r.dB);
        add_to(imp[i], r.dA);
      }
    }
    act[i] = r.active;
    ever[i] |= r.active;
  }
  // The rows [i, i + k) of one shape pair, k <= kXpbdManifoldRows, solved together.
  IMPULSE_HD void manifold(std::int64_t i, int k) const {
    const int ba = sd[2 * i], bb = sd[2 * i + 1];
    XpbdManifoldRow rows[kXpbdManifoldRows];
    real p[kXpbdManifoldRows];
    vec3 t[kXpbdManifoldRows];
    XpbdContactDelta out[kXpbdManifoldRows];
    for (int j = 0; j < k; ++j) {
      const std::int64_t r = i + j;
      rows[j] = {c.rigid_contact_point0[r], c.rigid_contact_point1[r], c.rigid_contact_offset0[r],
                 c.rigid_contact_offset1[r], c.rigid_contact_normal[r],
                 c.rigid_contact_margin0[r] + c.rigid_contact_margin1[r], c.rigid_contact_mu[r],
                 c.rigid_contact_mu_torsional[r], c.rigid_contact_mu_rolling[r]};
      p[j] = accumulated ? p_acc[r] : 0;
      t[j] = accumulated ? t_acc[r] : vec3{};
    }
    const XpbdSide A = side(ba), B = side(bb);
    xpbd_manifold_delta(A, B, k, rows, relax, h, sweeps, p, t, out);
    spatial_vector dA{}, dB{};
    for (int j = 0; j < k; ++j) {
      const std::int64_t r = i + j;
      if (accumulated) {
        p_acc[r] = p[j];
        t_acc[r] = t[j];
      }
      if (out[j].active) {
        add_to(dA, out[j].dA);
        add_to(dB, out[j].dB);
        add_to(imp[r], out[j].dA);
      }
      act[r] = out[j].active;
      ever[r] |= out[j].active;
    }
    if (ba >= 0) apply(ba, dA);
    if (bb >= 0) apply(bb, dB);
  }
  // A coloured item: one row, or (contact_manifold_sweeps > 0) the head row of a shape pair's run of
  // rows, solved in blocks of kXpbdManifoldRows.
  IMPULSE_HD void operator()(std::int64_t i) const {
    if (sweeps == 0) return row(i);
    std::int64_t end = i + 1;
    while (end < live[0] && same_shape_pair(c, i, end)) ++end;
    if (linear) return linear_pair(i, end);  // the pair's rows in turn, sweeps times, on the bodies' moves
    if (end - i == 1 || c.rigid_contact_shape0[i] == c.rigid_contact_shape1[i] || sd[2 * i] == sd[2 * i + 1]) {
      for (std::int64_t j = i; j < end; ++j) row(j);
      return;
    }
    for (std::int64_t j = i; j < end; j += kXpbdManifoldRows)
      manifold(j, int(end - j < kXpbdManifoldRows ? end - j : kXpbdManifoldRows));
  }
};

}  // namespace

// Stage 3c (rigid_contact_gauss_seidel). Colours the rows so that no two rows of a colour share a
// body that moves (inverse mass > 0), on the device and deterministically: speculative greedy
// colouring (Gebremedhin and Manne, "Scalable parallel graph coloring algorithms", 2000) with ranks.
// Each round, per moving body (over its segment of rows): the colours its coloured rows took, each
// uncoloured row's rank (how many of the body's uncoloured rows have a smaller priority), and
// whether the row's tentative colour is free there and no uncoloured row of smaller priority
// proposed it too; per uncoloured row: keep its tentative colour when both bodies agree, else
// propose the r-th colour free at both bodies, r its larger rank (the lowest free one when fewer
// are free). The row of smallest priority at both its bodies has rank 0 and always keeps its
// proposal a round later, so every round colours at least what Jones-Plassmann would. Rows left
// after contact_colour_rounds, or finding no colour free, go to the overflow colour, which one item
// runs in row order. The rows are then sorted by colour (stable: row order within a colour) and
// each colour's start and count written; the counts stay on the device. The colouring is a function
// of the rows' shape pairs alone (bodies, priorities and the mode follow from them): when the
// record holds the same pairs in the same rows as at the last colouring, as a resting pile's does
// step after step, that colouring stands and none of the passes below does any work.
void SolverXPBD::colour_contacts(const ContactsView& c) {
  const Model& m = *model_;
  const Device dev = m.device;
  const int cap = step_.capacity, launch = step_.launch;
  constexpr int K = contact_colours;
  grow_to(step_.colour, dev, cap);
  grow_to(step_.tentative, dev, cap);
  grow_to(step_.priority, dev, cap);
  grow_to(step_.colour_pending, dev, 1);
  grow_to(step_.colour_key, dev, cap);
  grow_to(step_.colour_order, dev, cap);
  grow_to(step_.entry_rank, dev, 2 * std::int64_t(cap));
  grow_to(step_.body_mask, dev, m.body_count);
  grow_to(step_.colour_start, dev, K + 2);
  grow_to(step_.colour_count, dev, K + 1);
  grow_to(step_.colour_rows, dev, 1);
  grow_to(step_.colour_redo, dev, 1);
  const bool heads = contact_manifold_sweeps != 0;
  const bool may_keep = !grow_to(step_.colour_shape, dev, 2 * std::int64_t(cap)) && step_.coloured &&
                        step_.coloured_heads == heads;
  step_.coloured = true;
  step_.coloured_heads = heads;
  View<const int> live = step_.live.view();
  View<const int> sd{step_.side.data(), 2 * std::int64_t(cap)};
  View<const real> inv_m = inv_mass_eff_.view();
  View<const std::int64_t> seg = step_.contact_start.view(), entry = step_.contact_entry.view();
  auto colour = step_.colour.view();
  auto tentative = step_.tentative.view();
  auto entry_rank = step_.entry_rank.view();  // per (row, side): rank at that side's body, -1 when it lost there
  auto body_mask = step_.body_mask.view();
  auto priority = step_.priority.view();
  auto pending = step_.colour_pending.view();  // (1) rows left uncoloured
  auto made = step_.colour_shape.view();
  View<const int> redo = step_.colour_redo.view();
  const std::int64_t fresh = colour_again(c, may_keep);  // launch, or 0 when the last colouring stands
  const int manifolds = contact_manifold_sweeps;
  parallel_for(dev, fresh, IMPULSE_KERNEL((std::int64_t i), {
    if (!redo[0]) return;
    if (i < live[0]) {
      made[2 * i] = c.rigid_contact_shape0[i];
      made[2 * i + 1] = c.rigid_contact_shape1[i];
    }
    // Under contact_manifold_sweeps only the first row of each shape pair's run is coloured: it
    // stands for the run (ColouredContactRow), whose rows share its bodies.
    const bool head = manifolds == 0 || i == 0 || !(i < live[0]) || !same_shape_pair(c, i - 1, i);
    const bool row = i < live[0] && head && c.rigid_contact_shape0[i] != c.rigid_contact_shape1[i] && sd[2 * i] != sd[2 * i + 1];
    colour[i] = row ? -1 : -2;  // -2: no row (past the count, or one that does nothing)
    tentative[i] = -1;
    priority[i] = colour_priority(i);
    if (i == 0) pending[0] = 1;
  }));
  if (fresh == 0) parallel_for(dev, 1, IMPULSE_KERNEL((std::int64_t), { pending[0] = 0; }));
  for (int round = 0; round < contact_colour_rounds; ++round) {
    // A round runs while rows are left: on the CPU the count is read in place and the passes of a
    // finished colouring launch over nothing; on a GPU they launch and find every row coloured.
    const bool open = launch_extent(dev, View<const int>(pending), 1) > 0;
    parallel_for(dev, open ? m.body_count : 0, IMPULSE_KERNEL((std::int64_t b), {
      if (!redo[0] || !(inv_m[b] > 0)) return;
      std::uint64_t taken = 0;
      for (std::int64_t e = seg[b]; e < seg[b + 1]; ++e) {
        const int k = colour[entry[e] >> 1];
        if (k >= 0 && k < K) taken |= std::uint64_t(1) << k;
      }
      body_mask[b] = taken;
      for (std::int64_t e = seg[b]; e < seg[b + 1]; ++e) {
        const std::int64_t i = entry[e] >> 1;
        if (colour[i] != -1) continue;
        const std::int64_t pr = priority[i];
        const int t = tentative[i];
        bool keeps = t >= 0 && !((taken >> t) & 1);
        int rank = 0;
        for (std::int64_t f = seg[b]; f < seg[b + 1]; ++f) {
          const std::int64_t j = entry[f] >> 1;
          if (j == i || colour[j] != -1 || priority[j] > pr) continue;
          ++rank;
          if (tentative[j] == t) keeps = false;
        }
        entry_rank[entry[e]] = keeps ? rank : -1 - rank;  // -1 - rank: lost here
      }
    }));
    parallel_for(dev, open ? launch : 0, IMPULSE_KERNEL((std::int64_t i), {
      if (!redo[0] || colour[i] != -1) return;
      const int ba = sd[2 * i], bb = sd[2 * i + 1];
      const bool ma = ba >= 0 && inv_m[ba] > 0, mb = bb >= 0 && inv_m[bb] > 0;
      const int ra = ma ? entry_rank[2 * i] : 0, rb = mb ? entry_rank[2 * i + 1] : 0;
      if (tentative[i] >= 0 && ra >= 0 && rb >= 0) {
        colour[i] = tentative[i];
        return;
      }
      const std::uint64_t taken = (ma ? body_mask[ba] : 0) | (mb ? body_mask[bb] : 0);
      const int ua = ra >= 0 ? ra : -1 - ra, ub = rb >= 0 ? rb : -1 - rb;
      int want = ua > ub ? ua : ub, k = -1, lowest = -1;
      for (int q = 0; q < K; ++q) {
        if ((taken >> q) & 1) continue;
        if (lowest < 0) lowest = q;
        if (want-- == 0) {
          k = q;
          break;
        }
      }
      if (k < 0) k = lowest;
      if (k < 0) colour[i] = K;  // every colour taken: the overflow
      else tentative[i] = k;
    }));
    parallel_for(dev, open ? 1 : 0, IMPULSE_KERNEL((std::int64_t), {
      if (!redo[0]) return;
      int left = 0;
      for (std::int64_t i = 0; i < launch; ++i) left += colour[i] == -1 ? 1 : 0;
      pending[0] = left;
    }));
  }
  order_colours(fresh);  // rows sorted by colour, each colour's start and count
}

// Stage 3c, start (rigid_contact_gauss_seidel): whether the record holds other shape pairs or rows
// than at the last colouring (colour_redo, on the device; pending zeroed when not). On the CPU the
// flag is read in place and a kept colouring launches nothing after it (returns 0); on a GPU the
// passes launch (returns the launch extent) and return at once.
std::int64_t SolverXPBD::colour_again(const ContactsView& c, bool may_keep) {
  View<const int> live = step_.live.view();
  auto made = step_.colour_shape.view();
  auto made_rows = step_.colour_rows.view();
  auto redo = step_.colour_redo.view();
  auto pending = step_.colour_pending.view();
  parallel_for(model_->device, 1, IMPULSE_KERNEL((std::int64_t), {
    const int n = live[0];
    int again = !may_keep || made_rows[0] != n;
    for (int i = 0; i < n && !again; ++i)
      again = made[2 * i] != c.rigid_contact_shape0[i] || made[2 * i + 1] != c.rigid_contact_shape1[i];
    redo[0] = again;
    made_rows[0] = n;
    if (!again) pending[0] = 0;
  }));
  return launch_extent(model_->device, View<const int>(redo), 1) > 0 ? step_.launch : 0;
}

// Stage 3c, end (rigid_contact_gauss_seidel): the rows sorted by colour (stable: row order within a
// colour; uncoloured rows past the overflow colour, dead rows last) and each colour's start and
// count; nothing to do (fresh == 0 on the CPU, the flag read on a GPU) when the last colouring stands.
void SolverXPBD::order_colours(std::int64_t fresh) {
  const Device dev = model_->device;
  const int launch = step_.launch;
  constexpr int K = contact_colours;
  View<const int> colour = step_.colour.view();
  View<const int> redo = step_.colour_redo.view();
  auto key = step_.colour_key.view();
  auto order = step_.colour_order.view();
  parallel_for(dev, fresh, IMPULSE_KERNEL((std::int64_t i), {
    if (!redo[0]) return;
    const int k = colour[i];
    key[i] = k == -2 ? kNoPriority : (k == -1 ? std::int64_t(K) : std::int64_t(k));
    order[i] = int(i);
  }));
  if (fresh > 0) sort_pairs(dev, View<std::int64_t>{key.data, launch}, View<int>{order.data, launch});
  auto start = step_.colour_start.view();
  auto count = step_.colour_count.view();
  parallel_for(dev, fresh > 0 ? K + 1 : 0, IMPULSE_KERNEL((std::int64_t k), {
    if (!redo[0]) return;
    const std::int64_t a = first_not_below(key.data, launch, k), b = first_not_below(key.data, launch, k + 1);
    start[k] = a;
    count[k] = int(b - a);
  }));
}

// Stage 4a (rigid_contact_gauss_seidel). One iteration: the colours in turn, each a launch over its
// rows (its count read in place on the CPU, the capacity on a GPU); the overflow colour is one item
// that runs its rows in row order. Readback impulses are summed as the rows apply them.
void SolverXPBD::solve_contacts_coloured(State& out, const ContactsView& c, int it, real h) {
  const Model& m = *model_;
  const Device dev = m.device;
  const int cap = step_.capacity;
  constexpr int K = contact_colours;
  const ColouredContactRow row{c,
                               View<const int>{step_.side.data(), 2 * std::int64_t(cap)},
                               m.body_flags.view(),
                               m.body_com.view(),
                               m.body_inertia.view(),
                               inv_inertia_eff_.view(),
                               inv_mass_eff_.view(),
                               out.body_q.view(),
                               out.body_qd.view(),
                               View<int>{step_.active.data() + std::int64_t(it) * cap, cap},
                               step_.ever_active.view(),
                               contact_impulse_.view(),
                               step_.p_acc.view(),
                               step_.t_acc.view(),
                               contact_warm_start,
                               rigid_contact_relaxation,
                               h,
                               contact_manifold_sweeps,
                               step_.live.view(),
                               contact_linearised,
                               step_.linear_rows.view(),
                               step_.body_move.view(),
                               step_.l_acc.view(),
                               step_.linear_rest.view()};
  View<const int> order = step_.colour_order.view();
  View<const std::int64_t> start = step_.colour_start.view();
  View<const int> count = step_.colour_count.view();
  for (int k = 0; k <= K; ++k) {
    std::int64_t n = launch_extent(dev, View<const int>{count.data + k, 1}, cap);
    if (k == K && n > 0) n = 1;
    if (n == 0) continue;
    parallel_for(dev, n, IMPULSE_KERNEL((std::int64_t p), {
      const int rows = count[k];
      if (k < K) {
        if (p < rows) row(order[start[k] + p]);
      } else {
        for (int j = 0; j < rows; ++j) row(order[start[k] + j]);
      }
    }));
  }
  ++step_.contact_passes;
}

// Stage 4a' (contact_linearised). Each row linearised at the current poses (xpbd_linearise_row), its
// impulses there kept as p0, t0 (first: zeroed when no warm start carried them), its torsion and
// rolling impulse and every body's summed move zeroed.
void SolverXPBD::linearise_contacts(const State& out, const ContactsView& c, real h, bool first) {
  const Model& m = *model_;
  const Device dev = m.device;
  const int cap = step_.capacity, launch = step_.launch;
  grow_to(step_.p_acc, dev, cap);
  grow_to(step_.t_acc, dev, cap);
  grow_to(step_.l_acc, dev, cap);
  grow_to(step_.linear_rows, dev, cap);
  grow_to(step_.linear_rest, dev, cap);
  grow_to(step_.body_move, dev, m.body_count);
  fill(dev, step_.body_move.view(), spatial_vector{});
  if (launch == 0) return;
  make_sides(out);
  View<const XpbdSide> sides = step_.sides.view();
  View<const int> sd{step_.side.data(), 2 * std::int64_t(cap)};
  View<const int> live = step_.live.view();
  auto rows = step_.linear_rows.view();
  auto rest = step_.linear_rest.view();
  auto p_acc = step_.p_acc.view();
  auto t_acc = step_.t_acc.view();
  auto l_acc = step_.l_acc.view();
  const bool zero = first && !contact_warm_start;
  parallel_for(dev, launch, IMPULSE_KERNEL((std::int64_t i), {
    if (i >= live[0]) return;
    if (zero) {
      p_acc[i] = 0;
      t_acc[i] = vec3{};
    }
    l_acc[i] = vec3{};
    const int ba = sd[2 * i], bb = sd[2 * i + 1];
    const XpbdManifoldRow r{c.rigid_contact_point0[i], c.rigid_contact_point1[i], c.rigid_contact_offset0[i],
                            c.rigid_contact_offset1[i], c.rigid_contact_normal[i],
                            c.rigid_contact_margin0[i] + c.rigid_contact_margin1[i], c.rigid_contact_mu[i],
                            c.rigid_contact_mu_torsional[i], c.rigid_contact_mu_rolling[i]};
    XpbdLinearRow l;
    XpbdLinearRowRest e;
    if (ba != bb && ba >= -1 && bb >= -1) {
      const XpbdSide& A = ba >= 0 ? sides[ba] : XpbdSide{};
      const XpbdSide& B = bb >= 0 ? sides[bb] : XpbdSide{};
      l = xpbd_linearise_row(A, B, r, h);
      if (l.mu_torsional > 0 || l.mu_rolling > 0) e = xpbd_linearise_row_rest(A, B, l);
    }
    e.p0 = p_acc[i];
    e.t0 = t_acc[i];
    rows[i] = l;
    rest[i] = e;
  }));
}

// Stage 4a'' (contact_linearised). Every body moved by its summed (u, theta): dv = u / h, dw_B = R^T
// theta / h through xpbd_move_body; each row's impulses since the rows were linearised added to the
// readback (on A: -(dP n + dT) at ra, sra; minus its torsion and rolling impulse).
void SolverXPBD::move_linearised_bodies(State& out, real h) {
  const Model& m = *model_;
  const Device dev = m.device;
  const int launch = step_.launch;
  View<const spatial_vector> move = step_.body_move.view();
  auto com_B = m.body_com.view();
  auto I_B = m.body_inertia.view();
  auto inv_I = inv_inertia_eff_.view();
  auto inv_m = inv_mass_eff_.view();
  auto q = out.body_q.view();
  auto qd = out.body_qd.view();
  parallel_for(dev, m.body_count, IMPULSE_KERNEL((std::int64_t b), {
    const spatial_vector u = move[b];
    if (inv_m[b] == 0 || (u.lin.x == 0 && u.lin.y == 0 && u.lin.z == 0 && u.ang.x == 0 && u.ang.y == 0 && u.ang.z == 0))
      return;
    transform X = q[b];
    spatial_vector v = qd[b];
    xpbd_move_body(X, v, com_B[b], I_B[b], inv_I[b], u.lin / h, quat_rotate_inv(X.q, u.ang) / h, h);
    q[b] = X;
    qd[b] = v;
  }));
  if (launch == 0) return;
  View<const XpbdLinearRow> rows = step_.linear_rows.view();
  View<const XpbdLinearRowRest> rest = step_.linear_rest.view();
  View<const real> p_acc = step_.p_acc.view();
  View<const vec3> t_acc = step_.t_acc.view();
  View<const vec3> l_acc = step_.l_acc.view();
  View<const int> live = step_.live.view();
  auto imp = contact_impulse_.view();
  parallel_for(dev, launch, IMPULSE_KERNEL((std::int64_t i), {
    if (i >= live[0]) return;
    const XpbdLinearRow& r = rows[i];
    const real dP = p_acc[i] - rest[i].p0;
    const vec3 dT = t_acc[i] - rest[i].t0;
    const real d1 = dot(dT, r.t1), d2 = dot(dT, r.t2);
    imp[i].lin -= dP * r.n + d1 * r.t1 + d2 * r.t2;
    imp[i].ang -= dP * r.an + d1 * r.a1 + d2 * r.a2 + l_acc[i];
  }));
}

XpbdContactPassBytes xpbd_contact_pass_bytes(bool linearised) {
  constexpr std::int64_t i = sizeof(int), r = sizeof(real), v = sizeof(vec3), s = sizeof(spatial_vector);
  constexpr std::int64_t e = sizeof(std::int64_t);
  constexpr std::int64_t row = sizeof(XpbdLinearRow), rest = sizeof(XpbdLinearRowRest), side = sizeof(XpbdSide);
  XpbdContactPassBytes b;
  if (linearised) {
    // a pass: colour slot, shape0/1, body pair, the row, p and t (read, write), active (write), ever
    // active (read, write); per body its move (read, write)
    b.per_row = i + 2 * i + 2 * i + row + 2 * r + 2 * v + i + 2 * i;
    b.per_body = 2 * s;
    // linearise_contacts: point0/1, offset0/1, normal, margin0/1, mu, mu_torsional, mu_rolling, body
    // pair, both sides, p and t (read), l (write), the row and its rest (write); the readback: the
    // row, its rest, p, t, l (read), impulse (read, write)
    b.per_row_step = 5 * v + 5 * r + 2 * i + 2 * side + r + v + v + row + rest + row + rest + r + 2 * v + 2 * s;
    // make_sides (flags, pose, twist, COM, inverse mass and inertia; the side written), the move
    // zeroed; move_linearised_bodies: move, inverse mass, COM, inertia, inverse inertia, pose and
    // twist (read, write)
    b.per_body_step = i + sizeof(transform) + s + v + r + sizeof(mat33) + side + s + s + r + v + 2 * sizeof(mat33) +
                      2 * std::int64_t(sizeof(transform)) + 2 * s;
    return b;
  }
  // solve_contacts: shape0/1, point0/1, offset0/1, normal, margin0/1, mu, mu_torsional, mu_rolling;
  // body pair; active (write), previous active, ever active (read, write); dA (read, write), dB;
  // impulse (read, write). apply_contact_deltas: two segment entries, their active flags, dA, dB.
  b.per_row = 2 * i + 5 * v + 5 * r + 2 * i + i + i + 2 * i + 3 * s + 2 * s + 2 * e + 2 * i + 2 * s;
  // the side pass: flags, pose, twist, COM, inverse mass and inertia; the side (write, read). apply:
  // segment start, count, COM, inertia, inverse inertia, inverse mass, pose and twist (read, write).
  b.per_body = i + sizeof(transform) + s + v + r + sizeof(mat33) + 2 * std::int64_t(sizeof(XpbdSide)) + e + i + v +
               2 * sizeof(mat33) + r + 2 * std::int64_t(sizeof(transform)) + 2 * s;
  return b;
}

// Stage 4b. Weighted apply: each body sums its own contacts in contact order, divides by its count N.
void SolverXPBD::apply_contact_deltas(State& out, int it, real h) {
  const Model& m = *model_;
  const ActiveContactRow keep{View<const int>{step_.active.data() + std::int64_t(it) * step_.capacity, step_.capacity}};
  const ApplyBodyDelta apply{m.body_com.view(), m.body_inertia.view(), inv_inertia_eff_.view(), inv_mass_eff_.view(),
                             out.body_q.view(), out.body_qd.view(), h, true, contact_weighting(),
                             step_.live.view(), body_count_.view()};
  segmented_sum_where<spatial_vector>(m.device, m.body_count, step_.contact_start.view(), step_.contact_entry.view(), keep,
                                      TwoSidedEntry{step_.dA.view(), step_.dB.view()}, apply);
}

// Stage 4c. Readback: iteration it's impulse on body0, scaled by 1/N or 2/(N_A + N_B). The earlier
// iterations' run inside the next solve_contacts pass; this is the last one's.
void SolverXPBD::accumulate_contact_impulses(int it) {
  const bool weighting = contact_weighting();
  const int cap = step_.capacity;
  View<const int> sd{step_.side.data(), 2 * std::int64_t(cap)};
  View<const int> live = step_.live.view();
  auto a_out = step_.dA.view();
  View<const int> act{step_.active.data() + std::int64_t(it) * cap, cap};
  View<const int> cnt = body_count_.view();
  auto imp = contact_impulse_.view();
  parallel_for(model_->device, step_.launch, IMPULSE_KERNEL((std::int64_t i), {
    if (i >= live[0] || !act[i]) return;
    accumulate_row_impulse(i, weighting, sd, cnt, a_out[i], imp[i]);
  }));
}

// Stage 4d. Every joint's deltas on its parent and child from the current poses.
void SolverXPBD::solve_joints(State& out, real h) {
  const Model& m = *model_;
  auto flags = m.body_flags.view();
  auto com_B = m.body_com.view();
  auto inv_m = inv_mass_eff_.view();
  auto inv_I = inv_inertia_eff_.view();
  auto q = out.body_q.view();
  auto qd = out.body_qd.view();
  auto p_out = step_.joint_dP.view();
  auto c_out = step_.joint_dC.view();
  auto jtype = m.joint_type.view();
  auto jaxes = m.joint_axes.view();
  auto jXp = m.joint_X_p.view();
  auto jXc = m.joint_X_c.view();
  auto jparent = m.joint_parent.view();
  auto jchild = m.joint_child.view();
  auto dmin = m.joint_distance_min.view();
  auto dmax = m.joint_distance_max.view();
  XpbdJointParams prm = joint;
  auto jimp = step_.joint_impulse.view();
  parallel_for(m.device, m.joint_count, IMPULSE_KERNEL((std::int64_t j), {
    XpbdSide P = make_side(jparent[j], q, qd, com_B, inv_m, inv_I, flags);
    XpbdSide C = make_side(jchild[j], q, qd, com_B, inv_m, inv_I, flags);
    XpbdJointDelta r = xpbd_joint_delta(JointType(jtype[j]), jaxes[j], P, C, jXp[j], jXc[j], dmin[j], dmax[j], prm, h);
    p_out[j] = r.dP;
    c_out[j] = r.dC;
    jimp[j].lin += r.dC.lin;
    jimp[j].ang += r.dC.ang;
  }));
  ++trace_.joint_passes;
}

// Stage 4e. Each body sums its joints' deltas in joint order and applies them (weight 1).
void SolverXPBD::apply_joint_deltas(State& out, real h) {
  const Model& m = *model_;
  const ApplyBodyDelta apply{m.body_com.view(), m.body_inertia.view(), inv_inertia_eff_.view(), inv_mass_eff_.view(),
                             out.body_q.view(), out.body_qd.view(), h, false, false, View<const int>{}, View<int>{}};
  segmented_sum_where<spatial_vector>(m.device, m.body_count, joint_body_start_.view(), joint_body_entry_.view(),
                                      KeepEveryEntry{}, TwoSidedEntry{step_.joint_dP.view(), step_.joint_dC.view()}, apply);
}

// Stage 5. Save this step's position impulses for update_contacts; body_parent_f from the joint impulses.
void SolverXPBD::store_impulses(const State& in, const Control& control, const ContactsView* contacts, real h) {
  const Model& m = *model_;
  impulse_capacity_ = contacts ? contacts->rigid_contact_max : 0;
  have_impulse_ = contacts != nullptr;
  last_h_ = h;
  // Only a joint with rows writes body_parent_f; without one it stays zero from construction.
  if (!has_joint_rows_) return;
  auto bpf = body_parent_f_.view();
  parallel_for(m.device, m.body_count, IMPULSE_KERNEL((std::int64_t b), { bpf[b] = spatial_vector{}; }));
  auto jimp = step_.joint_impulse.view();
  auto jtype = m.joint_type.view();
  auto jaxes = m.joint_axes.view();
  auto jXp = m.joint_X_p.view();
  auto jparent = m.joint_parent.view();
  auto jchild = m.joint_child.view();
  auto qd_start = m.joint_qd_start.view();
  auto q_in = in.body_q.view();
  View<const real> jf = control.joint_f;
  // One inbound joint per child body: each thread writes its own child's entry.
  parallel_for(m.device, m.joint_count, IMPULSE_KERNEL((std::int64_t j), {
    JointType t = JointType(jtype[j]);
    if (t == JointType::free) return;
    spatial_vector w{jimp[j].lin / h, jimp[j].ang / h};
    if (jf.size != 0) {
      transform Xp = jparent[j] >= 0 ? q_in[jparent[j]] : transform_identity();
      spatial_vector a = joint_force_on_child(t, jaxes[j], transform_multiply(Xp, jXp[j]).q, &jf[qd_start[j]]);
      w.lin += a.lin;
      w.ang += a.ang;
    }
    bpf[jchild[j]] = w;
  }));
}

// Kinematic bodies get their prescribed state back.
void SolverXPBD::restore_kinematic(const State& in, State& out) {
  if (!has_kinematic_) return;
  const Model& m = *model_;
  auto flags = m.body_flags.view();
  auto q = out.body_q.view();
  auto qd = out.body_qd.view();
  auto q_in = in.body_q.view();
  auto qd_in = in.body_qd.view();
  parallel_for(m.device, m.body_count, IMPULSE_KERNEL((std::int64_t b), {
    if (flags[b] & int(BodyFlag::kinematic)) {
      q[b] = q_in[b];
      qd[b] = qd_in[b];
    }
  }));
}

// The step's one readback. On the device, what collide found wrong (Contacts::collide_status, ahead
// of the blocks) and per block of rows: the first row naming a shape outside the Model, the
// record's count and each iteration's active rows; on the host, a refused collide, an overflowed or
// bad record is refused (state_out then holds an unspecified step) and the trace gets its counts.
void SolverXPBD::finish_trace(const ContactsView* contacts) {
  if (!contacts) return;
  const Device dev = model_->device;
  const int cap = step_.capacity;
  const int iters = step_.contact_passes;
  const int W = 2 + iters;
  const int launch = step_.launch;
  const std::int64_t blocks = launch > 0 ? (launch + kStatusBlock - 1) / kStatusBlock : 1;
  const int C = kCollideStatusSize;
  grow_to(step_.status, dev, C + blocks * W);
  auto st = step_.status.view();
  View<const int> record_count = contacts->rigid_contact_count;
  View<const int> collide_status = contacts->collide_status;
  const bool collided = collide_status.size >= C;
  View<const int> sd{step_.side.data(), 2 * std::int64_t(cap)};
  View<const int> act{step_.active.data(), std::int64_t(cap) * iters};
  parallel_for(dev, blocks, IMPULSE_KERNEL((std::int64_t k), {
    if (k == 0)
      for (int j = 0; j < C; ++j) st[j] = collided ? collide_status[j] : (j == 0 ? -1 : 0);
    int* out = &st[C + k * W];
    const int n = record_count[0];
    const int rows = (n >= 0 && n <= cap) ? n : 0;
    out[0] = -1;
    out[1] = n;
    for (int it = 0; it < iters; ++it) out[2 + it] = 0;
    const std::int64_t i1 = (k + 1) * kStatusBlock < rows ? (k + 1) * kStatusBlock : rows;
    for (std::int64_t i = k * kStatusBlock; i < i1; ++i) {
      if (out[0] < 0 && sd[2 * i] == -2) out[0] = int(i);
      for (int it = 0; it < iters; ++it) out[2 + it] += act[std::int64_t(it) * cap + i];
    }
  }));
  const int* h0 = host_readable(View<const int>(st), dev, C + blocks * W, step_.host_status);
  if (h0[0] >= 0 || h0[1] > h0[2]) have_impulse_ = false;
  check_collide_status(h0, "SolverXPBD.step");
  const int* h = h0 + C;
  const int count = h[1];
  if (count < 0 || count > cap) {
    have_impulse_ = false;
    throw std::invalid_argument("SolverXPBD.step: contact record overflowed (count " + std::to_string(count) +
                                " > rigid_contact_max " + std::to_string(cap) + "): the record is incomplete");
  }
  for (std::int64_t k = 0; k < blocks; ++k) {
    const int bad = h[k * W];
    if (bad < 0) continue;
    have_impulse_ = false;
    const int s[2] = {read_one(dev, contacts->rigid_contact_shape0, bad), read_one(dev, contacts->rigid_contact_shape1, bad)};
    const int shape = (s[0] < 0 || s[0] >= model_->shape_count) ? s[0] : s[1];
    throw std::invalid_argument(contact_row_shape_message("SolverXPBD.step", bad, shape, model_->shape_count));
  }
  if (count == 0) return;  // a step without contact rows has no contact passes in its trace
  trace_.contact_passes = iters;
  for (int it = 0; it < iters; ++it) {
    int n_active = 0;
    for (std::int64_t k = 0; k < blocks; ++k) n_active += h[k * W + 2 + it];
    trace_.active_contacts.push_back(n_active);
  }
}

void SolverXPBD::update_contacts(ContactsView& contacts) const {
  if (contacts.force.size == 0)
    throw std::invalid_argument(
        "SolverXPBD.update_contacts: the record has no force storage; call request_contact_attributes(\"force\") "
        "before making the Contacts");
  if (!have_impulse_)
    throw std::runtime_error("SolverXPBD.update_contacts: no step with contacts has run yet (no impulses to convert)");
  if (contacts.rigid_contact_max != impulse_capacity_)
    throw std::invalid_argument("SolverXPBD.update_contacts: record capacity " + std::to_string(contacts.rigid_contact_max) +
                                " differs from the stepped record's " + std::to_string(impulse_capacity_));
  int count = contact_count(contacts);
  if (count < 0 || count > contacts.rigid_contact_max)
    throw std::invalid_argument("SolverXPBD.update_contacts: contact record overflowed (count " + std::to_string(count) +
                                " > rigid_contact_max " + std::to_string(contacts.rigid_contact_max) + ")");
  auto imp = contact_impulse_.view();
  auto f = contacts.force;
  const real h = last_h_;
  parallel_for(model_->device, contacts.rigid_contact_max, IMPULSE_KERNEL((std::int64_t i), {
    if (i >= count) {
      f[i] = spatial_vector{};
      return;
    }
    f[i] = {vec3{impulse_to_average_force(imp[i].lin.x, h), impulse_to_average_force(imp[i].lin.y, h),
                 impulse_to_average_force(imp[i].lin.z, h)},
            vec3{impulse_to_average_force(imp[i].ang.x, h), impulse_to_average_force(imp[i].ang.y, h),
                 impulse_to_average_force(imp[i].ang.z, h)}};
  }));
}

}  // namespace impulse
