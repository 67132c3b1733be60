// An evaluated request of either vendor: what the query, batch and the
// renderers receive. The vendor is decided once, by occcalc::resolve_any.
#pragma once

#include <string>
#include <type_traits>
#include <variant>

#include "analysis/amd_query.hpp"
#include "analysis/nvidia_query.hpp"
#include "occcalc/request/resolve.hpp"

namespace occcalc::cli {

using evaluated = std::variant<query, amd_query>;

/// Resolves `req` and computes its occupancy with its vendor's model; throws
/// `occcalc::input_error` for bad input.
inline evaluated evaluate_any(const occcalc::table& tables, const occcalc::request& req) {
  return std::visit(
      [&](auto&& resolved) -> evaluated {
        using resolution = std::decay_t<decltype(resolved)>;
        if constexpr (std::is_same_v<resolution, occcalc::resolved_request>) {
          return evaluate(std::move(resolved));
        } else {
          return evaluate_amd(std::move(resolved));
        }
      },
      occcalc::resolve_any(tables, req));
}

/// What the occupancy a gate judges is of, after its figure: ` in clusters
/// of 16 blocks`; empty outside clusters.
inline std::string launch_words(const evaluated& e) {
  const query* q = std::get_if<query>(&e);
  if (!q || !runs_in_clusters(*q)) return {};
  return " in clusters of " + std::to_string(q->request.cluster->blocks()) + " blocks";
}

/// The occupancy a gate judges, in [0, 1], of either vendor's result
/// (`launch_occupancy`: in clusters, what a cluster launch keeps).
inline double occupancy_of(const evaluated& e) {
  return std::visit([](const auto& q) { return launch_occupancy(q); }, e);
}

}  // namespace occcalc::cli
