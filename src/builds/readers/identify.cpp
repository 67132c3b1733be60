#include "builds/readers/identify.hpp"

#include "builds/readers/amdgpu_assembly.hpp"
#include "builds/readers/amdgpu_code_object.hpp"
#include "builds/readers/amdgpu_remarks.hpp"
#include "builds/readers/ar_archive.hpp"
#include "builds/readers/compiler_log.hpp"
#include "builds/readers/elf.hpp"
#include "builds/readers/fatbin.hpp"
#include "builds/readers/offload_bundle.hpp"
#include "builds/readers/ptx.hpp"

namespace occcalc::inspect {

namespace {

/// `e_machine` of an ELF header (offset 0x12, little-endian as every GPU
/// binary); 0 when the header is too short to hold it.
std::uint16_t elf_machine(byte_view bytes) noexcept {
  constexpr std::size_t machine_offset = 0x12;
  if (!bytes.contains(machine_offset, 2)) return 0;
  return static_cast<std::uint16_t>(bytes.data()[machine_offset] | (bytes.data()[machine_offset + 1] << 8));
}

}  // namespace

input_kind identify(byte_view bytes) noexcept {
  if (is_elf(bytes)) {
    switch (elf_machine(bytes)) {
      case elf::machine_cuda: return input_kind::cubin;
      case elf::machine_amdgpu: return input_kind::amdgpu_code_object;
      default: return input_kind::host_elf;
    }
  }
  if (is_offload_bundle(bytes)) return input_kind::offload_bundle;
  if (is_fatbin(bytes)) return input_kind::fatbin;
  if (is_ar_archive(bytes)) return input_kind::ar_archive;
  if (is_compiler_log(bytes.as_text())) return input_kind::compiler_log;
  if (is_amdgpu_assembly(bytes.as_text())) return input_kind::amdgpu_assembly;
  if (is_ptx(bytes.as_text())) return input_kind::ptx;
  if (is_amdgpu_remarks(bytes.as_text())) return input_kind::amdgpu_remarks;
  return input_kind::unknown;
}

std::string_view to_string(input_kind kind) noexcept {
  switch (kind) {
    case input_kind::cubin: return "cubin";
    case input_kind::amdgpu_code_object: return "AMD code object";
    case input_kind::host_elf: return "host ELF";
    case input_kind::fatbin: return "fatbin";
    case input_kind::offload_bundle: return "offload bundle";
    case input_kind::ar_archive: return "static library";
    case input_kind::compiler_log: return "compiler log";
    case input_kind::amdgpu_assembly: return "AMD assembly";
    case input_kind::ptx: return "PTX";
    case input_kind::amdgpu_remarks: return "AMD remarks";
    case input_kind::unknown: break;
  }
  return "unknown";
}

}  // namespace occcalc::inspect
