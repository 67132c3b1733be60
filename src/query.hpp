// One evaluated request: what the renderers print.
#pragma once

#include "occcalc/occupancy.hpp"
#include "occcalc/request.hpp"

namespace occcalc::cli {

/// A resolved request and its result.
struct query {
  occcalc::resolved_request request;
  occcalc::occupancy_result result;
};

/// Resolves `req` against `tables` and computes its occupancy; throws
/// `occcalc::input_error` for bad input.
inline query evaluate(const occcalc::table& tables, const occcalc::request& req) {
  query q{occcalc::resolve(tables, req), {}};
  q.result = occcalc::compute_occupancy(*q.request.arch, q.request.launch);
  return q;
}

/// Occupancy in percent, rounded to two decimals (what JSON and the gate
/// message show; the gate itself compares the exact value).
double occupancy_percent(const occcalc::occupancy_result& result);

}  // namespace occcalc::cli
