/// \file request/resolve.hpp
/// The one place a request's vendor is decided: `resolve_any` returns the
/// NVIDIA or the AMD resolution, and everything downstream visits it, so a
/// new vendor makes the compiler list each place that must handle it.
#pragma once

#include <variant>

#include "occcalc/request/amd.hpp"
#include "occcalc/request/request.hpp"

namespace occcalc {

/// A request resolved for its vendor.
using resolved_any = std::variant<resolved_request, resolved_amd_request>;

/// Resolves `req` as an AMD request when it names a target, an AMD GPU or
/// only AMD fields, else as an NVIDIA one (`on_family_grid` as `resolve`
/// takes it). Throws `input_error`.
inline resolved_any resolve_any(const table& tables, const request& req,
                                family_grid on_family_grid = family_grid::refuse) {
  if (is_amd_request(tables, req)) return resolve_amd(tables, req);
  return resolve(tables, req, on_family_grid);
}

}  // namespace occcalc
