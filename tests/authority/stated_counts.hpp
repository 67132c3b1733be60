// The counts the documentation states for an authority run, held to the run
// that produces them: a change that moves a count and leaves the docs behind
// fails here, so the docs cannot drift from what the tests measured.
#pragma once

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace occcalc::test {

/// `n` with a comma between each three digits, as the docs write counts.
inline std::string with_commas(long long n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  for (std::size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, ",");
  return n < 0 ? "-" + digits : digits;
}

/// `text` with each run of white space (line breaks and indents too) as one
/// space.
inline std::string one_spaced(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

/// Whether `document` (relative to the source tree) states `fragment`,
/// white space aside; prints what to change where it does not.
inline bool states(const std::string& document, const std::string& fragment) {
  std::ifstream file(std::string(OCCCALC_SOURCE_DIR) + "/" + document);
  std::ostringstream text;
  text << file.rdbuf();
  if (one_spaced(text.str()).find(one_spaced(fragment)) != std::string::npos) return true;
  std::printf("STALE DOCS: %s does not state \"%s\", what this run measured: update it\n", document.c_str(),
              fragment.c_str());
  return false;
}

}  // namespace occcalc::test
