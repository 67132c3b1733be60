#include "render/sweep_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "occcalc/common/percent.hpp"
#include "occcalc/version.hpp"
#include "render/json_writer.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"

namespace occcalc::cli {

namespace {

/// Indices of at most `columns` points, evenly spread, always keeping the
/// point nearest the current value.
std::vector<std::size_t> sample(const sweep_series& s, std::size_t columns) {
  std::vector<std::size_t> out;
  const std::size_t n = s.points.size();
  if (n <= columns) {
    for (std::size_t i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  for (std::size_t c = 0; c < columns; ++c) out.push_back(c * (n - 1) / (columns - 1));
  return out;
}

}  // namespace

std::string terminal_chart(const sweep_series& s, const terminal& term, int rows, int columns) {
  static const char* const partial_unicode[] = {"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587"};
  const bool ascii = !term.utf8;
  const char* full = ascii ? "#" : "\u2588";
  const auto picks = sample(s, static_cast<std::size_t>(columns));
  // The column nearest the current value, when the range holds it.
  const bool in_range = s.current >= s.points.front().value && s.current <= s.points.back().value;
  std::size_t current_column = 0;
  for (std::size_t c = 0; c < picks.size(); ++c) {
    if (std::llabs(s.points[picks[c]].value - s.current) <
        std::llabs(s.points[picks[current_column]].value - s.current)) {
      current_column = c;
    }
  }
  constexpr const char* axis_indent = "      |";
  std::string text;
  for (int r = rows - 1; r >= 0; --r) {
    const int label = (r + 1) * 100 / rows;
    text += (r == rows - 1 || r == rows / 2 - 1) ? fmt::format("{:>4}% |", label) : std::string(axis_indent);
    for (std::size_t c = 0; c < picks.size(); ++c) {
      const double level = s.points[picks[c]].occupancy * rows - r;
      std::string cell = " ";
      if (level >= 1.0 - 1e-9) {
        cell = full;
      } else if (level > 1e-9) {
        if (ascii) {
          cell = level >= 0.5 ? "+" : ".";
        } else {
          const int eighths = std::clamp(static_cast<int>(std::ceil(level * 8)) - 1, 0, 6);
          cell = partial_unicode[eighths];
        }
      }
      text += in_range && c == current_column && cell != " " ? paint(cell, style::limiter, term.colour) : cell;
    }
    trim_end(text);
    text += '\n';
  }
  text += "   0% +" + std::string(picks.size(), '-') + "\n";
  const std::string indent(7, ' ');
  if (in_range) {
    text += indent + std::string(current_column, ' ') +
            paint(fmt::format("^ now: {}", s.current), style::limiter, term.colour) + "\n";
  }
  const std::string first = std::to_string(s.points.front().value);
  const std::string last = std::to_string(s.points.back().value);
  const std::size_t gap = picks.size() > first.size() + last.size() ? picks.size() - first.size() - last.size() : 1;
  const std::string numbers = indent + first + std::string(gap, ' ') + last;
  if (numbers.size() + 2 + s.axis.size() <= term.columns) {
    text += numbers + "  " + s.axis + "\n";
  } else {
    text += numbers + "\n" + indent + s.axis + "\n";
  }
  if (!in_range) {
    text += wrap(fmt::format("now: {}, outside the range shown", s.current), indent.size(),
                 term.columns > indent.size() ? term.columns - indent.size() : 1);
  }
  return text;
}

std::string sweep_csv(const sweep_series& s) {
  std::string text = "value,blocks_per_sm,active_warps_per_sm,occupancy,limiters\n";
  for (const auto& p : s.points) {
    text += fmt::format("{},{},{},{},{}\n", p.value, p.blocks, p.active_warps, p.occupancy, fmt::join(p.limiters, "+"));
  }
  return text;
}

std::vector<std::int64_t> round_ticks(std::int64_t lo, std::int64_t hi, std::int64_t unit, std::size_t max_ticks) {
  // GPU resources come in powers of two: steps of 1, 2, 4, 8, ... units.
  std::vector<std::int64_t> ticks;
  for (std::int64_t step = std::max<std::int64_t>(unit, 1);; step *= 2) {
    const std::int64_t first = (lo + step - 1) / step * step;
    if (first > hi || static_cast<std::size_t>((hi - first) / step + 1) <= max_ticks) {
      for (std::int64_t t = first; t <= hi; t += step) ticks.push_back(t);
      if (ticks.empty()) ticks.push_back(lo);
      return ticks;
    }
  }
}

std::string sweep_json(const sweep_plan& plan) {
  const sweep_series& series = plan.series;
  std::string text;
  {
    json_writer w(text, json_writer::style::pretty);
    w.begin_object();
    w.member("schema_version", occcalc::sweep_schema_version);
    w.member("arch", plan.target_id);
    if (!plan.model.empty()) {
      w.member("model", plan.model);
      w.member("unit", plan.unit);
    }
    w.member("vary", series.name);
    w.key("current");
    w.begin_object();
    w.member("value", series.current);
    w.member("occupancy", plan.now.occupancy);
    w.end_object();
    w.key("points");
    w.begin_array();
    for (const auto& p : series.points) {
      w.begin_object();
      w.member("value", p.value);
      w.member("blocks_per_sm", p.blocks);
      w.member("active_warps_per_sm", p.active_warps);
      w.member("occupancy", p.occupancy);
      w.key("limiters");
      w.begin_array();
      for (const auto limiter : p.limiters) w.value(limiter);
      w.end_array();
      w.end_object();
    }
    w.end_array();
    w.key("cliffs");
    w.begin_array();
    for (const auto& c : series.cliffs) {
      w.begin_object();
      w.member("before", c.before);
      w.member("after", c.after);
      w.member("occupancy_before", c.occupancy_before);
      w.member("occupancy_after", c.occupancy_after);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  return text + "\n";
}

std::string sweep_text(const sweep_plan& plan, const terminal& term) {
  constexpr double percent = occcalc::percent_per_unit;
  const sweep_series& series = plan.series;
  std::string text = heading(fmt::format("{}: occupancy for {} from {} to {}, step {}", plan.heading, series.axis,
                                         plan.range.first, plan.range.last, plan.range.step),
                             term) +
                     "\n";
  constexpr int chart_rows = 8;
  constexpr std::size_t chart_margin = 8;  // the percent axis and a space
  const int chart_columns = static_cast<int>(
      std::min<std::size_t>(max_chart_columns, term.columns > chart_margin ? term.columns - chart_margin : 1));
  text += terminal_chart(series, term, chart_rows, chart_columns);
  const auto& now = plan.now;
  text += "\n" +
          wrap(fmt::format("now at {}: {}{}, {}, limited by {}", series.current,
                           counted(now.blocks, plan.block_noun, plan.block_noun + "s"), plan.per_unit,
                           paint(fmt::format("{:.1f}%", now.occupancy * percent),
                                 occupancy_style(now.blocks > 0, now.occupancy * percent), term.colour),
                           paint(fmt::format("{}", fmt::join(now.limiter_labels, ", ")), style::limiter, term.colour)),
               0, term.columns);
  std::vector<const occcalc::sweep_cliff*> drops;
  std::size_t rises = 0;
  for (const auto& c : series.cliffs) {
    if (c.occupancy_after < c.occupancy_before) {
      drops.push_back(&c);
    } else {
      ++rises;
    }
  }
  text += "\n" + heading("Cliffs (where occupancy drops)", term);
  if (drops.empty()) text += "  none in this range\n";
  // The nearest cliff on each side of the current value is what matters.
  // Each value as wide as the widest, to fit narrow terminals.
  int digits = 1;
  for (const auto* c : drops) digits = std::max(digits, static_cast<int>(std::to_string(c->after).size()));
  // "  128 -> 160   75.0% ->  70.3%  (below now)"; single spaces where
  // that is too wide.
  for (const auto* c : drops) {
    const char* mark = c->after <= series.current ? "(below now)" : c->before >= series.current ? "" : "<- now";
    std::string line = fmt::format("  {:>{}} -> {:<{}}  {:5.1f}% -> {:5.1f}%  {}", c->before, digits, c->after, digits,
                                   c->occupancy_before * percent, c->occupancy_after * percent, mark);
    trim_end(line);
    if (line.size() > term.columns) {
      line = fmt::format("{} -> {} {:.1f}% -> {:.1f}% {}", c->before, c->after, c->occupancy_before * percent,
                         c->occupancy_after * percent, mark);
      trim_end(line);
    }
    text += line + '\n';
  }
  if (rises > 0) {
    text += wrap(fmt::format("({} step{} where occupancy rises: --json or --csv lists every point)", rises,
                             rises == 1 ? "" : "s"),
                 2, term.columns > 2 ? term.columns - 2 : 1);
  }
  return text;
}

}  // namespace occcalc::cli
