#!/usr/bin/env python3
"""The web page (build-web/web/index.html) as a person uses it, in headless
Chromium (Debian's chromium, driven over the DevTools pipe), held to the
CLI:
- configurations of both vendors (architectures, named GPUs, families, AMD
  targets and GPUs with every AMD field), typed into the form: what the page
  shows equals the CLI's --json for the command the page shows (the query
  and suggest), and each given figure is in that command;
- compiler logs pasted (ptxas, nvlink, AMD remarks, a figures line alone):
  each kernel's figures and occupancy equal `occcalc inspect LOG --json`'s;
- bad input in a field: the CLI's own message beside that field;
- hostile input (a link full of junk, a binary or huge log): a message, never
  a blank or a stuck page;
- the page requests nothing but itself, and says so in its CSP;
- at 360 and 1280 pixels wide, light and dark: nothing overflows the page
  and no field, label or output overlaps another (screenshots are written
  beside the page: web-*.png);
- every control has a label and is reached by the keyboard.
Exits 77 (skipped) without chromium.

usage: web_page.py PAGE OCCCALC
"""
import json
import os
import random
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import chromium  # noqa: E402

PAGE, OCCCALC = os.path.abspath(sys.argv[1]), sys.argv[2]
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
URL = "file://" + PAGE
TEXT_FIELDS = ["target", "threads", "regs", "smem", "dyn_smem", "carveout", "barriers", "vgprs", "agprs", "sgprs",
               "lds", "grid", "sm_count", "cluster"]

# Sets the form as a person would (each field, then an input event) and
# reads back what the page shows.
DRIVER = r"""
window.driver = {
  ready: () => new Promise((resolve) => {
    const wait = () => document.documentElement.dataset.ready ? resolve(true) : setTimeout(wait, 5);
    wait();
  }),
  set(config) {
    for (const key of %(fields)s) document.getElementById("f-" + key).value = config[key] ?? "";
    for (const key of ["wave", "mode", "model"]) document.getElementById("f-" + key).value = config[key] ?? "";
    const start = performance.now();
    document.getElementById("f-threads").dispatchEvent(new Event("input", {bubbles: true}));
    return performance.now() - start;
  },
  paste(text) {
    const log = document.getElementById("f-log");
    log.value = text;
    log.dispatchEvent(new Event("input", {bubbles: true}));
    return [...document.getElementById("f-kernel").options].map((o) => o.textContent);
  },
  kernel(index) {
    const select = document.getElementById("f-kernel");
    select.value = String(index);
    select.dispatchEvent(new Event("input", {bubbles: true}));
  },
  read() {
    const visible = (e) => e && !e.closest("[hidden]") && e.getClientRects().length > 0;
    const text = (id) => visible(document.getElementById(id)) ? document.getElementById(id).textContent : null;
    const keyed = (id) => Object.fromEntries([...document.querySelectorAll(`#${id} [data-key]`)]
      .filter(visible).map((e) => [e.dataset.key, e.textContent]));
    const messages = Object.fromEntries([...document.querySelectorAll(".msg")]
      .filter((m) => m.textContent !== "").map((m) => [m.id.slice(2), m.textContent]));
    const cli_messages = Object.fromEntries([...document.querySelectorAll(".msg")]
      .filter((m) => m.textContent !== "").map((m) => [m.id.slice(2), m.dataset.cli ?? m.textContent]));
    const fields = Object.fromEntries([...document.querySelectorAll("#kernel input, #kernel select")]
      .filter(visible).map((e) => [e.id.slice(2), e.value]));
    return {
      stale: document.getElementById("answer").classList.contains("stale"),
      occupancy: text("o-occupancy"),
      summary: text("o-summary"),
      limits: Object.fromEntries([...document.querySelectorAll("#o-limits tbody tr")]
        .map((r) => [r.dataset.resource, r.children[1].textContent])),
      limiters: [...document.querySelectorAll("#o-limits tr.limiter")].map((r) => r.dataset.resource),
      waves: keyed("o-waves"),
      cluster: keyed("o-cluster"),
      suggest: keyed("o-suggest"),
      steps: [...document.querySelectorAll("#o-steps li[data-resource]")].map((l) => l.dataset.resource),
      together: [...document.querySelectorAll("#o-steps li[data-together]")].map((l) => l.dataset.together),
      command: text("o-command"),
      suggest_command: text("o-suggest-command"),
      suggest_text: text("o-suggest-text"),
      cluster_sweep_command: text("o-cluster-sweep-command"),
      cluster_sweep: visible(document.getElementById("o-cluster-sweep"))
        ? [...document.querySelectorAll("#o-cluster-sweep tbody tr")].map((r) => [...r.children].map((c) => c.textContent))
        : null,
      text: text("o-text"),
      charts: document.querySelectorAll("#o-charts svg g.chart").length,
      messages, cli_messages, fields,
    };
  },
  // What a person sees broken: the page wider than the window, an element
  // past its edge, fields or outputs on top of one another.
  layout() {
    const problems = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1)
      problems.push(`the page is ${document.documentElement.scrollWidth}px wide in a ${width}px window`);
    const shown = (e) => !e.closest("[hidden]") && e.getClientRects().length > 0;
    const inScroller = (e) => e.closest(".scroll, pre");
    const name = (e) => e.id || e.tagName.toLowerCase() + (e.className ? "." + e.className : "") +
      ` "${e.textContent.trim().slice(0, 30)}"`;
    for (const e of document.querySelectorAll("h1, h2, p, label, input, select, textarea, .msg, .hint, table, dt, dd, li, code, pre, svg, summary")) {
      if (!shown(e) || inScroller(e)) continue;
      const r = e.getBoundingClientRect();
      if (r.left < -0.5 || r.right > width + 0.5) problems.push(`${name(e)} spans ${r.left.toFixed(0)}..${r.right.toFixed(0)} of ${width}px`);
    }
    // Chart type as drawn: its font size times the chart's scale.
    for (const svg of document.querySelectorAll("#o-charts svg")) {
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const px = parseFloat(svg.getAttribute("font-size")) * scale;
      if (px < 9) problems.push(`chart text is ${px.toFixed(1)}px (at least 9)`);
    }
    const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const groups = [".field", "#answer > *, #headline > *", ".commands > code", "#o-suggest > *", "#o-waves > *",
                    ".field > *", "header > *, main > *, footer > *"];
    for (const selector of groups) {
      const items = [...document.querySelectorAll(selector)].filter(shown).filter((e) => getComputedStyle(e).display !== "contents");
      for (let i = 0; i < items.length; ++i)
        for (let j = i + 1; j < items.length; ++j)
          if (items[i].parentElement === items[j].parentElement &&
              overlap(items[i].getBoundingClientRect(), items[j].getBoundingClientRect()))
            problems.push(`${name(items[i])} overlaps ${name(items[j])}`);
    }
    return problems;
  },
  // Every control has a label, and Tab reaches each in turn.
  keyboard() {
    const problems = [];
    const controls = [...document.querySelectorAll("input, select, textarea")].filter((e) => !e.closest("[hidden]"));
    for (const c of controls) {
      if (!document.querySelector(`label[for="${c.id}"]`)) problems.push(`${c.id} has no label`);
      if (c.tabIndex < 0) problems.push(`${c.id} is not reached by Tab`);
    }
    return problems;
  },
};
""" % {"fields": json.dumps(TEXT_FIELDS)}

failures = []
# The families asked with a grid, and those suggest answered as text (at
# least one each).
families = []
suggested = []
compiler_steps = []  # AMD configurations answered with the compiler's next steps
suggested_clusters = []  # configurations whose suggestion has the cluster
swept_clusters = []  # configurations with clusters by size
# Each answered configuration and what a fresh page showed for it.
fresh_reads = []


def fail(what):
    failures.append(what)
    print("FAIL", what, flush=True)


def cli(args):
    return subprocess.run([OCCCALC, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)


def tables():
    return json.loads(cli(["list", "all", "--json"]).stdout)


def configurations(t):
    """At least 100 requests of both vendors, the same every run."""
    rng = random.Random(35)
    nvidia = [a["id"] for a in t["architectures"]]
    ccs = [a["compute_capability"] for a in t["architectures"]]
    gpus = [g["name"] for g in t["gpus"]]
    amd_targets = [a["id"] for a in t["amd_targets"] if a["id"].startswith("gfx")]
    amd_gpus = [g["name"] for g in t["amd_gpus"]]
    configs = [
        {"target": "7.0", "threads": "128", "regs": "37"},
        {"target": "H100", "threads": "256", "regs": "64"},
        {"target": "A100", "threads": "512", "regs": "32", "smem": "16K"},
        {"target": "H100", "threads": "256", "regs": "64", "grid": "1000"},
        {"target": "RTX 4090", "threads": "256", "regs": "64", "grid": "1000"},
        {"target": "sm_90", "threads": "128", "regs": "32", "sm_count": "66", "grid": "500"},
        # Clusters: measured (exact), a family's products (measured, ranges), an SM count alone,
        # no device, a size refused.
        {"target": "H200", "threads": "128", "regs": "32", "cluster": "16"},
        {"target": "H100", "threads": "256", "regs": "64", "cluster": "2x2x1"},
        {"target": "RTX 5090", "threads": "256", "regs": "40", "cluster": "8"},
        {"target": "9.0", "threads": "256", "regs": "64", "sm_count": "20", "cluster": "12"},
        {"target": "10.0", "threads": "256", "regs": "64", "cluster": "4"},
        {"target": "H100 PCIe", "threads": "512", "regs": "32", "cluster": "8", "grid": "992"},
        {"target": "H100 SXM5 80GB", "threads": "512", "regs": "32", "cluster": "8", "grid": "992"},
        {"target": "B200", "threads": "256", "regs": "64", "cluster": "16", "grid": "4096"},
        {"target": "9.0", "threads": "256", "regs": "64", "cluster": "4x5"},
        # A family's products with a grid: per SM with each product's clusters; on one named GPU, clusters by size.
        {"target": "H100", "threads": "128", "regs": "64", "cluster": "4", "grid": "2000"},
        {"target": "RTX PRO 6000 Blackwell", "threads": "256", "regs": "48", "smem": "20K", "cluster": "6"},
        {"target": "MI300X", "threads": "256", "vgprs": "128", "grid": "4096"},
        {"target": "gfx1100", "threads": "256", "vgprs": "96", "wave": "wave64", "mode": "cu_mode"},
        {"target": "gfx90a", "threads": "512", "vgprs": "64", "agprs": "64", "sgprs": "48", "lds": "32K", "model": "hip"},
        {"target": "cayman", "threads": "256", "vgprs": "20", "model": "rcp"},
        # The compiler's next steps: VGPRs and LDS together.
        {"target": "gfx90a", "threads": "256", "vgprs": "128", "lds": "16K", "model": "llvm"},
        # Two limiters tied: no step gains alone, changes together do (NVIDIA, and RCP's model).
        {"target": "8.0", "threads": "256", "regs": "64", "smem": "40000"},
        {"target": "gfx900", "threads": "256", "vgprs": "60", "sgprs": "90", "lds": "16K", "model": "rcp"},
        # No block fits: 0%, with the reason.
        {"target": "7.0", "threads": "4096", "regs": "37"},
        {"target": "7.0", "threads": "128", "regs": "300"},
        {"target": "7.0", "threads": "128", "regs": "37", "smem": "200K"},
    ]
    for i in range(66):
        c = {"target": rng.choice([rng.choice(nvidia), rng.choice(ccs), rng.choice(gpus)]),
             "threads": str(rng.choice([32, 64, 96, 128, 192, 256, 384, 512, 768, 1024])),
             "regs": str(rng.randint(8, 128))}
        if rng.random() < 0.5:
            c["smem"] = str(rng.choice([0, 1024, 4096, 12000])) if rng.random() < 0.7 else "8K"
        if rng.random() < 0.3:
            c["dyn_smem"] = str(rng.choice([2048, 8192]))
        if rng.random() < 0.2:
            c["carveout"] = rng.choice(["max-shared", "50", "default"])
        if rng.random() < 0.2:
            c["barriers"] = str(rng.randint(1, 8))
        if rng.random() < 0.3:
            c["grid"] = str(rng.randint(1, 20000))
            if not c["target"] in gpus:
                c["sm_count"] = str(rng.randint(1, 200))
        configs.append(c)
    for i in range(66):
        c = {"target": rng.choice([rng.choice(amd_targets), rng.choice(amd_gpus)]),
             "threads": str(rng.choice([64, 128, 256, 512, 1024])),
             "vgprs": str(rng.choice([16, 24, 32, 48, 64, 96, 128, 256]))}
        if rng.random() < 0.5:
            c["sgprs"] = str(rng.randint(8, 100))
        if rng.random() < 0.5:
            c["lds"] = str(rng.choice([0, 4096, 16384, 32768]))
        if rng.random() < 0.3:
            c["wave"] = rng.choice(["wave32", "wave64"])
        if rng.random() < 0.3:
            c["model"] = rng.choice(["llvm", "hip", "rcp"])
        if rng.random() < 0.2:
            c["mode"] = rng.choice(["cu_mode", "wgp_mode"])
        if rng.random() < 0.3:
            c["grid"] = str(rng.randint(1, 20000))
        configs.append(c)
    return configs


def number(text):
    return None if text in (None, "no limit") else float(text.split()[0].rstrip("%"))


def check_answer(what, shown, doc):
    """What the page shows against the CLI's --json result."""
    if number(shown["occupancy"]) != doc["occupancy_percent"]:
        fail(f"{what}: occupancy {shown['occupancy']}, the CLI {doc['occupancy_percent']}")
    figures = f"{doc['blocks_per_sm']} "
    if not shown["summary"].startswith(figures) or f"{doc['active_warps_per_sm']} of {doc['max_warps_per_sm']}" not in shown["summary"]:
        fail(f"{what}: summary {shown['summary']!r} against the CLI's {doc['blocks_per_sm']} blocks, "
             f"{doc['active_warps_per_sm']} of {doc['max_warps_per_sm']}")
    limits = {k: number(v) for k, v in shown["limits"].items()}
    if limits != {k: v for k, v in doc["limits"].items()}:
        fail(f"{what}: limits {limits}, the CLI {doc['limits']}")
    if shown["limiters"] != doc["limiters"]:
        fail(f"{what}: limiters {shown['limiters']}, the CLI {doc['limiters']}")
    if doc.get("waves_per_sm") is not None:
        # Waves per SM with two decimals, as the CLI's text gives them.
        want = {"blocks_per_wave": str(doc["blocks_per_wave"]), "waves_per_sm": f"{doc['waves_per_sm']:.2f}",
                "full_waves": str(doc["full_waves"]),
                "tail_utilization": f"{round(doc['tail_utilization'] * 100, 2):g}% full",
                "whole_wave_grids": " or ".join(map(str, doc["whole_wave_grids"])) if doc.get("whole_wave_grids") else None}
        got = {k: shown["waves"].get(k) for k in want}
        if got != want:
            fail(f"{what}: waves {got}, the CLI {want}")
    elif any(g["waves"] for g in (doc.get("family") or {}).get("gpus", [])):
        # A family whose products differ in SMs: each product's waves.
        products = [g for g in doc["family"]["gpus"] if g["waves"]]
        want = {}
        for i, g in enumerate(products):
            w = g["waves"]
            want.update({f"grid_blocks:{i}": f"{doc['input']['grid']} blocks on {g['sm_count']} SMs",
                         f"blocks_per_wave:{i}": str(w["blocks_per_wave"]),
                         f"waves_per_sm:{i}": f"{w['waves_per_sm']:.2f}", f"full_waves:{i}": str(w["full_waves"]),
                         f"tail_utilization:{i}": f"{round(w['tail_utilization'] * 100, 2):g}% full"})
        if shown["waves"] != want:
            fail(f"{what}: a family's waves {shown['waves']}, the CLI {want}")
    elif shown["waves"]:
        fail(f"{what}: waves shown where the CLI has none")
    check_cluster(what, shown["cluster"], doc.get("cluster"))


def check_cluster(what, shown, cluster):
    """The page's cluster figures against the CLI's --json cluster."""
    if cluster is None:
        if shown:
            fail(f"{what}: a cluster shown where the CLI has none")
        return
    want = {"cluster_blocks": f"{cluster['blocks']} blocks" + ("" if cluster["portable"] else ", non-portable"),
            "cluster_blocks_per_sm": span(cluster["blocks_per_sm"])}
    devices = cluster["devices"]
    for i, d in enumerate(devices):
        key = (lambda name: f"{name}:{i}") if len(devices) > 1 else (lambda name: name)
        want[key("max_active_clusters")] = span(d["max_active_clusters"])
        want[key("cluster_occupancy")] = span(d["cluster_occupancy"], percent)
        want[key("largest_cluster_size")] = span(d["largest_cluster_size"])
        if d.get("waves_per_sm"):
            w = d["waves_per_sm"]
            want[key("cluster_waves_per_sm")] = (f"{w['fewest']:.2f} or more" if w["most"] is None else
                                                 span({"fewest": f"{w['fewest']:.2f}", "most": f"{w['most']:.2f}"}))
    got = {k: v.split(" (")[0] for k, v in shown.items()}
    if not devices:
        want["max_active_clusters"] = "name a GPU or its SMs"
    if got != want:
        fail(f"{what}: cluster {got}, the CLI {want}")


CLI_FLAG = re.compile(r"(^|[\s(])--[a-z]")


def check_words(what, shown):
    """The page speaks its own words: no CLI flag in a message it shows (the
    CLI's line is kept for scripts, in data-cli)."""
    for field, message in shown["messages"].items():
        if CLI_FLAG.search(message):
            fail(f"{what}: beside {field}, a CLI flag: {message!r}")


def check_configuration(b, config):
    """Returns whether the CLI answered (else it refused, and the page said
    the same beside the same field)."""
    what = json.dumps(config)
    b.evaluate(f"driver.set({json.dumps(config)})")
    shown = b.evaluate("driver.read()")
    command = shlex.split(shown["command"])
    for key in TEXT_FIELDS:
        value = config.get(key)
        flag = "--" + key.replace("_", "-") if key != "target" else None
        if value and flag and key in shown["fields"] and flag not in command:
            fail(f"{what}: the command {shown['command']!r} lacks {flag}")
    text = cli(command[1:])
    if text.returncode == 2:
        message = text.stderr.strip().removeprefix("occcalc: error: ")
        if list(shown["cli_messages"].values()) != [message] or not shown["stale"]:
            fail(f"{what}: the CLI refuses ({message}); the page says {shown['cli_messages']}")
        check_words(what, shown)
        return False
    # A family has no one min grid size: suggest answers it as text.
    if text.returncode != 0 or not set(shown["messages"]) <= {"suggest"}:
        fail(f"{what}: the CLI exits {text.returncode}; the page says {shown['messages']}")
        return False
    if text.stdout != shown["text"]:
        fail(f"{what}: the text differs from the CLI's:\n{text.stdout}\n---\n{shown['text']}")
    query = cli(command[1:] + ["--json"])
    if query.returncode != 0:
        fail(f"{what}: the CLI's --json exits {query.returncode} where its text answers")
        return False
    doc = json.loads(query.stdout)
    if any(g["waves"] for g in (doc.get("family") or {}).get("gpus", [])):
        # A family whose products differ in SMs, with a grid: each product's waves.
        families.append(config["target"])
    check_answer(what, shown, doc)
    suggest = cli(shlex.split(shown["suggest_command"])[1:] + ["--json"])
    if suggest.returncode == 0 and json.loads(suggest.stdout).get("model") == "llvm":
        # AMD under the compiler's model: its next steps, not a block size.
        doc = json.loads(suggest.stdout)
        want = {"waves_per_simd": doc["waves_per_simd"], "occupancy": None if doc["occupancy"] is None else round(doc["occupancy"] * 100, 2),
                "goal_waves_per_simd": doc["goal_waves_per_simd"]}
        got = {k: number(shown["suggest"].get(k)) for k in want}
        if got != want:
            fail(f"{what}: suggest {got}, the CLI {want}")
        if shown["steps"] != [s["resource"] for s in doc["steps"]]:
            fail(f"{what}: next steps {shown['steps']}, the CLI {doc['steps']}")
        compiler_steps.append(config["target"])
    elif suggest.returncode == 0:
        doc = json.loads(suggest.stdout)
        want = {"block_size": doc["block_size"], "blocks_per_sm": doc["blocks_per_sm"],
                "occupancy": None if doc["occupancy"] is None else round(doc["occupancy"] * 100, 2), "min_grid_size": doc.get("min_grid_size")}
        got = {k: number(shown["suggest"].get(k)) for k in want}
        if doc.get("family"):  # each product's min grid size
            suggested.append(config["target"])
            want["min_grid_size"] = ", ".join(f"{g['min_grid_size']} on {g['name']}" for g in doc["family"]["gpus"])
            got["min_grid_size"] = shown["suggest"].get("min_grid_size")
        ties = doc.get("tied_block_sizes") or []
        want["ties"] = ", ".join(map(str, ties)) if len(ties) > 1 else None
        got["ties"] = shown["suggest"].get("tied_block_sizes")
        want["recommended"] = doc.get("recommended_block_size") if len(ties) > 1 else None
        got["recommended"] = number(shown["suggest"].get("recommended_block_size"))
        if got != want:
            fail(f"{what}: suggest {got}, the CLI {want}")
        if shown["steps"] != [s["resource"] for s in doc.get("next_steps") or []]:
            fail(f"{what}: next steps {shown['steps']}, the CLI {doc.get('next_steps')}")
        together = [" ".join(c["knob"] for c in t["changes"]) for t in doc.get("together") or []]
        if shown["together"] != together:
            fail(f"{what}: changes together {shown['together']}, the CLI {together}")
        check_suggested_cluster(what, shown, doc.get("cluster"))
    else:
        # Where --json refuses, the text may still answer.
        text = cli(shlex.split(shown["suggest_command"])[1:])
        if text.returncode == 0:
            suggested.append(config["target"])
            if shown["suggest_text"] != text.stdout:
                fail(f"{what}: suggest's text differs from the CLI's:\n{text.stdout}\n---\n{shown['suggest_text']}")
        elif shown["cli_messages"].get("suggest") != text.stderr.strip().removeprefix("occcalc: error: "):
            fail(f"{what}: suggest refused ({text.stderr.strip()}); the page says {shown['messages']}")
    check_cluster_sweep(what, shown, config)
    if shown["charts"] != 3:
        fail(f"{what}: {shown['charts']} charts, not 3")
    check_words(what, shown)
    fresh_reads.append((config, shown))
    return True


def percent(fraction):
    """A fraction as the page gives it: a percent with at most two decimals."""
    return f"{round(fraction * 100, 2):g}%"


def span(r, show=str):
    """A {fewest, most} range as the page and the CLI's text give it."""
    return show(r["most"]) if r["fewest"] == r["most"] else f"{show(r['fewest'])} to {show(r['most'])}"


def check_suggested_cluster(what, shown, cluster):
    """suggest --cluster's now and best against the page's."""
    def clusters(c):
        return f"{span(c['max_active_clusters'])} clusters at once, {span(c['cluster_occupancy'], percent)} of the blocks"
    want = {} if cluster is None else {
        "cluster_now": clusters(cluster["now"]),
        "best_cluster_size": f"{cluster['best_cluster_size']}: {clusters(cluster['best'])}" if cluster["best"]
        else "none is sure to run a cluster"}
    got = {k: v for k, v in shown["suggest"].items() if k in ("cluster_now", "best_cluster_size")}
    if got != want:
        fail(f"{what}: suggest's clusters {got}, the CLI {want}")
    if cluster is not None:
        suggested_clusters.append(what)


def check_cluster_sweep(what, shown, config):
    """The page's clusters by size against sweep --vary cluster --json, shown
    exactly where suggest takes the cluster (one device)."""
    command = shown["cluster_sweep_command"]
    with_cluster = "--cluster" in shlex.split(shown["suggest_command"])
    if (command is None) != (not with_cluster) or (shown["cluster_sweep"] is None) != (not with_cluster):
        fail(f"{what}: suggest {shown['suggest_command']!r}, cluster sweep {command!r}")
        return
    if command is None:
        if "cluster" in config and config["target"] not in ("9.0", "10.0", "H100"):
            fail(f"{what}: a cluster on one device without suggest's cluster or a cluster sweep")
        return
    doc = json.loads(cli(shlex.split(command)[1:] + ["--json"]).stdout)
    want = [[f"{p['cluster_size']} best" if p["cluster_size"] == doc["best_cluster_size"] else str(p["cluster_size"]),
             span(p["max_active_clusters"]), span(p["blocks_in_clusters"]), span(p["cluster_occupancy"], percent)]
            for p in doc["points"]]
    if shown["cluster_sweep"] != want:
        fail(f"{what}: clusters by size {shown['cluster_sweep']}, the CLI {want}")
    swept_clusters.append(what)


def check_logs(b):
    """Each kernel of each log, picked in the page, against inspect."""
    logs = [os.path.join(FIXTURES, "inspect", f) for f in sorted(os.listdir(os.path.join(FIXTURES, "inspect")))
            if f.endswith(".log")]
    logs += [os.path.join(FIXTURES, "amd", f) for f in ("kernels.gfx1100.remarks", "mfma.gfx90a.remarks",
                                                        "call22.gfx90a.remarks")]
    count = 0
    for log in logs:
        with open(log, encoding="utf-8") as f:
            text = f.read()
        amd = log.endswith(".remarks")
        base = {"target": os.path.basename(log).split(".")[1] if amd else "7.0", "threads": "256"}
        args = ["inspect", log, "--threads", "256", "--json"] + (["--arch", base["target"]] if amd else [])
        records = json.loads(cli(args).stdout)["kernels"]
        # Remark lines not read, as inspect's heading (wrapped at 80 columns) names them.
        heading = " ".join(cli([a for a in args if a != "--json"]).stdout.split("\n  ")[0].split())
        unread_note = re.search(r"\d+ remark lines? not read \(.*\)", heading)
        unread_note = unread_note.group(0) if unread_note else None
        b.evaluate(f"driver.set({json.dumps(base)})")
        names = b.evaluate(f"driver.paste({json.dumps(text)})")
        if len(names) != len(records) and not (len(records) == 1 and names == []):
            fail(f"{log}: the page lists {len(names)} kernels, inspect {len(records)}")
            continue
        for i, record in enumerate(records):
            if names:
                b.evaluate(f"driver.kernel({i})")
            shown = b.evaluate("driver.read()")
            what = f"{os.path.basename(log)} kernel {i} ({record['name']})"
            if amd and shown["messages"].get("log") != unread_note:
                fail(f"{what}: the page says {shown['messages'].get('log')!r} of the log; inspect {unread_note!r}")
            if names and names[i] != record["name"]:
                fail(f"{what}: the page names it {names[i]!r}")
            # AMD: inspect records the VGPRs the target charges (VGPRs and
            # AGPRs); the occupancy below holds the page to it.
            figures = ({"agprs": record.get("agprs"), "sgprs": record.get("sgprs"),
                        "lds": record.get("static_smem_bytes")} if amd else
                       {"regs": record.get("registers"), "smem": record.get("static_smem_bytes")})
            for key, value in figures.items():
                if value is not None and shown["fields"].get(key) != str(value):
                    fail(f"{what}: {key} {shown['fields'].get(key)!r}, inspect {value}")
            if "occupancy" not in record:
                # No occupancy where inspect has none: a figure the log does not state is not the last kernel's.
                if shown["occupancy"] is not None and not shown["stale"]:
                    fail(f"{what}: the page shows {shown['occupancy']} where inspect has no occupancy "
                         f"({record.get('occupancy_unavailable')})")
                continue
            count += 1
            occupancy = record["occupancy"]
            if number(shown["occupancy"]) != occupancy["occupancy_percent"] or shown["limiters"] != occupancy["limiters"]:
                fail(f"{what}: {shown['occupancy']} limited by {shown['limiters']}; inspect "
                     f"{occupancy['occupancy_percent']} limited by {occupancy['limiters']}")
    # A figures line pasted alone.
    b.evaluate("driver.set({target: '8.6', threads: '256'})")
    b.evaluate("driver.paste('ptxas info    : Used 72 registers, 2048 bytes smem, 400 bytes cmem[0]')")
    shown = b.evaluate("driver.read()")
    if shown["fields"].get("regs") != "72" or shown["fields"].get("smem") != "2048":
        fail(f"a figures line alone: regs {shown['fields'].get('regs')}, smem {shown['fields'].get('smem')}")
    check_answer("a figures line alone", shown,
                 json.loads(cli(["--cc", "8.6", "--threads", "256", "--regs", "72", "--smem", "2048", "--json"]).stdout))
    b.evaluate("driver.paste('')")
    # A GPU picked before its log, the rest of the form still empty: a log of its architecture keeps it.
    for target in ("H100", "H100 SXM5 80GB"):
        b.evaluate(f"driver.set({{target: {json.dumps(target)}}})")
        b.evaluate("driver.paste(" + json.dumps("ptxas info    : Compiling entry function '_Z4gemmPf' for 'sm_90a'\n"
                                                "ptxas info    : Used 40 registers, 4096 bytes smem") + ")")
        shown = b.evaluate("driver.read()")
        if shown["fields"].get("target") != target or shown["fields"].get("regs") != "40":
            fail(f"{target} then a log for sm_90a: the target became {shown['fields'].get('target')!r} "
                 f"(regs {shown['fields'].get('regs')!r})")
        b.evaluate("driver.paste('')")
    return count


BAD_INPUTS = [
    ({"threads": "0"}, "threads"), ({"threads": "abc"}, "threads"), ({"regs": "-1"}, "regs"),
    ({"regs": "999999999999999999999"}, "regs"), ({"smem": "48KB"}, "smem"), ({"smem": "1e9"}, "smem"), ({"dyn_smem": "x"}, "dyn_smem"), ({"carveout": "sometimes"}, "carveout"),
    ({"barriers": "99"}, "barriers"), ({"grid": "0"}, "grid"), ({"sm_count": "-3"}, "sm_count"),
    ({"target": "H1000"}, "target"), ({"target": "sm_5"}, "target"), ({"target": "RTX 4060 Tie"}, "target"),
    ({"target": "Bob's \"GPU\" $HOME"}, "target"),
    ({"target": "gfx90a", "vgprs": "9999"}, "vgprs"), ({"target": "gfx90a", "vgprs": "64", "lds": "1G"}, "lds"),
    ({"target": "gfx90a", "vgprs": "64", "wave": "wave32"}, "wave"),
    ({"target": "gfx90a", "vgprs": "64", "mode": "cu_mode"}, "mode"),
    ({"target": "gfx90a", "vgprs": "64", "sgprs": "lots"}, "sgprs"),
    ({"target": "gfx90a", "vgprs": "64", "model": "rcp"}, "model"),
    ({"target": "gfx90a", "threads": "256"}, "vgprs"),
]


def check_bad_inputs(b):
    for change, field in BAD_INPUTS:
        config = {"target": "7.0", "threads": "128", "regs": "37", **change}
        if config["target"].startswith("gfx"):
            config.pop("regs")
        b.evaluate(f"driver.set({json.dumps(config)})")
        shown = b.evaluate("driver.read()")
        what = json.dumps(change)
        if list(shown["messages"]) != [field]:
            fail(f"{what}: messages {shown['messages']}, expected one beside {field}")
            continue
        if not shown["stale"]:
            fail(f"{what}: the last answer is not marked stale")
        run = cli(shlex.split(shown["command"])[1:])
        message = run.stderr.strip().removeprefix("occcalc: error: ")
        if run.returncode != 2 or shown["cli_messages"][field] != message:
            fail(f"{what}: the page says {shown['cli_messages'][field]!r}; the CLI (exit {run.returncode}) {message!r}")
        check_words(what, shown)
        if change == {"regs": "-1"}:
            # docs/web.md quotes this message: it must be the page's.
            doc = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "web.md"),
                       encoding="utf-8").read().replace("\n  ", " ")
            if f"`{shown['messages'][field]}`" not in doc:
                fail(f"docs/web.md does not quote the page's message for regs -1: {shown['messages'][field]!r}")
    b.evaluate("driver.set({target: ''})")
    if "target" not in b.evaluate("driver.read()")["messages"]:
        fail("an empty target: no message beside it")


def check_hostile(b):
    junk = "#target=%00%FF&threads=-5&regs=1e999&wave=wave128&model=%3Cscript%3E&smem=" + "9" * 5000
    b.open(URL + junk)
    b.evaluate(DRIVER)
    b.evaluate("driver.ready()")
    shown = b.evaluate("driver.read()")
    if not shown["messages"]:
        fail(f"a link full of junk: no message; the page shows {shown}")
    for text, why in [("\x00\x01ELF" * 1000, "a binary"), ("ptxas info : Used 99999999999999999999 registers\n", "a figure past 64 bits"),
                      ("ptxas info    : Used 1 registers\n" * 150000, "a long log"), ("x" * (5 << 20), "a huge paste"),
                      ("ptxas info    : Compiling entry function '_Z1f\ud800' for 'sm_80'\nptxas info    : Used 8 registers\n",
                       "a lone surrogate in a name")]:
        b.evaluate(f"driver.paste({json.dumps(text)})")
        shown = b.evaluate("driver.read()")
        if why == "a lone surrogate in a name":  # read, the name's bad code unit replaced
            if shown["fields"].get("regs") != "8":
                fail(f"{why}: regs {shown['fields'].get('regs')!r}, not 8")
        elif "log" not in shown["messages"]:
            fail(f"{why} pasted: no message beside the log")
        elif why == "a figure past 64 bits" and not shown["messages"]["log"].startswith("line 1:"):
            fail(f"{why}: {shown['messages']['log']!r} does not name line 1, the line pasted")
    if b.evaluate("document.documentElement.dataset.ready") != "true":
        fail("the page stopped answering after hostile input")


# Makes a trap on demand: every export of each calculator the page starts
# throws WebAssembly's own trap when the text it is handed holds TRAP, as a
# stack overflow or an access out of bounds does, leaving that instance as
# it was. The page must mark its answer stale, say so beside the field, and
# start a fresh calculator.
TRAPS = r"""
(() => {
  const instantiate = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const made = await instantiate(source, imports);
    const real = made.instance.exports;
    const memory = Object.values(real).find((e) => e instanceof WebAssembly.Memory);
    const exports = {};
    for (const [name, e] of Object.entries(real)) {
      exports[name] = typeof e !== "function" ? e : (...args) => {
        const at = args[0];
        if (typeof at === "number" && at > 0 && at + 64 <= memory.buffer.byteLength &&
            new TextDecoder().decode(new Uint8Array(memory.buffer, at, 64)).includes("TRAP")) {
          throw new WebAssembly.RuntimeError("memory access out of bounds");
        }
        return e(...args);
      };
    }
    return {instance: {exports}, module: made.module};
  };
})();
"""


def ptxas_log(name, registers=8):
    return (f"ptxas info    : Compiling entry function '{name}' for 'sm_80'\n"
            f"ptxas info    : Used {registers} registers\n")


def hostile_pastes():
    """50 pastes: names nested past the demangler's cap in each form the
    browser's stack cannot take (kept mangled, as the CLI keeps them), NUL
    bytes, binaries, junk, huge pastes and traps."""
    rng = random.Random(41)
    pastes = []
    for i in range(50):
        kind = i % 10
        if kind == 0:
            levels = rng.choice([129, 2000, 4000])
            pastes.append(("deep templates", ptxas_log("_Z1f" + "I1a" * levels + "E" * levels + "vv", 8 + i)))
        elif kind == 1:
            levels = rng.choice([65, 3000, 5000])
            pastes.append(("deep function types", ptxas_log("_Z1f" + "PF" * levels + "v" + "E" * levels, 8 + i)))
        elif kind == 2:
            text = ptxas_log("_Z1fv")
            at = rng.randrange(len(text))
            pastes.append(("a NUL byte", text[:at] + "\0" + text[at:]))
        elif kind == 3:
            pastes.append(("a trap reading a log", "TRAP" + ptxas_log("_Z1fv")))
        elif kind == 4:
            pastes.append(("binary", "".join(chr(rng.randrange(256)) for _ in range(4000))))
        elif kind == 5:
            pastes.append(("junk", "".join(rng.choice("ptxas info:Used registers'_ZN\n0123456789") for _ in range(3000))))
        elif kind == 6:
            pastes.append(("a huge paste", "ptxas info    : Used 1 registers\n" * rng.choice([1000, 150000])))
        elif kind == 7:
            pastes.append(("a deep name in a long name", ptxas_log("_ZN" + "1a" * 5000 + "1fE" + "I1a" * 1000 + "E" * 1000 + "v")))
        elif kind == 8:
            pastes.append(("control characters", ptxas_log("_Z1f\x1b[31m\u202ev")))
        else:
            pastes.append(("an unterminated name", "ptxas info    : Compiling entry function '" + "_Z" * 5000))
    return pastes


def check_recovery(b, fresh):
    """Hostile pastes, then the configurations answered on a fresh page:
    every answer equal to the fresh page's."""
    b.send("Page.addScriptToEvaluateOnNewDocument", source=TRAPS)
    b.open(URL)
    b.evaluate(DRIVER)
    b.evaluate("driver.ready()")
    b.evaluate("driver.set({target: '8.0', threads: '128', regs: '32'})")
    pastes = hostile_pastes()
    traps = 0
    for why, text in pastes:
        b.evaluate(f"driver.paste({json.dumps(text)})")
        b.evaluate("new Promise((r) => setTimeout(r, 50))")  # a restart is asynchronous
        b.evaluate("driver.ready()")
        shown = b.evaluate("driver.read()")
        message = shown["messages"].get("log", "")
        if why == "a trap reading a log":
            traps += 1
            if "The calculator stopped reading this log" not in message:
                fail(f"{why}: the page says {shown['messages']}")
        elif why == "a NUL byte" and "a NUL byte at offset" not in message:
            fail(f"{why}: the page says {message!r}")
        elif why.startswith("deep"):
            # Kept mangled, as inspect keeps it; the figures are read.
            log = os.path.join(os.path.dirname(PAGE), "deep.log")
            with open(log, "w", encoding="utf-8") as f:
                f.write(text)
            record = json.loads(cli(["inspect", log, "--json"]).stdout)["kernels"][0]
            if record["name"] != record["kernel"] or shown["fields"].get("regs") != str(record["registers"]):
                fail(f"{why}: inspect names it {record['name'][:40]!r}...; the page shows regs {shown['fields'].get('regs')}")
        elif why in ("binary", "junk") and not message:
            fail(f"{why}: no message beside the log")
    # A trap answering the fields: stale, said beside the answer, and the
    # next change answered by a fresh calculator.
    b.evaluate("driver.set({target: 'TRAP', threads: '128', regs: '32'})")
    b.evaluate("new Promise((r) => setTimeout(r, 200))")
    shown = b.evaluate("driver.read()")
    if not shown["stale"] or "The calculator stopped on these fields" not in shown["messages"].get("answer", ""):
        fail(f"a trap answering the fields: stale {shown['stale']}, messages {shown['messages']}")
    b.evaluate("driver.paste('')")
    differ = 0
    for config, want in fresh[:100]:
        b.evaluate(f"driver.set({json.dumps(config)})")
        got = b.evaluate("driver.read()")
        if got != want:
            differ += 1
            if differ <= 3:
                keys = [k for k in want if got.get(k) != want[k]]
                fail(f"after hostile pastes, {json.dumps(config)} differs from a fresh page in {keys}")
    print(f"{len(pastes)} hostile pastes ({traps} traps) and a trap on the fields, then {min(len(fresh), 100)} "
          f"configurations: {differ} differ from a fresh page", flush=True)
    return len(pastes)


def check_layout(b):
    out = os.path.dirname(PAGE)
    scenes = [
        ("nvidia", {"target": "RTX 4090", "threads": "256", "regs": "64", "grid": "1000"}),
        ("amd", {"target": "Radeon 8060S (Ryzen AI Max+ 395)", "threads": "1024", "vgprs": "256", "lds": "32K",
                 "mode": "cu_mode", "wave": "wave64"}),
        ("family", {"target": "H100", "threads": "256", "regs": "64", "grid": "1000"}),
        ("cluster", {"target": "RTX PRO 6000 Blackwell", "threads": "256", "regs": "48", "cluster": "6", "grid": "1998"}),
        ("error", {"target": "H100", "threads": "128", "regs": "300", "smem": "99999999999"}),
    ]
    for width in (360, 1280):
        for dark in (False, True):
            b.open(URL, width=width, height=900, dark=dark)
            b.evaluate(DRIVER)
            b.evaluate("driver.ready()")
            for name, config in scenes:
                b.evaluate(f"driver.set({json.dumps(config)})")
                b.evaluate("document.getElementById('log-panel').open = true")
                for problem in b.evaluate("driver.layout()"):
                    fail(f"{width}px{' dark' if dark else ''}, {name}: {problem}")
                if not dark or name == "nvidia":
                    b.screenshot(os.path.join(out, f"web-{width}-{name}{'-dark' if dark else ''}.png"))
            for problem in b.evaluate("driver.keyboard()"):
                fail(f"{width}px: {problem}")


def check_served(b):
    """From a static host (Python's http.server on loopback): it answers,
    and asks the host for nothing but itself."""
    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1", "0"],
                              cwd=os.path.dirname(PAGE), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(server.stdout.readline().split(" port ")[1].split()[0])
        url = f"http://127.0.0.1:{port}/{os.path.basename(PAGE)}"
        b.events.clear()
        b.open(url + "#target=H100&threads=256&regs=64")
        b.evaluate(DRIVER)
        b.evaluate("driver.ready()")
        shown = b.evaluate("driver.read()")
        if number(shown["occupancy"]) != 50.0:
            fail(f"served over HTTP: occupancy {shown['occupancy']}, not 50%")
        for request in b.requests:
            if request.split("#")[0] not in (url, "about:blank"):
                fail(f"served over HTTP, the page requested {request[:120]}")
    finally:
        server.terminate()
        server.wait()


def main():
    if chromium.CHROMIUM is None:
        print("chromium is not installed (scripts/install-deps --web installs it): skipped")
        return 77
    global OCCCALC
    if not os.access(OCCCALC, os.X_OK):
        # A clean clone's web workflow: the CLI the page is held to is built
        # here, alone (the cli preset: no tests, a minute or two).
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        print(f"{OCCCALC} is not built: building the CLI to compare with (cmake --preset cli)", flush=True)
        for step in (["cmake", "--preset", "cli"], ["cmake", "--build", "--preset", "cli"]):
            if subprocess.run(step, cwd=root, stdout=subprocess.DEVNULL).returncode != 0:
                print(f"FAIL {' '.join(step)} failed: the page is compared with the CLI")
                return 1
        OCCCALC = os.path.join(root, "build-cli", "src", "occcalc")
    with open(PAGE, encoding="utf-8") as f:
        page = f.read()
    if "default-src 'none'" not in page:
        fail("the page's Content-Security-Policy does not forbid requests")
    configs = configurations(tables())
    with chromium.Browser() as b:
        b.open(URL)
        b.evaluate(DRIVER)
        b.evaluate("driver.ready()")
        answered = sum(check_configuration(b, config) for config in configs)
        print(f"{len(configs)} configurations checked: {answered} answered, the rest refused as the CLI does", flush=True)
        if not families or not suggested or not compiler_steps or len(suggested_clusters) < 5 or len(swept_clusters) < 5:
            fail(f"families asked with a grid: {families}; suggested as text: {suggested}; the compiler's next "
                 f"steps: {compiler_steps}; suggested with a cluster: {suggested_clusters}; clusters by size: "
                 f"{swept_clusters}")
        if answered < 100:
            fail(f"only {answered} configurations answered; the page is held to at least 100")
        kernels = check_logs(b)
        print(f"{kernels} logged kernels checked", flush=True)
        check_bad_inputs(b)
        check_hostile(b)
        print("bad and hostile input checked", flush=True)
        others = [u for u in b.requests if u.split("#")[0] != URL and u != "about:blank"]
        pastes = check_recovery(b, fresh_reads)
        check_layout(b)
        for url in others:
            fail(f"the page requested {url[:120]}")
        requests = len(b.requests)
        check_served(b)
    print(f"{len(configs)} configurations ({answered} answered; {len(suggested_clusters)} suggested with their cluster, {len(swept_clusters)} with clusters by size), {kernels} logged kernels, {len(BAD_INPUTS) + 1} bad inputs, "
          f"hostile input, {pastes} hostile pastes then 100 configurations as on a fresh page, 20 layouts (5 scenes at 360 and 1280 px, light and dark) and the page served over HTTP; {requests} requests from disk, all the page itself; "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
