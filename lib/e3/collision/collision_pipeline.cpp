// CollisionPipeline: the stage schedule, capacity and matching (host orchestration; the per-element
// work is in collision_kernels.cpp).
#include "e3/collision/collision_pipeline.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <stdexcept>

#include "core/first_flagged.h"
#include "core/scan.h"
#include "e3/collision/collision_kernels.h"

namespace impulse {

BroadPhaseMode parse_broad_phase_mode(const std::string& s) {
  if (s == "nxn") return BroadPhaseMode::nxn;
  if (s == "sap") return BroadPhaseMode::sap;
  if (s == "explicit") return BroadPhaseMode::explicit_pairs;
  throw std::invalid_argument("unknown broad phase mode '" + s + "' (use nxn, sap or explicit)");
}

ContactMatching parse_contact_matching(const std::string& s) {
  if (s == "disabled") return ContactMatching::disabled;
  if (s == "latest") return ContactMatching::latest;
  if (s == "sticky") return ContactMatching::sticky;
  throw std::invalid_argument("unknown contact_matching '" + s + "' (use disabled, latest or sticky)");
}

CollisionPipeline::CollisionPipeline(const Model& model, CollisionPipelineOptions options)
    : model_(model), opt_(options) {
  if (opt_.rigid_contact_max < -1)
    throw std::invalid_argument("CollisionPipeline: rigid_contact_max must be >= 0 (or -1 to estimate), got " +
                                std::to_string(opt_.rigid_contact_max));
  if (opt_.speculative_contact_gap_max < 0)
    throw std::invalid_argument("CollisionPipeline: speculative_contact_gap_max must be >= 0 m");
  if (opt_.contact_matching_distance < 0)
    throw std::invalid_argument("CollisionPipeline: contact_matching_distance must be >= 0 m");
  if (!(opt_.broad_phase_reuse_margin >= 0))
    throw std::invalid_argument("CollisionPipeline: broad_phase_reuse_margin must be >= 0 m, got " +
                                std::to_string(opt_.broad_phase_reuse_margin));
  if (opt_.shape_pairs_max == 0 || opt_.shape_pairs_max < -1)
    throw std::invalid_argument("CollisionPipeline: shape_pairs_max must be >= 1 (or -1 to estimate), got " +
                                std::to_string(opt_.shape_pairs_max));
  // The pipeline takes infinite planes only.
  const std::vector<int> type = model.shape_type.to_host();
  const std::vector<vec3> scale = model.shape_scale.to_host();
  for (int s = 0; s < model.shape_count; ++s)
    if (type[s] == SHAPE_PLANE && (scale[s].x != 0 || scale[s].y != 0))
      throw std::invalid_argument("CollisionPipeline: shape " + std::to_string(s) +
                                  (model.shape_label.empty() || model.shape_label[s].empty() ? ""
                                                                                            : " '" + model.shape_label[s] + "'") +
                                  ": the collision pipeline takes infinite planes only (width = length = 0)");
  if (opt_.broad_phase == BroadPhaseMode::explicit_pairs)
    shape_contact_pairs_ = Buffer<std::int64_t>(model.device, filter_passing_pairs(model));
  const std::int64_t pairs = opt_.broad_phase == BroadPhaseMode::explicit_pairs ? shape_contact_pairs_.size()
                             : opt_.shape_pairs_max > 0                          ? opt_.shape_pairs_max
                                                                                 : estimate_shape_pairs_max(model);
  broad_ = BroadPhaseScratch(model.device, pairs);
  pc_ = Buffer<PairContacts>(model.device, pairs);
  pair_count_ = Buffer<int>(model.device, pairs);
  offset_ = Buffer<std::int64_t>(model.device, pairs + 1);
  if (opt_.broad_phase == BroadPhaseMode::sap) prepare_broad_phase_sap(model, broad_);
  if (opt_.broad_phase_reuse) {
    // The grown AABBs overlap more pairs than the tight ones: twice the pair capacity (an overflow
    // only costs time, see check_broad_phase_fallback); the explicit list bounds them itself.
    reuse_ = BroadPhaseReuse(model, opt_.broad_phase == BroadPhaseMode::explicit_pairs ? pairs : 2 * pairs);
    if (opt_.broad_phase == BroadPhaseMode::sap) prepare_broad_phase_sap(model, reuse_.candidates);
  }
  max_ = opt_.rigid_contact_max >= 0 ? opt_.rigid_contact_max : std::max(64, 4 * kMaxPairContacts * model.shape_count);
  if (opt_.contact_matching != ContactMatching::disabled) previous_ = ContactHistory(model.device, max_);
  pose_ = Buffer<transform>(model.device, model.shape_count);
  aabb_ = Buffer<aabb>(model.device, model.shape_count);
  speed_ = Buffer<real>(model.device, model.shape_count);
  non_finite_ = Buffer<int>(model.device, model.body_count);
  non_finite_blocks_ = Buffer<int>(model.device, first_flagged_blocks(model.body_count));
}

std::vector<std::int64_t> CollisionPipeline::last_candidate_pairs() const {
  const std::int64_t found = broad_.found.to_host()[0];
  return view_to_host(broad_.result(model_.device), model_.device, std::min(found, broad_.pair_capacity));
}

std::int64_t CollisionPipeline::broad_phase_rebuild_count() const {
  return opt_.broad_phase_reuse ? reuse_.passes.to_host()[0] : 0;
}

std::int64_t CollisionPipeline::broad_phase_fallback_count() const {
  return opt_.broad_phase_reuse ? reuse_.passes.to_host()[1] : 0;
}

Contacts CollisionPipeline::contacts() const {
  Contacts c(model_.device, max_, opt_.request_contact_force);
  c.model = &model_;
  return c;
}

void CollisionPipeline::reset_matching() {
  if (opt_.contact_matching != ContactMatching::disabled) previous_.clear();
}

void CollisionPipeline::collide(View<const transform> body_q, Contacts& c, View<const spatial_vector> body_qd, real dt) {
  using clock = std::chrono::steady_clock;
  const clock::time_point t0 = clock::now();
  if (body_q.size != model_.body_count)
    throw std::invalid_argument("collide: body_q has " + std::to_string(body_q.size) + " poses, the model has " +
                                std::to_string(model_.body_count) + " bodies");
  if (body_qd.size != 0 && body_qd.size != model_.body_count)
    throw std::invalid_argument("collide: body_qd must be empty or hold one twist per body");
  if (!(dt >= 0)) throw std::invalid_argument("collide: dt must be >= 0 s");
  if (c.device != model_.device) throw std::invalid_argument("collide: Contacts live on another device");
  if (c.collide_status.size() < kCollideStatusSize)
    throw std::invalid_argument("collide: the Contacts record has no collide_status (make it with Contacts(...))");
  stages_.clear();

  // clear / update AABB; a non-finite pose is flagged on the device (the step's readback reports it)
  c.clear();
  find_non_finite_body(model_.device, body_q, non_finite_.view(), non_finite_blocks_.view(),
                       View<int>{c.collide_status.data(), 1});
  stages_.push_back("clear");
  compute_shape_aabbs(model_, body_q, body_qd, dt, opt_.speculative_contact_gap_max, pose_.view(), aabb_.view(),
                      speed_.view());
  stages_.push_back("update_aabb");

  // world / group / exclusion filtering happens inside each broad phase, before a pair is kept.
  const auto broad_phase = [&](View<const aabb> boxes, BroadPhaseScratch& s, LaunchGate gate) {
    switch (opt_.broad_phase) {
      case BroadPhaseMode::nxn: broad_phase_nxn(model_, boxes, s, gate); break;
      case BroadPhaseMode::sap: broad_phase_sap(model_, boxes, s, gate); break;
      case BroadPhaseMode::explicit_pairs: broad_phase_explicit(model_, shape_contact_pairs_.view(), boxes, s, gate); break;
    }
  };
  const View<const aabb> tight = aabb_.view();
  if (!opt_.broad_phase_reuse) {
    broad_phase(tight, broad_, {});
  } else {
    // Reuse (broad_phase_reuse.h): rebuild the candidates from grown AABBs when a shape left its
    // grown AABB, keep the candidates whose tight AABBs overlap, and run the broad phase afresh
    // where that list cannot stand for it. Each decision is a device flag (no host copy).
    check_grown_aabbs(model_.device, tight, reuse_);
    grow_aabbs(model_.device, tight, opt_.broad_phase_reuse_margin, reuse_);
    broad_phase(reuse_.fat.view(), reuse_.candidates, reuse_.rebuild_gate());
    filter_candidate_pairs(model_.device, tight, reuse_, broad_);
    check_broad_phase_fallback(model_.device, reuse_, broad_, c.collide_status.view());
    broad_phase(tight, broad_, reuse_.fallback_gate());
  }
  write_broad_phase_status(model_.device, broad_, c.collide_status.view());
  stages_.push_back("filter");
  stages_.push_back("broad_phase");
  const clock::time_point t1 = clock::now();

  // narrow phase (with its per-pair reduction and contact counts), over the broad phase's launch
  // extent: its count stays on the device
  const std::int64_t np = broad_.launch(model_.device);
  const View<PairContacts> pc{pc_.data(), np};
  const View<int> count{pair_count_.data(), np};
  narrow_phase(model_, pose_.view(), speed_.view(), dt, opt_.speculative_contact_gap_max,
               broad_.result(model_.device), broad_.found.view(), pc, count);
  stages_.push_back("narrow_phase");
  stages_.push_back("reduction");
  const clock::time_point t2 = clock::now();

  // the record: slots by an ordered count (core/scan.h's exclusive scan of the per-pair counts),
  // writes skipped past capacity; the total stays on the device as rigid_contact_count
  exclusive_scan(model_.device, View<const int>{pair_count_.data(), np}, View<std::int64_t>{offset_.data(), np + 1});
  write_contacts(model_, body_q, View<const std::int64_t>{broad_.pairs.data(), np}, View<const PairContacts>{pc_.data(), np},
                 View<const std::int64_t>{offset_.data(), np + 1}, c);
  if (opt_.contact_matching != ContactMatching::disabled) {
    if (previous_.shape0.size() < c.rigid_contact_max)  // a record larger than contacts() makes
      previous_ = ContactHistory(model_.device, c.rigid_contact_max);
    match_contacts(model_.device, previous_, c, opt_.contact_matching == ContactMatching::sticky,
                   opt_.contact_matching_distance);
    stages_.push_back("matching");
  }
  stages_.push_back("contacts");
  const clock::time_point t3 = clock::now();
  seconds_ = {std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count(),
              std::chrono::duration<double>(t3 - t2).count()};
  if (opt_.verify_buffers && c.overflowed()) {
    std::ostream& os = opt_.diagnostics ? *opt_.diagnostics : std::cerr;
    os << "warning: " << overflow_message(c.count(), c.rigid_contact_max) << '\n';
  }
}

}  // namespace impulse
