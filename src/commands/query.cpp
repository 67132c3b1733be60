#include "commands/query.hpp"

#include <ostream>
#include <variant>

#include <fmt/format.h>

#include "analysis/evaluated.hpp"
#include "builds/occupancy_floor.hpp"
#include "occcalc/amd/summary.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/error.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "render/amd_text.hpp"
#include "render/brief.hpp"
#include "render/nvidia_text.hpp"
#include "render/result_json.hpp"

namespace occcalc::cli {

exit_status run_query(const occcalc::table& tables, const query_options& options, std::ostream& out,
                      std::ostream& err) {
  const auto min_percent = parse_min_occupancy(options.min_occupancy);
  if (options.json && options.brief) throw occcalc::input_error("brief", "cannot be given together with --json");
  const evaluated e = evaluate_any(tables, options.request);
  std::visit(
      [&](const auto& q) {
        if (options.json)
          out << result_text(q, json_writer::style::pretty) << "\n";
        else if (options.brief)
          out << brief_line(q);
        else
          render_text(out, q, options.term);
      },
      e);
  const double occupancy = occupancy_of(e);
  if (below(occupancy, min_percent)) {
    out.flush();  // the report before the verdict, where both reach one terminal or log
    err << fmt::format("occcalc: gate failed: occupancy {:.2f}%{} is below --min-occupancy {}\n",
                       occcalc::percent_hundredths(occupancy), launch_words(e), options.min_occupancy);
    return exit_status::gate_failed;
  }
  return exit_status::ok;
}

}  // namespace occcalc::cli
