"""Sorts on the TPU floor (a bitonic network on vectors, lowering/tpu/emit_sort.rs),
bit-exact against XLA:CPU: JAX programs lowered to StableHLO, compiled with
`floors run --target tpu` (Mosaic kernels run by the interpreter) on .npy inputs.
Ties (the network sorts stably), NaNs of both signs, ±0.0, ±inf, lengths that are
not powers of two (padding), every dimension of a 3-D array, a grid over rows,
several operands sorted by two keys, descending sorts and argsorts; top_k as a
kept sort (every width, unsigned included) and its rows.
"""

import subprocess
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

# The same inputs as the CPU floor's sort tests: ties, NaNs of both signs, ±0, ±inf.
from test_sort_select import _bits, _floats, _int_extremes, _top_k_input

REPO = Path(__file__).resolve().parents[2]


def _floors_cli():
    for profile in ("debug", "release"):
        cand = REPO / "target" / profile / "floors"
        if cand.exists():
            return cand
    pytest.skip("the floors CLI is not built (cargo build)")


def _run_tpu(tmp_path, f, *args):
    (tmp_path / "p.mlir").write_text(jax.jit(f).lower(*args).as_text())
    cmd = [str(_floors_cli()), "run", "--target", "tpu", str(tmp_path / "p.mlir"), "--output-dir", str(tmp_path / "o")]
    for i, a in enumerate(args):
        a = np.asarray(a)
        np.save(tmp_path / f"in{i}.npy", a.view(np.uint16) if a.dtype == jnp.bfloat16 else a)
        cmd += ["--input", str(tmp_path / f"in{i}.npy")]
    return subprocess.run(cmd, capture_output=True, text=True)


def _outputs(tmp_path, f, *args):
    """Runs `f` on the TPU floor; (got, want) per output, got read as want's
    dtype where it travels as bits (bf16 as uint16)."""
    out = _run_tpu(tmp_path, f, *args)
    assert out.returncode == 0, out.stderr
    want = [np.asarray(x) for x in jax.tree.leaves(jax.jit(f)(*args))]
    got = [np.load(tmp_path / "o" / f"out{i}.npy") for i in range(len(want))]
    return [(g.view(jnp.bfloat16) if w.dtype == jnp.bfloat16 else g, w) for g, w in zip(got, want)]


def _same(tmp_path, f, *args):
    for i, (g, w) in enumerate(_outputs(tmp_path, f, *args)):
        assert g.shape == w.shape
        np.testing.assert_array_equal(_bits(g), _bits(w), err_msg=f"out{i}")


@pytest.mark.parametrize("n", [2, 3, 17, 128, 1000])
@pytest.mark.parametrize("dtype", [np.float32, jnp.bfloat16, np.float16])
def test_sort_and_argsort_floats(tmp_path, n, dtype):
    x = _floats(n, dtype, seed=n)
    _same(tmp_path, lambda x: (jnp.sort(x), jnp.argsort(x)), x)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.bool_])
def test_sort_integers_at_their_extremes(tmp_path, dtype):
    _same(tmp_path, lambda x: (jnp.sort(x), jnp.argsort(x), jnp.argsort(x, descending=True)), _int_extremes(dtype))


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_sort_every_dimension(tmp_path, axis):
    x = _floats(5 * 33 * 7).reshape(5, 33, 7)
    _same(tmp_path, lambda x: (jnp.sort(x, axis=axis), jnp.argsort(x, axis=axis)), x)


def test_rows_sorted_on_a_grid(tmp_path):
    # 64 rows: the grid walks blocks of rows, each row sorted whole.
    _same(tmp_path, lambda x: jnp.sort(x, axis=-1), _floats(64 * 256).reshape(64, 256))


def test_several_operands_two_keys_and_descending(tmp_path):
    r = np.random.default_rng(2)
    a = r.integers(0, 3, 257).astype(np.int32)
    b = _floats(257)
    c = r.normal(size=257).astype(np.float32)
    _same(tmp_path, lambda a, b, c: (lax.sort((a, b, c, jnp.arange(257)), num_keys=2), jnp.sort(b, descending=True)), a, b, c)


def test_unsigned_sorts_are_refused_by_name(tmp_path):
    out = _run_tpu(tmp_path, jnp.sort, np.arange(40, dtype=np.uint8)[::-1].copy())
    assert out.returncode != 0
    assert "a sort of unsigned integers inside a fusion cannot be kept" in out.stderr and "p.mlir:" in out.stderr, out.stderr


@pytest.mark.parametrize("k", [1, 16, 1000])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, jnp.bfloat16, np.int8, np.int32, np.uint8, np.uint32])
def test_top_k(tmp_path, k, dtype):
    # chlo.top_k as the first k of a kept descending sort (NaN first, ties
    # to the lower index); unsigned keys sorted with their sign bit flipped.
    _same(tmp_path, lambda x: lax.top_k(x, k), _top_k_input(k, dtype))


def test_top_k_rows(tmp_path):
    _same(tmp_path, lambda x: lax.top_k(x, 9), _floats(7 * 129).reshape(7, 129))


def test_descending_argsort_and_long_reversals(tmp_path):
    # Reversals longer than 512 take the butterfly (log₂ steps of rolls),
    # which also lets a descending argsort of 1000 run.
    r = np.random.default_rng(4)
    x = _floats(1000, seed=4)
    m = r.normal(size=(3, 1025)).astype(np.float32)
    _same(tmp_path, lambda x, m: (jnp.argsort(x, descending=True), jnp.flip(m, 1), jnp.flip(m.T, 0)), x, m)
