// C++ symbol demangling with the C++ ABI's own demangler.
#pragma once

#include <string>
#include <string_view>

namespace occcalc::inspect {

/// The longest symbol handed to the demangler: its recursion grows with the
/// name, so a hostile name could exhaust the stack. Longer names stay mangled.
inline constexpr std::size_t max_demangled_symbol_chars = 16384;

/// `abi::__cxa_demangle` of an Itanium-mangled name (`_Z...`); the name
/// unchanged if it is not one, is too long, or does not demangle.
std::string demangle(std::string_view name);

}  // namespace occcalc::inspect
