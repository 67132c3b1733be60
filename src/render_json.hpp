// JSON output: results, errors and the table listing. The schema is
// schema/result.schema.json.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "occcalc/arch.hpp"
#include "query.hpp"

namespace occcalc::cli {

/// The result object of one query.
nlohmann::ordered_json result_json(const query& q);

/// `{"error": {"field": ..., "message": ...}}`; a null field when the error
/// is about the line as a whole.
nlohmann::ordered_json error_json(const std::string& field, const std::string& message);

/// An architecture with every limit the calculator uses, named as in the
/// tables.
nlohmann::ordered_json arch_json(const occcalc::nvidia_arch& arch);

/// A named GPU.
nlohmann::ordered_json gpu_json(const occcalc::gpu& g);

}  // namespace occcalc::cli
