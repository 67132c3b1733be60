#!/usr/bin/env python3
"""Prune a Triton autotuning config list by occupancy.

Triton compiles each config before it benchmarks it; once compiled, a
kernel's registers and shared memory are known, and configs whose occupancy
is below a floor can be dropped before the (much longer) benchmark runs. The
hand formula of Triton's fused-softmax tutorial, NUM_REGS // (n_regs *
WARP_SIZE * num_warps), ignores register allocation granularity and
partitions; occcalc answers as cuda_occupancy.h does.

    compiled = {config: kernel.warmup(..., **config.all_kwargs()) for config in configs}
    kept = prune_by_occupancy(compiled, min_occupancy=0.5)

Run as a script, it prunes three configs shaped like Triton's compiled kernels.
"""
from types import SimpleNamespace

import occcalc


def prune_by_occupancy(compiled, min_occupancy=0.5, **launch):
    """The configs of `compiled` (config -> compiled kernel) whose occupancy is
    at least `min_occupancy` (0 to 1), best first. `launch` adds request keys
    (`gpu`, `carveout`)."""
    scored = [(occcalc.triton_occupancy(kernel, **launch).occupancy, config) for config, kernel in compiled.items()]
    return [config for occupancy, config in sorted(scored, key=lambda s: -s[0]) if occupancy >= min_occupancy]


def compiled_kernel(n_regs, num_warps, shared, arch=80):
    """An object shaped like Triton's CompiledKernel, for the demonstration."""
    target = SimpleNamespace(backend="cuda", arch=arch, warp_size=32)
    return SimpleNamespace(n_regs=n_regs, metadata=SimpleNamespace(num_warps=num_warps, shared=shared, target=target))


if __name__ == "__main__":
    compiled = {
        "BLOCK=64, num_warps=4": compiled_kernel(n_regs=96, num_warps=4, shared=16384),
        "BLOCK=128, num_warps=8": compiled_kernel(n_regs=168, num_warps=8, shared=65536),
        "BLOCK=32, num_warps=2": compiled_kernel(n_regs=40, num_warps=2, shared=4096),
    }
    for config in prune_by_occupancy(compiled, min_occupancy=0.25):
        print(config, f"{occcalc.triton_occupancy(compiled[config]).occupancy:.1%}")
