#include "commands/diff.hpp"

#include <optional>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "analysis/kernel_matcher.hpp"
#include "analysis/saved_inspect.hpp"
#include "commands/read_inputs.hpp"
#include "inspect/mapped_file.hpp"
#include "io/directory.hpp"
#include "occcalc/error.hpp"
#include "render/diff.hpp"

namespace occcalc::cli {

namespace {

/// The first bytes that tell a saved inspect --json from a build output.
constexpr std::size_t sniff_bytes = 64;

/// Reads `path`'s kernels as inspect reads them, from `in` for standard
/// input; each report then names `path`.
kernel_store read_build(const occcalc::table& tables, const std::string& path, const inspect_command& read,
                        std::istream& in, std::ostream& err) {
  inspect_command one = read;
  one.inputs = {path != "-" && (is_directory(path) || is_regular_file(path)) ? path : "-"};
  /// Each kernel packed into the store as its report comes: the comparison
  /// makes the reports again, so none is kept (a build's reports took four
  /// times a 600,000-kernel baseline's size).
  class store_sink final : public report_sink {
   public:
    store_sink(kernel_store& store, const std::string& path) : store_(store), path_(path) {}
    void input(const input_report&, std::size_t) override {}
    void kernels(std::vector<kernel_report>& run) override {
      for (auto& r : run) {
        if (r.file == "-") r.file = path_;
        store_.push_back(build_kernel_of(r));
      }
    }

   private:
    kernel_store& store_;
    const std::string& path_;
  };
  kernel_store out({path});
  store_sink sink(out, path);
  const std::size_t failed = read_inputs(
      tables, one, in, err,
      [&](const inspect::inspected_kernel&) {
        return std::pair<launch_overrides, std::string>{read.overrides, "--threads"};
      },
      sink);
  if (failed > 0) throw occcalc::error(path + ": could not be read (see above)");
  return out;
}

}  // namespace

kernel_store read_side(const occcalc::table& tables, const std::string& path, const inspect_command& read,
                       std::istream& in, std::ostream& err) {
  if (path != "-" && is_directory(path)) return read_build(tables, path, read, in, err);
  const kernel_matcher filter = make_kernel_matcher(read.kernel_pattern, read.arch);
  // Read once: a pipe, a process substitution or standard input cannot be
  // read again after its first bytes tell JSON from a build output.
  std::optional<inspect::mapped_file> file;
  std::vector<unsigned char> streamed;
  inspect::byte_view bytes;
  if (path == "-") {
    streamed = inspect::read_stream(in, "standard input");
    bytes = {streamed.data(), streamed.size()};
  } else {
    bytes = file.emplace(path).bytes();
  }
  const std::string_view text = bytes.as_text();
  if (looks_like_json(text.substr(0, sniff_bytes))) return kernels_from_inspect_json(path, text, filter);
  if (path != "-" && is_regular_file(path)) return read_build(tables, path, read, in, err);
  std::istringstream again{std::string(text)};
  return read_build(tables, path, read, again, err);
}

exit_status run_diff(const occcalc::table& tables, const diff_options& options, std::istream& in, std::ostream& out,
                     std::ostream& err, const terminal& term) {
  if (options.old_input == "-" && options.new_input == "-") {
    throw occcalc::input_error("new", "and old cannot both be standard input");
  }
  const auto before = read_side(tables, options.old_input, options.read, in, err);
  const auto after = read_side(tables, options.new_input, options.read, in, err);
  if (filters_kernels(options.read) && before.empty() && after.empty()) {
    // A filter that leaves nothing to compare is never "no regressions".
    const bool by_name = !options.read.kernel_pattern.empty();
    throw occcalc::input_error(by_name ? "kernel" : "arch",
                               fmt::format("'{}' matches no kernel in either build",
                                           by_name ? options.read.kernel_pattern : options.read.arch));
  }
  const diff_report report{options.old_input, options.new_input,
                           compare_builds(tables, before, after, options.read.overrides, options.thresholds),
                           options.fail_on_regression};
  if (!report.diff.ambiguities.empty()) {
    err << "occcalc: note: " << occcalc::detail::printable(ambiguity_note(report.diff.ambiguities)) << "\n";
  }
  out << find_renderer(diff_renderers, options.read.format)(report, terminal_for(term, options.read.format));
  return options.fail_on_regression && report.diff.regressed() ? exit_status::gate_failed : exit_status::ok;
}

}  // namespace occcalc::cli
