"""occcalc.triton_occupancy and the pruners, on objects shaped as Triton 3.6 makes them
(tests/python/triton_shapes.py) from a real Triton cache, held to the CLI and to what
Triton and the CUDA driver said of the same kernels on an H200; Triton is not needed."""
import glob
import json
import os
import runpy
import subprocess
from types import SimpleNamespace

import warnings

import pytest

import occcalc
import occcalc.triton
import triton_shapes

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


def test_counts_below_tritons_are_refused():
    k = kernel(n_regs=32, num_warps=4, shared=0)
    k.metadata.num_ctas = 0
    with pytest.raises(occcalc.Error, match="^the kernel's metadata.num_ctas is 0; Triton's is at least 1"):
        occcalc.triton_occupancy(k)
    with pytest.raises(occcalc.Error, match="^the kernel's metadata.num_warps is 0; Triton's is at least 1"):
        occcalc.triton_occupancy(kernel(n_regs=32, num_warps=0, shared=0))
    with pytest.raises(occcalc.Error, match="^the kernel's metadata.shared is -1; Triton's is at least 0"):
        occcalc.triton_occupancy(kernel(n_regs=32, num_warps=4, shared=-1))


def test_an_unknown_backend_is_refused():
    with pytest.raises(occcalc.Error, match="target backend 'xpu' is not cuda or hip"):
        occcalc.triton_occupancy(kernel(n_regs=32, num_warps=4, shared=0, backend="xpu"))


@pytest.fixture(scope="module")
def real_cache(tmp_path_factory):
    return triton_shapes.load_cache(triton_shapes.unpack_cache(tmp_path_factory.mktemp("triton")))


def cli(*args):
    return json.loads(subprocess.run([os.environ["OCCCALC_CLI"], *args], check=True, capture_output=True,
                                     text=True).stdout)


def test_every_kernel_of_a_real_cache_without_n_regs_equals_the_cli(real_cache):
    # Registers and barriers from `occcalc inspect` of the cubin; the launch is Triton's.
    assert len(real_cache) == 55
    archs = set()
    clustered = 0
    for kernel in real_cache:
        assert not hasattr(kernel, "n_regs")  # only the driver sets it
        cubin = [p for c, p in kernel.metadata_group.items() if c.endswith(".cubin")][0]
        record = cli("inspect", cubin, "--json")["kernels"][0]
        meta = kernel.metadata
        # num_ctas > 1 launches clusters of num_ctas (Triton 3.6 records no cluster_dims).
        clusters = ["--cluster", str(meta.num_ctas)] if meta.num_ctas > 1 else []
        expected = cli("--cc", str(meta.target.arch), "--threads", str(meta.num_warps * meta.target.warp_size),
                       "--regs", str(record["registers"]), "--dyn-smem", str(meta.shared),
                       "--barriers", str(record["barriers"]), *clusters, "--json")
        clustered += bool(clusters)
        assert occcalc.triton_occupancy(kernel).to_dict() == expected, kernel.metadata_group
        archs.add(occcalc.triton.binary_target(kernel))
    assert archs == {"sm_80", "sm_90a", "sm_100a", "sm_120a"}
    assert clustered == 3  # the matmul of num_ctas 2 on sm_90a, sm_100a and sm_120a


def test_registers_and_occupancy_equal_the_drivers_on_an_h200(real_cache):
    # tools/gpu/triton_cache.py loaded each sm_90a kernel on an H200 (driver 580.159.04) and asked
    # the driver for n_regs and cuOccupancyMaxActiveBlocksPerMultiprocessor at several dynamic sizes.
    measured = {r["metadata"]["hash"]: r["driver"] for r in triton_shapes.measured()
                if r.get("record") == "kernel" and "driver" in r}
    kernels = cells = beyond = 0
    for kernel in real_cache:
        driver = measured.get(kernel.metadata.hash)
        if driver is None:
            continue
        kernels += 1
        figures = occcalc._occcalc._image_kernels(kernel.kernel)[0]
        assert figures["registers"] == driver["n_regs"]
        assert driver["n_spills"] == 0 and figures["stack_size"] == 0
        at_launch = driver["blocks_per_sm_by_dyn_smem"][str(kernel.metadata.shared)]
        assert occcalc.triton_occupancy(kernel).blocks_per_sm == at_launch
        for dyn, blocks in driver["blocks_per_sm_by_dyn_smem"].items():
            if int(dyn) > driver["max_dynamic_shared_size_bytes"]:
                # Triton opts a kernel in above 48 KiB only when its own launch needs it.
                assert blocks == 0
                beyond += 1
                continue
            got = occcalc.occupancy(cc="9.0", threads=driver["threads"], regs=figures["registers"],
                                    smem=figures["static_smem"], dyn_smem=int(dyn))
            assert got.blocks_per_sm == blocks, (kernel.name, dyn)
            cells += 1
    assert (kernels, cells, beyond) == (14, 54, 10)


def test_a_gpu_that_cannot_load_the_binary_is_refused(real_cache):
    by_target = {occcalc.triton.binary_target(k): k for k in real_cache if k.name == "add_kernel"}
    with pytest.raises(occcalc.Error, match=r"add_kernel is built for sm_90a; GeForce RTX 4090 \(sm_89\) cannot load"):
        occcalc.triton_occupancy(by_target["sm_90a"], gpu="RTX 4090")
    with pytest.raises(occcalc.Error, match="built for sm_90a; sm_100 cannot load"):
        occcalc.triton_occupancy(by_target["sm_90a"], cc="10.0")
    with pytest.raises(occcalc.Error, match="built for sm_80; H100 SXM5 80GB"):
        occcalc.triton_occupancy(by_target["sm_80"], gpu="H100 SXM5 80GB")
    # Binary compatibility: an sm_80 cubin runs on 8.6 and 8.9.
    assert occcalc.triton_occupancy(by_target["sm_80"], gpu="A10").arch == "sm_86"
    assert occcalc.triton_occupancy(by_target["sm_80"], gpu="RTX 4090", grid=4096).waves_per_sm > 0
    assert occcalc.triton_occupancy(by_target["sm_90a"], gpu="H100 SXM5 80GB").gpu == "H100 SXM5 80GB"


def test_a_kernel_without_binary_or_registers_is_refused():
    meta = {"name": "k", "num_warps": 4, "shared": 0, "target": {"backend": "cuda", "arch": 80, "warp_size": 32}}
    with pytest.raises(occcalc.Error, match="neither a binary"):
        occcalc.triton_occupancy(SimpleNamespace(metadata=meta, asm={"ptx": "..."}))


def test_the_pruning_example(capsys):
    runpy.run_path(os.path.join(ROOT, "examples", "triton_prune.py"), run_name="__main__")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "128x256x64 num_stages=3 num_warps=8: 98304 bytes, cannot launch"
    assert len(lines) == 8 and all(line.endswith(", kept") for line in lines[1:])


def tutorial_configs():
    return [triton_shapes.Config({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": 32}, num_stages=s,
                                 num_warps=w) for m, n, s, w in [(128, 256, 3, 8), (64, 32, 5, 2), (32, 64, 5, 2)]]


def test_early_config_prune_fits_the_autotuner_and_drops_only_what_cannot_launch():
    configs = tutorial_configs()
    prune = occcalc.triton.early_config_prune(cc="8.0")
    tuner = triton_shapes.Autotuner(configs, ["a_ptr", "M"], {"early_config_prune": prune})
    assert tuner.run(0, 4096, ACTIVATION="") == configs  # nothing is provably unlaunchable
    # A block of 64 warps (2048 threads) cannot run anywhere.
    assert prune([triton_shapes.Config({}, num_warps=64)] + configs, {}) == configs
    # With a shared memory estimate: 160 KiB fits an A100's 163 KiB opt-in, not an RTX 3060's 99 KiB.
    big = occcalc.triton.early_config_prune(cc="8.6", shared=lambda c, a: 160 * 1024 if c.num_warps == 8 else 0)
    assert big(configs, {}) == configs[1:]


def test_early_config_prune_raises_input_errors_and_launches_in_the_targets_waves():
    configs = tutorial_configs()
    # A typo, a bad cc, an unknown key or a negative estimate is the caller's error, never "cannot launch".
    for launch, match in [({"gpu": "H1000"}, "not a known GPU"), ({"cc": "8.5"}, "not a supported compute capability"),
                          ({"cc": "8.0", "colour": "red"}, "colour"),
                          ({"cc": "8.0", "registers": -4}, "registers -4 is below 0"),
                          ({"cc": "8.0", "registers": lambda c, a: -1}, r"registers\(.*\) -1 is below 0"),
                          ({"gfx": "gfx90a", "shared": lambda c, a: -1}, r"shared\(.*\) -1 is below 0")]:
        with pytest.raises(occcalc.Error, match=match):
            occcalc.triton.early_config_prune(**launch)(configs, {})
    with pytest.raises(occcalc.Error) as error:
        occcalc.triton.early_config_prune(gpu="H1000")(configs, {})
    assert error.value.field == "gpu"
    # RDNA runs Triton's blocks in wave32: 32 warps are 1,024 work-items there and launch; in wave64 (CDNA) they
    # would be 2,048, which no AMD target runs.
    wide = [triton_shapes.Config({}, num_warps=32)] + configs
    assert occcalc.triton.early_config_prune(gfx="gfx1100")(wide, {}) == wide
    assert occcalc.triton.early_config_prune(gpu="RX 7900 XTX")(wide, {}) == wide
    assert occcalc.triton.early_config_prune(gfx="gfx90a")(wide, {}) == configs
    assert occcalc.triton.early_config_prune(gpu="MI300X")(wide, {}) == configs
    # LDS past what a work-group may use cannot launch; within it, the config stays.
    lds = occcalc.triton.early_config_prune(gfx="gfx90a", shared=lambda c, a: 80 * 1024 if c.num_warps == 8 else 0)
    assert lds(configs, {}) == configs[1:]


def test_pruners_never_return_an_empty_list():
    configs = tutorial_configs()
    prune = occcalc.triton.early_config_prune(cc="8.0", shared=lambda c, a: 10**6)
    tuner = triton_shapes.Autotuner(configs, [], {"early_config_prune": prune})
    with pytest.warns(occcalc.triton.PruneWarning, match="none of the 3 configs can launch; kept the best"):
        assert tuner.run() == [configs[0]]
    floor = occcalc.triton.early_config_prune(cc="8.0", registers=255, min_occupancy=0.9)
    with pytest.warns(occcalc.triton.PruneWarning, match=r"none of the 3 configs reaches min_occupancy 0.9; kept the best \(12.5%\)"):
        # 255 registers: 8 warps an SM whatever the block; the tie goes to the first.
        assert floor(configs, {}) == [configs[0]]
    assert prune([], {}) == []


def test_early_config_prune_refuses_bad_arguments():
    with pytest.raises(TypeError, match="min_occupancy is a str"):
        occcalc.triton.early_config_prune(min_occupancy="50")
    with pytest.raises(occcalc.Error, match=r"min_occupancy 50 is outside \[0, 1\] \(0.5 is 50%; a percent is written '50%'\)"):
        occcalc.triton.early_config_prune(min_occupancy=50)
    with pytest.raises(occcalc.Error, match=r"min_occupancy '150%' is outside \[0%, 100%\]"):
        occcalc.triton.early_config_prune(min_occupancy="150%")
    with pytest.raises(occcalc.Error, match=r"min_occupancy 'x%' is not a percent"):
        occcalc.triton.early_config_prune(min_occupancy="x%")
    # A percent, as the CLI's --min-occupancy takes it, is the same floor as its fraction.
    configs = tutorial_configs()
    by_percent = occcalc.triton.early_config_prune(cc="8.0", registers=64, min_occupancy="50%")(configs, {})
    assert by_percent == occcalc.triton.early_config_prune(cc="8.0", registers=64, min_occupancy=0.5)(configs, {}) == configs
    with pytest.raises(TypeError, match="registers is a float"):
        occcalc.triton.early_config_prune(registers=32.5)
    # No GPU and no gpu=/cc=: Triton cannot say what it compiles for.
    with pytest.raises(occcalc.Error, match="needs gpu= or cc="):
        occcalc.triton.early_config_prune()(tutorial_configs(), {})


def test_early_config_prune_checks_its_arguments_when_made():
    # At decoration time, before any autotune: an empty config list never reached the GPU's check.
    with pytest.raises(occcalc.Error, match="not a known GPU") as error:
        occcalc.triton.early_config_prune(gpu="H100 typo")
    assert error.value.field == "gpu"
    with pytest.raises(occcalc.Error, match="colour is not a known argument"):
        occcalc.triton.early_config_prune(cc="8.0", colour="red")
    with pytest.raises(occcalc.Error, match="^shared -1 is below 0$"):
        occcalc.triton.early_config_prune(shared=-1)
    # Not a compiled kernel: a TypeError naming the argument, not a bare AttributeError.
    with pytest.raises(TypeError, match="^kernel is an int with no 'metadata'; it takes a Triton CompiledKernel"):
        occcalc.triton.occupancy(5)
    with pytest.raises(TypeError, match="^kernel is an int with no 'metadata'"):
        occcalc.Kernel.from_triton(5)


def test_prune_compiled_on_a_real_cache(real_cache):
    matmul = [k for k in real_cache if k.name == "matmul_kernel" and k.metadata.target.arch == 80]
    assert len(matmul) == 8
    compiled = {f"{k.metadata.num_warps} warps, {k.metadata.shared} B": k for k in matmul}
    scores = {label: occcalc.triton_occupancy(k).occupancy for label, k in compiled.items()}
    kept = occcalc.triton.prune_compiled(compiled, min_occupancy=0.25)
    assert kept == sorted([label for label, occ in scores.items() if occ >= 0.25], key=lambda l: -scores[l])
    assert 0 < len(kept) < len(matmul)
    with pytest.warns(occcalc.triton.PruneWarning):
        best = occcalc.triton.prune_compiled(matmul, min_occupancy=1.0)
    assert [occcalc.triton_occupancy(k).occupancy for k in best] == [max(scores.values())]
    # On a T4 (sm_75) no sm_80 cubin loads: refused, not pruned silently.
    with pytest.raises(occcalc.Error, match="cannot load"):
        occcalc.triton.prune_compiled(matmul, gpu="Tesla T4")


def test_a_cubin_read_alone_equals_its_cache_directory_read(real_cache):
    # The <name>.json beside a cubin gives its launch whether the cubin or its directory is read.
    cache = os.path.dirname(os.path.dirname(real_cache[0].metadata_group[real_cache[0].name + ".json"]))
    whole = {r["file"]: r for r in cli("inspect", cache, "--json")["kernels"]}
    assert len(whole) == 55
    for kernel in real_cache:
        cubin = kernel.metadata_group[kernel.name + ".cubin"]
        alone = cli("inspect", cubin, "--json")["kernels"][0]
        assert alone == whole[cubin]
        assert alone["dyn_smem_bytes"] == kernel.metadata.shared
        assert alone["occupancy"]["blocks_per_sm"] == occcalc.triton_occupancy(kernel).blocks_per_sm


def rehashed_copy(cache, into, change=None):
    """`cache` copied as Triton writes it after a source edit: every kernel in a directory of a
    new hash; `change(name, metadata)` may edit one kernel's metadata."""
    import hashlib
    import shutil
    for group in sorted(os.listdir(cache)):
        target = os.path.join(into, hashlib.sha256(("edited" + group).encode()).hexdigest()[:40].upper())
        shutil.copytree(os.path.join(cache, group), target)
        for name in os.listdir(target):
            path = os.path.join(target, name)
            if name.endswith(".json") and not name.startswith("__grp__") and change:
                meta = json.load(open(path))
                if change(group, meta):
                    json.dump(meta, open(path, "w"))
    return into


def diff(old, new, *flags):
    run = subprocess.run([os.environ["OCCCALC_CLI"], "diff", old, new, "--json", *flags], capture_output=True,
                         text=True)
    return run.returncode, json.loads(run.stdout)


def test_a_rehashed_cache_pairs_each_config_with_itself(real_cache, tmp_path):
    cache = os.path.dirname(os.path.dirname(real_cache[0].metadata_group[real_cache[0].name + ".json"]))
    status, same = diff(cache, rehashed_copy(cache, str(tmp_path / "a")), "--fail-on-regression")
    assert (status, same["counts"], same["kernels"]) == (0, {"regressed": 0, "new": 0, "removed": 0, "improved": 0,
                                                              "changed": 0, "unchanged": 55}, [])


def test_a_config_that_doubles_its_shared_memory_regresses(real_cache, tmp_path):
    # The sm_90a matmul config of 128x32 tiles, 4 warps: 40 KiB of shared memory, 5 blocks an SM;
    # doubled to 80 KiB, 2. After a re-hash, exactly that config is reported.
    target = next(k for k in real_cache if k.name == "matmul_kernel" and k.metadata.target.arch == 90
                  and k.metadata.shared == 40960)
    group = os.path.basename(os.path.dirname(target.metadata_group["matmul_kernel.json"]))
    cache = os.path.dirname(os.path.dirname(target.metadata_group["matmul_kernel.json"]))

    def double(directory, meta):
        if directory != group:
            return False
        meta["shared"] *= 2
        return True
    edited = rehashed_copy(cache, str(tmp_path / "b"), double)
    status, report = diff(cache, edited, "--fail-on-regression")
    assert status == 1
    assert report["counts"]["regressed"] == 1 and report["counts"]["unchanged"] == 54
    (change,) = report["kernels"]
    assert change["status"] == "regressed"
    assert (change["old"]["dyn_smem_bytes"], change["new"]["dyn_smem_bytes"]) == (40960, 81920)
    assert change["regressions"] == ["occupancy at 128 threads 31.25% -> 12.50%"]
    assert change["other_changes"] == ["dynamic smem bytes 40960 -> 81920"]
    # The same against a saved inspect --json as the baseline.
    saved = tmp_path / "baseline.json"
    saved.write_text(subprocess.run([os.environ["OCCCALC_CLI"], "inspect", cache, "--json"], check=True,
                                    capture_output=True, text=True).stdout)
    status, report = diff(str(saved), edited, "--fail-on-regression")
    assert (status, report["counts"]["regressed"], report["counts"]["unchanged"]) == (1, 1, 54)
    # A baseline an editor saved with a UTF-8 byte order mark reads the same.
    saved.write_bytes(b"\xef\xbb\xbf" + saved.read_bytes())
    status, report = diff(str(saved), edited, "--fail-on-regression")
    assert (status, report["counts"]["regressed"], report["counts"]["unchanged"]) == (1, 1, 54)


def test_num_ctas_launches_clusters():
    # Triton launches num_ctas > 1 as clusters of its cluster_dims (9.0 and later): Result.cluster says
    # what a cluster launch keeps per SM. 2 warps, 8 registers on 9.0: 32 blocks per SM, 8 in clusters.
    k = kernel(n_regs=8, num_warps=2, shared=0, arch=90)
    k.metadata.num_ctas = 2
    k.metadata.cluster_dims = (2, 1, 1)
    got = occcalc.triton_occupancy(k)
    assert got.blocks_per_sm == 32
    assert got.cluster["blocks"] == 2
    assert got.cluster["blocks_per_sm"] == {"fewest": 8, "most": 8}
    assert got.cluster["occupancy"] == {"fewest": 0.25, "most": 0.25}
    k.metadata.cluster_dims = (1, 1, 1)  # none recorded: num_ctas along x
    assert occcalc.triton_occupancy(k).cluster["blocks"] == 2
    assert occcalc.triton_occupancy(kernel(n_regs=8, num_warps=2, shared=0, arch=90)).cluster is None
    k.metadata.cluster_dims = (2, 0, 1)
    with pytest.raises(TypeError, match="cluster_dims"):
        occcalc.triton_occupancy(k)
