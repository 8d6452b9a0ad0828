// SolverSemiImplicit (course E3 §6): host side; the kernels are in e1/integrator_kernels.cpp and
// e3/penalty_contact_kernels.cpp.
#include "e3/solver_semi_implicit.h"

#include <stdexcept>
#include <string>

#include "e1/integrator.h"
#include "e3/penalty_contact_kernels.h"

namespace impulse {

SolverSemiImplicit::SolverSemiImplicit(const Model& model, real damping, real smoothing)
    : angular_damping(damping), friction_smoothing(smoothing), model_(&model), wrench_(model.device, model.body_count) {
  if (!(damping >= 0)) throw std::invalid_argument("SolverSemiImplicit: angular_damping must be >= 0 1/s");
  if (!(smoothing > 0)) throw std::invalid_argument("SolverSemiImplicit: friction_smoothing must be > 0 m/s");
  auto type = model.joint_type.to_host();
  for (int j = 0; j < model.joint_count; ++j)
    if (JointType(type[j]) != JointType::free)
      throw std::invalid_argument("SolverSemiImplicit: joint " + std::to_string(j) + " is " +
                                  joint_type_name(JointType(type[j])) +
                                  "; this solver integrates free bodies only (use SolverFeatherstone for articulations)");
}

void SolverSemiImplicit::assemble_body_forces(const State& s, const Control& control, const PenaltyContactsView* c,
                                              View<spatial_vector> out) {
  gather_body_wrenches(*model_, s, control, out);
  if (!c) return;
  if (scratch_A_.size() < c->rigid_contact_max()) {
    scratch_A_ = Buffer<spatial_vector>(model_->device, c->rigid_contact_max());
    scratch_B_ = Buffer<spatial_vector>(model_->device, c->rigid_contact_max());
  }
  apply_penalty_contacts(*model_, s.body_q.view(), s.body_qd.view(), *c, friction_smoothing, scratch_A_.view(),
                         scratch_B_.view(), out);
  ++contact_passes_;
}

void SolverSemiImplicit::step(const State& in, State& out, const Control& control, const PenaltyContactsView* c,
                              real dt) {
  if (&in == &out) throw std::invalid_argument("SolverSemiImplicit.step: state_in and state_out must be different States");
  if (!(dt > 0)) throw std::invalid_argument("SolverSemiImplicit.step: dt must be > 0 s");
  if (in.body_q.size() != model_->body_count || out.body_q.size() != model_->body_count)
    throw std::invalid_argument("SolverSemiImplicit.step: State body arrays do not match the model");
  assemble_body_forces(in, control, c, wrench_.view());
  integrate_bodies(*model_, in, wrench_.view(), out, model_->gravity, angular_damping, dt);
}

void SolverSemiImplicit::update_contacts(PenaltyContactsView&) const {
  throw UpdateContactsNotImplemented("SolverSemiImplicit");
}

}  // namespace impulse
