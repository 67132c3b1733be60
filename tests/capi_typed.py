#!/usr/bin/env python3
"""The C ABI's typed calls (occcalc_nvidia_occupancy, occcalc_amd_occupancy and
their device lookups) from another language, Python's ctypes, from 8 threads
at once: every answer must be the figures `occcalc batch` gives for the same
request, and every refusal its message, for random and hostile launches on
NVIDIA architectures, GPUs and families and on AMD targets and GPUs under
each model. Where NVIDIA's cuda_occupancy.h is built in (the oracle), each
typed NVIDIA answer on an architecture is also held to
cudaOccMaxActiveBlocksPerMultiprocessor. Exits 77 (skipped) for a library
built with sanitizers, which Python cannot load.

    capi_typed.py <occcalc CLI> <libocccalc.so> [<cuda_occupancy oracle> | -] [<the library's C++ flags>]
"""
import concurrent.futures
import ctypes
import json
import random
import subprocess
import sys

cli, library = sys.argv[1:3]
oracle = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] != "-" else None
if len(sys.argv) > 4 and "-fsanitize" in sys.argv[4]:
    print("a sanitized library: skipped")
    sys.exit(77)

i64, i32 = ctypes.c_int64, ctypes.c_int32


class NvidiaLaunch(ctypes.Structure):
    _fields_ = [("threads_per_block", i64), ("registers_per_thread", i64), ("static_shared_memory_bytes", i64),
                ("dynamic_shared_memory_bytes", i64), ("barriers", i64), ("carveout_percent", i32), ("cache", i32)]


class NvidiaResult(ctypes.Structure):
    _fields_ = [("blocks_per_sm", i64), ("warps_per_block", i64), ("active_warps_per_sm", i64),
                ("active_threads_per_sm", i64), ("max_warps_per_sm", i64), ("occupancy", ctypes.c_double),
                ("limits", i64 * 5), ("limiters", ctypes.c_uint32), ("registers_per_block", i64),
                ("shared_memory_per_block_bytes", i64), ("shared_memory_per_sm_bytes", i64), ("sm_count", i64)]


class AmdLaunch(ctypes.Structure):
    _fields_ = [("work_group_size", i64), ("vgprs", i64), ("agprs", i64), ("sgprs", i64), ("lds_bytes", i64),
                ("wave_size", i32), ("mode", i32), ("model", i32)]


class AmdResult(ctypes.Structure):
    _fields_ = [("model", i32), ("wave_size", i32), ("per_wgp", i32), ("work_groups", i64),
                ("waves_per_work_group", i64), ("active_waves", i64), ("max_waves", i64),
                ("waves_per_simd", ctypes.c_double), ("max_waves_per_simd", i64), ("occupancy", ctypes.c_double),
                ("limits", i64 * 7), ("limiters", ctypes.c_uint32), ("compute_units", i64)]


lib = ctypes.CDLL(library)
for vendor, launch, result in (("nvidia", NvidiaLaunch, NvidiaResult), ("amd", AmdLaunch, AmdResult)):
    find = getattr(lib, f"occcalc_{vendor}_device_find")
    find.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_size_t]
    occupancy = getattr(lib, f"occcalc_{vendor}_occupancy")
    occupancy.argtypes = [ctypes.c_void_p, ctypes.POINTER(launch), ctypes.POINTER(result), ctypes.c_char_p,
                          ctypes.c_size_t]
OK, BAD_INPUT = 0, 2
NVIDIA_RESOURCES = ["warps", "registers", "shared_memory", "blocks", "barriers"]
AMD_RESOURCES = ["wave_slots", "vgprs", "agprs", "sgprs", "lds", "work_groups", "barriers"]
MODELS = [None, "llvm", "hip", "rcp"]
CACHES = ["none", "shared", "l1", "equal"]


def find(vendor, name):
    device, message = ctypes.c_void_p(), ctypes.create_string_buffer(512)
    status = getattr(lib, f"occcalc_{vendor}_device_find")(name.encode(), ctypes.byref(device), message, 512)
    return status, device, message.value.decode()


def typed(vendor, device, launch):
    result = (NvidiaResult if vendor == "nvidia" else AmdResult)()
    message = ctypes.create_string_buffer(1024)
    status = getattr(lib, f"occcalc_{vendor}_occupancy")(device, ctypes.byref(launch), ctypes.byref(result),
                                                          message, 1024)
    return status, result, message.value.decode()


rng = random.Random(5353)
NVIDIA = {"cc": ["2.0", "3.5", "5.2", "6.0", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "10.3", "12.0", "12.1"],
          "gpu": ["H100 SXM5 80GB", "RTX 4090", "A100", "B200", "RTX 5090", "GTX 1060", "Tesla K80", "H100"]}
AMD = {"gfx": ["gfx803", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1201", "gfx1250",
               "cayman", "gfx11-generic"],
       "gpu": ["MI300X", "MI250X", "Radeon RX 7900 XTX", "Radeon HD 7770"]}
HOSTILE = [-1, -(2 ** 40), 2 ** 31, 2 ** 33, 2 ** 62, 0]


def pick(values, hostile=0.03):
    return rng.choice(HOSTILE) if rng.random() < hostile else rng.choice(values)


def rare(values, invalid, odds=0.03):
    """A value, now and then one the typed call refuses (a carveout of 101, a wave size of 16)."""
    return rng.choice(invalid) if rng.random() < odds else rng.choice(values)


def nvidia_case():
    key = rng.choice(["cc", "cc", "gpu"])
    name = rng.choice(NVIDIA[key])
    launch = NvidiaLaunch(pick([1, 32, 96, 128, 256, 384, 512, 640, 1024, 2048]), pick(list(range(0, 256, 8)) + [37, 255, 300]),
                          pick([0, 0, 1024, 12000, 40000, 49152]), pick([0, 0, 2048, 32768, 65536, 100000, 300000]),
                          pick([0, 1, 1, 2, 16]), rare([-1] * 8 + [0, 25, 50, 100], [101, -7]),
                          rare([0] * 8 + [1, 2, 3], [4, -1]))
    request = {key: name, "threads": launch.threads_per_block, "regs": launch.registers_per_thread,
               "smem": launch.static_shared_memory_bytes, "dyn_smem": launch.dynamic_shared_memory_bytes,
               "barriers": launch.barriers}
    if launch.carveout_percent != -1:
        request["carveout"] = launch.carveout_percent
    if launch.cache != 0:
        request["cache"] = CACHES[launch.cache] if 0 <= launch.cache < 4 else str(launch.cache)
    return "nvidia", name, launch, request


def amd_case():
    key = rng.choice(["gfx", "gfx", "gpu"])
    name = rng.choice(AMD[key])
    launch = AmdLaunch(pick([64, 128, 256, 512, 1024, 2048, 48]), pick([1, 24, 64, 96, 128, 256, 512]),
                       pick([0, 0, 0, 64, 256]), pick([0, 0, 32, 100, 108]), pick([0, 0, 4096, 32768, 65536, 163840]),
                       rare([0] * 6 + [32, 64, 64], [16]), rare([0] * 6 + [1, 2, 2], [3]),
                       rare([0] * 6 + [1, 2, 3], [4]))
    request = {key: name, "threads": launch.work_group_size, "vgprs": launch.vgprs, "lds": launch.lds_bytes}
    for field in ("agprs", "sgprs"):
        if getattr(launch, field):
            request[field] = getattr(launch, field)
    if launch.wave_size in (32, 64):
        request[f"wave{launch.wave_size}"] = True
    if launch.mode in (1, 2):
        request[["cu_mode", "wgp_mode"][launch.mode - 1]] = True
    if 1 <= launch.model <= 3:
        request["model"] = MODELS[launch.model]
    # What only the typed call has: a wave size, mode or model no flag spells.
    own = (f"wave_size {launch.wave_size} is not a wave size; expected 0 (the target's), 32 or 64"
           if launch.wave_size not in (0, 32, 64) else
           f"mode {launch.mode} is not a mode; expected OCCCALC_AMD_MODE_DEFAULT, _CU or _WGP"
           if not 0 <= launch.mode <= 2 else
           f"model {launch.model} is not a model; expected OCCCALC_AMD_MODEL_DEFAULT, _LLVM, _HIP or _RCP"
           if not 0 <= launch.model <= 3 else None)
    if own:
        request = {"own_error": own}
    return "amd", name, launch, request


cases = [nvidia_case() if rng.random() < 0.6 else amd_case() for _ in range(6000)]
devices = {}
for vendor, name, _, _ in cases:
    if (vendor, name) not in devices:
        status, device, message = find(vendor, name)
        assert status == OK, (vendor, name, message)
        devices[vendor, name] = device

with concurrent.futures.ThreadPoolExecutor(8) as pool:  # ctypes lets go of the GIL in each call
    answers = list(pool.map(lambda c: typed(c[0], devices[c[0], c[1]], c[2]), cases))
text = "".join(json.dumps(c[3]) + "\n" for c in cases if "own_error" not in c[3])
answered = iter([json.loads(line) for line in subprocess.run([cli, "batch"], input=text, capture_output=True,
                                                               text=True, check=False).stdout.splitlines()])
batch = [{"error": {"message": c[3]["own_error"]}} if "own_error" in c[3] else next(answered) for c in cases]
assert next(answered, None) is None


def expected(vendor, doc):
    """What the typed result holds, from the batch's line."""
    if vendor == "nvidia":
        limits = [doc["limits"][r] for r in NVIDIA_RESOURCES]
        return {"blocks_per_sm": doc["blocks_per_sm"], "warps_per_block": doc["warps_per_block"],
                "active_warps_per_sm": doc["active_warps_per_sm"],
                "active_threads_per_sm": doc["active_threads_per_sm"], "max_warps_per_sm": doc["max_warps_per_sm"],
                "occupancy": doc["occupancy"], "limits": [-1 if v is None else v for v in limits],
                "limiters": sum(1 << NVIDIA_RESOURCES.index(r) for r in doc["limiters"]),
                "registers_per_block": doc["allocated"]["registers_per_block"],
                "shared_memory_per_block_bytes": doc["allocated"]["shared_memory_per_block"],
                "shared_memory_per_sm_bytes": -1 if doc["allocated"]["shared_memory_per_sm"] is None
                else doc["allocated"]["shared_memory_per_sm"], "sm_count": doc["device_sm_count"]}
    limits = [doc["limits"].get(r) for r in AMD_RESOURCES]
    return {"model": MODELS.index(doc["model"]), "wave_size": doc["input"]["wave_size"], "per_wgp": int(doc["unit"] == "wgp"),
            "work_groups": doc["blocks_per_sm"], "waves_per_work_group": doc["warps_per_block"],
            "active_waves": doc["active_warps_per_sm"], "max_waves": doc["max_warps_per_sm"],
            "waves_per_simd": doc["waves_per_simd"], "max_waves_per_simd": doc["max_waves_per_simd"],
            "occupancy": doc["occupancy"], "limits": [-1 if v is None else v for v in limits],
            "limiters": sum(1 << AMD_RESOURCES.index(r) for r in doc["limiters"]), "compute_units": doc["device_sm_count"]}


def got(result):
    return {name: (list(getattr(result, name)) if name == "limits" else getattr(result, name))
            for name, _ in result._fields_}


differ = refused = 0
for (vendor, name, launch, request), (status, result, message), doc in zip(cases, answers, batch):
    if "error" in doc:
        refused += 1
        same = status == BAD_INPUT and message == doc["error"]["message"]
        want, have = doc["error"]["message"], f"status {status}: {message}"
    else:
        doc["device_sm_count"] = doc["input"]["sm_count"] if doc["gpu"] else 0  # a family's is 0
        want, have = expected(vendor, doc), got(result) if status == OK else f"status {status}: {message}"
        same = status == OK and want == have
    if not same:
        differ += 1
        if differ <= 5:
            print(f"{json.dumps(request)}\n  batch {want}\n  C     {have}")
print(f"{len(cases)} typed calls ({refused} refused) from 8 threads through ctypes: {differ} differ from occcalc batch")

# cuda_occupancy.h: the typed call on an architecture, the kernel using no
# barrier (as the oracle's attributes), against cudaOccMaxActiveBlocksPerMultiprocessor.
held = 0
if oracle:
    checks = []
    for _ in range(3000):
        cc = rng.choice(NVIDIA["cc"][1:])
        launch = NvidiaLaunch(rng.randrange(1, 1025), rng.choice([0, 8, 16, 24, 32, 37, 40, 64, 72, 96, 128, 168, 255]),
                              rng.choice([0, 0, 1024, 4096, 12288, 40000]),
                              rng.choice([0, 512, 8192, 30000, 49152, 65536, 100000]), 0, -1, 0)
        checks.append((cc, launch))
    lines = "".join(f"blocks {cc} {l.registers_per_thread} {l.static_shared_memory_bytes} {l.threads_per_block} "
                    f"{l.dynamic_shared_memory_bytes}\n" for cc, l in checks)
    wants = subprocess.run([oracle], input=lines, capture_output=True, text=True, check=True).stdout.splitlines()
    for (cc, launch), want in zip(checks, wants):
        status, result, message = typed("nvidia", devices.get(("nvidia", cc)) or find("nvidia", cc)[1], launch)
        # Where the header refuses (a block past the architecture's), occcalc answers 0 blocks.
        have = str(result.blocks_per_sm) if status == OK else "error"
        if have != want and not (want == "error" and have == "0"):
            differ += 1
            print(f"cuda_occupancy.h {cc} {launch.threads_per_block} threads {launch.registers_per_thread} regs "
                  f"{launch.static_shared_memory_bytes}+{launch.dynamic_shared_memory_bytes} B: {want}, C {have}")
        held += 1
    print(f"{held} typed NVIDIA calls held to cuda_occupancy.h: {differ} differ in all")

# The calls' own edges: a message cut to its buffer, NULL arguments, names of the other vendor.
status, device, _ = find("nvidia", "8.0")
small = ctypes.create_string_buffer(12)
lib.occcalc_nvidia_occupancy(device, ctypes.byref(NvidiaLaunch(0, 32, 0, 0, 1, -1, 0)), ctypes.byref(NvidiaResult()),
                             small, 12)
edges = {
    "cut": small.value.decode() == "threads 0 i",
    "null launch": lib.occcalc_nvidia_occupancy(device, None, ctypes.byref(NvidiaResult()), None, 0) == BAD_INPUT,
    "null device": lib.occcalc_amd_occupancy(None, ctypes.byref(AmdLaunch()), ctypes.byref(AmdResult()), None, 0)
    == BAD_INPUT,
    "null name": lib.occcalc_nvidia_device_find(None, ctypes.byref(ctypes.c_void_p()), None, 0) == BAD_INPUT,
    "amd to nvidia": find("nvidia", "gfx90a")[2] == "gfx 'gfx90a' is an AMD target; occcalc_amd_device_find takes it",
    "nvidia to amd": find("amd", "RTX 4090")[2] == "gpu 'RTX 4090' is an NVIDIA GPU; occcalc_nvidia_device_find takes it",
    "unknown": find("nvidia", "7.7")[2].startswith("cc '7.7' is not a supported compute capability"),
    "unlisted": find("amd", "gfx1310")[2].startswith("gfx 'gfx1310' is not in the AMD target table"),
    # A zeroed AMD launch on RDNA takes its waves of 32, as the command line does.
    "wave32": typed("amd", find("amd", "gfx1100")[1], AmdLaunch(256, 64))[1].wave_size == 32,
}
failed = [name for name, ok in edges.items() if not ok]
print(f"{len(edges)} edges: {failed or 'all hold'}")
sys.exit(1 if differ or failed else 0)
