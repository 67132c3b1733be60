// Thread block clusters of a query, in text and JSON (docs/clusters.md).
#pragma once

#include <string>

#include "analysis/nvidia_query.hpp"
#include "render/json_writer.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

/// The cluster section of a query's text; empty without a cluster.
std::string cluster_text(const query& q, const terminal& term);

/// The `cluster` member of a query's JSON: null without a cluster.
void write_cluster(json_writer& w, const query& q);

}  // namespace occcalc::cli
