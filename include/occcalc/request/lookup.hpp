/// \file request/lookup.hpp
/// Finding architectures and named GPUs in a loaded table, with "did you
/// mean" suggestions for names that match nothing.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "occcalc/error.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/request/gpu_name_index.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/request/target.hpp"
#include "occcalc/tables/gpu_names.hpp"
#include "occcalc/tables/tables.hpp"

namespace occcalc {

namespace detail {

/// Whether `id` is `wanted`, testing the last byte first: the ids of a table
/// share their first bytes and often their size (`gfx906`, `gfx90a`), so a
/// search through them mostly stops at that byte, without a memcmp.
inline bool same_id(std::string_view id, std::string_view wanted) noexcept {
  return id.size() == wanted.size() && (id.empty() || id.back() == wanted.back()) && id == wanted;
}

/// Lower-case words separated by single spaces; punctuation separates words.
inline std::string normalize_name(std::string_view name) {
  std::string out;
  bool pending_space = false;
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      if (pending_space && !out.empty()) out += ' ';
      pending_space = false;
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      pending_space = true;
    }
  }
  return out;
}

inline std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

}  // namespace detail

/// The candidates closest to `query` by edit distance (case and punctuation
/// ignored), best first; at most `limit`, and only reasonably close ones.
inline std::vector<std::string> closest_names(std::string_view query, const std::vector<std::string>& candidates,
                                              std::size_t limit = 3) {
  const std::string wanted = detail::normalize_name(query);
  // (distance, letters in common at the start, as negative, name).
  std::vector<std::tuple<std::size_t, std::ptrdiff_t, std::string>> scored;
  for (const auto& candidate : candidates) {
    // Compare with the name and with its trailing words ("RTX 4090" for
    // "GeForce RTX 4090"), keeping the closest.
    const std::string full = detail::normalize_name(candidate);
    // A typo: two edits, or up to a third of the longer name. A name whose
    // length alone is further off is not compared, so a long query costs
    // time linear in its length.
    const auto tolerance = [&](std::string_view name) {
      return std::max<std::size_t>(2, std::max(wanted.size(), name.size()) / 3);
    };
    const auto within_reach = [&](std::string_view name) {
      const std::size_t gap = wanted.size() > name.size() ? wanted.size() - name.size() : name.size() - wanted.size();
      return gap <= tolerance(name);
    };
    std::string_view name = full;
    std::size_t distance = within_reach(full) ? detail::edit_distance(wanted, full) : SIZE_MAX;
    for (std::size_t space = full.find(' '); space != std::string::npos; space = full.find(' ', space + 1)) {
      const std::string_view tail = std::string_view(full).substr(space + 1);
      if (!within_reach(tail)) continue;
      const std::size_t tail_distance = detail::edit_distance(wanted, tail);
      if (tail_distance < distance) {
        distance = tail_distance;
        name = tail;
      }
    }
    if (distance == SIZE_MAX || distance > tolerance(name)) continue;
    // Ties go to the name that starts like the query ("RTX 4090" before
    // "RTX 6000" for "RTX 4900").
    const auto common = std::mismatch(wanted.begin(), wanted.end(), name.begin(), name.end()).first - wanted.begin();
    scored.emplace_back(distance, -common, candidate);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < limit; ++i) out.push_back(std::get<2>(scored[i]));
  return out;
}

/// The architecture with this compute capability, or nullptr.
inline const nvidia_arch* find_arch(const table& tables, compute_capability cc) noexcept {
  for (const auto& arch : tables.architectures) {
    if (arch.cc_major == cc.major && arch.cc_minor == cc.minor) return &arch;
  }
  return nullptr;
}

/// The architecture with this id (`sm_70`), or nullptr.
inline const nvidia_arch* find_arch_by_id(const table& tables, std::string_view id) noexcept {
  for (const auto& arch : tables.architectures) {
    if (detail::same_id(arch.id, id)) return &arch;
  }
  return nullptr;
}

/// Where the clusters of this GPU run (data/nvidia-cluster-layouts.json), or
/// nullptr when the table has no layout for it.
inline const cluster_layout* find_cluster_layout(const table& tables, const gpu& g) noexcept {
  for (const auto& layout : tables.cluster_layouts) {
    if (std::find(layout.gpu_ids.begin(), layout.gpu_ids.end(), g.id) != layout.gpu_ids.end()) return &layout;
  }
  return nullptr;
}

/// The AMD target with this id (`gfx90a`), or nullptr.
inline const amd_target* find_amd_target(const table& tables, std::string_view id) noexcept {
  for (const auto& t : tables.amd_targets) {
    if (detail::same_id(t.id, id)) return &t;
  }
  // LLVM's other names for a processor (`fiji` for gfx803), after every id.
  for (const auto& t : tables.amd_targets) {
    for (const auto& alias : t.aliases) {
      if (detail::same_id(alias, id)) return &t;
    }
  }
  return nullptr;
}

/// The table's word on a compute capability it does not answer for, or
/// nullptr.
inline const unlisted_arch* find_unlisted_arch(const table& tables, compute_capability cc) noexcept {
  for (const auto& u : tables.unlisted_architectures) {
    if (u.cc_major == cc.major && u.cc_minor == cc.minor) return &u;
  }
  return nullptr;
}

/// Why `cc` is not in the table, as a message: the table's reason where it
/// has one.
inline std::string missing_arch_message(const table& tables, compute_capability cc) {
  std::string out = "compute capability " + std::to_string(cc.major) + "." + std::to_string(cc.minor) +
                    " is not in the architecture table";
  if (const unlisted_arch* u = find_unlisted_arch(tables, cc)) out += ": " + u->reason;
  return out;
}

/// The architecture a compute capability names; throws `input_error` for
/// `field` listing the supported ones when there is none.
inline const nvidia_arch& require_arch(const table& tables, const std::string& field, std::string_view text) {
  const compute_capability cc = parse_compute_capability(field, text);
  if (const nvidia_arch* arch = find_arch(tables, cc)) return *arch;
  if (find_unlisted_arch(tables, cc) != nullptr) {
    throw input_error(field, detail::quoted(detail::trim(text)) + ": " + missing_arch_message(tables, cc));
  }
  std::vector<std::string> supported;
  for (const auto& arch : tables.architectures) supported.push_back(arch.compute_capability());
  throw input_error(field, detail::quoted(detail::trim(text)) +
                               " is not a supported compute capability; supported: " + detail::join(supported, ", "));
}

/// The most candidates an unknown GPU name's error lists.
inline constexpr std::size_t max_gpu_candidates = 5;

/// Whether `candidate` (an NVIDIA or AMD GPU) answers to the typed name whose
/// key is `wanted`.
template <typename Gpu>
bool answers_to(const Gpu& candidate, const std::string& wanted) {
  if (gpu_name_key_is(candidate.name, wanted) || gpu_name_key_is(candidate.id, wanted)) return true;
  return std::any_of(candidate.aliases.begin(), candidate.aliases.end(),
                     [&](const std::string& alias) { return gpu_name_key_is(alias, wanted); });
}

/// Whether `candidate`'s name, id or an alias is a variant of the family
/// whose words are `family` (`is_family_variant`).
template <typename Gpu>
bool in_family(const Gpu& candidate, const std::vector<std::string>& family) {
  if (is_family_variant_name(family, candidate.name) || is_family_variant_name(family, candidate.id)) return true;
  return std::any_of(candidate.aliases.begin(), candidate.aliases.end(),
                     [&](const std::string& alias) { return is_family_variant_name(family, alias); });
}

/// The GPU `query` names, NVIDIA or AMD: the product it names exactly, else
/// the family it names (a family of one variant is that product); nothing
/// found when none, or when families of both vendors answer. Never throws:
/// for questions such as "are the AMD tables needed?" (`require_named_gpu`
/// explains a miss). Through the table's index of names where it has one.
inline named_gpu_match find_named_gpu(const table& tables, std::string_view query) {
  if (const gpu_name_index* index = tables.gpu_names.get()) return index->find(query);
  // The first GPU, NVIDIA's first, that `answers` (a predicate over either
  // vendor's entry).
  const auto first = [&](const auto& answers) {
    named_gpu_match found;
    for (const auto& candidate : tables.gpus) {
      if (answers(candidate)) {
        found.nvidia = &candidate;
        return found;
      }
    }
    for (const auto& candidate : tables.amd_gpus) {
      if (answers(candidate)) {
        found.amd = &candidate;
        return found;
      }
    }
    return found;
  };
  // An id as the table spells it, without normalizing every name; then a
  // name, id or alias by its key.
  if (named_gpu_match by_id = first([&](const auto& c) { return detail::same_id(c.id, query); }); by_id.found())
    return by_id;
  const std::string wanted = gpu_name_key(query);
  if (named_gpu_match by_name = first([&](const auto& c) { return answers_to(c, wanted); }); by_name.found())
    return by_name;
  named_gpu_match match;
  const std::vector<std::string> family = gpu_name_words(query);
  for (const auto& candidate : tables.gpus) {
    if (in_family(candidate, family)) match.nvidia_family.push_back(&candidate);
  }
  for (const auto& candidate : tables.amd_gpus) {
    if (in_family(candidate, family)) match.amd_family.push_back(&candidate);
  }
  return detail::settle_family(std::move(match));
}

/// The GPU `query` names, NVIDIA or AMD: the one entry whose name, id or an
/// alias has the same key (`gpu_name_key`: case, spaces, punctuation and
/// brand words ignored). Never a partial match: anything else throws
/// `input_error` for `field` with the closest candidates, names that contain
/// what was typed first ("RTX 4060 Ti" for "RTX 4060"), then near misses.
inline named_gpu_match require_named_gpu(const table& tables, const std::string& field, std::string_view query) {
  // The loader lets no two GPUs answer to one typed name: a match is unique.
  if (named_gpu_match match = find_named_gpu(tables, query); match.found()) return match;
  const std::string wanted = gpu_name_key(query);
  // Candidates: (rank, key length, name); rank 0 = the key starts with what
  // was typed, 1 = contains it.
  std::vector<std::tuple<int, std::size_t, std::string>> containing;
  std::vector<std::string> all_names;
  const auto consider = [&](const auto& candidate) {
    all_names.push_back(candidate.name);
    if (wanted.empty()) return;
    const std::string key = gpu_name_key(candidate.name);
    const std::size_t at = key.find(wanted);
    if (at != std::string::npos) containing.emplace_back(at == 0 ? 0 : 1, key.size(), candidate.name);
  };
  for (const auto& candidate : tables.gpus) consider(candidate);
  for (const auto& candidate : tables.amd_gpus) consider(candidate);
  std::stable_sort(containing.begin(), containing.end());
  std::vector<std::string> suggestions;
  for (const auto& item : containing) {
    if (suggestions.size() < max_gpu_candidates) suggestions.push_back(std::get<2>(item));
  }
  // Near misses only when nothing contains the query; closest_names skips
  // names out of reach by length, so a huge query costs linear time.
  if (suggestions.empty()) suggestions = closest_names(query, all_names, max_gpu_candidates);
  std::string message = detail::quoted(detail::trim(query)) + " is not a known GPU";
  if (!suggestions.empty()) message += "; did you mean " + detail::join(suggestions, ", ") + "?";
  message += " (occcalc list gpus shows them all; " + field_ref("sm_count") + " gives waves for any GPU)";
  throw input_error(field, message);
}

/// `match`, what `require_named_gpu` found for `query`, as an NVIDIA GPU or
/// family (see `require_nvidia_gpu`).
inline named_gpu_match require_nvidia_match(named_gpu_match match, const std::string& field, std::string_view query) {
  if (match.is_amd())
    throw input_error(field, detail::quoted(detail::trim(query)) + " is an AMD GPU; this needs an NVIDIA one");
  const auto& family = match.nvidia_family;
  const bool one_arch =
      std::all_of(family.begin(), family.end(), [&](const gpu* g) { return g->arch_id == family.front()->arch_id; });
  if (!one_arch) {
    std::vector<std::string> named;
    for (const gpu* g : family) named.push_back(g->name + " (" + g->arch_id + ")");
    throw input_error(field, detail::quoted(detail::trim(query)) + " names GPUs of different architectures: " +
                                 detail::join(named, ", ") + "; give one of them");
  }
  return match;
}

/// The NVIDIA GPU or family `query` names (see `require_named_gpu`): the
/// product, or a family whose products share one architecture. An AMD GPU,
/// or a family of several architectures, is an error here.
inline named_gpu_match require_nvidia_gpu(const table& tables, const std::string& field, std::string_view query) {
  return require_nvidia_match(require_named_gpu(tables, field, query), field, query);
}

/// The NVIDIA GPU `query` names, one product (see `require_nvidia_gpu`): a
/// family is an error listing its products with their SM counts, for what
/// needs one device.
inline const gpu& require_gpu(const table& tables, const std::string& field, std::string_view query) {
  const named_gpu_match match = require_nvidia_gpu(tables, field, query);
  if (match.nvidia) return *match.nvidia;
  std::vector<std::string> named;
  for (const gpu* g : match.nvidia_family) named.push_back(g->name + " (" + std::to_string(g->sm_count) + " SMs)");
  throw input_error(field, detail::quoted(detail::trim(query)) + " names several GPUs: " + detail::join(named, ", ") +
                               "; give one of them, or " + field_ref("sm_count"));
}

/// The table's word on an LLVM processor it does not answer for
/// (`gfx1310`, any case), or nullptr.
inline const unlisted_amd_target* find_unlisted_amd_target(const table& tables, std::string_view id) {
  const std::string wanted = detail::normalize_name(id);
  for (const auto& u : tables.unlisted_amd_targets) {
    if (detail::normalize_name(u.id) == wanted) return &u;
  }
  return nullptr;
}

/// The AMD target `text` names (`gfx90a`, `GFX1100`, `cypress`, or a target
/// ID such as `gfx90a:xnack+`, whose features leave the limits alone); throws
/// `input_error` for `field` with the table's reason for an unlisted one, or
/// the closest names when there is none.
inline const amd_target& require_amd_target(const table& tables, const std::string& field, std::string_view text) {
  if (const amd_target* t = find_amd_target(tables, text)) return *t;  // without normalizing every id
  if (text.find(':') != std::string_view::npos) {
    const gpu_target id = parse_gpu_target(detail::lower(detail::trim(text)));
    if (id.vendor == gpu_vendor::amd) {
      if (const amd_target* t = find_amd_target(tables, id.processor())) return *t;
    }
  }
  const std::string wanted = detail::normalize_name(text);
  std::vector<std::string> names;
  for (const auto& t : tables.amd_targets) {
    if (detail::normalize_name(t.id) == wanted) return t;
    names.push_back(t.id);
  }
  if (const unlisted_amd_target* u = find_unlisted_amd_target(tables, text)) {
    throw input_error(field, detail::quoted(detail::trim(text)) + " is not in the AMD target table: " + u->reason);
  }
  const auto suggestions = closest_names(text, names);
  std::string message = detail::quoted(detail::trim(text)) + " is not a known AMD target";
  if (!suggestions.empty()) message += "; did you mean " + detail::join(suggestions, ", ") + "?";
  message += " (occcalc list amd shows them all)";
  throw input_error(field, message);
}

}  // namespace occcalc
