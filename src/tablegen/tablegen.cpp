// occcalc_tablegen: loads data/*.json with the table loader at build time and
// writes them as C++ (cli/compiled_tables.hpp), so the CLI starts without
// parsing or validating JSON. An invalid table fails the build with the
// loader's own message.
//
// Usage: occcalc_tablegen OUTPUT.cpp --nvidia FILE... --amd FILE...
//
// Every field of every entry is written; tests/tables/compiled_tables_test.cpp
// compares the result with the loader's, member by member (C++20's defaulted
// equality), so a field added to an entry and not written here fails a test.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "occcalc/tables/load.hpp"

namespace {

using occcalc::table;

/// `text` as a C++ string literal: printable ASCII as is, everything else
/// as three-digit octal escapes (which never swallow a following digit).
std::string literal(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte >= 0x20 && byte < 0x7f && c != '?') {
      out += c;
    } else {
      char escape[5];
      std::snprintf(escape, sizeof escape, "\\%03o", byte);
      out += escape;
    }
  }
  return out + "\"";
}

std::string lit(const std::string& s) { return literal(s); }
std::string lit(bool b) { return b ? "true" : "false"; }
std::string lit(int i) { return std::to_string(i); }
std::string lit(std::int64_t i) { return "std::int64_t{" + std::to_string(i) + "}"; }

/// The qualified name of each enum a table entry holds.
template <typename Enum>
constexpr std::string_view enum_name();
template <>
constexpr std::string_view enum_name<occcalc::register_allocation_scope>() {
  return "occcalc::register_allocation_scope";
}
template <>
constexpr std::string_view enum_name<occcalc::shared_memory_config>() {
  return "occcalc::shared_memory_config";
}
template <>
constexpr std::string_view enum_name<occcalc::amd_model>() {
  return "occcalc::amd_model";
}

template <typename Enum, typename = std::enable_if_t<std::is_enum_v<Enum>>>
std::string lit(Enum e) {
  return "static_cast<" + std::string(enum_name<Enum>()) + ">(" + std::to_string(static_cast<long long>(e)) + ")";
}

std::string lit(const occcalc::register_unit_override& o);
std::string lit(const occcalc::amd_vgpr_file& f);
std::string lit(const occcalc::amd_sgpr_step& s);
std::string lit(const occcalc::amd_hip_params& p);
std::string lit(const occcalc::amd_rcp_params& p);

template <typename T>
std::string lit(const std::vector<T>& items) {
  std::string out = "{";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + lit(items[i]);
  return out + "}";
}

template <typename T, std::size_t N>
std::string lit(const std::array<T, N>& items) {
  std::string out = "{{";
  for (std::size_t i = 0; i < N; ++i) out += (i ? ", " : "") + lit(items[i]);
  return out + "}}";
}

template <typename T, std::size_t N>
std::string lit(const occcalc::fixed_list<T, N>& items) {
  std::string out = "{";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + lit(items[i]);
  return out + "}";
}

template <typename T>
std::string lit(const std::optional<T>& value) {
  return value ? lit(*value) : "std::nullopt";
}

std::string lit(const occcalc::optional_integer& value) {
  return value ? "occcalc::optional_integer(" + lit(*value) + ")" : "occcalc::optional_integer()";
}

std::string lit(const occcalc::register_unit_override& o) {
  return "occcalc::register_unit_override{" + lit(o.registers_per_thread) + ", " + lit(o.unit_registers) + "}";
}

std::string lit(const occcalc::amd_vgpr_file& f) {
  return "occcalc::amd_vgpr_file{" + lit(f.wave_size) + ", " + lit(f.total) + ", " + lit(f.granule) + "}";
}

std::string lit(const occcalc::amd_sgpr_step& s) {
  return "occcalc::amd_sgpr_step{" + lit(s.max_sgprs) + ", " + lit(s.waves) + "}";
}

std::string lit(const occcalc::amd_hip_params& p) {
  return "occcalc::amd_hip_params{" + lit(p.max_waves_per_simd) + ", " + lit(p.sgpr_granule) + "}";
}

std::string lit(const occcalc::amd_rcp_params& p) {
  return "occcalc::amd_rcp_params{" + lit(p.max_waves_per_simd) + ", " + lit(p.simds_per_cu) + ", " +
         lit(p.vgprs_available) + ", " + lit(p.vgpr_granule) + ", " + lit(p.sgprs_per_simd) + ", " +
         lit(p.sgpr_granule) + ", " + lit(p.sgprs_added) + ", " + lit(p.max_work_groups_per_cu) + ", " +
         lit(p.max_single_wave_work_groups_per_cu) + ", " + lit(p.lds_per_cu_bytes) + ", " +
         lit(p.max_work_group_size) + "}";
}

/// Writes `e.FIELD` as an assignment to the entry `e` under construction.
#define OCCCALC_FIELD(FIELD) out << "    e." #FIELD " = " << lit(entry.FIELD) << ";\n"

void write_entry(std::ostream& out, const occcalc::source& entry) {
  OCCCALC_FIELD(id);
  OCCCALC_FIELD(title);
  OCCCALC_FIELD(url);
}

/// Writes each element of the array `e.FIELD`.
#define OCCCALC_ARRAY_FIELD(FIELD)                                             \
  for (std::size_t i = 0; i < std::size(entry.FIELD); ++i) {                   \
    out << "    e." #FIELD "[" << i << "] = " << lit(entry.FIELD[i]) << ";\n"; \
  }

void write_entry(std::ostream& out, const occcalc::nvidia_arch_figures& entry) {
  OCCCALC_FIELD(warp_size_threads);
  OCCCALC_FIELD(max_threads_per_block);
  OCCCALC_FIELD(max_warps_per_sm);
  OCCCALC_FIELD(max_blocks_per_sm);
  OCCCALC_FIELD(registers_per_sm);
  OCCCALC_FIELD(max_registers_per_block);
  OCCCALC_FIELD(max_registers_per_thread);
  OCCCALC_FIELD(max_compiled_registers_per_thread);
  OCCCALC_FIELD(register_scope);
  OCCCALC_FIELD(register_allocation_unit);
  OCCCALC_FIELD(register_unit_overrides);
  OCCCALC_FIELD(register_warp_allocation_multiple);
  OCCCALC_FIELD(register_file_partitions);
  OCCCALC_FIELD(register_compat_partitions);
  OCCCALC_FIELD(shared_memory_per_sm_bytes);
  OCCCALC_FIELD(shared_memory_per_block_bytes);
  OCCCALC_FIELD(shared_memory_per_block_optin_bytes);
  OCCCALC_FIELD(shared_memory_reserved_per_block_bytes);
  OCCCALC_FIELD(binary_shared_section_includes_reserved);
  OCCCALC_FIELD(shared_memory_allocation_unit_bytes);
  OCCCALC_FIELD(shared_memory_config_model);
  OCCCALC_FIELD(carveout_sizes_bytes);
  OCCCALC_ARRAY_FIELD(shared_memory_per_sm_by_cache_bytes);
  OCCCALC_FIELD(block_barriers_per_sm);
  OCCCALC_FIELD(max_barriers_per_block);
  OCCCALC_FIELD(max_cluster_size_portable);
  OCCCALC_FIELD(max_cluster_size_nonportable);
  OCCCALC_FIELD(max_cluster_blocks_per_sm);
}

void write_entry(std::ostream& out, const occcalc::nvidia_arch& entry) {
  OCCCALC_FIELD(id);
  OCCCALC_FIELD(cc_major);
  OCCCALC_FIELD(cc_minor);
  OCCCALC_FIELD(family);
  OCCCALC_FIELD(sources);
  OCCCALC_FIELD(notes);
  write_entry(out, static_cast<const occcalc::nvidia_arch_figures&>(entry));
}

void write_entry(std::ostream& out, const occcalc::gpu& entry) {
  OCCCALC_FIELD(id);
  OCCCALC_FIELD(name);
  OCCCALC_FIELD(arch_id);
  OCCCALC_FIELD(sm_count);
  OCCCALC_FIELD(aliases);
  OCCCALC_FIELD(sources);
}

void write_entry(std::ostream& out, const occcalc::cluster_layout& entry) {
  OCCCALC_FIELD(id);
  OCCCALC_FIELD(gpu_ids);
  OCCCALC_FIELD(domain_sms);
  OCCCALC_FIELD(gpc_counts);
  OCCCALC_FIELD(max_tpcs_per_gpc);
  OCCCALC_FIELD(sms_per_tpc);
  OCCCALC_FIELD(sources);
}

void write_entry(std::ostream& out, const occcalc::unlisted_arch& entry) {
  OCCCALC_FIELD(id);
  OCCCALC_FIELD(cc_major);
  OCCCALC_FIELD(cc_minor);
  OCCCALC_FIELD(reason);
  OCCCALC_FIELD(sources);
}

void write_entry(std::ostream& out, const occcalc::unlisted_amd_target& entry) {
  OCCCALC_FIELD(id);
  OCCCALC_FIELD(reason);
  OCCCALC_FIELD(sources);
}

void write_entry(std::ostream& out, const occcalc::amd_target& entry) {
  OCCCALC_FIELD(id);
  OCCCALC_FIELD(family);
  OCCCALC_FIELD(sources);
  OCCCALC_FIELD(notes);
  OCCCALC_FIELD(members);
  OCCCALC_FIELD(aliases);
  OCCCALC_FIELD(max_waves_per_simd);
  OCCCALC_FIELD(simds_per_cu);
  OCCCALC_FIELD(vgpr_files);
  OCCCALC_FIELD(unified_vgpr_file);
  OCCCALC_FIELD(sgprs_per_simd);
  OCCCALC_FIELD(sgpr_granule);
  OCCCALC_FIELD(llvm_sgpr_steps);
  OCCCALC_FIELD(lds_per_cu_bytes);
  OCCCALC_FIELD(max_barriers_per_cu);
  OCCCALC_FIELD(has_wgp_mode);
  OCCCALC_FIELD(models);
  OCCCALC_FIELD(max_work_group_size);
  OCCCALC_FIELD(max_lds_per_work_group_bytes);
  OCCCALC_FIELD(max_vgprs_per_wave);
  OCCCALC_FIELD(max_agprs_per_wave);
  OCCCALC_FIELD(max_sgprs_per_wave);
  OCCCALC_FIELD(llvm_max_sgprs_per_wave);
  OCCCALC_FIELD(hip);
  OCCCALC_FIELD(rcp);
}

void write_entry(std::ostream& out, const occcalc::amd_gpu& entry) {
  OCCCALC_FIELD(id);
  OCCCALC_FIELD(name);
  OCCCALC_FIELD(target_id);
  OCCCALC_FIELD(compute_units);
  OCCCALC_FIELD(max_waves_per_simd);
  OCCCALC_FIELD(aliases);
  OCCCALC_FIELD(sources);
}

#undef OCCCALC_FIELD
#undef OCCCALC_ARRAY_FIELD

template <typename Entry>
void write_list(std::ostream& out, std::string_view member, const std::vector<Entry>& entries) {
  out << "  t." << member << ".reserve(" << entries.size() << ");\n";
  for (const auto& entry : entries) {
    out << "  {\n    auto& e = t." << member << ".emplace_back();\n";
    write_entry(out, entry);
    out << "  }\n";
  }
}

/// One function that builds `tables` entry by entry: the architectures and
/// targets always, the sources and named GPUs for `table_extent::full`.
void write_table(std::ostream& out, std::string_view function, const table& tables) {
  out << "occcalc::table " << function << "(table_extent extent) {\n  occcalc::table t;\n";
  write_list(out, "architectures", tables.architectures);
  write_list(out, "unlisted_architectures", tables.unlisted_architectures);
  write_list(out, "amd_targets", tables.amd_targets);
  write_list(out, "unlisted_amd_targets", tables.unlisted_amd_targets);
  out << "  if (extent == table_extent::architectures) return t;\n";
  write_list(out, "sources", tables.sources);
  write_list(out, "gpus", tables.gpus);
  write_list(out, "cluster_layouts", tables.cluster_layouts);
  write_list(out, "amd_gpus", tables.amd_gpus);
  out << "  return t;\n}\n\n";
}

/// The header-only core's built-in architectures
/// (include/occcalc/nvidia/builtin_architectures.hpp): each one's figures as
/// a `constexpr` constant named by its id, and a lookup by compute
/// capability.
void write_builtin_header(std::ostream& out, const table& tables) {
  out << "/// \\file nvidia/builtin_architectures.hpp\n"
         "/// Every architecture of data/nvidia-architectures.json as `constexpr` figures, for\n"
         "/// programs that use the header-only calculator without reading a table: the\n"
         "/// figures the table loader validated, written by occcalc_tablegen\n"
         "/// (src/tablegen/tablegen.cpp). Do not edit: the builtin_architectures test compares\n"
         "/// this file with the build's own (build/src/builtin_architectures.hpp).\n"
         "#pragma once\n\n#include <cstdint>\n\n#include \"occcalc/nvidia/arch_figures.hpp\"\n\n"
         "// clang-format off\nnamespace occcalc::builtin {\n";
  for (const auto& entry : tables.architectures) {
    out << "\n/// " << entry.id << ": " << entry.family << ", compute capability " << entry.compute_capability()
        << ".\ninline constexpr nvidia_arch_figures " << entry.id << " = [] {\n  nvidia_arch_figures e{};\n";
    std::ostringstream fields;
    write_entry(fields, static_cast<const occcalc::nvidia_arch_figures&>(entry));
    std::string text = fields.str();  // written for a table's entries, two spaces deeper
    for (std::size_t at = text.find("    e."); at != std::string::npos; at = text.find("    e.", at + 4)) {
      text.erase(at, 2);
    }
    out << text << "  return e;\n}();\n";
  }
  out << "\n/// The built-in figures of compute capability `major`.`minor`; null for one the\n"
         "/// table does not list.\n"
         "constexpr const nvidia_arch_figures* find_architecture(int major, int minor) noexcept {\n"
         "  switch (major * 10 + minor) {\n";
  for (const auto& entry : tables.architectures) {
    out << "    case " << entry.cc_major * 10 + entry.cc_minor << ": return &" << entry.id << ";\n";
  }
  out << "    default: return nullptr;\n  }\n}\n\n}  // namespace occcalc::builtin\n// clang-format on\n";
}

/// Reads `paths` into `contents` and names them as the embedded tables do.
std::vector<occcalc::table_text> read_texts(const std::vector<std::string>& paths, std::vector<std::string>& contents) {
  std::vector<occcalc::table_text> texts;
  contents.reserve(contents.size() + paths.size());
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw occcalc::table_error(path + ": cannot be read");
    contents.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    const auto slash = path.find_last_of('/');
    texts.push_back({"embedded:" + path.substr(slash == std::string::npos ? 0 : slash + 1), contents.back()});
  }
  return texts;
}

/// Writes `text` to `path`; says so on stderr when it cannot.
bool write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  if (file.flush()) return true;
  std::cerr << "occcalc_tablegen: " << path << ": cannot be written\n";
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: occcalc_tablegen OUTPUT.cpp [--builtin-header HEADER.hpp] --nvidia FILE... --amd FILE...\n";
    return 2;
  }
  const std::string output = argv[1];
  std::vector<std::string> nvidia_paths, amd_paths;
  std::string builtin_header;
  std::vector<std::string>* into = nullptr;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--builtin-header" && i + 1 < argc) {
      builtin_header = argv[++i];
    } else if (arg == "--nvidia") {
      into = &nvidia_paths;
    } else if (arg == "--amd") {
      into = &amd_paths;
    } else if (into) {
      into->emplace_back(arg);
    } else {
      std::cerr << "occcalc_tablegen: " << arg << ": name --nvidia or --amd before the files\n";
      return 2;
    }
  }
  try {
    std::vector<std::string> contents;
    contents.reserve(nvidia_paths.size() + amd_paths.size());
    const auto nvidia_texts = read_texts(nvidia_paths, contents);
    const auto amd_texts = read_texts(amd_paths, contents);
    std::vector<occcalc::table_text> all = nvidia_texts;
    all.insert(all.end(), amd_texts.begin(), amd_texts.end());
    occcalc::load_tables(all);  // the two vendors together: no name answers for both
    std::ostringstream out;
    out << "// Generated by occcalc_tablegen (src/tablegen/tablegen.cpp) from data/*.json, which the table\n"
           "// loader validated when this was written. Do not edit.\n"
           "#include \"cli/compiled_tables.hpp\"\n\n"
           "#include <cstdint>\n#include <optional>\n\n"
           "namespace occcalc::cli {\n\nnamespace {\n\n";
    const table nvidia = occcalc::load_tables(nvidia_texts);
    write_table(out, "nvidia_tables", nvidia);
    write_table(out, "amd_tables", occcalc::load_tables(amd_texts));
    out << "}  // namespace\n\n"
           "occcalc::table compiled_tables(table_vendor vendor, table_extent extent) {\n"
           "  return vendor == table_vendor::amd ? amd_tables(extent) : nvidia_tables(extent);\n}\n\n"
           "}  // namespace occcalc::cli\n";
    if (!write_file(output, out.str())) return 2;
    if (!builtin_header.empty()) {
      std::ostringstream header;
      write_builtin_header(header, nvidia);
      if (!write_file(builtin_header, header.str())) return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "occcalc_tablegen: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
