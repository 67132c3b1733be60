// Output of `occcalc suggest`: text and JSON (schema/suggest.schema.json).
#pragma once

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

}  // namespace occcalc::cli
