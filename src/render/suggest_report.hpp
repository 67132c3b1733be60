// Output of `occcalc suggest`: text and JSON (schema/suggest.schema.json).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/suggestion.hpp"
#include "render/json_writer.hpp"

#include "render/terminal.hpp"

namespace occcalc::cli {

std::string suggest_text(const nvidia_suggestion& s, const terminal& term);
std::string suggest_text(const amd_suggestion& s, const terminal& term);
std::string suggest_json(const nvidia_suggestion& s);
std::string suggest_json(const amd_suggestion& s);
std::string suggest_text(const amd_llvm_suggestion& s, const terminal& term);
std::string suggest_json(const amd_llvm_suggestion& s);

/// What changes aim at: `target` ("reach 75%"), or without one, any gain
/// ("raise the occupancy": a new block size may hold more warps in as many
/// blocks).
std::string goal_words(std::optional<double> target);

/// One way to get there with one or two changes, as the text shows it.
struct together_row {
  const occcalc::knob_changes* changes = nullptr;
  /// The result in words ("6 blocks, 75.0%").
  std::string note;
};

/// Where no next step gets there alone: a heading over `rows`, the cheapest
/// first, or where there are none, that no change of `knobs` (the three in
/// words) does. `name_of` names a knob.
std::string together_text(const std::vector<together_row>& rows, const std::string& knobs, const std::string& goal,
                          const std::function<std::string(std::size_t)>& name_of, const terminal& term);

/// The `changes` array of a `together` item: each knob by `name_of`, from
/// and to.
void write_changes(json_writer& w, const occcalc::knob_changes& changes,
                   const std::function<std::string_view(std::size_t)>& name_of);

}  // namespace occcalc::cli
