"""occcalc's cluster answers (docs/clusters.md) held to every cudaOccupancyMaxActiveClusters and
cudaOccupancyMaxPotentialClusterSize answer recorded on a GPU (tests/fixtures/measured/*/clusters.jsonl.xz),
through the module as a user calls it: occupancy(gpu=..., cluster=...)."""
import json
import lzma
import os

import pytest

import occcalc

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
LAYOUTS = json.load(open(os.path.join(ROOT, "data", "nvidia-cluster-layouts.json")))


def recorded(measured):
    path = os.path.join(ROOT, "tests", "fixtures", "measured", measured, "clusters.jsonl.xz")
    return [json.loads(line) for line in lzma.open(path)]


def device(gpu, **request):
    (answer,) = occcalc.occupancy(gpu=gpu, **request).cluster["devices"]
    return answer


@pytest.mark.parametrize("measured, gpu", [("h200", "h200"), ("h100", "h100-sxm5-80gb")])
def test_every_recorded_answer_is_reproduced(measured, gpu):
    rows = recorded(measured)
    kernels = {r["kernel"]: r for r in rows if r["record"] == "kernel"}
    by_size = by_shape = potential = 0
    for q in (r for r in rows if r["record"] == "query"):
        launch = dict(threads=q["threads"], regs=kernels[q["kernel"]]["regs"], dyn_smem=q["dyn_smem"])
        assert occcalc.occupancy(gpu=gpu, **launch).blocks_per_sm == q["blocks_per_sm"]
        for size, clusters in enumerate(q["max_active_clusters"], 1):
            answer = device(gpu, cluster=size, **launch)
            assert answer["basis"] == "measured"
            assert answer["max_active_clusters"] == {"fewest": clusters, "most": clusters}, (q, size)
            by_size += 1
        for shape, clusters in q["max_active_clusters_by_shape"].items():
            answer = device(gpu, cluster=shape, **launch)
            assert answer["max_active_clusters"] == {"fewest": clusters, "most": clusters}, (q, shape)
            by_shape += 1
        largest = device(gpu, cluster=1, **launch)["largest_cluster_size"]
        assert largest == {"fewest": q["max_potential_cluster_size"], "most": q["max_potential_cluster_size"]}
        potential += 1
    assert (by_size, by_shape, potential) == (43008, 32256, 2688)


@pytest.mark.parametrize("measured, gpu", [("h200", "h200"), ("h100", "h100-sxm5-80gb")])
def test_the_published_gpc_counts_allow_every_recorded_answer(measured, gpu):
    # Answered from the whitepaper's 8 GPCs of up to 9 TPCs alone (what occcalc does for an
    # unmeasured GH100 product of 132 SMs, the H100 NVL), the range holds every recorded answer.
    rows = recorded(measured)
    kernels = {r["kernel"]: r for r in rows if r["record"] == "kernel"}
    checked = set()
    for q in (r for r in rows if r["record"] == "query"):
        if q["blocks_per_sm"] in checked:
            continue  # the answers depend on the blocks per SM alone: each once
        checked.add(q["blocks_per_sm"])
        launch = dict(threads=q["threads"], regs=kernels[q["kernel"]]["regs"], dyn_smem=q["dyn_smem"])
        for size, clusters in enumerate(q["max_active_clusters"], 1):
            answer = device("h100-nvl", cluster=size, **launch)
            assert answer["basis"] == "gpc_counts"
            assert answer["max_active_clusters"]["fewest"] <= clusters <= answer["max_active_clusters"]["most"]
    assert len(checked) >= 8


@pytest.mark.parametrize("measured", ["h200", "h100"])
def test_the_domains_are_where_clusters_ran(measured):
    # The union of SMs that shared a launched cluster: the domains' sizes, in some order.
    groups = next(r for r in recorded(measured) if r["record"] == "sm_groups")["groups"]
    layout = next(entry for entry in LAYOUTS["cluster_layouts"] if "domain_sms" in entry)
    assert sorted(map(len, groups)) == sorted(layout["domain_sms"])


def test_a_range_where_no_layout_is_measured():
    # H100 PCIe: 57 TPCs in 7 or 8 GPCs of up to 9 (NVIDIA's whitepaper), one block per SM.
    # Clusters of 16 need a GPC of 8 TPCs or more: at most 7 of them (7 x 8 + 1 TPCs), and past
    # the portable size of 8 a cluster may not launch at all where none was measured.
    answer = device("H100 PCIe", threads=1024, regs=64, cluster=16)
    assert answer["basis"] == "gpc_counts"
    assert answer["max_active_clusters"] == {"fewest": 0, "most": 7}
    # Clusters of 8: one per GPC of 4 to 7 TPCs, two from 8; the fewest when 7 GPCs of 7 TPCs hold
    # one each and the eighth (8 TPCs) is split into pairs, the most with 7 GPCs of 8 TPCs.
    portable = device("H100 PCIe", threads=1024, regs=64, cluster=8)
    assert portable["max_active_clusters"] == {"fewest": 7, "most": 14}
    # No layout at all: from none to every SM's blocks.
    b200 = device("B200", threads=1024, regs=64, cluster=4)
    assert (b200["basis"], b200["max_active_clusters"]) == ("sm_count", {"fewest": 0, "most": 37})


def test_cluster_errors_name_the_field():
    with pytest.raises(occcalc.Error, match="cluster 2 does not apply to sm_80"):
        occcalc.occupancy(cc="8.0", threads=128, regs=32, cluster=2)
    with pytest.raises(occcalc.Error, match=r"cluster 17 is outside \[1, 16\] blocks for sm_90"):
        occcalc.occupancy(cc="9.0", threads=128, regs=32, cluster=17)
    with pytest.raises(occcalc.Error, match="is not a cluster"):
        occcalc.occupancy(cc="9.0", threads=128, regs=32, cluster="2x2x2x1")
    assert occcalc.occupancy(cc="9.0", threads=128, regs=32).cluster is None
    assert occcalc.occupancy(gfx="gfx90a", threads=128, vgprs=32).cluster is None


def test_the_cluster_sweep_is_the_query_at_each_size():
    launch = dict(threads=384, regs=40, dyn_smem=20000)
    for gpu in ("H200", "H100 PCIe", "RTX 5090"):
        doc = occcalc.sweep("cluster", gpu=gpu, **launch)
        assert doc["vary"] == "cluster" and doc["gpu"] == occcalc.occupancy(gpu=gpu, **launch).gpu
        for point in doc["points"]:
            answer = device(gpu, cluster=point["cluster_size"], **launch)
            for key in ("max_active_clusters", "blocks_in_clusters", "cluster_occupancy"):
                assert point[key] == answer[key], (gpu, point["cluster_size"], key)
        # The best size: the largest whose guaranteed cluster occupancy is the best guaranteed.
        sure = [p for p in doc["points"] if p["max_active_clusters"]["fewest"] > 0]
        best = max(p["cluster_occupancy"]["fewest"] for p in sure)
        assert doc["best_cluster_size"] == max(p["cluster_size"] for p in sure
                                               if p["cluster_occupancy"]["fewest"] == best)
    with pytest.raises(occcalc.Error, match="names several GPUs"):
        occcalc.sweep("cluster", gpu="H100", **launch)
    with pytest.raises(occcalc.Error, match="cluster does not apply to sm_80"):
        occcalc.sweep("cluster", gpu="A100 SXM4 80GB", **launch)


def test_suggest_names_the_best_cluster_size_of_the_sweep():
    launch = dict(threads=256, regs=64)
    for gpu in ("H200", "H100 NVL"):
        advice = occcalc.suggest(gpu=gpu, cluster=8, **launch)["cluster"]
        doc = occcalc.sweep("cluster", gpu=gpu, **launch)
        assert advice["best_cluster_size"] == doc["best_cluster_size"]
        assert advice["now"] == doc["points"][7]
        assert advice["best"] == doc["points"][doc["best_cluster_size"] - 1]
    # On the measured H200, 4 blocks per SM: clusters of 2 keep every block (264 x 2 = 528 = 132 x 4);
    # 8 keeps 496 (62 clusters).
    h200 = occcalc.suggest(gpu="H200", cluster=8, **launch)["cluster"]
    assert (h200["best_cluster_size"], h200["now"]["max_active_clusters"]["most"]) == (2, 62)
    assert occcalc.suggest(gpu="H200", **launch)["cluster"] is None
    with pytest.raises(occcalc.Error, match="cluster needs threads"):
        occcalc.suggest(gpu="H200", regs=64, cluster=8)
