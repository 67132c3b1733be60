// Each subcommand's options on the command line, bound to `options`: the
// rows of cli/app.cpp's command table point here.
#pragma once

#include "cli/run_commands.hpp"

namespace CLI {
class App;
}

namespace occcalc::cli {

void bind_list(CLI::App& app, options& opts);
void bind_batch(CLI::App& app, options& opts);
void bind_inspect(CLI::App& app, options& opts);
void bind_check(CLI::App& app, options& opts);
void bind_diff(CLI::App& app, options& opts);
void bind_suggest(CLI::App& app, options& opts);
void bind_limits(CLI::App& app, options& opts);
void bind_sweep(CLI::App& app, options& opts);

}  // namespace occcalc::cli
