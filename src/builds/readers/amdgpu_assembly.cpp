#include "builds/readers/amdgpu_assembly.hpp"

#include <charconv>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "builds/readers/amdgpu_code_object.hpp"
#include "builds/readers/budgets.hpp"
#include "builds/readers/bytes.hpp"
#include "builds/readers/text_lines.hpp"
#include "occcalc/common/text.hpp"

namespace occcalc::inspect {

namespace {

constexpr std::string_view metadata_begin = ".amdgpu_metadata";
constexpr std::string_view metadata_end = ".end_amdgpu_metadata";
constexpr std::string_view target_directive = ".amdgcn_target \"";
/// In the metadata's YAML: a kernel starts with `  - .key:`, and its own
/// keys are indented four spaces; deeper lines belong to its arguments.
constexpr std::string_view kernel_start = "  - .";
constexpr std::string_view kernel_key = "    .";
constexpr std::string_view list_item = "      - ";

using occcalc::detail::trim;

/// Reads the metadata block line by line.
class metadata_reader {
 public:
  void line(std::string_view text, std::size_t number) {
    number_ = number;
    if (starts_with(text, "amdhsa.target:")) {
      target_ = amdgpu_target_of(unquote(trim(text.substr(14))));
      return;
    }
    if (starts_with(text, kernel_start)) {
      if (kernels_.size() >= max_kernels_per_code_object) {
        throw format_error(fmt::format("line {}: more than {} kernels; no real build has so many", number,
                                       max_kernels_per_code_object));
      }
      kernels_.emplace_back();
      list_key_.clear();
      key_value(text.substr(kernel_start.size() - 1));
    } else if (!kernels_.empty() && starts_with(text, kernel_key)) {
      list_key_.clear();
      key_value(text.substr(kernel_key.size() - 1));
    } else if (!kernels_.empty() && starts_with(text, list_item) && list_key_ == ".reqd_workgroup_size") {
      if (reqd_.size() >= 3)
        throw format_error(fmt::format("line {}: .reqd_workgroup_size has more than 3 sizes", number));
      reqd_.push_back(count(trim(text.substr(list_item.size()))).value_or(0));
      if (reqd_.size() == 3) {
        if (reqd_[0] < 1 || reqd_[1] < 1 || reqd_[2] < 1) {
          throw format_error(fmt::format("line {}: .reqd_workgroup_size is not 3 positive integers", number));
        }
        kernels_.back().required_threads = dim3{reqd_[0], reqd_[1], reqd_[2]};
      }
    }
  }

  std::vector<kernel_resources> finish(const std::string& fallback_target) {
    for (auto& k : kernels_) {
      if (k.name.empty()) throw format_error("AMDGPU metadata: a kernel without a .name");
      k.arch = parse_gpu_target(target_.empty() ? fallback_target : target_);
      k.origin = "assembly metadata";
    }
    return std::move(kernels_);
  }

 private:
  static std::string_view unquote(std::string_view v) {
    if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) {
      return v.substr(1, v.size() - 2);
    }
    return v;
  }

  std::optional<std::int64_t> count(std::string_view v) const {
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || end != v.data() + v.size() || n < 0) {
      throw format_error(fmt::format("line {}: {} is not a count", number_, v));
    }
    return n;
  }

  void key_value(std::string_view text) {
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) return;
    const std::string_view key = trim(text.substr(0, colon));
    const std::string_view value = trim(text.substr(colon + 1));
    auto& k = kernels_.back();
    if (value.empty()) {
      list_key_ = std::string(key);  // a list follows
      if (key == ".reqd_workgroup_size") reqd_.clear();
      return;
    }
    if (key == ".name") {
      k.name = std::string(unquote(value));
    } else if (key == ".vgpr_count") {
      k.registers = count(value);
    } else if (key == ".agpr_count") {
      k.agprs = count(value);
    } else if (key == ".sgpr_count") {
      k.sgprs = count(value);
    } else if (key == ".group_segment_fixed_size") {
      k.static_shared_memory_bytes = count(value);
    } else if (key == ".private_segment_fixed_size") {
      k.stack_size_bytes = count(value);
    } else if (key == ".wavefront_size") {
      k.wave_size = count(value);
    } else if (key == ".vgpr_spill_count") {
      k.vgpr_spills = count(value);
    } else if (key == ".sgpr_spill_count") {
      k.sgpr_spills = count(value);
    } else if (key == ".max_flat_workgroup_size") {
      k.max_threads = dim3{*count(value), 1, 1};
    } else if (key == ".workgroup_processor_mode") {
      k.wgp_mode = count(value) == 1;
    }
  }

  std::vector<kernel_resources> kernels_;
  std::string target_;
  std::string list_key_;
  std::vector<std::int64_t> reqd_;
  std::size_t number_ = 0;
};

}  // namespace

bool is_amdgpu_assembly(std::string_view text) noexcept {
  // clang writes the target directive on the second line: look near the
  // start, so a large file of something else is not scanned whole.
  constexpr std::size_t head_bytes = 4096;
  return text.substr(0, head_bytes).find(target_directive) != std::string_view::npos &&
         text.find(metadata_begin) != std::string_view::npos;
}

std::vector<kernel_resources> read_amdgpu_assembly(std::string_view text) {
  std::string fallback_target;
  if (const auto at = text.find(target_directive); at != std::string_view::npos) {
    const auto rest = text.substr(at + target_directive.size());
    fallback_target = amdgpu_target_of(rest.substr(0, rest.find('"')));
  }
  metadata_reader reader;
  bool inside = false;
  bool any = false;
  for_each_line(text, "; assembly lines are short", [&](std::string_view line, std::size_t number) {
    const std::string_view directive = trim(line);
    if (directive == metadata_begin) {
      inside = true;
      any = true;
    } else if (directive == metadata_end) {
      inside = false;
    } else if (inside) {
      reader.line(line, number);
    }
  });
  if (!any) throw format_error("AMDGPU assembly without code object metadata (.amdgpu_metadata)");
  return reader.finish(fallback_target);
}

}  // namespace occcalc::inspect
