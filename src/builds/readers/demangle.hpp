// C++ symbol demangling with the C++ ABI's own demangler.
#pragma once

#include <string>
#include <string_view>

namespace occcalc::inspect {

/// The longest symbol handed to the demangler: its recursion grows with the
/// name, so a hostile name could exhaust the stack. Longer names stay mangled.
inline constexpr std::size_t max_demangled_symbol_chars = 16384;

/// The deepest nesting a demangled name may have: the demangler recurses
/// once a level; a browser's stack (the web page runs this code as
/// WebAssembly, with LLVM's demangler) overflows near 2,000 levels of
/// templates, and GCC's demangler gives up near 250, so below both the CLI
/// and the page demangle alike. The 38,428 kernel names of CUDA 13's cuBLAS
/// and cuDNN nest at most 56 deep.
inline constexpr std::size_t max_demangled_nesting = 128;

/// How deeply `name` (Itanium-mangled) nests: template arguments, nested
/// names, function types, literals and each pointer, reference, qualifier
/// or array on a type. An estimate read without parsing, at least the
/// demangler's recursion for these.
std::size_t mangled_nesting(std::string_view name);

/// `abi::__cxa_demangle` of an Itanium-mangled name (`_Z...`); the name
/// unchanged if it is not one, is too long or nested too deeply, or does
/// not demangle. The CLI and the web page demangle alike.
std::string demangle(std::string_view name);

}  // namespace occcalc::inspect
