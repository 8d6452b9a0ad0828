// SolverXPBD::step as the course's list of stages (E3 §4-§5), each a named launch site (either
// backend), and update_contacts (§8). The restitution pass (§5) is xpbd_restitution.cpp.
#include <stdexcept>
#include <string>

#include "core/parallel_for.h"
#include "core/segments.h"
#include "e1/integrator.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "e3/solvers/xpbd/xpbd_side.h"

namespace impulse {

using xpbd_detail::add_to;
using xpbd_detail::make_side;
using xpbd_detail::upload;

SolverXPBD::SolverXPBD(const Model& model, int iters) : iterations(iters), model_(&model), gravity_(model.gravity) {
  const Model& m = model;
  auto flags = m.body_flags.to_host();
  auto inv_m = m.body_inv_mass.to_host();
  auto inv_I = m.body_inv_inertia.to_host();
  for (int b = 0; b < m.body_count; ++b)
    if (flags[b] & int(BodyFlag::kinematic)) {
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
}

void SolverXPBD::notify_model_changed() { gravity_ = model_->gravity; }

// The step, stage by stage (solver_xpbd.h lists what each stage does).
void SolverXPBD::step(const State& in, State& out, const Control& control, const ContactsView* contacts, real h) {
  const int count = check_step(in, out, control, contacts, h);
  begin_step(contacts, count);                   // 1. fresh impulse buffer, contact segments
  gather_external_wrench(in, control);           // 2. body_f + joint_f
  predict(in, out, h);                           // 3. the E1 §10 predictor
  for (int it = 0; it < iterations; ++it) {      // 4. fixed iterations, no early exit
    if (count > 0) {
      solve_contacts(out, *contacts, it, h);     //    rigid contact deltas
      apply_contact_deltas(out, it, h);          //    weighted apply
      accumulate_contact_impulses(it);           //    readback impulses
    }
    if (has_joint_rows_) {
      solve_joints(out, h);                      //    joint deltas
      apply_joint_deltas(out, h);                //    apply
    }
  }
  store_impulses(in, control, contacts, h);      // 5. for update_contacts and body_parent_f
  if (enable_restitution && count > 0) apply_restitution(out, *contacts, h);  // 6. §5 velocity pass
  restore_kinematic(in, out);
  finish_trace();                                // the trace's one readback of the step
}

int SolverXPBD::check_step(const State& in, const State& out, const Control& control, const ContactsView* contacts,
                           real h) {
  const Model& m = *model_;
  const int B = m.body_count;
  if (!(h > 0)) throw std::invalid_argument("SolverXPBD.step: step h must be positive (got " + std::to_string(h) + " s)");
  if (iterations <= 0)
    throw std::invalid_argument("SolverXPBD.step: iterations must be >= 1 (got " + std::to_string(iterations) + ")");
  if (enable_restitution && rigid_contact_restitution_iterations <= 0)
    throw std::invalid_argument("SolverXPBD.step: rigid_contact_restitution_iterations must be >= 1 (got " +
                                std::to_string(rigid_contact_restitution_iterations) + ")");
  if (&in == &out) throw std::invalid_argument("SolverXPBD.step: state_in and state_out must be different States");
  if (in.body_q.size() != B || out.body_q.size() != B || in.body_qd.size() != B || out.body_qd.size() != B ||
      in.body_f.size() != B)
    throw std::invalid_argument("SolverXPBD.step: State body arrays do not match the model (" + std::to_string(B) +
                                " bodies)");
  if (control.joint_f.size != 0 && control.joint_f.size != m.joint_dof_count)
    throw std::invalid_argument("SolverXPBD.step: control.joint_f has the wrong length");

  // The contact record: same Model, not overflowed, shapes inside the Model.
  int count = 0;
  step_.sides.clear();
  if (contacts) {
    if (contacts->model != model_)
      throw std::invalid_argument("SolverXPBD.step: the contact record was made for another Model (a foreign record)");
    count = contact_count(*contacts);
    if (count < 0 || count > contacts->rigid_contact_max)
      throw std::invalid_argument("SolverXPBD.step: contact record overflowed (count " + std::to_string(count) +
                                  " > rigid_contact_max " + std::to_string(contacts->rigid_contact_max) +
                                  "): the record is incomplete");
    step_.sides = contact_bodies(m, *contacts, count);
  }
  return count;
}

void SolverXPBD::begin_step(const ContactsView* contacts, int count) {
  const Model& m = *model_;
  const Device dev = m.device;
  trace_ = XpbdStepTrace{};
  step_.count = count;
  step_.contact_passes = 0;
  // This step's impulse buffer, zero (no warm start from the previous step); allocated again only
  // when the record's capacity changes.
  const int cap = contacts ? contacts->rigid_contact_max : 0;
  if (contact_impulse_.size() != cap) contact_impulse_ = Buffer<spatial_vector>(dev, cap);
  {
    auto imp = contact_impulse_.view();
    parallel_for(dev, cap, IMPULSE_LAMBDA(std::int64_t i) { imp[i] = spatial_vector{}; });
  }
  std::vector<std::int64_t> cstart_h, centry_h;
  build_segments(m.body_count, step_.sides, cstart_h, centry_h);
  step_.contact_start = upload(dev, cstart_h);
  step_.contact_entry = upload(dev, centry_h);
  step_.side = upload(dev, step_.sides);
  step_.dA = Buffer<spatial_vector>(dev, count);
  step_.dB = Buffer<spatial_vector>(dev, count);
  // One row of active flags per iteration, read back once at the end of the step for the trace.
  step_.active = Buffer<int>(dev, std::int64_t(count) * iterations);
  step_.ever_active = Buffer<int>(dev, std::vector<int>(count, 0));
  // Child-side joint impulses of this step, for body_parent_f.
  step_.joint_impulse = Buffer<spatial_vector>(dev, std::vector<spatial_vector>(m.joint_count));
  step_.joint_dP = Buffer<spatial_vector>(dev, m.joint_count);
  step_.joint_dC = Buffer<spatial_vector>(dev, m.joint_count);
}

// Stage 2. External wrench: body_f + joint_f, in a temporary buffer (state_in.body_f is not written).
void SolverXPBD::gather_external_wrench(const State& in, const Control& control) {
  const Model& m = *model_;
  gather_body_wrenches(m, in, control, wrench_.view());
  if (control.joint_f.size == 0 || m.joint_count == 0) return;
  auto wrench = wrench_.view();
  auto jstart = joint_body_start_.view();
  auto jentry = joint_body_entry_.view();
  auto jtype = m.joint_type.view();
  auto jaxes = m.joint_axes.view();
  auto jXp = m.joint_X_p.view();
  auto jparent = m.joint_parent.view();
  auto qd_start = m.joint_qd_start.view();
  auto q_in = in.body_q.view();
  View<const real> jf = control.joint_f;
  parallel_for(m.device, m.body_count, IMPULSE_LAMBDA(std::int64_t b) {
    for (std::int64_t k = jstart[b]; k < jstart[b + 1]; ++k) {
      std::int64_t j = jentry[k] >> 1;
      real sign = (jentry[k] & 1) ? real(1) : real(-1);  // child +, parent -
      transform Xp = jparent[j] >= 0 ? q_in[jparent[j]] : transform_identity();
      spatial_vector w = joint_force_on_child(JointType(jtype[j]), jaxes[j], transform_multiply(Xp, jXp[j]).q,
                                              &jf[qd_start[j]]);
      wrench[b].lin += sign * w.lin;
      wrench[b].ang += sign * w.ang;
    }
  });
}

// Stage 3. The E1 §10 predictor; the predicted state is kept for the restitution pass.
void SolverXPBD::predict(const State& in, State& out, real h) {
  integrate_bodies(*model_, in, wrench_.view(), out, gravity_, angular_damping, h);
  if (enable_restitution) {
    step_.q_pred = out.body_q;
    step_.qd_pred = out.body_qd;
  }
}

// Stage 4a. Every contact row's deltas on its two bodies from the current poses (no writes to bodies).
void SolverXPBD::solve_contacts(State& out, const ContactsView& c, int it, real h) {
  const Model& m = *model_;
  auto flags = m.body_flags.view();
  auto com_B = m.body_com.view();
  auto inv_m = inv_mass_eff_.view();
  auto inv_I = inv_inertia_eff_.view();
  auto q = out.body_q.view();
  auto qd = out.body_qd.view();
  const real relax = rigid_contact_relaxation;
  auto sd = step_.side.view();
  auto a_out = step_.dA.view();
  auto b_out = step_.dB.view();
  View<int> act{step_.active.data() + std::int64_t(it) * step_.count, step_.count};
  auto ever = step_.ever_active.view();
  parallel_for(m.device, step_.count, IMPULSE_LAMBDA(std::int64_t i) {
    int ba = sd[2 * i], bb = sd[2 * i + 1];
    XpbdContactDelta r;
    if (c.rigid_contact_shape0[i] != c.rigid_contact_shape1[i] && ba != bb) {
      XpbdSide A = make_side(ba, q, qd, com_B, inv_m, inv_I, flags);
      XpbdSide Bs = make_side(bb, q, qd, com_B, inv_m, inv_I, flags);
      r = xpbd_contact_delta(A, Bs, c.rigid_contact_point0[i], c.rigid_contact_point1[i], c.rigid_contact_offset0[i],
                             c.rigid_contact_offset1[i], c.rigid_contact_normal[i], c.rigid_contact_margin0[i],
                             c.rigid_contact_margin1[i], c.rigid_contact_mu[i], c.rigid_contact_mu_torsional[i],
                             c.rigid_contact_mu_rolling[i], relax, h);
    }
    a_out[i] = r.dA;
    b_out[i] = r.dB;
    act[i] = r.active;
    ever[i] |= r.active;
  });
  ++step_.contact_passes;
}

// Stage 4b. Weighted apply: each body sums its own contacts in contact order, divides by its count N.
void SolverXPBD::apply_contact_deltas(State& out, int it, real h) {
  const Model& m = *model_;
  auto com_B = m.body_com.view();
  auto I_B = m.body_inertia.view();
  auto inv_m = inv_mass_eff_.view();
  auto inv_I = inv_inertia_eff_.view();
  auto q = out.body_q.view();
  auto qd = out.body_qd.view();
  const bool weighting = rigid_contact_con_weighting;
  auto a_out = step_.dA.view();
  auto b_out = step_.dB.view();
  View<const int> act{step_.active.data() + std::int64_t(it) * step_.count, step_.count};
  auto cs = step_.contact_start.view();
  auto ce = step_.contact_entry.view();
  auto cnt = body_count_.view();
  parallel_for(m.device, m.body_count, IMPULSE_LAMBDA(std::int64_t b) {
    spatial_vector acc{};
    int N = 0;
    for (std::int64_t k = cs[b]; k < cs[b + 1]; ++k) {
      std::int64_t ci = ce[k] >> 1;
      if (!act[ci]) continue;
      add_to(acc, (ce[k] & 1) ? b_out[ci] : a_out[ci]);
      ++N;
    }
    cnt[b] = N;
    real weight = contact_count_weight(weighting, N);
    transform X = q[b];
    spatial_vector v = qd[b];
    xpbd_apply_body_delta(X, v, com_B[b], I_B[b], inv_I[b], inv_m[b], acc, weight, h);
    q[b] = X;
    qd[b] = v;
  });
}

// Stage 4c. Readback: this iteration's impulse on body0, scaled by 1/N or 2/(N_A + N_B).
void SolverXPBD::accumulate_contact_impulses(int it) {
  const bool weighting = rigid_contact_con_weighting;
  auto sd = step_.side.view();
  auto a_out = step_.dA.view();
  View<const int> act{step_.active.data() + std::int64_t(it) * step_.count, step_.count};
  auto cnt = body_count_.view();
  auto imp = contact_impulse_.view();
  parallel_for(model_->device, step_.count, IMPULSE_LAMBDA(std::int64_t i) {
    if (!act[i]) return;
    int ba = sd[2 * i], bb = sd[2 * i + 1];
    real s = 1;
    if (weighting) s = contact_readback_scale(ba, ba >= 0 ? cnt[ba] : 0, bb, bb >= 0 ? cnt[bb] : 0);
    imp[i].lin += s * a_out[i].lin;
    imp[i].ang += s * a_out[i].ang;
  });
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
  parallel_for(m.device, m.joint_count, IMPULSE_LAMBDA(std::int64_t j) {
    XpbdSide P = make_side(jparent[j], q, qd, com_B, inv_m, inv_I, flags);
    XpbdSide C = make_side(jchild[j], q, qd, com_B, inv_m, inv_I, flags);
    XpbdJointDelta r = xpbd_joint_delta(JointType(jtype[j]), jaxes[j], P, C, jXp[j], jXc[j], dmin[j], dmax[j], prm, h);
    p_out[j] = r.dP;
    c_out[j] = r.dC;
    jimp[j].lin += r.dC.lin;
    jimp[j].ang += r.dC.ang;
  });
  ++trace_.joint_passes;
}

// Stage 4e. Each body sums its joints' deltas in joint order and applies them (weight 1).
void SolverXPBD::apply_joint_deltas(State& out, real h) {
  const Model& m = *model_;
  auto com_B = m.body_com.view();
  auto I_B = m.body_inertia.view();
  auto inv_m = inv_mass_eff_.view();
  auto inv_I = inv_inertia_eff_.view();
  auto q = out.body_q.view();
  auto qd = out.body_qd.view();
  auto p_out = step_.joint_dP.view();
  auto c_out = step_.joint_dC.view();
  auto js = joint_body_start_.view();
  auto je = joint_body_entry_.view();
  parallel_for(m.device, m.body_count, IMPULSE_LAMBDA(std::int64_t b) {
    spatial_vector acc{};
    for (std::int64_t k = js[b]; k < js[b + 1]; ++k) add_to(acc, (je[k] & 1) ? c_out[je[k] >> 1] : p_out[je[k] >> 1]);
    transform X = q[b];
    spatial_vector v = qd[b];
    xpbd_apply_body_delta(X, v, com_B[b], I_B[b], inv_I[b], inv_m[b], acc, 1, h);
    q[b] = X;
    qd[b] = v;
  });
}

// Stage 5. Save this step's position impulses for update_contacts; body_parent_f from the joint impulses.
void SolverXPBD::store_impulses(const State& in, const Control& control, const ContactsView* contacts, real h) {
  const Model& m = *model_;
  impulse_capacity_ = contacts ? contacts->rigid_contact_max : 0;
  have_impulse_ = contacts != nullptr;
  last_h_ = h;
  auto bpf = body_parent_f_.view();
  parallel_for(m.device, m.body_count, IMPULSE_LAMBDA(std::int64_t b) { bpf[b] = spatial_vector{}; });
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
  parallel_for(m.device, m.joint_count, IMPULSE_LAMBDA(std::int64_t j) {
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
  });
}

// Kinematic bodies get their prescribed state back.
void SolverXPBD::restore_kinematic(const State& in, State& out) {
  const Model& m = *model_;
  auto flags = m.body_flags.view();
  auto q = out.body_q.view();
  auto qd = out.body_qd.view();
  auto q_in = in.body_q.view();
  auto qd_in = in.body_qd.view();
  parallel_for(m.device, m.body_count, IMPULSE_LAMBDA(std::int64_t b) {
    if (flags[b] & int(BodyFlag::kinematic)) {
      q[b] = q_in[b];
      qd[b] = qd_in[b];
    }
  });
}

// The trace's per-iteration active counts, from one readback of all iterations' flags.
void SolverXPBD::finish_trace() {
  trace_.contact_passes = step_.contact_passes;
  if (step_.contact_passes == 0) return;
  std::vector<int> flags = step_.active.to_host();
  for (int it = 0; it < step_.contact_passes; ++it) {
    int n_active = 0;
    for (int i = 0; i < step_.count; ++i) n_active += flags[std::size_t(it) * step_.count + i];
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
  parallel_for(model_->device, contacts.rigid_contact_max, IMPULSE_LAMBDA(std::int64_t i) {
    if (i >= count) {
      f[i] = spatial_vector{};
      return;
    }
    f[i] = {vec3{impulse_to_average_force(imp[i].lin.x, h), impulse_to_average_force(imp[i].lin.y, h),
                 impulse_to_average_force(imp[i].lin.z, h)},
            vec3{impulse_to_average_force(imp[i].ang.x, h), impulse_to_average_force(imp[i].ang.y, h),
                 impulse_to_average_force(imp[i].ang.z, h)}};
  });
}

}  // namespace impulse
