#!/usr/bin/env python3
"""The Python module's speed, against floors measured in the same run:
one occupancy() call (goal: at most 1 us), against a Python call that takes
the same keyword arguments and does nothing; a named GPU's call;
occupancy_many over a million NumPy configurations (goal: at most 0.3 s and
100 MB over its inputs), against a NumPy pass over the same arrays and the
16 MB its two result arrays hold; and the import, against importing the
standard library's json.

  bench/python_bench.py BUILD_DIR   (the module under BUILD_DIR/python)
"""
import os
import subprocess
import sys
import time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
sys.path.insert(0, os.path.join(build, "python"))
import occcalc  # noqa: E402


def per_call_us(f, kwargs, rounds=5, n=100_000):
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(n):
            f(**kwargs)
        best = min(best, (time.perf_counter() - start) / n * 1e6)
    return best


def nothing(**kwargs):
    return None


query = dict(cc="7.0", threads=128, regs=37)
floor = per_call_us(nothing, query)
call = per_call_us(occcalc.occupancy, query)
print(f"occupancy(cc=\"7.0\", threads=128, regs=37): {call:.2f} us a call (goal: at most 1 us); "
      f"floor (a Python call of the same arguments): {floor:.2f} us")
named = per_call_us(occcalc.occupancy, dict(gpu="RTX 4090", threads=256, regs=64), n=20_000)
print(f"occupancy(gpu=\"RTX 4090\", threads=256, regs=64): {named:.2f} us a call (the name from the tables' index)")
family = per_call_us(occcalc.occupancy, dict(gpu="H100", threads=256, regs=64), n=20_000)
print(f"occupancy(gpu=\"H100\", threads=256, regs=64), a family: {family:.2f} us a call (goal: at most 2 us)")
try:
    import numpy
    rng = numpy.random.default_rng(7)
    n = 1_000_000
    threads = rng.integers(1, 33, n) * 32
    regs = rng.integers(0, 256, n)
    smem = rng.integers(0, 48 * 1024, n)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        occcalc.occupancy_many(threads, regs, smem, cc="8.0")
        best = min(best, time.perf_counter() - start)
    floor_s = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        numpy.minimum(numpy.minimum(threads, regs), smem).sum()
        floor_s = min(floor_s, time.perf_counter() - start)
    per_config = per_call_us(occcalc.occupancy, dict(cc="8.0", threads=256, regs=64, smem=4096), n=20_000)
    print(f"occupancy_many over 1,000,000 NumPy configurations: {best:.3f} s (goal: at most 0.3 s); "
          f"floor (a NumPy pass over the same arrays): {floor_s:.3f} s; a call each would take {per_config:.2f} s")
    # Memory: the peak of what Python and NumPy allocate during the call (tracemalloc), over its inputs.
    import tracemalloc
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    out = occcalc.occupancy_many(threads, regs, smem, cc="8.0")
    added_mb = (tracemalloc.get_traced_memory()[1] - before) / 1e6
    tracemalloc.stop()
    del out
    print(f"occupancy_many's memory over its inputs: {added_mb:.1f} MB at its peak (goal: at most 100 MB); "
          f"floor (its two result arrays): 16.0 MB")
except ImportError:
    print("occupancy_many: skipped (apt-get install python3-numpy)")
env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
timing = "import time; t = time.perf_counter(); import {}; print(time.perf_counter() - t)"
imports = {}
for module in ("json", "occcalc"):
    imports[module] = min(float(subprocess.run([sys.executable, "-c", timing.format(module)], env=env, check=True,
                                               capture_output=True, text=True).stdout) for _ in range(5))
print(f"import occcalc: {imports['occcalc'] * 1e3:.1f} ms (goal: under 20 ms); import json: "
      f"{imports['json'] * 1e3:.1f} ms")
