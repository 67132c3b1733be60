// `occcalc list`: the architectures, AMD targets and named GPUs.
#pragma once

#include <iosfwd>
#include <string>

#include "commands/exit_status.hpp"
#include "occcalc/tables/tables.hpp"

#include "render/terminal.hpp"

namespace occcalc::cli {

/// What `list` shows: archs, gpus, amd or all.
struct list_options {
  std::string what = "all";
  bool json = false;
  /// One id per line (what --cc, --gpu and --gfx take), for completion.
  bool ids = false;
  /// What the text view may use.
  terminal term;
};

exit_status run_list(const occcalc::table& tables, const list_options& options, std::ostream& out);

}  // namespace occcalc::cli
