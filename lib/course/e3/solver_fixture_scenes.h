// TEST AND SCENE FIXTURES: small models shared by the E3 §6 solver tests, scenes and benches
// (a ground plane with spheres or a box, a sphere stack, pendulum chains). Each body gets an exact
// mass and inertia (explicit mass properties; its shapes carry no density).
#pragma once

#include "e1/model.h"
#include "e3/solvers/shared/penalty_contact.h"

namespace impulse {

/// A massless shape (density 0) carrying material on every path: ke, kd, kf, ka and mu, and no
/// torsional or rolling friction and no restitution, so that every solver path's mix of two such
/// shapes gives material back.
ShapeConfig contact_shape_config(const PenaltyMaterial& material);

/// Static ground plane z = 0 (shape 0) and one free sphere of mass m [kg], radius r [m], centre at c [m].
Model ground_sphere_model(real m, real r, vec3 c, Device d = Device::cpu);
/// Static ground plane z = 0 and one free box of mass m, half extents e [m], centre c [m]. With
/// material, both shapes carry contact_shape_config(*material); else Newton's default material.
Model ground_box_model(real m, vec3 e, vec3 c, Device d = Device::cpu, const PenaltyMaterial* material = nullptr);
/// Ground plane and n free spheres of mass m and radius r stacked on the z axis, each touching the
/// one below (centres at z = r, 3r, 5r, ... plus lift [m] between neighbours).
Model sphere_stack_model(int n, real m, real r, real lift, Device d = Device::cpu);
/// Ground plane and n free cubes of mass m [kg] and half extent e [m] stacked on the z axis, each
/// resting on the one below (centres at z = e, 3e, 5e, ...). material: as ground_box_model.
Model box_stack_model(int n, real m, real e, Device d = Device::cpu, const PenaltyMaterial* material = nullptr);
/// Ground plane and n free spheres (mass m, radius r) on a square grid with spacing 4 r, centres at
/// height z0 [m]: a wide, contact-sparse scene for benches.
Model sphere_grid_model(int n, real m, real r, real z0, Device d = Device::cpu);
/// A planar chain of n revolute links about +y (gravity -z): link i is a point-like sphere of mass
/// m [kg] and radius r at distance l [m] below its joint; joint 0 hangs from the world origin. No
/// shapes that collide with anything. q0 [rad]: initial angle of every joint.
Model pendulum_chain_model(int n, real m, real l, real r, real q0, Device d = Device::cpu);

}  // namespace impulse
