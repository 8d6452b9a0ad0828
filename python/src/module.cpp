// impulse._core: the C++ side of the Python module. The pure-Python package (python/impulse/)
// adds units, keyword arguments and Newton-style names on top; this file only crosses the border.
#include <pybind11/pybind11.h>

#include "convert.h"
#include "e3/contacts/contacts_view.h"

namespace py = pybind11;

namespace impulse::python {
void bind_course(py::module_& m);  // course.cpp: registry, exercises, scenes
void bind_engine(py::module_& m);   // engine.cpp: Model, State, Control, FK/IK, pipeline, sensor, solvers
void bind_builder(py::module_& m);  // builder.cpp: ShapeConfig, ModelBuilder, importers
}  // namespace impulse::python

PYBIND11_MODULE(_core, m) {
  m.doc() = "impulse engine and course registry (C++); use the package `impulse`, not this module";
  // Classes and signatures carry the module's name at binding time: bind under the package's
  // public name, so help() and every signature say impulse.State, not impulse._core.State.
  m.attr("__name__") = "impulse";
  impulse::python::bind_course(m);
  impulse::python::bind_engine(m);
  impulse::python::bind_builder(m);
  // The package's array type (impulse.wp.array: NumPy with Warp's .numpy() and .assign()).
  m.def("_set_array_type", [](py::object t) { impulse::python::array_type() = t; });
  m.attr("__name__") = "impulse._core";
  // A solver without a per-contact force producer raises what Newton's base class raises there.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const impulse::UpdateContactsNotImplemented& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    }
  });
}
