// Text and JSON output of AMD results.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "analysis/amd_query.hpp"
#include "occcalc/nvidia/arch.hpp"

#include "render/terminal.hpp"

namespace occcalc::cli {

/// How the model counts `res` for `q`, in one line (the text breakdown's
/// note); for a limit of 0, also that no work-group fits (JSON `reasons`).
std::string amd_limit_reason(const amd_query& q, occcalc::amd_resource res);

/// The limiter breakdown of one AMD query, as text.
void render_amd_text(std::ostream& out, const amd_query& q, const terminal& term);
/// The same, under the name the NVIDIA breakdown has (for visitors).
inline void render_text(std::ostream& out, const amd_query& q, const terminal& term) { render_amd_text(out, q, term); }

/// The AMD targets and named AMD GPUs as tables.
void render_amd_target_list(std::ostream& out, const occcalc::table& tables, const terminal& term);
void render_amd_gpu_list(std::ostream& out, const occcalc::table& tables, const terminal& term);

}  // namespace occcalc::cli
