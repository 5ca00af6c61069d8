"""Convolutions on the TPU floor (`floors-linalg-lower-stablehlo{conv-as-dots=true}`:
shifted matmuls, one `tpu.matmul` per window position, or per output position for
kernel gradients) against XLA:CPU: every case of test_convolution.py (layouts, 1-D
to 3-D, feature and batch groups, strides, both dilations, negative padding, no
spatial dims, bf16/f16/int32/int8→int32), the gradients JAX's autodiff writes
(input gradients of strided convolutions dilate their input: a strided insert,
spread slice by slice on the TPU), interior padding, and the refusal of a
convolution with too many positions. Run with `floors run --target tpu` (Mosaic
kernels run by the interpreter) on .npy inputs.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from test_convolution import CASES, NCHW, NHWC, TOLERANCE, inputs
from test_tpu_sort import _outputs, _run_tpu


def _close(tmp_path, f, args, rtol, atol):
    for i, (g, w) in enumerate(_outputs(tmp_path, f, *args)):
        assert g.shape == w.shape and g.dtype == w.dtype, f"out{i}: {g.dtype}{g.shape} vs {w.dtype}{w.shape}"
        if rtol == 0 and atol == 0:
            np.testing.assert_array_equal(g, w, err_msg=f"out{i}")
        else:
            np.testing.assert_allclose(g.astype(np.float32), w.astype(np.float32), rtol=rtol, atol=atol, err_msg=f"out{i}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_convolution_on_the_tpu_floor(tmp_path, name):
    lhs_shape, rhs_shape, dtype, kw = CASES[name]
    rng = np.random.default_rng(sorted(CASES).index(name))
    x, w = inputs(lhs_shape, dtype, rng), inputs(rhs_shape, dtype, rng)
    kw = dict(kw)
    strides = kw.pop("window_strides", (1,) * (len(lhs_shape) - 2))
    _close(tmp_path, lambda x, w: lax.conv_general_dilated(x, w, window_strides=strides, **kw), (x, w), *TOLERANCE[dtype])


@pytest.mark.parametrize("layout", ["nhwc", "nchw"])
@pytest.mark.parametrize("stride", [1, 2])
def test_convolution_gradients(tmp_path, layout, stride):
    # d/dx dilates the output gradient by the stride (lhs_dilation); d/dw is a
    # convolution whose window is the whole image (the output-position form).
    r = np.random.default_rng(stride)
    dn = NHWC if layout == "nhwc" else NCHW
    x = r.standard_normal((2, 12, 12, 6) if layout == "nhwc" else (2, 6, 12, 12)).astype(np.float32)
    w = (0.2 * r.standard_normal((3, 3, 6, 8) if layout == "nhwc" else (8, 6, 3, 3))).astype(np.float32)

    def loss(x, w):
        return jnp.sum(jnp.tanh(lax.conv_general_dilated(x, w, (stride, stride), "SAME", dimension_numbers=dn)))

    _close(tmp_path, jax.grad(loss, argnums=(0, 1)), (x, w), 1e-4, 1e-4)


def test_interior_padding(tmp_path):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    _close(tmp_path, lambda x: lax.pad(x, np.float32(-1.5), [(1, -1, 1), (-2, 3, 2)]), (x,), 0, 0)


def test_too_many_positions_is_refused_at_the_convolution(tmp_path):
    x, w = np.ones((1, 4000, 1), np.float32), np.ones((2001, 1, 1), np.float32)
    out = _run_tpu(tmp_path, lambda x, w: lax.conv_general_dilated(x, w, (1,), "VALID", dimension_numbers=("NWC", "WIO", "NWC")), x, w)
    assert out.returncode != 0
    assert "2001 window positions and 2000 output positions" in out.stderr and "p.mlir:" in out.stderr, out.stderr


@pytest.mark.parametrize("groups", [2, 6])
def test_grouped_convolution_gradients(tmp_path, groups):
    # The kernel gradient of a grouped (depthwise at 6) convolution is a
    # convolution with batch groups in the output-position form.
    r = np.random.default_rng(groups)
    x = r.standard_normal((2, 10, 10, 6)).astype(np.float32)
    w = (0.3 * r.standard_normal((3, 3, 6 // groups, 12))).astype(np.float32)

    def loss(x, w):
        y = lax.conv_general_dilated(x, w, (2, 1), "SAME", dimension_numbers=NHWC, feature_group_count=groups)
        return jnp.sum(jnp.tanh(y))

    _close(tmp_path, jax.grad(loss, argnums=(0, 1)), (x, w), 1e-4, 1e-4)
