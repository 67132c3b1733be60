// One figure of many configurations, as `occupancy_many` takes it: one
// integer for all, a sequence of Python integers, or a one-dimensional buffer
// of machine integers of any width (a NumPy array, `array.array`, a
// memoryview) read in place, with no Python object per element and no copy. Python's values are
// converted here, once, with the GIL held; the computation then reads the
// column without it.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <cctype>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "occcalc/error.hpp"

namespace occcalc::python {

namespace py = pybind11;

/// A Python value of the wrong type for an argument: raised as `TypeError`,
/// its text led by the argument's name.
class type_error : public std::exception {
 public:
  type_error(std::string_view key, const std::string& message) : text_(std::string(key) + " " + message) {}
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  std::string text_;
};

/// `value`'s type as Python names it (`list`, `numpy.bool_`).
inline std::string qualified_type(const py::handle& value) {
  const py::handle type = value.get_type();
  const std::string module = py::str(type.attr("__module__"));
  const std::string name = py::str(type.attr("__qualname__"));
  return module == "builtins" ? name : module + "." + name;
}

/// The same with its article, for messages: `a list`, `an int`.
inline std::string type_name(const py::handle& value) {
  const std::string full = qualified_type(value);
  return (std::string("aeiou").find(full[0]) != std::string::npos ? "an " : "a ") + full;
}

/// Whether `value` is a truth value: Python's bool or NumPy's (`numpy.bool_`,
/// which NumPy 1.x still lets pass as an index).
inline bool is_truth_value(const py::handle& value) {
  if (PyBool_Check(value.ptr())) return true;
  if (PyLong_CheckExact(value.ptr()) || PyUnicode_CheckExact(value.ptr())) return false;  // the usual arguments
  // The type's C name, not its attributes: this runs for every argument.
  const char* name = Py_TYPE(value.ptr())->tp_name;
  return std::strcmp(name, "numpy.bool_") == 0 || std::strcmp(name, "numpy.bool") == 0;
}

/// `text` (a str) as UTF-8, for `key`: a lone surrogate (a file name's
/// undecodable byte, `"\udcff"`) is refused by name, not by a RuntimeError.
inline std::string_view utf8_view_of(std::string_view key, const py::handle& text) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (data == nullptr) {
    PyErr_Clear();
    throw occcalc::input_error(std::string(key), "holds a character that is not Unicode text (a lone surrogate)");
  }
  return {data, static_cast<std::size_t>(size)};
}

inline std::string utf8_of(std::string_view key, const py::handle& text) {
  return std::string(utf8_view_of(key, text));
}

/// `value` as an integer, for `key`: what has `__index__` (int, NumPy's
/// integers), never a truth value, a float or bytes.
inline std::int64_t integer_of(std::string_view key, const py::handle& value) {
  if (PyLong_CheckExact(value.ptr())) {  // an int, the usual argument: no __index__ to call
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow == 0) return static_cast<std::int64_t>(n);
  }
  if (is_truth_value(value) || !PyIndex_Check(value.ptr()))
    throw type_error(key, "is " + type_name(value) + "; it takes an integer");
  const py::int_ number = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
  if (!number) {  // a NumPy array of more than one value has __index__, and refuses it
    PyErr_Clear();
    throw type_error(key, "is " + type_name(value) + "; it takes an integer");
  }
  int overflow = 0;
  const long long n = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (overflow != 0)
    throw occcalc::input_error(std::string(key), std::string(py::str(py::handle(number))) + " is outside 64 bits");
  return static_cast<std::int64_t>(n);
}

class column {
 public:
  /// `values` for `key`: an integer, a sequence of integers or a 1-D buffer of
  /// integers. Refuses truth values, floats, text and bytes with a
  /// `type_error` naming `key` (and the element, for a sequence's).
  column(const std::string& key, const py::handle& values) {
    if (py::isinstance<py::str>(values) || PyBytes_Check(values.ptr()) || PyByteArray_Check(values.ptr()))
      throw type_error(key, "is " + type_name(values) + "; it takes an integer or a sequence of integers");
    // Arrays first: NumPy's have __index__ too (which only a 0-D one honours).
    if (PyObject_CheckBuffer(values.ptr())) {
      read_buffer(key, values);
      return;
    }
    if (PyIndex_Check(values.ptr()) || is_truth_value(values)) {
      values_.push_back(integer_of(key, values));
      scalar_ = true;
      return;
    }
    if (!PySequence_Check(values.ptr()))
      throw type_error(key, "is " + type_name(values) + "; it takes an integer or a sequence of integers");
    const py::sequence items = py::reinterpret_borrow<py::sequence>(values);
    values_.reserve(items.size());
    for (const auto& item : items) values_.push_back(integer_of(key + "[" + std::to_string(values_.size()) + "]", item));
  }

  /// One value for every configuration.
  bool scalar() const noexcept { return scalar_; }
  /// Its values (a scalar's: 1).
  std::size_t size() const noexcept { return view_ ? static_cast<std::size_t>(view_->shape[0]) : values_.size(); }

  /// The `i`th configuration's value (a scalar's for every `i`).
  std::int64_t operator[](std::size_t i) const noexcept {
    if (scalar_) return values_[0];
    if (!view_) return values_[i];
    const char* at = static_cast<const char*>(view_->buf) + static_cast<std::ptrdiff_t>(i) * view_->strides[0];
    return read_one(at, itemsize_, signed_);
  }

 private:
  struct release {
    void operator()(Py_buffer* view) const noexcept {
      PyBuffer_Release(view);
      delete view;
    }
  };

  void read_buffer(const std::string& key, const py::handle& values) {
    auto view = std::unique_ptr<Py_buffer, release>(new Py_buffer{});
    if (PyObject_GetBuffer(values.ptr(), view.get(), PyBUF_STRIDES | PyBUF_FORMAT) != 0) {
      delete view.release();
      throw py::error_already_set();
    }
    std::string format = view->format ? view->format : "B";
    const bool native_order = format.empty() || (format[0] != '>' && format[0] != '!');
    if (!format.empty() && std::strchr("@=<>!", format[0]) != nullptr) format.erase(0, 1);
    if (format == "?") throw type_error(key, "holds booleans; it takes integers");
    if (format.size() == 1 && std::strchr("efdg", format[0]) != nullptr)
      throw type_error(key, "holds floating-point numbers; it takes integers (convert with .astype(int))");
    if (format.size() != 1 || std::strchr("bhilqnBHILQN", format[0]) == nullptr)
      throw type_error(key, "holds '" + format + "' values; it takes integers");
    if (!native_order) throw type_error(key, "is big-endian; convert it with .astype(int)");
    if (view->ndim == 0) {
      values_.push_back(read_one(view->buf, view->itemsize, std::islower(format[0]) != 0));
      scalar_ = true;
      return;
    }
    if (view->ndim != 1)
      throw type_error(key, "is a " + std::to_string(view->ndim) + "-D array; give one value per configuration (1-D)");
    itemsize_ = view->itemsize;
    signed_ = std::islower(format[0]) != 0;
    view_ = std::move(view);
  }

  template <typename T>
  static T read(const char* at) noexcept {
    T value;
    std::memcpy(&value, at, sizeof value);
    return value;
  }
  static std::int64_t clamp(std::uint64_t value) noexcept {
    return value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
               ? std::numeric_limits<std::int64_t>::max()
               : static_cast<std::int64_t>(value);
  }
  static std::int64_t read_one(const void* buf, Py_ssize_t itemsize, bool is_signed) noexcept {
    const char* at = static_cast<const char*>(buf);
    switch (itemsize) {
      case 1: return is_signed ? read<std::int8_t>(at) : read<std::uint8_t>(at);
      case 2: return is_signed ? read<std::int16_t>(at) : read<std::uint16_t>(at);
      case 4: return is_signed ? read<std::int32_t>(at) : read<std::uint32_t>(at);
      default: return is_signed ? read<std::int64_t>(at) : clamp(read<std::uint64_t>(at));
    }
  }

  std::vector<std::int64_t> values_;
  std::unique_ptr<Py_buffer, release> view_;
  Py_ssize_t itemsize_ = 8;
  bool signed_ = true;
  bool scalar_ = false;
};

}  // namespace occcalc::python
