// The course side of the module: registry items and their calculators, exercises and grading,
// scenes and their tables. std::invalid_argument from lib/ reaches Python as ValueError
// (pybind11's translation), with lib/'s message naming the input.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sstream>

#include "core/text.h"
#include "course/exercises.h"
#include "course/registry.h"
#include "course/scenes.h"
#include "course/tries_file.h"
#include "course/tutor.h"

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

// An exercise as impulse.exercises() lists it: the statement and the shape of the answer, never the
// key, the course's printed answer or the worked solution (those come with a reveal).
py::dict exercise_dict(const Exercise& e) {
  py::list parts;
  for (const AnswerPart& p : e.parts) {
    py::dict d(py::arg("name") = p.name, py::arg("unit") = p.unit, py::arg("kind") = p.kind,
               py::arg("options") = p.options, py::arg("size") = answer_size(p));
    if (p.kind == "number") {
      d["formula"] = p.formula;
      d["tolerance"] = tolerance_words(answer_tolerance(p, answer_key(p)));
    }
    parts.append(d);
  }
  return py::dict(py::arg("id") = e.id, py::arg("chapter") = e.chapter, py::arg("title") = e.title,
                  py::arg("source") = e.source, py::arg("question") = e.question, py::arg("parts") = parts);
}

const Exercise& require_exercise(const std::string& id) {
  const Exercise* e = find_exercise(id);
  if (!e) throw std::invalid_argument(unknown_exercise_message(id, "impulse.exercises()"));
  return *e;
}

// The tutor's verdict (lib/course/tutor.h) as a dict, with the text the command line prints.
py::dict verdict_dict(const Verdict& v, const std::string& tries_where) {
  py::list parts;
  for (const PartVerdict& p : v.parts) {
    py::dict d(py::arg("name") = p.name, py::arg("kind") = p.kind, py::arg("unit") = p.unit,
               py::arg("correct") = p.correct, py::arg("given") = p.given, py::arg("tolerance") = p.tolerance,
               py::arg("hint") = p.hint);
    if (p.component > 0) d["component"] = p.component;
    if (v.revealed) d["expected"] = p.answer;
    parts.append(d);
  }
  py::dict out(py::arg("id") = v.id, py::arg("answered") = v.answered, py::arg("correct") = v.correct,
               py::arg("tries") = v.tries, py::arg("revealed") = v.revealed, py::arg("parts") = parts,
               py::arg("text") = verdict_text(v, tries_where));
  if (v.revealed) out["explanation"] = v.explanation;
  return out;
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
  m.def("check", [](const std::string& id, const std::vector<std::string>& tokens, bool reveal) {
    const Exercise& e = require_exercise(id);
    const std::string path = tries_path();
    const std::string where = path == "off" ? "" : path;
    if (tokens.empty()) {
      if (!reveal) throw std::invalid_argument(one_line(id + " needs an answer (or reveal=True for the worked solution)"));
      return verdict_dict(reveal_verdict(e, recorded_tries(path, e.id)), "");
    }
    const Grade g = grade(e, tokens);
    const int tries = g.correct ? recorded_tries(path, e.id) : record_wrong_try(path, e.id);
    return verdict_dict(tutor_verdict(e, g, tries, reveal), where);
  }, py::arg("id"), py::arg("tokens"), py::arg("reveal"),
        "Grades an answer as `impulse exercises check` does: the same verdict, tolerance, hint and tries record.");

  m.def("scenes", [] {
    py::list out;
    for (const Scene& s : scenes().scenes()) out.append(scene_dict(s));
    return out;
  });
  m.def("run_scene", &run_scene, py::arg("name"), py::arg("options"));
}

}  // namespace impulse::python
