// A minimal, bounds-checked reader of 64-bit little-endian ELF files: the
// section table and symbol tables, which is all cubins and host binaries need.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "builds/readers/bytes.hpp"

namespace occcalc::inspect {

/// ELF constants occcalc reads (System V gABI; EM_CUDA from the LLVM and
/// binutils ELF headers).
namespace elf {
inline constexpr std::uint16_t machine_cuda = 190;
inline constexpr std::uint16_t machine_amdgpu = 224;
inline constexpr std::uint32_t section_note = 7;
inline constexpr std::uint16_t type_relocatable = 1;
inline constexpr std::uint16_t type_executable = 2;
inline constexpr std::uint32_t section_symtab = 2;
inline constexpr std::uint32_t section_dynsym = 11;
inline constexpr std::uint32_t section_nobits = 8;
inline constexpr std::uint8_t symbol_type_func = 2;
}  // namespace elf

/// One section header.
struct elf_section {
  std::string_view name;
  std::uint32_t type = 0;
  std::uint64_t flags = 0;
  /// Address in memory (0 in relocatable files).
  std::uint64_t addr = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
  std::uint32_t info = 0;
};

/// One symbol-table entry.
struct elf_symbol {
  std::string_view name;
  std::uint8_t info = 0;
  std::uint8_t other = 0;
  std::uint16_t section_index = 0;
  /// Address (executables, shared objects) or offset in its section
  /// (relocatable files).
  std::uint64_t value = 0;
  std::uint64_t size = 0;

  std::uint8_t type() const noexcept { return info & 0xf; }
};

/// A parsed ELF file. Views point into the bytes it was parsed from, which
/// must outlive it.
class elf_file {
 public:
  /// Parses the header and section table; throws `format_error` if `bytes`
  /// is not a 64-bit little-endian ELF file or any table lies outside it.
  explicit elf_file(byte_view bytes);

  std::uint16_t type() const noexcept { return type_; }
  std::uint16_t machine() const noexcept { return machine_; }
  std::uint8_t abi_version() const noexcept { return abi_version_; }
  std::uint32_t flags() const noexcept { return flags_; }
  const std::vector<elf_section>& sections() const noexcept { return sections_; }

  /// The section at `index`; throws if there is none.
  const elf_section& section(std::size_t index) const;
  /// The first section named `name`, or null.
  const elf_section* find_section(std::string_view name) const noexcept;
  /// The bytes of `s` (empty for NOBITS sections); throws if they lie outside
  /// the file.
  byte_view contents(const elf_section& s) const;
  /// The symbols of a SHT_SYMTAB section, names resolved through its linked
  /// string table.
  std::vector<elf_symbol> symbols(const elf_section& symtab) const;

 private:
  byte_view bytes_;
  std::uint16_t type_ = 0;
  std::uint16_t machine_ = 0;
  std::uint8_t abi_version_ = 0;
  std::uint32_t flags_ = 0;
  std::vector<elf_section> sections_;
};

/// Whether `bytes` begins with the ELF magic.
inline bool is_elf(byte_view bytes) noexcept {
  return bytes.size() >= 4 && bytes.data()[0] == 0x7f && bytes.data()[1] == 'E' && bytes.data()[2] == 'L' &&
         bytes.data()[3] == 'F';
}

}  // namespace occcalc::inspect
