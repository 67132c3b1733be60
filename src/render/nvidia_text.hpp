// Human-readable output: the limiter breakdown and the table listing.
#pragma once

#include <iosfwd>

#include "analysis/nvidia_query.hpp"
#include "occcalc/nvidia/arch.hpp"

#include "render/terminal.hpp"

namespace occcalc::cli {

/// Writes the breakdown of one query, in the spirit of the CUDA Occupancy
/// Calculator and Nsight Compute's Occupancy section.
void render_text(std::ostream& out, const query& q, const terminal& term);

/// Writes the supported architectures as a table.
void render_arch_list(std::ostream& out, const occcalc::table& tables, const terminal& term);

/// Writes the named GPUs as a table.
void render_gpu_list(std::ostream& out, const occcalc::table& tables, const terminal& term);

}  // namespace occcalc::cli
