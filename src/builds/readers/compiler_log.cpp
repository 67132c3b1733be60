#include "builds/readers/compiler_log.hpp"
#include "builds/readers/budgets.hpp"
#include "builds/readers/demangle.hpp"
#include "builds/readers/text_lines.hpp"
#include "occcalc/request/parse.hpp"

#include <charconv>
#include <new>
#include <optional>
#include <string>

namespace occcalc::inspect {

namespace {

constexpr std::string_view ptxas_prefix = "ptxas info";
constexpr std::string_view nvlink_prefix = "nvlink info";

using occcalc::detail::trim;

/// The message after `ptxas info    : `.
std::string_view message_of(std::string_view line) noexcept {
  const auto colon = line.find(':');
  return colon == std::string_view::npos ? std::string_view{} : trim(line.substr(colon + 1));
}

/// The text between the first pair of single quotes.
std::optional<std::string_view> quoted(std::string_view text, std::size_t from = 0) noexcept {
  const auto open = text.find('\'', from);
  if (open == std::string_view::npos) return std::nullopt;
  const auto close = text.find('\'', open + 1);
  if (close == std::string_view::npos) return std::nullopt;
  return text.substr(open + 1, close - open - 1);
}

/// Removes a trailing `(target: sm_80)` and returns the target.
std::string_view take_target(std::string_view& text) noexcept {
  constexpr std::string_view marker = "(target: ";
  const auto at = text.rfind(marker);
  if (at == std::string_view::npos) return {};
  const auto end = text.find(')', at);
  const auto target = text.substr(at + marker.size(), end == std::string_view::npos ? end : end - at - marker.size());
  text = trim(text.substr(0, at));
  return trim(target);
}

/// At most how many kernels `text` reports: each kernel's first line holds
/// one of these (ptxas's entry, nvlink's properties), so the reader holds
/// its kernels without growing: a vector that doubles copies 300 MB of them
/// beside the first 300 MB.
std::size_t most_kernels(std::string_view text) noexcept {
  std::size_t count = 0;
  for (const std::string_view marker : {"Compiling entry function", "Function properties for"}) {
    for (auto at = text.find(marker); at != std::string_view::npos; at = text.find(marker, at + marker.size())) {
      ++count;
    }
  }
  return count;
}

class log_reader {
 public:
  explicit log_reader(std::string_view text) {
    try {
      kernels_.reserve(most_kernels(text));  // address space: only the kernels read are touched
    } catch (const std::bad_alloc&) {
      // A log of nothing but those words: read as it comes.
    }
  }

  void line(std::string_view text, std::size_t number) {
    number_ = number;
    const auto line = trim(text);
    if (starts_with(line, ptxas_prefix)) {
      ptxas(message_of(line));
    } else if (starts_with(line, nvlink_prefix)) {
      nvlink(message_of(line));
    } else if (line.find("bytes stack frame") != std::string_view::npos && properties_) {
      figures(line, kernels_[*properties_].resources, false);
      properties_.reset();
    }
  }

  std::vector<inspected_kernel> take() { return std::move(kernels_); }

 private:
  void ptxas(std::string_view message) {
    constexpr std::string_view entry = "Compiling entry function";
    constexpr std::string_view properties = "Function properties for ";
    constexpr std::string_view used = "Used ";
    properties_.reset();
    if (starts_with(message, entry)) {
      const auto name = quoted(message);
      if (!name) return;
      kernel_resources k;
      k.name = std::string(*name);
      if (const auto arch = quoted(message, message.find(" for '"))) k.arch = parse_gpu_target(*arch);
      k.origin = "line " + std::to_string(number_);
      kernels_.push_back({std::move(k), {}});
      current_ = kernels_.size() - 1;
    } else if (starts_with(message, properties)) {
      // A device function has properties but no "Compiling entry function".
      const auto name = trim(message.substr(properties.size()));
      if (current_ && kernels_[*current_].resources.name == name) properties_ = current_;
    } else if (starts_with(message, used) && current_) {
      // ptxas leaves out "N bytes smem" when it is 0.
      kernels_[*current_].resources.static_shared_memory_bytes = 0;
      figures(message, kernels_[*current_].resources, false);
      current_.reset();
    }
  }

  void nvlink(std::string_view message) {
    properties_.reset();
    constexpr std::string_view properties = "Function properties for ";
    constexpr std::string_view used = "used ";
    auto rest = message;
    const auto target = take_target(rest);
    if (starts_with(rest, properties)) {
      const auto name = quoted(rest);
      if (!name) return;
      kernel_resources k;
      k.name = std::string(*name);
      k.arch = parse_gpu_target(target);
      k.origin = "line " + std::to_string(number_);
      kernels_.push_back({std::move(k), {}});
      current_ = kernels_.size() - 1;
    } else if (starts_with(rest, used) && current_) {
      auto& k = kernels_[*current_].resources;
      if (k.arch.name.empty()) k.arch = parse_gpu_target(target);
      figures(rest, k, true);
      current_.reset();
    }
  }

  /// Reads the comma-separated "N unit" items of a figures line.
  void figures(std::string_view text, kernel_resources& k, bool shared_is_section) {
    while (!text.empty()) {
      const auto comma = text.find(',');
      auto item = trim(text.substr(0, comma));
      text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
      for (const std::string_view verb : {"Used ", "used "}) {
        if (starts_with(item, verb)) item.remove_prefix(verb.size());
      }
      const auto space = item.find(' ');
      if (space == std::string_view::npos) continue;
      const auto value = number(item.substr(0, space));
      if (!value) continue;
      const auto unit = trim(item.substr(space + 1));
      if (unit == "registers") {
        k.registers = value;
      } else if (unit == "barriers") {
        k.barriers = value;
      } else if (unit == "bytes smem") {
        k.static_shared_memory_bytes = value;
        if (shared_is_section) k.shared_memory_read_as = shared_memory_figure::linker_report;
      } else if (unit == "bytes stack frame") {
        k.stack_frame_bytes = value;
      } else if (unit == "bytes spill stores") {
        k.spill_store_bytes = value;
      } else if (unit == "bytes spill loads") {
        k.spill_load_bytes = value;
      } else if (unit == "bytes cumulative stack size" || unit == "stack") {
        k.stack_size_bytes = value;
      } else if (unit == "bytes lmem") {
        k.local_memory_bytes = value;
      }
    }
  }

  std::optional<std::int64_t> number(std::string_view digits) const {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (end != digits.data() + digits.size()) return std::nullopt;
    if (ec == std::errc::result_out_of_range || value < 0) {
      throw format_error(fmt::format("line {}: the figure {} is out of range", number_, digits));
    }
    if (ec != std::errc()) return std::nullopt;
    return value;
  }

  std::vector<inspected_kernel> kernels_;
  std::optional<std::size_t> current_;
  /// The kernel a "bytes stack frame" line belongs to, if the previous line
  /// announced one.
  std::optional<std::size_t> properties_;
  std::size_t number_ = 0;
};

}  // namespace

bool is_compiler_log(std::string_view text) noexcept {
  // A log is text: a NUL byte near the start (zeros, a binary format this
  // reader does not know) ends the question before a gigabyte is searched.
  constexpr std::size_t text_probe_bytes = 64 << 10;
  if (text.substr(0, text_probe_bytes).find('\0') != std::string_view::npos) return false;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = line_end(text, at);
    if (end == std::string_view::npos) return false;  // no log has such a line
    const auto line = trim(text.substr(at, end - at));
    if (starts_with(line, ptxas_prefix) || starts_with(line, nvlink_prefix)) return true;
    at = end + 1;
  }
  return false;
}

namespace {

std::vector<inspected_kernel> read_log(std::string_view text, std::size_t first_line) {
  log_reader reader(text);
  for_each_line(text, "; a compiler log's lines are short",
                [&](std::string_view line, std::size_t number) { reader.line(line, number - 1 + first_line); });
  return reader.take();
}

}  // namespace

std::vector<kernel_resources> read_compiler_log(std::string_view text, std::size_t first_line) {
  auto kernels = read_log(text, first_line);
  std::vector<kernel_resources> out;
  out.reserve(kernels.size());
  for (auto& k : kernels) out.push_back(std::move(k.resources));
  return out;
}

std::vector<inspected_kernel> read_compiler_log_kernels(std::string_view text) {
  auto kernels = read_log(text, 1);
  for (auto& k : kernels) k.demangled = demangle(k.resources.name);
  return kernels;
}

}  // namespace occcalc::inspect
