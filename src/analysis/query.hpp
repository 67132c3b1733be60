// An evaluated request of either vendor: what the query, batch and the
// renderers receive. The vendor is decided once, by occcalc::resolve_any.
#pragma once

#include <type_traits>
#include <variant>

#include "analysis/amd_query.hpp"
#include "analysis/nvidia_query.hpp"
#include "occcalc/request/resolve.hpp"

namespace occcalc::cli {

using evaluated = std::variant<query, amd_query>;

/// Resolves `req` and computes its occupancy with its vendor's model; throws
/// `occcalc::input_error` for bad input.
inline evaluated evaluate_any(const occcalc::table& tables, const occcalc::request& req,
                              occcalc::family_grid on_family_grid = occcalc::family_grid::refuse) {
  return std::visit(
      [&](auto&& resolved) -> evaluated {
        using resolution = std::decay_t<decltype(resolved)>;
        if constexpr (std::is_same_v<resolution, occcalc::resolved_request>) {
          return evaluate(std::move(resolved));
        } else {
          return evaluate_amd(std::move(resolved));
        }
      },
      occcalc::resolve_any(tables, req, on_family_grid));
}

/// Occupancy in [0, 1] of either vendor's result.
inline double occupancy_of(const evaluated& e) {
  return std::visit([](const auto& q) { return q.result.occupancy(); }, e);
}

}  // namespace occcalc::cli
