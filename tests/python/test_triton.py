"""occcalc.triton_occupancy on objects shaped like Triton's compiled kernels and
on the Triton cache fixtures `occcalc inspect` reads; Triton is not needed."""
import glob
import json
import os
import runpy
import subprocess
from types import SimpleNamespace

import pytest

import occcalc

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
CACHE = os.path.join(ROOT, "tests", "fixtures", "triton", "cache")


def kernel(n_regs, num_warps, shared, backend="cuda", arch=80, warp_size=32):
    target = SimpleNamespace(backend=backend, arch=arch, warp_size=warp_size)
    return SimpleNamespace(n_regs=n_regs, metadata=SimpleNamespace(num_warps=num_warps, shared=shared, target=target))


def test_a_compiled_kernel_is_launched_as_triton_launches_it():
    # num_warps x warp size threads; Triton's shared memory is dynamic.
    got = occcalc.triton_occupancy(kernel(n_regs=40, num_warps=8, shared=1024))
    expected = occcalc.occupancy(cc=80, threads=256, regs=40, dyn_smem=1024)
    assert got.to_dict() == expected.to_dict()
    assert got.blocks_per_sm == 6  # 40 x 256 registers: 65536 / 10240
    # The tutorial's hand formula gives 13 for 37 registers and 4 warps on 7.0.
    assert occcalc.triton_occupancy(kernel(n_regs=37, num_warps=4, shared=0, arch=70)).blocks_per_sm == 12


def test_launch_keys_and_a_named_gpu():
    k = kernel(n_regs=64, num_warps=4, shared=0, arch=89)
    assert occcalc.triton_occupancy(k, gpu="RTX 4090", grid=1000).to_dict()["waves_per_sm"] is not None
    assert occcalc.triton_occupancy(k, sm_count=128, grid=1000).to_dict()["blocks_per_wave"] > 0


def test_an_amd_kernel():
    k = kernel(n_regs=128, num_warps=4, shared=16384, backend="hip", arch="gfx90a", warp_size=64)
    got = occcalc.triton_occupancy(k)
    assert got.to_dict() == occcalc.occupancy(gfx="gfx90a", threads=256, vgprs=128, lds=16384, wave64=True).to_dict()


def test_the_cache_fixtures_agree_with_inspect():
    # The metadata as Triton writes it (a dict), the registers from the cubin.
    records = json.loads(subprocess.run([os.environ["OCCCALC_CLI"], "inspect", CACHE, "--json"], check=True,
                                        capture_output=True, text=True).stdout)["kernels"]
    checked = 0
    for path in glob.glob(os.path.join(CACHE, "*", "*.json")):
        if os.path.basename(path).startswith("__grp__"):
            continue
        meta = json.load(open(path))
        record = next(r for r in records if r["kernel"] == meta["name"])
        got = occcalc.triton_occupancy(SimpleNamespace(n_regs=record["registers"], metadata=meta))
        assert got.blocks_per_sm == record["occupancy"]["blocks_per_sm"]
        assert got.occupancy == record["occupancy"]["occupancy"]
        checked += 1
    assert checked == 2


def test_an_unknown_backend_is_refused():
    with pytest.raises(occcalc.Error, match="target backend 'xpu' is not cuda or hip"):
        occcalc.triton_occupancy(kernel(n_regs=32, num_warps=4, shared=0, backend="xpu"))


def test_the_pruning_example(capsys):
    runpy.run_path(os.path.join(ROOT, "examples", "triton_prune.py"), run_name="__main__")
    assert capsys.readouterr().out == "BLOCK=32, num_warps=2 75.0%\nBLOCK=64, num_warps=4 31.2%\n"
