"""What JAX needs to lower and run every primitive on the platform ``floors``.

JAX lowers a primitive with the rule registered for the platform if there is
one, else with its generic rule. Some primitives have rules only for the
platforms JAX knows (``cpu``, ``cuda``, ``rocm``, ``tpu``): ``jnp.linalg``
(LAPACK custom calls on CPU), host callbacks (``jax.debug.print``,
``jax.pure_callback``, ``io_callback``), and a few CPU-specific forms. floors
compiles what XLA:CPU is given, so:

1. **Lowering rules**: every rule JAX has for ``cpu`` is also the rule for
   ``floors`` (those registered before the plugin is initialized are copied;
   later ``register_lowering(..., platform="cpu")`` calls are mirrored), unless
   a rule was registered for ``floors`` itself.
2. **Custom-call targets**: ``jax.ffi.register_ffi_target(name, capsule,
   platform="floors")`` reaches floors' process-wide XLA FFI registry through
   the library's ``floors_pjrt_register_ffi_target``; jaxlib's LAPACK handlers
   (``lapack_*_ffi``, the targets of the CPU rules of ``jnp.linalg``) are
   registered so at initialization.
3. **Host callbacks**: on ``floors`` a callback lowers to ``custom_call
   @floors_python_callback`` with a ``callback_id`` attribute; the library calls
   back into this module (a ctypes trampoline), which runs the Python function
   in this process, checks its results against the declared shapes and dtypes,
   and copies them into the call's result buffers. An exception in the callback
   is the execution's error (a Python exception in the caller).

See docs/jax.md ("Lowering rules, custom calls and host callbacks").
"""

from __future__ import annotations

import ctypes
import dataclasses
import itertools
import threading
import traceback

import numpy as np

PLATFORM = "floors"
CALLBACK_TARGET = "floors_python_callback"
STAGES = ("instantiate", "prepare", "initialize", "execute")

_lib: ctypes.CDLL | None = None
_explicit: set = set()  # primitives with a rule registered for floors itself
_installed = False


def install(library_path: str) -> None:
    """Installs the rules, targets and callbacks (once per process)."""
    global _lib, _installed
    if _installed:
        return
    _lib = ctypes.CDLL(library_path)
    _lib.floors_pjrt_register_ffi_target.restype = ctypes.c_int
    _lib.floors_pjrt_register_ffi_target.argtypes = [ctypes.c_char_p] + [ctypes.c_void_p] * 4 + [ctypes.c_char_p, ctypes.c_size_t]
    _lib.floors_pjrt_set_python_callback.restype = ctypes.c_int
    _lib.floors_pjrt_set_python_callback.argtypes = [_TRAMPOLINE_TYPE]
    _install_custom_call_handler()
    _install_lowering_rules()
    _install_lapack()
    _install_callbacks()
    _installed = True


# ---------------------------------------------------------------- lowering rules


def _install_lowering_rules() -> None:
    from jax._src.interpreters import mlir

    specific = mlir._platform_specific_lowerings
    for prim, entry in list(specific["cpu"].items()):
        specific[PLATFORM].setdefault(prim, entry)
    original = mlir.register_lowering

    def register_lowering(prim, rule, platform=None, *args, **kwargs):
        original(prim, rule, platform, *args, **kwargs)
        if platform == PLATFORM:
            _explicit.add(prim)
        elif platform == "cpu" and prim not in _explicit:
            original(prim, rule, PLATFORM, *args, **kwargs)

    register_lowering.__doc__ = original.__doc__
    register_lowering.__wrapped__ = original
    mlir.register_lowering = register_lowering


# ---------------------------------------------------------------- custom calls


def _capsule_pointer(capsule) -> int | None:
    if capsule is None:
        return None
    if isinstance(capsule, int):
        return capsule
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return get_pointer(capsule, get_name(capsule))


def register_ffi_target(name, fn, platform=PLATFORM, api_version=1, traits=None) -> None:
    """The custom-call handler JAX calls for platform ``floors``."""
    if isinstance(name, bytes):
        name = name.decode()
    if api_version != 1:
        raise ValueError(
            f"floors: custom-call target `{name}`: api_version={api_version} (the untyped custom-call ABI) "
            "is not supported; floors runs typed XLA FFI handlers (api_version=1)")
    stages = dict(fn) if isinstance(fn, dict) else {"execute": fn}
    unknown = sorted(set(stages) - set(STAGES))
    if unknown:
        raise ValueError(f"floors: custom-call target `{name}`: unknown stage(s) {unknown}; stages are {list(STAGES)}")
    if stages.get("execute") is None:
        raise ValueError(f"floors: custom-call target `{name}` has no execute stage")
    err = ctypes.create_string_buffer(4096)
    rc = _lib.floors_pjrt_register_ffi_target(
        name.encode(), *(_capsule_pointer(stages.get(s)) for s in STAGES), err, len(err))
    if rc != 0:
        raise RuntimeError(f"floors: registering custom-call target `{name}`: {err.value.decode(errors='replace')}")


def _install_custom_call_handler() -> None:
    from jax._src.lib import xla_client

    xla_client.register_custom_call_handler(PLATFORM, register_ffi_target)


def _install_lapack() -> None:
    try:
        from jaxlib import lapack
    except ImportError:  # a jaxlib without LAPACK kernels: jnp.linalg reports the missing target
        return
    for name, fn, api_version in lapack.registrations().get("cpu", []):
        if api_version == 1:
            register_ffi_target(name, fn)


# ---------------------------------------------------------------- host callbacks


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int32), ("rank", ctypes.c_int32),
                ("dims", ctypes.POINTER(ctypes.c_int64))]


_TRAMPOLINE_TYPE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint64, ctypes.POINTER(_Buffer), ctypes.c_size_t,
                                    ctypes.POINTER(_Buffer), ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t)


def _dtypes() -> dict[int, np.dtype]:
    import ml_dtypes

    # XLA_FFI_DataType (XLA's PrimitiveType numbering).
    return {1: np.dtype(np.bool_), 2: np.dtype(np.int8), 3: np.dtype(np.int16), 4: np.dtype(np.int32),
            5: np.dtype(np.int64), 6: np.dtype(np.uint8), 7: np.dtype(np.uint16), 8: np.dtype(np.uint32),
            9: np.dtype(np.uint64), 10: np.dtype(np.float16), 11: np.dtype(np.float32), 12: np.dtype(np.float64),
            15: np.dtype(np.complex64), 16: np.dtype(ml_dtypes.bfloat16), 18: np.dtype(np.complex128)}


@dataclasses.dataclass
class _Callback:
    fn: object
    result_avals: tuple


_callbacks: dict[int, _Callback] = {}
_ids = itertools.count(1)
_callbacks_lock = threading.Lock()
_DTYPES: dict[int, np.dtype] = {}


def _view(buf: _Buffer) -> tuple[np.dtype, tuple[int, ...], int]:
    if not _DTYPES:
        _DTYPES.update(_dtypes())
    dtype = _DTYPES.get(buf.dtype)
    if dtype is None:
        raise TypeError(f"element type {buf.dtype} (XLA_FFI_DataType) cannot cross a host callback")
    shape = tuple(buf.dims[i] for i in range(buf.rank))
    return dtype, shape, int(np.prod(shape, dtype=np.int64)) * dtype.itemsize


def _trampoline(callback_id, args, nargs, rets, nrets, err, err_len):
    try:
        cb = _callbacks.get(callback_id)
        if cb is None:
            raise RuntimeError(f"no host callback with id {callback_id} in this process")
        inputs = []
        for i in range(nargs):
            dtype, shape, nbytes = _view(args[i])
            a = np.empty(shape, dtype)
            if nbytes:
                ctypes.memmove(a.ctypes.data, args[i].data, nbytes)
            inputs.append(a)
        outputs = cb.fn(*inputs)
        outputs = _checked(outputs, cb.result_avals)
        if len(outputs) != nrets:
            raise RuntimeError(f"the call has {nrets} result buffers for {len(outputs)} results")
        for i, out in enumerate(outputs):
            dtype, shape, nbytes = _view(rets[i])
            out = np.ascontiguousarray(out, dtype=dtype)
            if out.shape != shape:
                raise RuntimeError(f"result #{i}: shape {out.shape}, the call's buffer is {shape}")
            if nbytes:
                ctypes.memmove(rets[i].data, out.ctypes.data, nbytes)
        return 0
    except BaseException as e:  # noqa: BLE001 - every error goes back to the caller
        msg = "".join(traceback.format_exception_only(type(e), e)).strip()
        data = msg.encode(errors="replace")[: max(err_len - 1, 0)] + b"\0"
        if err and err_len:
            ctypes.memmove(err, data, len(data))
        return 1


_trampoline_c = _TRAMPOLINE_TYPE(_trampoline)


def _checked(outputs, result_avals):
    """JAX's checks of a callback's results (count, shape, dtype)."""
    from jax._src import dtypes

    if len(outputs) != len(result_avals):
        raise RuntimeError("Mismatched number of outputs from callback. "
                           f"Expected: {len(result_avals)}, Actual: {len(outputs)}")
    outputs = tuple(dtypes.canonicalize_value(np.asarray(a)) for a in outputs)
    for i, (out, aval) in enumerate(zip(outputs, result_avals)):
        if out.shape != aval.shape:
            raise RuntimeError(f"Incorrect output shape for return value #{i}: "
                               f"Expected: {aval.shape}, Actual: {out.shape}")
        if out.dtype != aval.dtype:
            raise RuntimeError(f"Incorrect output dtype for return value #{i}: "
                               f"Expected: {aval.dtype}, Actual: {out.dtype}")
    return outputs


def _install_callbacks() -> None:
    from jax._src import callback as callback_module
    from jax._src import ffi

    _lib.floors_pjrt_set_python_callback(_trampoline_c)
    original = callback_module.emit_python_callback

    def emit_python_callback(ctx, callback, token, operands, operand_avals, result_avals, *,
                             has_side_effect, returns_token=True, partitioned=False, sharding=None):
        platforms = ctx.module_context.platforms
        if tuple(platforms) != (PLATFORM,):
            return original(ctx, callback, token, operands, operand_avals, result_avals,
                            has_side_effect=has_side_effect, returns_token=returns_token,
                            partitioned=partitioned, sharding=sharding)
        if partitioned and result_avals:
            raise ValueError("Partitioned callback not supported with return values.")
        with _callbacks_lock:
            callback_id = next(_ids)
            _callbacks[callback_id] = _Callback(callback, tuple(result_avals))
        # One device: the call runs where it is in program order when it has
        # side effects (floors keeps the order of side-effecting calls), so the
        # token passes through unchanged.
        call_ctx = dataclasses.replace(ctx, avals_in=list(operand_avals), avals_out=list(result_avals))
        result = ffi.build_ffi_lowering_function(CALLBACK_TARGET, has_side_effect=has_side_effect)(
            call_ctx, *operands, callback_id=np.uint64(callback_id))
        return list(result.results), token, callback

    emit_python_callback.__wrapped__ = original
    callback_module.emit_python_callback = emit_python_callback
