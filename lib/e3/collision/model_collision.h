// The bridge from the E1 Model to the E3 collision pipeline: Model -> CollisionModel ->
// CollisionPipeline::collide -> Contacts -> fill_contact_materials (the solver's path) ->
// Contacts::view() -> any solver's step / update_contacts.
#pragma once

#include "e3/collision/collision_model.h"
#include "e3/contacts/materials.h"

namespace impulse {

class Model;

struct ModelCollisionOptions {
  real rigid_gap = 0.1;    // default shape gap [m] (Newton ModelBuilder.rigid_gap)
  real margin = 0;         // surface margin of every shape [m]
  ShapeMaterial material;  // material of every shape (Newton's ShapeConfig defaults)
  bool explicit_pairs = true;  // precompute the explicit broad phase's list: N^2/2 pair keys of 8 bytes
};

/// Builds the collision model of a Model, shape for shape (the same shape IDs): type, body,
/// body-relative transform and sizes; shapes without collision get collision group 0 so that they
/// keep their ID but never collide; every joint with a parent body filters its parent/child pair.
/// The collision model remembers the Model (CollisionModel::model), so that the records its pipeline
/// makes are made for that Model. Throws std::invalid_argument naming the shape for what the
/// pipeline cannot take (finite planes) and for whatever CollisionSceneBuilder rejects.
CollisionModel collision_model_from(const Model& model, const ModelCollisionOptions& options = {});

}  // namespace impulse
