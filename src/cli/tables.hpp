// The tables a command runs on: the embedded data/*.json and any --table
// files, loaded for one vendor where that is all a command needs.
#pragma once

#include <string>
#include <vector>

#include "cli/compiled_tables.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/tables/tables.hpp"

namespace occcalc::cli {

/// Which tables a command needs: each vendor's cost milliseconds to parse,
/// so a query loads only its own.
enum class table_scope { nvidia, amd, all };

/// The embedded tables of `scope`, then every file of `table_files` (whole:
/// a user table may hold either vendor's entries). `extent` applies to the
/// built-in tables alone, when there is no file.
occcalc::table load_tables(const std::vector<std::string>& table_files, table_scope scope,
                           table_extent extent = table_extent::full);

/// The tables a query for `request` needs: its vendor's, or all of them when
/// it cannot tell (a GPU name that the NVIDIA tables do not hold may be AMD's
/// or unknown, whose error the full tables give); without the named GPUs
/// and the sources when it names no GPU.
occcalc::table load_tables_for(const std::vector<std::string>& table_files, const occcalc::request& request);

}  // namespace occcalc::cli
