#!/usr/bin/env python3
"""The sweep's SVG charts, parsed as XML and held to what a design document needs.

For an NVIDIA and an AMD launch (`sweep --svg -`, the SVG on standard output):
- the document parses (xml.etree) and is an SVG with a width;
- the title fits: each line, at 0.6 em a character of its 16 px bold font,
  stays inside the width, and the lines together say the whole title;
- ticks are round: multiples of the warp (wave) size for threads, of the
  register allocation granule for registers, of 1 KiB for shared memory or
  LDS (shown in KiB), at most 8 a chart, inside the plotted range;
- every shaded region names a limiter the legend shows;
- the next cliff above the current value is annotated where there is one,
  its line in one unit;
- `--svg -` with --json is refused (exit 2).

usage: svg_charts.py OCCCALC
"""
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

OCCCALC = sys.argv[1]
NS = {"svg": "http://www.w3.org/2000/svg"}
TITLE_FONT_PX, EM_PER_CHAR, MARGIN = 16, 0.6, 16

CASES = [
    # args, {chart id: (tick unit, shown per)}, {chart id: the next cliff's "after" value}
    (["--gpu", "RTX 4090", "--threads", "256", "--regs", "64", "--smem", "8K"],
     {"vary-threads": (32, 1), "vary-regs": (8, 1), "vary-smem": (1024, 1024)},
     {"vary-regs": "65", "vary-threads": "288"}),
    # Shared memory now 0 KiB, its next cliff at 24704 B.
    (["--gpu", "RTX 4090", "--threads", "256", "--regs", "64"],
     {"vary-threads": (32, 1), "vary-regs": (8, 1), "vary-smem": (1024, 1024)},
     {"vary-smem": "24704"}),
    (["--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--lds", "16K"],
     {"vary-threads": (64, 1), "vary-vgprs": (8, 1), "vary-lds": (1024, 1024)},
     {"vary-vgprs": "129"}),
]


def check(args, units, next_cliffs, problems):
    where = "occcalc sweep --vary threads " + " ".join(args) + " --svg -"
    p = subprocess.run([OCCCALC, "sweep", "--vary", "threads", *args, "--svg", "-"], capture_output=True, text=True)
    if p.returncode != 0:
        problems.append(f"{where}: exit {p.returncode}: {p.stderr}")
        return
    root = ET.fromstring(p.stdout)
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        problems.append(f"{where}: the root is {root.tag}, not svg")
    width = float(root.get("width"))
    title = root.find("svg:title", NS).text
    lines = [t.text for t in root.iter("{http://www.w3.org/2000/svg}tspan")]
    if " ".join(lines) != title:
        problems.append(f"{where}: the title's lines {lines!r} do not say {title!r}")
    for line in lines:
        extent = MARGIN + len(line) * TITLE_FONT_PX * EM_PER_CHAR
        if extent > width:
            problems.append(f"{where}: title line {line!r} takes about {extent:.0f} px of {width:.0f}")
    legend = {r.get("data-limiter") for r in root.iter("{http://www.w3.org/2000/svg}rect")
              if r.get("class") == "legend-swatch"}
    if not legend:
        problems.append(f"{where}: no legend")
    for chart in root.iter("{http://www.w3.org/2000/svg}g"):
        if chart.get("class") != "chart":
            continue
        name = chart.get("id")
        unit, per = units[name]
        ticks = [(int(t.get("data-value")), t.text) for t in chart.iter("{http://www.w3.org/2000/svg}text")
                 if t.get("class") == "tick"]
        if not 2 <= len(ticks) <= 8:
            problems.append(f"{where}: {name}: {len(ticks)} ticks")
        for value, label in ticks:
            if value % unit != 0:
                problems.append(f"{where}: {name}: tick {value} is not a multiple of {unit}")
            if label != str(value // per):
                problems.append(f"{where}: {name}: tick {value} is labelled {label!r}, not {value // per}")
        regions = {r.get("data-limiter") for r in chart.iter("{http://www.w3.org/2000/svg}rect")
                   if r.get("class") == "region"}
        if not regions or not regions <= legend:
            problems.append(f"{where}: {name}: regions {regions} not all in the legend {legend}")
        cliffs = [g.get("data-after") for g in chart.iter("{http://www.w3.org/2000/svg}g")
                  if g.get("class") == "next-cliff"]
        if name in next_cliffs and cliffs != [next_cliffs[name]]:
            problems.append(f"{where}: {name}: next cliff {cliffs}, expected [{next_cliffs[name]}]")
        # One unit a line: "now: 0 KiB; next cliff: 24704 B" read as two scales.
        for notes in chart.iter("{http://www.w3.org/2000/svg}text"):
            if notes.get("class") == "notes" and " KiB" in notes.text and re.search(r"\d B\b", notes.text):
                problems.append(f"{where}: {name}: KiB and bytes in one line: {notes.text!r}")


def main():
    problems = []
    for args, units, cliffs in CASES:
        check(args, units, cliffs, problems)
    refused = subprocess.run([OCCCALC, "sweep", "--vary", "regs", "--cc", "8.0", "--threads", "256", "--regs", "40",
                              "--svg", "-", "--json"], capture_output=True, text=True)
    if refused.returncode != 2 or "--svg" not in refused.stderr:
        problems.append(f"--svg - with --json: exit {refused.returncode}: {refused.stderr}")
    for problem in problems:
        print(problem)
    print(f"{len(CASES)} SVG documents checked; {len(problems)} problems")
    return 1 if problems else 0


sys.exit(main())
