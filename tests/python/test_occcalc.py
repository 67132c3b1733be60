"""The Python module against the CLI: the same answers, the same refusals.

Run by CTest with the module's build directory on sys.path and the CLI's
path in OCCCALC_CLI: pytest (Debian's python3-pytest) with Debian's python3.
"""
import json
import os
import random
import subprocess

import pytest

import occcalc

CLI = os.environ["OCCCALC_CLI"]


def cli_json(args):
    out = subprocess.run([CLI, *args, "--json"], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def flags(request):
    """The CLI flags of a request given as keyword arguments."""
    args = []
    for key, value in request.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        else:
            args += [flag, str(value)]
    return args


def test_the_main_job():
    r = occcalc.occupancy(cc="7.0", threads=128, regs=37)
    assert (r.blocks_per_sm, r.active_warps_per_sm, r.max_warps_per_sm) == (12, 48, 64)
    assert r.occupancy == 0.75
    assert r.occupancy_percent == 75.0
    assert r.limiters == ["registers"]
    assert r.limits == {"warps": 16, "registers": 12, "shared_memory": None, "blocks": 32, "barriers": None}
    assert (r.arch, r.gpu, r.model, r.unit) == ("sm_70", None, "nvidia", "sm")
    # As --brief says it.
    assert repr(r) == "<occcalc.Result sm_70: 75.0%, 12 blocks and 48 of 64 warps per SM, limited by registers>"


def test_triton_tutorial_hand_formula_is_off_by_one():
    # Triton's fused-softmax tutorial: NUM_REGS // (n_regs * WARP_SIZE * num_warps)
    # gives 13 blocks for 37 registers and 4 warps on 7.0; allocation
    # granularity and partitions make it 12.
    assert 65536 // (37 * 32 * 4) == 13
    assert occcalc.occupancy(cc=70, threads=4 * 32, regs=37).blocks_per_sm == 12


@pytest.mark.parametrize("request_", [
    dict(cc="7.0", threads=128, regs=37),
    dict(gpu="RTX 4090", threads=256, regs=64, smem="16K", grid=1024),
    dict(gpu="H100", threads=256, regs=64),
    dict(gpu="A100", threads=256, regs=64, grid=1000),
    dict(cc="9.0", threads=128, regs=168, dyn_smem=102400, carveout=100, barriers=2),
    dict(cc="2.0", threads=256, regs=20, cache="l1"),
    dict(gfx="gfx90a", threads=256, vgprs=128, sgprs=32, lds="16K"),
    dict(gpu="Radeon RX 7900 XTX", threads=256, vgprs=96, wgp_mode=True, grid=500),
    dict(gpu="Radeon HD 7770", threads=256, vgprs=11, sgprs=20, lds="4K", model="rcp"),
])
def test_to_dict_is_the_clis_json(request_):
    assert occcalc.occupancy(**request_).to_dict() == cli_json(flags(request_))


def random_request(rng):
    req = valid_request(rng)
    if rng.random() < 0.05:  # what the CLI refuses, to hold the messages equal too
        key = rng.choice([k for k in req if k not in ("cc", "gfx", "gpu")])
        req[key] = rng.choice([0, -1, 4096, 70000, "abc", "1e3"])
    return req


def valid_request(rng):
    if rng.random() < 0.5:
        req = {"cc": rng.choice(["5.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"]),
               "threads": rng.choice([32, 64, 96, 128, 256, 512, 1024]), "regs": rng.randint(0, 255)}
        if rng.random() < 0.5:
            req["smem"] = rng.randint(0, 48 * 1024)
        if rng.random() < 0.3:
            req["dyn_smem"] = rng.randint(0, 64 * 1024)
        if rng.random() < 0.2:
            req["barriers"] = rng.randint(0, 16)
        if rng.random() < 0.2:
            req["gpu"] = rng.choice(["RTX 4090", "A100", "H100 PCIe", "L4", "T4"])
            del req["cc"]
            req["grid"] = rng.randint(1, 5000)
        return req
    req = {"gfx": rng.choice(["gfx906", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1201"]),
           "threads": rng.choice([64, 128, 256, 512, 1024]), "vgprs": rng.randint(1, 256)}
    if rng.random() < 0.5:
        req["sgprs"] = rng.randint(0, 100)
    if rng.random() < 0.5:
        req["lds"] = rng.randint(0, 64 * 1024)
    return req


def test_ten_thousand_random_requests_answer_as_the_cli():
    # One batch run of the CLI for all of them; a batch line is the result
    # without the table entries (architecture, device) a single --json adds.
    rng = random.Random(34)
    requests = [random_request(rng) for _ in range(10_000)]
    lines = subprocess.run([CLI, "batch"], input="".join(json.dumps(r) + "\n" for r in requests),
                           capture_output=True, text=True).stdout.splitlines()
    assert len(lines) == len(requests)
    answered = refused = 0
    for request, line in zip(requests, lines):
        expected = json.loads(line)
        if "error" in expected:
            with pytest.raises(occcalc.Error) as e:
                occcalc.occupancy(**request)
            assert str(e.value) == expected["error"]["message"]
            refused += 1
            continue
        got = occcalc.occupancy(**request).to_dict()
        got.pop("architecture")
        got.pop("device")
        assert got == expected, request
        answered += 1
    assert answered > 8000 and refused > 50


@pytest.mark.parametrize("request_, message", [
    (dict(cc="7.0", threads=0, regs=37), "threads 0 is outside [1, 2147483647]"),
    (dict(cc="7.7", threads=128, regs=37), "cc '7.7' is not a supported compute capability"),
    (dict(cc="7.0", regs=37), "threads is required: threads per block"),
    (dict(cc="7.0", threads=128, regs=37, colour="red"), "colour is not a known argument; known arguments: cc"),
    (dict(cc="7.0", threads=128.5, regs=37), "threads 128.5 is not an integer"),
    (dict(cc="7.0", threads=float("nan"), regs=37), "threads nan is not an integer"),
    (dict(cc="7.0", threads=128, regs=2 ** 70), "regs 1180591620717411303424 is outside 64 bits"),
    (dict(cc="7.0", threads=128, regs=""), "regs is empty; give a value, or leave the argument out"),
    (dict(cc="7.0", threads=128, regs=37, smem="48KB"), "write 48K or 49152"),
])
def test_refusals_raise_with_the_clis_message(request_, message):
    with pytest.raises(occcalc.Error, match=None) as e:
        occcalc.occupancy(**request_)
    assert message in str(e.value)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("request_, message", [
    (dict(cc="7.0", threads=[128], regs=37), "threads is a list; it takes an integer or a string"),
    (dict(cc="7.0", threads=True, regs=37), "threads is True or False; it takes an integer or a string"),
    (dict(gfx="gfx90a", threads=256, vgprs=64, wave32="yes"), "wave32 takes True or False"),
    (dict(cc="7.0", threads=b"128", regs=37), "threads is a bytes; it takes an integer or a string"),
])
def test_values_of_the_wrong_type_raise_type_error_naming_the_argument(request_, message):
    with pytest.raises(TypeError) as e:
        occcalc.occupancy(**request_)
    assert str(e.value) == message


def test_numpy_integers_are_integers():
    np = pytest.importorskip("numpy")
    assert occcalc.occupancy(cc="7.0", threads=np.int16(128), regs=np.uint64(37)).to_dict() == \
        occcalc.occupancy(cc="7.0", threads=128, regs=37).to_dict()
    with pytest.raises(TypeError, match="threads is True or False"):
        occcalc.occupancy(cc="7.0", threads=np.bool_(True), regs=37)


def test_results_come_from_occupancy_only():
    # Result is a C type (python/module.cpp): one made any other way would hold no answer.
    with pytest.raises(TypeError, match=r"cannot create 'occcalc.Result' instances; occcalc.occupancy\(\) gives them"):
        occcalc.Result()
    with pytest.raises(TypeError, match=r"takes keyword arguments only .* given 2 positional"):
        occcalc.occupancy("7.0", 128)
    r = occcalc.occupancy(cc="7.0", threads=128, regs=37)
    assert type(r) is occcalc.Result and occcalc.Result.__module__ == "occcalc"
    with pytest.raises(AttributeError):
        r.blocks_per_sm = 3  # read-only, as the CLI's answer


def test_none_is_left_out():
    assert occcalc.occupancy(cc="7.0", threads=128, regs=37, smem=None).to_dict() == \
        occcalc.occupancy(cc="7.0", threads=128, regs=37).to_dict()


def test_tables_as_list_json_writes_them():
    listed = cli_json(["list"])
    gpus = occcalc.gpus()
    assert gpus == listed["gpus"] + listed["amd_gpus"]
    assert occcalc.archs() == listed["architectures"] + listed["amd_targets"]
    assert any(g["name"] == "GeForce RTX 4090" for g in gpus)


def test_occupancy_many_equals_one_call_each():
    rng = random.Random(5)
    threads = [rng.choice([32, 64, 128, 256, 512, 1024]) for _ in range(2000)]
    regs = [rng.randint(0, 255) for _ in range(2000)]
    smem = [rng.randint(0, 48 * 1024) for _ in range(2000)]
    for fixed in (dict(cc="8.0"), dict(gpu="RTX 4090", carveout=50), dict(cc="7.0", barriers=2)):
        occupancy, blocks = occcalc.occupancy_many(threads, regs, smem, **fixed)
        for i in range(0, 2000, 7):
            one = occcalc.occupancy(threads=threads[i], regs=regs[i], smem=smem[i], **fixed)
            assert (occupancy[i], blocks[i]) == (one.occupancy, one.blocks_per_sm), (fixed, i)


def test_occupancy_many_takes_numpy_and_scalars():
    numpy = pytest.importorskip("numpy")
    threads = numpy.array([128, 256, 1024], dtype=numpy.int32)
    occupancy, blocks = occcalc.occupancy_many(threads, numpy.int64(37), cc="7.0")
    assert occupancy.dtype == numpy.float64 and blocks.dtype == numpy.int64
    assert occupancy.tolist() == [0.75, 0.75, 0.5]
    assert blocks.tolist() == [12, 6, 1]
    as_lists = occcalc.occupancy_many([128, 256, 1024], [37, 37, 37], cc="7.0")
    assert [list(a) for a in as_lists] == [occupancy.tolist(), blocks.tolist()]


@pytest.mark.parametrize("arguments, error, message", [
    (dict(threads=[128, 0], regs=37), occcalc.Error, "configuration 1: threads 0 is outside [1, 2147483647]"),
    (dict(threads=[128, 1.5], regs=37), TypeError, "threads[1] is a float; it takes an integer"),
    (dict(threads=[128, 256], regs=[1, 2, 3]), occcalc.Error, "regs holds 3 values where threads holds 2"),
    (dict(threads="128", regs=37), TypeError, "threads is a str; it takes an integer or a sequence of integers"),
    (dict(threads=[True], regs=37), TypeError, "threads[0] is a bool; it takes an integer"),
    (dict(threads=[2 ** 70], regs=37), occcalc.Error, "threads[0] 1180591620717411303424 is outside 64 bits"),
    (dict(threads=[128], regs=[70000]), occcalc.Error, "configuration 0: regs 70000 is outside [0, 65535]"),
])
def test_occupancy_many_names_the_configuration_it_refuses(arguments, error, message):
    with pytest.raises(error) as e:
        occcalc.occupancy_many(cc="7.0", **arguments)
    assert str(e.value) == message


def test_occupancy_many_for_amd_equals_one_call_each():
    rng = random.Random(9)
    threads = [rng.choice([64, 128, 256, 512, 1024]) for _ in range(1000)]
    vgprs = [rng.randint(1, 256) for _ in range(1000)]
    lds = [rng.randint(0, 64 * 1024) for _ in range(1000)]
    for fixed in (dict(gfx="gfx90a"), dict(gpu="Radeon RX 7900 XTX", wgp_mode=True), dict(gfx="gfx1100", model="hip")):
        occupancy, groups = occcalc.occupancy_many(threads, vgprs=vgprs, sgprs=32, lds=lds, **fixed)
        for i in range(0, 1000, 7):
            one = occcalc.occupancy(threads=threads[i], vgprs=vgprs[i], sgprs=32, lds=lds[i], **fixed)
            assert (occupancy[i], groups[i]) == (one.occupancy, one.blocks_per_sm), (fixed, i)


@pytest.mark.parametrize("arguments, message", [
    (dict(threads=[256], regs=[96], gfx="gfx90a"), "regs does not apply to AMD targets; give vgprs (and sgprs)"),
    # The words batch gives for the same figures, hint included (one rule: amd/checked.hpp).
    (dict(threads=[256], vgprs=[9999], gfx="gfx90a"),
     "configuration 0: vgprs 9999 is outside [0, 256] on gfx90a; give the AGPRs apart with agprs "
     "(a code object's .vgpr_count, inspect's regs, counts both)"),
    (dict(threads=[256], gfx="gfx90a"), "vgprs is required: VGPRs per work-item"),
    (dict(threads=[256], regs=[32], lds=[0], cc="8.0"), "lds does not apply to NVIDIA architectures; give smem"),
])
def test_occupancy_many_keeps_each_vendors_figures(arguments, message):
    with pytest.raises(occcalc.Error) as e:
        occcalc.occupancy_many(**arguments)
    assert str(e.value) == message


@pytest.mark.parametrize("request_, cli", [
    (dict(gpu="A100", regs=40), ["--gpu", "A100", "--regs", "40"]),
    # A family whose products differ in SMs: each one's min grid size.
    (dict(gpu="H100", regs=40), ["--gpu", "H100", "--regs", "40"]),
    (dict(cc="8.6", regs=64, threads=256, target=75), ["--cc", "8.6", "--regs", "64", "--threads", "256",
                                                        "--target", "75"]),
    (dict(gfx="gfx90a", vgprs=128, sgprs=32, lds="24K"), ["--gfx", "gfx90a", "--vgprs", "128", "--sgprs", "32",
                                                          "--lds", "24K"]),
])
def test_suggest_is_the_clis(request_, cli):
    answer = occcalc.suggest(**request_)
    assert answer == cli_json(["suggest", *cli])
    if request_.get("gpu") == "H100":
        assert [g["min_grid_size"] for g in answer["family"]["gpus"]] == [264, 228, 264]


def test_sweep_is_the_clis():
    assert occcalc.sweep("regs", cc="7.0", threads=128, regs=37) == \
        cli_json(["sweep", "--vary", "regs", "--cc", "7.0", "--threads", "128", "--regs", "37"])
    assert occcalc.sweep("threads", gpu="RTX 4090", regs=64, from_=64, to=512, step=64) == \
        cli_json(["sweep", "--vary", "threads", "--gpu", "RTX 4090", "--regs", "64", "--from", "64", "--to", "512",
                  "--step", "64"])
    with pytest.raises(occcalc.Error, match="vary 'bogus' is not one of threads, regs, smem, barriers, cluster"):
        occcalc.sweep("bogus", cc="7.0", threads=128, regs=37)


def test_inspect_is_the_clis():
    fixtures = os.path.join(os.path.dirname(__file__), "..", "fixtures", "inspect")
    cubin = os.path.join(fixtures, "kernels.sm_90.cubin")
    assert occcalc.inspect(cubin, threads=256) == cli_json(["inspect", cubin, "--threads", "256"])
    with pytest.warns(UserWarning, match="files skipped, not GPU binaries or compiler logs"):
        chosen = occcalc.inspect(fixtures, kernel="scale", arch="sm_80")
    assert chosen == cli_json(["inspect", fixtures, "--kernel", "scale", "--arch", "sm_80"])
    assert chosen["kernels"] and all("scale" in k["name"] for k in chosen["kernels"])
    with pytest.raises(occcalc.Error, match="cannot open"):
        occcalc.inspect(os.path.join(fixtures, "no-such-file"))
    with pytest.raises(occcalc.Error, match="inspect needs a path"):
        occcalc.inspect()


def test_inspect_speaks_the_modules_words(tmp_path):
    """A failed read raises its error lines alone, and notes name keyword
    arguments, not the CLI's flags: a directory with remarks that need a
    target (a note: 'give arch=') and a Triton file with a bad value (the
    error)."""
    amd = os.path.join(os.path.dirname(__file__), "..", "fixtures", "amd", "kernels.gfx1100.remarks")
    (tmp_path / "k.remarks").write_bytes(open(amd, "rb").read())
    with pytest.warns(UserWarning) as notes:
        occcalc.inspect(str(tmp_path))
    texts = [str(w.message) for w in notes]
    assert any("give arch= (e.g. gfx90a)" in t for t in texts), texts
    assert not any("--" in t for t in texts), texts
    (tmp_path / "add_kernel.json").write_text('{"name": "add_kernel", "num_warps": 3000, "shared": 0}')
    (tmp_path / "add_kernel.cubin").write_bytes(open(os.path.join(
        os.path.dirname(__file__), "..", "fixtures", "inspect", "kernels.sm_90.cubin"), "rb").read())
    with pytest.raises(occcalc.Error) as failed:
        occcalc.inspect(str(tmp_path))
    message = str(failed.value)
    assert "num_warps" in message and "note" not in message and "give arch" not in message, message


def test_suggest_changes_together():
    # H100, 256 threads, 96 registers, 48 KiB: 75% needs 6 blocks, 40
    # registers and 37888 B (6 x (37888 + 1024) = 228 KiB) together.
    d = occcalc.suggest(gpu="H100", regs=96, smem=49152, threads=256, target=75)
    assert d["together"][0]["changes"] == [{"knob": "registers", "from": 96, "to": 40},
                                           {"knob": "shared_memory", "from": 49152, "to": 37888}]
    # gfx900 under RCP's model: 60 VGPRs and 16 KiB of LDS both allow 4
    # work-groups; 5 need 48 VGPRs and 13107 B together.
    d = occcalc.suggest(gfx="gfx900", model="rcp", threads=256, vgprs=60, sgprs=90, lds=16384)
    assert d["block_size"] is None and [s["needed"] for s in d["next_steps"]] == [None, None]
    assert d["together"][0]["changes"] == [{"knob": "vgprs", "from": 60, "to": 48},
                                           {"knob": "lds", "from": 16384, "to": 13107}]


def test_suggest_amd_llvm_next_steps():
    # gfx90a, 256 work-items, 128 VGPRs, 16 KiB of LDS: 4 waves per SIMD; 5
    # need 96 VGPRs (512 / 5 down to the granule of 8) and 13107 B of LDS.
    d = occcalc.suggest(gfx="gfx90a", model="llvm", threads=256, vgprs=128, lds=16384)
    assert d["model"] == "llvm" and d["waves_per_simd"] == 4.0 and d["goal_waves_per_simd"] == 5
    assert d["steps"] == [{"resource": "vgprs", "from": 128, "to": 96}, {"resource": "lds", "from": 16384, "to": 13107}]
    assert occcalc.suggest(gfx="gfx90a", model="llvm", threads=256, vgprs=128, lds=16384, target=75)[
        "goal_waves_per_simd"] == 6


def test_a_family_with_a_grid_gives_each_products_waves():
    # H100s have 132 or 114 SMs: one request, the waves of each product, as the CLI's text and --json give them.
    family = occcalc.occupancy(gpu="H100", threads=256, regs=64, grid=1000)
    assert family.waves_per_sm is None
    products = family.family["gpus"]
    assert [g["sm_count"] for g in products] == [132, 114, 132]
    for g in products:
        one = occcalc.occupancy(gpu=g["name"], threads=256, regs=64, grid=1000)
        assert g["waves"] == {key: one.to_dict()[key] for key in g["waves"]}, g["name"]
    assert products[1]["waves"]["blocks_per_wave"] == 114 * 4
