"""Sharded programs on 4 floors devices (`FLOORS_DEVICE_COUNT=4`, set by
conftest.py) against the same programs on 4 XLA:CPU host devices: the
per-device program floors partitions out of `shard_map`
(`floors-hlo-spmd-partition`), its collectives run as the runtime's
collective thunks between the device threads. Values must match to the
last bit where the reduction order is fixed (collectives fold in group
order, as XLA:CPU's), and the outputs carry the same shardings."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def _mesh(platform, shape, names):
    devs = jax.devices(platform)
    if len(devs) < int(np.prod(shape)):
        pytest.skip(f"{platform} has {len(devs)} devices")
    return Mesh(np.array(devs[: int(np.prod(shape))]).reshape(shape), names)


def _run(platform, shape, names, build, args, specs):
    mesh = _mesh(platform, shape, names)
    f = jax.jit(build(mesh))
    placed = [jax.device_put(a, NamedSharding(mesh, s)) for a, s in zip(args, specs)]
    outs = jax.tree.leaves(f(*placed))
    return [(np.asarray(o), o.sharding.spec) for o in outs]


def _same(shape, names, build, args, specs, exact=True):
    got = _run("floors", shape, names, build, args, specs)
    want = _run("cpu", shape, names, build, args, specs)
    assert len(got) == len(want)
    for (g, gs), (w, ws) in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        assert gs == ws, f"output sharding {gs} != {ws}"
        if exact:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6)


RNG = np.random.default_rng(7)


def test_ring_ppermute_and_psum():
    def build(mesh):
        def f(a, b):
            c = a * 2 + b
            ring = lax.ppermute(c, "x", [(i, (i + 1) % 4) for i in range(4)])
            return lax.psum(c.sum(0, keepdims=True), "x"), ring
        return jax.shard_map(f, mesh=mesh, in_specs=(P("x"), P("x")), out_specs=(P(), P("x")))
    a = np.arange(32, dtype=np.float32).reshape(8, 4)
    _same((4,), ("x",), build, [a, np.ones_like(a)], [P("x"), P("x")])


def test_all_to_all_transposes_the_blocks():
    def build(mesh):
        return jax.shard_map(lambda a: lax.all_to_all(a, "x", 0, 1, tiled=True), mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    a = np.arange(128, dtype=np.int32).reshape(16, 8)
    _same((4,), ("x",), build, [a], [P("x")])


def test_zero_style_psum_scatter_then_all_gather():
    def build(mesh):
        def f(g):
            s = lax.psum_scatter(g, "x", scatter_dimension=0, tiled=True)
            return lax.all_gather(s * 0.5, "x", axis=0, tiled=True)
        return jax.shard_map(f, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)
    _same((4,), ("x",), build, [RNG.normal(size=(8, 6)).astype(np.float32)], [P()])


def test_psum_over_one_axis_of_a_2x2_mesh():
    def build(mesh):
        return jax.shard_map(lambda a: (lax.psum(a, "y"), lax.pmax(a, "x")), mesh=mesh, in_specs=P("x", "y"), out_specs=(P("x", None), P(None, "y")))
    _same((2, 2), ("x", "y"), build, [RNG.normal(size=(8, 8)).astype(np.float32)], [P("x", "y")])


def test_halo_exchange_stencil():
    def build(mesh):
        def f(u):
            left = lax.ppermute(u[-1:], "x", [(i, (i + 1) % 4) for i in range(4)])
            right = lax.ppermute(u[:1], "x", [((i + 1) % 4, i) for i in range(4)])
            ext = jnp.concatenate([left, u, right])
            return 0.25 * ext[:-2] + 0.5 * ext[1:-1] + 0.25 * ext[2:]
        return jax.shard_map(f, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    _same((4,), ("x",), build, [np.sin(np.arange(64, dtype=np.float32))], [P("x")])


def test_data_parallel_sgd_with_pmean():
    def loss(w, x, y):
        return jnp.mean((x @ w - y) ** 2)

    def build(mesh):
        def step(w, x, y):
            for _ in range(3):
                g = lax.pmean(jax.grad(loss)(w, x, y), "x")
                w = w - 0.1 * g
            return w, lax.pmean(loss(w, x, y), "x")
        return jax.shard_map(step, mesh=mesh, in_specs=(P(), P("x"), P("x")), out_specs=(P(), P()))
    w = RNG.normal(size=(5, 3)).astype(np.float32)
    x = RNG.normal(size=(16, 5)).astype(np.float32)
    y = RNG.normal(size=(16, 3)).astype(np.float32)
    _same((4,), ("x",), build, [w, x, y], [P(), P("x"), P("x")], exact=False)


def test_axis_index_and_elementwise_after_the_shard_map():
    def build(mesh):
        inner = jax.shard_map(lambda a: a + lax.axis_index("x").astype(jnp.float32), mesh=mesh, in_specs=P("x"), out_specs=P("x"))
        return lambda a: inner(a) * 3.0 + 1.0
    _same((4,), ("x",), build, [np.ones((8, 2), np.float32)], [P("x")])


def test_collectives_in_a_loop_and_integer_and_bool_reductions():
    def build(mesh):
        def f(a, m):
            c = lax.fori_loop(0, 3, lambda i, c: lax.psum(c, "x") // 2 + a, a)
            return c, lax.pmax(a, "x"), lax.pmin(a, "x"), jnp.logical_and(m, lax.psum(m.astype(jnp.int32), "x") > 1)
        return jax.shard_map(f, mesh=mesh, in_specs=(P("x"), P("x")), out_specs=(P("x"), P(), P(), P("x")), check_vma=False)
    a = RNG.integers(-50, 50, size=(8, 3)).astype(np.int32)
    m = RNG.integers(0, 2, size=(8, 3)).astype(bool)
    _same((4,), ("x",), build, [a, m], [P("x"), P("x")])


def _close(shape, names, build, args, specs):
    _same(shape, names, build, args, specs, exact=False)


def test_data_parallel_jit_with_named_shardings():
    """No shard_map: a training step jitted with a batch-sharded input and a
    replicated weight (the dots, the mean loss and the gradient's
    contraction over the batch take XLA's data-parallel rules)."""
    def loss(w, x, y):
        return jnp.mean((jnp.tanh(x @ w) - y) ** 2)

    def build(mesh):
        rep, bat = NamedSharding(mesh, P()), NamedSharding(mesh, P("x"))

        def step(w, x, y):
            l, g = jax.value_and_grad(loss)(w, x, y)
            return w - 0.1 * g, l, x.max(1), x.sum(0)
        return jax.jit(step, in_shardings=(rep, bat, bat), out_shardings=(rep, rep, bat, rep))
    w = RNG.normal(size=(5, 3)).astype(np.float32)
    x = RNG.normal(size=(16, 5)).astype(np.float32)
    y = RNG.normal(size=(16, 3)).astype(np.float32)
    _close((4,), ("x",), build, [w, x, y], [P(), P("x"), P("x")])


def test_megatron_mlp_on_a_2x2_mesh():
    """Batch on one axis, the hidden dimension on the other: column- then
    row-sharded weights, the second dot's partial sums all-reduced."""
    def build(mesh):
        s = lambda *p: NamedSharding(mesh, P(*p))  # noqa: E731
        return jax.jit(lambda x, w1, w2: jax.nn.relu(x @ w1) @ w2, in_shardings=(s("b", None), s(None, "m"), s("m", None)))
    x = RNG.normal(size=(8, 6)).astype(np.float32)
    w1 = RNG.normal(size=(6, 8)).astype(np.float32)
    w2 = RNG.normal(size=(8, 6)).astype(np.float32)
    _close((2, 2), ("b", "m"), build, [x, w1, w2], [P("b", None), P(None, "m"), P("m", None)])


def test_data_parallel_adam_with_softmax_cross_entropy():
    """An optax Adam step of an MLP with biases and softmax cross-entropy on
    one-hot labels, batch-sharded, three steps: bias broadcasts, one_hot's
    iota, log-softmax's reductions and reshapes over the split batch, and
    replicated values met by split ones (sliced per device)."""
    import optax

    rng = np.random.default_rng(2)
    params = {
        "w1": (rng.normal(size=(6, 16)) * 0.3).astype(np.float32),
        "b1": np.zeros(16, np.float32),
        "w2": (rng.normal(size=(16, 10)) * 0.3).astype(np.float32),
        "b2": np.zeros(10, np.float32),
    }
    x = rng.normal(size=(32, 6)).astype(np.float32)
    labels = rng.integers(0, 10, size=32).astype(np.int32)
    opt = optax.adam(1e-2)

    def loss(p, x, l):
        logits = jax.nn.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]
        return optax.softmax_cross_entropy(logits, jax.nn.one_hot(l, 10)).mean()

    def step(p, s, x, l):
        v, g = jax.value_and_grad(loss)(p, x, l)
        u, s = opt.update(g, s, p)
        return optax.apply_updates(p, u), s, v

    def run(platform):
        mesh = _mesh(platform, (4,), ("x",))
        rep, bat = NamedSharding(mesh, P()), NamedSharding(mesh, P("x"))
        f = jax.jit(step, in_shardings=(rep, rep, bat, bat), out_shardings=(rep, rep, rep))
        p, s = params, opt.init(params)
        for _ in range(3):
            p, s, v = f(p, s, x, labels)
        return [np.asarray(a) for a in jax.tree.leaves(p)] + [np.asarray(v)]

    for got, want in zip(run("floors"), run("cpu")):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_loops_over_sharded_values():
    """A data-parallel training loop (fori_loop; the gradient's all-reduce
    inside the body) and a loop carrying a row-sharded value."""
    def loss(w, x, y):
        return jnp.mean((x @ w - y) ** 2)

    def build(mesh):
        rep, bat = NamedSharding(mesh, P()), NamedSharding(mesh, P("x"))

        def train(w, x, y):
            w = lax.fori_loop(0, 5, lambda i, w: w - 0.05 * jax.grad(loss)(w, x, y), w)
            return w, lax.fori_loop(0, 3, lambda i, c: jnp.tanh(c) * 1.5, x)
        return jax.jit(train, in_shardings=(rep, bat, bat))
    w = RNG.normal(size=(5, 3)).astype(np.float32)
    x = RNG.normal(size=(16, 5)).astype(np.float32)
    y = RNG.normal(size=(16, 3)).astype(np.float32)
    _close((4,), ("x",), build, [w, x, y], [P(), P("x"), P("x")])


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "bool"])
def test_whole_array_reductions_of_a_sharded_array(dtype):
    """max, min, sum, all, any, prod over the sharded dimension: partial per
    device (from the reduction's identity), then all-reduced."""
    rng = np.random.default_rng(5)
    x = rng.integers(0, 2, size=(8, 3)).astype(bool) if dtype == "bool" else (rng.normal(size=(8, 3)) * 50).astype(dtype)

    def build(mesh):
        return jax.jit(lambda a: (a.max(), a.min(), a.sum(), jnp.all(a), jnp.any(a), jnp.prod(a[:, :1])))
    _close((4,), ("x",), build, [x], [P("x")])


ROW_OPS = {
    "slice": lambda a: a[:, 1:4] * 2,
    "pad": lambda a: jnp.pad(a, ((0, 0), (1, 2))),
    "concatenate": lambda a: jnp.concatenate([a, jnp.ones((8, 2), a.dtype), a[:, :1]], axis=1),
    "reverse": lambda a: a[:, ::-1],
    "sort": lambda a: jnp.sort(a, axis=1),
    "cumsum": lambda a: jnp.cumsum(a, axis=1),
    "argmax": lambda a: jnp.argmax(a, axis=1),
    "layernorm": lambda a: (a - a.mean(1, keepdims=True)) / jnp.sqrt(a.var(1, keepdims=True) + 1e-5),
    "sum": lambda a: a.sum(),
}


@pytest.mark.parametrize("name", sorted(ROW_OPS))
def test_ops_along_the_unsharded_dimension_of_row_sharded_arrays(name):
    """jit of one op on a row-sharded array (as eager ops on sharded arrays
    run): each device works on its rows."""
    x = np.random.default_rng(3).normal(size=(8, 6)).astype(np.float32)

    def build(mesh):
        return jax.jit(ROW_OPS[name])
    _close((4,), ("x",), build, [x], [P("x")])


def test_automatic_partitioning_is_refused_by_name():
    mesh = _mesh("floors", (4,), ("x",))
    # A gather of a split operand: no data-parallel rule applies.
    f = jax.jit(lambda a, i: a[i], in_shardings=(NamedSharding(mesh, P("x")), NamedSharding(mesh, P())))
    a = jax.device_put(np.ones((8, 4), np.float32), NamedSharding(mesh, P("x")))
    i = jax.device_put(np.array([3, 1, 6], np.int32), NamedSharding(mesh, P()))
    with pytest.raises(Exception, match="needs automatic SPMD partitioning"):
        f(a, i)
