"""JAX programs over two devices, written once and run three ways by
scripts/mpi_check.sh (#36): as a 2-process job (`mpirun -np 2`, one floors
device per process, `jax.distributed.initialize()` taking Open MPI's ranks),
in one process with two floors devices (`FLOORS_DEVICE_COUNT=2`), and on
XLA:CPU with two host devices. Each process writes the shards it holds,
named by program and device id, to `--out DIR`; the driver compares the
files of the three runs byte for byte.

Programs: a `shard_map` psum (an all-reduce) and all_gather, a ring
ppermute, a psum_scatter, and a data-parallel SGD step under plain `jit`
with a batch-sharded input (floors' partitioner: per-device gradients, then
an all-reduce).
"""

import argparse
import os
import sys

import numpy as np

# The floors plugin package (python/jax_plugins/floors) of this checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

if "OMPI_COMM_WORLD_SIZE" in os.environ:
    import jax

    # Under mpirun: the coordinator address, process count and id come from
    # Open MPI's environment.
    jax.distributed.initialize()
else:
    import jax

import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    out = ap.parse_args().out
    os.makedirs(out, exist_ok=True)
    devices = jax.devices()
    assert len(devices) == 2, f"expected 2 devices, got {devices}"
    mesh = Mesh(np.array(devices), ("x",))

    def put(value, spec):
        sharding = NamedSharding(mesh, spec)
        return jax.make_array_from_callback(value.shape, sharding, lambda idx: value[idx])

    a = (np.arange(32, dtype=np.float32).reshape(8, 4) * 0.37) - 3.0
    w = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3)
    ys = np.cos(np.arange(24, dtype=np.float32)).reshape(8, 3)

    def smap(f, in_specs, out_specs):
        return jax.jit(jax.shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=False))

    ring = [(i, (i + 1) % 2) for i in range(2)]
    programs = {
        "psum": (smap(lambda x: jax.lax.psum(x * x, "x"), P("x"), P()), [(a, P("x"))]),
        "all_gather": (smap(lambda x: jax.lax.all_gather(x + 1, "x", tiled=True), P("x"), P()), [(a, P("x"))]),
        "ppermute": (smap(lambda x: jax.lax.ppermute(x, "x", ring), P("x"), P("x")), [(a, P("x"))]),
        "psum_scatter": (smap(lambda x: jax.lax.psum_scatter(x, "x", tiled=True), P(), P("x")), [(a, P())]),
    }

    def sgd(w, x, y):
        loss = lambda w: jnp.mean((jnp.tanh(x @ w) - y) ** 2)
        return w - 0.1 * jax.grad(loss)(w)

    programs["sgd_step"] = (jax.jit(sgd, out_shardings=NamedSharding(mesh, P())), [(w, P()), (a, P("x")), (ys, P("x"))])

    # The driver's failure test: this process dies before its collectives
    # while the others wait in them; the job must end, not hang.
    if os.environ.get("FLOORS_TEST_DIE_PROCESS") == str(jax.process_index()):
        sys.exit(f"process {jax.process_index()}: dying before the collectives (FLOORS_TEST_DIE_PROCESS)")
    for name, (f, args) in programs.items():
        result = f(*[put(v, spec) for v, spec in args])
        for shard in result.addressable_shards:
            np.save(os.path.join(out, f"{name}_dev{shard.device.id}.npy"), np.asarray(shard.data))
    print(f"process {jax.process_index()} of {jax.process_count()}: {len(programs)} programs on {jax.default_backend()}")


if __name__ == "__main__":
    main()
