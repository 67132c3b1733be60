"""Every public call of the module, fed hostile arguments: each answers, or raises
occcalc.Error (a ValueError) or a TypeError whose message names an argument as
Python spells it (`sm_count`, never the CLI's `--sm-count`). None crashes the
interpreter, hangs, or raises anything else. Seeded: the same cases every run."""
import array
import os
import pathlib
import random
import re
import warnings
from types import SimpleNamespace

import pytest

import occcalc
import occcalc.triton

np = pytest.importorskip("numpy")

SEED = 20261127
REQUEST_KEYS = ["cc", "gpu", "threads", "regs", "smem", "dyn_smem", "carveout", "cache", "barriers", "grid",
                "sm_count", "gfx", "vgprs", "agprs", "sgprs", "lds", "wave32", "wave64", "cu_mode", "wgp_mode",
                "model"]
CLI_FLAG = re.compile(r"(^|\s)--[a-z]")

VALUES = [
    0, 1, -1, 32, 128, 1024, 2**31, 2**63 - 1, 2**63, 2**64, -2**63, 10**30,
    np.int8(5), np.uint64(2**64 - 1), np.int64(128), np.int32(-7), np.uint8(255),
    True, False, np.bool_(True), 1.5, float("nan"), float("inf"), 128.0, np.float32(2.0), 1j,
    "", " ", "\0", "128\0", "128", "48K", "1e9K", "sm_90", "sm_90a", "9.0", "gfx90a", "H100", "RTX 4090",
    "\udcff", "x" * 100000, "ünïcödé", "\u202egpu", "[", "(a+)+$", "-1", "0x80", "default", "l1",
    b"128", bytearray(b"12"), memoryview(b"1"), None, [], [1, 2], [True], [1.5], [[1]], (32, 64), {1: 2}, {1, 2},
    object(), SimpleNamespace(), pathlib.Path("/"), array.array("i", [1, 2]), array.array("d", [1.0]),
    np.array([], dtype=np.int64), np.array([128, 256], dtype=np.int16), np.array([1, 2], dtype=np.uint64),
    np.array([2**63 + 5], dtype=np.uint64), np.array([True]), np.array([1.0]), np.array(["a"]),
    np.array([1, 2], dtype=object), np.zeros((2, 2), dtype=np.int64), np.array(64), np.arange(10)[::-2],
    np.array([1, 2], dtype=">i4"),
]


def names_an_argument(message, keys):
    return any(re.search(rf"\b{re.escape(k)}\b", message) for k in keys)


def check(call, keys, **kwargs):
    """One call: an answer, or an accepted error naming an argument."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(**kwargs)
        return "answered"
    except occcalc.Error as e:
        assert isinstance(e, ValueError)
        message = str(e)
        kind = "Error"
    except TypeError as e:
        message = str(e)
        kind = "TypeError"
        assert names_an_argument(message, keys), (call, kwargs, message)
    assert message and not CLI_FLAG.search(message), (call, kwargs, message)
    return kind


def random_kwargs(rng, keys, count):
    return {key: rng.choice(VALUES) for key in rng.sample(keys, count)}


def test_occupancy_and_the_request_keys():
    rng = random.Random(SEED)
    outcomes = {}
    for _ in range(3000):
        kwargs = random_kwargs(rng, REQUEST_KEYS, rng.randint(1, 6))
        if rng.random() < 0.5:
            kwargs.setdefault("cc", "8.0")
            kwargs.setdefault("threads", 128)
            kwargs.setdefault("regs", 32)
        kind = check(occcalc.occupancy, list(kwargs) + REQUEST_KEYS, **kwargs)
        outcomes[kind] = outcomes.get(kind, 0) + 1
    assert set(outcomes) == {"answered", "Error", "TypeError"}


def test_occupancy_many():
    rng = random.Random(SEED + 1)
    columns = ["threads", "regs", "smem", "dyn_smem", "vgprs", "sgprs", "lds"]
    for _ in range(3000):
        kwargs = random_kwargs(rng, columns, rng.randint(1, 4))
        kwargs.setdefault("threads", rng.choice(VALUES))
        if rng.random() < 0.7:
            kwargs.update(rng.choice([{"cc": "8.0"}, {"gpu": "H100"}, {"gfx": "gfx90a"}, {"cc": rng.choice(VALUES)}]))
        check(occcalc.occupancy_many, list(kwargs) + REQUEST_KEYS, **kwargs)


def test_occupancy_many_answers_empty_and_large_columns():
    occupancy, blocks = occcalc.occupancy_many(np.array([], dtype=np.int32), [], cc="8.0")
    assert occupancy.shape == blocks.shape == (0,)
    occupancy, blocks = occcalc.occupancy_many([], vgprs=np.array([], dtype=np.int64), gfx="gfx90a")
    assert len(occupancy) == 0
    threads = np.full(200_000, 256, dtype=np.int64)
    occupancy, blocks = occcalc.occupancy_many(threads, np.arange(200_000) % 255 + 1, cc="9.0")
    assert blocks.dtype == np.int64 and blocks[31] == occcalc.occupancy(cc="9.0", threads=256, regs=32).blocks_per_sm


def test_suggest_sweep_and_inspect():
    rng = random.Random(SEED + 2)
    for _ in range(600):
        kwargs = random_kwargs(rng, REQUEST_KEYS + ["max_threads", "dyn_smem_per_thread", "target", "blocks"],
                               rng.randint(1, 4))
        kwargs.setdefault("cc", "8.0")
        check(occcalc.suggest, list(kwargs), **kwargs)
    for _ in range(600):
        kwargs = random_kwargs(rng, REQUEST_KEYS + ["from_", "to", "step"], rng.randint(1, 4))
        kwargs.setdefault("cc", "8.0")
        kwargs["vary"] = rng.choice(VALUES + ["threads", "regs", "smem", "barriers", "vgprs"])
        check(occcalc.sweep, list(kwargs), **kwargs)
    paths = ["/nonexistent", b"/nonexistent\xff", "/tmp/x\0junk", b"\0", "", pathlib.Path("/dev/null"), "/proc",
             os.path.dirname(__file__) + "/../fixtures/triton/cache", "\udcff", 5, None, [b"/"], b"."]
    for _ in range(200):
        path = rng.choice(paths)
        kwargs = random_kwargs(rng, ["kernel", "arch", "threads", "dyn_smem", "carveout", "model"], rng.randint(0, 2))
        check(lambda **kw: occcalc.inspect(path, **kw), list(kwargs) + ["path", "kernel", "arch"], **kwargs)


def test_triton_calls():
    rng = random.Random(SEED + 3)

    def kernel():
        meta = {"name": rng.choice(["k", "", None, 5]), "num_warps": rng.choice(VALUES),
                "shared": rng.choice(VALUES),
                "target": rng.choice([{"backend": "cuda", "arch": rng.choice(VALUES), "warp_size": 32},
                                      {"backend": rng.choice(VALUES), "arch": 80},
                                      {"backend": "hip", "arch": rng.choice(VALUES), "warp_size": rng.choice(VALUES)},
                                      None])}
        asm = rng.choice([None, {}, {"cubin": rng.choice([b"", b"\x7fELF" + bytes(60), b"garbage", "text", None])},
                          {"hsaco": b"\x7fELF\x02"}])
        fields = {"metadata": meta}
        if asm is not None:
            fields["asm"] = asm
        if rng.random() < 0.5:
            fields["n_regs"] = rng.choice(VALUES)
        return SimpleNamespace(**fields)

    keys = ["kernel", "num_warps", "shared", "target", "name", "n_regs", "asm", "cubin", "metadata", "gpu", "cc",
            "backend", "arch", "warp_size", "threads", "regs", "dyn_smem", "vgprs", "lds", "sgprs", "smem",
            "barriers", "gfx"]
    for _ in range(1500):
        k = kernel()
        launch = random_kwargs(rng, ["gpu", "cc", "grid", "sm_count", "carveout"], rng.randint(0, 2))
        check(lambda **kw: occcalc.triton_occupancy(k, **kw), keys + list(launch), **launch)
    for _ in range(300):
        floor = rng.choice(VALUES)
        check(lambda **kw: occcalc.triton.prune_compiled([kernel(), kernel()], **kw), keys + ["min_occupancy"],
              min_occupancy=floor)
        configs = [SimpleNamespace(num_warps=rng.choice([1, 2, 4, 8, 64]), kwargs={}) for _ in range(3)]
        estimate = rng.choice([None, 32, lambda c, a: rng.choice([0, 10**6, 100])])
        check(lambda **kw: occcalc.triton.early_config_prune(**kw)(configs, {}),
              ["min_occupancy", "registers", "shared", "cc", "gpu"], cc=rng.choice(["8.0", "9.0", "sm_75"]),
              registers=estimate, shared=rng.choice([None, estimate, 1.5]), min_occupancy=rng.choice([None, 0.5, 2]))


def test_a_result_carries_what_to_dict_carries():
    r = occcalc.occupancy(gpu="H100 SXM5 80GB", threads=256, regs=64, grid=1000)
    d = r.to_dict()
    for key in ("blocks_per_sm", "warps_per_block", "active_warps_per_sm", "active_threads_per_sm",
                "max_warps_per_sm", "occupancy", "occupancy_percent", "waves_per_sm", "full_waves",
                "tail_utilization", "blocks_per_wave", "whole_wave_grids", "limiters", "arch", "gpu", "family",
                "model", "unit"):
        assert getattr(r, key) == d[key], key
    assert repr(r) == "<occcalc.Result H100 SXM5 80GB (sm_90): 50.0%, 4 blocks and 32 of 64 warps per SM, " \
                      "limited by registers>"


def test_only_names_that_resolved_are_remembered():
    # Thousands of distinct unknown names: each refused, none kept.
    for i in range(3000):
        with pytest.raises(occcalc.Error):
            occcalc.occupancy(gpu=f"no such gpu {i}" + "x" * 1000, threads=128, regs=32)
    assert occcalc.occupancy(gpu="RTX 4090", threads=128, regs=32).gpu == "GeForce RTX 4090"


@pytest.mark.parametrize("value", [True, np.bool_(False), np.array([True, False]), b"\x80", bytearray(b"\x01"),
                                   1.0, np.float64(2.0), np.array([1.0, 2.0]), [1, True], [1, 2.0], "128"])
def test_truth_values_bytes_and_floats_are_not_integers(value):
    with pytest.raises(TypeError, match=r"^threads"):
        occcalc.occupancy_many(value, 32, cc="8.0")


def test_the_cuda_core_twin():
    rng = random.Random(SEED + 4)
    keys = ["cc", "gpu", "regs", "smem", "barriers", "carveout", "cache", "sm_count", "block_size",
            "dynamic_shared_memory_size", "dynamic_shared_memory_needed", "block_size_limit",
            "num_blocks_per_multiprocessor", "Kernel", "threads", "dyn_smem", "name", "cubin"]
    for _ in range(2000):
        figures = random_kwargs(rng, ["cc", "gpu", "regs", "smem", "barriers", "carveout", "sm_count"],
                                rng.randint(1, 3))
        if rng.random() < 0.6:
            figures.update(cc=rng.choice(["8.0", "9.0", "sm_75"]), regs=rng.choice([0, 32, 255]))
        a, b = rng.choice(VALUES), rng.choice(VALUES + [lambda threads: threads * 8, lambda threads: "x"])

        def call(**kw):
            k = occcalc.Kernel(**figures)
            rng.choice([lambda: k.occupancy.max_active_blocks_per_multiprocessor(a, b if not callable(b) else 0),
                        lambda: k.occupancy.max_potential_block_size(b, a),
                        lambda: k.occupancy.available_dynamic_shared_memory_per_block(a, b if not callable(b) else 1),
                        lambda: occcalc.Kernel.from_cubin(rng.choice([b"", b"\x7fELF" + bytes(80), "/nonexistent",
                                                                      a]))])()
        check(call, keys + list(figures))


def test_unknown_keys_are_echoed_bounded():
    import subprocess
    with pytest.raises(occcalc.Error) as e:
        occcalc.occupancy(**{"k" * 100_000: 1})
    assert str(e.value).startswith("k" * 80 + "... is not a known argument") and len(str(e.value)) < 600
    line = subprocess.run([os.environ["OCCCALC_CLI"], "batch"], input='{"' + "k" * 100_000 + '": 1}\n',
                          capture_output=True, text=True).stdout
    assert '"field":"' + "k" * 80 + '..."' in line and len(line) < 1000
