#include "render/sarif.hpp"

#include "occcalc/version.hpp"
#include "render/result_json.hpp"

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

std::string sarif_log(nlohmann::ordered_json rules, nlohmann::ordered_json results, bool execution_successful,
                      nlohmann::ordered_json properties) {
  nlohmann::ordered_json run;
  run["tool"] = {{"driver", {{"name", "occcalc"}, {"version", occcalc::version_string}, {"rules", std::move(rules)}}}};
  run["results"] = std::move(results);
  run["invocations"] = nlohmann::ordered_json::array(
      {{{"executionSuccessful", execution_successful}, {"properties", std::move(properties)}}});
  nlohmann::ordered_json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = nlohmann::ordered_json::array({std::move(run)});
  return json_text(log, 2) + "\n";
}

}  // namespace occcalc::cli
