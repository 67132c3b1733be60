// One result per configuration, written in place: a NumPy array where NumPy
// is installed (allocated once, no Python object per element), else a list.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <vector>

namespace occcalc::python {

namespace py = pybind11;

template <typename T>
class output {
 public:
  /// `count` values of NumPy's `dtype` (`float64`, `int64`: T's layout).
  output(std::size_t count, const char* dtype) {
    try {
      array_ = py::module_::import("numpy").attr("empty")(count, dtype);
    } catch (py::error_already_set& e) {
      if (!e.matches(PyExc_ImportError)) throw;
      list_.resize(count);
      data_ = list_.data();
      return;
    }
    if (PyObject_GetBuffer(array_.ptr(), &view_, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) != 0) throw py::error_already_set();
    held_ = true;
    data_ = static_cast<T*>(view_.buf);
  }
  output(const output&) = delete;
  output& operator=(const output&) = delete;
  ~output() {
    if (held_) PyBuffer_Release(&view_);
  }

  T& operator[](std::size_t i) noexcept { return data_[i]; }

  /// The values, as the NumPy array or a list.
  py::object release() {
    if (held_) {
      PyBuffer_Release(&view_);
      held_ = false;
      return std::move(array_);
    }
    return py::cast(list_);
  }

 private:
  py::object array_;
  Py_buffer view_{};
  bool held_ = false;
  std::vector<T> list_;
  T* data_ = nullptr;
};

}  // namespace occcalc::python
