/// \file request/gpu_name_index.hpp
/// What a typed GPU name names (`named_gpu_match`), and an index of every
/// name a table's GPUs answer to, which finds it in a few hash lookups
/// (`find_named_gpu`, request/lookup.hpp, uses it where a table holds one).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "occcalc/tables/gpu_names.hpp"
#include "occcalc/tables/tables.hpp"

namespace occcalc {

/// What a typed GPU name names: one product of either vendor (one pointer
/// set), or a family of products (`H100`: its variants, two or more, all of
/// one vendor), or nothing.
struct named_gpu_match {
  const gpu* nvidia = nullptr;
  const amd_gpu* amd = nullptr;
  std::vector<const gpu*> nvidia_family;
  std::vector<const amd_gpu*> amd_family;

  bool found() const noexcept { return nvidia || amd || !nvidia_family.empty() || !amd_family.empty(); }
  bool is_amd() const noexcept { return amd || !amd_family.empty(); }
};

namespace detail {

/// A family's products as `find_named_gpu` gives them: none when both
/// vendors answer, the product itself for a family of one.
inline named_gpu_match settle_family(named_gpu_match match) {
  if (!match.nvidia_family.empty() && !match.amd_family.empty()) return {};
  if (match.nvidia_family.size() == 1) {
    match.nvidia = match.nvidia_family.front();
    match.nvidia_family.clear();
  }
  if (match.amd_family.size() == 1) {
    match.amd = match.amd_family.front();
    match.amd_family.clear();
  }
  return match;
}

/// The words of `name` joined by single spaces, the key of a family.
inline std::string family_key(const std::vector<std::string>& words) {
  std::string key;
  for (const auto& w : words) key += (key.empty() ? "" : " ") + w;
  return key;
}

}  // namespace detail

/// Every name a table's GPUs answer to, by what `find_named_gpu` compares:
/// its ids as they are spelled, each name's, id's and alias's key, and each
/// family a name belongs to (its words before variant words only). `find`
/// answers as `find_named_gpu` does in three hash lookups, where that reads
/// every GPU's names up to three times (a family name took 180 us). For a
/// table that outlives the index and does not change; `table::gpu_names`
/// holds it for the lookups to use.
class gpu_name_index {
 public:
  explicit gpu_name_index(const table& tables) {
    for (const auto& g : tables.gpus) add(g, &named_gpu_match::nvidia, &named_gpu_match::nvidia_family);
    for (const auto& g : tables.amd_gpus) add(g, &named_gpu_match::amd, &named_gpu_match::amd_family);
  }

  /// What `find_named_gpu(tables, query)` gives.
  named_gpu_match find(std::string_view query) const {
    if (const auto it = by_id_.find(std::string(query)); it != by_id_.end()) return it->second;
    // The query's words once, for its key and its family's.
    const std::vector<std::string> words = gpu_name_words(query);
    if (const std::string key = gpu_name_key(words); !key.empty()) {
      if (const auto it = by_key_.find(key); it != by_key_.end()) return it->second;
    }
    const auto it = by_family_.find(detail::family_key(words));
    return it == by_family_.end() ? named_gpu_match{} : detail::settle_family(it->second);
  }

 private:
  template <typename Gpu, typename One, typename Family>
  void add(const Gpu& g, One one, Family family) {
    named_gpu_match match;
    match.*one = &g;
    by_id_.try_emplace(g.id, match);  // the first GPU in table order wins, as the scan finds it
    const auto add_name = [&](const std::string& name) {
      if (std::string key = gpu_name_key(name); !key.empty()) by_key_.try_emplace(std::move(key), match);
      // A family: the name's words before a run of variant words only (at least one).
      const std::vector<std::string> words = gpu_name_words(name);
      for (std::size_t k = words.size(); k-- > 1;) {
        if (!is_variant_word(words[k])) break;
        auto& members =
            by_family_[detail::family_key({words.begin(), words.begin() + static_cast<std::ptrdiff_t>(k)})].*family;
        if (members.empty() || members.back() != &g) members.push_back(&g);
      }
    };
    add_name(g.name);
    add_name(g.id);
    for (const auto& alias : g.aliases) add_name(alias);
  }

  std::unordered_map<std::string, named_gpu_match> by_id_;
  std::unordered_map<std::string, named_gpu_match> by_key_;
  std::unordered_map<std::string, named_gpu_match> by_family_;
};

}  // namespace occcalc
