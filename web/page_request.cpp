#include "web/page_request.hpp"

#include <algorithm>
#include <cctype>

#include "occcalc/error.hpp"
#include "occcalc/nvidia/compute_capability.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/request/resolve.hpp"
#include "occcalc/tables/gpu_names.hpp"

namespace occcalc::web {

namespace {

using json = nlohmann::ordered_json;

json error_of(std::string_view field, const std::string& message) { return {{"field", field}, {"message", message}}; }

}  // namespace

page_request read_page_request(const occcalc::table& tables, const json& page) {
  page_request r;
  if (!page.is_object()) {
    r.error = error_of("", "a page request is a JSON object");
    return r;
  }
  const auto target = page.find(std::string(target_field));
  if (target == page.end() || !target->is_string() || occcalc::detail::trim(target->get<std::string>()).empty()) {
    r.error = error_of(target_field,
                       "give a GPU (H100, RTX 4090, MI300X), a compute capability (8.6, sm_90) or an AMD target "
                       "(gfx90a, gfx1100)");
    return r;
  }
  const std::string target_text(occcalc::detail::trim(target->get_ref<const std::string&>()));
  r.target_key = occcalc::target_key_of(tables, target_text);
  r.amd = r.target_key == "gfx" || (r.target_key == "gpu" && occcalc::find_named_gpu(tables, target_text).is_amd());
  for (const auto& [key, value] : page.items()) {
    if (key == target_field) continue;
    const occcalc::request_field* field = occcalc::find_request_field(key);
    if (field == nullptr || key == "cc" || key == "gpu" || key == "gfx") {
      r.error = error_of(key, "'" + key + "' is not a field of the page");
      return r;
    }
    if (field->kind == occcalc::field_kind::flag ? !value.is_boolean() : !value.is_string()) {
      r.error = error_of(
          key, "'" + key + (field->kind == occcalc::field_kind::flag ? "' takes true or false" : "' takes text"));
      return r;
    }
  }
  for (const auto& field : occcalc::request_fields) {
    if (field.key == r.target_key) {
      r.fields.emplace_back(std::string(field.key), target_text);
      continue;
    }
    const bool applies =
        field.vendor == occcalc::field_vendor::both || (field.vendor == occcalc::field_vendor::amd) == r.amd;
    const auto value = page.find(std::string(field.key));
    if (!applies || value == page.end()) continue;
    if (value->is_boolean()) {
      if (value->get<bool>()) r.fields.emplace_back(std::string(field.key), true);
    } else if (!occcalc::detail::trim(value->get<std::string>()).empty()) {
      r.fields.emplace_back(std::string(field.key), value->get<std::string>());
    }
  }
  return r;
}

json fields_json(const page_fields& fields) {
  json line = json::object();
  for (const auto& [key, value] : fields) {
    std::visit([&, k = key](const auto& v) { line[k] = v; }, value);
  }
  return line;
}

page_fields without(page_fields fields, std::initializer_list<std::string_view> keys) {
  fields.erase(
      std::remove_if(fields.begin(), fields.end(),
                     [&](const auto& f) { return std::find(keys.begin(), keys.end(), f.first) != keys.end(); }),
      fields.end());
  return fields;
}

std::string shell_quoted(std::string_view text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_.,:/+=@%-").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(text);
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string command_line(std::string_view subcommand, const page_fields& fields) {
  std::string line = "occcalc";
  if (!subcommand.empty()) line += " " + std::string(subcommand);
  for (const auto& [key, value] : fields) {
    line += " " + occcalc::flag_name(key);
    if (const auto* text = std::get_if<std::string>(&value)) line += " " + shell_quoted(*text);
  }
  return line;
}

std::string_view page_label(std::string_view key, bool amd) {
  struct label {
    std::string_view key, nvidia, amd;
  };
  // The labels of web/index.html, each key's box.
  static constexpr label labels[] = {
      {"target", "GPU or architecture", "GPU or architecture"},
      {"cc", "GPU or architecture", "GPU or architecture"},
      {"gpu", "GPU or architecture", "GPU or architecture"},
      {"gfx", "GPU or architecture", "GPU or architecture"},
      {"threads", "Threads per block", "Work-items per work-group"},
      {"regs", "Registers per thread", "Registers per thread"},
      {"smem", "Static shared memory", "Static shared memory"},
      {"dyn_smem", "Dynamic shared memory", "Dynamic shared memory"},
      {"carveout", "Carveout", "Carveout"},
      {"barriers", "Barriers", "Barriers"},
      {"vgprs", "VGPRs per work-item", "VGPRs per work-item"},
      {"agprs", "AGPRs", "AGPRs"},
      {"sgprs", "SGPRs per wave", "SGPRs per wave"},
      {"lds", "LDS per work-group", "LDS per work-group"},
      {"wave32", "Wave size", "Wave size"},
      {"wave64", "Wave size", "Wave size"},
      {"cu_mode", "RDNA mode", "RDNA mode"},
      {"wgp_mode", "RDNA mode", "RDNA mode"},
      {"model", "Model", "Model"},
      {"grid", "Grid", "Grid"},
      {"sm_count", "SMs", "CUs"},
      {"cluster", "Cluster", "Cluster"},
  };
  for (const auto& l : labels) {
    if (l.key == key) return amd ? l.amd : l.nvidia;
  }
  return key;
}

json log_fields(const inspect::kernel_resources& k, bool amd_remarks) {
  json fields = json::object();
  const auto put = [&](const char* key, const std::optional<std::int64_t>& figure) {
    if (figure) fields[key] = std::to_string(*figure);
  };
  if (k.arch.sm != 0) fields[std::string(target_field)] = k.arch.name;
  if (amd_remarks) {
    // A figure the remarks do not state as a number is cleared, not left as the last kernel's.
    const auto put_or_clear = [&](const char* key, const std::optional<std::int64_t>& figure) {
      fields[key] = figure ? std::to_string(*figure) : std::string();
    };
    put_or_clear("vgprs", k.arch_vgprs ? k.arch_vgprs : k.registers);
    put_or_clear("agprs", k.agprs);
    put_or_clear("sgprs", k.sgprs);
    put_or_clear("lds", k.static_shared_memory_bytes);
  } else {
    put("regs", k.registers);
    put("smem", k.static_shared_memory_bytes);
    put("barriers", k.barriers);
  }
  return fields;
}

std::vector<std::string> family_names(const occcalc::table& tables) {
  std::vector<std::string> families;
  const auto add = [&](const std::string& name) {
    // The name's words as spelled, brand words dropped, then its variant
    // words from the end.
    std::vector<std::string> words;
    std::string word;
    for (const char c : name + " ") {
      if (std::isalnum(static_cast<unsigned char>(c))) {
        word += c;
        continue;
      }
      const std::vector<std::string> lower = occcalc::gpu_name_words(word);
      if (!lower.empty()) words.push_back(word);
      word.clear();
    }
    bool stripped = false;
    while (words.size() > 1 && occcalc::is_variant_word(occcalc::gpu_name_words(words.back()).front())) {
      words.pop_back();
      stripped = true;
    }
    if (!stripped) return;
    std::string family;
    for (const auto& w : words) family += (family.empty() ? "" : " ") + w;
    if (std::find(families.begin(), families.end(), family) != families.end()) return;
    const occcalc::named_gpu_match match = occcalc::find_named_gpu(tables, family);
    if (match.nvidia_family.size() >= 2 || match.amd_family.size() >= 2) families.push_back(family);
  };
  for (const auto& g : tables.gpus) add(g.name);
  for (const auto& g : tables.amd_gpus) add(g.name);
  return families;
}

}  // namespace occcalc::web
