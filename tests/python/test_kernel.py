"""occcalc.Kernel: cuda.core's occupancy calls with no GPU, held to cuda_occupancy.h
(the oracle built from it) and to what the CUDA runtime answered on an H200 and an H100
(tests/fixtures/measured, tools/gpu/measure_clusters.cu)."""
import json
import lzma
import os
import random
import subprocess

import pytest

import occcalc
import triton_shapes

MEASURED = os.path.join(os.path.dirname(__file__), "..", "fixtures", "measured")
ORACLE = os.environ.get("OCCCALC_CUDA_OCCUPANCY_ORACLE")
CCS = ["5.0", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"]


def measurements(gpu):
    rows = [json.loads(line) for line in lzma.open(os.path.join(MEASURED, gpu, "clusters.jsonl.xz"))]
    kernels = {r["kernel"]: r for r in rows if r["record"] == "kernel"}
    return kernels, [r for r in rows if r["record"] == "query"]


@pytest.mark.parametrize("gpu", ["h200", "h100"])
def test_every_runtime_answer_is_reproduced(gpu):
    kernels, queries = measurements(gpu)
    blocks_cells = available_cells = refused = 0
    for q in queries:
        k = occcalc.Kernel(cc="9.0", regs=kernels[q["kernel"]]["regs"])
        got = k.occupancy.max_active_blocks_per_multiprocessor(q["threads"], q["dyn_smem"])
        assert got == q["blocks_per_sm"], q
        blocks_cells += 1
        for blocks, want in enumerate(q["available_dyn_smem_by_blocks"], 1):
            available_cells += 1
            if isinstance(want, dict):  # the runtime refuses: fewer blocks resident
                with pytest.raises(occcalc.Error, match="num_blocks_per_multiprocessor"):
                    k.occupancy.available_dynamic_shared_memory_per_block(blocks, q["threads"])
                refused += 1
            else:
                assert k.occupancy.available_dynamic_shared_memory_per_block(blocks, q["threads"]) == want, q
    assert (blocks_cells, available_cells, refused) == (2688, 1792, 1189)


def oracle(lines):
    run = subprocess.run([ORACLE], input="".join(line + "\n" for line in lines), capture_output=True, text=True,
                         check=True)
    return run.stdout.splitlines()


@pytest.mark.skipif(not ORACLE, reason="cuda_occupancy.h not found: the oracle is not built")
def test_the_twin_equals_cuda_occupancy_h():
    rng = random.Random(44)
    cases = []
    for _ in range(3000):
        cc = rng.choice(CCS)
        regs = rng.choice([0, 8, 16, 24, 32, 37, 40, 48, 56, 64, 72, 96, 128, 168, 200, 255])
        smem = rng.choice([0, 0, 1024, 4096, 12288, 40000])
        call = rng.choice(["blocks", "potential", "per_thread", "available"])
        if call == "blocks":
            args = (rng.randrange(1, 1025), rng.choice([0, 512, 8192, 30000, 49152, 65536, 100000]))
        elif call == "potential":
            args = (rng.choice([0, 1024, 16384, 49152]), rng.choice([0, 0, 64, 256, 500, 1024]))
        elif call == "per_thread":
            args = (rng.choice([0, 4, 16, 48, 100]), rng.choice([0, 0, 128, 700]))
        else:
            args = (rng.randrange(1, 9), rng.choice([32, 64, 96, 128, 256, 384, 512, 1024]))
        # The kernel's launch bounds, the runtime's maxThreadsPerBlock attribute.
        bounds = rng.choice([0, 0, 0, 64, 100, 128, 256, 384, 1024]) if call in ("potential", "per_thread") else 0
        cases.append((call, cc, regs, smem) + args + (bounds,))
    answers = oracle(" ".join(map(str, case)) for case in cases)
    checked = {"blocks": 0, "potential": 0, "per_thread": 0, "available": 0, "error": 0, "bounded": 0}
    for (call, cc, regs, smem, a, b, bounds), want in zip(cases, answers):
        # One SM, as the oracle's device has: min_grid_size is the blocks per SM.
        occupancy = occcalc.Kernel(cc=cc, regs=regs, smem=smem, barriers=0, sm_count=1,
                                   max_threads=bounds or None).occupancy
        checked["bounded"] += bounds > 0 and want != "error"
        try:
            if call == "blocks":
                got = str(occupancy.max_active_blocks_per_multiprocessor(a, b))
            elif call in ("potential", "per_thread"):
                dynamic = a if call == "potential" else (lambda threads, a=a: a * threads)
                result = occupancy.max_potential_block_size(dynamic, b)
                got = f"{result.min_grid_size} {result.max_block_size}"
            else:
                got = str(occupancy.available_dynamic_shared_memory_per_block(a, b))
        except occcalc.Error:
            got = "error"
        assert got == want, (call, cc, regs, smem, a, b, bounds)
        checked["error" if want == "error" else call] += 1
    assert sum(checked.values()) - checked["bounded"] == 3000 and min(checked.values()) > 50, checked


@pytest.fixture(scope="module")
def real_cache(tmp_path_factory):
    return triton_shapes.load_cache(triton_shapes.unpack_cache(tmp_path_factory.mktemp("triton")))


def test_kernels_from_a_cubin_and_from_triton(real_cache, tmp_path):
    add = next(k for k in real_cache if k.name == "add_kernel" and k.metadata.target.arch == 90)
    from_triton = occcalc.Kernel.from_triton(add)
    path = tmp_path / "add.cubin"
    path.write_bytes(add.kernel)
    for kernel in (from_triton, occcalc.Kernel.from_cubin(path), occcalc.Kernel.from_cubin(add.kernel, "add_kernel")):
        assert kernel.name == "add_kernel"
        # 26 registers on sm_90: 16 blocks of 128 threads fill an SM.
        assert kernel.occupancy.max_active_blocks_per_multiprocessor(128, 0) == 16
    # The cubin's .maxntid 128 (Triton's num_warps 4) is the runtime's maxThreadsPerBlock: cuda_occupancy.h with
    # it searches no block past 128, and 16 blocks of 128 fill each of the 132 SMs.
    for kernel in (from_triton, occcalc.Kernel.from_cubin(path)):
        assert kernel.max_threads == 128
    on_h100 = occcalc.Kernel.from_triton(add, gpu="H100 SXM5 80GB").occupancy.max_potential_block_size(0, 0)
    assert on_h100 == occcalc.MaxPotentialBlockSizeOccupancyResult(min_grid_size=2112, max_block_size=128)
    from_cubin = occcalc.Kernel.from_cubin(path, gpu="H100 SXM5 80GB").occupancy
    assert from_cubin.max_potential_block_size(0, 0) == on_h100
    # A limit below the bounds lowers the search further: 32 blocks of 64 threads per SM.
    assert from_cubin.max_potential_block_size(0, 64) == (4224, 64)
    with pytest.raises(occcalc.Error, match="cannot load"):
        occcalc.Kernel.from_triton(add, gpu="RTX 4090")
    with pytest.raises(occcalc.Error, match="no kernel named 'mul'"):
        occcalc.Kernel.from_cubin(add.kernel, "mul")


def test_bad_arguments_name_themselves():
    occupancy = occcalc.Kernel(cc="8.0", regs=32).occupancy
    # Counts below 0 are refused, not taken as no limit or subtracted.
    with pytest.raises(occcalc.Error, match="^block_size_limit -1 is below 0 threads"):
        occupancy.max_potential_block_size(0, -1)
    with pytest.raises(occcalc.Error, match="^dynamic_shared_memory_needed -1024 is below 0 bytes"):
        occupancy.max_potential_block_size(-1024, 0)
    with pytest.raises(occcalc.Error, match="dynamic_shared_memory_needed\\(1024\\) -4 is below 0 bytes"):
        occupancy.max_potential_block_size(lambda threads: -4, 0)
    with pytest.raises(occcalc.Error, match="^max_threads 0 is below 1 thread"):
        occcalc.Kernel(cc="8.0", regs=32, max_threads=0)
    with pytest.raises(TypeError, match="^max_threads is a float"):
        occcalc.Kernel(cc="8.0", regs=32, max_threads=128.0)
    with pytest.raises(TypeError, match="^block_size is a float"):
        occupancy.max_active_blocks_per_multiprocessor(128.0, 0)
    with pytest.raises(TypeError, match="^dynamic_shared_memory_size is a bool"):
        occupancy.max_active_blocks_per_multiprocessor(128, False)
    with pytest.raises(TypeError, match="dynamic_shared_memory_needed\\(1024\\) is a str"):
        occupancy.max_potential_block_size(lambda threads: "many", 0)
    with pytest.raises(occcalc.Error, match="block_size"):
        occupancy.max_active_blocks_per_multiprocessor(0, 0)
    with pytest.raises(TypeError, match="does not take threads"):
        occcalc.Kernel(cc="8.0", regs=32, threads=128)
    with pytest.raises(occcalc.Error, match="regs is required"):
        occcalc.Kernel(cc="8.0")


FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "inspect")


def test_a_kernel_from_an_executable_takes_the_image_the_gpu_loads():
    # tests/fixtures/inspect/app (nvcc 13, sm_80 and sm_120 images): `bounded` is __launch_bounds__(256), named as
    # inspect --kernel names it, mangled or not.
    app = os.path.join(FIXTURES, "app")
    name = "demo::bounded(float const*, float*, int)"
    on_5090 = occcalc.Kernel.from_cubin(app, name, gpu="RTX 5090")
    assert (on_5090.name, on_5090.max_threads) == ("_ZN4demo7boundedEPKfPfi", 256)
    assert repr(on_5090) == ("<occcalc.Kernel _ZN4demo7boundedEPKfPfi regs=12, smem=0, barriers=0, gpu='RTX 5090', "
                             "max_threads=256>")
    # 12 registers on sm_120: 6 blocks of 256 threads fill each of the 170 SMs.
    assert on_5090.occupancy.max_potential_block_size(0, 0) == (1020, 256)
    on_a100 = occcalc.Kernel.from_cubin(app, "_ZN4demo7boundedEPKfPfi", gpu="A100 SXM4 80GB")
    assert repr(on_a100).startswith("<occcalc.Kernel _ZN4demo7boundedEPKfPfi regs=10,")
    assert on_a100.occupancy.max_potential_block_size(0, 0) == (864, 256)
    with pytest.raises(occcalc.Error, match=r"for sm_80, sm_120; give gpu= or cc= to pick the image"):
        occcalc.Kernel.from_cubin(app, name)
    with pytest.raises(occcalc.Error, match=r"for sm_80, sm_120; sm_90 loads none of them"):
        occcalc.Kernel.from_cubin(app, name, cc="9.0")
    with pytest.raises(occcalc.Error, match=r"no kernel named 'bound' \(it holds demo::bounded\(float const\*"):
        occcalc.Kernel.from_cubin(app, "bound", gpu="RTX 5090")
    # .reqntid 128x2x1: the runtime's maxThreadsPerBlock is its 256 threads.
    assert occcalc.Kernel.from_cubin(os.path.join(FIXTURES, "reqntid.sm_80.cubin")).max_threads == 256


def test_a_kernel_read_from_a_device_is_bounded():
    with pytest.raises(occcalc.Error, match="^/dev/zero: more than 268435456 bytes from a pipe or device"):
        occcalc.Kernel.from_cubin("/dev/zero")
    with pytest.raises(TypeError, match="^cubin is a float"):
        occcalc.Kernel.from_cubin(1.5)
