"""floors' `tpu` dialect against jaxlib 0.10.2's own (the oracle).

floors parses and prints each Mosaic kernel of the corpus with its dialect
(mlir-opt with `libfloors_plugin.so`: the floors CLI has no parse-and-print
command), and jaxlib's `tpu` dialect must accept that text (parse + verify)
and print it the same way. floors' wire form (`floors-tpu-serde`) must
deserialize with jaxlib's `mosaic-serde{serialize=false}` and verify with
unregistered dialects disallowed. `lit-tests/dialects/tpu/ops.mlir` (one use
of every op floors defines) is checked the same way.

Needs the built plugin (`FLOORS_PLUGIN`, target/{debug,release}/ or its deps/) and
LLVM 22's mlir-opt (`FLOORS_LLVM_BIN`); skips without them, except under
CI=1.
"""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("FLOORS_CORPUS", REPO.parent / "shared" / "corpus")) / "mosaic"
KERNELS = sorted(p.name[: -len(".mosaic.mlir")] for p in CORPUS.glob("*.mosaic.mlir"))


def _missing(reason: str):
    if os.environ.get("CI"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def floors_opt():
    """Runs mlir-opt with floors' plugin on text; returns stdout."""
    plugin = os.environ.get("FLOORS_PLUGIN")
    if not plugin:
        # `cargo build` puts it in target/<profile>/, `cargo test` in .../deps/.
        for profile in ("debug", "release"):
            for cand in (REPO / "target" / profile / "libfloors_plugin.so", REPO / "target" / profile / "deps" / "libfloors_plugin.so"):
                if cand.exists():
                    plugin = str(cand)
                    break
            if plugin:
                break
    if not plugin or not Path(plugin).exists():
        _missing("libfloors_plugin.so not built (cargo build -p floors-plugin)")
    mlir_opt = Path(os.environ.get("FLOORS_LLVM_BIN", "/usr/lib/llvm-22/bin")) / "mlir-opt"
    if not mlir_opt.exists():
        _missing(f"{mlir_opt} not found")

    def run(text: str, *args: str) -> str:
        cmd = [str(mlir_opt), f"--load-dialect-plugin={plugin}", f"--load-pass-plugin={plugin}", *args, "-"]
        out = subprocess.run(cmd, input=text, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout

    return run


@pytest.fixture(scope="module")
def jaxlib_ir():
    """(make_context, ir, passmanager) of jaxlib with its tpu dialect."""
    try:
        from jax._src.interpreters import mlir as jax_mlir
        from jax._src.lib import tpu
        from jaxlib.mlir import ir, passmanager
    except Exception as e:  # noqa: BLE001 - any reason jaxlib is unusable
        _missing(f"jaxlib with the tpu dialect unavailable: {e}")

    def make_context():
        ctx = jax_mlir.make_ir_context()
        tpu.register_dialect(ctx)
        return ctx

    return make_context, ir, passmanager


def test_corpus_present():
    assert len(KERNELS) >= 5, f"Mosaic corpus missing at {CORPUS}"


def _jaxlib_reprint(jaxlib_ir, text: str) -> str:
    make_context, ir, _ = jaxlib_ir
    with make_context():
        module = ir.Module.parse(text)
        assert module.operation.verify()
        return str(module)


@pytest.mark.parametrize("kernel", KERNELS)
def test_jaxlib_accepts_floors_text(kernel, floors_opt, jaxlib_ir):
    source = (CORPUS / f"{kernel}.mosaic.mlir").read_text()
    ours = floors_opt(source)
    assert ours.rstrip("\n") == source.rstrip("\n"), "floors prints the kernel differently from jaxlib"
    assert _jaxlib_reprint(jaxlib_ir, ours).rstrip("\n") == ours.rstrip("\n")


def test_jaxlib_accepts_every_floors_op(floors_opt, jaxlib_ir):
    source = (REPO / "lit-tests" / "dialects" / "tpu" / "ops.mlir").read_text()
    ours = floors_opt(source)
    assert _jaxlib_reprint(jaxlib_ir, ours).rstrip("\n") == ours.rstrip("\n")
    generic = floors_opt(source, "--mlir-print-op-generic")
    make_context, ir, _ = jaxlib_ir
    with make_context():
        module = ir.Module.parse(generic)
        assert module.operation.verify()
        assert module.operation.get_asm(print_generic_op_form=True).rstrip("\n") == generic.rstrip("\n")


@pytest.mark.parametrize("kernel", KERNELS)
def test_jaxlib_deserializes_floors_wire_form(kernel, floors_opt, jaxlib_ir):
    source = (CORPUS / f"{kernel}.mosaic.mlir").read_text()
    wire = floors_opt(
        source,
        "--allow-unregistered-dialect",
        "--pass-pipeline=builtin.module(floors-tpu-serde)",
        "--mlir-print-op-generic",
    )
    assert "stable_mosaic.version = 11" in wire
    make_context, ir, passmanager = jaxlib_ir
    with make_context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(wire)
        passmanager.PassManager.parse("builtin.module(mosaic-serde{serialize=false})").run(module.operation)
        ctx.allow_unregistered_dialects = False
        assert module.operation.verify()
        assert str(module).rstrip("\n") == source.rstrip("\n")


# ---- kernels floors' TPU floor emits ----------------------------------------

PUBLIC = CORPUS.parent / "public"
# Every public program: the TPU floor lowers them all.
TPU_PROGRAMS = sorted(p.name[: -len(".stablehlo.mlir")] for p in PUBLIC.glob("*.stablehlo.mlir"))


def _floors_cli():
    for profile in ("debug", "release"):
        cand = REPO / "target" / profile / "floors"
        if cand.exists():
            return cand
    _missing("the floors CLI is not built (cargo build)")


@pytest.mark.parametrize("program", TPU_PROGRAMS)
def test_jaxlib_accepts_floors_tpu_kernels(program, jaxlib_ir):
    """Every kernel floors emits for a public program, as its hand-off body:
    jaxlib decodes the bytecode, deserializes the wire form with its own
    `mosaic-serde` and verifies the kernel with its own tpu dialect."""
    _check_handoff(PUBLIC / f"{program}.stablehlo.mlir", jaxlib_ir)


def _jax_programs():
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    f32 = lambda *s: np.zeros(s, np.float32)  # noqa: E731
    i32 = lambda *s: np.zeros(s, np.int32)  # noqa: E731
    nhwc = ("NHWC", "HWIO", "NHWC")

    def conv(x, w, s=1):
        return lax.conv_general_dilated(x, w, (s, s), "SAME", dimension_numbers=nhwc)

    def pool(x):
        return lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")

    return {
        "conv": (conv, (f32(1, 16, 16, 8), f32(3, 3, 8, 16))),
        "conv_grads_strided": (jax.grad(lambda x, w: jnp.sum(conv(x, w, 2)), argnums=(0, 1)), (f32(2, 12, 12, 4), f32(3, 3, 4, 8))),
        "max_pool_and_grad": (lambda x: (pool(x), jax.grad(lambda x: jnp.sum(pool(x)))(x)), (f32(2, 16, 16, 128),)),
        "cumsum": (lambda x: jnp.cumsum(x, axis=1), (f32(8, 256),)),
        "top_k": (lambda x: lax.top_k(x, 8), (f32(16, 128),)),
        "scatter_add_rows": (lambda x, i, u: x.at[i].add(u), (f32(64, 128), i32(16), f32(16, 128))),
        "segment_sum": (lambda d, s: jax.ops.segment_sum(d, s, num_segments=8), (f32(32, 128), i32(32))),
        "dot_highest": (lambda a, b: jnp.dot(a, b, precision=lax.Precision.HIGHEST), (f32(64, 256), f32(256, 128))),
    }


@pytest.mark.parametrize(
    "name", ["conv", "conv_grads_strided", "max_pool_and_grad", "cumsum", "top_k", "scatter_add_rows", "segment_sum", "dot_highest"]
)
def test_jaxlib_accepts_floors_windowed_sorted_and_scattering_kernels(name, jaxlib_ir, tmp_path):
    """The kernels of the TPU floor's convolutions (shifted matmuls), pools
    and their gradients, scans, top_k, row scatters (DMAs into an aliased
    output) and a HIGHEST dot (`#tpu.contract_precision<fp32>`), from JAX
    programs: jaxlib verifies each hand-off body."""
    import jax

    f, args = _jax_programs()[name]
    path = tmp_path / f"{name}.mlir"
    path.write_text(jax.jit(f).lower(*args).as_text())
    _check_handoff(path, jaxlib_ir)


def _check_handoff(path, jaxlib_ir):
    import base64
    import json
    import re

    out = subprocess.run(
        [str(_floors_cli()), "compile", "--target", "tpu", "--emit", "tpu-handoff", str(path)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    configs = re.findall(r'backend_config = "((?:[^"\\]|\\.)*)"', out.stdout)
    assert configs, "no tpu_custom_call in the hand-off"
    make_context, ir, passmanager = jaxlib_ir
    for escaped in configs:
        # MLIR prints a string attribute's quotes as \22.
        config = json.loads(escaped.replace("\\22", '"'))["custom_call_config"]
        assert config["serialization_format"] == 1 and config["needs_layout_passes"] is True
        body = base64.b64decode(config["body"])
        with make_context() as ctx:
            ctx.allow_unregistered_dialects = True
            module = ir.Module.parse(body)
            assert module.operation.attributes["stable_mosaic.version"].value == 11
            passmanager.PassManager.parse("builtin.module(mosaic-serde{serialize=false})").run(module.operation)
            ctx.allow_unregistered_dialects = False
            assert module.operation.verify()
            text = str(module)
            assert "tpu.core_type = #tpu.core_type<tc>" in text
