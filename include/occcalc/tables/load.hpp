/// \file tables/load.hpp
/// Loads the JSON tables of `data/` into a `table`. With the entry readers
/// (entry_reader.hpp, nvidia_entries.hpp, amd_entries.hpp), the only
/// headers that include nlohmann/json.
///
/// A table file is one object: `schema_version` (1), and any of `sources`,
/// `architectures` and `gpus`, each an array of entries with an explicit
/// `id`. The loader rejects malformed JSON, duplicate keys, unknown or
/// missing fields, values out of range, duplicate ids, inconsistent limits and
/// dangling references, naming the file, the entry and the field.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"
#include "occcalc/tables/amd_entries.hpp"
#include "occcalc/tables/gpu_names.hpp"
#include "occcalc/tables/json_input.hpp"
#include "occcalc/tables/nvidia_entries.hpp"
#include "occcalc/tables/tables.hpp"

namespace occcalc {

/// The table format version this loader reads.
inline constexpr std::int64_t table_schema_version = 1;

namespace detail {

/// Parses a table or policy file strictly (`parse_json_strictly`), naming
/// the file in the error.
inline nlohmann::json parse_strict(const table_text& text) {
  try {
    return parse_json_strictly(text.json);
  } catch (const table_error&) {
    throw;
  } catch (const error& e) {
    throw table_error(text.origin + ": " + e.what());
  }
}

/// Reads each entry of the array `key` with `read`, naming the entry by index
/// and id in errors.
template <typename Entry, typename Read>
std::vector<Entry> read_entries(entry_reader& top, const std::string& origin, std::string_view key, Read read) {
  std::vector<Entry> out;
  if (!top.has(key)) return out;
  const auto& items = top.array(key);
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::string where = origin + ": " + std::string(key) + "[" + std::to_string(i) + "]";
    if (items[i].is_object() && items[i].contains("id") && items[i]["id"].is_string()) {
      where += " (" + items[i]["id"].get<std::string>() + ")";
    }
    entry_reader reader(items[i], where);
    out.push_back(read(reader));
  }
  return out;
}

/// Appends `more` to `into`, refusing an id already there; `index` maps each
/// id to its position, so loading stays linear in the entries.
template <typename Entry>
void append_unique(std::vector<Entry>& into, std::vector<std::string>& origins,
                   std::unordered_map<std::string, std::size_t>& index, std::vector<Entry>&& more,
                   const std::string& origin, std::string_view kind) {
  for (auto& entry : more) {
    const auto [at, inserted] = index.try_emplace(entry.id, into.size());
    if (!inserted) {
      throw table_error(origin + ": " + std::string(kind) + " '" + entry.id + "' is already defined in " +
                        origins[at->second]);
    }
    into.push_back(std::move(entry));
    origins.push_back(origin);
  }
}

/// Whether the file `later` comes after the file `earlier` in `texts`.
inline bool loaded_after(const std::vector<table_text>& texts, const std::string& later, const std::string& earlier) {
  std::size_t later_at = 0, earlier_at = 0;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (texts[i].origin == later) later_at = i;
    if (texts[i].origin == earlier) earlier_at = i;
  }
  return later_at > earlier_at;
}

}  // namespace detail

/// Loads table files in order into one table. Ids must be unique across all
/// of them; a later file may refer to sources and architectures of an earlier
/// one, and give the figures of an architecture an earlier one lists as
/// unlisted. Throws `table_error` naming the file, entry and field of the first
/// problem.
inline table load_tables(const std::vector<table_text>& texts) {
  table out;
  std::vector<std::string> source_origins, arch_origins, unlisted_origins, gpu_origins, amd_origins, amd_gpu_origins,
      layout_origins, unlisted_amd_origins;
  std::unordered_map<std::string, std::size_t> source_ids, arch_ids, unlisted_ids, gpu_ids, amd_ids, amd_gpu_ids,
      layout_ids, unlisted_amd_ids;
  for (const auto& text : texts) {
    const nlohmann::json document = detail::parse_strict(text);
    detail::entry_reader top(document, text.origin);
    top.integer("schema_version", {table_schema_version, table_schema_version});
    auto sources = detail::read_entries<source>(top, text.origin, "sources", detail::read_source);
    auto archs = detail::read_entries<nvidia_arch>(top, text.origin, "architectures", detail::read_arch);
    auto unlisted =
        detail::read_entries<unlisted_arch>(top, text.origin, "unlisted_architectures", detail::read_unlisted_arch);
    auto gpus = detail::read_entries<gpu>(top, text.origin, "gpus", detail::read_gpu);
    auto amd = detail::read_entries<amd_target>(top, text.origin, "amd_targets", detail::read_amd_target);
    auto amd_gpus = detail::read_entries<amd_gpu>(top, text.origin, "amd_gpus", detail::read_amd_gpu);
    auto unlisted_amd = detail::read_entries<unlisted_amd_target>(top, text.origin, "unlisted_amd_targets",
                                                                  detail::read_unlisted_amd_target);
    auto layouts =
        detail::read_entries<cluster_layout>(top, text.origin, "cluster_layouts", detail::read_cluster_layout);
    top.finish();
    detail::append_unique(out.amd_gpus, amd_gpu_origins, amd_gpu_ids, std::move(amd_gpus), text.origin, "AMD GPU");
    detail::append_unique(out.amd_targets, amd_origins, amd_ids, std::move(amd), text.origin, "AMD target");
    detail::append_unique(out.unlisted_amd_targets, unlisted_amd_origins, unlisted_amd_ids, std::move(unlisted_amd),
                          text.origin, "unlisted AMD target");
    detail::append_unique(out.sources, source_origins, source_ids, std::move(sources), text.origin, "source");
    detail::append_unique(out.architectures, arch_origins, arch_ids, std::move(archs), text.origin, "architecture");
    detail::append_unique(out.unlisted_architectures, unlisted_origins, unlisted_ids, std::move(unlisted), text.origin,
                          "unlisted architecture");
    detail::append_unique(out.gpus, gpu_origins, gpu_ids, std::move(gpus), text.origin, "gpu");
    detail::append_unique(out.cluster_layouts, layout_origins, layout_ids, std::move(layouts), text.origin,
                          "cluster layout");
  }
  const auto check_sources = [&](const std::vector<std::string>& ids, const std::string& where) {
    for (const auto& id : ids) {
      if (source_ids.count(id) == 0) {
        throw table_error(where + ": field 'sources': " + detail::quoted(id) + " is not a known source id");
      }
    }
  };
  for (std::size_t i = 0; i < out.architectures.size(); ++i) {
    check_sources(out.architectures[i].sources, arch_origins[i] + ": architecture '" + out.architectures[i].id + "'");
  }
  // An entry a later file gives figures for (a day-one table, tools/day-one;
  // a user's AMD target) takes the place of an unlisted one; in the same
  // file, or an earlier one, the two contradict each other.
  const auto settle_unlisted = [&](auto& unlisted, const std::vector<std::string>& origins, const std::string& kind,
                                   const std::unordered_map<std::string, std::size_t>& listed_ids,
                                   const std::vector<std::string>& listed_origins, const std::string& listed) {
    std::decay_t<decltype(unlisted)> kept;
    for (std::size_t i = 0; i < unlisted.size(); ++i) {
      auto& u = unlisted[i];
      const std::string where = origins[i] + ": " + kind + " '" + u.id + "'";
      check_sources(u.sources, where);
      const auto found = listed_ids.find(u.id);
      if (found == listed_ids.end()) {
        kept.push_back(std::move(u));
      } else if (!detail::loaded_after(texts, listed_origins[found->second], origins[i])) {
        throw table_error(where + ": is also in " + listed);
      }
    }
    unlisted = std::move(kept);
  };
  settle_unlisted(out.unlisted_architectures, unlisted_origins, "unlisted architecture", arch_ids, arch_origins,
                  "architectures");
  settle_unlisted(out.unlisted_amd_targets, unlisted_amd_origins, "unlisted AMD target", amd_ids, amd_origins,
                  "amd_targets");
  for (std::size_t i = 0; i < out.amd_targets.size(); ++i) {
    const auto& t = out.amd_targets[i];
    const std::string where = amd_origins[i] + ": AMD target '" + t.id + "'";
    check_sources(t.sources, where);
    for (const auto& member : t.members) {
      if (amd_ids.count(member) == 0 || is_generic_gfx_name(member)) {
        throw table_error(where + ": field 'members': " + detail::quoted(member) + " is not a known AMD processor id");
      }
    }
    for (const auto& alias : t.aliases) {
      if (amd_ids.count(alias) != 0) {
        throw table_error(where + ": field 'aliases': " + detail::quoted(alias) + " is an AMD target's id");
      }
    }
  }
  for (std::size_t i = 0; i < out.amd_gpus.size(); ++i) {
    const auto& g = out.amd_gpus[i];
    const std::string where = amd_gpu_origins[i] + ": AMD GPU '" + g.id + "'";
    check_sources(g.sources, where);
    if (amd_ids.count(g.target_id) == 0) {
      throw table_error(where + ": field 'target': " + detail::quoted(g.target_id) + " is not a known AMD target id");
    }
  }
  for (std::size_t i = 0; i < out.gpus.size(); ++i) {
    const auto& g = out.gpus[i];
    const std::string where = gpu_origins[i] + ": gpu '" + g.id + "'";
    check_sources(g.sources, where);
    if (arch_ids.count(g.arch_id) == 0) {
      throw table_error(where + ": field 'arch': " + detail::quoted(g.arch_id) + " is not a known architecture id");
    }
  }
  std::unordered_map<std::string, std::string> laid_out;  // gpu id -> its layout's id
  for (std::size_t i = 0; i < out.cluster_layouts.size(); ++i) {
    const auto& layout = out.cluster_layouts[i];
    const std::string where = layout_origins[i] + ": cluster layout '" + layout.id + "'";
    check_sources(layout.sources, where);
    for (const auto& id : layout.gpu_ids) {
      const auto at = gpu_ids.find(id);
      if (at == gpu_ids.end()) {
        throw table_error(where + ": field 'gpus': " + detail::quoted(id) + " is not a known gpu id");
      }
      const auto& g = out.gpus[at->second];
      const auto& arch = out.architectures[arch_ids.at(g.arch_id)];  // checked above
      if (!arch.max_cluster_size_portable) {
        throw table_error(where + ": field 'gpus': " + detail::quoted(id) + " is an " + arch.id +
                          " GPU, which has no clusters");
      }
      if (const std::string why = detail::cluster_layout_mismatch(layout, g.sm_count); !why.empty()) {
        throw table_error(where + ": does not fit gpu " + detail::quoted(id) + ": " + why);
      }
      if (const auto [other, inserted] = laid_out.try_emplace(id, layout.id); !inserted) {
        throw table_error(where + ": field 'gpus': " + detail::quoted(id) + " also has cluster layout '" +
                          other->second + "'");
      }
    }
  }
  // Every name, id and alias must pick one GPU: two entries answering to the
  // same typed name would make the lookup guess.
  std::unordered_map<std::string, std::string> name_keys;  // key -> "origin: gpu 'id'"
  const auto claim = [&](const std::string& name, const std::string& where) {
    const std::string key = gpu_name_key(name);
    if (key.empty()) throw table_error(where + ": the name " + detail::quoted(name) + " has no letters or digits");
    const auto [at, inserted] = name_keys.try_emplace(key, where);
    if (!inserted && at->second != where) {
      throw table_error(where + ": the name " + detail::quoted(name) + " also names " + at->second +
                        " (brand words, case, spaces and punctuation ignored)");
    }
  };
  const auto claim_names = [&](const auto& gpus, const std::vector<std::string>& origins, std::string_view kind) {
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      const auto& g = gpus[i];
      const std::string where = origins[i] + ": " + std::string(kind) + " '" + g.id + "'";
      for (const auto* name : {&g.id, &g.name}) claim(*name, where);
      for (const auto& alias : g.aliases) claim(alias, where);
    }
  };
  claim_names(out.gpus, gpu_origins, "gpu");
  claim_names(out.amd_gpus, amd_gpu_origins, "AMD GPU");
  std::stable_sort(out.architectures.begin(), out.architectures.end(), [](const auto& a, const auto& b) {
    return std::pair(a.cc_major, a.cc_minor) < std::pair(b.cc_major, b.cc_minor);
  });
  return out;
}

}  // namespace occcalc
