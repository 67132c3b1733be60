#include "commands/inspect.hpp"

#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "builds/read_build.hpp"
#include "occcalc/error.hpp"
#include "occcalc/version.hpp"
#include "render/json_writer.hpp"

namespace occcalc::cli {

exit_status run_inspect(const occcalc::table& tables, const inspect_command& command, std::istream& in,
                        std::ostream& out, std::ostream& err, const terminal& term) {
  // The records go out as they are made; the inputs without kernels are
  // noted once all are out.
  struct printing : report_sink {
    inspect_printer& printer;
    std::vector<std::string> without_kernels;
    std::size_t kernels_printed = 0;
    explicit printing(inspect_printer& p) : printer(p) {}
    void input(const input_report& heading, std::size_t kernel_count) override {
      if (kernel_count == 0) without_kernels.push_back(heading.file);
      kernels_printed += kernel_count;
      printer.input(heading, kernel_count);
    }
    void kernels(std::vector<kernel_report>& run) override { printer.kernels(run); }
  };
  const auto printer = find_renderer(inspect_renderers, command.format)(
      out, terminal_for(term, command.format), command.table, reading_workers(command), command.inputs);
  printing sink(*printer);
  const std::size_t failed = read_build(
      tables, command, in, err,
      [&](const inspect::inspected_kernel&) {
        return std::pair{command.overrides, launch_source::threads_option};
      },
      sink);
  printer->finish();
  out.flush();  // the table before the notes, where both reach one terminal or log
  if (!filters_kernels(command)) {
    for (const auto& file : sink.without_kernels) {
      err << fmt::format("occcalc: note: {}: no GPU kernels found\n", occcalc::detail::printable(file));
    }
  }
  if (failed > 0) return exit_status::bad_input;
  // A filter that matched nothing anywhere is said, as check says it.
  if (sink.kernels_printed == 0) require_matches(command);
  return exit_status::ok;
}

std::string inspect_json_of(const occcalc::table& tables, const std::string& name, inspect::byte_view bytes) {
  inspect_command command;
  command.inputs = {name};
  command.format = output_format::json;
  command.contents = bytes;
  std::istringstream in;
  std::ostringstream out, err;
  std::string message;
  try {
    if (run_inspect(tables, command, in, out, err, terminal{}) == exit_status::ok) return out.str();
    // The input could not be read: the line inspect printed for it.
    constexpr std::string_view lead = "occcalc: error: ";
    std::string said = err.str();
    const auto at = said.find(lead);
    message = at == std::string::npos ? said : said.substr(at + lead.size());
    message = message.substr(0, message.find('\n'));
  } catch (const occcalc::error& e) {
    message = e.what();
  }
  std::string text;
  json_writer w(text);
  w.begin_object();
  w.member("schema_version", std::int64_t{occcalc::inspect_schema_version});
  w.key("error");
  w.begin_object();
  w.key("field");
  w.null();
  w.member("message", message);
  w.end_object();
  w.end_object();
  return text + "\n";
}

}  // namespace occcalc::cli
