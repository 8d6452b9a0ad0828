// The Contacts record (course E3 §2, the record table) and the functions that read it: the one
// record that the collision pipeline and the test fixtures write and every solver reads (through
// its ContactsView, contacts_view.h).
//
// Field names are Newton's. Rows [0, rigid_contact_count) are valid; rows beyond it may hold stale
// data (clear() resets only the count, E3.2-clear). The writer takes a slot by counting first and
// skips the write when the slot is >= rigid_contact_max, so the count can exceed the capacity: the
// record is then incomplete (E3.2-overflow-count) and every reader here refuses it
// (E3.2-overflow-policy).
#pragma once

#include <cstdint>
#include <string>

#include "core/buffer.h"
#include "core/math.h"
#include "core/spatial.h"
#include "e3/contacts/contact_columns.h"
#include "e3/contacts/contacts_view.h"

namespace impulse {

class Model;

/// Which optional per-contact attributes a record allocates. Stands in for the request table that
/// Newton keeps on the Model (model.request_contact_attributes("force")): a record reads it when it
/// is constructed, so a request made afterwards does not reach an existing record.
struct ContactAttributes {
  bool force = false;
};

/// @formula E3.8-xpbd-force-lifecycle  Request an optional contact attribute before the record is made.
/// Only "force" exists; any other name throws std::invalid_argument naming it.
void request_contact_attributes(ContactAttributes& attributes, const std::string& name);

struct Contacts {
  /// Allocates rows for rigid_contact_max contacts on device d, for no particular Model (a record of
  /// the collision stages alone). request_force allocates the optional force array up front
  /// (E3.2-field-force); a negative capacity is an error.
  Contacts(Device d, int rigid_contact_max, bool request_force = false);
  /// The same on the Model's device, made for that Model (a solver refuses a record made for another).
  Contacts(const Model& model, int rigid_contact_max, bool request_force = false);

  const Model* model = nullptr;                // the Model the record was made for; null for none
  Device device = Device::cpu;
  int rigid_contact_max = 0;                   // capacity [rows]

  Buffer<int> rigid_contact_count;             // single element: contacts written or attempted (1)
  // The columns of contact_columns.h, rigid_contact_max rows each.
#define IMPULSE_CONTACT_BUFFER(type, name, unit, doc) Buffer<type> name;
  IMPULSE_CONTACT_COLUMNS(IMPULSE_CONTACT_BUFFER)
#undef IMPULSE_CONTACT_BUFFER
  int material_path = -1;                      // SolverPath the material columns were filled for; -1: none recorded
  Buffer<spatial_vector> force;                // optional (f [N], tau [N m]) of body1 on body0; empty unless requested
  /// What the last collide found wrong, on the device (kCollideStatusSize ints), reported at the
  /// step's one readback (a solver's, or checked_count) by check_collide_status: collide itself
  /// copies nothing to the host. {-1, 0, 0} until a collide writes it.
  Buffer<int> collide_status;

  bool has_force() const { return force.size() > 0; }

  /// The view every solver takes: the arrays above, with the record's Model, device and capacity.
  ContactsView view();

  /// @formula E3.2-clear  Resets the count only; the rows keep whatever they held (course E3 §2).
  void clear();

  /// The raw count, which may exceed rigid_contact_max after an overflow.
  int count() const;
  bool overflowed() const { return count() > rigid_contact_max; }

  /// @formula E3.2-overflow-policy  The count of a complete record (course E3 §2). Throws
  /// std::runtime_error naming the count, the capacity and how to raise it when
  /// not (0 <= count <= rigid_contact_max), and what check_collide_status throws for a refused collide.
  int checked_count() const;
};

/// The message of an overflowed record.
std::string overflow_message(int count, int capacity);

/// Throws for a record whose collide was refused (status: the kCollideStatusSize ints of
/// Contacts::collide_status, read back): std::invalid_argument naming the first body with a
/// non-finite pose, or std::runtime_error naming the candidate pairs found, the broad phase's
/// capacity and how to raise it. who: the reader that reports it.
void check_collide_status(const int* status, const std::string& who);

/// A host copy of the geometry of a complete record, in world frame (the course's §9 snapshot).
struct ContactGeometrySnapshot {
  int count = 0;
  std::vector<real> distance_m;
  std::vector<vec3> point0_world_m, point1_world_m, normal_world;
};

/// @formula E3.2-field-point  eval_rigid_contact_kinematics (course E3 §2, §9): for every row
/// i < count, rebuilds the world core points from the body-frame points and the *given* body
/// poses and evaluates the gap function against the record's normal:
///   p0 = X_b0 point0 (identity for body -1), p1 = X_b1 point1,
///   d  = n . (p1 - p0) - (margin0 + margin1)                         [m]
/// The normal and the set of rows still come from the last collide. Refuses an overflowed record.
void eval_rigid_contact_kinematics(const Model& model, View<const transform> body_q, const Contacts& c,
                                   View<real> out_distance, View<vec3> out_point0_world, View<vec3> out_point1_world);

/// The snapshot helper of the course's §9 (checks overflow first, then reads back).
ContactGeometrySnapshot snapshot_contact_geometry(const Model& model, View<const transform> body_q,
                                                  const Contacts& c);

}  // namespace impulse
