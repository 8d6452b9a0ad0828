// `e3-box-drop`: the whole chain of the course on one body. An E1 Model (the course's 1 kg box of
// E1 §3 above the ground plane), the E3 collision pipeline collides the *input* state, SolverXPBD
// steps, update_contacts reads the forces back. Writes the height and the summed support force.
// Frames go through the E1 §7 loop (simulate_frame): a frame of H = --h split into --substeps N,
// each substep collides and steps.
#include <filesystem>
#include <fstream>
#include <stdexcept>

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

int run_box_drop(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const real z0 = a.number("z0"), H = a.number("h"), T = a.number("duration");
  const long long iterations = a.integer("iterations"), substeps = a.integer("substeps");
  if (!(H > 0)) throw std::invalid_argument("option --h must be positive, got " + a.text("h"));
  if (!(T > 0)) throw std::invalid_argument("option --duration must be positive, got " + a.text("duration"));
  if (iterations < 1) throw std::invalid_argument("option --iterations must be at least 1, got " + a.text("iterations"));
  ModelBuilder b;
  b.add_ground_plane();
  int body = b.add_body({vec3{0, 0, z0}, quat_identity()});
  b.add_shape_box(body, transform_identity(), 0.1, 0.05, 0.025);
  Model m = b.finalize();
  CollisionPipeline pipeline(m);
  Contacts contacts(m, pipeline.rigid_contact_max(), /*request_force=*/true);
  SolverXPBD solver(m, int(iterations));
  State a0 = m.state(), a1 = m.state();
  State *s0 = &a0, *s1 = &a1;
  Control c = m.control();
  const std::vector<int> shape_body = m.shape_body.to_host();
  const real mass = m.body_mass.to_host()[0], g = 9.81;
  ChainSubstep chain{pipeline, m, contacts, solver};
  FrameConfig frame;
  frame.frame_dt = H;
  frame.substeps = int(substeps);

  SceneTable& csv = out.table("e3-box-drop.csv");
  csv << "t_s,z_m,vz_mps,contacts,support_N,mg_N\n";
  const int frames = int(T / H + 0.5);
  real t = 0, support = 0;
  for (int i = 0; i < frames; ++i) {
    simulate_frame(chain, s0, s1, c, frame, t, [](State&, real) {}, [](Control&, real) {});
    // the readback of the frame's last substep
    const int n = contacts.checked_count();
    std::vector<int> s0_ids = contacts.rigid_contact_shape0.to_host();
    std::vector<spatial_vector> f = contacts.force.to_host();
    support = 0;
    for (int k = 0; k < n; ++k) support += shape_body[s0_ids[k]] >= 0 ? f[k].lin.z : -f[k].lin.z;
    transform X = s0->body_q.to_host()[0];
    spatial_vector qd = s0->body_qd.to_host()[0];
    csv << t << ',' << X.p.z << ',' << qd.lin.z << ',' << n << ',' << support << ',' << mass * g << '\n';
  }
  log << "e3-box-drop: after " << T << " s the box rests at z = " << s0->body_q.to_host()[0].p.z
      << " m; summed support force " << support << " N against m g = " << mass * g << " N; wrote "
      << "e3-box-drop.csv\n";
  return 0;
}

}  // namespace

void register_e3_chain_scenes(SceneCatalogue& c) {
  c.add({"e3-box-drop", "E3", "Model -> collide -> SolverXPBD -> update_contacts: a 1 kg box dropped on the ground",
         {{"z0", "m", "0.2", "initial height of the box origin"},
          {"h", "s", "0.004166666666666667", "frame H (1/240 s): one row per frame"},
          {"duration", "s", "1.5", "simulated time"},
          {"iterations", "-", "4", "XPBD position iterations"},
          {"substeps", "-", "1", "substeps N per frame (E1 §7): each collides and steps with H / N"}},
         run_box_drop, nullptr});
}

}  // namespace impulse::course
