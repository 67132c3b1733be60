#!/usr/bin/env python3
"""The sweep's SVG charts as a person sees them: rendered by headless
Chromium (Debian's chromium), every text measured where the browser laid it
out. For each chart kind (NVIDIA threads, registers and shared memory; AMD
work-items, VGPRs and LDS) at launches that put "now" at an axis, a cliff
near an edge and a long GPU name in the title:
- no text overlaps another text;
- nothing falls outside the canvas;
- no text covers the series (the step line), nor a marker's circle.
Exits 77 (skipped) without chromium.

usage: svg_browser.py OCCCALC
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

OCCCALC = sys.argv[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

CASES = [
    ["--vary", "regs", "--cc", "7.0", "--threads", "128", "--regs", "37"],
    ["--vary", "threads", "--gpu", "RTX 4090", "--regs", "64"],
    ["--vary", "smem", "--cc", "9.0", "--threads", "256", "--regs", "32"],
    ["--vary", "threads", "--gpu", "H100 SXM5 80GB", "--regs", "255", "--smem", "0"],
    ["--vary", "regs", "--cc", "8.6", "--threads", "1024", "--regs", "1", "--dyn-smem", "100K"],
    ["--vary", "barriers", "--cc", "9.0", "--threads", "256", "--regs", "32", "--barriers", "16"],
    ["--vary", "vgprs", "--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--sgprs", "32", "--lds", "16K"],
    ["--vary", "lds", "--gpu", "Radeon RX 7900 XTX", "--threads", "1024", "--vgprs", "256", "--wgp-mode"],
    ["--vary", "threads", "--gpu", "Radeon 8060S (Ryzen AI Max+ 395)", "--vgprs", "24"],
]

# Measures, in the page, every text's box against the others, the canvas,
# the series' segments and the markers; writes what it finds as JSON.
PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">
%s
<pre id="result">pending</pre>
<script>
const problems = [];
for (const svg of document.querySelectorAll("svg")) {
  const canvas = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll("text")].filter(t => t.textContent.trim() !== "");
  const boxes = texts.map(t => [t, t.getBoundingClientRect()]);
  const name = t => JSON.stringify(t.textContent.slice(0, 60));
  const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
                            a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  for (const [t, b] of boxes) {
    if (b.left < canvas.left - 0.5 || b.right > canvas.right + 0.5 ||
        b.top < canvas.top - 0.5 || b.bottom > canvas.bottom + 0.5)
      problems.push(`${svg.id}: ${name(t)} falls outside the canvas`);
  }
  for (let i = 0; i < boxes.length; ++i)
    for (let j = i + 1; j < boxes.length; ++j)
      if (overlap(boxes[i][1], boxes[j][1]))
        problems.push(`${svg.id}: ${name(boxes[i][0])} overlaps ${name(boxes[j][0])}`);
  // The series and the markers, in page coordinates.
  const m = svg.getScreenCTM();
  const toPage = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(m); };
  const shapes = [];
  for (const line of svg.querySelectorAll("polyline.series")) {
    const pts = line.getAttribute("points").trim().split(/\\s+/).map(p => p.split(",").map(Number));
    for (let k = 1; k < pts.length; ++k) {
      const a = toPage(...pts[k - 1]), b = toPage(...pts[k]);
      shapes.push({what: "the series", left: Math.min(a.x, b.x), right: Math.max(a.x, b.x) + 1,
                   top: Math.min(a.y, b.y), bottom: Math.max(a.y, b.y) + 1});
    }
  }
  for (const c of svg.querySelectorAll("circle")) shapes.push(Object.assign({what: "a marker"}, c.getBoundingClientRect().toJSON()));
  for (const [t, b] of boxes)
    for (const s of shapes)
      if (overlap(b, s)) { problems.push(`${svg.id}: ${name(t)} covers ${s.what}`); break; }
}
document.getElementById("result").textContent = JSON.stringify({charts: document.querySelectorAll("svg").length, problems});
</script></body></html>"""


def main():
    if CHROMIUM is None:
        print("chromium is not installed (scripts/install-deps --tests installs it): skipped")
        return 77
    svgs = []
    for i, args in enumerate(CASES):
        out = subprocess.run([OCCCALC, "sweep", *args, "--svg", "-"], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"FAIL occcalc sweep {' '.join(args)}: exit {out.returncode}: {out.stderr.strip()}")
            return 1
        svg = re.sub(r"^<\?xml[^>]*>\s*", "", out.stdout)
        svgs.append(svg.replace("<svg ", f'<svg id="case{i}" ', 1))
    with tempfile.TemporaryDirectory() as scratch:
        page = os.path.join(scratch, "charts.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(PAGE % "\n".join(svgs))
        dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                              f"--user-data-dir={scratch}/profile", "--window-size=800,1000", "--dump-dom",
                              "file://" + page], capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
    if not found or found.group(1) == "pending":
        print("FAIL the page did not run its measurements")
        return 1
    result = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
    for i, args in enumerate(CASES):
        print(f"case{i}: occcalc sweep {' '.join(args)}")
    for problem in result["problems"]:
        print("FAIL", problem)
    print(f"{result['charts']} SVG documents of 3 charts each rendered by Chromium; {len(result['problems'])} problems")
    return 1 if result["problems"] or result["charts"] != len(CASES) else 0


if __name__ == "__main__":
    sys.exit(main())
