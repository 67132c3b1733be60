#!/usr/bin/env python3
"""Reports safe to render: kernel names and policy reasons full of Markdown and HTML
(backtick runs, tags, links, autolinks, emphasis, table pipes, bidi overrides) go through
`check --format markdown` and `diff --format markdown`, and GitHub's renderer (cmark-gfm,
with its table, autolink and strikethrough extensions and raw HTML let through) must
show no HTML element, link, emphasis or invisible character that came from the data.
Seeded: the same reports every run. Exits 77 (skipped) without cmark-gfm.

usage: markdown_safety.py OCCCALC [--reports N]
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

OCCCALC = os.path.abspath(sys.argv[1])
# Reports in all (half check, half diff), ten hostile names each: 1,000 by default; a tenth
# under the sanitizers (the sanitize preset's OCCCALC_TEST_NO_RLIMIT), where each run costs
# ten times as much; `--reports 10000` in the authorities preset.
REPORTS = (int(sys.argv[sys.argv.index("--reports") + 1]) // 2 if "--reports" in sys.argv else
           50 if os.environ.get("OCCCALC_TEST_NO_RLIMIT") == "1" else 500)
PIECES = ["`", "``", "```", "````", "<img src=x onerror=alert(1)>", "<script>x</script>", "<b>", "</td>",
          "[link](https://evil.example)", "![i](https://evil.example/i.png)", "*em*", "**strong**", "_u_", "~~del~~",
          "|", "\\", "\\|", "www.evil.example", "https://evil.example/x", "mail@evil.example", "&amp;", "&#60;b&#62;",
          "<!--", "-->", "\u202e", "\u2066", "\u200b", "\ufeff", "\x1b[2J", "\r", "#", "> ", "- ", "1. ", " ", "  ",
          "<", ">", "&", "(", ")", "{", "}", "::", "kernel", "float*", "int", "é", "\u6f22"]
# What our own reports render: anything else came from the data.
OWN_TAGS = {"h3", "p", "table", "thead", "tbody", "tr", "th", "td", "code", "ul", "li", "strong"}
OWN_STRONG = {"fail", "regressed", "new", "removed", "improved", "changed", "allowed", "warn"}
INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def hostile_name(rng, controls=True):
    """Pieces of Markdown and HTML; a policy refuses control characters in its text (a test of its own)."""
    pieces = PIECES if controls else [p for p in PIECES if not any(ord(c) < 0x20 for c in p)]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(1, 8))).replace("'", "")


def log(names, registers):
    """A ptxas -v log of `names`, each with `registers`."""
    lines = []
    for name in names:
        lines += [f"ptxas info    : Compiling entry function '{name}' for 'sm_80'",
                  f"ptxas info    : Function properties for {name}",
                  "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads",
                  f"ptxas info    : Used {registers} registers, 0 bytes cmem[0]"]
    return "\n".join(lines) + "\n"


def render(markdown):
    return subprocess.run(["cmark-gfm", "--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough"],
                          input=markdown, capture_output=True, text=True, check=True).stdout


def problems(html):
    found = []
    for tag in re.findall(r"<\s*/?\s*([a-zA-Z][a-zA-Z0-9]*)", html):
        if tag.lower() not in OWN_TAGS:
            found.append(f"<{tag}> element")
    for strong in re.findall(r"<strong>(.*?)</strong>", html, re.S):
        if strong not in OWN_STRONG:
            found.append(f"<strong>{strong}</strong> from data")
    if "<!--" in html:
        found.append("an HTML comment")
    if INVISIBLE.search(html):
        found.append("an invisible format character")
    return found


def main():
    if shutil.which("cmark-gfm") is None:
        print("cmark-gfm not found (apt-get install cmark-gfm): skipped")
        return 77
    rng = random.Random(20261127)
    failures = 0
    names_checked = 0
    with tempfile.TemporaryDirectory() as scratch:
        old, new, policy = (os.path.join(scratch, f) for f in ("old.log", "new.log", "policy.json"))
        for i in range(2 * REPORTS):
            names = sorted({hostile_name(rng) for _ in range(10)})
            names_checked += len(names)
            if i % 2 == 0:
                with open(new, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(log(names, 255))
                with open(policy, "w") as f:
                    json.dump({"schema_version": 1, "defaults": {"threads": 256, "min_occupancy": 50},
                               "allow": [{"kernel": ".", "check": "occupancy", "reason": hostile_name(rng, controls=False)}]
                               if rng.random() < 0.5 else []}, f)
                command = [OCCCALC, "check", "--policy", policy, new, "--format", "markdown"]
            else:
                with open(old, "w") as f:
                    f.write(log(names, 32))
                with open(new, "w") as f:
                    f.write(log(names[1:] + [hostile_name(rng)], 64))
                command = [OCCCALC, "diff", old, new, "--format", "markdown"]
            run = subprocess.run(command, capture_output=True)
            if run.returncode not in (0, 1):
                print(f"FAIL exit {run.returncode}: {' '.join(command[1:3])}: {run.stderr[-300:]!r}")
                failures += 1
                continue
            markdown = run.stdout.decode("utf-8", "replace")
            found = problems(render(markdown))
            if found:
                failures += 1
                if failures <= 5:
                    print(f"FAIL {command[1]}: {found[:3]}\nnames: {names!r}\n{markdown[:1500]}")
    print(f"{2 * REPORTS} reports ({REPORTS} check, {REPORTS} diff) of {names_checked} hostile names rendered by "
          f"cmark-gfm: {failures} with HTML, links, emphasis or invisible characters from data")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
