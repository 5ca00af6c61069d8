"""Real Pallas TPU kernels on floors' TPU floor against Pallas' own TPU
interpret mode.

Each kernel of `pallas_kernels.py` is lowered for the TPU platform (the
module with the `tpu_custom_call` Pallas hands libtpu), run by `floors run
--target tpu` (the call's Mosaic body in floors' interpreter, with the
call's `output_operand_aliases` and `scoped_memory_configs`), and compared
with `pallas_call(..., interpret=pltpu.InterpretParams())` on the CPU.

Needs the floors CLI (`FLOORS_BIN`, or target/{debug,release}/floors);
skips without it, except under CI=1.
"""

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import pallas_kernels as pk

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def floors_bin():
    cand = [Path(os.environ["FLOORS_BIN"])] if os.environ.get("FLOORS_BIN") else []
    cand += [REPO / "target" / p / "floors" for p in ("debug", "release")]
    for c in cand:
        if c.exists():
            return c
    if os.environ.get("CI"):
        pytest.fail("the floors CLI is not built (cargo build)", pytrace=False)
    pytest.skip("the floors CLI is not built (cargo build)")


def _save(path, a):
    a = np.asarray(a)
    # floors reads bf16 .npy files as their uint16 bit patterns.
    np.save(path, a.view(np.uint16) if a.dtype.name == "bfloat16" else a)


def _load(path, like):
    g = np.load(path)
    return g.view(like.dtype) if like.dtype.name == "bfloat16" else g


@pytest.mark.parametrize("name", sorted(pk.KERNELS))
def test_pallas_kernel_matches_interpret_mode(name, floors_bin, tmp_path):
    text, args = pk.lower_for_tpu(name)
    assert "tpu_custom_call" in text
    prog = tmp_path / f"{name}.mlir"
    prog.write_text(text)
    inputs = []
    for i, a in enumerate(args):
        _save(tmp_path / f"in{i}.npy", a)
        inputs += ["--input", str(tmp_path / f"in{i}.npy")]
    r = subprocess.run(
        [str(floors_bin), "run", "--target", "tpu", str(prog), "--output-dir", str(tmp_path / "out"), *inputs],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    want = pk.pallas_interpret(name)
    for k, w in enumerate(want):
        g = _load(tmp_path / "out" / f"out{k}.npy", w)
        assert g.shape == w.shape and g.dtype == w.dtype, f"out{k}: {g.dtype}{g.shape} vs {w.dtype}{w.shape}"
        if w.dtype.kind == "f":
            # f32 matmuls: floors rounds the f64 sum once, XLA:CPU accumulates in f32.
            scale = max(1.0, float(np.max(np.abs(w))))
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5 * scale, err_msg=f"out{k}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"out{k}")


def test_parallel_axes_are_shuffled_by_default(floors_bin, tmp_path):
    """A kernel that records the order of its grid steps sees its parallel
    axis permuted, as in Pallas' interpret mode, and in order with
    `--tpu-grid-in-order`."""
    text, args = pk.lower_for_tpu("step_order")
    prog = tmp_path / "p.mlir"
    prog.write_text(text)
    orders = []
    for extra in ([], ["--tpu-grid-in-order"]):
        out = tmp_path / f"out{len(orders)}"
        r = subprocess.run(
            [str(floors_bin), "run", "--target", "tpu", str(prog), "--output-dir", str(out), *extra],
            capture_output=True,
            text=True,
        )
        assert r.returncode == 0, r.stderr
        orders.append(np.load(out / "out0.npy")[::-1])
    shuffled, in_order = orders
    assert sorted(shuffled.tolist()) == list(range(len(shuffled)))
    assert in_order.tolist() == list(range(len(in_order)))
    assert shuffled.tolist() != in_order.tolist()


def test_prng_is_refused_by_name(floors_bin, tmp_path):
    """The TPU's hardware PRNG has no reproducible semantics here: a
    located error naming the op, exit 1, not a guess."""
    text, _ = pk.lower_for_tpu("prng_bits")
    prog = tmp_path / "p.mlir"
    prog.write_text(text)
    r = subprocess.run([str(floors_bin), "run", "--target", "tpu", str(prog), "--output-dir", str(tmp_path / "out")], capture_output=True, text=True)
    assert r.returncode == 1
    assert "`tpu.prng_set_seed_32` is not supported by the TPU interpreter" in r.stderr and "pallas_kernels.py:" in r.stderr, r.stderr
