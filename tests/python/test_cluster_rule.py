"""docs/clusters.md's rule, written again here from the note alone (layouts enumerated one by one, not
found by occcalc's dynamic program), held to occcalc's cluster answers on every surface: batch lines,
--json, the text and the module; and cuda.core's cluster calls (Kernel.occupancy.max_active_clusters,
max_potential_cluster_size) held to the same rule."""
import functools
import json
import os
import subprocess
from collections import namedtuple

import pytest

import occcalc

CLI = os.environ["OCCCALC_CLI"]
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
LAYOUTS = {gpu: layout for layout in json.load(open(os.path.join(ROOT, "data", "nvidia-cluster-layouts.json")))
           ["cluster_layouts"] for gpu in layout["gpus"]}
ARCHS = {a["id"]: a for a in occcalc.archs()}
GPUS = [g for g in occcalc.gpus() if g.get("arch") in ARCHS and ARCHS[g["arch"]].get("max_cluster_size_portable")]

Launch = namedtuple("Launch", "threads regs dyn_smem")
# Launches whose blocks per SM run from 1 to 32 on 9.0 and later.
LAUNCHES = [Launch(t, r, s) for t in (32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 768, 1024)
            for r in (16, 40, 64, 128) for s in (0, 30000, 60000)]


def partitions(total, parts, largest):
    """Every multiset of `parts` positive integers of at most `largest` adding up to `total`, largest first."""
    if parts == 0:
        if total == 0:
            yield ()
        return
    for first in range(min(largest, total - (parts - 1)), 0, -1):
        if first * parts < total:
            break
        for rest in partitions(total - first, parts - 1, first):
            yield (first,) + rest


def any_partition(total):
    """Every multiset of positive integers adding up to `total`."""
    for parts in range(1, total + 1):
        yield from partitions(total, parts, total)


def in_domain(sms, blocks, size):
    """A domain of `sms` SMs, each holding `blocks` of a cluster launch's blocks."""
    return sms * blocks // size if sms >= size else 0


@functools.lru_cache(maxsize=None)
def layouts_of(tpcs, gpcs, largest):
    return tuple(partitions(tpcs, gpcs, largest))


@functools.lru_cache(maxsize=None)
def fewest_split(tpcs, per_tpc, blocks, size):
    """The fewest clusters a GPC of `tpcs` TPCs holds over every split of it into domains of whole TPCs."""
    return min(sum(in_domain(d * per_tpc, blocks, size) for d in domains) for domains in any_partition(tpcs))


@functools.lru_cache(maxsize=None)
def gpc_range(gpu_id, sm_count, low_blocks, high_blocks, size):
    """The fewest and most clusters over every layout the published GPC counts allow: the TPCs split into
    that many GPCs, one of which may be split further into domains of whole TPCs."""
    layout = LAYOUTS[gpu_id]
    per_tpc = layout["sms_per_tpc"]
    tpcs = sm_count // per_tpc
    fewest, most = None, None
    for gpcs in layout["gpc_counts"]:
        for split in layouts_of(tpcs, gpcs, layout["max_tpcs_per_gpc"]):
            whole_high = sum(in_domain(g * per_tpc, high_blocks, size) for g in split)
            whole_low = [in_domain(g * per_tpc, low_blocks, size) for g in split]
            low = sum(whole_low)
            for g in set(split):
                j = split.index(g)
                low = min(low, sum(whole_low) - whole_low[j] + fewest_split(g, per_tpc, low_blocks, size))
            fewest = low if fewest is None else min(fewest, low)
            most = whole_high if most is None else max(most, whole_high)
    return fewest, most


def blocks_kept(arch, blocks_per_sm):
    """The blocks an SM keeps in a cluster launch: capped where measured, else from the portable size's
    cap to none."""
    cap = arch.get("max_cluster_blocks_per_sm")
    if cap:
        return min(blocks_per_sm, cap), min(blocks_per_sm, cap)
    return min(blocks_per_sm, arch["max_cluster_size_portable"]), blocks_per_sm


def expected_clusters(gpu, blocks_per_sm, size):
    """cudaOccupancyMaxActiveClusters by the rule: (fewest, most, basis)."""
    arch = ARCHS[gpu["arch"]]
    low, high = blocks_kept(arch, blocks_per_sm)
    layout = LAYOUTS.get(gpu["id"])
    if high == 0:
        return 0, 0, "measured" if layout and "domain_sms" in layout else "gpc_counts" if layout else "sm_count"
    if layout and "domain_sms" in layout:
        return (sum(in_domain(d, low, size) for d in layout["domain_sms"]),
                sum(in_domain(d, high, size) for d in layout["domain_sms"]), "measured")
    sms = gpu["sm_count"]
    basis = "gpc_counts" if layout else "sm_count"
    if size == 1:
        return sms * low, sms * high, basis  # a 1-block cluster runs wherever a block does
    fewest, most = gpc_range(gpu["id"], sms, low, high, size) if layout else (0, in_domain(sms, high, size))
    if size > arch["max_cluster_size_portable"]:
        fewest = 0  # past the portable size, nothing is promised where nothing was measured
    return fewest, most, basis


def largest_size(gpu, blocks_per_sm, up_to):
    return _largest_size(gpu["id"], blocks_per_sm, up_to)


@functools.lru_cache(maxsize=None)
def _largest_size(gpu_id, blocks_per_sm, up_to):
    gpu = next(g for g in GPUS if g["id"] == gpu_id)
    fewest = most = 0
    for size in range(1, up_to + 1):
        f, m, _ = expected_clusters(gpu, blocks_per_sm, size)
        fewest, most = (size if f > 0 else fewest), (size if m > 0 else most)
    return fewest, most


def largest_of(arch):
    return arch.get("max_cluster_size_nonportable") or arch["max_cluster_size_portable"]


def queries():
    """(gpu, launch, cluster size): every GPU with clusters, every launch, every size it launches."""
    for gpu in GPUS:
        for launch in LAUNCHES:
            for size in range(1, largest_of(ARCHS[gpu["arch"]]) + 1):
                yield gpu, launch, size


def check_device(device, gpu, blocks_per_sm, size, where):
    fewest, most, basis = expected_clusters(gpu, blocks_per_sm, size)
    assert device["basis"] == basis, where
    assert device["max_active_clusters"] == {"fewest": fewest, "most": most}, where
    assert device["blocks_in_clusters"] == {"fewest": fewest * size, "most": most * size}, where
    f, m = largest_size(gpu, blocks_per_sm, largest_of(ARCHS[gpu["arch"]]))
    assert device["largest_cluster_size"] == {"fewest": f, "most": m}, where


def test_batch_and_the_module_follow_the_rule():
    cases = list(queries())
    lines = "".join(json.dumps({"gpu": g["name"], "threads": l.threads, "regs": l.regs, "dyn_smem": l.dyn_smem,
                                "cluster": size}) + "\n" for g, l, size in cases)
    out = subprocess.run([CLI, "batch"], input=lines, capture_output=True, text=True, check=True).stdout
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(cases) >= 20000
    checked = 0
    for (gpu, launch, size), answer in zip(cases, answers):
        where = (gpu["name"], launch, size)
        if "error" in answer:
            # Only a launch that cannot run at all (its shared memory) is refused, never a cluster.
            assert "cluster" not in answer["error"]["message"], (where, answer)
            continue
        (device,) = answer["cluster"]["devices"]
        check_device(device, gpu, answer["blocks_per_sm"], size, where)
        module = occcalc.occupancy(gpu=gpu["name"], cluster=size, **launch._asdict())
        assert module.cluster == answer["cluster"], where
        checked += 1
    assert checked >= 20000


@pytest.mark.parametrize("gpu", ["H200", "H100 PCIe", "GeForce RTX 5090", "B200", "RTX PRO 6000 Blackwell"])
def test_json_and_text_follow_the_rule(gpu):
    entry = next(g for g in GPUS if g["name"] == gpu)
    for launch in LAUNCHES[::5]:
        for size in (1, 2, 5, 8):
            args = [CLI, "--gpu", gpu, "--threads", str(launch.threads), "--regs", str(launch.regs),
                    "--dyn-smem", str(launch.dyn_smem), "--cluster", str(size)]
            run = subprocess.run(args + ["--json"], capture_output=True, text=True)
            if run.returncode == 2:
                continue  # the launch cannot run on this architecture
            doc = json.loads(run.stdout)
            (device,) = doc["cluster"]["devices"]
            check_device(device, entry, doc["blocks_per_sm"], size, (gpu, launch, size))
            fewest, most, _ = expected_clusters(entry, doc["blocks_per_sm"], size)
            text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
            line = next(l for l in text.splitlines() if l.strip().startswith("max active clusters"))
            assert line.split()[3:] == ([str(most)] if fewest == most else [str(fewest), "to", str(most)]), line


def test_a_grid_in_clusters_fills_waves_of_the_clusters_that_run():
    # H100 SXM5 (measured), 4 blocks per SM, clusters of 8: 62 clusters, 496 blocks a wave, not 528.
    r = occcalc.occupancy(gpu="H100 SXM5 80GB", threads=512, regs=32, cluster=8, grid=992)
    assert r.blocks_per_sm == 4
    assert r.cluster["devices"][0]["max_active_clusters"] == {"fewest": 62, "most": 62}
    doc = json.loads(subprocess.run([CLI, "--gpu", "H100 SXM5 80GB", "--threads", "512", "--regs", "32",
                                     "--cluster", "8", "--grid", "992", "--json"],
                                    capture_output=True, text=True, check=True).stdout)
    assert doc["blocks_per_wave"] == 496 and doc["waves_per_sm"] == 2.0 and doc["full_waves"] == 2
    assert doc["cluster"]["devices"][0]["waves_per_sm"] == {"fewest": 2.0, "most": 2.0}
    # A range where the layout is not measured: no single figure at the top, the range per device.
    pcie = json.loads(subprocess.run([CLI, "--gpu", "H100 PCIe", "--threads", "512", "--regs", "32",
                                      "--cluster", "8", "--grid", "992", "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    assert pcie["blocks_per_wave"] is None
    clusters = pcie["cluster"]["devices"][0]["blocks_in_clusters"]
    assert pcie["cluster"]["devices"][0]["waves_per_sm"] == {"fewest": 992 / clusters["most"],
                                                             "most": 992 / clusters["fewest"]}
    # A grid that is not whole clusters cannot launch.
    run = subprocess.run([CLI, "--gpu", "H200", "--threads", "512", "--regs", "32", "--cluster", "8",
                          "--grid", "1001"], capture_output=True, text=True)
    assert run.returncode == 2
    assert "--grid 1001 is not a multiple of the cluster's 8 blocks" in run.stderr


def test_the_measured_layout_survives_its_own_sm_count():
    mine = occcalc.occupancy(gpu="H200", sm_count=132, threads=256, regs=32, cluster=16).cluster["devices"][0]
    assert mine["basis"] == "measured"
    part = occcalc.occupancy(gpu="H200", sm_count=66, threads=256, regs=32, cluster=16).cluster["devices"][0]
    assert part["basis"] == "sm_count"
    # A 1-block cluster runs wherever a block does, with or without a layout.
    one = occcalc.occupancy(gpu="H200", sm_count=66, threads=256, regs=32, cluster=1).cluster["devices"][0]
    assert one["max_active_clusters"] == {"fewest": 66 * 8, "most": 66 * 8}


def test_blackwell_answers_a_user_can_act_on():
    # B200: clusters of 16 launch with the non-portable opt-in (NVIDIA's Blackwell tuning guide).
    b200 = occcalc.occupancy(gpu="B200", threads=128, regs=32, cluster=16).cluster
    assert b200["portable"] is False
    assert b200["devices"][0]["largest_cluster_size"]["most"] == 16
    # A 1-block cluster: every SM's blocks, as many as the unmeasured per-SM cap allows at least.
    one = occcalc.occupancy(gpu="B200", threads=128, regs=32, cluster=1).cluster["devices"][0]
    assert one["max_active_clusters"] == {"fewest": 148 * 8, "most": 148 * 16}
    # The published GB200 figures (one block per SM, 152 SMs; nvidia-limits.md vector 22) lie in the range.
    for size, clusters in {8: 15, 6: 23, 5: 28, 4: 36, 3: 46}.items():
        d = occcalc.occupancy(cc="10.0", sm_count=152, threads=1024, regs=64, cluster=size).cluster["devices"][0]
        assert d["max_active_clusters"]["fewest"] <= clusters <= d["max_active_clusters"]["most"]
    # The RTX 5090's 11 GPCs and 85 TPCs are published: clusters of 2 fill every TPC.
    pair = occcalc.occupancy(gpu="RTX 5090", threads=1024, regs=32, cluster=2).cluster["devices"][0]
    assert pair["max_active_clusters"] == {"fewest": 85, "most": 85}


LaunchConfig = namedtuple("LaunchConfig", "grid cluster block shmem_size")  # cuda.core's fields


@pytest.mark.parametrize("gpu", ["H200", "H100 NVL", "B200", "GeForce RTX 5080"])
def test_cuda_core_cluster_calls(gpu):
    entry = next(g for g in GPUS if g["name"] == gpu)
    kernel = occcalc.Kernel(gpu=gpu, regs=40)
    for block in (64, 256, (16, 16), (8, 8, 8)):
        threads = block if isinstance(block, int) else eval("*".join(map(str, block)))
        blocks_per_sm = kernel.occupancy.max_active_blocks_per_multiprocessor(threads, 1024)
        for cluster in (1, 2, (2, 2), (2, 2, 2), 8):
            size = cluster if isinstance(cluster, int) else eval("*".join(map(str, cluster)))
            config = LaunchConfig(grid=64, cluster=cluster, block=block, shmem_size=1024)
            answer = kernel.occupancy.max_active_clusters(config)
            fewest, most, basis = expected_clusters(entry, blocks_per_sm, size)
            if fewest == most:
                assert answer == fewest and type(answer) is int
            else:
                assert answer == occcalc.ClusterRange(fewest, most, basis)
        portable = ARCHS[entry["arch"]]["max_cluster_size_portable"]
        f, m = largest_size(entry, blocks_per_sm, portable)
        sizes = kernel.occupancy.max_potential_cluster_size(LaunchConfig(64, None, block, 1024))
        assert sizes == (f if f == m else occcalc.ClusterRange(f, m, expected_clusters(entry, blocks_per_sm, 2)[2]))
        f, m = largest_size(entry, blocks_per_sm, largest_of(ARCHS[entry["arch"]]))
        wide = kernel.occupancy.max_potential_cluster_size(LaunchConfig(64, None, block, 1024), non_portable=True)
        assert (wide if isinstance(wide, int) else wide.most) == m


def test_cuda_core_cluster_calls_refuse_what_the_runtime_refuses():
    config = LaunchConfig(grid=64, cluster=4, block=128, shmem_size=0)
    with pytest.raises(occcalc.Error, match="config.cluster .*does not apply to sm_80"):
        occcalc.Kernel(gpu="A100 SXM4 80GB", regs=32).occupancy.max_active_clusters(config)
    with pytest.raises(occcalc.Error, match="names a family"):
        occcalc.Kernel(gpu="H100", regs=32).occupancy.max_active_clusters(config)
    with pytest.raises(occcalc.Error, match="sm_count is needed"):
        occcalc.Kernel(cc="9.0", regs=32).occupancy.max_active_clusters(config)
    with pytest.raises(occcalc.Error, match=r"config.cluster 17 blocks is outside \[1, 16\]"):
        occcalc.Kernel(gpu="H200", regs=32).occupancy.max_active_clusters(config._replace(cluster=17))
    with pytest.raises(occcalc.Error, match="config.cluster is None"):
        occcalc.Kernel(gpu="H200", regs=32).occupancy.max_active_clusters(config._replace(cluster=None))
    with pytest.raises(TypeError, match="config.block"):
        occcalc.Kernel(gpu="H200", regs=32).occupancy.max_active_clusters(config._replace(block="128"))
    with pytest.raises(TypeError, match="no 'cluster'"):
        occcalc.Kernel(gpu="H200", regs=32).occupancy.max_active_clusters(object())
    # Hostile values: each an occcalc.Error or a TypeError naming the config's field.
    occupancy = occcalc.Kernel(gpu="H200", regs=32).occupancy
    for bad, error, words in [(dict(cluster=2**70), occcalc.Error, "config.cluster"),
                              (dict(cluster=-3), occcalc.Error, "config.cluster -3 has a dimension below 1"),
                              (dict(cluster=(0, 1)), occcalc.Error, "config.cluster"),
                              (dict(cluster=True), TypeError, "config.cluster is a bool"),
                              (dict(cluster=4.0), TypeError, "config.cluster is a float"),
                              (dict(cluster=(2, 2, 2, 2)), TypeError, "config.cluster"),
                              (dict(block=2**40), occcalc.Error, "config.block 1099511627776 is outside"),
                              (dict(block=0), occcalc.Error, "config.block"),
                              (dict(shmem_size=-5), occcalc.Error, "config.shmem_size -5 is outside"),
                              (dict(shmem_size=2**63), occcalc.Error, "config.shmem_size"),
                              (dict(shmem_size="x"), TypeError, "config.shmem_size is a str")]:
        for call in (occupancy.max_active_clusters, occupancy.max_potential_cluster_size):
            with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
                call(config._replace(**bad))
    # What cuda.core takes as well: a list shape, and no dynamic shared memory.
    assert occupancy.max_active_clusters(config._replace(cluster=[2, 2], shmem_size=None)) == 248
