// impulse._core: the C++ side of the Python module. The pure-Python package (python/impulse/)
// adds units, keyword arguments and Newton-style names on top; this file only crosses the border.
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace impulse::python {
void bind_course(py::module_& m);  // course.cpp: registry, exercises, scenes
void bind_engine(py::module_& m);  // engine.cpp: ModelBuilder, Model, State, pipeline, SolverXPBD
}  // namespace impulse::python

PYBIND11_MODULE(_core, m) {
  m.doc() = "impulse engine and course registry (C++); use the package `impulse`, not this module";
  impulse::python::bind_course(m);
  impulse::python::bind_engine(m);
}
