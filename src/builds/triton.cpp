#include "builds/triton.hpp"

#include <cctype>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "occcalc/error.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/tables/load.hpp"

namespace occcalc::cli {

namespace {

/// Warp sizes Triton's targets use when the metadata predates `warp_size`.
constexpr std::int64_t cuda_warp_size = 32;
constexpr std::int64_t hip_warp_size = 64;
/// The most tensor shapes a config's identity lists (a kernel's IR uses a
/// few dozen at most; a bound on hostile IR).
constexpr std::size_t max_tiles = 64;
/// The most warps a Triton kernel launches with (1024 threads of 32 on
/// CUDA; a bound on hostile values).
constexpr std::int64_t max_num_warps = 1024;

}  // namespace

std::optional<triton_metadata> read_triton_metadata(const std::string& origin, const std::string& text) {
  nlohmann::json j;
  try {
    j = occcalc::detail::parse_strict({origin, text});
  } catch (const occcalc::error&) {
    return std::nullopt;  // not JSON: not Triton's metadata
  }
  if (!j.is_object() || !j.contains("num_warps") || !j.contains("shared")) return std::nullopt;
  const auto integer = [&](const char* key, occcalc::int_range range) {
    const auto& v = j[key];
    if (!v.is_number_integer() || v.get<std::int64_t>() < range.min || v.get<std::int64_t>() > range.max) {
      throw occcalc::table_error(fmt::format("{}: Triton metadata field '{}' is {}; expected an integer in [{}, {}]",
                                             origin, key, v.dump(), range.min, range.max));
    }
    return v.get<std::int64_t>();
  };
  triton_metadata m;
  m.num_warps = integer("num_warps", {1, max_num_warps});
  m.shared_bytes = integer("shared", {0, occcalc::max_request_value});
  if (j.contains("num_ctas")) m.num_ctas = integer("num_ctas", {1, max_num_warps});
  if (j.contains("num_stages")) m.num_stages = integer("num_stages", {0, max_num_warps});
  if (j.contains("name") && j["name"].is_string()) m.name = j["name"].get<std::string>();
  if (j.contains("maxnreg") && !j["maxnreg"].is_null()) m.maxnreg = integer("maxnreg", {1, occcalc::max_request_value});
  if (const auto it = j.find("cluster_dims"); it != j.end() && it->is_array() && it->size() == 3) {
    for (std::size_t i = 0; i < 3; ++i) {
      if (!(*it)[i].is_number_integer() || (*it)[i].get<std::int64_t>() < 1) {
        throw occcalc::table_error(origin + ": Triton metadata field 'cluster_dims' is not three positive integers");
      }
      m.cluster_dims[i] = (*it)[i].get<std::int64_t>();
    }
  }
  const auto target = j.find("target");
  if (target != j.end() && target->is_object()) {
    if (target->contains("backend") && (*target)["backend"].is_string()) m.backend = (*target)["backend"];
    if (target->contains("arch")) {
      const auto& arch = (*target)["arch"];
      m.arch = arch.is_string() ? arch.get<std::string>() : arch.dump();
    }
    if (target->contains("warp_size")) {
      const auto& w = (*target)["warp_size"];
      if (!w.is_number_integer() ||
          (w.get<std::int64_t>() != cuda_warp_size && w.get<std::int64_t>() != hip_warp_size)) {
        throw occcalc::table_error(origin + ": Triton metadata field 'target.warp_size' is " + w.dump() +
                                   "; expected 32 or 64");
      }
      m.warp_size = w.get<std::int64_t>();
    }
  }
  if (m.warp_size == 0) m.warp_size = m.backend == "hip" ? hip_warp_size : cuda_warp_size;
  return m;
}

std::string triton_metadata::config() const {
  std::string out = fmt::format("num_warps {}, num_stages {}, num_ctas {}", num_warps, num_stages, num_ctas);
  if (maxnreg) out += fmt::format(", maxnreg {}", *maxnreg);
  if (!tiles.empty()) out += ", tiles " + tiles;
  return out;
}

std::string triton_tiles(std::string_view ir) {
  constexpr std::string_view opening = "tensor<";
  std::set<std::string> shapes;
  for (std::size_t at = ir.find(opening); at != std::string_view::npos && shapes.size() < max_tiles;
       at = ir.find(opening, at + 1)) {
    // Dimensions are digits joined by `x`, then the element type.
    std::size_t end = at + opening.size();
    std::size_t shape_end = end;
    while (end < ir.size() && std::isdigit(static_cast<unsigned char>(ir[end]))) {
      while (end < ir.size() && std::isdigit(static_cast<unsigned char>(ir[end]))) ++end;
      shape_end = end;
      if (end < ir.size() && ir[end] == 'x') ++end;
    }
    if (shape_end > at + opening.size())
      shapes.emplace(ir.substr(at + opening.size(), shape_end - at - opening.size()));
  }
  std::vector<std::string> sorted(shapes.begin(), shapes.end());
  return fmt::format("{}", fmt::join(sorted, " "));
}

}  // namespace occcalc::cli
