#!/usr/bin/env python3
"""The C ABI against the command line: a C99 program (tests/capi/json_lines.c,
built here with -std=c99 -Wall -Wextra -Wpedantic -Werror against
include/occcalc.h and libocccalc.so) answers thousands of random requests
through occcalc_json from 8 threads at once, and every answer must be the line
`occcalc batch` prints for the same request: NVIDIA architectures, named GPUs
and families, clusters, AMD targets and GPUs under each model, and hostile
values (negative, huge, wrong types, not JSON, empty). A request that is not
JSON is "the request" in the C answer where batch says "line N" (and an
empty one "must hold" a request where each batch line must); nothing else may
differ. Exits 77 (skipped) without a C compiler.

    capi_json.py <occcalc CLI> <libocccalc.so> <source dir> [<C compiler> [<its flags>]]
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

cli, library, source = sys.argv[1:4]
compiler = shutil.which(sys.argv[4] if len(sys.argv) > 4 else "cc")
flags = sys.argv[5].split() if len(sys.argv) > 5 else []
# A sanitized library calls the sanitizers' C++ runtime, which a C link leaves out.
link_flags = ["-fsanitize-link-c++-runtime", "-lstdc++"] if any(f.startswith("-fsanitize") for f in flags) else []
if compiler is None:
    print("no C compiler: skipped")
    sys.exit(77)

rng = random.Random(53)
CCS = ["1.0", "2.1", "3.5", "5.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0", "12.1", "sm_90a"]
GPUS = ["RTX 4090", "A100", "H100", "H100 SXM5 80GB", "H200", "B200", "RTX 5090", "L4", "T4", "GB200"]
AMD = ["gfx803", "gfx906", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1201", "gfx1250", "cayman",
       "gfx11-generic", "gfx1310", "MI300X", "Radeon RX 7900 XTX", "Radeon HD 7770"]
HOSTILE = [-1, 0, 2**31, 2**63, 2**64, "abc", "1e3", "48KB", None, True, [], {}, 1.5, "\u2122", "x" * 5000]


def nvidia():
    r = {"threads": rng.choice([1, 32, 96, 128, 256, 512, 1024]), "regs": rng.randint(0, 255)}
    if rng.random() < 0.6:
        r["cc"] = rng.choice(CCS)
    else:
        r["gpu"] = rng.choice(GPUS)
    for key, values in [("smem", [0, 1024, 12000, "16K", 48 * 1024]), ("dyn_smem", [0, 2048, "64K", 100000]),
                        ("barriers", [0, 1, 4, 16]), ("carveout", ["default", "max-shared", 50]),
                        ("grid", [1, 999, 4096, 100000]), ("sm_count", [1, 66, 132]),
                        ("cluster", [1, 2, 4, 8, 16, "2x2x1", 3])]:
        if rng.random() < 0.25:
            r[key] = rng.choice(values)
    return r


def amd():
    r = {"gfx" if not rng.choice(AMD)[0].isupper() else "gpu": None}
    target = rng.choice(AMD)
    r = {("gpu" if " " in target or target.startswith("MI") else "gfx"): target,
         "threads": rng.choice([64, 128, 256, 512, 1024]), "vgprs": rng.choice([1, 24, 64, 96, 128, 256])}
    for key, values in [("sgprs", [0, 32, 100]), ("agprs", [0, 64, 256]), ("lds", [0, 4096, "32K", 65536]),
                        ("model", ["llvm", "hip", "rcp"]), ("wave32", [True]), ("wave64", [True]),
                        ("cu_mode", [True]), ("grid", [1, 5000])]:
        if rng.random() < 0.2:
            r[key] = rng.choice(values)
    return r


lines = []
for i in range(4000):
    r = nvidia() if rng.random() < 0.6 else amd()
    if rng.random() < 0.1:
        r[rng.choice(list(r))] = rng.choice(HOSTILE)
    if rng.random() < 0.05:
        r["id"] = rng.choice([i, f"k{i}", "\u00e9"])
    if rng.random() < 0.02:
        r["colour"] = "red"
    lines.append(json.dumps(r))
lines += ["", "   ", "not json", "[1, 2]", "{", '{"cc": "7.0", "cc": "8.0", "threads": 1, "regs": 1}',
          "[" * 10000, '{"cc": "7.0", "threads": 128, "regs": 37}']

with tempfile.TemporaryDirectory() as work:
    program = os.path.join(work, "json_lines")
    subprocess.run([compiler, "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O1", *flags,
                    "-I", os.path.join(source, "include"), os.path.join(source, "tests", "capi", "json_lines.c"),
                    library, f"-Wl,-rpath,{os.path.dirname(os.path.abspath(library))}", "-lpthread", *link_flags,
                    "-o", program],
                   check=True)
    text = "".join(line + "\n" for line in lines)
    batch = subprocess.run([cli, "batch"], input=text, capture_output=True, text=True).stdout.splitlines()
    run = subprocess.run([program], input=text, capture_output=True, text=True)
    if run.returncode != 0:
        print(f"the C program exited {run.returncode}: {run.stderr}")
        sys.exit(1)
    answers = run.stdout.splitlines()
    print(run.stderr.strip())

differ = 0
errors = 0
for number, (want, got) in enumerate(zip(batch, answers), 1):
    # Only where the text itself is named: batch's "line N" is the C call's "the request".
    want = re.sub(r'("message":")line \d+ ', r'\1the request ', want)
    want = re.sub(r'("message":")line \d+: ', r'\1the request: ', want)
    want = want.replace("is empty; every line must hold", "is empty; it must hold")
    errors += '"error":' in got
    if want != got:
        differ += 1
        if differ <= 5:
            print(f"line {number}: {lines[number - 1][:200]}\n  batch {want[:300]}\n  C     {got[:300]}")
if len(batch) != len(lines) or len(answers) != len(lines):
    print(f"{len(lines)} requests, {len(batch)} batch answers, {len(answers)} C answers")
    sys.exit(1)
print(f"{len(lines)} requests ({errors} refused) through occcalc_json from 8 threads: {differ} differ from "
      f"occcalc batch")
sys.exit(1 if differ else 0)
