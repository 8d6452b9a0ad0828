// `e3-box-drop`: the whole chain of the course on one body. An E1 Model (the course's 1 kg box of
// E1 §3 above the ground plane), the E3 collision pipeline collides the *input* state, SolverXPBD
// steps, update_contacts reads the forces back. Writes the height and the summed support force.
// Frames go through the E1 §7 loop (simulate_frame): a frame of H = --h split into --substeps N,
// each substep collides and steps.
#include <memory>
#include <stdexcept>
#include <vector>

#include "course/scenes.h"
#include "e1/model.h"
#include "e1/time_loop.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/xpbd/solver_xpbd.h"

namespace impulse::course {

namespace {

// One substep of the E3 chain, as the E1 §7 frame loop calls a solver: collide the input state,
// fill the per-row materials, step, read the forces back (E3 §2, §4, §8).
struct ChainSubstep {
  CollisionPipeline& pipeline;
  const Model& model;
  Contacts& contacts;
  SolverXPBD& solver;
  void step(State& in, State& out, const Control& c, real h) {
    pipeline.collide(in.body_q.view(), contacts);  // a sample of the input state (E1.7-sample-phase)
    fill_contact_materials(model, SolverPath::xpbd, contacts);
    ContactsView v = contacts.view();
    solver.step(in, out, c, &v, h);
    solver.update_contacts(v);
  }
};

// The box drop as a session: one step is one frame of the E1 §7 loop, one row of e3-box-drop.csv.
class BoxDrop : public SceneSession {
 public:
  BoxDrop(const SceneArgs& a, long long frames)
      : SceneSession(frames), H_(a.number("h")), T_(a.number("duration")), model_(box_model(a.number("z0"))),
        pipeline_(model_), contacts_(model_, pipeline_.rigid_contact_max(), /*request_force=*/true),
        solver_(model_, int(a.integer("iterations"))), a0_(model_.state()), a1_(model_.state()), c_(model_.control()),
        shape_body_(model_.shape_body.to_host()), mass_(model_.body_mass.to_host()[0]) {
    frame_.frame_dt = H_;
    frame_.substeps = int(a.integer("substeps"));
    SceneTable& csv = out.table("e3-box-drop.csv");
    csv << "t_s,z_m,vz_mps,contacts,support_N,mg_N\n";
  }
  std::vector<SceneShape> shapes() const override { return model_shapes(model_, *s0_); }

 private:
  static Model box_model(real z0) {
    ModelBuilder b;
    b.add_ground_plane();
    int body = b.add_body({vec3{0, 0, z0}, quat_identity()});
    b.add_shape_box(body, transform_identity(), 0.1, 0.05, 0.025);
    return b.finalize();
  }
  void advance(long long) override {
    ChainSubstep chain{pipeline_, model_, contacts_, solver_};
    simulate_frame(chain, s0_, s1_, c_, frame_, t_, [](State&, real) {}, [](Control&, real) {});
    // the readback of the frame's last substep
    const int n = contacts_.checked_count();
    std::vector<int> s0_ids = contacts_.rigid_contact_shape0.to_host();
    std::vector<spatial_vector> f = contacts_.force.to_host();
    support_ = 0;
    for (int k = 0; k < n; ++k) support_ += shape_body_[s0_ids[k]] >= 0 ? f[k].lin.z : -f[k].lin.z;
    transform X = s0_->body_q.to_host()[0];
    spatial_vector qd = s0_->body_qd.to_host()[0];
    out.tables().front() << t_ << ',' << X.p.z << ',' << qd.lin.z << ',' << n << ',' << support_ << ',' << mass_ * g_
                         << '\n';
  }
  int finish() override {
    log << "e3-box-drop: after " << T_ << " s the box rests at z = " << s0_->body_q.to_host()[0].p.z
        << " m; summed support force " << support_ << " N against m g = " << mass_ * g_ << " N; wrote "
        << "e3-box-drop.csv\n";
    return 0;
  }

  const real H_, T_, g_ = 9.81;
  Model model_;
  CollisionPipeline pipeline_;
  Contacts contacts_;
  SolverXPBD solver_;
  State a0_, a1_;
  State *s0_ = &a0_, *s1_ = &a1_;
  Control c_;
  FrameConfig frame_;
  const std::vector<int> shape_body_;
  const real mass_;
  real t_ = 0, support_ = 0;
};

std::unique_ptr<SceneSession> open_box_drop(const SceneArgs& a) {
  const real H = a.number("h"), T = a.number("duration");
  if (!(H > 0)) throw std::invalid_argument("option --h must be positive, got " + a.text("h"));
  if (!(T > 0)) throw std::invalid_argument("option --duration must be positive, got " + a.text("duration"));
  if (a.integer("iterations") < 1)
    throw std::invalid_argument("option --iterations must be at least 1, got " + a.text("iterations"));
  return std::make_unique<BoxDrop>(a, (long long)(T / H + 0.5));
}

}  // namespace

void register_e3_chain_scenes(SceneCatalogue& c) {
  c.add(stepped_scene("e3-box-drop", "E3", "Model -> collide -> SolverXPBD -> update_contacts: a 1 kg box dropped on the ground",
         {{"z0", "m", "0.2", "initial height of the box origin"},
          {"h", "s", "0.004166666666666667", "frame H (1/240 s): one row per frame"},
          {"duration", "s", "1.5", "simulated time"},
          {"iterations", "-", "4", "XPBD position iterations"},
          {"substeps", "-", "1", "substeps N per frame (E1 §7): each collides and steps with H / N"}},
         open_box_drop));
}

}  // namespace impulse::course
