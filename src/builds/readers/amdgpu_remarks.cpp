#include "builds/readers/amdgpu_remarks.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>

#include <fmt/format.h>

#include "builds/readers/budgets.hpp"
#include "builds/readers/bytes.hpp"
#include "builds/readers/text_lines.hpp"
#include "occcalc/common/text.hpp"

namespace occcalc::inspect {

namespace {

constexpr std::string_view remark_tag = "[-Rpass-analysis=kernel-resource-usage]";
constexpr std::string_view remark_marker = "remark: ";

using occcalc::detail::trim;

/// A remark's figure and where it goes; no member: read, not kept.
struct figure {
  std::string_view key;
  std::optional<std::int64_t> kernel_resources::*member;
};
constexpr figure figures[] = {
    // SGPRs (clang-19) is TotalSGPRs from clang-22 on: the SGPRs with VCC, flat scratch and XNACK.
    {"SGPRs", &kernel_resources::sgprs},
    {"TotalSGPRs", &kernel_resources::sgprs},
    {"VGPRs", &kernel_resources::arch_vgprs},
    {"AGPRs", &kernel_resources::agprs},
    {"ScratchSize [bytes/lane]", &kernel_resources::stack_size_bytes},
    {"Dynamic Stack", nullptr},
    {"Occupancy [waves/SIMD]", &kernel_resources::compiler_waves_per_simd},
    {"SGPRs Spill", &kernel_resources::sgpr_spills},
    {"VGPRs Spill", &kernel_resources::vgpr_spills},
    {"LDS Size [bytes/block]", &kernel_resources::static_shared_memory_bytes},
};

}  // namespace

bool is_amdgpu_remarks(std::string_view text) noexcept {
  constexpr std::size_t head_bytes = 1 << 16;
  return text.substr(0, head_bytes).find(remark_tag) != std::string_view::npos;
}

std::vector<kernel_resources> read_amdgpu_remarks(std::string_view text, unread_remarks* unread) {
  std::vector<kernel_resources> out;
  for_each_line(text, "", [&](std::string_view line, std::size_t number) {
    const auto tag = line.rfind(remark_tag);
    const auto marker = line.find(remark_marker);
    if (tag == std::string_view::npos || marker == std::string_view::npos || marker > tag) return;
    const std::string_view body = trim(line.substr(marker + remark_marker.size(), tag - marker - remark_marker.size()));
    const auto not_read = [&] {
      if (unread == nullptr) return;
      if (unread->lines++ == 0) unread->first = fmt::format("line {}: {}", number, body);
    };
    const auto colon = body.find(':');
    if (colon == std::string_view::npos) return not_read();
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
    const auto* f = std::find_if(std::begin(figures), std::end(figures),
                                 [&](const figure& candidate) { return candidate.key == key; });
    if (out.empty() || f == std::end(figures)) return not_read();
    if (f->member == nullptr) {
      // Dynamic Stack, True where ScratchSize is only the static part (a call or a variable-sized alloca): the
      // figure stands as read.
      if (value != "True" && value != "False") not_read();
      return;
    }
    std::int64_t n = 0;
    const auto [stop, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (stop == value.data()) {
      // An expression (clang-22 on an OpenCL kernel: `foo.num_vgpr`), resolved only in the code object.
      return not_read();
    }
    if (ec != std::errc() || stop != value.data() + value.size() || n < 0) {
      throw format_error(fmt::format("line {}: {} '{}' is not a count", number, key, value));
    }
    out.back().*(f->member) = n;
  });
  return out;
}

}  // namespace occcalc::inspect
