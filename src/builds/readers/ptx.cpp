#include "builds/readers/ptx.hpp"

#include <charconv>

#include <fmt/format.h>

#include "builds/readers/budgets.hpp"
#include "builds/readers/bytes.hpp"
#include "builds/readers/text_lines.hpp"
#include "occcalc/common/text.hpp"

namespace occcalc::inspect {

namespace {

/// ptxas's bound on block dimensions and counts; larger is a corrupt file.
constexpr std::int64_t max_directive_value = 1 << 20;

/// A directive's text without surrounding space or its closing `;`.
std::string_view trim(std::string_view s) {
  s = occcalc::detail::trim(s);
  while (!s.empty() && s.back() == ';') s = occcalc::detail::trim(s.substr(0, s.size() - 1));
  return s;
}

/// `N` or `X, Y, Z` after a directive.
std::vector<std::int64_t> numbers(std::string_view text, std::size_t line) {
  std::vector<std::int64_t> out;
  while (!text.empty()) {
    text = trim(text);
    const auto comma = text.find(',');
    const std::string_view item = trim(text.substr(0, comma));
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), n);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || n < 1 || n > max_directive_value ||
        out.size() == 3) {
      throw format_error(fmt::format("line {}: '{}' is not a directive's count", line, item));
    }
    out.push_back(n);
    if (comma == std::string_view::npos) break;
    text = text.substr(comma + 1);
  }
  if (out.empty()) throw format_error(fmt::format("line {}: a directive without its count", line));
  return out;
}

dim3 dims(const std::vector<std::int64_t>& n) { return {n[0], n.size() > 1 ? n[1] : 1, n.size() > 2 ? n[2] : 1}; }

}  // namespace

bool is_ptx(std::string_view text) noexcept {
  constexpr std::size_t head_bytes = 4096;
  const std::string_view head = text.substr(0, head_bytes);
  return head.find(".version ") != std::string_view::npos && head.find(".target ") != std::string_view::npos;
}

std::string ptx_target(std::string_view text) {
  const auto at = text.find("\n.target ");
  if (at == std::string_view::npos) return {};
  std::string_view rest = text.substr(at + 9);
  rest = rest.substr(0, rest.find_first_of(",\n \t\r"));
  return std::string(rest);
}

std::vector<kernel_resources> read_ptx(std::string_view text) {
  const std::string arch = ptx_target(text);
  std::vector<kernel_resources> out;
  bool in_header = false;  // between `.entry name(` and the body's `{`
  for_each_line(text, "", [&](std::string_view raw, std::size_t number) {
    std::string_view line = trim(raw);
    if (const auto entry = line.find(".entry "); entry != std::string_view::npos && !starts_with(line, "//")) {
      if (out.size() >= max_kernels_per_code_object) {
        throw format_error(fmt::format("more than {} entries", max_kernels_per_code_object));
      }
      std::string_view name = trim(line.substr(entry + 7));
      name = name.substr(0, name.find_first_of("( \t"));
      kernel_resources k;
      k.name = std::string(name);
      k.arch = parse_gpu_target(arch);
      k.origin = fmt::format("PTX line {}", number);
      out.push_back(std::move(k));
      in_header = true;
      return;
    }
    if (!in_header) return;
    if (starts_with(line, "{")) {
      in_header = false;
      return;
    }
    auto& k = out.back();
    if (starts_with(line, ".maxntid")) {
      k.max_threads = dims(numbers(line.substr(8), number));
    } else if (starts_with(line, ".reqntid")) {
      k.required_threads = dims(numbers(line.substr(8), number));
    } else if (starts_with(line, ".maxnreg")) {
      k.register_cap = numbers(line.substr(8), number).front();
    } else if (starts_with(line, ".minnctapersm")) {
      k.min_blocks_per_sm = numbers(line.substr(13), number).front();
    } else if (starts_with(line, ".reqnctapercluster")) {
      k.cluster_dims = dims(numbers(line.substr(18), number));
    }
  });
  return out;
}

}  // namespace occcalc::inspect
