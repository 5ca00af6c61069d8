"""What JAX lowers only for the platforms it knows, on floors: `jnp.linalg`
(JAX's CPU rules, jaxlib's LAPACK handlers through floors' XLA FFI, the
column-major layouts they ask for), host callbacks (`jax.debug.print`,
`pure_callback`, `io_callback`, ordered or not, in loops, raising), and
`jax.ffi.register_ffi_target(..., platform="floors")`.
"""

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
import pytest
from jax import lax
from jax.experimental import io_callback


def _on(dev, f, *args):
    return [np.asarray(x) for x in jax.tree.leaves(jax.jit(f)(*jax.device_put(args, dev)))]


def _close(f, args, devices, rtol):
    floors, cpu = devices
    got, want = _on(floors, f, *args), _on(cpu, f, *args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        tol = min(rtol, 1e-7) if g.dtype == np.float64 else rtol
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def _matrices(dtype, batch=()):
    r = np.random.default_rng(7)
    a = r.standard_normal((*batch, 6, 6)).astype(dtype)
    spd = a @ np.swapaxes(a, -1, -2) + 6 * np.eye(6, dtype=dtype)
    b = r.standard_normal((*batch, 6, 3)).astype(dtype)
    tall = r.standard_normal((*batch, 7, 4)).astype(dtype)
    return a, spd, b, tall


LINALG = {
    "cholesky": lambda a, spd, b, tall: jnp.linalg.cholesky(spd),
    "eigh": lambda a, spd, b, tall: jnp.linalg.eigh(spd),
    "eigvalsh": lambda a, spd, b, tall: jnp.linalg.eigvalsh(spd),
    "qr": lambda a, spd, b, tall: jnp.linalg.qr(tall),
    "qr_complete": lambda a, spd, b, tall: jnp.linalg.qr(tall, mode="complete"),
    "svd": lambda a, spd, b, tall: jnp.linalg.svd(tall, full_matrices=False),
    "svdvals": lambda a, spd, b, tall: jnp.linalg.svd(a, compute_uv=False),
    "solve": lambda a, spd, b, tall: jnp.linalg.solve(a, b),
    "inv": lambda a, spd, b, tall: jnp.linalg.inv(a),
    "slogdet": lambda a, spd, b, tall: jnp.linalg.slogdet(a),
    "det": lambda a, spd, b, tall: jnp.linalg.det(a),
    "lu": lambda a, spd, b, tall: jsl.lu(a),
    "lu_factor": lambda a, spd, b, tall: jsl.lu_factor(a),
    "cho_solve": lambda a, spd, b, tall: jsl.cho_solve(jsl.cho_factor(spd), b),
    "solve_triangular": lambda a, spd, b, tall: jsl.solve_triangular(jnp.tril(spd), b, lower=True),
    "lstsq": lambda a, spd, b, tall: jnp.linalg.lstsq(tall, tall[..., :3])[0],
    "pinv": lambda a, spd, b, tall: jnp.linalg.pinv(tall),
    "matrix_rank": lambda a, spd, b, tall: jnp.linalg.matrix_rank(a),
    "norm2": lambda a, spd, b, tall: jnp.linalg.norm(a, ord=2),
    "expm": lambda a, spd, b, tall: jsl.expm(a / 4),
}


@pytest.mark.parametrize("name", sorted(LINALG))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_linalg_matches_xla_cpu(devices, name, dtype):
    args = _matrices(dtype)
    _close(LINALG[name], args, devices, rtol=2e-3)


@pytest.mark.parametrize("name", ["cholesky", "eigh", "qr", "svd", "solve", "slogdet", "lu_factor"])
def test_batched_linalg_matches_xla_cpu(devices, name):
    _close(LINALG[name], _matrices(np.float32, batch=(3, 2)), devices, rtol=2e-3)


def test_linalg_under_grad_and_vmap(devices):
    def loss(a, b):
        x = jnp.linalg.solve(a @ a.T + 3 * jnp.eye(a.shape[0]), b)
        return jnp.sum(x ** 2) + jnp.linalg.slogdet(a @ a.T + jnp.eye(a.shape[0]))[1]

    a, _, b, _ = _matrices(np.float32)
    _close(jax.grad(loss, argnums=(0, 1)), (a, b), devices, rtol=2e-3)
    _close(jax.vmap(lambda m: jnp.linalg.eigvalsh(m @ m.T)), (np.stack([a, 2 * a]),), devices, rtol=2e-3)


def test_debug_print_prints_from_inside_the_program(devices, capfd):
    floors, _ = devices

    @jax.jit
    def f(x):
        jax.debug.print("sum={s} first={f}", s=x.sum(), f=x[0])
        return x * 2

    out = f(jax.device_put(np.arange(4, dtype=np.float32), floors))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [0, 2, 4, 6])
    assert "sum=6.0 first=0.0" in capfd.readouterr().out


def test_pure_and_io_callbacks_feed_results_back(devices):
    def f(x):
        y = jax.pure_callback(lambda a: np.sin(a), jax.ShapeDtypeStruct(x.shape, x.dtype), x)
        z = io_callback(lambda a: (a * 2).astype(a.dtype), jax.ShapeDtypeStruct(x.shape, x.dtype), y)
        i = jax.pure_callback(lambda a: np.argsort(a).astype(np.int32), jax.ShapeDtypeStruct(x.shape, jnp.int32), x)
        return z + 1, i

    x = np.array([3.0, -1.0, 2.0, 0.5], np.float32)
    _close(f, (x,), devices, rtol=1e-6)


def test_ordered_callbacks_run_in_program_order_in_loops(devices):
    floors, _ = devices
    seen = []

    def body(i, c):
        io_callback(lambda v: seen.append(int(v)), None, i, ordered=True)
        jax.debug.print("step {i}", i=i, ordered=True)
        return c + i

    out = jax.jit(lambda x: lax.fori_loop(0, 5, body, x))(jax.device_put(np.float32(0), floors))
    jax.effects_barrier()
    assert float(out) == 10.0
    assert seen == [0, 1, 2, 3, 4]
    # The runtime token threads through a second call.
    out = jax.jit(lambda x: lax.fori_loop(0, 2, body, x))(jax.device_put(np.float32(1), floors))
    jax.effects_barrier()
    assert float(out) == 2.0 and seen == [0, 1, 2, 3, 4, 0, 1]


def test_vmapped_pure_callback(devices):
    f = jax.vmap(lambda x: jax.pure_callback(lambda a: np.cumsum(a), jax.ShapeDtypeStruct(x.shape, x.dtype), x,
                                             vmap_method="sequential"))
    _close(f, (np.arange(12, dtype=np.float32).reshape(3, 4),), devices, rtol=0)


def test_a_raising_callback_is_a_python_exception_in_the_caller(devices):
    floors, _ = devices

    def bad(a):
        raise ValueError("boom from the callback")

    f = jax.jit(lambda x: jax.pure_callback(bad, jax.ShapeDtypeStruct(x.shape, x.dtype), x) + 1)
    with pytest.raises(Exception, match="floors_python_callback.*boom from the callback"):
        np.asarray(f(jax.device_put(np.ones(3, np.float32), floors)))
    wrong = jax.jit(lambda x: jax.pure_callback(lambda a: a[:2], jax.ShapeDtypeStruct(x.shape, x.dtype), x))
    with pytest.raises(Exception, match="Incorrect output shape"):
        np.asarray(wrong(jax.device_put(np.ones(3, np.float32), floors)))
    # The process goes on.
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda x: x + 1)(jax.device_put(np.ones(2, np.float32), floors))), [2, 2])


def test_register_ffi_target_for_floors(devices):
    """A capsule registered for platform "floors" (here jaxlib's LAPACK
    Cholesky under a name of our own) is what `jax.ffi.ffi_call` reaches."""
    floors, cpu = devices
    from jaxlib import lapack

    capsule = dict((n, c) for n, c, _ in lapack.registrations()["cpu"])["lapack_spotrf_ffi"]
    jax.ffi.register_ffi_target("floors_test_potrf", capsule, platform="floors")
    jax.ffi.register_ffi_target("floors_test_potrf", capsule, platform="cpu")

    def chol(a):
        call = jax.ffi.ffi_call(
            "floors_test_potrf",
            (jax.ShapeDtypeStruct(a.shape, a.dtype), jax.ShapeDtypeStruct((), jnp.int32)),
            input_layouts=[(0, 1)], output_layouts=[(0, 1), ()], input_output_aliases={0: 0})
        return call(a, uplo=np.uint8(ord("L")))

    _, spd, _, _ = _matrices(np.float32)
    _close(chol, (spd,), devices, rtol=1e-6)
    with pytest.raises(Exception, match="api_version=0"):
        jax.ffi.register_ffi_target("floors_test_legacy", capsule, platform="floors", api_version=0)


def test_dce_sink_is_a_builtin(devices):
    """`lax.dce_sink(x, prevent_mlir_dce=True)` (a side-effecting custom call
    jaxlib handles with a no-op on CPU) runs on floors too."""
    f = jax.jit(lambda x: (lax.dce_sink(x * 2, prevent_mlir_dce=True), x + 1)[1])
    _close(f, (np.arange(3, dtype=np.float32),), devices, rtol=0)
