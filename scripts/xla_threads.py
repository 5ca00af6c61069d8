"""XLA:CPU's thread count, fixed before jax is imported (shared by
scripts/bench.py and scripts/scale_bench.py).

XLA:CPU's intra-op Eigen pool uses every core the process may run on, so
fewer threads than cores are had by narrowing the affinity (floors, a child
process, inherits the same cores); one thread also turns Eigen's
multi-threading off.
"""

import os
import sys


def limit_threads(threads: int, who: str) -> list:
    """Narrows XLA:CPU to `threads` cores; returns every core the process had."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    cpus = sorted(os.sched_getaffinity(0))
    if threads < 1:
        sys.exit(f"{who}: --threads must be >= 1")
    if threads < len(cpus):
        os.sched_setaffinity(0, cpus[:threads])
    if threads == 1:
        os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen=false").strip()
    return cpus
