#include "cli/tables.hpp"

#include "cli/compiled_tables.hpp"
#include "cli/embedded_tables.hpp"
#include "io/text_file.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/tables/load.hpp"

namespace occcalc::cli {

namespace {

/// Whether `req` gives a field only AMD requests have.
bool names_amd_field(const occcalc::request& req) {
  for (const auto& field : occcalc::request_fields) {
    if (field.vendor == occcalc::field_vendor::amd && req.*(field.member)) return true;
  }
  return false;
}

/// Whether a request without AMD fields may still be about an AMD GPU,
/// judged on the NVIDIA tables: it names a GPU their list does not hold.
bool may_need_amd_tables(const occcalc::table& nvidia, const occcalc::request& req) {
  if (req.cc || !req.gpu) return false;
  return occcalc::find_named_gpu(nvidia, req.gpu->text()).nvidia == nullptr;
}

}  // namespace

occcalc::table load_tables(const std::vector<std::string>& table_files, table_scope scope, table_extent extent) {
  if (table_files.empty()) {
    // Validated when occcalc was built: no JSON to parse.
    return scope == table_scope::all   ? compiled_tables(extent)
           : scope == table_scope::amd ? compiled_tables(table_vendor::amd, extent)
                                       : compiled_tables(table_vendor::nvidia, extent);
  }
  // A --table file may refer to the built-in entries and must not redefine
  // them: the loader sees them all together, with their origins.
  std::vector<occcalc::table_text> texts = scope == table_scope::all   ? embedded_tables()
                                           : scope == table_scope::amd ? embedded_tables(table_vendor::amd)
                                                                       : embedded_tables(table_vendor::nvidia);
  std::vector<std::string> contents;
  contents.reserve(table_files.size());
  for (const auto& path : table_files) contents.push_back(read_text_file(path, "table file"));
  for (std::size_t i = 0; i < contents.size(); ++i) texts.push_back({table_files[i], contents[i]});
  return occcalc::load_tables(texts);
}

occcalc::table load_tables_for(const std::vector<std::string>& table_files, const occcalc::request& request) {
  // A --table file may hold either vendor, and a --cc with AMD fields is an
  // error only the full tables phrase well.
  const bool amd = names_amd_field(request);
  // Only a GPU's name is looked up among the named GPUs.
  const table_extent extent = request.gpu ? table_extent::full : table_extent::architectures;
  if (!table_files.empty() || (amd && request.cc)) return load_tables(table_files, table_scope::all, extent);
  if (amd) return load_tables(table_files, table_scope::amd, extent);
  occcalc::table tables = load_tables(table_files, table_scope::nvidia, extent);
  if (may_need_amd_tables(tables, request)) return load_tables(table_files, table_scope::all);
  return tables;
}

}  // namespace occcalc::cli
