// CollisionPipeline: State -> Contacts, in the course's order (E3 §2):
//   current State -> clear / update AABB -> world / group / exclusion filtering -> broad phase
//   -> narrow phase -> reduction / optional matching / sort -> Contacts
// Solver steps and observation consumers come after, outside this class.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/buffer.h"
#include "core/spatial.h"
#include "e3/collision/broad_phase_reuse.h"
#include "e3/collision/collision_kernels.h"
#include "e1/model.h"
#include "e3/contacts/contacts.h"
#include "e3/collision/narrow_phase.h"

namespace impulse {

/// @formula E3.2-broadphase-modes  Ways to generate candidate pairs (course E3 §2): all pairs,
/// sweep and prune, or the filter-passing list the pipeline makes once from the Model. Not three force solvers: all
/// three produce the same candidate set.
enum class BroadPhaseMode { nxn, sap, explicit_pairs };
/// Parses "nxn", "sap" or "explicit"; anything else throws std::invalid_argument naming it.
BroadPhaseMode parse_broad_phase_mode(const std::string& s);

/// @formula E3.2-contact-matching  Frame-to-frame correspondence of contacts (course E3 §2).
///   disabled: no correspondence; latest: rigid_contact_match_index[i] = row of the same contact in
///   the previous collide (same shape pair, body-frame point0 within the matching distance), or -1;
///   sticky: as latest, and a matched row replays the previous row's geometry (points, offsets,
///   normal). Rows are always sorted by (shape0, shape1, point); reset_matching() forgets history.
/// Not a warm start: nothing of a solver is stored, and a row index is not a permanent contact ID.
enum class ContactMatching { disabled, latest, sticky };
ContactMatching parse_contact_matching(const std::string& s);

struct CollisionPipelineOptions {
  BroadPhaseMode broad_phase = BroadPhaseMode::sap;
  int rigid_contact_max = -1;                 // capacity [rows]; -1 = estimate (16 per shape, at least 64)
  int shape_pairs_max = -1;                   // broad-phase candidate pairs [pairs]; -1 = estimate
                                              // (estimate_shape_pairs_max; explicit: the listed pairs)
  ContactMatching contact_matching = ContactMatching::disabled;
  real contact_matching_distance = 0.01;      // [m] body-frame point0 distance for a match
  bool verify_buffers = false;                // warn on overflow after collide (no reallocation)
  real speculative_contact_gap_max = 0;       // cap of the speculative widening [m]; 0 = off
  bool request_contact_force = false;         // allocate Contacts::force up front
  // Broad-phase reuse across collides (broad_phase_reuse.h; Box2D's and Bullet's "fat AABB"): the
  // broad phase runs on AABBs grown by broad_phase_reuse_margin into a candidate list (capacity
  // 2 shape_pairs_max; explicit: the listed pairs), and each collide keeps the candidates whose
  // AABBs overlap, until a shape's AABB leaves its grown one. The pairs, and so the record, are
  // bitwise those of the broad phase run afresh; only the time differs (a collide that moves
  // nothing far skips the sweep). On by default (impulse's choice, a pure speed option: Newton
  // 1.6.1 runs its broad phase afresh at every collide; false does the same here).
  bool broad_phase_reuse = true;
  real broad_phase_reuse_margin = 0.01;       // [m] growth of each AABB on each side; >= 0
  std::ostream* diagnostics = nullptr;        // where verify_buffers warns (std::cerr when null)
};

/// Wall-clock seconds of the stages of the last collide (what `impulse bench e3-pile-*` splits a
/// step into; measured, never asserted): checks + clear + AABBs + filtering + broad phase, narrow
/// phase with its reduction, and the record (prefix sum, writes, matching).
struct CollideStageSeconds {
  double broad = 0;     // [s]
  double narrow = 0;    // [s]
  double contacts = 0;  // [s]
};

class CollisionPipeline {
 public:
  /// The pipeline keeps a reference to model, which must outlive it. With the explicit broad phase
  /// it lists the filter-passing pairs once here (O(shape_count^2) on the host). Throws
  /// std::invalid_argument naming the shape for what the pipeline cannot take (finite planes).
  explicit CollisionPipeline(const Model& model, CollisionPipelineOptions options = {});

  /// A Contacts record sized for this pipeline (rigid_contact_max rows), made for its Model.
  Contacts contacts() const;

  /// Runs every stage on the poses it is given (not on any solver's post-step state), copying
  /// nothing to the host: the record's count and Contacts::collide_status (a non-finite pose, more
  /// candidate pairs than shape_pairs_max) stay on the device for the step's one readback.
  /// body_q: body poses in world (model.body_count); body_qd and dt: optional, for the speculative
  /// gap. Throws std::invalid_argument for wrong sizes.
  void collide(View<const transform> body_q, Contacts& contacts, View<const spatial_vector> body_qd = {},
               real dt = 0);

  /// Forgets the matching history (after a reset of the simulation).
  void reset_matching();

  int rigid_contact_max() const { return max_; }
  std::int64_t shape_pairs_max() const { return broad_.pair_capacity; }
  const CollisionPipelineOptions& options() const { return opt_; }
  /// Stage names of the last collide, in order (an instrumented trace).
  const std::vector<std::string>& last_stages() const { return stages_; }
  const CollideStageSeconds& last_stage_seconds() const { return seconds_; }
  /// Candidate pairs of the last collide, sorted pair keys (see pair_key); at most shape_pairs_max.
  std::vector<std::int64_t> last_candidate_pairs() const;
  /// With broad_phase_reuse: collides that rebuilt the candidate list, and collides that ran the
  /// broad phase afresh because the filtered list could not stand for it (see broad_phase_reuse.h),
  /// since construction; 0 without the option. Reads the device (a host copy: not inside a step).
  std::int64_t broad_phase_rebuild_count() const;
  std::int64_t broad_phase_fallback_count() const;

 private:
  const Model& model_;
  CollisionPipelineOptions opt_;
  int max_ = 0;
  Buffer<transform> pose_;
  Buffer<aabb> aabb_;
  Buffer<real> speed_;
  Buffer<int> non_finite_;          // per body: non-finite pose flag
  Buffer<int> non_finite_blocks_;   // first_flagged's scratch over the bodies
  Buffer<std::int64_t> shape_contact_pairs_;  // explicit broad phase: sorted filter-passing pairs
  BroadPhaseScratch broad_;         // candidate pairs and the broad phases' working arrays
  BroadPhaseReuse reuse_;           // broad_phase_reuse: grown AABBs, their candidates and gates
  // Narrow-phase output, per-pair counts and record offsets: shape_pairs_max entries (the offsets
  // one more), allocated once.
  Buffer<PairContacts> pc_;
  Buffer<int> pair_count_;
  Buffer<std::int64_t> offset_;
  std::vector<std::string> stages_;
  CollideStageSeconds seconds_;
  ContactHistory previous_;  // matching history: the previous record's rows (device)
};

}  // namespace impulse
