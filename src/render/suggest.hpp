// Output of `occcalc suggest`: text and JSON (schema/suggest.schema.json).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "analysis/suggestion.hpp"

#include "render/terminal.hpp"

namespace occcalc::cli {

std::string suggest_text(const nvidia_suggestion& s, const terminal& term);
std::string suggest_text(const amd_suggestion& s, const terminal& term);
std::string suggest_json(const nvidia_suggestion& s);
std::string suggest_json(const amd_suggestion& s);
std::string suggest_text(const amd_llvm_suggestion& s, const terminal& term);
std::string suggest_json(const amd_llvm_suggestion& s);

/// A row of changes made together: their names joined by " + ", each
/// "from -> to", and `note`; `name_of` names a knob.
std::string changes_row(const occcalc::knob_changes& changes, const std::function<std::string(std::size_t)>& name_of,
                        const std::string& note, const terminal& term);

}  // namespace occcalc::cli
