"""Convolutions on floors against XLA:CPU: `lax.conv_general_dilated` in a
matrix of layouts (NHWC/HWIO, NCHW/OIHW, arbitrary permutations), 1-D, 2-D
and 3-D, feature groups (grouped, depthwise, depthwise with a multiplier),
batch groups, strides, lhs dilation (transposed convolutions), rhs dilation,
padding (asymmetric and negative) and element types (f32, bf16, f16, int32,
int8 → int32). Each case is jitted on both devices (the floors PJRT plugin
compiles the StableHLO that `jax.jit(f).lower(...).as_text()` prints) and
the outputs compared.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

NHWC = ("NHWC", "HWIO", "NHWC")
NCHW = ("NCHW", "OIHW", "NCHW")
NWC = ("NWC", "WIO", "NWC")
NCW = ("NCW", "OIW", "NCW")
NDHWC = ("NDHWC", "DHWIO", "NDHWC")
NCDHW = ("NCDHW", "OIDHW", "NCDHW")
# Every role at an unusual position: lhs [w, c, n, h], rhs [i, h, o, w], out [h, n, w, c].
PERMUTED = lax.ConvDimensionNumbers(lhs_spec=(2, 1, 3, 0), rhs_spec=(2, 0, 1, 3), out_spec=(1, 3, 0, 2))

# name: (lhs shape, rhs shape, dtype, conv_general_dilated keywords)
CASES = {
    # [b, 0, 1, f]x[0, 1, i, o]: 8 and 16 output features (the direct convolution; the names are from when 16 took im2col).
    "nhwc_direct": ((2, 9, 9, 4), (3, 3, 4, 8), "f32", dict(dimension_numbers=NHWC, padding="SAME")),
    "nhwc_im2col": ((1, 16, 16, 8), (3, 3, 8, 16), "f32", dict(dimension_numbers=NHWC, padding="SAME")),
    # [b, f, 0, 1]x[o, i, 0, 1], strided, asymmetric padding.
    "nchw_strided": ((2, 3, 10, 11), (6, 3, 3, 2), "f32", dict(dimension_numbers=NCHW, window_strides=(2, 1), padding=((1, 0), (2, 1)))),
    "nchw_1x1_im2col": ((2, 16, 16, 16), (32, 16, 1, 1), "f32", dict(dimension_numbers=NCHW, padding="VALID")),
    "permuted": ((7, 5, 2, 6), (5, 3, 4, 2), "f32", dict(dimension_numbers=PERMUTED, window_strides=(1, 2), padding=((1, 1), (0, 1)))),
    "conv1d_nwc": ((2, 20, 5), (3, 5, 7), "f32", dict(dimension_numbers=NWC, padding="VALID")),
    "conv1d_ncw_rhs_dilated": ((1, 4, 17), (8, 4, 3), "f32", dict(dimension_numbers=NCW, rhs_dilation=(2,), padding=((2, 2),))),
    "conv3d_ndhwc": ((1, 6, 7, 8, 3), (2, 3, 2, 3, 4), "f32", dict(dimension_numbers=NDHWC, padding="SAME")),
    "conv3d_ncdhw_strided": ((2, 2, 7, 6, 5), (4, 2, 3, 3, 3), "f32", dict(dimension_numbers=NCDHW, window_strides=(2, 1, 2), padding="VALID")),
    "grouped": ((1, 8, 8, 6), (3, 3, 3, 8), "f32", dict(dimension_numbers=NHWC, padding="SAME", feature_group_count=2)),
    "grouped_nchw": ((2, 8, 7, 7), (12, 2, 3, 3), "f32", dict(dimension_numbers=NCHW, padding=((1, 0), (0, 1)), feature_group_count=4)),
    "depthwise": ((2, 10, 10, 8), (3, 3, 1, 8), "f32", dict(dimension_numbers=NHWC, padding="SAME", feature_group_count=8)),
    "depthwise_multiplier_nchw": ((1, 4, 9, 9), (8, 1, 3, 3), "f32", dict(dimension_numbers=NCHW, window_strides=(2, 2), padding="SAME", feature_group_count=4)),
    "depthwise_conv1d": ((2, 16, 12), (5, 1, 12), "f32", dict(dimension_numbers=NWC, padding="SAME", feature_group_count=12)),
    "batch_groups": ((4, 6, 6, 3), (3, 3, 3, 4), "f32", dict(dimension_numbers=NHWC, padding="VALID", batch_group_count=2)),
    "batch_groups_nchw": ((6, 2, 5, 5), (6, 2, 2, 2), "f32", dict(dimension_numbers=NCHW, padding=((1, 0), (0, 0)), batch_group_count=3)),
    "lhs_dilated": ((1, 5, 5, 4), (3, 3, 4, 4), "f32", dict(dimension_numbers=NHWC, lhs_dilation=(2, 2), padding=((2, 2), (2, 1)))),
    "rhs_dilated": ((1, 12, 12, 3), (3, 3, 3, 8), "f32", dict(dimension_numbers=NHWC, rhs_dilation=(2, 3), padding="VALID")),
    "negative_padding": ((1, 8, 9, 2), (2, 2, 2, 4), "f32", dict(dimension_numbers=NHWC, padding=((-1, 0), (0, -2)))),
    "no_spatial_dims": ((4, 6), (8, 6), "f32", dict(dimension_numbers=("NC", "OI", "NC"), padding=())),
    "no_spatial_dims_grouped": ((4, 6), (8, 3), "f32", dict(dimension_numbers=("NC", "OI", "NC"), padding=(), feature_group_count=2)),
    "one_output_feature": ((1, 10, 10, 16), (3, 3, 16, 1), "f32", dict(dimension_numbers=NHWC, padding="SAME")),
    "one_channel": ((1, 7, 7, 1), (3, 3, 1, 1), "f32", dict(dimension_numbers=NHWC, padding="VALID")),
    "bf16_nchw": ((1, 4, 8, 8), (8, 4, 3, 3), "bf16", dict(dimension_numbers=NCHW, padding="SAME")),
    "f16_depthwise": ((1, 6, 6, 8), (3, 3, 1, 8), "f16", dict(dimension_numbers=NHWC, padding="SAME", feature_group_count=8)),
    "i32_nhwc": ((1, 6, 6, 3), (2, 2, 3, 4), "i32", dict(dimension_numbers=NHWC, window_strides=(2, 1), padding="VALID")),
    "i8_to_i32_grouped": ((2, 5, 5, 4), (3, 3, 2, 6), "i8", dict(dimension_numbers=NHWC, padding="SAME", feature_group_count=2, preferred_element_type=jnp.int32)),
}

DTYPES = {"f32": np.float32, "bf16": jnp.bfloat16, "f16": np.float16, "i32": np.int32, "i8": np.int8}
# (rtol, atol) per input type; integers are exact.
TOLERANCE = {"f32": (1e-4, 1e-4), "bf16": (2e-2, 5e-2), "f16": (5e-3, 5e-3), "i32": (0, 0), "i8": (0, 0)}


def inputs(shape, dtype, rng):
    if dtype in ("i32", "i8"):
        return rng.integers(-8, 8, size=shape).astype(DTYPES[dtype])
    return rng.uniform(-1, 1, size=shape).astype(np.float32).astype(DTYPES[dtype])


@pytest.mark.parametrize("name", sorted(CASES))
def test_convolution_matches_xla(name, devices):
    lhs_shape, rhs_shape, dtype, kw = CASES[name]
    rng = np.random.default_rng(sorted(CASES).index(name))
    x, w = inputs(lhs_shape, dtype, rng), inputs(rhs_shape, dtype, rng)

    kw = dict(kw)
    strides = kw.pop("window_strides", (1,) * (len(lhs_shape) - 2))

    def conv(x, w):
        return lax.conv_general_dilated(x, w, window_strides=strides, **kw)

    text = jax.jit(conv).lower(x, w).as_text()
    assert "stablehlo.convolution" in text, text
    floors, cpu = devices
    got = jax.jit(conv)(*jax.device_put((x, w), floors))
    assert got.devices() == {floors}, got.devices()
    got = np.asarray(got)
    want = np.asarray(jax.jit(conv)(*jax.device_put((x, w), cpu)))
    assert got.shape == want.shape and got.dtype == want.dtype, f"{got.dtype}{got.shape} vs {want.dtype}{want.shape}"
    rtol, atol = TOLERANCE[dtype]
    if rtol == 0 and atol == 0:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=rtol, atol=atol)
