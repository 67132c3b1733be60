#include "render/sweep.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "occcalc/common/percent.hpp"
#include "occcalc/version.hpp"
#include "render/result_json.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"

namespace occcalc::cli {

namespace {

constexpr double percent = occcalc::percent_per_unit;

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

std::string xml_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
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

namespace {

/// Region fills, one per limiting resource in the order they first appear.
constexpr const char* region_colours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                          "#b07aa1", "#76b7b2", "#edc948", "#9c755f"};

/// Characters of the 16 px bold title that fit a line: sans-serif averages
/// about 0.6 em a character.
constexpr double title_em_per_char = 0.6;

/// A white outline under annotation text, so the series never hides it.
constexpr const char* halo = "stroke=\"white\" stroke-width=\"4\" paint-order=\"stroke\"";

/// The runs of points with one limiter first among their limiters.
struct region {
  std::size_t first, last;  // point indices
  std::string_view limiter, label;
};

std::vector<region> regions_of(const sweep_series& s) {
  std::vector<region> out;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const auto& p = s.points[i];
    const std::string_view key = p.limiters.empty() ? std::string_view("none") : p.limiters.front();
    const std::string_view label = p.limiter_labels.empty() ? key : p.limiter_labels.front();
    if (!out.empty() && out.back().limiter == key) {
      out.back().last = i;
    } else {
      out.push_back({i, i, key, label});
    }
  }
  return out;
}

std::string value_text(std::int64_t value, std::int64_t scale) {
  if (scale <= 1 || value % scale == 0) return std::to_string(value / std::max<std::int64_t>(scale, 1));
  return fmt::format("{:.1f}", static_cast<double>(value) / static_cast<double>(scale));
}

}  // namespace

std::string sweep_svg(const std::string& title, const std::vector<sweep_series>& charts) {
  constexpr double width = 720;
  constexpr double left = 70;
  constexpr double right = 30;
  constexpr double title_size = 16;
  constexpr double line_height = 20;
  constexpr double chart_height = 250;
  constexpr double plot_height = 150;
  constexpr std::size_t max_ticks = 8;
  const double plot_width = width - left - right;

  // The title, wrapped to the width; then the legend of limiters.
  const auto title_chars = static_cast<std::size_t>((width - 2 * 16) / (title_size * title_em_per_char));
  const std::vector<std::string> title_lines = wrap_lines(title, title_chars, title_chars);
  std::vector<std::pair<std::string_view, std::string_view>> limiters;  // key, label, in first-seen order
  std::vector<std::vector<region>> chart_regions;
  for (const auto& s : charts) {
    chart_regions.push_back(regions_of(s));
    for (const auto& r : chart_regions.back()) {
      if (std::none_of(limiters.begin(), limiters.end(), [&](const auto& l) { return l.first == r.limiter; })) {
        limiters.emplace_back(r.limiter, r.label);
      }
    }
  }
  const auto colour_of = [&](std::string_view key) {
    for (std::size_t i = 0; i < limiters.size(); ++i) {
      if (limiters[i].first == key) return region_colours[i % std::size(region_colours)];
    }
    return region_colours[0];
  };
  const double legend_y = 16 + line_height * static_cast<double>(title_lines.size()) + 8;
  const double top = legend_y + 24;
  const double height = top + chart_height * static_cast<double>(charts.size()) + 10;

  std::string svg = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<title>{2}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height, xml_escape(title));
  svg += "<text class=\"title\" font-size=\"16\" font-weight=\"bold\">";
  for (std::size_t i = 0; i < title_lines.size(); ++i) {
    svg += fmt::format("<tspan x=\"16\" y=\"{}\">{}</tspan>", 28 + line_height * static_cast<double>(i),
                       xml_escape(title_lines[i]));
  }
  svg += "</text>\n<g class=\"legend\">\n";
  double x = 16;
  svg += fmt::format("<text x=\"{}\" y=\"{}\">limited by:</text>\n", x, legend_y + 4);
  x += 72;
  for (const auto& [key, label] : limiters) {
    svg += fmt::format(
        "<rect class=\"legend-swatch\" data-limiter=\"{}\" x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" "
        "fill=\"{}\" fill-opacity=\"0.35\"/><text x=\"{}\" y=\"{}\">{}</text>\n",
        key, x, legend_y - 6, colour_of(key), x + 16, legend_y + 4, xml_escape(std::string(label)));
    x += 16 + 7.0 * static_cast<double>(label.size()) + 18;
  }
  svg += "</g>\n";

  for (std::size_t c = 0; c < charts.size(); ++c) {
    const auto& s = charts[c];
    const double y0 = top + chart_height * static_cast<double>(c) + 20;
    const auto lo_value = s.points.front().value;
    const auto hi_value = std::max(lo_value + 1, s.points.back().value);
    const double lo = static_cast<double>(lo_value);
    const double hi = static_cast<double>(hi_value);
    const auto x_of = [&](double v) { return left + (v - lo) / (hi - lo) * plot_width; };
    const auto y_of = [&](double occupancy) { return y0 + plot_height - occupancy * plot_height; };
    const std::string& axis = s.display_axis.empty() ? s.axis : s.display_axis;
    svg += fmt::format("<g class=\"chart\" id=\"vary-{}\">\n", s.name);
    svg += fmt::format("<text x=\"{}\" y=\"{}\" font-weight=\"bold\">Occupancy as {} varies</text>\n", left, y0 - 8,
                       xml_escape(axis));
    // Which resource limits each stretch, shaded under the series.
    const auto& regions = chart_regions[c];
    for (std::size_t r = 0; r < regions.size(); ++r) {
      const double from = x_of(static_cast<double>(s.points[regions[r].first].value));
      const double to =
          r + 1 < regions.size() ? x_of(static_cast<double>(s.points[regions[r + 1].first].value)) : left + plot_width;
      svg += fmt::format(
          "<rect class=\"region\" data-limiter=\"{}\" x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" "
          "fill=\"{}\" fill-opacity=\"0.15\"/>\n",
          regions[r].limiter, from, y0, std::max(0.0, to - from), plot_height, colour_of(regions[r].limiter));
    }
    for (int tick = 0; tick <= 100; tick += 25) {
      const double y = y_of(tick / percent);
      svg += fmt::format(
          "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>"
          "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}%</text>\n",
          left, y, left + plot_width, y, left - 6, y + 4, tick);
    }
    svg += fmt::format(
        "<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>"
        "<line class=\"axis\" x1=\"{0}\" y1=\"{2}\" x2=\"{3}\" y2=\"{2}\" stroke=\"black\"/>\n",
        left, y0, y0 + plot_height, left + plot_width);
    for (const auto tick : round_ticks(lo_value, hi_value, s.tick_unit, max_ticks)) {
      const double tx = x_of(static_cast<double>(tick));
      svg += fmt::format(
          "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"black\"/>"
          "<text class=\"tick\" data-value=\"{3}\" x=\"{0:.1f}\" y=\"{4:.1f}\" text-anchor=\"middle\">{5}</text>\n",
          tx, y0 + plot_height, y0 + plot_height + 4, tick, y0 + plot_height + 16, value_text(tick, s.display_scale));
    }
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", left + plot_width / 2,
                       y0 + plot_height + 34, xml_escape(axis));
    svg += fmt::format(
        "<text x=\"16\" y=\"{:.1f}\" transform=\"rotate(-90 16 {:.1f})\" text-anchor=\"middle\">"
        "occupancy</text>\n",
        y0 + plot_height / 2, y0 + plot_height / 2);
    // The series as steps: occupancy holds until the next point.
    std::string path;
    for (std::size_t i = 0; i < s.points.size(); ++i) {
      const double px = x_of(static_cast<double>(s.points[i].value));
      const double py = y_of(s.points[i].occupancy);
      if (i == 0) {
        path += fmt::format("{:.1f},{:.1f}", px, py);
      } else {
        path += fmt::format(" {:.1f},{:.1f} {:.1f},{:.1f}", px, y_of(s.points[i - 1].occupancy), px, py);
      }
    }
    svg += fmt::format(
        "<polyline class=\"series\" fill=\"none\" stroke=\"#1f3b73\" stroke-width=\"2\" "
        "points=\"{}\"/>\n",
        path);
    // The current configuration, when the range holds it, and the next
    // cliff above it.
    if (s.current >= lo_value && s.current <= s.points.back().value) {
      const auto nearest = std::min_element(s.points.begin(), s.points.end(), [&](const auto& a, const auto& b) {
        return std::llabs(a.value - s.current) < std::llabs(b.value - s.current);
      });
      const double cx = x_of(static_cast<double>(s.current));
      const double cy = y_of(nearest->occupancy);
      svg += fmt::format(
          "<line class=\"current-line\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" "
          "stroke=\"#d62728\" stroke-dasharray=\"4 3\"/>"
          "<circle class=\"current\" cx=\"{0:.1f}\" cy=\"{3:.1f}\" r=\"5\" fill=\"#d62728\"/>"
          "<text x=\"{4:.1f}\" y=\"{5:.1f}\" fill=\"#d62728\" {8}>now: {6} ({7:.1f}%)</text>\n",
          cx, y0, y0 + plot_height, cy, cx + 8, std::max(y0 + 12, cy - 8), value_text(s.current, s.display_scale),
          nearest->occupancy * percent, halo);
      const auto next = std::find_if(s.cliffs.begin(), s.cliffs.end(), [&](const occcalc::sweep_cliff& cliff) {
        return cliff.before >= s.current && cliff.occupancy_after < cliff.occupancy_before;
      });
      if (next != s.cliffs.end()) {
        const double nx = x_of(static_cast<double>(next->after));
        const double ny = y_of(next->occupancy_after);
        const bool flip = nx > left + plot_width * 0.7;  // keep the text inside the plot
        svg += fmt::format(
            "<g class=\"next-cliff\" data-before=\"{}\" data-after=\"{}\">"
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"none\" stroke=\"#d62728\"/>"
            "<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#d62728\" text-anchor=\"{}\" {}>next cliff: {} ({:.1f}% to "
            "{:.1f}%)</text></g>\n",
            next->before, next->after, nx, ny, flip ? nx - 8 : nx + 8, std::min(y0 + plot_height - 6, ny + 16),
            flip ? "end" : "start", halo, value_text(next->after, s.display_scale), next->occupancy_before * percent,
            next->occupancy_after * percent);
      }
    }
    svg += "</g>\n";
  }
  svg += "</svg>\n";
  return svg;
}

std::string sweep_json(const sweep_plan& plan) {
  const sweep_series& series = plan.series;
  nlohmann::ordered_json j;
  j["schema_version"] = occcalc::sweep_schema_version;
  j["arch"] = plan.target_id;
  if (!plan.model.empty()) {
    j["model"] = plan.model;
    j["unit"] = plan.unit;
  }
  j["vary"] = series.name;
  j["current"] = {{"value", series.current}, {"occupancy", plan.now.occupancy}};
  j["points"] = nlohmann::ordered_json::array();
  for (const auto& p : series.points) {
    nlohmann::ordered_json point;
    point["value"] = p.value;
    point["blocks_per_sm"] = p.blocks;
    point["active_warps_per_sm"] = p.active_warps;
    point["occupancy"] = p.occupancy;
    point["limiters"] = p.limiters;
    j["points"].push_back(std::move(point));
  }
  j["cliffs"] = nlohmann::ordered_json::array();
  for (const auto& c : series.cliffs) {
    j["cliffs"].push_back({{"before", c.before},
                           {"after", c.after},
                           {"occupancy_before", c.occupancy_before},
                           {"occupancy_after", c.occupancy_after}});
  }
  return json_text(j, 2) + "\n";
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
