#include "builds/readers/amdgpu_code_object.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "builds/readers/msgpack.hpp"

namespace occcalc::inspect {

namespace {

// The AMDGPU metadata note (LLVM AMDGPUUsage, "Code Object V3 and above
// Metadata"): owner "AMDGPU", type NT_AMDGPU_METADATA, a MessagePack map.
constexpr std::string_view note_owner = "AMDGPU";
constexpr std::uint32_t note_type_metadata = 32;
constexpr std::uint64_t note_header_bytes = 12;
constexpr std::uint64_t note_alignment = 4;

// The kernel descriptor (AMDGPUUsage, "Kernel Descriptor"): 64 bytes.
constexpr std::uint64_t descriptor_bytes = 64;
constexpr std::uint64_t descriptor_rsrc1_offset = 48;
/// COMPUTE_PGM_RSRC1.WGP_MODE (GFX10 and later; 0 before).
constexpr std::uint32_t rsrc1_wgp_mode_bit = 1U << 29;

/// Metadata figures above this are corrupt (a work-group holds at most a few
/// thousand work-items; LDS and scratch sizes are far below 2 GiB).
constexpr std::int64_t max_metadata_value = (std::int64_t{1} << 31) - 1;

/// The MessagePack payload of the metadata note, if the object has one.
std::optional<byte_view> metadata_note(const elf_file& elf) {
  for (const auto& section : elf.sections()) {
    if (section.type != elf::section_note) continue;
    const byte_view notes = elf.contents(section);
    std::uint64_t at = 0;
    while (at + note_header_bytes <= notes.size()) {
      const auto name_bytes = notes.read<std::uint32_t>(at, "a note's name size");
      const auto desc_bytes = notes.read<std::uint32_t>(at + 4, "a note's descriptor size");
      const auto type = notes.read<std::uint32_t>(at + 8, "a note's type");
      const std::uint64_t name_at = at + note_header_bytes;
      const std::uint64_t desc_at = name_at + align_up(name_bytes, note_alignment);
      const byte_view name = notes.sub(name_at, name_bytes, "a note's name");
      const byte_view desc = notes.sub(desc_at, desc_bytes, "a note's descriptor");
      std::string_view owner = name.as_text();
      if (!owner.empty() && owner.back() == '\0') owner.remove_suffix(1);
      if (owner == note_owner && type == note_type_metadata) return desc;
      at = desc_at + align_up(desc_bytes, note_alignment);
    }
  }
  return std::nullopt;
}

/// A non-negative integer field of a kernel's metadata; empty if absent.
std::optional<std::int64_t> field(const msgpack::value& kernel, std::string_view key, std::string_view name) {
  const msgpack::value* v = kernel.find(key);
  if (v == nullptr) return std::nullopt;
  const auto n = v->as_integer();
  if (!n || *n < 0 || *n > max_metadata_value) {
    throw format_error(
        fmt::format("AMDGPU metadata: kernel '{}': {} is not an integer in [0, {}]", name, key, max_metadata_value));
  }
  return n;
}

/// Where a symbol's bytes lie in the file: relocatable objects give an
/// offset in its section, linked ones an address.
std::optional<byte_view> symbol_bytes(const elf_file& elf, const elf_symbol& sym, std::uint64_t length) {
  if (elf.type() == elf::type_relocatable) {
    if (sym.section_index == 0 || sym.section_index >= elf.sections().size()) return std::nullopt;
    const byte_view data = elf.contents(elf.section(sym.section_index));
    if (!data.contains(sym.value, length)) return std::nullopt;
    return data.sub(sym.value, length, "a kernel descriptor");
  }
  for (const auto& s : elf.sections()) {
    if (s.addr == 0 || s.type == elf::section_nobits || sym.value < s.addr || sym.value - s.addr >= s.size) continue;
    const byte_view data = elf.contents(s);
    if (!data.contains(sym.value - s.addr, length)) return std::nullopt;
    return data.sub(sym.value - s.addr, length, "a kernel descriptor");
  }
  return std::nullopt;
}

/// WGP mode from the kernel descriptor `symbol` names, if it is there.
std::optional<bool> descriptor_wgp_mode(const elf_file& elf, std::string_view symbol) {
  for (const auto& s : elf.sections()) {
    if (s.type != elf::section_symtab && s.type != elf::section_dynsym) continue;
    for (const auto& sym : elf.symbols(s)) {
      if (sym.name != symbol) continue;
      const auto bytes = symbol_bytes(elf, sym, descriptor_bytes);
      if (!bytes) return std::nullopt;
      return (bytes->read<std::uint32_t>(descriptor_rsrc1_offset, "COMPUTE_PGM_RSRC1") & rsrc1_wgp_mode_bit) != 0;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string amdgpu_target_of(std::string_view triple) {
  // `amdgcn-amd-amdhsa--gfx90a:xnack-`, `hipv4-amdgcn-amd-amdhsa--gfx90a`,
  // the older `hip-amdgcn-amd-amdhsa-gfx906`, or the bare processor name.
  const auto at = triple.find("gfx");
  if (at == std::string_view::npos || (at > 0 && triple[at - 1] != '-')) return {};
  return std::string(triple.substr(at));
}

std::vector<kernel_resources> read_amdgpu_code_object(const elf_file& elf) {
  const auto note = metadata_note(elf);
  if (!note) throw format_error("an AMDGPU code object without a metadata note (code object v3 or later has one)");
  const msgpack::value metadata = msgpack::parse(*note);
  std::string target;
  if (const auto* t = metadata.find("amdhsa.target")) target = amdgpu_target_of(t->as_string().value_or(""));
  const msgpack::value* kernels = metadata.find("amdhsa.kernels");
  if (kernels == nullptr || kernels->type != msgpack::value::kind::array) {
    throw format_error("AMDGPU metadata: no amdhsa.kernels array");
  }
  std::vector<kernel_resources> out;
  for (const auto& kernel : kernels->items) {
    const msgpack::value* name = kernel.find(".name");
    if (name == nullptr || !name->as_string()) throw format_error("AMDGPU metadata: a kernel without a .name");
    kernel_resources k;
    k.name = std::string(*name->as_string());
    k.arch = parse_gpu_target(target);
    k.registers = field(kernel, ".vgpr_count", k.name);
    k.agprs = field(kernel, ".agpr_count", k.name);
    k.sgprs = field(kernel, ".sgpr_count", k.name);
    k.static_shared_memory_bytes = field(kernel, ".group_segment_fixed_size", k.name);
    k.stack_size_bytes = field(kernel, ".private_segment_fixed_size", k.name);
    k.wave_size = field(kernel, ".wavefront_size", k.name);
    k.vgpr_spills = field(kernel, ".vgpr_spill_count", k.name);
    k.sgpr_spills = field(kernel, ".sgpr_spill_count", k.name);
    if (const auto max = field(kernel, ".max_flat_workgroup_size", k.name)) k.max_threads = dim3{*max, 1, 1};
    if (const msgpack::value* reqd = kernel.find(".reqd_workgroup_size")) {
      if (reqd->type != msgpack::value::kind::array || reqd->items.size() != 3) {
        throw format_error(fmt::format("AMDGPU metadata: kernel '{}': .reqd_workgroup_size is not 3 integers", k.name));
      }
      dim3 d{};
      for (std::size_t i = 0; i < 3; ++i) {
        const auto n = reqd->items[i].as_integer();
        if (!n || *n < 1 || *n > max_metadata_value) {
          throw format_error(
              fmt::format("AMDGPU metadata: kernel '{}': .reqd_workgroup_size is not 3 positive "
                          "integers",
                          k.name));
        }
        d[i] = *n;
      }
      k.required_threads = d;
    }
    if (const msgpack::value* symbol = kernel.find(".symbol"); symbol && symbol->as_string()) {
      k.wgp_mode = descriptor_wgp_mode(elf, *symbol->as_string());
    }
    k.origin = "AMDGPU metadata";
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace occcalc::inspect
