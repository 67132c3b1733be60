#include "render/sweep_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "occcalc/common/percent.hpp"
#include "render/text_layout.hpp"

// The sweep's SVG document: a chart per figure, each region shaded by its
// limiter, the current value and the next cliff marked, their words under
// the axis.

namespace occcalc::cli {

namespace {

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

/// Region fills, one per limiting resource in the order they first appear.
constexpr const char* region_colours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                          "#b07aa1", "#76b7b2", "#edc948", "#9c755f"};

/// Characters of the 16 px bold title that fit a line: sans-serif averages
/// about 0.6 em a character.
constexpr double title_em_per_char = 0.6;

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

/// A tick's number in the axis's unit: ticks fall on whole units.
std::string value_text(std::int64_t value, std::int64_t scale) {
  return std::to_string(value / std::max<std::int64_t>(scale, 1));
}

/// A value in a sentence, as people write it: whole KiB (`8 KiB`), else the
/// exact bytes (`8193 B`), on a chart shown in KiB; the number elsewhere.
/// `values` in one unit: KiB where `scale` is 1024 and every value is whole
/// KiB, else bytes; plain where the axis has no unit (`scale` 1).
std::vector<std::string> value_labels(std::initializer_list<std::int64_t> values, std::int64_t scale) {
  const bool whole = std::all_of(values.begin(), values.end(), [&](std::int64_t v) { return v % scale == 0; });
  std::vector<std::string> out;
  for (const auto v : values) {
    out.push_back(scale <= 1 ? std::to_string(v) : whole ? fmt::format("{} KiB", v / scale) : fmt::format("{} B", v));
  }
  return out;
}

}  // namespace

std::string sweep_svg(const std::string& title, const std::vector<sweep_series>& charts) {
  constexpr double width = 720;
  constexpr double left = 70;
  constexpr double right = 30;
  constexpr double title_size = 16;
  constexpr double line_height = 20;
  constexpr double chart_height = 270;
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
      const double y = y_of(tick / percent_per_unit);
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
    // cliff above it: markers on the plot, their words on a line under the
    // axis, where they never cover the series.
    const double notes_y = y0 + plot_height + 54;
    if (s.current >= lo_value && s.current <= s.points.back().value) {
      const auto nearest = std::min_element(s.points.begin(), s.points.end(), [&](const auto& a, const auto& b) {
        return std::llabs(a.value - s.current) < std::llabs(b.value - s.current);
      });
      const double cx = x_of(static_cast<double>(s.current));
      const double cy = y_of(nearest->occupancy);
      svg += fmt::format(
          "<line class=\"current-line\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" "
          "stroke=\"#d62728\" stroke-dasharray=\"4 3\"/>"
          "<circle class=\"current\" cx=\"{0:.1f}\" cy=\"{3:.1f}\" r=\"5\" fill=\"#d62728\"/>\n",
          cx, y0, y0 + plot_height, cy);
      const auto next = std::find_if(s.cliffs.begin(), s.cliffs.end(), [&](const occcalc::sweep_cliff& cliff) {
        return cliff.before >= s.current && cliff.occupancy_after < cliff.occupancy_before;
      });
      // One unit for the line: 0 KiB and 24704 B read as 0 B and 24704 B.
      const auto labels = next != s.cliffs.end() ? value_labels({s.current, next->after}, s.display_scale)
                                                 : value_labels({s.current}, s.display_scale);
      std::string words = fmt::format("now: {} ({:.1f}%)", labels[0], nearest->occupancy * percent_per_unit);
      if (next != s.cliffs.end()) {
        svg += fmt::format(
            "<g class=\"next-cliff\" data-before=\"{}\" data-after=\"{}\">"
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"none\" stroke=\"#d62728\"/></g>\n",
            next->before, next->after, x_of(static_cast<double>(next->after)), y_of(next->occupancy_after));
        words += fmt::format("; next cliff: {} ({:.1f}% to {:.1f}%)", labels[1],
                             next->occupancy_before * percent_per_unit, next->occupancy_after * percent_per_unit);
      }
      svg += fmt::format("<text class=\"notes\" x=\"{}\" y=\"{:.1f}\" fill=\"#d62728\">{}</text>\n", left, notes_y,
                         xml_escape(words));
    } else {
      svg += fmt::format(
          "<text class=\"notes\" x=\"{}\" y=\"{:.1f}\" fill=\"#d62728\">now: {}, outside the range "
          "shown</text>\n",
          left, notes_y, xml_escape(value_labels({s.current}, s.display_scale)[0]));
    }
    svg += "</g>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace occcalc::cli
