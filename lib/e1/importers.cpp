#include "e1/importers.h"

#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/text.h"
#include "e1/xml.h"

namespace impulse {

namespace {

struct Ctx {
  const std::string& file;
  [[noreturn]] void fail(const XmlNode& n, const std::string& msg) const {
    throw std::invalid_argument(one_line(file + ":" + std::to_string(n.line) + ": <" + n.tag + ">: " + msg));
  }
  // The name attribute (or "" when absent): names become labels in the model, in messages and in
  // CSV files, so only printable characters are accepted.
  std::string name(const XmlNode& n, bool required = false) const {
    const std::string* v = n.find("name");
    if (!v) {
      if (required) fail(n, "missing attribute 'name'");
      return "";
    }
    for (char ch : *v)
      if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) fail(n, "name '" + *v + "' has a control character");
    return *v;
  }
  std::vector<real> numbers(const XmlNode& n, const char* attr, std::size_t count, const std::vector<real>& fallback) const {
    const std::string* v = n.find(attr);
    if (!v) {
      if (fallback.empty()) fail(n, std::string("missing attribute '") + attr + "'");
      return fallback;
    }
    std::istringstream in(*v);
    std::vector<real> r;
    std::string tok;
    while (in >> tok) {
      char* end = nullptr;
      double x = std::strtod(tok.c_str(), &end);
      if (*end != '\0' || end == tok.c_str() || std::isnan(x))
        fail(n, std::string("attribute '") + attr + "': '" + tok + "' is not a number");
      if (!std::isfinite(x))
        fail(n, std::string("attribute '") + attr + "': '" + tok + "' is out of range (a finite number, |x| < 1.8e308)");
      r.push_back(real(x));
    }
    if (r.size() != count)
      fail(n, std::string("attribute '") + attr + "' needs " + std::to_string(count) + " numbers, got " +
                  std::to_string(r.size()));
    return r;
  }
  real number(const XmlNode& n, const char* attr) const { return numbers(n, attr, 1, {})[0]; }
  std::string text(const XmlNode& n, const char* attr) const {
    const std::string* v = n.find(attr);
    if (!v) fail(n, std::string("missing attribute '") + attr + "'");
    return *v;
  }
};

quat rotation_to_up(Axis from, Axis to) {
  // Rotation taking the file's up axis onto the builder's (both right-handed).
  auto unit = [](Axis a) { return a == Axis::x ? vec3{1, 0, 0} : a == Axis::y ? vec3{0, 1, 0} : vec3{0, 0, 1}; };
  vec3 a = unit(from), b = unit(to);
  if (from == to) return quat_identity();
  return quat_from_axis_angle(cross(a, b), kPi / 2);
}

// URDF rpy: fixed-axis roll about x, then pitch about y, then yaw about z: R = Rz Ry Rx.
quat quat_from_rpy(real r, real p, real y) {
  return quat_mul(quat_from_axis_angle({0, 0, 1}, y),
                  quat_mul(quat_from_axis_angle({0, 1, 0}, p), quat_from_axis_angle({1, 0, 0}, r)));
}

transform urdf_origin(const Ctx& c, const XmlNode* parent, real scale) {
  if (!parent) return transform_identity();
  const XmlNode* o = parent->first("origin");
  if (!o) return transform_identity();
  std::vector<real> xyz = c.numbers(*o, "xyz", 3, {0, 0, 0}), rpy = c.numbers(*o, "rpy", 3, {0, 0, 0});
  return {scale * vec3{xyz[0], xyz[1], xyz[2]}, quat_from_rpy(rpy[0], rpy[1], rpy[2])};
}

void check_positive(const Ctx& c, const XmlNode& n, const char* what, real v) {
  if (!(v > 0)) c.fail(n, std::string(what) + " must be positive");
}

// One <collision> or <visual> element as a shape of body.
void urdf_geometry(ModelBuilder& b, const Ctx& c, const XmlNode& e, int body, real scale, ShapeConfig cfg) {
  const XmlNode* g = e.first("geometry");
  if (!g || g->children.size() != 1) c.fail(e, "needs one <geometry> with one primitive");
  const XmlNode& p = g->children[0];
  transform x = urdf_origin(c, &e, scale);
  if (p.tag == "box") {
    std::vector<real> s = c.numbers(p, "size", 3, {});
    for (real v : s) check_positive(c, p, "box size", v);
    b.add_shape_box(body, x, scale * s[0] / 2, scale * s[1] / 2, scale * s[2] / 2, cfg);  // URDF sizes are full
  } else if (p.tag == "sphere") {
    real r = c.number(p, "radius");
    check_positive(c, p, "radius", r);
    b.add_shape_sphere(body, x, scale * r, cfg);
  } else if (p.tag == "cylinder" || p.tag == "capsule") {
    real r = c.number(p, "radius"), l = c.number(p, "length");
    check_positive(c, p, "radius", r);
    check_positive(c, p, "length", l);
    if (p.tag == "cylinder") b.add_shape_cylinder(body, x, scale * r, scale * l / 2, cfg);
    else b.add_shape_capsule(body, x, scale * r, scale * l / 2, cfg);
  } else {
    c.fail(p, "unsupported geometry (box, sphere, cylinder and capsule are supported; meshes are not)");
  }
}

// Explicit inertial: mass unchanged, COM * scale, inertia * scale^2, rotated into link axes.
MassProperties urdf_inertial(const Ctx& c, const XmlNode& in, real scale) {
  transform o = urdf_origin(c, &in, scale);
  const XmlNode* mass = in.first("mass");
  const XmlNode* I = in.first("inertia");
  if (!mass) c.fail(in, "missing <mass>");
  if (!I) c.fail(in, "missing <inertia>");
  real m = c.number(*mass, "value");
  if (!(m > 0)) c.fail(*mass, "mass must be positive");
  real ixx = c.number(*I, "ixx"), iyy = c.number(*I, "iyy"), izz = c.number(*I, "izz");
  real ixy = c.numbers(*I, "ixy", 1, {0})[0], ixz = c.numbers(*I, "ixz", 1, {0})[0], iyz = c.numbers(*I, "iyz", 1, {0})[0];
  mat33 Ic;
  Ic.m[0][0] = ixx; Ic.m[1][1] = iyy; Ic.m[2][2] = izz;
  Ic.m[0][1] = Ic.m[1][0] = ixy;
  Ic.m[0][2] = Ic.m[2][0] = ixz;
  Ic.m[1][2] = Ic.m[2][1] = iyz;
  return {m, o.p, inertia_transform((scale * scale) * Ic, quat_to_mat33(o.q), 0, {})};
}

}  // namespace

int add_urdf(ModelBuilder& b, const std::string& text, const UrdfOptions& opt, const std::string& file) {
  Ctx c{file};
  XmlNode robot = parse_xml(text, file);
  if (robot.tag != "robot") c.fail(robot, "the root element must be <robot>");
  if (!(opt.scale > 0)) throw std::invalid_argument(one_line(file + ": scale must be positive"));
  std::map<std::string, const XmlNode*> links;
  for (const XmlNode* l : robot.all("link")) {
    std::string name = c.name(*l, true);
    if (!links.emplace(name, l).second) c.fail(*l, "link '" + name + "' defined twice");
  }
  if (links.empty()) c.fail(robot, "no <link>");
  std::map<std::string, const XmlNode*> parent_joint;
  std::multimap<std::string, const XmlNode*> children;
  for (const XmlNode* j : robot.all("joint")) {
    const XmlNode* p = j->first("parent");
    const XmlNode* ch = j->first("child");
    if (!p || !ch) c.fail(*j, "needs <parent link> and <child link>");
    std::string pn = c.text(*p, "link"), cn = c.text(*ch, "link");
    if (!links.count(pn)) c.fail(*p, "unknown link '" + pn + "'");
    if (!links.count(cn)) c.fail(*ch, "unknown link '" + cn + "'");
    if (!parent_joint.emplace(cn, j).second) c.fail(*j, "link '" + cn + "' has a second parent joint");
    children.emplace(pn, j);
  }
  std::vector<std::string> roots;
  for (const auto& [name, l] : links)
    if (!parent_joint.count(name)) roots.push_back(name);
  if (roots.size() != 1) c.fail(robot, "needs exactly one root link, found " + std::to_string(roots.size()));

  const transform root_pose{opt.xform.p, quat_mul(opt.xform.q, rotation_to_up(opt.up_axis, b.up_axis))};
  std::map<std::string, int> body_of;
  std::vector<int> joints;
  // Add one link: body, mass (explicit inertial or geometry), shapes.
  auto add_link = [&](const std::string& name, const transform& pose) {
    const XmlNode& l = *links.at(name);
    const XmlNode* inertial = l.first("inertial");
    // As in Newton 1.6.1: an <inertial> without <mass> or <inertia> keeps the geometry-derived values.
    bool explicit_mass = inertial && !opt.ignore_inertial_definitions && inertial->first("mass") && inertial->first("inertia");
    MassProperties m = explicit_mass ? urdf_inertial(c, *inertial, opt.scale) : MassProperties{};
    int body = b.add_link(pose, m, false, false, name);
    ShapeConfig collide;
    collide.density = explicit_mass ? 0 : opt.density;  // the inertial already holds the mass
    bool has_visual = !l.all("visual").empty();
    collide.is_visible = !has_visual;
    for (const XmlNode* e : l.all("collision")) urdf_geometry(b, c, *e, body, opt.scale, collide);
    ShapeConfig visual;
    visual.density = 0;
    visual.has_shape_collision = false;
    if (opt.parse_visuals_as_colliders) visual = collide, visual.is_visible = true;
    for (const XmlNode* e : l.all("visual")) urdf_geometry(b, c, *e, body, opt.scale, visual);
    body_of[name] = body;
    return body;
  };
  int root = add_link(roots[0], root_pose);
  // A floating root: parent_xform identity, so its joint_q is the root's world pose.
  joints.push_back(opt.floating ? b.add_joint_free(root, transform_identity(), transform_identity(), -1, roots[0] + "_root")
                                : b.add_joint_fixed(-1, root, root_pose, transform_identity(), roots[0] + "_root"));
  // Breadth-first from the root, so parents come before children in the articulation.
  std::vector<std::string> queue{roots[0]};
  for (std::size_t k = 0; k < queue.size(); ++k) {
    auto [lo, hi] = children.equal_range(queue[k]);
    for (auto it = lo; it != hi; ++it) {
      const XmlNode& j = *it->second;
      std::string cn = c.text(*j.first("child"), "link");
      if (body_of.count(cn)) c.fail(j, "the joints form a cycle at link '" + cn + "'");
      int parent = body_of.at(queue[k]);
      transform X_pj = urdf_origin(c, &j, opt.scale);
      int child = add_link(cn, transform_multiply(b.body_q[parent], X_pj));
      std::string type = c.text(j, "type"), name = c.name(j, true);
      vec3 axis{1, 0, 0};
      if (const XmlNode* a = j.first("axis")) {
        std::vector<real> v = c.numbers(*a, "xyz", 3, {});
        axis = {v[0], v[1], v[2]};
        if (length(axis) == 0) c.fail(*a, "axis has zero length");
      }
      const transform I = transform_identity();
      if (type == "revolute" || type == "continuous") joints.push_back(b.add_joint_revolute(parent, child, X_pj, I, axis, name));
      else if (type == "prismatic") joints.push_back(b.add_joint_prismatic(parent, child, X_pj, I, axis, name));
      else if (type == "fixed") joints.push_back(b.add_joint_fixed(parent, child, X_pj, I, name));
      else if (type == "floating") joints.push_back(b.add_joint_free(child, X_pj, I, parent, name));
      else c.fail(j, "unsupported joint type '" + type + "'");
      queue.push_back(cn);
    }
  }
  b.add_articulation(joints, c.name(robot));
  if (opt.collapse_fixed_joints) {
    std::vector<int> remap = b.collapse_fixed_joints();
    root = remap[root];
  }
  return root;
}

namespace {

struct Mjcf {
  const Ctx& c;
  ModelBuilder& b;
  const MjcfOptions& opt;
  bool degrees = true;              // MuJoCo's default compiler angle unit
  std::string inertiafromgeom = "auto";

  // @formula E1.2-mjcf-euler-compiler  An MJCF euler angle is read in the compiler's unit (degree by
  // default) with the intrinsic x-y-z sequence; the State's joint angles are always radians.
  quat orientation(const XmlNode& n) const {
    if (n.find("quat") && n.find("euler")) c.fail(n, "give either quat or euler, not both");
    if (n.find("quat")) {
      std::vector<real> q = c.numbers(n, "quat", 4, {});
      quat r = quat_from_wxyz(q[0], q[1], q[2], q[3]);
      real len = quat_norm(r);
      if (len == 0) c.fail(n, "quat is zero");
      // MuJoCo normalises quaternions at compile time; the file's convention, done explicitly here.
      return quat_normalize(r);
    }
    if (n.find("euler")) {
      std::vector<real> e = c.numbers(n, "euler", 3, {});
      real k = degrees ? kPi / 180 : 1;
      return quat_mul(quat_from_axis_angle({1, 0, 0}, k * e[0]),
                      quat_mul(quat_from_axis_angle({0, 1, 0}, k * e[1]), quat_from_axis_angle({0, 0, 1}, k * e[2])));
    }
    return quat_identity();
  }
  transform frame(const XmlNode& n) const {
    std::vector<real> p = c.numbers(n, "pos", 3, {0, 0, 0});
    return {opt.scale * vec3{p[0], p[1], p[2]}, orientation(n)};
  }

  void geom(const XmlNode& g, int body, bool explicit_mass, const transform& pre) const {
    std::string type = g.find("type") ? *g.find("type") : "sphere";
    if (g.find("fromto")) c.fail(g, "fromto is not supported; use pos/quat and size");
    transform x = transform_multiply(pre, frame(g));
    ShapeConfig cfg;
    cfg.density = opt.density;
    if (g.find("density")) cfg.density = c.number(g, "density");
    if (explicit_mass) cfg.density = 0;  // the inertial already holds the mass
    const real s = opt.scale;
    auto size = [&](std::size_t n) {
      std::vector<real> v = c.numbers(g, "size", n, {});
      for (real a : v)
        if (!(a > 0)) c.fail(g, "size entries must be positive");
      return v;
    };
    std::vector<real> v;
    ShapeType t;
    vec3 scale3;
    if (type == "box") v = size(3), t = ShapeType::box, scale3 = {s * v[0], s * v[1], s * v[2]};  // half sizes
    else if (type == "sphere") v = size(1), t = ShapeType::sphere, scale3 = {s * v[0], 0, 0};
    else if (type == "capsule") v = size(2), t = ShapeType::capsule, scale3 = {s * v[0], s * v[1], 0};
    else if (type == "cylinder") v = size(2), t = ShapeType::cylinder, scale3 = {s * v[0], s * v[1], 0};
    else if (type == "plane") t = ShapeType::plane, scale3 = {};
    else c.fail(g, "unsupported geom type '" + type + "'");
    if (g.find("mass") && !explicit_mass && t != ShapeType::plane) {
      const real mass = c.number(g, "mass");
      if (!(mass >= 0)) c.fail(g, "attribute 'mass': " + *g.find("mass") + " kg is negative (allowed: mass >= 0 kg)");
      real vol = shape_mass_properties(t, scale3, 1).mass;  // volume [m^3] = mass at density 1
      cfg.density = mass / vol;
    }
    if (!(cfg.density >= 0)) {
      std::ostringstream got;
      got << cfg.density;
      c.fail(g, "attribute 'density': " + got.str() + " kg/m^3 is negative (allowed: density >= 0 kg/m^3)");
    }
    switch (t) {
      case ShapeType::box: b.add_shape_box(body, x, scale3.x, scale3.y, scale3.z, cfg); break;
      case ShapeType::sphere: b.add_shape_sphere(body, x, scale3.x, cfg); break;
      case ShapeType::capsule: b.add_shape_capsule(body, x, scale3.x, scale3.y, cfg); break;
      case ShapeType::cylinder: b.add_shape_cylinder(body, x, scale3.x, scale3.y, cfg); break;
      case ShapeType::plane: b.add_shape_plane(body, x, 0, 0, cfg); break;
      case ShapeType::convex_hull:
      case ShapeType::cone:
      case ShapeType::mesh: break;  // the MJCF reader makes the primitives above only
    }
  }

  MassProperties inertial(const XmlNode& in) const {
    real m = c.number(in, "mass");
    if (!(m > 0)) c.fail(in, "mass must be positive");
    std::vector<real> d = c.numbers(in, "diaginertia", 3, {});
    transform o = frame(in);
    return {m, o.p, inertia_transform((opt.scale * opt.scale) * mat33_diag({d[0], d[1], d[2]}), quat_to_mat33(o.q), 0, {})};
  }

  // A body and its subtree; parent = -1 for children of <worldbody>.
  void body(const XmlNode& n, int parent, const transform& parent_pose, std::vector<int>& joints) const {
    // X_pb: this body in its parent's frame; for a top-level body the parent frame is the world,
    // reached through the import placement parent_pose.
    transform X_pb = frame(n);
    transform pose = transform_multiply(parent_pose, X_pb);
    if (parent < 0) X_pb = pose;
    const XmlNode* in = n.first("inertial");
    bool explicit_mass = in && !opt.ignore_inertial_definitions && inertiafromgeom != "true";
    std::string label = c.name(n);
    int id = b.add_link(pose, explicit_mass ? inertial(*in) : MassProperties{}, false, false, label);
    for (const XmlNode* g : n.all("geom")) geom(*g, id, explicit_mass, transform_identity());
    std::vector<const XmlNode*> js = n.all("joint");
    if (const XmlNode* fj = n.first("freejoint")) js.insert(js.begin(), fj);
    const transform I = transform_identity();
    if (js.empty()) {
      joints.push_back(b.add_joint_fixed(parent, id, X_pb, I, label));
    } else if (js.size() == 1) {
      const XmlNode& j = *js[0];
      std::string type = j.tag == "freejoint" ? "free" : (j.find("type") ? *j.find("type") : "hinge");
      std::vector<real> p = c.numbers(j, "pos", 3, {0, 0, 0}), a = c.numbers(j, "axis", 3, {0, 0, 1});
      transform X_cj{opt.scale * vec3{p[0], p[1], p[2]}, quat_identity()};
      transform X_pj = transform_multiply(X_pb, X_cj);
      vec3 axis{a[0], a[1], a[2]};
      std::string jl = j.find("name") ? c.name(j) : label;
      if (type == "hinge") joints.push_back(b.add_joint_revolute(parent, id, X_pj, X_cj, axis, jl));
      else if (type == "slide") joints.push_back(b.add_joint_prismatic(parent, id, X_pj, X_cj, axis, jl));
      else if (type == "ball") joints.push_back(b.add_joint_ball(parent, id, X_pj, X_cj, jl));
      else if (type == "free" && parent >= 0) c.fail(j, "a free joint is only allowed in a top-level body");
      else if (type == "free") joints.push_back(b.add_joint_free(id, I, I, -1, jl));  // joint_q = world pose
      else c.fail(j, "unsupported joint type '" + type + "'");
    } else {
      // Several hinge/slide joints in one body: one D6 with those axes (at the body origin).
      std::vector<vec3> lin, ang;
      for (const XmlNode* j : js) {
        std::string type = j->find("type") ? *j->find("type") : "hinge";
        std::vector<real> a = c.numbers(*j, "axis", 3, {0, 0, 1});
        if (c.numbers(*j, "pos", 3, {0, 0, 0}) != std::vector<real>{0, 0, 0})
          c.fail(*j, "several joints in one body must sit at the body origin");
        if (type == "hinge") ang.push_back({a[0], a[1], a[2]});
        else if (type == "slide") lin.push_back({a[0], a[1], a[2]});
        else c.fail(*j, "only hinge and slide joints can be combined in one body");
      }
      joints.push_back(b.add_joint_d6(parent, id, X_pb, I, lin, ang, label));
    }
    for (const XmlNode* ch : n.all("body")) body(*ch, id, pose, joints);
  }
};

}  // namespace

void add_mjcf(ModelBuilder& b, const std::string& text, const MjcfOptions& opt, const std::string& file) {
  Ctx c{file};
  XmlNode root = parse_xml(text, file);
  if (root.tag != "mujoco") c.fail(root, "the root element must be <mujoco>");
  if (!(opt.scale > 0)) throw std::invalid_argument(one_line(file + ": scale must be positive"));
  Mjcf m{c, b, opt};
  if (const XmlNode* comp = root.first("compiler")) {
    if (const std::string* a = comp->find("angle")) {
      if (*a != "degree" && *a != "radian") c.fail(*comp, "angle must be 'degree' or 'radian'");
      m.degrees = *a == "degree";
    }
    if (const std::string* g = comp->find("inertiafromgeom")) {
      if (*g != "true" && *g != "false" && *g != "auto") c.fail(*comp, "inertiafromgeom must be true, false or auto");
      m.inertiafromgeom = *g;
    }
    if (const std::string* seq = comp->find("eulerseq"))
      if (*seq != "xyz") c.fail(*comp, "only eulerseq=\"xyz\" is supported");
  }
  const XmlNode* world = root.first("worldbody");
  if (!world) c.fail(root, "missing <worldbody>");
  const transform base{opt.xform.p, quat_mul(opt.xform.q, rotation_to_up(opt.up_axis, b.up_axis))};
  for (const XmlNode* g : world->all("geom")) m.geom(*g, -1, false, base);
  for (const XmlNode* top : world->all("body")) {
    std::vector<int> joints;
    m.body(*top, -1, base, joints);
    b.add_articulation(joints, c.name(*top));
  }
}

}  // namespace impulse
