"""The cluster rule of docs/clusters.md, with the layouts of data/nvidia-cluster-layouts.json,
replayed against every cudaOccupancyMaxActiveClusters answer recorded on a GPU
(tests/fixtures/measured/*/clusters.jsonl.xz). The blocks per SM the rule starts from are
occcalc's own, from the kernels' recorded registers."""
import json
import lzma
import os

import pytest

import occcalc

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
LAYOUTS = json.load(open(os.path.join(ROOT, "data", "nvidia-cluster-layouts.json")))


def max_active_clusters(domain_sms, max_blocks_per_sm, blocks_per_sm, cluster_size):
    """docs/clusters.md: a cluster's blocks on distinct SMs of one domain, at most
    `max_blocks_per_sm` blocks an SM."""
    b = min(blocks_per_sm, max_blocks_per_sm)
    return sum(d * b // cluster_size for d in domain_sms if d >= cluster_size)


@pytest.mark.parametrize("measured, gpu", [("h200", "h200"), ("h100", "h100-sxm5-80gb")])
def test_every_recorded_answer_is_reproduced(measured, gpu):
    layout = next(entry for entry in LAYOUTS["layouts"] if gpu in entry["gpus"])
    assert sum(layout["domain_sms"]) == next(g["sm_count"] for g in occcalc.gpus() if g.get("id") == gpu)
    path = os.path.join(ROOT, "tests", "fixtures", "measured", measured, "clusters.jsonl.xz")
    rows = [json.loads(line) for line in lzma.open(path)]
    kernels = {r["kernel"]: r for r in rows if r["record"] == "kernel"}
    by_size = by_shape = potential = 0
    for q in (r for r in rows if r["record"] == "query"):
        blocks = occcalc.occupancy(cc="9.0", threads=q["threads"], regs=kernels[q["kernel"]]["regs"],
                                   dyn_smem=q["dyn_smem"]).blocks_per_sm
        assert blocks == q["blocks_per_sm"]
        answer = lambda size: max_active_clusters(layout["domain_sms"], layout["max_blocks_per_sm"], blocks, size)
        for size, clusters in enumerate(q["max_active_clusters"], 1):
            assert answer(size) == clusters, (q["kernel"], q["threads"], q["dyn_smem"], size)
            by_size += 1
        for shape, clusters in q["max_active_clusters_by_shape"].items():
            x, y, z = map(int, shape.split("x"))
            assert answer(x * y * z) == clusters, (q["kernel"], shape)
            by_shape += 1
        assert max([c for c in range(1, 17) if answer(c) > 0], default=0) == q["max_potential_cluster_size"]
        potential += 1
    assert (by_size, by_shape, potential) == (43008, 32256, 2688)


@pytest.mark.parametrize("measured", ["h200", "h100"])
def test_the_domains_are_where_clusters_ran(measured):
    # The union of SMs that shared a launched cluster: the domains' sizes, in some order.
    path = os.path.join(ROOT, "tests", "fixtures", "measured", measured, "clusters.jsonl.xz")
    groups = next(json.loads(line) for line in lzma.open(path) if b'"sm_groups"' in line)["groups"]
    assert sorted(map(len, groups)) == sorted(LAYOUTS["layouts"][0]["domain_sms"])
