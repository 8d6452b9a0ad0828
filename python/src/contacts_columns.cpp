// The Contacts columns for Python, one property per entry of IMPULSE_CONTACT_COLUMNS.
#include "contacts_columns.h"

#include <pybind11/numpy.h>

#include <string>

#include "convert.h"

namespace py = pybind11;

namespace impulse::python {

namespace {

// Scalars per row and their NumPy element type, by column type.
template <class T> struct ColumnShape {
  using element = T;
  static constexpr int cols = 1;
};
template <> struct ColumnShape<vec3> {
  using element = real;
  static constexpr int cols = 3;
};

template <class T>
py::array column_array(Buffer<T>& b, py::handle owner) {
  using E = typename ColumnShape<T>::element;
  constexpr int cols = ColumnShape<T>::cols;
  static_assert(sizeof(T) == cols * sizeof(E), "a column row is cols scalars");
  if (b.device() != Device::cpu) throw py::value_error("arrays of a GPU record are not exposed to Python");
  std::vector<py::ssize_t> shape{py::ssize_t(b.size())}, strides{py::ssize_t(sizeof(T))};
  if (cols > 1) {
    shape.push_back(cols);
    strides.push_back(py::ssize_t(sizeof(E)));
  }
  py::array a(py::dtype::of<E>(), shape, strides, reinterpret_cast<E*>(b.data()), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return as_warp_like(a);  // Warp's .numpy() as on every other exposed array
}

}  // namespace

void def_contact_columns(py::handle cls, ContactsOf contacts_of) {
  py::object property = py::module_::import("builtins").attr("property");
#define IMPULSE_CONTACT_PROPERTY(type, name, unit, doc)                                                            \
  py::setattr(cls, #name,                                                                                         \
              property(py::cpp_function([contacts_of](py::object self) {                                          \
                         return column_array(contacts_of(self).name, self);                                        \
                       }),                                                                                        \
                       py::none(), py::none(), std::string("[") + unit + "] " + doc));
  IMPULSE_CONTACT_COLUMNS(IMPULSE_CONTACT_PROPERTY)
#undef IMPULSE_CONTACT_PROPERTY
}

}  // namespace impulse::python
