#!/usr/bin/env python3
"""Every JSON output of occcalc validates against its schema under schema/.

Runs the occcalc binary for every output kind (query results of both vendors,
batch results and error lines, inspect, check, list, suggest, sweep), checks
that each document names its schema_version and validates it with Debian's
python3-jsonschema (Draft 2020-12). The golden JSON files are validated too,
and a few broken documents must be rejected, so the check can fail.

usage: validate_schemas.py OCCCALC REPO_ROOT
"""
import copy
import json
import os
import subprocess
import sys

try:
    import jsonschema
except ImportError:  # reported, and CTest counts exit 77 as skipped
    print("python3-jsonschema is not installed (scripts/install-deps --tests installs it)")
    sys.exit(77)

OCCCALC, ROOT = sys.argv[1], sys.argv[2]
SCHEMA_DIR = os.path.join(ROOT, "schema")
FX = "tests/fixtures/inspect"
AMDFX = "tests/fixtures/amd"

schemas = {}
for name in sorted(os.listdir(SCHEMA_DIR)):
    if name.endswith(".schema.json"):
        with open(os.path.join(SCHEMA_DIR, name), encoding="utf-8") as f:
            schemas[name] = json.load(f)
store = {s["$id"]: s for s in schemas.values()}
for name, schema in schemas.items():
    jsonschema.Draft202012Validator.check_schema(schema)


def validator(name):
    schema = schemas[name]
    resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=store)
    return jsonschema.Draft202012Validator(schema, resolver=resolver)


failures = []
checked = 0


def check(doc, schema_name, what):
    global checked
    checked += 1
    if not isinstance(doc, dict) or "schema_version" not in doc:
        failures.append(f"{what}: no top-level schema_version")
        return
    errors = sorted(validator(schema_name).iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:3]:
        failures.append(f"{what}: {schema_name}: at {list(e.path)}: {e.message[:300]}")


def run(args, schema_name, stdin=None, rc=0, lines=False):
    what = "occcalc " + " ".join(args)
    p = subprocess.run([OCCCALC] + args, input=stdin, capture_output=True, text=True, cwd=ROOT,
                       env=dict(os.environ, NO_COLOR="1"))
    if p.returncode != rc:
        failures.append(f"{what}: exit {p.returncode}, expected {rc}: {p.stderr.strip()}")
        return []
    docs = [json.loads(line) for line in p.stdout.splitlines()] if lines else [json.loads(p.stdout)]
    for doc in docs:
        check(doc, schema_name, what)
    return docs


q = ["--threads", "256", "--regs", "48"]
run(["--cc", "7.0", "--threads", "128", "--regs", "37", "--json"], "result.schema.json")
run(["--gpu", "Tesla V100-SXM2-16GB", *q, "--grid", "138", "--json"], "result.schema.json")
run(["--cc", "9.0", *q, "--grid", "1000", "--sm-count", "132", "--json"], "result.schema.json")
run(["--cc", "8.6", "--threads", "128", "--regs", "32", "--dyn-smem", "100K", "--json"], "result.schema.json")
run(["--cc", "1.0", "--threads", "256", "--regs", "10", "--json"], "result.schema.json")
run(["--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--sgprs", "32", "--lds", "16K", "--json"],
    "result.schema.json")
run(["--gpu", "Instinct MI300X", "--threads", "1024", "--vgprs", "64", "--agprs", "64", "--json"],
    "result.schema.json")
run(["--gpu", "RX 7900 XTX", "--model", "hip", "--threads", "256", "--vgprs", "96", "--grid", "960", "--json"],
    "result.schema.json")
run(["--gpu", "Radeon HD 7770", "--model", "rcp", "--threads", "256", "--vgprs", "11", "--json"], "result.schema.json")
run(["--gpu", "Radeon HD 5870", "--threads", "256", "--vgprs", "40", "--json"], "result.schema.json")
# Clusters: measured, ranged, an SM count alone, none without a device; the cluster sweep.
run(["--gpu", "H100", *q, "--cluster", "2x2x2", "--json"], "result.schema.json")
run(["--cc", "9.0", *q, "--sm-count", "20", "--cluster", "16", "--json"], "result.schema.json")
run(["--cc", "12.0", *q, "--cluster", "8", "--json"], "result.schema.json")
run(["sweep", "--vary", "cluster", "--gpu", "RTX PRO 6000 Blackwell", *q, "--json"], "sweep.schema.json")
run(["suggest", "--gpu", "H200", *q, "--cluster", "8", "--json"], "suggest.schema.json")
run(["suggest", "--cc", "10.0", "--sm-count", "8", "--threads", "1024", "--regs", "64", "--cluster", "8", "--json"],
    "suggest.schema.json")
run(["sweep", "--vary", "cluster", "--cc", "9.0", "--sm-count", "8", *q, "--json"], "sweep.schema.json")
# An AMD work-group that cannot launch has reasons.
amd0 = run(["--gfx", "gfx90a", "--threads", "1024", "--vgprs", "256", "--json"], "result.schema.json")
if amd0 and not amd0[0]["reasons"]:
    failures.append("an AMD launch that cannot run has no reasons")

batch_in = "\n".join([
    '{"cc": "7.0", "threads": 128, "regs": 37, "id": "one"}',
    '',
    '{"cc": "7.0", "threads": 0, "regs": 37, "id": 2}',
    'not json',
    '{"gfx": "gfx1100", "threads": 256, "vgprs": 32, "wave32": false}',
    '{"gpu": "RTX 4090", "threads": 256, "regs": 64, "grid": 1000}',
]) + "\n"
run(["batch"], "result.schema.json", stdin=batch_in, rc=2, lines=True)
run(["batch", "--min-occupancy", "80"], "result.schema.json", stdin=batch_in, rc=2, lines=True)
with open(os.path.join(ROOT, "examples/requests.jsonl"), encoding="utf-8") as f:
    run(["batch"], "result.schema.json", stdin=f.read(), lines=True)

run(["inspect", f"{FX}/kernels.sm_90.cubin", "--json"], "inspect.schema.json")
run(["inspect", f"{FX}/cluster.sm_90.cubin", f"{FX}/app_rdc.log", f"{FX}/zstd.fatbin", "--json"], "inspect.schema.json")
run(["inspect", f"{AMDFX}/kernels.gfx90a.o", f"{AMDFX}/app_compressed.o", "--json"], "inspect.schema.json")
run(["inspect", "-", "--json"], "inspect.schema.json", stdin="ptxas info    : 0 bytes gmem\n")
run(["check", "--policy", "examples/occupancy-policy.json", f"{FX}/app", "--json"], "check.schema.json")
run(["check", "--policy", "tests/golden/strict-policy.json", f"{FX}/kernels.sm_90.log", "--json"],
    "check.schema.json", rc=1)
# An unreadable input and the block_size check; a static library.
run(["check", "--policy", "tests/golden/declared-policy.json", f"{FX}/kernels.sm_80.cubin", "no/such/input", "--json"],
    "check.schema.json", rc=2)
run(["inspect", f"{FX}/libkernels.a", "--json"], "inspect.schema.json")
run(["diff", f"{FX}/diff_old.sm_80.cubin", f"{FX}/diff_new.sm_80.cubin", "--json"], "diff.schema.json")
run(["diff", f"{FX}/kernels.sm_80.cubin", f"{FX}/kernels.sm_90.log", "--threads", "128", "--json"], "diff.schema.json")
for what in ["archs", "gpus", "amd", "all"]:
    run(["list", what, "--json"], "list.schema.json")
run(["suggest", "--gpu", "A100-SXM4-80GB", "--regs", "37", "--threads", "128", "--blocks", "2", "--json"],
    "suggest.schema.json")
run(["suggest", "--cc", "7.0", "--regs", "64", "--threads", "128", "--target", "75", "--json"], "suggest.schema.json")
run(["suggest", "--gpu", "Instinct MI210", "--vgprs", "128", "--sgprs", "32", "--lds", "24K", "--json"],
    "suggest.schema.json")
# Changes together (NVIDIA), and next steps under HIP's and RCP's models.
run(["suggest", "--gpu", "H100", "--regs", "96", "--smem", "48K", "--threads", "256", "--target", "75", "--json"],
    "suggest.schema.json")
for model in ("hip", "rcp"):
    run(["suggest", "--gfx", "gfx900", "--model", model, "--threads", "256", "--vgprs", "60", "--sgprs", "90", "--lds",
         "16K", "--json"], "suggest.schema.json")
run(["suggest", "--gpu", "Instinct MI210", "--vgprs", "128", "--lds", "24K", "--threads", "256", "--target", "30",
     "--json"], "suggest.schema.json")
for extra in [[], ["--target", "75"], ["--target", "100"], ["--sgprs", "100"]]:
    run(["suggest", "--gfx", "gfx90a", "--model", "llvm", "--threads", "256", "--vgprs", "128", "--lds", "16K", *extra,
         "--json"], "suggest.schema.json")
for vary in ["threads", "regs", "smem", "barriers"]:
    run(["sweep", "--vary", vary, "--cc", "9.0", "--threads", "256", "--regs", "32", "--json"], "sweep.schema.json")
for vary in ["threads", "vgprs", "sgprs", "lds"]:
    run(["sweep", "--vary", vary, "--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--sgprs", "32", "--json"],
        "sweep.schema.json")
for target in [["--cc", "9.0"], ["--cc", "7.5", "--regs", "64", "--smem", "8K"], ["--gpu", "RTX 4090"],
               ["--cc", "1.0"], ["--cc", "2.0", "--cache", "l1"]]:
    run(["limits", *target, "--threads", "256", "--json"], "limits.schema.json")
for target in [["--gfx", "gfx90a"], ["--gfx", "gfx1100", "--wave64", "--cu-mode"], ["--gfx", "gfx1250"],
               ["--gfx", "gfx11-generic"], ["--gpu", "Instinct MI300X"]]:
    run(["limits", *target, "--threads", "256", "--json"], "limits.schema.json")

# The golden files are outputs too.
golden = {"main.json": "result.schema.json", "hopper.json": "result.schema.json",
          "cluster.json": "result.schema.json", "cluster_sweep.json": "sweep.schema.json",
          "cannot_run.json": "result.schema.json", "amd_llvm.json": "result.schema.json",
          "inspect.json": "inspect.schema.json", "amd_inspect.json": "inspect.schema.json",
          "check_fail.json": "check.schema.json", "suggest.json": "suggest.schema.json",
          "sweep.json": "sweep.schema.json", "batch.jsonl": "result.schema.json",
          "batch_errors.jsonl": "result.schema.json", "amd_suggest.json": "suggest.schema.json",
          "amd_sweep.json": "sweep.schema.json", "list.json": "list.schema.json", "amd_check.json": "check.schema.json",
          "limits.json": "limits.schema.json", "amd_llvm_suggest.json": "suggest.schema.json", "amd_limits.json": "limits.schema.json"}
for name, schema_name in golden.items():
    with open(os.path.join(ROOT, "tests/golden", name), encoding="utf-8") as f:
        text = f.read()
    docs = [json.loads(line) for line in text.splitlines()] if name.endswith(".jsonl") else [json.loads(text)]
    for doc in docs:
        check(doc, schema_name, "tests/golden/" + name)

# The schemas must refuse what breaks the contract.
base = run(["--cc", "7.0", "--threads", "128", "--regs", "37", "--json"], "result.schema.json")[0]
broken = []
for mutate in [lambda d: d.pop("limits"), lambda d: d.update(schema_version=1), lambda d: d.update(arch={"id": "sm_70"}),
               lambda d: d.update(extra=1), lambda d: d["input"].pop("sm_count"), lambda d: d.update(occupancy="75%")]:
    doc = copy.deepcopy(base)
    mutate(doc)
    broken.append(doc)
for i, doc in enumerate(broken):
    if validator("result.schema.json").is_valid(doc):
        failures.append(f"broken result #{i} was accepted by result.schema.json")
inspect_array = [{"file": "x"}]
if validator("inspect.schema.json").is_valid(inspect_array):
    failures.append("a bare inspect array (schema_version 1 shape) was accepted")

# The contract table in docs/reference.md names every schema with the
# version its schema and the outputs carry.
def schema_versions(node):
    found = set()
    if isinstance(node, dict):
        version = node.get("properties", {}).get("schema_version", {})
        if isinstance(version, dict) and "const" in version:
            found.add(version["const"])
        for value in node.values():
            found |= schema_versions(value)
    elif isinstance(node, list):
        for value in node:
            found |= schema_versions(value)
    return found


import re  # noqa: E402
with open(os.path.join(ROOT, "docs", "reference.md"), encoding="utf-8") as f:
    reference = f.read()
table = dict(re.findall(r"^\|[^|\n]*\| `([a-z]+\.schema\.json)` \| (\d+) \|$", reference, re.M))
for name, schema in schemas.items():
    versions = schema_versions(schema)
    if name not in table:
        failures.append(f"docs/reference.md's contract table has no row for {name}")
    elif versions != {int(table[name])}:
        failures.append(f"docs/reference.md says {name} is version {table[name]}; the schema says {sorted(versions)}")

# The counts README.md and docs/ state, against the tables the binary lists.
listed = json.loads(subprocess.run([OCCCALC, "list", "--json"], capture_output=True, text=True, check=True).stdout)
counts = {key: len(listed[key]) for key in ("gpus", "amd_targets", "amd_gpus")}
stated = [("README.md", r"through 12\.1 and (\d+) named GPUs", "gpus"),
          ("README.md", r"\((\d+) targets, \d+ named GPUs\)", "amd_targets"),
          ("README.md", r"\(\d+ targets, (\d+) named GPUs\)", "amd_gpus"),
          ("docs/amd.md", r"(\d+) targets and \d+ named", "amd_targets"),
          ("docs/amd.md", r"\d+ targets and (\d+) named", "amd_gpus")]
for document, pattern, key in stated:
    with open(os.path.join(ROOT, document), encoding="utf-8") as f:
        found = re.search(pattern, f.read().replace("\n", " "))
    if not found:
        failures.append(f"{document} no longer states the count of {key} ({pattern})")
    elif int(found.group(1)) != counts[key]:
        failures.append(f"{document} says {found.group(1)} {key}; occcalc list has {counts[key]}")
row = re.search(r"^\| `schema_version` \| (\d+);", reference, re.M)
if not row or int(row.group(1)) != schema_versions(schemas["result.schema.json"]).pop():
    failures.append("docs/reference.md's result fields table gives another schema_version than result.schema.json")

for f in failures:
    print("FAIL", f)
print(f"{checked} documents validated against {len(schemas)} schemas; {len(failures)} failures")
sys.exit(1 if failures else 0)
