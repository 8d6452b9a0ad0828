// The course side of the module: registry items and their calculators, exercises and grading,
// scenes and their tables. std::invalid_argument from lib/ reaches Python as ValueError
// (pybind11's translation), with lib/'s message naming the input.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sstream>

#include "course/exercises.h"
#include "course/registry.h"
#include "course/scenes.h"

namespace py = pybind11;

namespace impulse::python {

using namespace impulse::course;

namespace {

py::list quantities(const std::vector<Quantity>& qs) {
  py::list out;
  for (const Quantity& q : qs)
    out.append(py::dict(py::arg("name") = q.name, py::arg("unit") = q.unit, py::arg("dim") = q.dim,
                        py::arg("doc") = q.doc));
  return out;
}

py::dict item_dict(const Item& it) {
  return py::dict(py::arg("id") = it.id, py::arg("kind") = it.kind, py::arg("title") = it.title,
                  py::arg("section") = it.section,
                  py::arg("status") = status_name(it.status),
                  py::arg("reason") = it.reason, py::arg("function") = it.function,
                  py::arg("inputs") = quantities(it.inputs), py::arg("outputs") = quantities(it.outputs),
                  py::arg("has_calculator") = bool(it.calc));
}

const Item& require_item(const std::string& id) {
  const Item* it = registry().find(id);
  if (!it) throw std::invalid_argument("unknown item '" + id + "' (see impulse.formulas())");
  return *it;
}

// A vector moved onto the heap and owned by a capsule: NumPy reads its storage without a copy.
template <class T>
py::array_t<T> adopt(std::vector<T>&& v) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule free_it(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({py::ssize_t(owned->size())}, {py::ssize_t(sizeof(T))}, owned->data(), free_it);
}

py::dict scene_dict(const Scene& s) {
  py::list opts;
  for (const SceneOption& o : s.options)
    opts.append(py::dict(py::arg("name") = o.name, py::arg("unit") = o.unit, py::arg("default") = o.default_value,
                         py::arg("doc") = o.doc));
  return py::dict(py::arg("name") = s.name, py::arg("chapter") = s.chapter, py::arg("title") = s.title,
                  py::arg("options") = opts, py::arg("bench") = bool(s.bench));
}

// Runs a scene in memory. Returns (code, log, {table name: {column: array}}), each number column
// a float64 array that owns the scene's own storage, each text column a list of str.
py::tuple run_scene(const std::string& name, const std::map<std::string, std::string>& options) {
  const Scene* s = scenes().find(name);
  if (!s) throw std::invalid_argument("unknown scene '" + name + "' (see impulse.scenes())");
  std::vector<std::string> args;
  for (const auto& [k, v] : options) {
    args.push_back("--" + k);
    args.push_back(v);
  }
  const SceneArgs a = parse_scene_args(*s, args);
  SceneOutput out;
  std::ostringstream log;
  int rc = 0;
  {
    py::gil_scoped_release unlocked;  // scenes are pure C++; other Python threads may run
    rc = s->run(a, out, log);
  }
  py::dict tables;
  for (SceneTable& t : out.tables()) {
    py::dict cols;
    for (SceneColumn& c : t.columns()) {
      if (c.is_text)
        cols[py::str(c.name)] = py::cast(c.texts);
      else
        cols[py::str(c.name)] = adopt(std::move(c.numbers));
    }
    std::string key = t.file_name();
    if (key.size() > 4 && key.substr(key.size() - 4) == ".csv") key.resize(key.size() - 4);
    tables[py::str(key)] = cols;
  }
  return py::make_tuple(rc, log.str(), tables);
}

py::dict exercise_dict(const Exercise& e) {
  py::list parts;
  for (const AnswerPart& p : e.parts)
    parts.append(py::dict(py::arg("name") = p.name, py::arg("unit") = p.unit, py::arg("kind") = p.kind,
                          py::arg("formula") = p.formula, py::arg("output") = p.output,
                          py::arg("options") = p.options, py::arg("size") = answer_size(p),
                          py::arg("abs_tol") = p.abs_tol, py::arg("rel_tol") = p.rel_tol));
  return py::dict(py::arg("id") = e.id, py::arg("chapter") = e.chapter, py::arg("title") = e.title,
                  py::arg("source") = e.source, py::arg("question") = e.question,
                  py::arg("explanation") = e.explanation, py::arg("parts") = parts);
}

}  // namespace

void bind_course(py::module_& m) {
  m.def("items", [] {
    py::list out;
    for (const Item& it : registry().items()) out.append(item_dict(it));
    return out;
  }, "Every registered course item as a dict.");
  m.def("item", [](const std::string& id) { return item_dict(require_item(id)); }, py::arg("id"));
  m.def("evaluate", [](const std::string& id, const Values& inputs) { return evaluate(require_item(id), inputs); },
        py::arg("id"), py::arg("inputs"), "Runs an item's calculator: {input: [numbers]} -> {output: [numbers]}.");

  m.def("exercises", [] {
    py::list out;
    for (const Exercise& e : exercises()) out.append(exercise_dict(e));
    return out;
  });
  m.def("grade", [](const std::string& id, const std::vector<std::string>& tokens) {
    const Exercise* e = find_exercise(id);
    if (!e) throw std::invalid_argument("unknown exercise '" + id + "' (see impulse.exercises())");
    const Grade g = grade(*e, tokens);
    py::list parts;
    for (const PartGrade& p : g.parts)
      parts.append(py::dict(py::arg("name") = p.name, py::arg("correct") = p.correct, py::arg("given") = p.given,
                            py::arg("expected") = p.expected));
    return py::make_tuple(g.correct, parts);
  }, py::arg("id"), py::arg("tokens"));

  m.def("scenes", [] {
    py::list out;
    for (const Scene& s : scenes().scenes()) out.append(scene_dict(s));
    return out;
  });
  m.def("run_scene", &run_scene, py::arg("name"), py::arg("options"));
}

}  // namespace impulse::python
