#!/usr/bin/env python3
"""Writes the symbol order the static binary links with: the symbols occcalc's
common commands touch, in the order they first touch them. The static preset
runs this at build time on a probe binary linked in the default layout, then
links occcalc with the order (lld's --symbol-ordering-file,
cmake/static_link.cmake), so that those functions and data sit together and a
query faults in a few runs of pages, not pages across the whole binary.

  cmake/profile_layout.py BINARY ORDER

BINARY is a static occcalc with its symbols; ORDER the file written. Needs
valgrind: its lackey tool lists every instruction and data access.
"""
import bisect
import re
import shutil
import struct
import subprocess
import sys
import tempfile

QUERY = ["--cc", "7.0", "--threads", "128", "--regs", "37"]
# The query first: what bench/run and scripts in loops run. Then the other
# short commands, each adding what it touches that the ones before did not.
COMMANDS = [
    QUERY,
    QUERY + ["--json"],
    ["--gpu", "A100", "--threads", "256", "--regs", "64", "--smem", "48K"],
    ["--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--sgprs", "32", "--lds", "16K"],
    ["suggest", "--cc", "8.0", "--regs", "64"],
    ["--version"],
    ["--cc", "99"],
]
# nm's types for code and data.
KINDS = set("tTwWiIdDbBrRvVgGsSu")
# glibc chooses a string function's variant by the CPU (IFUNC), and valgrind's
# emulated CPU may choose another than the machine will: every variant of a
# family touched goes in beside it (__memmove_avx_unaligned_erms brings
# __memmove_evex_unaligned_erms, __memmove_avx512_unaligned_erms, ...).
CPU_VARIANT = re.compile(r"^(__[a-z0-9]+_)(?:sse2|ssse3|sse4|avx|evex|erms)")


def symbols(binary):
    """(start addresses, [(start, end, name)]) of the sized symbols, sorted."""
    out = subprocess.run(["nm", "--defined-only", "-n", "-S", binary], capture_output=True, text=True,
                         check=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in KINDS:
            rows.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
        elif len(parts) == 3 and parts[1] in KINDS:  # no size (crtstuff's, assembly's): up to the next
            rows.append((int(parts[0], 16), 0, parts[2]))
    rows.sort()
    table = []
    for i, (start, size, name) in enumerate(rows):
        end = start + size if size else (rows[i + 1][0] if i + 1 < len(rows) else start)
        if end > start:
            table.append((start, end, name))
    return [s for s, _, _ in table], table


def load_bias(binary, first_instruction):
    """0 for a position-dependent executable; for a PIE, where it was loaded
    (the first instruction run is the entry point)."""
    with open(binary, "rb") as f:
        header = f.read(32)
    kind = struct.unpack_from("<H", header, 16)[0]
    entry = struct.unpack_from("<Q", header, 24)[0]
    return 0 if kind == 2 else first_instruction - entry


def touched(binary, args, starts, table, seen, order):
    """Appends to `order` the symbols `binary args` touches that are not in `seen`."""
    with tempfile.NamedTemporaryFile(suffix=".trace") as trace:
        subprocess.run(["valgrind", "--tool=lackey", "--trace-mem=yes", "--log-file=" + trace.name, binary] + args,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        bias = None
        with open(trace.name) as lines:
            for line in lines:
                kind = line[:2].strip()
                if kind not in ("I", "L", "S", "M"):
                    continue
                address = int(line[3:].split(",")[0], 16)
                if bias is None:
                    if kind != "I":
                        continue
                    bias = load_bias(binary, address)
                address -= bias
                i = bisect.bisect_right(starts, address) - 1
                if i < 0 or address >= table[i][1]:
                    continue
                name = table[i][2]
                if name not in seen:
                    seen.add(name)
                    order.append(name)


def with_cpu_variants(order, names):
    """`order` with every CPU variant of the string functions in it."""
    out, seen = [], set()
    for name in order:
        family = CPU_VARIANT.match(name)
        for n in [name] + (sorted(n for n in names if n.startswith(family.group(1)) and CPU_VARIANT.match(n))
                           if family else []):
            if n not in seen:
                seen.add(n)
                out.append(n)
    return out


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: profile_layout.py BINARY ORDER")
    binary, order_file = argv
    if shutil.which("valgrind") is None:
        sys.exit("profile_layout: needs valgrind (apt-get install valgrind)")
    starts, table = symbols(binary)
    seen, order = set(), []
    for args in COMMANDS:
        touched(binary, args, starts, table, seen, order)
    if not order:
        sys.exit(f"profile_layout: {binary} touched no symbol it names under valgrind")
    order = with_cpu_variants(order, [name for _, _, name in table])
    with open(order_file, "w") as f:
        f.write("".join(name + "\n" for name in order))


if __name__ == "__main__":
    main(sys.argv[1:])
