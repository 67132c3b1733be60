#!/usr/bin/env python3
"""tools/day-one's programs, built as their README says and run: on a machine with the GPU, what each prints
loads with --table and answers for the GPU it names; without one, each says so in one line naming the runtime
call, exit 2. A wrong argument gets the usage line, exit 2. The entries they print are held to occcalc's tables
by tests/tools/day_one_test.cpp.

Usage: day_one_programs.py OCCCALC SOURCE_DIR. Exit 77 (skipped) when neither nvcc nor HIP's headers are
installed.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

OCCCALC, SOURCE = sys.argv[1], sys.argv[2]
TOOLS = os.path.join(SOURCE, "tools", "day-one")
failures = []


def nvcc():
    for candidate in [shutil.which("nvcc"), os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc")]:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def builds(work):
    """(program, how it was built) for each toolchain installed."""
    out = []
    compiler = nvcc()
    if compiler:
        exe = os.path.join(work, "occcalc-table-nvidia")
        out.append((exe, [compiler, "-std=c++17", "-o", exe, os.path.join(TOOLS, "occcalc-table-nvidia.cu")]))
    if os.path.exists("/usr/include/hip/hip_runtime_api.h"):
        exe = os.path.join(work, "occcalc-table-amd")
        out.append((exe, ["c++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-D__HIP_PLATFORM_AMD__", "-o", exe,
                          os.path.join(TOOLS, "occcalc-table-amd.cpp"), "-lamdhip64"]))
    return out


def check(exe, command):
    name = os.path.basename(exe)
    built = subprocess.run(command, capture_output=True, text=True)
    if built.returncode != 0:
        failures.append(f"{name}: does not build: {built.stderr.strip()[-2000:]}")
        return
    run = subprocess.run([exe, "--name", "Day One Lab GPU"], capture_output=True, text=True, timeout=120)
    if run.returncode == 0:
        table = os.path.join(os.path.dirname(exe), name + ".json")
        with open(table, "w") as f:
            f.write(run.stdout)
        vendor = ["--vgprs", "32"] if "amd" in name else ["--regs", "32"]
        query = subprocess.run([OCCCALC, "--table", table, "--gpu", "Day One Lab GPU", "--threads", "256", *vendor,
                                "--json"], capture_output=True, text=True)
        if query.returncode != 0:
            failures.append(f"{name}: its table does not answer: {query.stderr.strip()}\n{run.stdout}")
        else:
            print(f"{name}: on this GPU: {json.loads(query.stdout).get('occupancy')}")
    else:
        lines = run.stderr.strip().splitlines()
        if run.returncode != 2 or len(lines) != 1 or not lines[0].startswith(name + ": error: ") or run.stdout:
            failures.append(f"{name}: without a GPU: exit {run.returncode}, stderr {run.stderr!r}, stdout "
                            f"{run.stdout[:200]!r}; expected exit 2 and one line '{name}: error: CALL: WHY'")
        else:
            print(f"{name}: no GPU here: {lines[0]}")
    # A wrong argument, or a device that is not an index (never read as device 0): the usage line.
    for args in (["--frobnicate"], ["--device", "abc"], ["--device", "-1"], ["--device"], ["--name"]):
        wrong = subprocess.run([exe, *args], capture_output=True, text=True, timeout=60)
        if wrong.returncode != 2 or not wrong.stderr.startswith("usage: "):
            failures.append(f"{name}: {' '.join(args)}: exit {wrong.returncode}, stderr {wrong.stderr!r}")


with tempfile.TemporaryDirectory() as work:
    found = builds(work)
    if not found:
        print("neither nvcc nor HIP's headers are installed: skipped")
        sys.exit(77)
    for exe, command in found:
        check(exe, command)

for failure in failures:
    print("FAIL:", failure)
sys.exit(1 if failures else 0)
