// The columns of the Contacts record (course E3 §2, the record table), declared once. Each entry is
//   X(type, name, unit, doc)
// with Newton's field name; the record's buffers (contacts.h), its view (contacts_view.h), the
// allocation and the view (contacts.cpp), the size check of a view (checked_contact_count) and the
// Python exposure (python/src/contacts_columns.cpp) are all expanded from this one list, so a column
// added here exists everywhere at once. Rows are rigid_contact_max long. Not listed: the one-element
// rigid_contact_count and the optional force column, which have rules of their own.
//
// Frames: point0/1 and offset0/1 are in the body frame of the shape's body (world when the body is
// -1); the normal is world, from shape0 to shape1. The material columns hold the two shapes'
// materials combined for one solver path (E3 §3), written by fill_contact_materials
// (contact_materials.h) after each collide, or by a fixture; a path writes its own columns and
// leaves the others as they were. rigid_contact_route is the narrow phase's GeometryRoute
// (narrow_phase.h) of the row's pair, written by the collision pipeline only (fixtures leave it).
#pragma once

#define IMPULSE_CONTACT_COLUMNS(X)                                                                             \
  X(int, rigid_contact_shape0, "-", "shape id of side 0; model.shape_body gives its body (-1 static)")         \
  X(int, rigid_contact_shape1, "-", "shape id of side 1")                                                    \
  X(vec3, rigid_contact_point0, "m", "core point on shape0, body frame of its body (world if static)")        \
  X(vec3, rigid_contact_point1, "m", "core point on shape1, body frame of its body (world if static)")        \
  X(vec3, rigid_contact_normal, "-", "world unit normal, shape0 -> shape1")                                   \
  X(vec3, rigid_contact_offset0, "m", "point0 -> effective surface of shape0, body frame")                    \
  X(vec3, rigid_contact_offset1, "m", "point1 -> effective surface of shape1, body frame")                    \
  X(real, rigid_contact_margin0, "m", "effective thickness of shape0, radius + margin")                       \
  X(real, rigid_contact_margin1, "m", "effective thickness of shape1, radius + margin")                       \
  X(real, rigid_contact_stiffness, "N/m", "per-contact stiffness override, 0 = unset")                       \
  X(real, rigid_contact_damping, "N s/m", "per-contact damping override, 0 = unset")                         \
  X(real, rigid_contact_friction, "-", "per-contact friction scale, 0 = unset")                              \
  X(int, rigid_contact_match_index, "-", "row of the same contact in the previous frame, -1 for none")       \
  X(int, rigid_contact_route, "-", "GeometryRoute of the pair: 1 convex 2 plane_convex 3 mesh_bvh 4 hydro")  \
  X(real, rigid_contact_mu, "-", "friction coefficient (every path)")                                        \
  X(real, rigid_contact_mu_torsional, "m", "torsional friction (XPBD)")                                      \
  X(real, rigid_contact_mu_rolling, "m", "rolling friction (XPBD)")                                          \
  X(real, rigid_contact_restitution, "-", "restitution (XPBD)")                                              \
  X(real, rigid_contact_ke, "N/m", "normal stiffness (penalty, VBD)")                                        \
  X(real, rigid_contact_kd, "N s/m", "normal damping (penalty, VBD)")                                        \
  X(real, rigid_contact_kf, "N s/m", "friction stiffness (penalty)")                                         \
  X(real, rigid_contact_ka, "m", "adhesion distance (penalty)")
