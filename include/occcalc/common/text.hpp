/// \file common/text.hpp
/// Text helpers shared by every parser: case folding, trimming, a strict
/// decimal reader, and values quoted on one line for error messages.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace occcalc {

/// An inclusive range of allowed integers; by default what an `int` holds
/// (the width of the reference header's fields).
struct int_range {
  std::int64_t min = 0;
  std::int64_t max = std::numeric_limits<std::int32_t>::max();
};

namespace detail {

inline std::string range_text(int_range range) {
  return "[" + std::to_string(range.min) + ", " + std::to_string(range.max) + "]";
}

// ASCII's case, white space and letters, as the C locale's tolower, isspace
// and isalnum: the same in every program that embeds occcalc (Python sets
// the user's locale, where a byte above 127 may be a letter), and no call
// per character.
constexpr char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr bool ascii_space(char c) noexcept { return c == ' ' || (c >= '\t' && c <= '\r'); }
constexpr bool ascii_alnum(char c) noexcept {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

inline std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

inline std::string_view trim(std::string_view text) noexcept {
  while (!text.empty() && ascii_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && ascii_space(text.back())) text.remove_suffix(1);
  return text;
}

/// Parses an optionally signed run of decimal digits; empty if the text is
/// anything else or does not fit in 64 bits.
inline std::optional<std::int64_t> parse_decimal(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  std::int64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const int digit = c - '0';
    if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

/// The most characters of a value an error message repeats.
inline constexpr std::size_t max_quoted_chars = 80;

/// At most `max_chars` characters of `text` on one line: control characters
/// (a newline, a terminal escape) written as `\xNN`, and `...` where it was cut.
inline std::string one_line(std::string_view text, std::size_t max_chars) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  std::size_t shown = 0;
  for (const char c : text) {
    if (shown == max_chars) break;
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 0xf];
    } else {
      out += c;
    }
    ++shown;
  }
  if (shown < text.size()) out += "...";
  return out;
}

/// Unicode's invisible format characters, which reorder or hide the text
/// around them: the bidi embeddings, overrides and isolates (U+202A-U+202E,
/// U+2066-U+2069, U+061C), the zero-width characters and marks
/// (U+200B-U+200F, U+2060-U+2064) and U+FEFF. A kernel name that holds one
/// reads as another name ("Trojan Source", CVE-2021-42574).
constexpr bool invisible_format_character(std::uint32_t code) noexcept {
  return code == 0x061c || (code >= 0x200b && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) ||
         (code >= 0x2060 && code <= 0x2064) || (code >= 0x2066 && code <= 0x2069) || code == 0xfeff;
}

/// `text` safe to print anywhere: every control character (a newline, a
/// carriage return, a terminal escape, C1 controls such as U+009B) and every
/// byte that is not UTF-8 written as `\xNN`, and every invisible format
/// character (bidi overrides, zero-width characters) as `\uNNNN`, so a name
/// or a path from an untrusted file can neither start a line, nor drive the
/// terminal, nor read as another. Other valid UTF-8 text is kept.
inline std::string printable(std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  const auto escape = [&](unsigned char byte) {
    out += "\\x";
    out += hex[byte >> 4];
    out += hex[byte & 0xf];
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      out += text[i++];
      continue;
    }
    // The length of the UTF-8 sequence `byte` starts (0: not a lead byte),
    // and the least code point it may encode (shorter forms are invalid).
    const std::size_t length = byte >= 0xc2 && byte <= 0xdf   ? 2
                               : byte >= 0xe0 && byte <= 0xef ? 3
                               : byte >= 0xf0 && byte <= 0xf4 ? 4
                                                              : 0;
    bool valid = length > 0 && i + length <= text.size();
    std::uint32_t code = length == 2 ? byte & 0x1fu : length == 3 ? byte & 0x0fu : byte & 0x07u;
    for (std::size_t k = 1; valid && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      valid = (next & 0xc0) == 0x80;
      code = (code << 6) | (next & 0x3fu);
    }
    constexpr std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    valid = valid && code >= least[length] && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) &&
            (code < 0x80 || code > 0x9f);
    if (!valid) {
      escape(byte);
      ++i;
      continue;
    }
    if (invisible_format_character(code)) {
      out += "\\u";
      for (const int shift : {12, 8, 4, 0}) out += hex[(code >> shift) & 0xf];
      i += length;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

/// A value as error messages show it: in quotes, on one line, at most
/// `max_quoted_chars` characters, with its length when it was cut.
inline std::string quoted(std::string_view text) {
  std::string out = "'" + one_line(text.substr(0, max_quoted_chars), max_quoted_chars) + "'";
  if (text.size() > max_quoted_chars) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

/// Levenshtein distance between two strings.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// The one of `candidates` closest to `word` by edit distance, if it is
/// within a typo (two edits, or a third of the longer word; at most
/// `max_edits` when given): the did-you-mean of a misspelt key.
inline std::optional<std::string_view> closest_word(std::string_view word,
                                                    const std::vector<std::string_view>& candidates,
                                                    std::size_t max_edits = SIZE_MAX) {
  std::optional<std::string_view> best;
  std::size_t best_distance = 0;
  for (const auto candidate : candidates) {
    const std::size_t tolerance =
        std::min(max_edits, std::max<std::size_t>(2, std::max(word.size(), candidate.size()) / 3));
    const std::size_t distance = edit_distance(word, candidate);
    if (distance <= tolerance && (!best || distance < best_distance)) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace detail

}  // namespace occcalc
