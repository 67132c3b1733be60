/// \file error.hpp
/// The exceptions occcalc throws at its validation and loading edges.
///
/// A launch that cannot run is not an error: it is a result with 0 blocks
/// (see occupancy.hpp). Errors are for input that has no answer at all.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace occcalc {

/// Base of every exception occcalc throws.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
/// Brackets a field reference in a message; never in a field's name.
inline constexpr char field_ref_mark = '\x1f';
}  // namespace detail

/// Another request field named in a message (`... (or gpu)`), so that each
/// front end spells it as its users write it: `--gpu` on the command line,
/// `gpu` in batch (see `input_error::message`).
inline std::string field_ref(std::string_view key) {
  return detail::field_ref_mark + std::string(key) + detail::field_ref_mark;
}

/// `text` with every `field_ref` spelled by `spell` (a key in, its spelling
/// out).
template <typename Spell>
std::string spell_field_refs(std::string_view text, Spell&& spell) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const auto open = text.find(detail::field_ref_mark, at);
    const auto close = open == std::string_view::npos ? open : text.find(detail::field_ref_mark, open + 1);
    if (close == std::string_view::npos) {
      out += text.substr(at);
      break;
    }
    out += text.substr(at, open - at);
    out += spell(text.substr(open + 1, close - open - 1));
    at = close + 1;
  }
  return out;
}

/// A request field that is malformed or out of range.
///
/// `field()` is the request key (`threads`, `dyn_smem`, ...), the same name as
/// the long flag with `_` for `-`; `what()` is the rest of the message, which
/// begins with the offending value, e.g. `0 is outside [1, 2147483647]`, and
/// names other fields by their keys; `message(spell)` spells them otherwise.
class input_error : public error {
 public:
  input_error(std::string field, const std::string& message)
      : error(spell_field_refs(message, [](std::string_view key) { return std::string(key); })),
        field_(std::move(field)),
        message_(message) {}

  /// The request key the message is about.
  const std::string& field() const noexcept { return field_; }

  /// The message with the other fields it names spelled by `spell`.
  template <typename Spell>
  std::string message(Spell&& spell) const {
    return spell_field_refs(message_, std::forward<Spell>(spell));
  }

  /// The whole message with every field spelled as a key, led by this one:
  /// `threads 0 is outside [1, 2147483647]`, as a batch line's error and the
  /// Python module say it.
  std::string keyed_text() const { return field_.empty() ? std::string(what()) : field_ + " " + what(); }

 private:
  std::string field_;
  std::string message_;
};

/// A table file that cannot be used: malformed JSON, an unknown or missing
/// field, a duplicate id or an out-of-range value. The message names the file,
/// the entry and the field.
class table_error : public error {
 public:
  using error::error;
};

}  // namespace occcalc
