// The one-line answer (`--brief`), for quick looks and shell loops: the
// architecture (and GPU), the occupancy, groups and warps per unit, the
// limiters. The same words for either vendor, from the summary.
#pragma once

#include <string>
#include <string_view>

#include "analysis/amd_query.hpp"
#include "analysis/nvidia_query.hpp"
#include "occcalc/common/summary.hpp"

namespace occcalc::cli {

/// `sm_70: 75.0%, 12 blocks and 48 of 64 warps per SM, limited by registers`
/// (`target` names what was asked: `sm_70`, `GeForce RTX 4090 (sm_89)`),
/// ended by a newline.
std::string brief_text(std::string_view target, const occcalc::occupancy_summary& s);

/// The brief answer of a query: `brief_text` of its result, with, for a
/// cluster launch, what it keeps per SM and the clusters that run at once.
std::string brief_line(const query& q);
std::string brief_line(const amd_query& q);

/// What a brief answer names: the architecture, after the GPU or family
/// asked for (`GeForce RTX 4090 (sm_89)`).
std::string brief_target(const query& q);
std::string brief_target(const amd_query& q);

}  // namespace occcalc::cli
