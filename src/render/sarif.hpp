// SARIF 2.1.0 logs for code scanning, shared by check and diff.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace occcalc::cli {

/// A path as a SARIF artifact URI (RFC 3986): relative paths stay relative
/// (code scanning resolves them against the checkout), absolute ones become
/// `file://` URIs; every byte outside the unreserved set and `/` is
/// percent-encoded.
std::string artifact_uri(std::string_view path);

/// A one-run log of occcalc's `rules` and `results`, with the invocation's
/// success and `properties`, printed with two-space indents.
std::string sarif_log(nlohmann::ordered_json rules, nlohmann::ordered_json results, bool execution_successful,
                      nlohmann::ordered_json properties);

}  // namespace occcalc::cli
