// SceneSession: a scene stepped a slice at a time (the book's live scenes) or to its end (`impulse
// run`), and what a page needs to draw one.
#include <utility>

#include "course/scenes.h"
#include "e1/model.h"

namespace impulse::course {

long long SceneSession::step(long long n) {
  long long took = 0;
  while (took < n && k_ < total_) advance(k_++), ++took;
  if (k_ == total_ && !done_) {
    rc_ = finish();
    done_ = true;
  }
  return took;
}

Scene stepped_scene(std::string name, std::string chapter, std::string title, std::vector<SceneOption> options,
                    SceneOpen open) {
  Scene s{std::move(name), std::move(chapter), std::move(title), std::move(options), nullptr, nullptr, open};
  s.run = [open](const SceneArgs& a, SceneOutput& out, std::ostream& log) {
    std::unique_ptr<SceneSession> session = open(a);
    while (!session->done()) session->step(session->steps());
    out = std::move(session->out);
    log << session->log.str();
    return session->rc();
  };
  return s;
}

std::vector<SceneShape> model_shapes(const Model& m, const State& s) {
  const std::vector<transform> body_q = s.body_q.to_host(), shape_X = m.shape_transform.to_host();
  const std::vector<int> shape_body = m.shape_body.to_host(), shape_type = m.shape_type.to_host();
  const std::vector<vec3> shape_scale = m.shape_scale.to_host();
  std::vector<SceneShape> out;
  for (std::size_t i = 0; i < shape_body.size(); ++i) {
    const int b = shape_body[i];
    const ShapeType type = ShapeType(shape_type[i]);
    const transform X = b >= 0 ? transform_multiply(body_q[std::size_t(b)], shape_X[i]) : shape_X[i];
    const vec3 size = shape_scale[i];
    if (type == ShapeType::box) out.push_back({"box", size, X});
    else if (type == ShapeType::sphere) out.push_back({"sphere", size, X});
    else if (type == ShapeType::plane) out.push_back({"plane", size, X});
  }
  return out;
}

}  // namespace impulse::course
