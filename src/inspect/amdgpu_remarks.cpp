#include "inspect/amdgpu_remarks.hpp"

#include <charconv>

#include <fmt/format.h>

#include "inspect/bytes.hpp"
#include "inspect/limits.hpp"

namespace occcalc::inspect {

namespace {

constexpr std::string_view remark_tag = "[-Rpass-analysis=kernel-resource-usage]";
constexpr std::string_view remark_marker = "remark: ";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool is_amdgpu_remarks(std::string_view text) noexcept {
  constexpr std::size_t head_bytes = 1 << 16;
  return text.substr(0, head_bytes).find(remark_tag) != std::string_view::npos;
}

std::vector<kernel_resources> read_amdgpu_remarks(std::string_view text) {
  std::vector<kernel_resources> out;
  std::size_t number = 0;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (line.size() > max_log_line_bytes) {
      throw format_error(fmt::format("line {} is longer than {} bytes", number, max_log_line_bytes));
    }
    const auto tag = line.rfind(remark_tag);
    const auto marker = line.find(remark_marker);
    if (tag == std::string_view::npos || marker == std::string_view::npos || marker > tag) continue;
    const std::string_view body = trim(line.substr(marker + remark_marker.size(), tag - marker - remark_marker.size()));
    const auto colon = body.rfind(':');
    if (colon == std::string_view::npos) continue;
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
      continue;
    }
    if (out.empty()) continue;
    const auto count = [&]() -> std::int64_t {
      std::int64_t n = 0;
      const auto [stop, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || stop != value.data() + value.size() || n < 0) {
        throw format_error(fmt::format("line {}: {} '{}' is not a count", number, key, value));
      }
      return n;
    };
    auto& k = out.back();
    if (key == "SGPRs") {
      k.sgprs = count();
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
  }
  return out;
}

}  // namespace occcalc::inspect
