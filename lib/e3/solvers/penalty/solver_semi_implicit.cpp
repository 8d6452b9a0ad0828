// SolverSemiImplicit (course E3 §6): host side; the kernels are in e1/integrator_kernels.cpp,
// e3/maximal_joint_kernels.cpp and e3/penalty_contact_kernels.cpp.
#include "e3/solvers/penalty/solver_semi_implicit.h"

#include <stdexcept>
#include <string>

#include "e1/integrator.h"
#include "e3/joints/maximal_joint.h"
#include "e3/solvers/penalty/maximal_joint_kernels.h"
#include "e3/solvers/shared/penalty_contact_kernels.h"

namespace impulse {

SolverSemiImplicit::SolverSemiImplicit(const Model& model, real damping, real smoothing, real attach_ke, real attach_kd)
    : angular_damping(damping),
      friction_smoothing(smoothing),
      joint_attach_ke(attach_ke),
      joint_attach_kd(attach_kd),
      model_(&model),
      wrench_(model.device, model.body_count),
      joint_parent_w_(model.device, model.joint_count),
      joint_child_w_(model.device, model.joint_count) {
  if (!(damping >= 0)) throw std::invalid_argument("SolverSemiImplicit: angular_damping must be >= 0 1/s");
  if (!(smoothing > 0)) throw std::invalid_argument("SolverSemiImplicit: friction_smoothing must be > 0 m/s");
  if (!(attach_ke > 0)) throw std::invalid_argument("SolverSemiImplicit: joint_attach_ke must be > 0 N/m");
  if (!(attach_kd >= 0)) throw std::invalid_argument("SolverSemiImplicit: joint_attach_kd must be >= 0 N s/m");
  require_maximal_joints(model, "SolverSemiImplicit");
  for (int t : model.joint_type.to_host()) has_attached_joints_ |= JointType(t) != JointType::free;
}

void SolverSemiImplicit::assemble_body_forces(const State& s, const Control& control, const ContactsView* c,
                                              View<spatial_vector> out) {
  gather_body_wrenches(*model_, s, control, out);
  if (has_attached_joints_)
    apply_penalty_joints(*model_, s.body_q.view(), s.body_qd.view(), control.joint_f, joint_attach_ke, joint_attach_kd,
                         joint_parent_w_.view(), joint_child_w_.view(), out);
  if (!c) return;
  apply_penalty_contacts(*model_, s.body_q.view(), s.body_qd.view(), *c, friction_smoothing, contact_scratch_, out);
  read_penalty_contacts_check(*model_, *c, contact_scratch_);  // the step's one readback
  ++contact_passes_;
}

void SolverSemiImplicit::step(const State& in, State& out, const Control& control, const ContactsView* c,
                              real dt) {
  if (&in == &out) throw std::invalid_argument("SolverSemiImplicit.step: state_in and state_out must be different States");
  if (!(dt > 0)) throw std::invalid_argument("SolverSemiImplicit.step: dt must be > 0 s");
  if (in.body_q.size() != model_->body_count || out.body_q.size() != model_->body_count)
    throw std::invalid_argument("SolverSemiImplicit.step: State body arrays do not match the model");
  if (control.joint_f.size != 0 && control.joint_f.size != model_->joint_dof_count)
    throw std::invalid_argument("SolverSemiImplicit.step: control.joint_f has the wrong length");
  assemble_body_forces(in, control, c, wrench_.view());
  integrate_bodies(*model_, in, wrench_.view(), out, model_->gravity, angular_damping, dt);
}

void SolverSemiImplicit::update_contacts(ContactsView&) const {
  throw UpdateContactsNotImplemented("SolverSemiImplicit");
}

}  // namespace impulse
