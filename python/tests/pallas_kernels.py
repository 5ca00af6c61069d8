"""Real Pallas TPU kernels, written the way Pallas users write them, each
exercising a feature of Pallas' TPU pipeline: aliasing with partial writes,
`pl.Element` windows, scalar prefetch, `run_scoped` scratch, `pltpu.roll`,
a 3-D grid with a scratch accumulator, manual double-buffered DMAs, a
kernel's own VMEM limit, integer and boolean outputs, loops in the body.

`KERNELS[name](interpret)` returns `(f, args)`: `f` is the `pallas_call`
(with `interpret` passed through, `None` for the TPU lowering), `args` its
inputs. `test_pallas_kernels.py` lowers each for the TPU platform (the
`tpu_custom_call` Pallas hands libtpu), runs that on floors' TPU floor and
compares with Pallas' own TPU interpret mode (`pltpu.InterpretParams()`).
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

KERNELS = {}


def kernel(fn):
    KERNELS[fn.__name__] = fn
    return fn


def _rand(shape, dtype=np.float32, seed=0):
    r = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.integer):
        return r.integers(-100, 100, size=shape).astype(dtype)
    return r.standard_normal(shape).astype(dtype)


@kernel
def alias_partial(interpret):
    """input_output_aliases: the grid writes only the first half of the
    output; the rest is the aliased input, as on a TPU."""

    def body(x_ref, o_ref):
        o_ref[...] = x_ref[...] * 2.0 + 1.0

    x = _rand((64, 128))
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(4,),
        in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
        input_output_aliases={0: 0},
        interpret=interpret,
    )
    return f, (x,)


@kernel
def alias_second_operand(interpret):
    """The aliased operand is not the first; the kernel updates rows
    selected by a scalar-prefetch index (a scatter of rows in place)."""

    def body(idx_ref, upd_ref, dst_ref, o_ref):
        del dst_ref
        o_ref[...] = upd_ref[...]

    idx = np.array([5, 1, 6], np.int32)
    upd = _rand((3, 8, 128), seed=1)
    dst = _rand((8, 8, 128), seed=2)
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct(dst.shape, dst.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=1,
            grid=(3,),
            in_specs=[
                pl.BlockSpec((1, 8, 128), lambda i, idx: (i, 0, 0)),
                pl.BlockSpec(memory_space=pl.ANY),
            ],
            out_specs=pl.BlockSpec((1, 8, 128), lambda i, idx: (idx[i], 0, 0)),
        ),
        input_output_aliases={2: 0},
        interpret=interpret,
    )
    return f, (idx, upd, dst)


@kernel
def element_halo(interpret):
    """`pl.Element` rows: each step reads 16 rows starting at element offset
    8·i (a halo), a 3-tap stencil along rows."""

    def body(x_ref, o_ref):
        o_ref[...] = x_ref[0:8, :] + 2.0 * x_ref[1:9, :] + x_ref[2:10, :]

    x = _rand((40, 128))
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((32, 128), x.dtype),
        grid=(4,),
        in_specs=[pl.BlockSpec((pl.Element(16), pl.Element(128)), lambda i: (i * 8, 0))],
        out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
        interpret=interpret,
    )
    return f, (x,)


@kernel
def element_offsets(interpret):
    """`pl.Element` windows on both dimensions at offsets that are not
    multiples of the block."""

    def body(x_ref, o_ref):
        o_ref[...] = x_ref[...] - 1.0

    x = _rand((40, 384))
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((24, 256), x.dtype),
        grid=(3, 2),
        in_specs=[pl.BlockSpec((pl.Element(8), pl.Element(128)), lambda i, j: (i * 8 + 3, j * 128 + 64))],
        out_specs=pl.BlockSpec((8, 128), lambda i, j: (i, j)),
        interpret=interpret,
    )
    return f, (x,)


@kernel
def scalar_prefetch_rows(interpret):
    """Scalar prefetch: the index map reads an SMEM table (a row gather),
    and the body reads the table too."""

    def body(idx_ref, x_ref, o_ref):
        i = pl.program_id(0)
        o_ref[...] = x_ref[...] * idx_ref[i].astype(jnp.float32)

    idx = np.array([3, 0, 2, 2, 1], np.int32)
    x = _rand((4, 8, 128))
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((5, 8, 128), x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=1,
            grid=(5,),
            in_specs=[pl.BlockSpec((None, 8, 128), lambda i, idx: (idx[i], 0, 0))],
            out_specs=pl.BlockSpec((None, 8, 128), lambda i, idx: (i, 0, 0)),
        ),
        interpret=interpret,
    )
    return f, (idx, x)


@kernel
def run_scoped_scratch(interpret):
    """`pl.run_scoped` VMEM scratch inside the body."""

    def body(x_ref, o_ref):
        def scoped(s_ref):
            s_ref[...] = jnp.tanh(x_ref[...])
            o_ref[...] = s_ref[...] + x_ref[...]

        pl.run_scoped(scoped, pltpu.VMEM((8, 128), jnp.float32))

    x = _rand((16, 128))
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2,),
        in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
        interpret=interpret,
    )
    return f, (x,)


@kernel
def roll_lanes_and_rows(interpret):
    """`pltpu.roll` along lanes and sublanes, static and dynamic shifts."""

    def body(s_ref, x_ref, o_ref):
        x = x_ref[...]
        a = pltpu.roll(x, shift=3, axis=1)
        b = pltpu.roll(x, shift=5, axis=0)
        c = pltpu.roll(x, shift=s_ref[0], axis=1)
        o_ref[...] = a + 10.0 * b + 100.0 * c

    s = np.array([77], np.int32)
    x = np.arange(16 * 256, dtype=np.float32).reshape(16, 256) / 1000.0
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        in_specs=[pl.BlockSpec(memory_space=pltpu.SMEM), pl.BlockSpec(memory_space=pltpu.VMEM)],
        interpret=interpret,
    )
    return f, (s, x)


@kernel
def matmul_accumulator(interpret):
    """A 3-D grid (parallel, parallel, arbitrary) with an f32 VMEM scratch
    accumulator, zeroed at k = 0 and stored at the last k."""
    bm, bn, bk = 128, 128, 128

    def body(a_ref, b_ref, o_ref, acc_ref):
        @pl.when(pl.program_id(2) == 0)
        def _():
            acc_ref[...] = jnp.zeros_like(acc_ref)

        acc_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)

        @pl.when(pl.program_id(2) == pl.num_programs(2) - 1)
        def _():
            o_ref[...] = acc_ref[...].astype(o_ref.dtype)

    a = _rand((256, 384), seed=3)
    b = _rand((384, 256), seed=4)
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((256, 256), jnp.float32),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(2, 2, 3),
            in_specs=[pl.BlockSpec((bm, bk), lambda i, j, k: (i, k)), pl.BlockSpec((bk, bn), lambda i, j, k: (k, j))],
            out_specs=pl.BlockSpec((bm, bn), lambda i, j, k: (i, j)),
            scratch_shapes=[pltpu.VMEM((bm, bn), jnp.float32)],
        ),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
        interpret=interpret,
    )
    return f, (a, b)


@kernel
def double_buffered_dma(interpret):
    """Manual double buffering: the input stays in HBM (`pl.ANY`); the
    body copies chunk c+1 while summing chunk c, with two DMA semaphores."""
    chunks, rows = 6, 8

    def body(x_hbm, o_ref, buf, sem):
        def copy(c, slot):
            return pltpu.make_async_copy(x_hbm.at[pl.ds(c * rows, rows)], buf.at[slot], sem.at[slot])

        copy(0, 0).start()

        def step(c, acc):
            slot = c % 2

            @pl.when(c + 1 < chunks)
            def _():
                copy(c + 1, 1 - slot).start()

            copy(c, slot).wait()
            return acc + buf[slot] * (c + 1).astype(jnp.float32)

        o_ref[...] = jax.lax.fori_loop(0, chunks, step, jnp.zeros((rows, 128), jnp.float32))

    x = _rand((chunks * rows, 128), seed=5)
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((rows, 128), jnp.float32),
        in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
        out_specs=pl.BlockSpec(memory_space=pltpu.VMEM),
        scratch_shapes=[pltpu.VMEM((2, rows, 128), jnp.float32), pltpu.SemaphoreType.DMA((2,))],
        interpret=interpret,
    )
    return f, (x,)


@kernel
def big_blocks_own_vmem_limit(interpret):
    """Blocks that need 32 MiB of VMEM double-buffered, with the kernel's
    own `vmem_limit_bytes` (above the 16 MiB default)."""

    def body(x_ref, o_ref):
        o_ref[...] = x_ref[...] + 1.0

    x = _rand((2048, 2048), seed=6)
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2,),
        in_specs=[pl.BlockSpec((1024, 2048), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((1024, 2048), lambda i: (i, 0)),
        compiler_params=pltpu.CompilerParams(vmem_limit_bytes=64 * 1024 * 1024),
        interpret=interpret,
    )
    return f, (x,)


@kernel
def int_and_bool_outputs(interpret):
    """Integer and boolean outputs: a comparison mask, integer arithmetic,
    a row reduction to int32."""

    def body(a_ref, b_ref, m_ref, s_ref, r_ref):
        a, b = a_ref[...], b_ref[...]
        m_ref[...] = a > b
        s_ref[...] = (a * 3 - b) >> 2
        r_ref[...] = jnp.sum(jnp.where(a > b, 1, 0).astype(jnp.int32), axis=1, keepdims=True) + jnp.zeros((8, 128), jnp.int32)

    a = _rand((16, 128), np.int32, seed=7)
    b = _rand((16, 128), np.int32, seed=8)
    spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
    f = pl.pallas_call(
        body,
        out_shape=(
            jax.ShapeDtypeStruct(a.shape, jnp.bool_),
            jax.ShapeDtypeStruct(a.shape, jnp.int32),
            jax.ShapeDtypeStruct(a.shape, jnp.int32),
        ),
        grid=(2,),
        in_specs=[spec, spec],
        out_specs=(spec, spec, spec),
        interpret=interpret,
    )
    return f, (a, b)


@kernel
def fori_loop_in_body(interpret):
    """A `fori_loop` in the body with a dynamic row slice of the block."""

    def body(x_ref, o_ref):
        def step(r, acc):
            return acc + x_ref[pl.ds(r, 1), :]

        o_ref[...] = jnp.broadcast_to(jax.lax.fori_loop(0, 16, step, jnp.zeros((1, 128), jnp.float32)), (8, 128))

    x = _rand((32, 128), seed=9)
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((16, 128), x.dtype),
        grid=(2,),
        in_specs=[pl.BlockSpec((16, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
        interpret=interpret,
    )
    return f, (x,)


@kernel
def softmax_rows_iota_mask(interpret):
    """A row softmax with a column mask from `broadcasted_iota` (causal-style)."""

    def body(x_ref, o_ref):
        x = x_ref[...]
        row = jax.lax.broadcasted_iota(jnp.int32, x.shape, 0) + pl.program_id(0) * 8
        col = jax.lax.broadcasted_iota(jnp.int32, x.shape, 1)
        x = jnp.where(col <= row, x, -jnp.inf)
        m = jnp.max(x, axis=1, keepdims=True)
        e = jnp.exp(x - m)
        o_ref[...] = e / jnp.sum(e, axis=1, keepdims=True)

    x = _rand((32, 128), seed=10)
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(4,),
        in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
        interpret=interpret,
    )
    return f, (x,)


@kernel
def concatenate_and_bitcast(interpret):
    """`jnp.concatenate` of blocks along lanes, and `pltpu.bitcast` at the
    same width and across widths (f32 → 2 × i16 rows and back)."""

    def body(a_ref, b_ref, o_ref, u_ref, h_ref, w_ref):
        o_ref[...] = jnp.concatenate([a_ref[...], b_ref[...] * 2.0], axis=1)
        u_ref[...] = pltpu.bitcast(a_ref[...], jnp.int32) & 0x7FFFFFFF
        halves = pltpu.bitcast(a_ref[...], jnp.int16)
        h_ref[...] = halves
        w_ref[...] = pltpu.bitcast(halves ^ 1, jnp.int32)

    a = _rand((8, 128), seed=11)
    b = _rand((8, 128), seed=12)
    f = pl.pallas_call(
        body,
        out_shape=(
            jax.ShapeDtypeStruct((8, 256), jnp.float32),
            jax.ShapeDtypeStruct((8, 128), jnp.int32),
            jax.ShapeDtypeStruct((16, 128), jnp.int16),
            jax.ShapeDtypeStruct((8, 128), jnp.int32),
        ),
        interpret=interpret,
    )
    return f, (a, b)


@kernel
def flash_attention_fwd(interpret):
    """Flash attention's forward pass: a (q block, kv block) grid with the
    running max, denominator and accumulator in VMEM scratch, bf16 inputs,
    f32 statistics, causal masking by `broadcasted_iota`."""
    bq, bk, d = 64, 64, 128

    def body(q_ref, k_ref, v_ref, o_ref, m_ref, l_ref, acc_ref):
        qi, ki = pl.program_id(1), pl.program_id(2)

        @pl.when(ki == 0)
        def _():
            m_ref[...] = jnp.full_like(m_ref, -jnp.inf)
            l_ref[...] = jnp.zeros_like(l_ref)
            acc_ref[...] = jnp.zeros_like(acc_ref)

        @pl.when(ki <= qi)
        def _():
            q, k, v = q_ref[...], k_ref[...], v_ref[...]
            s = jax.lax.dot_general(q, k, (((1,), (1,)), ((), ())), preferred_element_type=jnp.float32) * 0.125
            row = qi * bq + jax.lax.broadcasted_iota(jnp.int32, s.shape, 0)
            col = ki * bk + jax.lax.broadcasted_iota(jnp.int32, s.shape, 1)
            s = jnp.where(col <= row, s, -1e30)
            m_prev = m_ref[...]
            m_new = jnp.maximum(m_prev, jnp.max(s, axis=1, keepdims=True))
            p = jnp.exp(s - m_new)
            alpha = jnp.exp(m_prev - m_new)
            l_ref[...] = alpha * l_ref[...] + jnp.sum(p, axis=1, keepdims=True)
            acc_ref[...] = alpha * acc_ref[...] + jnp.dot(p.astype(v.dtype), v, preferred_element_type=jnp.float32)
            m_ref[...] = m_new

        @pl.when(ki == pl.num_programs(2) - 1)
        def _():
            o_ref[...] = (acc_ref[...] / l_ref[...]).astype(o_ref.dtype)

    heads, seq = 2, 256
    q, k, v = (_rand((heads, seq, d), seed=s).astype(jnp.bfloat16) for s in (20, 21, 22))
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((heads, seq, d), jnp.float32),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(heads, seq // bq, seq // bk),
            in_specs=[
                pl.BlockSpec((None, bq, d), lambda h, i, j: (h, i, 0)),
                pl.BlockSpec((None, bk, d), lambda h, i, j: (h, j, 0)),
                pl.BlockSpec((None, bk, d), lambda h, i, j: (h, j, 0)),
            ],
            out_specs=pl.BlockSpec((None, bq, d), lambda h, i, j: (h, i, 0)),
            scratch_shapes=[pltpu.VMEM((bq, 1), jnp.float32), pltpu.VMEM((bq, 1), jnp.float32), pltpu.VMEM((bq, d), jnp.float32)],
        ),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
        interpret=interpret,
    )
    return f, (q, k, v)


@kernel
def sync_copy_and_semaphores(interpret):
    """`pltpu.sync_copy` from HBM into scoped VMEM, and a regular semaphore
    signalled and waited in the body."""

    def body(x_hbm, o_ref, sem):
        def scoped(buf):
            pltpu.sync_copy(x_hbm.at[pl.ds(8, 8)], buf)
            pl.semaphore_signal(sem, 2)
            pl.semaphore_wait(sem, 2)
            o_ref[...] = buf[...] * 3.0

        pl.run_scoped(scoped, pltpu.VMEM((8, 128), jnp.float32))

    x = _rand((24, 128), seed=13)
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32),
        in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
        scratch_shapes=[pltpu.SemaphoreType.REGULAR],
        interpret=interpret,
    )
    return f, (x,)


@kernel
def bf16_matmul_int8_scale(interpret):
    """A bf16 matmul with an f32 accumulator, and an int8 input widened and
    scaled in the epilogue."""

    def body(a_ref, b_ref, s_ref, o_ref):
        acc = jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)
        o_ref[...] = acc * s_ref[...].astype(jnp.float32)

    a = _rand((128, 256), seed=14).astype(jnp.bfloat16)
    b = _rand((256, 128), seed=15).astype(jnp.bfloat16)
    sc = np.random.default_rng(16).integers(-8, 8, size=(128, 128)).astype(np.int8)
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((128, 128), jnp.float32),
        interpret=interpret,
    )
    return f, (a, b, sc)


@kernel
def argmax_and_cond(interpret):
    """`jnp.argmax` along lanes inside a kernel, and `lax.cond` on a
    program id."""

    def body(x_ref, i_ref, o_ref):
        x = x_ref[...]
        i_ref[...] = jnp.broadcast_to(jnp.argmax(x, axis=1, keepdims=True).astype(jnp.int32), (8, 128))
        o_ref[...] = jax.lax.cond(pl.program_id(0) % 2 == 0, lambda v: v * 2.0, lambda v: v - 1.0, x)

    x = _rand((32, 128), seed=17)
    spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
    f = pl.pallas_call(
        body,
        out_shape=(jax.ShapeDtypeStruct((32, 128), jnp.int32), jax.ShapeDtypeStruct((32, 128), jnp.float32)),
        grid=(4,),
        in_specs=[spec],
        out_specs=(spec, spec),
        interpret=interpret,
    )
    return f, (x,)


@kernel
def take_along_lanes(interpret):
    """`jnp.take_along_axis` along lanes and sublanes with computed indices
    (Mosaic's `tpu.dynamic_gather`)."""

    def body(x_ref, i_ref, o_ref, p_ref):
        x = x_ref[...]
        o_ref[...] = jnp.take_along_axis(x, i_ref[...], axis=1, mode="promise_in_bounds")
        rows = (jax.lax.broadcasted_iota(jnp.int32, x.shape, 0) * 3 + 1) % 8
        p_ref[...] = jnp.take_along_axis(x, rows, axis=0, mode="promise_in_bounds")

    x = _rand((8, 128), seed=19)
    idx = np.random.default_rng(20).integers(0, 128, size=(8, 128)).astype(np.int32)
    f = pl.pallas_call(
        body,
        out_shape=(jax.ShapeDtypeStruct((8, 128), jnp.float32), jax.ShapeDtypeStruct((8, 128), jnp.float32)),
        interpret=interpret,
    )
    return f, (x, idx)


@kernel
def strided_roll(interpret):
    """`pltpu.roll` with a stride: row r rolls by shift + r·stride."""

    def body(x_ref, o_ref):
        o_ref[...] = pltpu.roll(x_ref[...], shift=1, axis=1, stride=2, stride_axis=0)

    x = np.arange(8 * 128, dtype=np.float32).reshape(8, 128)
    f = pl.pallas_call(body, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=interpret)
    return f, (x,)


@kernel
def bool_mask_input(interpret):
    """A boolean mask input selecting between a block and zeros."""

    def body(m_ref, x_ref, o_ref):
        o_ref[...] = jnp.where(m_ref[...], x_ref[...], 0.0)

    m = np.random.default_rng(21).random((16, 128)) > 0.5
    x = _rand((16, 128), seed=22)
    spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2,),
        in_specs=[spec, spec],
        out_specs=spec,
        interpret=interpret,
    )
    return f, (m, x)


@kernel
def uint8_and_int8(interpret):
    """Unsigned and signed 8-bit inputs widened to int32."""

    def body(a_ref, b_ref, o_ref):
        o_ref[...] = a_ref[...].astype(jnp.int32) * 3 - b_ref[...].astype(jnp.int32)

    a = np.random.default_rng(23).integers(0, 256, (32, 128)).astype(np.uint8)
    b = np.random.default_rng(24).integers(-128, 128, (32, 128)).astype(np.int8)
    f = pl.pallas_call(body, out_shape=jax.ShapeDtypeStruct(a.shape, jnp.int32), interpret=interpret)
    return f, (a, b)


@kernel
def dynamic_trip_loop(interpret):
    """A `fori_loop` whose trip count is read from SMEM."""

    def body(n_ref, x_ref, o_ref):
        def step(i, acc):
            return acc * 0.5 + x_ref[...]

        o_ref[...] = jax.lax.fori_loop(0, n_ref[0], step, jnp.zeros((8, 128), jnp.float32))

    n = np.array([5], np.int32)
    x = _rand((8, 128), seed=25)
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        in_specs=[pl.BlockSpec(memory_space=pltpu.SMEM), pl.BlockSpec(memory_space=pltpu.VMEM)],
        interpret=interpret,
    )
    return f, (n, x)


@kernel
def while_loop_body(interpret):
    """A `lax.while_loop` carrying a counter and a block."""

    def body(x_ref, o_ref):
        def cond(c):
            return c[0] < 10

        def step(c):
            return c[0] + 1, c[1] + x_ref[...] * c[0].astype(jnp.float32)

        o_ref[...] = jax.lax.while_loop(cond, step, (0, jnp.zeros((8, 128), jnp.float32)))[1]

    x = _rand((8, 128), seed=26)
    f = pl.pallas_call(body, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=interpret)
    return f, (x,)


@kernel
def squeezed_3d_swap(interpret):
    """3-D blocks with a squeezed leading dimension, transposed in the body."""

    def body(x_ref, o_ref):
        o_ref[...] = jnp.swapaxes(x_ref[...], 0, 1) + 1.0

    x = _rand((4, 128, 256), seed=27)
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((4, 256, 128), x.dtype),
        grid=(4,),
        in_specs=[pl.BlockSpec((None, 128, 256), lambda i: (i, 0, 0))],
        out_specs=pl.BlockSpec((None, 256, 128), lambda i: (i, 0, 0)),
        interpret=interpret,
    )
    return f, (x,)


@kernel
def math_zoo(interpret):
    """Transcendentals in a body: sigmoid, log1p, exp2, erf, sqrt, rsqrt."""

    def body(x_ref, o_ref):
        x = x_ref[...]
        a = jnp.abs(x)
        o_ref[...] = jax.nn.sigmoid(x) + jnp.log1p(a) + jnp.exp2(x * 0.1) + jax.lax.erf(x) + jnp.sqrt(a) + jax.lax.rsqrt(a + 1)

    x = _rand((8, 128), seed=28)
    f = pl.pallas_call(body, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=interpret)
    return f, (x,)


@kernel
def bf16_elementwise(interpret):
    """bf16 in and out, arithmetic in bf16."""

    def body(x_ref, o_ref):
        o_ref[...] = (x_ref[...] * 2 + 1).astype(jnp.bfloat16)

    x = _rand((16, 128), seed=29).astype(jnp.bfloat16)
    f = pl.pallas_call(body, out_shape=jax.ShapeDtypeStruct(x.shape, jnp.bfloat16), interpret=interpret)
    return f, (x,)


@kernel
def semaphore_signal_wait_grid(interpret):
    """A regular semaphore signalled and waited at every grid step;
    `program_id` and `num_programs` in the body."""

    def body(x_ref, o_ref, sem):
        pl.semaphore_signal(sem, 1)
        pl.semaphore_wait(sem, 1)
        o_ref[...] = x_ref[...] + pl.program_id(0).astype(jnp.float32) + jnp.float32(pl.num_programs(0))

    x = _rand((32, 128), seed=30)
    spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(4,),
        in_specs=[spec],
        out_specs=spec,
        scratch_shapes=[pltpu.SemaphoreType.REGULAR],
        interpret=interpret,
    )
    return f, (x,)


@kernel
def reduce_sublanes_int_max(interpret):
    """An integer max over sublanes (rows) with keepdims."""

    def body(x_ref, o_ref):
        o_ref[...] = jnp.broadcast_to(jnp.max(x_ref[...], axis=0, keepdims=True), (8, 128))

    x = np.random.default_rng(31).integers(-1000, 1000, (64, 128)).astype(np.int32)
    f = pl.pallas_call(body, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.int32), interpret=interpret)
    return f, (x,)


def prng_bits(interpret):
    """`pltpu.prng_seed` and `prng_random_bits`: the TPU's own generator,
    whose bits neither Pallas' interpret mode nor floors reproduces; floors
    refuses the op by name. Not in `KERNELS`."""

    def body(o_ref):
        pltpu.prng_seed(42)
        o_ref[...] = pltpu.prng_random_bits((8, 128))

    f = pl.pallas_call(body, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.int32), interpret=interpret)
    return f, ()


def step_order(interpret):
    """Records the order of its grid steps: a parallel axis of 16 steps,
    each shifting an SMEM history (one output block every step visits) and
    putting its program id first. Not in `KERNELS`: its result is the order
    itself, which Pallas permutes with `jax.random` and floors with its own
    generator."""

    def body(o_ref):
        def shift(k, c):
            o_ref[15 - k] = o_ref[14 - k]
            return c

        jax.lax.fori_loop(0, 15, shift, 0)
        o_ref[0] = pl.program_id(0)

    f = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((16,), jnp.int32),
        grid=(16,),
        out_specs=pl.BlockSpec(memory_space=pltpu.SMEM),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
        interpret=interpret,
    )
    return f, ()


def lower_for_tpu(name):
    """The module Pallas hands libtpu (its `tpu_custom_call`), and the inputs."""
    f, args = (KERNELS.get(name) or globals()[name])(None)
    text = jax.jit(f).trace(*args).lower(lowering_platforms=("tpu",)).as_text()
    return text, args


@functools.cache
def pallas_interpret(name):
    """Outputs of Pallas' TPU interpret mode (`pltpu.InterpretParams()`)."""
    f, args = KERNELS[name](pltpu.InterpretParams())
    out = jax.jit(f)(*args)
    return tuple(np.asarray(o) for o in (out if isinstance(out, (tuple, list)) else (out,)))
