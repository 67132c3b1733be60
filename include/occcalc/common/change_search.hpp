/// \file common/change_search.hpp
/// The search behind next steps and targets, for either vendor: the
/// quantities a kernel's author controls (registers, shared memory, the
/// block size) as knobs, the nearest value of one knob that reaches a goal,
/// and the cheapest change of two knobs together. Vendor-neutral: a caller
/// names its knobs by number and says how a value applies to its launch and
/// whether a launch reaches the goal.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace occcalc {

/// One quantity a kernel's author controls and the values a search tries.
/// Either a run downwards (`first`, `first - step`, ... down to `lowest`)
/// along which the level never falls (fewer registers or bytes never cost
/// a block), so the nearest value that reaches a goal is found by
/// bisection; or, where `values` is set, those values, nearest first, tried
/// one by one (block sizes: a larger block may fit fewer blocks and more
/// warps, or fewer).
struct knob {
  /// The caller's name for it.
  std::size_t id = 0;
  std::int64_t current = 0;
  std::int64_t first = 0;
  std::int64_t step = 1;
  std::int64_t lowest = 0;
  std::vector<std::int64_t> values;

  bool monotone() const noexcept { return values.empty(); }
  std::size_t count() const noexcept {
    if (!monotone()) return values.size();
    return first < lowest ? 0 : static_cast<std::size_t>((first - lowest) / step + 1);
  }
  std::int64_t value(std::size_t i) const noexcept {
    return monotone() ? first - static_cast<std::int64_t>(i) * step : values[i];
  }
};

/// A knob from its value now to another.
struct knob_change {
  std::size_t id = 0;
  std::int64_t from = 0;
  std::int64_t to = 0;
};

/// How much a change asks of the kernel's author: the change over the value
/// now (a whole 1 from nothing).
inline double relative_change(const knob_change& c) noexcept {
  const auto delta = static_cast<double>(c.to > c.from ? c.to - c.from : c.from - c.to);
  return c.from == 0 ? 1.0 : delta / static_cast<double>(c.from);
}

/// One or two knobs changed together, and what that asks: the sum of their
/// relative changes.
struct knob_changes {
  std::vector<knob_change> changes;
  double cost = 0.0;
};

/// The nearest value of `k` with which `base` reaches the goal, everything
/// else unchanged; empty where none does. `apply(config, id, value)` sets a
/// knob; `reaches(config)` says whether a launch gets there.
template <typename Config, typename Apply, typename Reaches>
std::optional<std::int64_t> nearest_reaching(const knob& k, const Config& base, const Apply& apply,
                                             const Reaches& reaches) {
  const auto at = [&](std::size_t i) {
    Config changed = base;
    apply(changed, k.id, k.value(i));
    return reaches(changed);
  };
  const std::size_t n = k.count();
  if (!k.monotone()) {
    for (std::size_t i = 0; i < n; ++i) {
      if (at(i)) return k.value(i);
    }
    return std::nullopt;
  }
  if (n == 0 || !at(n - 1)) return std::nullopt;
  std::size_t low = 0;
  std::size_t high = n - 1;  // reaches
  while (low < high) {
    const std::size_t middle = low + (high - low) / 2;
    if (at(middle)) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return k.value(low);
}

/// The cheapest change of `outer` and `inner` together (both changed) that
/// reaches the goal: for each value of `outer`, nearest first, the nearest
/// of `inner` that with it gets there; the least cost wins, the nearer
/// `outer` on ties. `inner` should be monotone (it is searched for each
/// value of `outer`).
template <typename Config, typename Apply, typename Reaches>
std::optional<knob_changes> cheapest_pair(const knob& outer, const knob& inner, const Config& base, const Apply& apply,
                                          const Reaches& reaches) {
  std::optional<knob_changes> best;
  for (std::size_t i = 0; i < outer.count(); ++i) {
    const knob_change first{outer.id, outer.current, outer.value(i)};
    const double first_cost = relative_change(first);
    // Values come nearest first: no later one can be cheaper.
    if (best && first_cost >= best->cost) break;
    Config changed = base;
    apply(changed, outer.id, first.to);
    const auto to = nearest_reaching(inner, changed, apply, reaches);
    if (!to) continue;
    const knob_change second{inner.id, inner.current, *to};
    const double cost = first_cost + relative_change(second);
    if (!best || cost < best->cost) best = knob_changes{{first, second}, cost};
  }
  return best;
}

/// The cheapest ways to reach the goal by changing one knob or two: each
/// knob alone, and each pair of knobs where changing both asks less than
/// changing either alone; the cheapest first. Empty where nothing within
/// the knobs' values reaches it.
template <typename Config, typename Apply, typename Reaches>
std::vector<knob_changes> cheapest_changes(const std::vector<knob>& knobs, const Config& base, const Apply& apply,
                                           const Reaches& reaches) {
  std::vector<knob_changes> found;
  std::vector<std::optional<double>> alone(knobs.size());
  for (std::size_t i = 0; i < knobs.size(); ++i) {
    if (const auto to = nearest_reaching(knobs[i], base, apply, reaches)) {
      const knob_change change{knobs[i].id, knobs[i].current, *to};
      alone[i] = relative_change(change);
      found.push_back({{change}, *alone[i]});
    }
  }
  for (std::size_t i = 0; i < knobs.size(); ++i) {
    for (std::size_t j = i + 1; j < knobs.size(); ++j) {
      // The one searched value by value outside, the monotone one inside.
      const bool swap = knobs[i].monotone() && !knobs[j].monotone();
      const knob& outer = swap ? knobs[j] : knobs[i];
      const knob& inner = swap ? knobs[i] : knobs[j];
      auto pair = cheapest_pair(outer, inner, base, apply, reaches);
      if (!pair || (alone[i] && pair->cost >= *alone[i]) || (alone[j] && pair->cost >= *alone[j])) continue;
      // In the knobs' order, whichever was searched outside.
      std::sort(pair->changes.begin(), pair->changes.end(),
                [](const knob_change& a, const knob_change& b) { return a.id < b.id; });
      found.push_back(std::move(*pair));
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const knob_changes& a, const knob_changes& b) { return a.cost < b.cost; });
  return found;
}

/// Which way from its value now a search may move a knob it tries value by
/// value.
enum class direction { both, down, up };

/// Multiples of `step` from `step` to `highest` but `current` (below it or
/// above it only, where `way` says), nearest to `current` first, the smaller
/// first on a tie: the block sizes a search tries.
inline std::vector<std::int64_t> values_nearest_first(std::int64_t current, std::int64_t step, std::int64_t highest,
                                                      direction way = direction::both) {
  std::vector<std::int64_t> values;
  for (std::int64_t v = step; v <= highest; v += step) {
    if (v != current && (way == direction::both || (v > current) == (way == direction::up))) values.push_back(v);
  }
  std::stable_sort(values.begin(), values.end(), [current](std::int64_t a, std::int64_t b) {
    const std::int64_t da = a > current ? a - current : current - a;
    const std::int64_t db = b > current ? b - current : current - b;
    return da < db;
  });
  return values;
}

}  // namespace occcalc
