// JSON output: results, errors and the table listing. The schema is
// schema/result.schema.json.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>

#include "analysis/amd_query.hpp"
#include "analysis/nvidia_query.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "render/json_string.hpp"
#include "render/json_writer.hpp"

namespace occcalc::cli {

/// Writes result objects (schema/result.schema.json) with the JSON writer:
/// compact, one per line in a batch or an inspect record, naming the
/// architecture and GPU (`arch`, `gpu`); or pretty for a single --json
/// query, whose one document also holds their table entries (`architecture`,
/// `device`: what `occcalc list --json` gives for every one).
class result_writer {
 public:
  /// Appends the compact result object of `q` (no newline) to `out`;
  /// `id_json`, when not empty, is a batch line's `id` (already JSON)
  /// echoed after the version, and `gate` (`passed`, `failed`) the verdict
  /// of batch's --min-occupancy on it.
  void append(std::string& out, const query& q, std::string_view id_json = {}, std::string_view gate = {});
  /// The same for an AMD query (the amdResult object).
  void append(std::string& out, const amd_query& q, std::string_view id_json = {}, std::string_view gate = {});
  /// The result object of `q` through `w`, in its style.
  void write(json_writer& w, const query& q, std::string_view id_json = {}, std::string_view gate = {});
  void write(json_writer& w, const amd_query& q, std::string_view id_json = {}, std::string_view gate = {});

 private:
  /// `arch`, `gpu` (the name) and, in a pretty document, their table
  /// entries `architecture` and `device`: the same keys for either vendor.
  template <typename Arch, typename Gpu>
  void write_identity(json_writer& w, const Arch& arch, const Gpu* gpu, const query* family = nullptr);
};

/// What an inspect record says of a kernel's occupancy: the result's counts
/// (model, unit, blocks, warps, occupancy) and its limits, limiters and
/// reasons, without what the record already holds (the input, the target)
/// and what only a query asks for (waves, allocation).
void write_occupancy(json_writer& w, const query& q);
void write_occupancy(json_writer& w, const amd_query& q);

/// The result object of one query as JSON text in `style`.
std::string result_text(const query& q, json_writer::style style);
std::string result_text(const amd_query& q, json_writer::style style);

/// `{"schema_version": 1, "id": ..., "error": {"field": ..., "message": ...}}`
/// in compact style: a null field when the error is about the line as a
/// whole; `id` (already JSON) only when not empty.
std::string error_text(std::string_view field, std::string_view message, std::string_view id_json = {});

}  // namespace occcalc::cli
