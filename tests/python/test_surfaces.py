"""One answer on every surface: the same 5,000 requests through `occcalc batch`,
the C ABI's occcalc_json (ctypes), the Python module, and, for every tenth,
the command line's --json and text. Each surface gives the same figures or the
same refusal: NVIDIA architectures, GPUs and families (with grids on products
that differ in SMs), clusters, AMD targets and GPUs under each model, and
hostile values. The page is held to the command line by tests/web_page.py."""
import ctypes
import json
import os
import random
import re
import subprocess

import pytest

import occcalc

CLI = os.environ["OCCCALC_CLI"]
LIBRARY = os.environ.get("OCCCALC_LIBRARY")

CCS = ["2.0", "3.5", "5.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0", "sm_90a", "70", 8.6, 7.0]
GPUS = ["RTX 4090", "A100", "H100", "H100 PCIe", "B200", "RTX 5090", "L4", "V100", "GTX 1060", "H1000"]
AMD = ["gfx803", "gfx906", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1201", "gfx1250", "cayman", "gfx1310"]
AMD_GPUS = ["MI300X", "Radeon RX 7900 XTX", "MI250X"]
HOSTILE = [-1, 0, 2 ** 31, "abc", "48KB", "", 1.5]


def request(rng):
    if rng.random() < 0.6:
        r = {"threads": rng.choice([1, 32, 96, 128, 256, 512, 1024, 2048]), "regs": rng.randint(0, 255)}
        if rng.random() < 0.5:
            r["cc"] = rng.choice(CCS)
        else:
            r["gpu"] = rng.choice(GPUS)
        for key, values, odds in [("smem", [0, 1024, "16K", 48 * 1024], 0.3), ("dyn_smem", [0, 2048, "64K"], 0.3),
                                  ("barriers", [0, 1, 4, 16], 0.2), ("carveout", ["default", "max-shared", 50], 0.15),
                                  ("cache", ["shared", "l1"], 0.05), ("grid", [1, 999, 4096, 100000], 0.3),
                                  ("sm_count", [1, 66, 132], 0.1), ("cluster", [1, 2, 4, 8, 16, "2x2x1", 3], 0.2)]:
            if rng.random() < odds:
                r[key] = rng.choice(values)
    else:
        target = rng.choice(AMD + AMD_GPUS)
        r = {("gpu" if target in AMD_GPUS else "gfx"): target, "threads": rng.choice([64, 128, 256, 512, 1024]),
             "vgprs": rng.choice([1, 24, 64, 96, 128, 256])}
        for key, values, odds in [("sgprs", [32, 100], 0.2), ("agprs", [64, 256], 0.1), ("lds", [0, 4096, "32K"], 0.3),
                                  ("model", ["llvm", "hip", "rcp"], 0.3), ("wave32", [True], 0.1),
                                  ("wave64", [True], 0.1), ("cu_mode", [True], 0.1), ("grid", [1, 5000], 0.2)]:
            if rng.random() < odds:
                r[key] = rng.choice(values)
    if rng.random() < 0.05:
        r[rng.choice(list(r))] = rng.choice(HOSTILE)
    return r


def flags(r):
    args = []
    for key, value in r.items():
        flag = "--" + key.replace("_", "-")
        args += [flag] if value is True else [flag, str(value)]
    return args


def without_entries(doc):
    """A single --json document less what only it holds (the table entries)."""
    return {k: v for k, v in doc.items() if k not in ("architecture", "device")}


def test_every_surface_gives_one_answer():
    rng = random.Random(53)
    requests = [request(rng) for _ in range(5000)]
    lines = subprocess.run([CLI, "batch"], input="".join(json.dumps(r) + "\n" for r in requests),
                           capture_output=True, text=True).stdout.splitlines()
    assert len(lines) == len(requests)
    c = None
    if LIBRARY:
        c = ctypes.CDLL(LIBRARY)
        c.occcalc_json.restype = ctypes.c_void_p
        c.occcalc_json.argtypes = [ctypes.c_char_p]
        c.occcalc_free.argtypes = [ctypes.c_void_p]
    counts = {"answered": 0, "refused": 0, "c": 0, "cli": 0, "families with a grid": 0}
    for i, (r, line) in enumerate(zip(requests, lines)):
        batch = json.loads(line)
        if c is not None:
            answer = c.occcalc_json(json.dumps(r).encode())
            assert ctypes.string_at(answer).decode() == line, r
            c.occcalc_free(answer)
            counts["c"] += 1
        refused = "error" in batch
        counts["refused" if refused else "answered"] += 1
        if refused:
            with pytest.raises((occcalc.Error, TypeError)) as e:
                occcalc.occupancy(**r)
            if isinstance(e.value, occcalc.Error):
                # The same refusal, in Python's words for what batch calls a key.
                assert e.value.field == batch["error"]["field"], r
                assert str(e.value).replace("the argument out", "the key out") == batch["error"]["message"], r
            else:
                # A value of a type the argument never takes (True for threads): Python's TypeError, naming it.
                assert str(e.value).startswith(batch["error"]["field"] + " "), (r, str(e.value))
        else:
            assert without_entries(occcalc.occupancy(**r).to_dict()) == batch, r
            family = batch.get("family") or {}
            counts["families with a grid"] += any(g["waves"] for g in family.get("gpus", []))
        if i % 10:
            continue
        # The command line, one process a request: --json and text say the same.
        as_json = subprocess.run([CLI, *flags(r), "--json"], capture_output=True, text=True)
        as_text = subprocess.run([CLI, *flags(r)], capture_output=True, text=True)
        assert as_json.returncode == as_text.returncode == (2 if refused else 0), r
        if refused:
            assert as_json.stderr == as_text.stderr and as_json.stderr.startswith("occcalc: error: --"), r
        else:
            doc = json.loads(as_json.stdout)
            assert without_entries(doc) == batch, r
            shown = re.search(r"Theoretical occupancy\s+([\d.]+)%", as_text.stdout)
            assert shown and shown.group(1) == f"{doc['occupancy'] * 100:.1f}", r
        counts["cli"] += 1
    print(counts)
    assert counts["answered"] > 2500 and counts["refused"] > 500 and counts["families with a grid"] > 20
    assert counts["cli"] == 500 and (counts["c"] == 5000 or not LIBRARY)
