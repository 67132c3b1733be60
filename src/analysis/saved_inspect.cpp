#include "analysis/saved_inspect.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "occcalc/error.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/tables/load.hpp"
#include "occcalc/version.hpp"

namespace occcalc::cli {

namespace {

/// The oldest inspect schema whose records carry the raw figures.
constexpr std::int64_t oldest_inspect_schema = 2;

}  // namespace

bool looks_like_json(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

std::vector<build_kernel> kernels_from_inspect_json(const std::string& origin, std::string_view text,
                                                    const kernel_matcher& filter) {
  const nlohmann::json parsed = occcalc::detail::parse_strict({origin, std::string(text)});
  if (!parsed.is_object() || !parsed.contains("kernels") || !parsed.contains("schema_version")) {
    throw occcalc::table_error(origin + ": not a saved 'occcalc inspect --json' (no schema_version and kernels)");
  }
  const auto& version = parsed["schema_version"];
  if (!version.is_number_integer() || version.get<std::int64_t>() < oldest_inspect_schema ||
      version.get<std::int64_t>() > occcalc::inspect_schema_version) {
    throw occcalc::table_error(fmt::format("{}: inspect schema_version {} is not one this occcalc reads ({} to {})",
                                           origin, version.dump(), oldest_inspect_schema,
                                           occcalc::inspect_schema_version));
  }
  // The inputs it was given (schema 5): what makes its files' paths
  // comparable with another build's. Older files compare by the path as
  // recorded, then by name and architecture.
  std::vector<std::string> inputs;
  if (const auto it = parsed.find("inputs"); it != parsed.end()) {
    if (!it->is_array()) throw occcalc::table_error(origin + ": inputs is not an array");
    for (const auto& input : *it) {
      if (!input.is_string()) throw occcalc::table_error(origin + ": inputs holds " + input.dump() + ", not a path");
      inputs.push_back(input.get<std::string>());
    }
  }
  const auto& kernels = parsed["kernels"];
  if (!kernels.is_array()) throw occcalc::table_error(origin + ": kernels is not an array");
  std::vector<build_kernel> out;
  out.reserve(kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& record = kernels[i];
    const std::string where = fmt::format("{}: kernels[{}]", origin, i);
    if (!record.is_object()) throw occcalc::table_error(where + ": not an object");
    const auto text_field = [&](const char* key, bool required) {
      const auto it = record.find(key);
      if (it == record.end() || it->is_null()) {
        if (!required) return std::string();
        throw occcalc::table_error(fmt::format("{}: field '{}' is missing", where, key));
      }
      if (!it->is_string()) throw occcalc::table_error(fmt::format("{}: field '{}' is not a string", where, key));
      return it->get<std::string>();
    };
    const auto count = [&](const char* key) -> std::optional<std::int64_t> {
      const auto it = record.find(key);
      if (it == record.end() || it->is_null()) return std::nullopt;
      if (!it->is_number_integer() || it->get<std::int64_t>() < 0) {
        throw occcalc::table_error(fmt::format("{}: field '{}' is not a count", where, key));
      }
      return it->get<std::int64_t>();
    };
    const auto dims = [&](const char* key) -> std::optional<inspect::dim3> {
      const auto it = record.find(key);
      if (it == record.end() || it->is_null()) return std::nullopt;
      inspect::dim3 d{};
      if (!it->is_array() || it->size() != d.size()) {
        throw occcalc::table_error(fmt::format("{}: field '{}' is not three dimensions", where, key));
      }
      for (std::size_t axis = 0; axis < d.size(); ++axis) {
        const auto& n = (*it)[axis];
        if (!n.is_number_integer() || n.get<std::int64_t>() < 1 || n.get<std::int64_t>() > occcalc::max_request_value) {
          throw occcalc::table_error(fmt::format("{}: field '{}' holds {}, not a dimension", where, key, n.dump()));
        }
        d[axis] = n.get<std::int64_t>();
      }
      return d;
    };
    build_kernel b;
    b.file = text_field("file", true);
    b.relative_path = relative_to_inputs(b.file, inputs);
    auto& k = b.kernel.resources;
    k.name = text_field("kernel", true);
    k.arch = text_field("arch", true);
    b.kernel.demangled = text_field("name", true);
    k.origin = text_field("origin", false);
    k.registers = count("registers");
    k.register_cap = count("register_cap");
    k.min_blocks_per_sm = count("min_blocks_per_sm");
    k.static_shared_memory_bytes = count("static_smem_bytes");
    k.stack_frame_bytes = count("stack_frame_bytes");
    k.stack_size_bytes = count("stack_size_bytes");
    k.local_memory_bytes = count("local_memory_bytes");
    k.spill_store_bytes = count("spill_store_bytes");
    k.spill_load_bytes = count("spill_load_bytes");
    k.barriers = count("barriers");
    k.agprs = count("agprs");
    k.sgprs = count("sgprs");
    k.wave_size = count("wave_size");
    k.vgpr_spills = count("vgpr_spills");
    k.sgpr_spills = count("sgpr_spills");
    if (const auto it = record.find("wgp_mode"); it != record.end() && !it->is_null()) {
      if (!it->is_boolean()) throw occcalc::table_error(where + ": field 'wgp_mode' is not true or false");
      k.wgp_mode = it->get<bool>();
    }
    k.max_threads = dims("max_threads");
    k.required_threads = dims("required_threads");
    k.cluster_dims = dims("cluster_dims");
    // A Triton kernel's launch is its metadata's, not the command's.
    if (text_field("block_size_from", false) == triton_block_size) {
      b.own_threads = count("block_size");
      b.own_dyn_smem_bytes = count("dyn_smem_bytes");
    }
    if (filter.matches(b.kernel)) out.push_back(std::move(b));
  }
  return out;
}

}  // namespace occcalc::cli
