#include "inspect/amdgpu_remarks.hpp"

#include <charconv>

#include <fmt/format.h>

#include "inspect/bytes.hpp"
#include "inspect/limits.hpp"
#include "inspect/text_lines.hpp"
#include "occcalc/common/text.hpp"

namespace occcalc::inspect {

namespace {

constexpr std::string_view remark_tag = "[-Rpass-analysis=kernel-resource-usage]";
constexpr std::string_view remark_marker = "remark: ";

using occcalc::detail::trim;

}  // namespace

bool is_amdgpu_remarks(std::string_view text) noexcept {
  constexpr std::size_t head_bytes = 1 << 16;
  return text.substr(0, head_bytes).find(remark_tag) != std::string_view::npos;
}

std::vector<kernel_resources> read_amdgpu_remarks(std::string_view text) {
  std::vector<kernel_resources> out;
  for_each_line(text, "", [&](std::string_view line, std::size_t number) {
    const auto tag = line.rfind(remark_tag);
    const auto marker = line.find(remark_marker);
    if (tag == std::string_view::npos || marker == std::string_view::npos || marker > tag) return;
    const std::string_view body = trim(line.substr(marker + remark_marker.size(), tag - marker - remark_marker.size()));
    const auto colon = body.rfind(':');
    if (colon == std::string_view::npos) return;
    const std::string_view key = trim(body.substr(0, colon));
    const std::string_view value = trim(body.substr(colon + 1));
    if (key == "Function Name") {
      if (out.size() >= max_kernels_per_code_object) {
        throw format_error(fmt::format("more than {} kernels", max_kernels_per_code_object));
      }
      kernel_resources k;
      k.name = std::string(value);
      k.origin = fmt::format("remarks line {}", number);
      out.push_back(std::move(k));
      return;
    }
    if (out.empty()) return;
    const auto count = [&]() -> std::int64_t {
      std::int64_t n = 0;
      const auto [stop, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || stop != value.data() + value.size() || n < 0) {
        throw format_error(fmt::format("line {}: {} '{}' is not a count", number, key, value));
      }
      return n;
    };
    auto& k = out.back();
    // SGPRs (clang-19) is TotalSGPRs from clang-22 on: the SGPRs with VCC, flat scratch and XNACK.
    if (key == "SGPRs" || key == "TotalSGPRs") {
      k.sgprs = count();
    } else if (key == "Occupancy [waves/SIMD]") {
      k.compiler_waves_per_simd = count();
    } else if (key == "Dynamic Stack") {
      // True: ScratchSize is only the static part (a call or a variable-sized alloca); the figure stands as read.
    } else if (key == "VGPRs") {
      k.arch_vgprs = count();
    } else if (key == "AGPRs") {
      k.agprs = count();
    } else if (key == "ScratchSize [bytes/lane]") {
      k.stack_size_bytes = count();
    } else if (key == "SGPRs Spill") {
      k.sgpr_spills = count();
    } else if (key == "VGPRs Spill") {
      k.vgpr_spills = count();
    } else if (key == "LDS Size [bytes/block]") {
      k.static_shared_memory_bytes = count();
    }
  });
  return out;
}

}  // namespace occcalc::inspect
