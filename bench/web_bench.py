#!/usr/bin/env python3
"""The web page's figures, in headless Chromium (Debian's chromium), each
beside its floor measured in the same run:
- its size, and gzipped (as a host serves it), against the WebAssembly's
  own gzipped size;
- the first answer after navigation starts, against the browser's reading of
  the file (domInteractive), over 10 loads;
- each change (a field typed, its input event, until the page is laid out
  again), over 200 changes, against the calculator's own call.

usage: web_bench.py PAGE
"""
import gzip
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
import chromium  # noqa: E402

READY = """new Promise((resolve) => {
  const wait = () => document.documentElement.dataset.ready ? resolve(true) : setTimeout(wait, 5);
  wait();
})"""

LOAD = """(() => {
  const mark = (name) => performance.getEntriesByName("occcalc:" + name)[0].startTime;
  return [mark("answered"), performance.getEntriesByType("navigation")[0].domInteractive];
})()"""

# Alternates between configurations of both vendors, so each change is a new
# answer; returns [the whole change, the calculator's call alone] in ms.
CHANGES = """((count) => {
  const configs = [
    {target: "7.0", threads: "128", regs: "37"}, {target: "H100", threads: "256", regs: "64", grid: "1000"},
    {target: "RTX 4090", threads: "512", regs: "40", smem: "8K"}, {target: "MI300X", threads: "256", vgprs: "128"},
    {target: "gfx1100", threads: "256", vgprs: "96"}];
  const set = (c) => {
    for (const key of ["target", "threads", "regs", "smem", "vgprs", "grid"])
      document.getElementById("f-" + key).value = c[key] ?? "";
  };
  const whole = [], call = [];
  for (let i = 0; i < count; ++i) {
    const c = configs[i % configs.length];
    set(c);
    let start = performance.now();
    document.getElementById("f-threads").dispatchEvent(new Event("input", {bubbles: true}));
    document.body.getBoundingClientRect();  // the layout the change needs
    whole.push(performance.now() - start);
    start = performance.now();
    occcalc.answer(c);
    call.push(performance.now() - start);
  }
  return [whole, call];
})(COUNT)"""


def median(values):
    return statistics.median(values)


def p95(values):
    return sorted(values)[int(len(values) * 0.95)]


def main():
    page = os.path.abspath(sys.argv[1])
    with open(page, "rb") as f:
        raw = f.read()
    wasm = os.path.join(os.path.dirname(page), "occcalc_web.wasm")
    with open(wasm, "rb") as f:
        wasm_gz = len(gzip.compress(f.read(), 9))
    print(f"size: {len(raw) / 1000:.0f} KB, {len(gzip.compress(raw, 9)) / 1000:.0f} KB gzipped "
          f"(the WebAssembly alone: {os.path.getsize(wasm) / 1000:.0f} KB, {wasm_gz / 1000:.0f} KB gzipped; goal: 500 KB gzipped)")
    if chromium.CHROMIUM is None:
        print("(no chromium: the times are not measured)")
        return 0
    with chromium.Browser() as b:
        answered, read = [], []
        for _ in range(10):
            b.open("file://" + page)
            b.evaluate(READY)
            a, r = b.evaluate(LOAD)
            answered.append(a)
            read.append(r)
        print(f"first answer: median {median(answered):.0f} ms after navigation starts (best {min(answered):.0f}, "
              f"worst {max(answered):.0f}); the browser reading the file: median {median(read):.0f} ms (goal: 100 ms)")
        b.evaluate(CHANGES.replace("COUNT", "50"))  # warm: the WebAssembly's optimizing tier
        whole, call = b.evaluate(CHANGES.replace("COUNT", "200"))
        print(f"each change: median {median(whole):.1f} ms, 95th percentile {p95(whole):.1f} ms, laid out; "
              f"the calculator's call alone: median {median(call):.1f} ms (goal: 16 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
