// SARIF 2.1.0 logs for code scanning, shared by check and diff, written as
// they go: a report on a whole library holds a result for every kernel.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "render/json_writer.hpp"

namespace occcalc::cli {

/// A path as a SARIF artifact URI (RFC 3986): relative paths stay relative
/// (code scanning resolves them against the checkout), absolute ones become
/// `file://` URIs; every byte outside the unreserved set and `/` is
/// percent-encoded.
std::string artifact_uri(std::string_view path);

/// One of the tool's rules.
struct sarif_rule {
  std::string_view id;
  std::string_view description;
  /// The level its results take unless they say otherwise; none written
  /// when empty.
  std::optional<std::string_view> default_level;
};

/// One finding about one kernel of one file.
struct sarif_result {
  std::string_view rule_id;
  std::int64_t rule_index = -1;
  std::string_view level;
  std::string message;
  std::string_view file;
  /// The kernel's readable and mangled names.
  std::string_view name;
  std::string_view fully_qualified_name;
  /// What code scanning tells results apart by.
  std::string fingerprint;
  /// Set when the finding is allowed (an external suppression), with why.
  std::optional<std::string_view> suppressed_because;
  std::array<std::pair<std::string_view, std::string_view>, 4> properties;
};

/// A one-run log of occcalc's rules and results, through `w` (a
/// `pretty_document`'s): the head is written on construction, each result as
/// it comes, and the invocation by `finish`.
class sarif_writer {
 public:
  sarif_writer(json_writer& w, const std::vector<sarif_rule>& rules);
  void result(const sarif_result& r);
  /// Closes the results and writes the invocation: its success, and its
  /// properties' members, which `properties(json_writer&)` writes.
  template <typename Properties>
  void finish(bool execution_successful, Properties&& properties) {
    begin_invocation(execution_successful);
    properties(w_);
    end_invocation();
  }

 private:
  void begin_invocation(bool execution_successful);
  void end_invocation();

  json_writer& w_;
};

}  // namespace occcalc::cli
