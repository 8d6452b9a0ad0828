// What crosses the border between Python and the engine, shared by the binding files: argument
// checks (a bad one raises ValueError naming the call, the argument, its value and the allowed
// range), Python values to the engine's types (Warp-like values: plain tuples, lists and NumPy
// arrays, or anything with the same numbers), and NumPy views of the engine's CPU buffers.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "e1/model.h"

namespace impulse::python {

namespace py = pybind11;

[[noreturn]] inline void bad(const std::string& what) { throw py::value_error(what); }

inline std::string num(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

inline real positive(const char* fn, const char* arg, const char* unit, double x) {
  if (!(std::isfinite(x) && x > 0))
    bad(std::string(fn) + ": " + arg + " must be a finite number > 0 [" + unit + "], got " + num(x));
  return real(x);
}

inline real finite(const char* fn, const char* arg, const char* unit, double x) {
  if (!std::isfinite(x)) bad(std::string(fn) + ": " + arg + " must be finite [" + unit + "], got " + num(x));
  return real(x);
}

/// n finite numbers from any Python sequence (tuple, list, NumPy array, Warp-like value).
inline std::vector<double> numbers(const char* fn, const char* arg, const py::handle& v, std::size_t n,
                                   const char* layout) {
  std::vector<double> x;
  try {
    py::object a = py::module_::import("numpy").attr("asarray")(v, "float64").attr("ravel")();
    x = a.cast<std::vector<double>>();
  } catch (const py::error_already_set&) {
    bad(std::string(fn) + ": " + arg + " must be " + std::to_string(n) + " numbers " + layout);
  } catch (const py::cast_error&) {
    bad(std::string(fn) + ": " + arg + " must be " + std::to_string(n) + " numbers " + layout);
  }
  if (x.size() != n)
    bad(std::string(fn) + ": " + arg + " must be " + std::to_string(n) + " numbers " + layout + ", got " +
        std::to_string(x.size()));
  for (double e : x)
    if (!std::isfinite(e)) bad(std::string(fn) + ": " + arg + " must be finite, got " + num(e));
  return x;
}

/// A transform: None (identity) or 7 numbers (p_x, p_y, p_z, q_x, q_y, q_z, q_w), as wp.transform
/// lays them out; the quaternion is normalised, a zero one refused.
inline transform to_transform(const char* fn, const py::handle& xform, const char* arg = "xform") {
  if (xform.is_none()) return transform_identity();
  const std::vector<double> v = numbers(fn, arg, xform, 7, "(p_x, p_y, p_z, q_x, q_y, q_z, q_w)");
  quat q{real(v[3]), real(v[4]), real(v[5]), real(v[6])};
  if (!(quat_norm(q) > real(1e-12)))
    bad(std::string(fn) + ": " + arg + "'s quaternion (q_x, q_y, q_z, q_w) must be non-zero");
  return {{real(v[0]), real(v[1]), real(v[2])}, quat_normalize(q)};
}

inline vec3 to_vec3(const char* fn, const char* arg, const py::handle& v) {
  const std::vector<double> x = numbers(fn, arg, v, 3, "(x, y, z)");
  return {real(x[0]), real(x[1]), real(x[2])};
}

/// 9 numbers, row-major (wp.mat33's layout), or a 3x3 nested sequence.
inline mat33 to_mat33(const char* fn, const char* arg, const py::handle& v) {
  const std::vector<double> x = numbers(fn, arg, v, 9, "(row-major 3x3)");
  mat33 m;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) m.m[r][c] = real(x[3 * r + c]);
  return m;
}

inline int body_index(const char* fn, const ModelBuilder& b, int body, bool world_ok, const char* arg = "body") {
  if (body < (world_ok ? -1 : 0) || body >= b.body_count())
    bad(std::string(fn) + ": " + arg + " must be " + (world_ok ? "-1 (world) or " : "") + "in [0, " +
        std::to_string(b.body_count()) + "), got " + std::to_string(body));
  return body;
}

/// The Python type every exposed array is viewed as (impulse.wp.array: a NumPy array with Warp's
/// .numpy() and .assign()); set by the package at import, plain NumPy until then.
inline py::object& array_type() {
  static py::object t;
  return t;
}

inline py::array as_warp_like(py::array a) {
  if (!array_type() || array_type().is_none()) return a;
  return a.attr("view")(array_type());
}

/// A NumPy view of a CPU buffer of `cols` reals per row, kept alive by `owner`.
template <class T>
py::array rows_view(Buffer<T>& b, int cols, py::handle owner, bool writeable = true) {
  static_assert(sizeof(T) % sizeof(real) == 0, "rows of reals");
  if (b.device() != Device::cpu) bad("arrays of a GPU model are not exposed to Python (finalize on the CPU)");
  py::array a(py::dtype::of<real>(), {py::ssize_t(b.size()), py::ssize_t(cols)},
              {py::ssize_t(sizeof(T)), py::ssize_t(sizeof(real))}, reinterpret_cast<real*>(b.data()), owner);
  if (!writeable) py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return as_warp_like(a);
}

template <class T>
py::array flat_view(Buffer<T>& b, py::handle owner, bool writeable = true) {
  if (b.device() != Device::cpu) bad("arrays of a GPU model are not exposed to Python (finalize on the CPU)");
  py::array a(py::dtype::of<T>(), {py::ssize_t(b.size())}, {py::ssize_t(sizeof(T))}, b.data(), owner);
  if (!writeable) py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return as_warp_like(a);
}

// A finalized Model's arrays are read-only: NumPy views without the WRITEABLE flag.
template <class T>
py::array flat_view(const ModelArray<T>& b, py::handle owner, bool = false) {
  return flat_view(const_cast<Buffer<T>&>(static_cast<const Buffer<T>&>(b)), owner, false);
}
template <class T>
py::array rows_view(const ModelArray<T>& b, int cols, py::handle owner, bool = false) {
  return rows_view(const_cast<Buffer<T>&>(static_cast<const Buffer<T>&>(b)), cols, owner, false);
}

}  // namespace impulse::python
