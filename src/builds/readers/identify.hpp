// What an input is, from its first bytes: the one place that tells the
// kinds apart (LLVM's identify_magic), so the driver is a switch.
#pragma once

#include <string_view>

#include "builds/readers/bytes.hpp"

namespace occcalc::inspect {

enum class input_kind {
  /// An EM_CUDA ELF file.
  cubin,
  /// An EM_AMDGPU ELF file (HSA code object).
  amdgpu_code_object,
  /// Any other ELF file: an object, executable or shared library.
  host_elf,
  /// A CUDA fat binary.
  fatbin,
  /// A clang offload bundle, plain or compressed.
  offload_bundle,
  /// A static library (`!<arch>`).
  ar_archive,
  /// ptxas or nvlink output.
  compiler_log,
  /// AMDGPU assembly with code object metadata (`clang -S`).
  amdgpu_assembly,
  /// PTX text.
  ptx,
  /// The AMDGPU compiler's kernel-resource-usage remarks.
  amdgpu_remarks,
  unknown,
};

/// The kind of `bytes`, judged by magic numbers and headers only; a kind
/// does not promise the rest of the input is well formed.
input_kind identify(byte_view bytes) noexcept;

/// How the text and JSON outputs name a kind: `cubin`, `host ELF`, ...
std::string_view to_string(input_kind kind) noexcept;

}  // namespace occcalc::inspect
