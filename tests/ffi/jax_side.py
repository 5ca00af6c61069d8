"""The JAX side of tests/ffi_jax.rs: registers the handlers of
tests/ffi/handlers.cc (built into LIB) with XLA:CPU, lowers the programs
below to StableHLO and runs them under JAX.

    python jax_side.py LIB OUT_DIR

For each program NAME it writes OUT_DIR/NAME.mlir (exactly what
`jax.jit(f).lower(...).as_text()` prints), NAME.in0.npy ... (the inputs) and
NAME.run{R}.out{K}.npy (output K of run R of the one jitted function: state
kept by a handler across runs shows up in later runs).
"""

import ctypes
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np

LIB, OUT = sys.argv[1], sys.argv[2]
lib = ctypes.cdll.LoadLibrary(LIB)

# Start the CPU backend first: registrations made after it are applied in
# order (the state's type before the handler that makes the state).
jax.devices("cpu")

for fn in ("CounterStateTypeId", "CounterStateTypeInfo"):
    getattr(lib, fn).restype = ctypes.c_void_p

jax.ffi.register_ffi_target("rms_norm", jax.ffi.pycapsule(lib.RmsNorm), platform="cpu")
jax.ffi.register_ffi_target("affine_argmax", jax.ffi.pycapsule(lib.AffineArgmax), platform="cpu")
jax.ffi.register_ffi_target("scale_in_place", jax.ffi.pycapsule(lib.ScaleInPlace), platform="cpu")
jax.ffi.register_ffi_type(
    "counter_state",
    {
        "type_id": jax.ffi.pycapsule(lib.CounterStateTypeId()),
        "type_info": jax.ffi.pycapsule(lib.CounterStateTypeInfo()),
    },
    platform="cpu",
)
jax.ffi.register_ffi_target(
    "counter",
    {"instantiate": jax.ffi.pycapsule(lib.CounterInstantiate), "execute": jax.ffi.pycapsule(lib.CounterExecute)},
    platform="cpu",
)


def rms_norm(x, eps=1e-5):
    return jax.ffi.ffi_call("rms_norm", jax.ShapeDtypeStruct(x.shape, x.dtype))(x, eps=np.float32(eps))


def affine_argmax(x, scale, shift):
    return jax.ffi.ffi_call(
        "affine_argmax",
        (jax.ShapeDtypeStruct(x.shape, x.dtype), jax.ShapeDtypeStruct(x.shape[:-1], jnp.int32)),
    )(x, scale=np.float32(scale), shift=np.int64(shift))


def counter(x, start):
    return jax.ffi.ffi_call("counter", jax.ShapeDtypeStruct(x.shape, x.dtype), has_side_effect=True)(
        x, start=np.int32(start)
    )


def scale_in_place(x, factor):
    return jax.ffi.ffi_call("scale_in_place", jax.ShapeDtypeStruct(x.shape, x.dtype), input_output_aliases={0: 0})(
        x, factor=np.float32(factor)
    )


def rms_block(x):
    # Kernels before and after the call: the call's buffers come from and go to fusions.
    return jnp.tanh(rms_norm(x * 2.0 + 1.0)) * 0.5


def two_results(x):
    y, idx = affine_argmax(x, 2.5, -1)
    return y * y, idx + 1


def stateful(x):
    return counter(x, 3) * 2.0


def aliased(x):
    # The operand is an argument (never written by floors) and is used again after the call.
    return scale_in_place(x, 3.0) + x


rng = np.random.default_rng(0)
PROGRAMS = {
    "rms_block": (rms_block, [rng.standard_normal((4, 8), dtype=np.float32)], 1),
    "two_results": (two_results, [rng.standard_normal((3, 5), dtype=np.float32)], 1),
    "stateful": (stateful, [rng.standard_normal((6,), dtype=np.float32)], 3),
    "aliased": (aliased, [rng.standard_normal((2, 3), dtype=np.float32)], 1),
}

os.makedirs(OUT, exist_ok=True)
for name, (f, inputs, runs) in PROGRAMS.items():
    jitted = jax.jit(f)
    with open(os.path.join(OUT, f"{name}.mlir"), "w") as fh:
        fh.write(jitted.lower(*inputs).as_text())
    for i, x in enumerate(inputs):
        np.save(os.path.join(OUT, f"{name}.in{i}.npy"), x)
    for r in range(runs):
        outs = jitted(*inputs)
        outs = outs if isinstance(outs, (tuple, list)) else (outs,)
        for k, o in enumerate(outs):
            np.save(os.path.join(OUT, f"{name}.run{r}.out{k}.npy"), np.asarray(o))
print("ok")
