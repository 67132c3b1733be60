// occcalc's help text: CLI11's layout with every description and footer
// wrapped to the terminal's width, and the usage shown on first contact.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace CLI {
class App;
}  // namespace CLI

namespace occcalc::cli {

/// Lays out `app`'s help (and its subcommands' created after this call) for
/// `columns` columns.
void use_help_formatter(CLI::App& app, std::size_t columns);

/// The placeholder a request flag shows in --help (`N`, `BYTES`, `CC`).
std::string_view placeholder_of(std::string_view key);

/// `batch --help`'s footer: every key a request line may hold.
std::string batch_keys();

/// `occcalc 0.1.0 (commit 1a2b3c4d5e6f)`: the commit is the build's, when
/// it was built from a git checkout.
std::string version_text();

/// What `occcalc` alone prints: the two ways to call it and a few examples.
std::string first_contact_usage();

}  // namespace occcalc::cli
