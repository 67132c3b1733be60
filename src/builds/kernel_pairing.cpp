// Pairing two builds' kernels (`pair_kernels`): what `diff` compares and
// `check --baseline` excuses by.
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "builds/baseline.hpp"

namespace occcalc::cli {

namespace {

/// What tells two copies of a kernel apart when nothing else does: their
/// raw figures, in one order, so equal builds pair equal copies.
auto figures_key(const build_kernel& k) {
  const auto& r = k.kernel.resources;
  const auto volume = [](const std::optional<inspect::dim3>& d) -> std::optional<std::int64_t> {
    if (!d) return std::nullopt;
    return inspect::volume(*d);
  };
  return std::make_tuple(r.registers, r.static_shared_memory_bytes, r.stack_size_bytes, r.stack_frame_bytes,
                         r.spill_store_bytes, r.spill_load_bytes, r.vgpr_spills, r.sgpr_spills, r.sgprs, r.agprs,
                         volume(r.required_threads), volume(r.max_threads), r.barriers, r.register_cap, k.file,
                         r.origin);
}

}  // namespace

kernel_pairing pair_kernels(const kernel_store& before, const kernel_store& after) {
  kernel_pairing out;
  std::vector<char> old_paired(before.size()), new_paired(after.size());
  using key = std::array<std::string_view, 3>;
  const auto hash_of = [](const key& k) {
    std::size_t h = 0;
    for (const auto part : k) h = h * 1000003 ^ std::hash<std::string_view>()(part);
    return h;
  };
  // The copies no key tells apart, named in the order of their keys.
  std::vector<std::pair<key, std::string>> ambiguous;
  // One pass: pairs the kernels still unpaired whose key is unique on both
  // sides, and hands every other key's kernels, old and new, to `rest`.
  // `key_of` may leave a kernel out of a pass (an empty optional).
  const auto pass = [&](auto&& key_of, auto&& rest) {
    // Each kernel's key, the old build's first, and where each came from.
    std::vector<key> keys;
    std::vector<std::size_t> index_of;
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (old_paired[i]) continue;
      if (const std::optional<key> k = key_of(before.identity_of(i))) keys.push_back(*k), index_of.push_back(i);
    }
    const std::size_t first_new = keys.size();
    for (std::size_t i = 0; i < after.size(); ++i) {
      if (new_paired[i]) continue;
      if (const std::optional<key> k = key_of(after.identity_of(i))) keys.push_back(*k), index_of.push_back(i);
    }
    // A kernel whose key's first part (its file, say) the other side never
    // gives has no counterpart in this pass: left out, it costs no sorting
    // (two builds read from different paths pair nothing by file).
    std::array<std::unordered_set<std::string_view>, 2> firsts;
    for (std::size_t at = 0; at < keys.size(); ++at) firsts[at >= first_new].insert(keys[at][0]);
    // Sorted by the key's hash first, so that a key's kernels are one run,
    // the old build's first: two keys are compared in full only where their
    // hashes are equal, not along the prefix a build's paths and names share.
    std::vector<std::pair<std::size_t, std::size_t>> order;  // (hash, place in keys)
    order.reserve(keys.size());
    for (std::size_t at = 0; at < keys.size(); ++at) {
      if (firsts[at < first_new].count(keys[at][0]) != 0) order.emplace_back(hash_of(keys[at]), at);
    }
    std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      if (keys[a.second] != keys[b.second]) return keys[a.second] < keys[b.second];
      return a.second < b.second;
    });
    std::vector<std::size_t> olds, news;
    for (auto first = order.begin(); first != order.end();) {
      const key& k = keys[first->second];
      const auto last = std::find_if(first, order.end(), [&](const auto& x) { return keys[x.second] != k; });
      olds.clear();
      news.clear();
      for (auto x = first; x != last; ++x) (x->second >= first_new ? news : olds).push_back(index_of[x->second]);
      if (olds.size() == 1 && news.size() == 1) {
        out.pairs.emplace_back(olds[0], news[0]);
        old_paired[olds[0]] = new_paired[news[0]] = 1;
      } else {
        rest(k, olds, news);
      }
      first = last;
    }
  };
  // Copies of one kernel in one file, told apart by the entry each came
  // from (`.nv_fatbin entry 39`) where both sides hold the same entries: a
  // library rebuilt with its layout. Where the entries differ (a log's
  // lines shift), the entries prove nothing and the copies wait for the
  // last pass.
  const auto by_origin = [&](const key&, const std::vector<std::size_t>& olds, const std::vector<std::size_t>& news) {
    if (olds.size() < 2 || olds.size() != news.size()) return;
    std::map<std::string_view, std::size_t> old_at;
    for (const auto i : olds) old_at.emplace(before.identity_of(i).origin, i);
    if (old_at.size() != olds.size()) return;  // an entry named twice tells nothing
    std::vector<std::pair<std::size_t, std::size_t>> found;
    for (const auto i : news) {
      const auto old = old_at.find(after.identity_of(i).origin);
      if (old == old_at.end()) return;
      found.emplace_back(old->second, i);
      old_at.erase(old);  // each old copy pairs once
    }
    for (const auto& [o, n] : found) {
      out.pairs.emplace_back(o, n);
      old_paired[o] = new_paired[n] = 1;
    }
  };
  using identity = kernel_store::identity;
  pass([](const identity& k) { return std::optional<key>(key{k.file, k.name, k.arch}); }, by_origin);
  pass([](const identity& k) { return std::optional<key>(key{k.relative_path, k.name, k.arch}); }, by_origin);
  // Triton's configs: the hash directory moves with any source edit or upgrade, the config does not.
  const auto no_rest = [](const key&, const std::vector<std::size_t>&, const std::vector<std::size_t>&) {};
  pass(
      [](const identity& k) {
        return k.triton_config.empty() ? std::nullopt : std::optional<key>(key{k.triton_config, k.name, k.arch});
      },
      no_rest);
  // What no key tells apart: the copies of one kernel, paired in the order
  // of their figures.
  const auto by_figures = [&](const key& k, const std::vector<std::size_t>& olds,
                              const std::vector<std::size_t>& news) {
    if (olds.empty() || news.empty()) return;
    const auto in_order = [](const kernel_store& side, const std::vector<std::size_t>& copies) {
      std::vector<std::pair<decltype(figures_key(side[0])), std::size_t>> keyed_copies;
      for (const auto i : copies) keyed_copies.emplace_back(figures_key(side[i]), i);
      std::sort(keyed_copies.begin(), keyed_copies.end());
      return keyed_copies;
    };
    const auto old_copies = in_order(before, olds), new_copies = in_order(after, news);
    const std::size_t n = std::min(old_copies.size(), new_copies.size());
    for (std::size_t i = 0; i < n; ++i) {
      out.pairs.emplace_back(old_copies[i].second, new_copies[i].second);
      old_paired[old_copies[i].second] = new_paired[new_copies[i].second] = 1;
    }
    ambiguous.emplace_back(
        k, fmt::format("{} ({}, {} old and {} new)", after.identity_of(new_copies.front().second).demangled, k[2],
                       olds.size(), news.size()));
  };
  // Last, by processor: an AMD target's features (`gfx90a:xnack+`) pair a
  // kernel with its own variant above, and here with a baseline that names
  // none (saved before occcalc kept them) or a build that changed them, by
  // entry where both sides hold the same entries.
  pass(
      [](const identity& k) {
        return std::optional<key>(key{std::string_view(), k.name, occcalc::processor_of(k.arch)});
      },
      [&](const key& k, const std::vector<std::size_t>& olds, const std::vector<std::size_t>& news) {
        by_origin(k, olds, news);
        if (olds.empty() || !old_paired[olds.front()]) by_figures(k, olds, news);
      });
  std::sort(ambiguous.begin(), ambiguous.end());
  for (auto& a : ambiguous) out.ambiguities.push_back(std::move(a.second));
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (!old_paired[i]) out.removed.push_back(i);
  }
  for (std::size_t i = 0; i < after.size(); ++i) {
    if (!new_paired[i]) out.added.push_back(i);
  }
  // The new build's order.
  std::sort(out.pairs.begin(), out.pairs.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return out;
}

std::string ambiguity_note(const std::vector<std::string>& ambiguities) {
  constexpr std::size_t named = 3;
  std::string names;
  for (std::size_t i = 0; i < ambiguities.size() && i < named; ++i) names += (i == 0 ? "" : "; ") + ambiguities[i];
  if (ambiguities.size() > named) names += fmt::format("; and {} more", ambiguities.size() - named);
  return fmt::format(
      "{} kernel{} with copies that no file or entry tells apart, paired in the order of their "
      "figures: {}",
      ambiguities.size(), ambiguities.size() == 1 ? "" : "s", names);
}

}  // namespace occcalc::cli
