#include "builds/readers/elf.hpp"
#include "builds/readers/budgets.hpp"

namespace occcalc::inspect {

namespace {

// ELF64 layout (System V gABI).
constexpr std::size_t ident_class = 4;
constexpr std::size_t ident_data = 5;
constexpr std::size_t ident_abi_version = 8;
constexpr std::uint8_t class_64 = 2;
constexpr std::uint8_t data_little_endian = 1;
constexpr std::uint64_t elf_header_bytes = 64;
constexpr std::uint64_t section_header_bytes = 64;
constexpr std::uint64_t symbol_entry_bytes = 24;

}  // namespace

elf_file::elf_file(byte_view bytes) : bytes_(bytes) {
  if (!is_elf(bytes)) throw format_error("not an ELF file");
  bytes.sub(0, elf_header_bytes, "the ELF header");
  if (bytes.data()[ident_class] != class_64) throw format_error("a 32-bit ELF file; only 64-bit ELF is supported");
  if (bytes.data()[ident_data] != data_little_endian) {
    throw format_error("a big-endian ELF file; only little-endian ELF is supported");
  }
  abi_version_ = bytes.data()[ident_abi_version];
  type_ = bytes.read<std::uint16_t>(0x10, "e_type");
  machine_ = bytes.read<std::uint16_t>(0x12, "e_machine");
  flags_ = bytes.read<std::uint32_t>(0x30, "e_flags");
  const auto table_offset = bytes.read<std::uint64_t>(0x28, "e_shoff");
  const auto entry_bytes = bytes.read<std::uint16_t>(0x3a, "e_shentsize");
  std::uint64_t count = bytes.read<std::uint16_t>(0x3c, "e_shnum");
  std::uint64_t names_index = bytes.read<std::uint16_t>(0x3e, "e_shstrndx");
  if (table_offset == 0) return;  // no section table
  if (entry_bytes < section_header_bytes) {
    throw format_error(
        fmt::format("corrupt ELF header: e_shentsize {} is below {}", entry_bytes, section_header_bytes));
  }
  // Extended numbering: the real counts live in section 0 (gABI).
  if (count == 0) count = bytes.read<std::uint64_t>(table_offset + 0x20, "section header 0");
  if (names_index == 0xffff) names_index = bytes.read<std::uint32_t>(table_offset + 0x28, "section header 0");
  if (count > bytes.size() / entry_bytes) {
    throw format_error(
        fmt::format("corrupt ELF header: {} section headers cannot fit in {} bytes", count, bytes.size()));
  }
  const byte_view table = bytes.sub(table_offset, count * entry_bytes, "the section header table");
  sections_.resize(count);
  std::vector<std::uint32_t> name_offsets(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t at = i * entry_bytes;
    auto& s = sections_[i];
    name_offsets[i] = table.read<std::uint32_t>(at, "sh_name");
    s.type = table.read<std::uint32_t>(at + 0x04, "sh_type");
    s.flags = table.read<std::uint64_t>(at + 0x08, "sh_flags");
    s.addr = table.read<std::uint64_t>(at + 0x10, "sh_addr");
    s.offset = table.read<std::uint64_t>(at + 0x18, "sh_offset");
    s.size = table.read<std::uint64_t>(at + 0x20, "sh_size");
    s.link = table.read<std::uint32_t>(at + 0x28, "sh_link");
    s.info = table.read<std::uint32_t>(at + 0x2c, "sh_info");
  }
  if (count == 0) return;
  const byte_view names = contents(section(names_index));
  for (std::uint64_t i = 0; i < count; ++i) sections_[i].name = names.c_string(name_offsets[i], "a section name");
}

const elf_section& elf_file::section(std::size_t index) const {
  if (index >= sections_.size()) {
    throw format_error(
        fmt::format("corrupt ELF: section index {} is not below the {} sections", index, sections_.size()));
  }
  return sections_[index];
}

const elf_section* elf_file::find_section(std::string_view name) const noexcept {
  for (const auto& s : sections_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

byte_view elf_file::contents(const elf_section& s) const {
  if (s.type == elf::section_nobits) return {};
  return bytes_.sub(s.offset, s.size, "a section's contents");
}

std::vector<elf_symbol> elf_file::symbols(const elf_section& symtab) const {
  const byte_view table = contents(symtab);
  const byte_view names = contents(section(symtab.link));
  const std::uint64_t count = table.size() / symbol_entry_bytes;
  if (count > max_elf_symbols) {
    throw format_error(
        fmt::format("a symbol table of {} symbols; more than {} is not a real build", count, max_elf_symbols));
  }
  std::vector<elf_symbol> out(count);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint64_t at = i * symbol_entry_bytes;
    auto& sym = out[i];
    sym.name = names.c_string(table.read<std::uint32_t>(at, "st_name"), "a symbol name");
    sym.info = table.read<std::uint8_t>(at + 4, "st_info");
    sym.other = table.read<std::uint8_t>(at + 5, "st_other");
    sym.section_index = table.read<std::uint16_t>(at + 6, "st_shndx");
    sym.value = table.read<std::uint64_t>(at + 8, "st_value");
    sym.size = table.read<std::uint64_t>(at + 16, "st_size");
  }
  return out;
}

}  // namespace occcalc::inspect
