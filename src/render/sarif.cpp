#include "render/sarif.hpp"

#include "occcalc/version.hpp"

namespace occcalc::cli {

std::string artifact_uri(std::string_view path) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out = !path.empty() && path.front() == '/' ? "file://" : "";
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    const bool unreserved = (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') ||
                            (byte >= '0' && byte <= '9') || c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (unreserved) {
      out += c;
    } else {
      out += '%';
      out += hex[byte >> 4];
      out += hex[byte & 0xf];
    }
  }
  return out;
}

namespace {

/// `{"text": text}`, SARIF's message and description shape.
void write_text(json_writer& w, std::string_view key, std::string_view text) {
  w.key(key);
  w.begin_object();
  w.member("text", text);
  w.end_object();
}

}  // namespace

sarif_writer::sarif_writer(json_writer& w, const std::vector<sarif_rule>& rules) : w_(w) {
  w_.begin_object();
  w_.member("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  w_.member("version", "2.1.0");
  w_.key("runs");
  w_.begin_array();
  w_.begin_object();
  w_.key("tool");
  w_.begin_object();
  w_.key("driver");
  w_.begin_object();
  w_.member("name", "occcalc");
  w_.member("version", occcalc::version_string);
  w_.key("rules");
  w_.begin_array();
  for (const auto& rule : rules) {
    w_.begin_object();
    w_.member("id", rule.id);
    w_.member("name", rule.id);
    write_text(w_, "shortDescription", rule.description);
    if (rule.default_level) {
      w_.key("defaultConfiguration");
      w_.begin_object();
      w_.member("level", *rule.default_level);
      w_.end_object();
    }
    w_.end_object();
  }
  w_.end_array();
  w_.end_object();  // driver
  w_.end_object();  // tool
  w_.key("results");
  w_.begin_array();
}

void sarif_writer::result(const sarif_result& r) {
  w_.begin_object();
  w_.member("ruleId", r.rule_id);
  w_.member("ruleIndex", r.rule_index);
  w_.member("level", r.level);
  write_text(w_, "message", r.message);
  w_.key("locations");
  w_.begin_array();
  w_.begin_object();
  w_.key("physicalLocation");
  w_.begin_object();
  w_.key("artifactLocation");
  w_.begin_object();
  w_.member("uri", artifact_uri(r.file));
  w_.end_object();
  w_.end_object();
  w_.key("logicalLocations");
  w_.begin_array();
  w_.begin_object();
  w_.member("name", r.name);
  w_.member("fullyQualifiedName", r.fully_qualified_name);
  w_.member("kind", "function");
  w_.end_object();
  w_.end_array();
  w_.end_object();
  w_.end_array();
  w_.key("partialFingerprints");
  w_.begin_object();
  w_.member("occcalcKernel/v1", r.fingerprint);
  w_.end_object();
  if (r.suppressed_because) {
    w_.key("suppressions");
    w_.begin_array();
    w_.begin_object();
    w_.member("kind", "external");
    w_.member("justification", *r.suppressed_because);
    w_.end_object();
    w_.end_array();
  }
  w_.key("properties");
  w_.begin_object();
  for (const auto& [name, value] : r.properties) w_.member(name, value);
  w_.end_object();
  w_.end_object();
}

void sarif_writer::begin_invocation(bool execution_successful) {
  w_.end_array();  // results
  w_.key("invocations");
  w_.begin_array();
  w_.begin_object();
  w_.member("executionSuccessful", execution_successful);
  w_.key("properties");
  w_.begin_object();
}

void sarif_writer::end_invocation() {
  w_.end_object();  // properties
  w_.end_object();
  w_.end_array();   // invocations
  w_.end_object();  // run
  w_.end_array();   // runs
  w_.end_object();
}

}  // namespace occcalc::cli
