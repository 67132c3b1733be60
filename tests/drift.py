#!/usr/bin/env python3
"""Drift that cannot go unnoticed: every GPU target the installed toolchains know is one occcalc knows.

- nvcc (`--list-gpu-code`, `--list-gpu-arch`): each compute capability answers, or is one the table lists
  as unlisted (`sm_88`), with the reason it gives;
- clang-19 and clang-22 (`-print-supported-cpus` for amdgcn): each processor, under its own name or LLVM's
  other name for it (`fiji` for gfx803), answers; for r600, every VLIW target occcalc answers is one clang
  knows, and the older R600/R700 processors, which no AMD occupancy model covers, are refused.

Usage: drift.py OCCCALC. Prints what each toolchain knows and what occcalc lacks; fails naming each target
occcalc lacks. Exit 77 (skipped) when none of the toolchains is installed.
"""
import json
import os
import re
import shutil
import subprocess
import sys

OCCCALC = sys.argv[1]
# The R600 and R700 processors clang still knows: AMD's calculators (RCP, CodeXL) start at Evergreen, and no
# published model gives their occupancy (docs/amd.md).
PRE_EVERGREEN = {"r600", "r630", "rs880", "rv670", "rv710", "rv730", "rv770"}
# Not processors: LLVM's stand-ins for "no particular GPU".
NOT_PROCESSORS = {"generic", "generic-hsa"}

failures = []
checked = 0


def batch(requests):
    """occcalc batch's answer to each request, in order."""
    text = "".join(json.dumps(r) + "\n" for r in requests)
    out = subprocess.run([OCCCALC, "batch"], input=text, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def nvcc_path():
    for candidate in [shutil.which("nvcc"), os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc")]:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def check_nvcc(nvcc):
    global checked
    names = set()
    for flag in ("--list-gpu-code", "--list-gpu-arch"):
        names |= set(subprocess.run([nvcc, flag], capture_output=True, text=True, check=True).stdout.split())
    ccs = sorted({m.group(1) for n in names if (m := re.fullmatch(r"(?:sm|compute)_(\d+)[af]?", n))}, key=int)
    answers = batch([{"cc": f"sm_{cc}", "threads": 32, "regs": 16} for cc in ccs])
    lacking = []
    for cc, answer in zip(ccs, answers):
        checked += 1
        message = answer.get("error", {}).get("message", "")
        if "error" in answer and "is not in the architecture table:" not in message:
            lacking.append(f"sm_{cc} ({message})")
    print(f"{nvcc}: {len(ccs)} compute capabilities ({', '.join('sm_' + c for c in ccs)}); occcalc lacks "
          f"{', '.join(lacking) or 'none'}")
    failures.extend(f"nvcc knows {name}, occcalc does not" for name in lacking)


def processors(clang, target):
    out = subprocess.run([clang, f"--target={target}", "-nogpulib", "-print-supported-cpus"], capture_output=True,
                         text=True)
    text = out.stdout + out.stderr
    if "Available CPUs for this target:" not in text:
        failures.append(f"{clang} --target={target} -print-supported-cpus listed no processors: {text[-300:]!r}")
        return []
    listed = text.split("Available CPUs for this target:", 1)[1].split("Use -mcpu", 1)[0]
    return sorted(set(listed.split()) - NOT_PROCESSORS)


def check_clang(clang):
    global checked
    gcn = processors(clang, "amdgcn-amd-amdhsa")
    answers = batch([{"gfx": p, "threads": 64, "vgprs": 8} for p in gcn])
    lacking = [p for p, a in zip(gcn, answers) if "error" in a]
    checked += len(gcn)
    vliw = processors(clang, "r600")
    answers = batch([{"gfx": p, "threads": 64, "vgprs": 8} for p in vliw])
    for p, a in zip(vliw, answers):
        checked += 1
        if p in PRE_EVERGREEN:
            if "error" not in a:
                failures.append(f"{clang}: {p} answers, but docs/amd.md says no model covers it: update both")
        elif "error" in a:
            lacking.append(p)
    print(f"{clang}: {len(gcn)} amdgcn and {len(vliw)} r600 processors; occcalc lacks {', '.join(lacking) or 'none'} "
          f"(and, by design, the pre-Evergreen {', '.join(sorted(PRE_EVERGREEN & set(vliw)))})")
    failures.extend(f"{clang} knows {p}, occcalc does not" for p in lacking)
    # The other way: every VLIW target occcalc answers for is one clang knows.
    known = {t["id"] for t in json.loads(subprocess.run([OCCCALC, "list", "amd", "--json"], capture_output=True,
                                                         text=True, check=True).stdout)["amd_targets"]}
    for t in sorted(known):
        if not t.startswith("gfx") and t not in vliw:
            failures.append(f"occcalc answers for {t}, which {clang} does not know")


def main():
    tools = 0
    nvcc = nvcc_path()
    if nvcc:
        tools += 1
        check_nvcc(nvcc)
    for clang in ("clang-19", "clang-22"):
        if shutil.which(clang):
            tools += 1
            check_clang(clang)
    if tools == 0:
        print("no nvcc, clang-19 or clang-22: nothing to compare")
        return 77
    for f in failures:
        print("FAIL", f)
    print(f"{checked} targets of {tools} toolchains checked; {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
