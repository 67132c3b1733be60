#include "builds/readers/demangle.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <vector>

namespace occcalc::inspect {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

}  // namespace

// A scan, not a parse: it reads the grammar's nesting (what the demangler
// recurses on) and steps over what holds letters that nest nothing (source
// names, substitutions, template parameters, literals' values).
std::size_t mangled_nesting(std::string_view name) {
  std::size_t depth = 0, deepest = 0, prefixes = 0;
  std::vector<std::size_t> opened;  // what each open group added to `depth`
  std::size_t at = name.substr(0, 2) == "_Z" ? 2 : 0;
  const auto skip_number_and_underscore = [&] {
    while (at < name.size() && (is_digit(name[at]) || is_upper(name[at]))) ++at;
    if (at < name.size() && name[at] == '_') ++at;
  };
  const auto open = [&] {
    opened.push_back(1 + prefixes);
    depth += 1 + prefixes;
    prefixes = 0;
  };
  while (at < name.size()) {
    const char c = name[at++];
    switch (c) {
      case 'I':
      case 'N':
      case 'F':
      case 'J':
      case 'X':
      case 'Z': open(); break;
      case 'E':
        if (!opened.empty()) {
          depth -= opened.back();
          opened.pop_back();
        }
        prefixes = 0;
        break;
      case 'L':  // a literal: L <builtin type> <value> E, or L _Z <encoding> E
        open();
        if (at < name.size() && is_lower(name[at])) {
          while (at < name.size() && name[at] != 'E') ++at;
        } else if (name.substr(at, 2) == "_Z") {
          at += 2;
        }
        break;
      case 'P':
      case 'R':
      case 'O':
      case 'K':
      case 'V':
      case 'r':
      case 'G':
      case 'U':
      case 'M':
        ++prefixes;  // each applies to the type after it, one level down
        break;
      case 'A':  // an array type: A <size> _ <element type>
        skip_number_and_underscore();
        ++prefixes;
        break;
      case 'C':  // a constructor (C1, C2, CI1) or a complex type
        if (at < name.size() && (is_digit(name[at]) || name[at] == 'I'))
          ++at;
        else
          ++prefixes;
        break;
      case 'S':
      case 'T':  // a substitution (S_, S1A_, St) or template parameter (T_, T0_)
        if (at < name.size() && is_lower(name[at]))
          ++at;
        else
          skip_number_and_underscore();
        break;
      case 'D':  // Dp pack expansion, Dv vector, DT/Dt decltype, D0-D2 destructors, other builtins
        if (at < name.size() && name[at] == 'p') {
          ++at;
          ++prefixes;
        } else if (at < name.size() && name[at] == 'v') {
          ++at;
          skip_number_and_underscore();
          ++prefixes;
        } else if (at < name.size() && (name[at] == 'T' || name[at] == 't')) {
          ++at;
          open();
        } else if (at < name.size()) {
          ++at;
          skip_number_and_underscore();
        }
        break;
      default:
        if (is_digit(c)) {  // a source name: <length> <identifier>
          std::size_t length = static_cast<std::size_t>(c - '0');
          while (at < name.size() && is_digit(name[at]) && length <= name.size()) {
            length = length * 10 + static_cast<std::size_t>(name[at++] - '0');
          }
          at = length >= name.size() - at ? name.size() : at + length;
        }
        prefixes = 0;
        break;
    }
    deepest = std::max(deepest, depth + prefixes);
  }
  return deepest;
}

std::string demangle(std::string_view name) {
  if (name.substr(0, 2) != "_Z" || name.size() > max_demangled_symbol_chars ||
      mangled_nesting(name) > max_demangled_nesting) {
    return std::string(name);
  }
  const std::string terminated(name);
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(terminated.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && out ? std::string(out.get()) : terminated;
}

}  // namespace occcalc::inspect
