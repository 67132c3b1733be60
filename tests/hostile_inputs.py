#!/usr/bin/env python3
"""Hostile inputs, built at test time: each must end in exit 2 with one error
line (in batch: an error object on its line, every other line answered),
within a few seconds and under a 1 GiB address-space limit. Nothing large is
committed; the generators are here.

usage: hostile_inputs.py OCCCALC
"""
import json
import os
import resource
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time

OCCCALC = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LIMIT_AS = 1 << 30  # RLIMIT_AS for every run: memory stays bounded
MAX_SECONDS = 5.0 if os.environ.get("OCCCALC_TEST_NO_RLIMIT") != "1" else 30.0
failures = []
ran = 0


# A sanitizer build reserves terabytes of address space for its shadow memory:
# there the limit is left off (the sanitize test preset sets this).
NO_RLIMIT = os.environ.get("OCCCALC_TEST_NO_RLIMIT") == "1"


def limit_memory():
    if not NO_RLIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT_AS, LIMIT_AS))


def run(name, args, stdin=b"", rc=2, stderr_has=None, rlimit=True):
    """Runs occcalc; checks the exit code, one stderr line containing `stderr_has`, and the time."""
    global ran
    ran += 1
    start = time.monotonic()
    try:
        p = subprocess.run([OCCCALC] + args, input=stdin, capture_output=True, timeout=60, cwd=ROOT,
                           preexec_fn=limit_memory if rlimit else None, env=dict(os.environ, NO_COLOR="1"))
    except subprocess.TimeoutExpired:
        failures.append(f"{name}: still running after 60 s")
        return None
    took = time.monotonic() - start
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode != rc:
        failures.append(f"{name}: exit {p.returncode}, expected {rc}; stderr: {err[:300]!r}")
    if took > MAX_SECONDS:
        failures.append(f"{name}: took {took:.1f} s")
    if stderr_has is not None:
        if err.count("\n") != 1 or not err.startswith("occcalc: error: ") or stderr_has not in err:
            failures.append(f"{name}: stderr is not one error line with {stderr_has!r}: {err[:300]!r}")
        if len(err) > 2000:
            failures.append(f"{name}: the error line is {len(err)} bytes long")
    print(f"{name}: exit {p.returncode} in {took:.2f} s")
    return p


def write(directory, name, data):
    path = os.path.join(directory, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


GOOD = b'{"cc": "7.0", "threads": 128, "regs": 37}'


def check_batch(name, bad_lines, expect_in_error):
    """Good lines around each hostile one: every line is answered in place."""
    lines = [GOOD]
    for bad in bad_lines:
        lines += [bad, GOOD]
    p = run(name, ["batch"], stdin=b"\n".join(lines) + b"\n")
    if p is None:
        return
    out = p.stdout.decode().splitlines()
    if len(out) != len(lines):
        failures.append(f"{name}: {len(out)} output lines for {len(lines)} input lines")
        return
    for i, line in enumerate(out):
        doc = json.loads(line)
        if i % 2 == 0:
            if doc.get("occupancy") != 0.75:
                failures.append(f"{name}: good line {i + 1} got {line[:200]}")
        else:
            message = doc.get("error", {}).get("message", "")
            if expect_in_error[i // 2] not in message or len(line) > 2000:
                failures.append(f"{name}: line {i + 1}: {line[:300]}")


def elf_cubin(symbols):
    """A minimal EM_CUDA ELF: a .text section and a symbol table of `symbols` entry functions."""
    names = b"\0.shstrtab\0.strtab\0.symtab\0.text\0"
    strtab = b"\0k\0"
    sym = struct.pack("<IBBHQQ", 1, 0x12, 0x10, 4, 0, 16)  # "k", STB_GLOBAL|STT_FUNC, STO_CUDA_ENTRY, .text
    symtab = b"\0" * 24 + sym * symbols
    text = b"\0" * 16
    body = [names, strtab, symtab, text]
    offsets, at = [], 64
    for part in body:
        offsets.append(at)
        at += len(part)
    shoff = (at + 7) // 8 * 8
    header = b"\x7fELF" + bytes([2, 1, 1, 0x33, 7]) + b"\0" * 7
    header += struct.pack("<HHIQQQIHHHHHH", 2, 190, 1, 0, 0, shoff, 0x5a, 64, 56, 0, 64, 5, 1)
    sections = [b"\0" * 64]
    for (name, kind, link, entsize), offset, part in zip([(1, 3, 0, 0), (11, 3, 0, 0), (19, 2, 2, 24), (27, 1, 0, 0)],
                                                         offsets, body):
        sections.append(struct.pack("<IIQQQQIIQQ", name, kind, 6 if kind == 1 else 0, 0, offset, len(part), link,
                                    1 if kind == 2 else 0, 1, entsize))
    data = header + b"".join(body)
    return data + b"\0" * (shoff - len(data)) + b"".join(sections)


def batch_memory():
    """batch bounds what it holds by bytes, not lines: 1,000 lines of 200 KiB
    (each id echoed in its answer) once peaked at 425 MB; in flight now stays
    under 64 MiB plus one line, so the process under 96 MiB."""
    global ran
    if NO_RLIMIT:
        return  # a sanitizer's shadow memory is not occcalc's
    ran += 1
    line = ('{"cc": "7.0", "threads": 128, "regs": 37, "id": "' + "x" * (200 << 10) + '"}\n').encode()
    probe = ("import resource, subprocess, sys\n"
             "p = subprocess.run(sys.argv[1:], stdin=sys.stdin, stdout=subprocess.DEVNULL)\n"
             "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    p = subprocess.run([sys.executable, "-c", probe, OCCCALC, "batch"], input=line * 1000, capture_output=True)
    rc, peak_kib = (int(x) for x in p.stdout.split())
    print(f"batch of 1,000 lines of 200 KiB: exit {rc}, peak {peak_kib >> 10} MiB")
    if rc != 0 or peak_kib > 96 << 10:
        failures.append(f"batch of long lines: exit {rc}, peak {peak_kib} KiB (at most 96 MiB)")


def large_baseline(d):
    """A saved inspect --json over 64 MiB (libcublasLt's is 114 MB) reads as a
    baseline, record by record, into a packed store: it was refused as a 64
    MiB text file, a whole document of it took 812 MB, and a million records
    of nothing but their names cost 15 times the file. Both sides of a diff
    are the file: peak memory at most 5 times its size (docs/reference.md)."""
    global ran
    if NO_RLIMIT:
        return
    ran += 1
    one = subprocess.run([OCCCALC, "inspect", "--json", os.path.join(ROOT, "tests/fixtures/inspect/diff_old.sm_80.cubin")],
                         capture_output=True, check=True).stdout
    version = json.loads(one)["schema_version"]
    path = os.path.join(d, "large-baseline.json")
    with open(path, "w") as f:
        f.write('{"schema_version": %d, "inputs": [], "kernels": [\n' % version)
        f.write(",\n".join('{"file":"","kernel":"k%d","name":"","arch":"sm_80"}' % i for i in range(1_300_000)))
        f.write("\n]}\n")
    size = os.path.getsize(path)
    probe = ("import resource, subprocess, sys\n"
             "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
             "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    p = subprocess.run([sys.executable, "-c", probe, OCCCALC, "diff", path, path, "--fail-on-regression"],
                       capture_output=True)
    rc, peak_kib = (int(x) for x in p.stdout.split())
    print(f"a {size >> 20} MiB saved baseline of 1,300,000 bare records, both sides of a diff: exit {rc}, "
          f"peak {peak_kib >> 10} MiB ({(peak_kib << 10) / size:.1f} times the file)")
    if rc != 0 or size <= 64 << 20 or peak_kib << 10 > 5 * size:
        failures.append(f"a {size >> 20} MiB saved baseline: exit {rc}, peak {peak_kib} KiB (at most 5 times the file)")


def large_reports(d):
    """diff's JSON and SARIF reports are written as they go: with every kernel
    of a saved baseline removed, a document tree of the changes took 5.6 (JSON)
    and 11.5 (SARIF) times the baseline's size. Now at most 5 times, the
    report itself included."""
    global ran
    if NO_RLIMIT:
        return
    ran += 1
    cubin = os.path.join(ROOT, "tests/fixtures/inspect/kernels.sm_90.cubin")
    inspected = json.loads(subprocess.run([OCCCALC, "inspect", "--json", cubin], capture_output=True,
                                          check=True).stdout)
    records = inspected["kernels"]
    path = os.path.join(d, "removed-baseline.json")
    with open(path, "w") as f:
        f.write('{"schema_version": %d, "inputs": ["lib"], "kernels": [\n' % inspected["schema_version"])
        f.write(",\n".join(json.dumps(dict(records[i % len(records)], kernel=f"{records[i % len(records)]['kernel']}_v{i}"),
                                      separators=(",", ":")) for i in range(50_000)))
        f.write("\n]}\n")
    size = os.path.getsize(path)
    probe = ("import resource, subprocess, sys\n"
             "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
             "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    for fmt in ("json", "sarif"):
        p = subprocess.run([sys.executable, "-c", probe, OCCCALC, "diff", path, cubin, "--format", fmt],
                           capture_output=True)
        rc, peak_kib = (int(x) for x in p.stdout.split())
        print(f"diff --format {fmt} of a {size >> 20} MiB baseline whose 50,000 kernels are all removed: exit {rc}, "
              f"peak {peak_kib >> 10} MiB ({(peak_kib << 10) / size:.1f} times the baseline)")
        if rc != 0 or peak_kib << 10 > 5 * size:
            failures.append(f"diff --format {fmt} of a {size >> 20} MiB baseline: exit {rc}, peak {peak_kib} KiB "
                            "(at most 5 times the baseline)")


def edge_cases(d):
    """The reliability audit's remaining cases: never a silent pass, never an abort."""
    # Bytes that are not UTF-8 in a file name and in a kernel name: JSON stays
    # valid (U+FFFD), text shows them as \xNN (never raw: 0x9b is a terminal's
    # CSI).
    latin1 = os.path.join(d.encode(), b"k\xe9rnels.log")
    with open(latin1, "wb") as f:
        f.write(b"ptxas info    : Compiling entry function 'bad\xffname' for 'sm_90'\n"
                b"ptxas info    : Used 32 registers, used 1 barriers\n")
    for args in (["inspect", latin1, "--json", "--threads", "128"],
                 ["check", "--policy", "examples/occupancy-policy.json", latin1, "--json"]):
        p = subprocess.run([OCCCALC.encode()] + [a if isinstance(a, bytes) else a.encode() for a in args],
                           capture_output=True, cwd=ROOT)
        try:
            doc = json.loads(p.stdout.decode("utf-8"))
            text = json.dumps(doc, ensure_ascii=False)
            if "\ufffd" not in text or p.returncode not in (0, 1):
                failures.append(f"invalid UTF-8 {args[0]}: exit {p.returncode}, no U+FFFD: {text[:200]}")
        except ValueError as e:
            failures.append(f"invalid UTF-8 {args[0]}: not JSON ({e}); exit {p.returncode}; {p.stderr[:200]!r}")
    text = subprocess.run([OCCCALC.encode(), b"inspect", latin1], capture_output=True).stdout
    if b"bad\\xffname" not in text:
        failures.append("text output does not show a kernel name's non-UTF-8 byte as \\xff")
    # An empty value is an error, the gate's included; so is a policy with no limit.
    q = ["--cc", "7.0", "--threads", "128", "--regs", "37"]
    run("--min-occupancy ''", q + ["--min-occupancy", ""], stderr_has="--min-occupancy is empty")
    run("--kernel ' '", ["inspect", "tests/fixtures/inspect/app", "--kernel", " "], stderr_has="--kernel is empty")
    p = run("batch empty value", ["batch"], stdin=b'{"cc": "", "threads": 128, "regs": 37}\n')
    if p and b"cc is empty" not in p.stdout:
        failures.append(f"batch empty value: {p.stdout[:200]!r}")
    run("policy without limits", ["check", "--policy", write(d, "empty_policy.json", '{"schema_version": 1}'),
                                  "tests/fixtures/inspect/app"], stderr_has="the policy sets no limit")
    # A user table cannot take a built-in GPU's name.
    shadow = {"schema_version": 1, "gpus": [{"id": "rtx-4090", "name": "My 4090", "arch": "sm_89", "sm_count": 100,
                                             "sources": ["PG13"]}]}
    run("table shadowing a GPU", ["--gpu", "RTX 4090", "--threads", "1", "--regs", "1", "--table",
                                  write(d, "shadow.json", json.dumps(shadow))], stderr_has="also names")
    # batch as a coprocess: one request, its answer, before the next is written.
    global ran
    ran += 1
    co = subprocess.Popen([OCCCALC, "batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for i in range(3):
        co.stdin.write(b'{"cc": "7.0", "threads": 128, "regs": 37, "id": %d}\n' % i)
        co.stdin.flush()
        ready = select.select([co.stdout], [], [], 5.0)[0]
        line = co.stdout.readline() if ready else b""
        if json.loads(line or b"{}").get("id") != i:
            failures.append(f"batch as a coprocess: no answer to request {i} within 5 s")
            break
    # SIGBUS (a mapped input truncated under occcalc) is one line and exit 2.
    co.send_signal(signal.SIGBUS)
    _, err = co.communicate(timeout=10)
    if co.returncode != 2 or err.count(b"\n") != 1 or b"changed size while it was read" not in err:
        failures.append(f"SIGBUS: exit {co.returncode}, stderr {err!r}")


def main():
    with tempfile.TemporaryDirectory() as d:
        deep = b"[" * 300_000 + b"]" * 300_000
        # JSON: nesting, numbers, duplicates, NUL bytes, huge lines, in batch.
        check_batch("batch", [deep, b'{"cc": "7.0", "threads": 1e400, "regs": 37}',
                              b'{"cc": "7.0", "threads": 128, "threads": 64, "regs": 37}',
                              b'{"cc": "7.0\x00", "threads": 128, "regs": 37}',
                              b'{"gpu": "' + b"x" * 1_000_000 + b'", "threads": 128, "regs": 37}',
                              b'{"gpu": "' + b"x" * 3_000_000 + b'"}',
                              b'{"gpu": "\\u001b[31mred\\n", "threads": 128, "regs": 37}'],
                    ["nested more than 64", "number overflow", "duplicate key 'threads'", "NUL byte",
                     "is not a known GPU", "longer than 1 MiB", "gpu '\\x1b[31mred' is not a known GPU"])
        # Table files and policies.
        run("table nested", ["--cc", "7.0", "--threads", "1", "--regs", "1", "--table",
                             write(d, "deep.json", deep)], stderr_has="nested more than 64")
        many_keys = "{" + ",".join(f'"k{i}": {i}' for i in range(200_000)) + "}"
        run("table with 200,000 keys", ["--cc", "7.0", "--threads", "1", "--regs", "1", "--table",
                                        write(d, "keys.json", many_keys)], stderr_has="schema_version")
        gpus = {"schema_version": 1, "gpus": [{"id": f"lab-{i}", "name": f"Lab {i}", "arch": "sm_90", "sm_count": 1 + i % 132,
                                                "sources": ["PG13"]} for i in range(100_000)]}
        run("table with 100,000 GPUs", ["--gpu", "Lab 99999", "--threads", "128", "--regs", "32", "--table",
                                        write(d, "gpus.json", json.dumps(gpus))], rc=0)
        # Cluster layouts and sizes no GPU has: refused by the loader, never hours of search.
        huge = {"schema_version": 1, "gpus": [{"id": "lab", "name": "Lab", "arch": "sm_90", "sm_count": 200000,
                                               "sources": ["PG13"]}],
                "cluster_layouts": [{"id": "lab-layout", "gpus": ["lab"], "gpc_counts": [100],
                                     "max_tpcs_per_gpc": 100000, "sms_per_tpc": 2, "sources": ["PG13"]}]}
        for what, args in [("query", ["--cluster", "8"]), ("sweep", ["sweep", "--vary", "cluster"]),
                           ("suggest", ["suggest", "--cluster", "8"])]:
            run(f"table with a layout of 100 GPCs ({what})",
                args + ["--gpu", "Lab", "--threads", "128", "--regs", "32", "--table",
                        write(d, "layout.json", json.dumps(huge))], stderr_has="is not an integer in [1, 64]")
        wide = json.loads(open(os.path.join(ROOT, "data", "nvidia-architectures.json")).read())
        sm90 = dict(next(a for a in wide["architectures"] if a["id"] == "sm_90"), id="sm_99",
                    compute_capability="9.9", max_cluster_size_nonportable=2**31 - 1)
        wide = {"schema_version": 1, "sources": wide["sources"], "architectures": [sm90]}
        run("architecture with clusters of 2^31 - 1", ["--cc", "9.9", "--threads", "128", "--regs", "32",
                                                       "--cluster", "8", "--table", write(d, "wide.json", json.dumps(wide))],
            stderr_has="max_cluster_size_nonportable")
        run("table /dev/zero", ["--cc", "7.0", "--threads", "1", "--regs", "1", "--table", "/dev/zero"],
            stderr_has="larger than 64 MiB")
        run("table with a NUL", ["--cc", "7.0", "--threads", "1", "--regs", "1", "--table",
                                 write(d, "nul.json", b'{"schema_version": 1}\x00garbage')], stderr_has="NUL byte")
        log = "\n".join(f"ptxas info    : Compiling entry function '{name}' for 'sm_90'\n"
                        f"ptxas info    : Used 32 registers, used 1 barriers"
                        for name in ["ab" * 50_000 + "c", "x" * 20_000, "plain"]) + "\n"
        log_path = write(d, "kernels.log", log)
        run("policy nested", ["check", "--policy", write(d, "deep_policy.json", deep), log_path],
            stderr_has="nested more than 64")
        run("policy /dev/zero", ["check", "--policy", "/dev/zero", log_path], stderr_has="larger than 64 MiB")
        # Patterns: nested quantifiers and long names run in linear time.
        policy = {"schema_version": 1, "defaults": {"threads": 128},
                  "rules": [{"kernel": "(.*)*x$", "max_registers": 16}, {"kernel": "^(a|b)*$", "max_registers": 16}]}
        run("policy patterns", ["check", "--policy", write(d, "policy.json", json.dumps(policy)), log_path], rc=1)
        run("--kernel ^(a|b)*c$", ["inspect", log_path, "--kernel", "^(a|b)*c$"], rc=0)
        run("--kernel (.*)*x$", ["inspect", log_path, "--kernel", "(.*)*x$", "--threads", "128"], rc=0)
        run("--kernel huge pattern", ["inspect", log_path, "--kernel", "((a{1,100}){1,100}){1,100}"],
            stderr_has="is not a valid RE2 regular expression")
        # Binary readers: count bombs and unrecognised inputs.
        run("cubin of 2,000,001 symbols", ["inspect", write(d, "symbols.cubin", elf_cubin(2_000_000))],
            stderr_has="a symbol table of 2000001 symbols")
        run("cubin of 150,000 kernels", ["inspect", write(d, "kernels.cubin", elf_cubin(150_000))],
            stderr_has="a cubin declaring 150000 kernels")
        run("cubin of 3 kernels", ["inspect", write(d, "three.cubin", elf_cubin(3)), "--csv"], rc=0)
        long_line = b"ptxas info    : 0 bytes gmem\n" + b"x" * (2 << 20) + b"\n"
        run("log with a 2 MiB line", ["inspect", write(d, "long.log", long_line)],
            stderr_has="line 2 is longer than 1048576 bytes")
        run("one 3 MiB line of text", ["inspect", write(d, "text.txt", b"y" * (3 << 20))], stderr_has="not a cubin")
        sparse = os.path.join(d, "zeros.bin")
        with open(sparse, "wb") as f:
            f.truncate(4 << 30)
        run("4 GiB of zeros", ["inspect", sparse], stderr_has="not a cubin", rlimit=False)
        edge_cases(d)
        batch_memory()
        large_baseline(d)
        large_reports(d)
    for f in failures:
        print("FAIL", f)
    print(f"{ran} hostile runs; {len(failures)} failures")
    return 1 if failures else 0


sys.exit(main())
