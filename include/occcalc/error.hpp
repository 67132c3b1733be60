/// \file error.hpp
/// The exceptions occcalc throws at its validation and loading edges.
///
/// A launch that cannot run is not an error: it is a result with 0 blocks
/// (see occupancy.hpp). Errors are for input that has no answer at all.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace occcalc {

/// Base of every exception occcalc throws.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A request field that is malformed or out of range.
///
/// `field()` is the request key (`threads`, `dyn_smem`, ...), the same name as
/// the long flag with `_` for `-`; `what()` is the rest of the message, which
/// begins with the offending value, e.g. `0 is outside [1, 2147483647]`.
class input_error : public error {
 public:
  input_error(std::string field, const std::string& message) : error(message), field_(std::move(field)) {}

  /// The request key the message is about.
  const std::string& field() const noexcept { return field_; }

 private:
  std::string field_;
};

/// A table file that cannot be used: malformed JSON, an unknown or missing
/// field, a duplicate id or an out-of-range value. The message names the file,
/// the entry and the field.
class table_error : public error {
 public:
  using error::error;
};

}  // namespace occcalc
