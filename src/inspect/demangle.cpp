#include "inspect/demangle.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace occcalc::inspect {

std::string demangle(std::string_view name) {
  if (name.substr(0, 2) != "_Z" || name.size() > max_demangled_symbol_chars) return std::string(name);
  const std::string terminated(name);
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(terminated.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && out ? std::string(out.get()) : terminated;
}

}  // namespace occcalc::inspect
