#include "builds/readers/cubin.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>

#include "builds/readers/budgets.hpp"
#include "builds/readers/elf.hpp"

namespace occcalc::inspect {

namespace {

/// `.nv.info` attribute codes (EIATTR_*), as public cubin readers and
/// cuobjdump name them; see tests/fixtures/inspect/README.md.
enum class attribute : std::uint8_t {
  max_threads = 0x05,
  required_threads = 0x10,
  frame_size = 0x11,
  min_stack_size = 0x12,
  max_register_count = 0x1b,
  register_count = 0x2f,
  cta_per_cluster = 0x3d,
  num_barriers = 0x4c,
};

/// `.nv.compat`'s EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET, in the same record
/// format: 1 in an arch-specific (`sm_90a`) cubin, 0 otherwise (nvcc 13;
/// tests/fixtures/inspect/README.md). A family (`f`) cubin is marked in its
/// fat binary entry, and alone only in `toolkit_note`.
constexpr std::uint8_t compat_accelerator_target = 0x09;

/// The note in which ptxas records itself and its options (`-arch sm_100f
/// -m 64`): the only mark of a family (`f`) cubin read alone, whose other
/// sections are a plain cubin's (nvcc 13).
constexpr std::string_view toolkit_note = ".note.nv.tkinfo";

/// Whether `note` records ptxas options that name `sm_<sm>f`: the token
/// after a space or `=` (`-arch sm_100f`, `-arch=sm_100f`), before a space
/// or NUL.
bool names_family_target(byte_view note, int sm) {
  const std::string token = "sm_" + std::to_string(sm) + "f";
  const std::string_view text(reinterpret_cast<const char*>(note.data()), note.size());
  for (std::size_t at = text.find(token); at != std::string_view::npos; at = text.find(token, at + 1)) {
    const std::size_t end = at + token.size();
    const bool starts = at > 0 && (text[at - 1] == ' ' || text[at - 1] == '=');
    const bool ends = end == text.size() || text[end] == ' ' || text[end] == '\0';
    if (starts && ends) return true;
  }
  return false;
}

/// `.nv.info` record formats (EIFMT_*).
enum class record_format : std::uint8_t { none = 1, byte_value = 2, half_value = 3, sized = 4 };

/// The symbol through which CUDA 13 cubins address the per-block reserve.
constexpr std::string_view reserved_shared_symbol_prefix = ".nv.reservedSmem.";
/// STO_CUDA_ENTRY: the symbol is a kernel, not a device function.
constexpr std::uint8_t symbol_other_entry = 0x10;
/// ELF ABI version from which the SM moved to e_flags bits 8-15.
constexpr std::uint8_t abi_version_sm_in_second_byte = 8;
/// MAXREG_COUNT when no cap applies.
constexpr std::int64_t no_register_cap = 255;
/// Registers in `.text.<k>` sh_info bits 24-31 (where EIATTR_REGCOUNT is
/// absent) and, before ELF ABI version 8, barriers in sh_flags bits 20-24.
constexpr unsigned text_info_register_shift = 24;
constexpr unsigned text_flags_barrier_shift = 20;
constexpr std::uint64_t text_flags_barrier_mask = 0x1f;

struct record {
  attribute code;
  record_format format;
  std::uint32_t value = 0;  // byte and half values
  byte_view data;           // sized values
};

/// Calls `visit` for each record of a `.nv.info` section. Unknown
/// attributes are passed on and skipped by the caller; an unknown format has
/// no known length, so it ends the section with an error.
template <typename Visit>
void for_each_record(byte_view info, Visit&& visit) {
  std::uint64_t at = 0;
  while (at + 4 <= info.size()) {
    const auto format = static_cast<record_format>(info.read<std::uint8_t>(at, "an .nv.info record"));
    const auto code = static_cast<attribute>(info.read<std::uint8_t>(at + 1, "an .nv.info record"));
    const auto half = info.read<std::uint16_t>(at + 2, "an .nv.info record");
    switch (format) {
      case record_format::none:
        visit(record{code, format, 0, {}});
        at += 4;
        break;
      case record_format::byte_value:
      case record_format::half_value:
        visit(record{code, format, format == record_format::byte_value ? half & 0xffu : half, {}});
        at += 4;
        break;
      case record_format::sized:
        visit(record{code, format, 0, info.sub(at + 4, half, "an .nv.info record's value")});
        at += 4 + std::uint64_t{half};
        break;
      default:
        throw format_error(fmt::format("corrupt .nv.info: unknown record format {} at offset {:#x}",
                                       static_cast<unsigned>(format), at));
    }
  }
}

std::optional<dim3> read_dim3(const record& r) {
  if (r.data.size() < 12) throw format_error("corrupt .nv.info: a block-dimension record is shorter than 12 bytes");
  return dim3{r.data.read<std::uint32_t>(0, "x"), r.data.read<std::uint32_t>(4, "y"),
              r.data.read<std::uint32_t>(8, "z")};
}

/// Module-wide per-function figures, keyed by symbol index.
struct function_figures {
  std::optional<std::int64_t> registers;
  std::optional<std::int64_t> frame;
  std::optional<std::int64_t> stack;
};

}  // namespace

int cubin_sm(std::uint8_t abi_version, std::uint32_t flags) noexcept {
  return static_cast<int>(abi_version >= abi_version_sm_in_second_byte ? (flags >> 8) & 0xffu : flags & 0xffu);
}

std::vector<kernel_resources> read_cubin(byte_view cubin) {
  const elf_file file(cubin);
  if (file.machine() != elf::machine_cuda) {
    throw format_error(
        fmt::format("not a cubin: ELF machine {} is not EM_CUDA ({})", file.machine(), elf::machine_cuda));
  }
  const int sm = cubin_sm(file.abi_version(), file.flags());
  target_features feature = target_features::none;
  if (const elf_section* compat = file.find_section(".nv.compat")) {
    for_each_record(file.contents(*compat), [&](const record& r) {
      if (static_cast<std::uint8_t>(r.code) == compat_accelerator_target && r.value == 1) {
        feature = target_features::arch_specific;
      }
    });
  }
  if (const elf_section* note = file.find_section(toolkit_note);
      note != nullptr && feature == target_features::none && names_family_target(file.contents(*note), sm)) {
    feature = target_features::family;
  }
  const elf_section* symtab = nullptr;
  std::unordered_map<std::string_view, const elf_section*> kernel_sections;
  for (const auto& s : file.sections()) {
    if (s.type == elf::section_symtab && symtab == nullptr) symtab = &s;
    if (s.name.rfind(".nv.info.", 0) == 0 || s.name.rfind(".nv.shared.", 0) == 0) kernel_sections[s.name] = &s;
  }
  if (symtab == nullptr) return {};  // nothing to name a kernel by
  const auto symbols = file.symbols(*symtab);

  // The reserve sits at the start of each kernel's shared window in linked
  // cubins that reference .nv.reservedSmem.offset0 (CUDA 13, sm_90 and
  // newer, from ptxas or nvlink). A relocatable (-rdc) cubin's sections,
  // and those of older toolkits, are the kernel's own figure.
  const bool declares_reserve =
      file.type() == elf::type_executable && std::any_of(symbols.begin(), symbols.end(), [](const elf_symbol& s) {
        return s.name.rfind(reserved_shared_symbol_prefix, 0) == 0;
      });

  std::unordered_map<std::uint32_t, function_figures> figures;
  if (const elf_section* info = file.find_section(".nv.info")) {
    for_each_record(file.contents(*info), [&](const record& r) {
      if (r.format != record_format::sized || r.data.size() < 8) return;
      const auto symbol = r.data.read<std::uint32_t>(0, "a symbol index");
      const std::int64_t value = r.data.read<std::uint32_t>(4, "a value");
      switch (r.code) {
        case attribute::register_count: figures[symbol].registers = value; break;
        case attribute::frame_size: figures[symbol].frame = value; break;
        // MIN_STACK_SIZE is the stack with callees, in linked cubins; a
        // relocatable cubin has MAX_STACK_SIZE (0x23) instead, which is not
        // that figure (ptxas reports no cumulative stack for -rdc), so it
        // is not read.
        case attribute::min_stack_size: figures[symbol].stack = value; break;
        default: break;
      }
    });
  }

  const auto is_kernel = [](const elf_symbol& sym) {
    return sym.type() == elf::symbol_type_func && sym.section_index != 0 && (sym.other & symbol_other_entry) != 0;
  };
  const auto kernel_count = static_cast<std::uint64_t>(std::count_if(symbols.begin(), symbols.end(), is_kernel));
  if (kernel_count > max_kernels_per_code_object) {
    throw format_error(fmt::format("a cubin declaring {} kernels; more than {} is not a real build", kernel_count,
                                   max_kernels_per_code_object));
  }
  std::vector<kernel_resources> kernels;
  kernels.reserve(kernel_count);
  for (std::size_t index = 0; index < symbols.size(); ++index) {
    const auto& sym = symbols[index];
    if (!is_kernel(sym)) continue;
    kernel_resources k;
    k.name = std::string(sym.name);
    k.arch = nvidia_target(sm, feature);
    const elf_section& text = file.section(sym.section_index);
    const auto found = figures.find(static_cast<std::uint32_t>(index));
    const function_figures f = found == figures.end() ? function_figures{} : found->second;
    // EIATTR_REGCOUNT where the compiler wrote it; older and some
    // relocatable cubins (e.g. in libcublasLt) keep the count only in
    // sh_info, which CUDA 13 leaves 0 from sm_90. A kernel always uses some
    // registers, so 0 there means unknown.
    k.registers = f.registers;
    if (const auto legacy = static_cast<std::int64_t>(text.info >> text_info_register_shift);
        !k.registers && legacy > 0) {
      k.registers = legacy;
    }
    k.stack_frame_bytes = f.frame;
    k.stack_size_bytes = f.stack;

    std::string key = ".nv.shared." + k.name;
    if (const auto s = kernel_sections.find(key); s == kernel_sections.end()) {
      k.static_shared_memory_bytes = 0;
    } else {
      k.static_shared_memory_bytes = static_cast<std::int64_t>(s->second->size);
      if (declares_reserve) k.shared_memory_read_as = shared_memory_figure::section_with_reserve;
    }

    if (file.abi_version() < abi_version_sm_in_second_byte) {
      k.barriers = static_cast<std::int64_t>((text.flags >> text_flags_barrier_shift) & text_flags_barrier_mask);
    } else {
      k.barriers = 0;  // CUDA 13 writes EIATTR_NUM_BARRIERS only when nonzero
    }
    key = ".nv.info." + k.name;
    if (const auto s = kernel_sections.find(key); s != kernel_sections.end()) {
      for_each_record(file.contents(*s->second), [&](const record& r) {
        switch (r.code) {
          case attribute::max_threads: k.max_threads = read_dim3(r); break;
          case attribute::required_threads: k.required_threads = read_dim3(r); break;
          case attribute::cta_per_cluster: k.cluster_dims = read_dim3(r); break;
          case attribute::num_barriers: k.barriers = r.value; break;
          case attribute::max_register_count:
            if (r.value != no_register_cap) k.register_cap = r.value;
            break;
          default: break;
        }
      });
    }
    kernels.push_back(std::move(k));
  }
  return kernels;
}

}  // namespace occcalc::inspect
