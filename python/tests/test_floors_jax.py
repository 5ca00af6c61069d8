"""JAX on floors through the PJRT plugin: `jax.jit(f)(*args)` on the floors
device against the same call on XLA:CPU, for the jax functions behind
floors' corpus (public and bench) and `scripts/jax_check.py`'s programs;
and errors (an unsupported op, a shape mismatch, a compile error) that
reach Python as exceptions carrying floors' message, the process alive.
"""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import corpus_fns
import jax_check

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("FLOORS_CORPUS", REPO.parent / "shared" / "corpus"))
PUBLIC = CORPUS / "public"
BENCH = CORPUS / "bench"


def normalize(text: str) -> str:
    """The module without locations and trailing blanks."""
    lines = [l for l in text.splitlines() if not l.startswith("#loc")]
    text = re.sub(r"\s+loc\((?:[^()]|\([^()]*\))*\)", "", "\n".join(lines))
    return "\n".join(l.rstrip() for l in text.strip().splitlines())


def run_both(f, args, devices):
    """f jitted on floors and on XLA:CPU, each on its own committed inputs."""
    floors, cpu = devices
    got = jax.jit(f)(*jax.device_put(args, floors))
    want = jax.jit(f)(*jax.device_put(args, cpu))
    got, want = jax.tree.leaves(got), jax.tree.leaves(want)
    assert len(got) == len(want)
    for g in got:
        assert g.devices() == {floors}, g.devices()
    return [np.asarray(g) for g in got], [np.asarray(w) for w in want]


def assert_close(got, want, rtol, atol, what=""):
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape and g.dtype == w.dtype, f"{what} out{k}: {g.dtype}{g.shape} vs {w.dtype}{w.shape}"
        if rtol == 0 and atol == 0:
            np.testing.assert_array_equal(g, w, err_msg=f"{what} out{k}")
        else:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=f"{what} out{k}")


# --------------------------------------------------------------- devices ---


def test_floors_is_a_jax_device(devices):
    floors, _ = devices
    assert floors.platform == "floors"
    assert floors.device_kind == "floors cpu"
    assert floors.id == 0
    # conftest.py asks for FLOORS_DEVICE_COUNT=4: floors:0 is the first.
    assert jax.devices("floors")[0] == floors
    assert [d.id for d in jax.devices("floors")] == list(range(int(os.environ.get("FLOORS_DEVICE_COUNT", "1"))))
    x = jax.device_put(np.arange(6, dtype=np.float32).reshape(2, 3), floors)
    assert x.devices() == {floors}
    np.testing.assert_array_equal(np.asarray(x), np.arange(6, dtype=np.float32).reshape(2, 3))


def test_jax_platforms_floors_alone(devices):
    """`JAX_PLATFORMS=floors python prog.py`: floors is the default device."""
    prog = (
        "import jax, jax.numpy as jnp, numpy as np\n"
        "print(jax.devices())\n"
        "x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)\n"
        "y = jax.jit(lambda a: jnp.tanh(a) @ a.T)(x)\n"
        "print(y.devices(), float(np.abs(np.asarray(y) - np.tanh(x) @ x.T).max()))\n"
    )
    env = dict(os.environ, JAX_PLATFORMS="floors", FLOORS_DEVICE_COUNT="1", PYTHONPATH=os.pathsep.join([str(REPO / "python"), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-c", prog], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "[FloorsDevice(id=0)]", r.stdout
    assert lines[1].startswith("{FloorsDevice(id=0)}") and float(lines[1].split()[-1]) < 1e-5, r.stdout


def test_compiled_executable_metadata(devices):
    """What JAX asks a compiled program: output shapes, memory and cost."""
    floors, _ = devices
    x = jax.device_put(np.ones((4, 8), np.float32), floors)
    compiled = jax.jit(lambda a: (a.sum(0), a.astype(jnp.int32))).lower(x).compile()
    out = compiled(x)
    assert [o.shape for o in out] == [(8,), (4, 8)] and out[1].dtype == jnp.int32
    mem = compiled.memory_analysis()
    assert mem.argument_size_in_bytes == 128 and mem.output_size_in_bytes == 32 + 128
    assert compiled.cost_analysis()["bytes accessed"] == 128 + 32 + 128


# ---------------------------------------------------------------- corpus ---


def _manifest():
    path = PUBLIC / "manifest.json"
    return json.loads(path.read_text())["programs"] if path.exists() else {}


def _public_inputs(name):
    return [np.load(PUBLIC / f"{name}.in{k}.npy") for k in range(len(_manifest()[name]["inputs"]))]


@pytest.mark.parametrize("name", sorted(corpus_fns.PUBLIC))
def test_public_corpus_functions_lower_to_the_corpus(name, devices):
    if not (PUBLIC / f"{name}.stablehlo.mlir").exists():
        pytest.fail(f"{PUBLIC}/{name}.stablehlo.mlir is missing")
    lowered = jax.jit(corpus_fns.PUBLIC[name]).lower(*jax.device_put(_public_inputs(name), devices[1]))
    text = normalize(lowered.as_text())
    # Committed inputs add Shardy's trivial one-device annotations; the corpus has none.
    text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("sdy.mesh"))
    text = re.sub(r" \{sdy\.sharding = #sdy\.sharding<[^>]*>\}", "", text)
    assert text == normalize((PUBLIC / f"{name}.stablehlo.mlir").read_text())


@pytest.mark.parametrize("name", sorted(corpus_fns.PUBLIC))
def test_public_corpus(name, devices):
    args = _public_inputs(name)
    got, want = run_both(corpus_fns.PUBLIC[name], args, devices)
    assert_close(got, want, 1e-4, 1e-4, f"{name} vs XLA:CPU")
    # And the corpus' own expected outputs (bool and bf16 stored as the corpus stores them).
    expected = [np.load(PUBLIC / f"{name}.out{k}.npy") for k in range(len(want))]
    assert_close(got, [e.astype(g.dtype) for e, g in zip(expected, got)], 1e-4, 1e-4, f"{name} vs the corpus")


def _bench_functions():
    """scripts/bench.py's jax functions (`JAX_FNS`), without running its
    command line: the function definitions and the table, taken from its AST."""
    src = (REPO / "scripts" / "bench.py").read_text()
    tree = ast.parse(src)
    table = next(n for n in tree.body if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "JAX_FNS" for t in n.targets))
    wanted = {v.id for v in table.value.values}
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in wanted]
    ns = {"jax": jax, "jnp": jnp, "lax": lax, "np": np}
    exec(compile(ast.Module(body=defs + [table], type_ignores=[]), str(REPO / "scripts" / "bench.py"), "exec"), ns)
    return ns["JAX_FNS"]


BENCH_FNS = _bench_functions()
# Run smaller than the corpus where the corpus size is slow for a test (4096^3 matmul).
BENCH_RUN_SHAPES = {"matmul": [(512, 512), (512, 512)]}


def _bench_signature(name):
    text = (BENCH / f"{name}.stablehlo.mlir").read_text()
    m = re.search(r"func\.func\s+public\s+@main\((.*?)\)\s*->", text)
    return [tuple(int(d) for d in t.split("x")[:-1]) for t in re.findall(r"%\w+:\s*tensor<([^>]*)>", m.group(1))]


@pytest.mark.parametrize("name", sorted(BENCH_FNS))
def test_bench_corpus(name, devices):
    shapes = _bench_signature(name)
    specs = [jax.ShapeDtypeStruct(s, jnp.float32) for s in shapes]
    assert normalize(jax.jit(BENCH_FNS[name]).lower(*specs).as_text()) == normalize((BENCH / f"{name}.stablehlo.mlir").read_text())
    rng = np.random.default_rng(0)  # as scripts/bench.py makes them
    args = [rng.standard_normal(s, dtype=np.float32) for s in BENCH_RUN_SHAPES.get(name, shapes)]
    got, want = run_both(BENCH_FNS[name], args, devices)
    if all(np.allclose(g, w, rtol=1e-4, atol=1e-4) for g, w in zip(got, want)):
        return
    # bench.py's second opinion: long f32 sums round differently in every
    # order, so both against the function in float64 (atol scaled by |ref|).
    with jax.enable_x64(True):
        ref = jax.tree.leaves(jax.jit(BENCH_FNS[name])(*jax.device_put([a.astype(np.float64) for a in args], devices[1])))
    for g, r in zip(got, map(np.asarray, ref)):
        np.testing.assert_allclose(g, r, rtol=1e-4, atol=1e-4 * max(1.0, float(np.max(np.abs(r)))), err_msg=name)


@pytest.mark.parametrize("name", sorted(jax_check.PROGRAMS))
def test_jax_check_programs(name, devices):
    f, args, tol = jax_check.PROGRAMS[name]
    got, want = run_both(f, args, devices)
    assert_close(got, want, tol, tol, name)


def test_dtypes_round_trip(devices):
    """Every element type floors has goes to the device and back unchanged,
    and through a program."""
    floors, _ = devices
    rng = np.random.default_rng(1)
    for dtype in [np.bool_, np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32, np.float16, np.float32, jnp.bfloat16]:
        x = (rng.standard_normal((3, 5)) * 10).astype(dtype)
        y = jax.device_put(x, floors)
        assert y.dtype == x.dtype
        np.testing.assert_array_equal(np.asarray(y), x, err_msg=str(dtype))
        got, want = run_both(lambda a: jnp.flip(a, 0)[1:], [x], devices)
        assert_close(got, want, 0, 0, str(dtype))
    # Strided host arrays (numpy views) arrive dense.
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    np.testing.assert_array_equal(np.asarray(jax.device_put(x.T, floors)), x.T)
    np.testing.assert_array_equal(np.asarray(jax.device_put(x[::2, ::-3], floors)), x[::2, ::-3])


# Shapes the CPU floor's elementwise schedule takes three ways: an inner dim
# that whole vector tiles divide, one with a peeled remainder tile, and one
# smaller than a tile (a single vector of its size).
VECTOR_SHAPES = [(4, 512), (3, 100), (37,)]
INT_DTYPES = [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32]
FLOAT_DTYPES = [np.float16, jnp.bfloat16, np.float32]


def _int_program(a, b):
    d = b | 1  # no division by zero (XLA's and floors' x/0 agree, but not the point here)
    shift = (b & 7).astype(a.dtype)
    return (a + b * 3, a * b, a // d, a % d, jnp.maximum(a, b), jnp.where(a > b, a - b, b ^ a),
            a >> shift, a << shift, jnp.abs(a) if jnp.issubdtype(a.dtype, jnp.signedinteger) else ~a,
            a.astype(jnp.float32) * 0.5, (a < b), lax.population_count(a))


def _float_program(a, b):
    return (jnp.maximum(a * b + a, b - a) / (jnp.abs(b) + 1), jnp.where(a > b, a, -b), jnp.floor(a * 3),
            jnp.sqrt(jnp.abs(a)), a.astype(jnp.float32) + 1, jnp.clip(a, -1, 1), jnp.sign(b) * jnp.round(a))


def _math_program(a, b):
    # Transcendentals on every float type: f32 takes the polynomial forms,
    # f16/bf16 the same through f32, f64 lanes libm (no f64 forms yet).
    x, y = a / 4, jnp.abs(b) / 4 + 0.25
    return (jnp.exp(x), jnp.log(y), jnp.log1p(y), jnp.expm1(x), jnp.tanh(a), jax.nn.sigmoid(a),
            lax.erf(x), jnp.sin(a), jnp.cos(a), y ** x, jnp.arctan2(a, b), jnp.cbrt(a), lax.rsqrt(y))


def _elementwise_args(dtype, shape, rng):
    if jnp.issubdtype(dtype, jnp.integer):
        info = np.iinfo(dtype)
        lo, hi = max(int(info.min), -1000), min(int(info.max), 1000)
        return [rng.integers(lo, hi, shape).astype(dtype), rng.integers(lo, hi, shape).astype(dtype)]
    return [(rng.standard_normal(shape) * 4).astype(dtype), (rng.standard_normal(shape) * 4).astype(dtype)]


def _check_elementwise(dtype, devices):
    rng = np.random.default_rng(7)
    programs = [_int_program] if jnp.issubdtype(dtype, jnp.integer) else [_float_program, _math_program]
    tol = {np.dtype(np.float16): 2e-3, np.dtype(jnp.bfloat16): 1.6e-2, np.dtype(np.float32): 2e-6}.get(np.dtype(dtype), 1e-13)
    for shape, program in ((s, p) for s in VECTOR_SHAPES for p in programs):
        got, want = run_both(program, _elementwise_args(dtype, shape, rng), devices)
        for k, (g, w) in enumerate(zip(got, want)):
            what = f"{np.dtype(dtype).name}{shape} out{k}"
            if jnp.issubdtype(w.dtype, jnp.floating):
                assert_close([g], [w], tol, tol, what)
            else:
                assert_close([g], [w], 0, 0, what)


@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_elementwise_every_element_type(dtype, devices):
    """Elementwise fusions of every 8-32-bit element type (vectorized by the
    CPU floor, tiles sized by the widest element) match XLA:CPU, on shapes
    with whole tiles, a peeled tail and a single short vector."""
    _check_elementwise(dtype, devices)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.float64], ids=lambda d: np.dtype(d).name)
def test_elementwise_64_bit_element_types(dtype, devices):
    """The same with x64 enabled: i64, ui64 and f64 lanes."""
    with jax.enable_x64(True):
        _check_elementwise(dtype, devices)


def _special_floats(dtype, shape, rng):
    info = jnp.finfo(dtype)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, float(info.max), -float(info.max), float(info.tiny),
                        float(info.tiny) / 8, 1.0, -1.5, 65504.0, 65520.0, 1e-8, 3.0e38], np.float64)
    x = (rng.standard_normal(shape) * np.exp2(rng.integers(-30, 30, shape))).astype(np.float64)
    x.flat[: special.size] = special
    with np.errstate(over="ignore"):
        return x.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float16, jnp.bfloat16, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_reduce_precision(dtype, devices):
    """`reduce_precision` to formats narrower and wider than the type (round
    to nearest even, overflow to inf, underflow to 0, NaN kept) matches
    XLA:CPU bit for bit, special values included."""
    rng = np.random.default_rng(11)

    def program(x):
        return tuple(lax.reduce_precision(x, exponent_bits=e, mantissa_bits=m)
                     for e, m in [(5, 10), (8, 7), (4, 3), (5, 2), (1, 0), (2, 1), (11, 52), (8, 23)])

    with jax.enable_x64(dtype == np.float64):
        got, want = run_both(program, [_special_floats(dtype, (5, 130), rng)], devices)
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_array_equal(np.asarray(g).view(f"u{np.dtype(dtype).itemsize}"),
                                      np.asarray(w).view(f"u{np.dtype(dtype).itemsize}"), err_msg=f"format {k}")


def test_f64_exp_vector_form(devices):
    """f64 exp is floors' own vector form (not libm per lane): within 1 ulp
    of numpy over the whole range, subnormal results, overflow, NaN and the
    infinities exactly."""
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.uniform(-750, 715, 200_000), rng.uniform(-1, 1, 20_000), rng.uniform(-745.2, -708, 20_000),
                        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 709.782712893384, 709.7827128933841,
                                  -745.1332191019411, -745.1332191019412, 5e-324, 710.0, -746.0] * 16)])
    x = x.reshape(-1, 64)
    with jax.enable_x64(True):
        got, want = run_both(jnp.exp, [x], devices)
    got, ref = got[0], np.exp(x)
    assert np.array_equal(np.isnan(got), np.isnan(ref))
    finite = np.isfinite(ref)
    assert np.array_equal(got[~finite & ~np.isnan(ref)], ref[~finite & ~np.isnan(ref)])
    ulp = np.abs(got[finite] - ref[finite]) / np.spacing(np.abs(ref[finite]))
    assert ulp.max() <= 1.0, ulp.max()


@pytest.mark.parametrize("algorithm", ["RNG_DEFAULT", "RNG_PHILOX", "RNG_THREE_FRY"])
def test_rng_bit_generator_bit_exact(algorithm, devices):
    """`rng_bit_generator` gives XLA:CPU's bits and new state (DEFAULT is
    Philox there), for every unsigned width and shapes that split evenly,
    oddly, not at all (scalars) or are empty."""
    alg = getattr(lax.RandomAlgorithm, algorithm)
    rng = np.random.default_rng(11)
    for dt in (jnp.uint8, jnp.uint16, jnp.uint32, jnp.uint64):
        for shape in ((), (1,), (7,), (2, 3), (3, 5), (4, 6, 5), (5, 3, 7), (0, 3)):
            key = rng.integers(0, 2**32, 4, dtype=np.uint32)
            with jax.enable_x64(True):
                got, want = run_both(lambda k: lax.rng_bit_generator(k, shape, dtype=dt, algorithm=alg), [key], devices)
            for g, w in zip(got, want):
                g, w = np.asarray(g), np.asarray(w)
                assert g.shape == w.shape and g.dtype == w.dtype, (dt, shape)
                np.testing.assert_array_equal(g, w, err_msg=f"{dt.__name__} {shape}")


@pytest.mark.parametrize("impl", ["rbg", "unsafe_rbg"])
def test_rbg_prng_matches_xla(impl, devices):
    """JAX's `rbg` PRNG (rng_bit_generator under jax.random): uniform,
    bernoulli, randint after split, permutation bit for bit; normal to a few
    ulp (its erf_inv is floors' own expansion)."""
    fns = [
        (lambda k: jax.random.uniform(k, (33, 17)), 0),
        (lambda k: jax.random.bernoulli(k, 0.3, (100,)), 0),
        (lambda k: jax.random.randint(jax.random.split(k, 3)[1], (5, 5), 0, 100), 0),
        (lambda k: jax.random.permutation(k, 20), 0),
        (lambda k: jax.random.normal(jax.random.fold_in(k, 7), (64, 8)), 1e-6),
    ]
    data = np.asarray(jax.random.key_data(jax.random.key(42, impl=impl)))
    for f, tol in fns:
        got, want = run_both(lambda kd: f(jax.random.wrap_key_data(kd, impl=impl)), [data], devices)
        assert_close(got, want, tol, tol)


@pytest.mark.parametrize("preset,tol", [("F32_F32_F32", 1e-5), ("BF16_BF16_F32", 1e-5), ("BF16_BF16_F32_X3", 1e-5),
                                        ("BF16_BF16_F32_X6", 1e-5), ("F16_F16_F16", 2e-2), ("F64_F64_F64", 1e-5)])
def test_dot_algorithm_presets(preset, tol, devices):
    """`dot_general`'s `algorithm` (JAX's DotAlgorithmPreset) parses and
    computes at least as precisely as it asks (XLA:CPU computes the bf16
    presets in f32 as well)."""
    p = getattr(lax.DotAlgorithmPreset, preset)
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((16, 32)).astype(np.float32), rng.standard_normal((32, 8)).astype(np.float32)
    f = lambda x, y: lax.dot(x, y, precision=p)
    with jax.enable_x64(preset == "F64_F64_F64"):
        assert "algorithm = <" in jax.jit(f).lower(a, b).as_text()
        got, want = run_both(f, [a, b], devices)
    assert_close(got, want, tol, tol)


def _dot_layouts():
    rng = np.random.default_rng(9)
    r = lambda *s, dt=np.float32: rng.standard_normal(s).astype(dt)
    bf, f16 = jnp.bfloat16, np.float16
    return {
        "q_at_k_t": (lambda q, k: q @ k.T, [r(512, 64), r(512, 64)]),
        "a_bt_padded": (lambda a, b: jnp.einsum("qd,kd->qk", a, b), [r(100, 70), r(90, 70)]),
        "at_b": (lambda a, b: a.T @ b, [r(256, 128), r(256, 96)]),
        "at_bt": (lambda a, b: a.T @ b.T, [r(64, 96), r(128, 64)]),
        "bqd_bkd": (lambda a, b: jnp.einsum("bqd,bkd->bqk", a, b), [r(4, 128, 64), r(4, 96, 64)]),
        "bhqd_bhkd": (lambda a, b: jnp.einsum("bhqd,bhkd->bhqk", a, b), [r(2, 3, 64, 32), r(2, 3, 80, 32)]),
        "batch_in_the_middle": (lambda a, b: jnp.einsum("qbd,kbd->bqk", a, b), [r(64, 3, 32), r(48, 3, 32)]),
        "two_contracting": (lambda a, b: jnp.einsum("mij,nij->mn", a, b), [r(64, 8, 16), r(96, 8, 16)]),
        "two_free": (lambda a, b: jnp.einsum("abk,kcd->abcd", a, b), [r(8, 16, 64), r(64, 4, 32)]),
        "bf16_a_bt_f32": (lambda a, b: jnp.dot(a, b.T, preferred_element_type=jnp.float32), [r(256, 64, dt=bf), r(128, 64, dt=bf)]),
        "f16_bqd_bkd_f32": (lambda a, b: jnp.einsum("bqd,bkd->bqk", a, b, preferred_element_type=jnp.float32),
                            [r(2, 64, 32, dt=f16), r(2, 64, 32, dt=f16)]),
        "bf16_a_bt": (lambda a, b: a @ b.T, [r(128, 64, dt=bf), r(128, 64, dt=bf)]),
        # bf16 x bf16 on AVX-512 BF16: vdpbf16ps on pairs of K (the VNNI
        # packing); a bf16 result, batches, a remainder split off N, and an
        # odd K (widened to f32 instead).
        "bf16_vnni_f32": (lambda a, b: jnp.dot(a, b, preferred_element_type=jnp.float32), [r(256, 128, dt=bf), r(128, 96, dt=bf)]),
        "bf16_vnni_bf16_odd_n": (lambda a, b: a @ b, [r(130, 66, dt=bf), r(66, 200, dt=bf)]),
        "bf16_vnni_batch": (lambda a, b: jnp.einsum("bmk,bkn->bmn", a, b, preferred_element_type=jnp.float32),
                            [r(4, 64, 128, dt=bf), r(4, 128, 64, dt=bf)]),
        "bf16_vnni_odd_k": (lambda a, b: jnp.dot(a, b, preferred_element_type=jnp.float32), [r(128, 129, dt=bf), r(129, 96, dt=bf)]),
        "i32_a_bt": (lambda a, b: a @ b.T, [rng.integers(-5, 5, (64, 32)).astype(np.int32), rng.integers(-5, 5, (48, 32)).astype(np.int32)]),
        "attention": (lambda q, k, v: jax.nn.softmax(q @ k.T / 8, axis=-1) @ v, [r(512, 64), r(512, 64), r(512, 64)]),
        "odd_1000_cubed": (lambda a, b: jnp.tanh(a @ b), [r(1000, 1000), r(1000, 1000)]),
        "odd_999_1001_1003": (lambda a, b: a @ b, [r(999, 1001), r(1001, 1003)]),
        "odd_7_rows": (lambda a, b: a @ b, [r(7, 1000), r(1000, 1000)]),
        "odd_a_bt_513_40": (lambda a, b: a @ b.T, [r(513, 1000), r(40, 1000)]),
        "transpose_only": (lambda a, b: (a.T, jnp.transpose(b, (2, 0, 1))), [r(512, 64), r(16, 48, 32)]),
        "transpose_odd_and_int": (lambda a, b: (a.T * 2, b.T + 1), [r(50, 37), rng.integers(0, 100, (64, 48)).astype(np.int32)]),
    }


@pytest.mark.parametrize("name", sorted(_dot_layouts()))
def test_dot_general_layouts_and_transposes(name, devices):
    """Dots in every layout JAX writes — `q @ k.T` (a transpose folded into
    the dot by floors-cpu-fold-transposes), `x.T @ y`, batch dims leading,
    in the middle or several, several contracting or free dims, f16/bf16
    operands —, sizes no register tile divides (split into whole tiles and
    a padded remainder) and transposing copies (16x16 register tiles where
    they divide) against XLA:CPU. They were scalar loop nests before (A·Bᵀ
    512×512×64: 7.5 ms, now a packed matmul at 0.16 ms)."""
    f, args = _dot_layouts()[name]
    got, want = run_both(f, args, devices)
    narrow = any(a.dtype in (np.float16, jnp.bfloat16) for a in args)
    tol = 1e-2 if narrow else 1e-4
    assert_close([g.astype(np.float32) for g in got], [w.astype(np.float32) for w in want], tol, tol, name)


def test_gather_scatter_with_default_index_vector_dim(devices):
    """A scalar index gives `index_vector_dim = 0`, which StableHLO does not
    print: floors reads the default (it was a parse error)."""
    x = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    for f in (lambda x: jnp.take(x, jnp.int32(1), axis=1), lambda x: x.at[jnp.int32(1), 2].add(1.0),
              lambda x: x[jnp.int32(2)]):
        got, want = run_both(f, [x], devices)
        np.testing.assert_array_equal(np.asarray(got[0]), np.asarray(want[0]))


def test_f32_remainder_vector_form_is_exact(devices):
    """f32 `remainder` (fmod) is floors' vector form, not fmodf per lane: bit
    for bit C's fmod (numpy) over quotients up to 2^70, C99's special values
    pairwise and subnormal divisors (where XLA:CPU, flushing them to zero,
    returns NaN)."""
    rng = np.random.default_rng(8)
    n = 1 << 18
    x = (np.sign(rng.standard_normal(n)) * 2.0 ** rng.uniform(-30, 40, n)).astype(np.float32)
    y = (np.sign(rng.standard_normal(n)) * 2.0 ** rng.uniform(-30, 40, n)).astype(np.float32)
    sp = np.float32([0.0, -0.0, 1.0, -1.0, 3.0, -3.0, 0.5, np.inf, -np.inf, np.nan, 1e-45, 3e38, -4.0, 2.0])
    xs, ys = np.meshgrid(sp, sp)
    x = np.concatenate([x, xs.ravel(), rng.uniform(-100, 100, n).astype(np.float32)])
    y = np.concatenate([y, ys.ravel(), rng.uniform(-10, 10, n).astype(np.float32)])
    pad = (-x.size) % 1024
    x, y = np.concatenate([x, x[:pad]]).reshape(-1, 1024), np.concatenate([y, y[:pad]]).reshape(-1, 1024)
    floors, _ = devices
    got = np.asarray(jax.jit(lax.rem)(jax.device_put(x, floors), jax.device_put(y, floors)))
    with np.errstate(all="ignore"):
        ref = np.fmod(x, y)
    same = (got.view(np.uint32) == ref.view(np.uint32)) | (np.isnan(got) & np.isnan(ref))
    assert same.all(), (x[~same][:5], y[~same][:5], got[~same][:5], ref[~same][:5])


def test_composite_is_its_decomposition(devices):
    """`lax.composite` lowers to `stablehlo.composite`, whose meaning is its
    decomposition: floors inlines it (two composites of one name with
    different attributes, so two decompositions)."""
    from functools import partial

    @partial(lax.composite, name="floors.test.gelu")
    def gelu(x, approximate=True):
        return jax.nn.gelu(x, approximate=approximate)

    def f(x):
        return gelu(x, approximate=False) * 2 + gelu(x[::-1])

    x = np.random.default_rng(3).standard_normal((16, 64)).astype(np.float32)
    assert "stablehlo.composite" in jax.jit(f).lower(x).as_text()
    got, want = run_both(f, [x], devices)
    assert_close(got, want, 1e-5, 1e-6)


@pytest.mark.parametrize("src,dst", [(np.uint32, np.uint8), (np.float32, np.float16), (np.float64, np.float32),
                                     (np.int64, np.int8), (np.uint8, np.float32), (jnp.bfloat16, np.int32),
                                     (np.int16, np.float64), (np.float32, np.uint64)],
                         ids=lambda d: np.dtype(d).name)
def test_bitcast_convert_between_widths(src, dst, devices):
    """`bitcast_convert` to a narrower type adds a minor dimension, to a wider
    one consumes it; the pieces in XLA's (little-endian) order."""
    rng = np.random.default_rng(5)
    isz, osz = np.dtype(src).itemsize, np.dtype(dst).itemsize
    shape = (3, 50) if isz >= osz else (3, 50, osz // isz)
    x = rng.integers(0, 256, (*shape, isz), dtype=np.uint8).view(src).reshape(shape)
    with jax.enable_x64(True):
        got, want = run_both(lambda x: lax.bitcast_convert_type(x, dst), [x], devices)
    assert np.asarray(got[0]).shape == np.asarray(want[0]).shape
    np.testing.assert_array_equal(np.asarray(got[0]).view(np.uint8), np.asarray(want[0]).view(np.uint8))


def test_bitcast_convert_between_widths_fused(devices):
    """A width-changing `bitcast_convert` moves data like a reshape (the
    fusion pass classes it as movement): fused with elementwise producers,
    consumers and reductions, bit for bit."""
    rng = np.random.default_rng(6)
    x = rng.integers(0, 2**32, (33, 70), dtype=np.uint32)
    y = rng.integers(0, 256, (33, 70, 4), dtype=np.uint8)
    fs = [
        lambda x, y: (lax.bitcast_convert_type(x, jnp.uint8).astype(jnp.float32) * 2).sum(-1),
        lambda x, y: lax.bitcast_convert_type(y + 1, jnp.uint32) ^ x,
        lambda x, y: lax.bitcast_convert_type(x * 3, jnp.uint16).astype(jnp.float32).sum((0, 2)),
        lambda x, y: jnp.exp(lax.bitcast_convert_type(lax.bitcast_convert_type(x, jnp.uint8) & 0x3F, jnp.float32)),
    ]
    for f in fs:
        got, want = run_both(f, [x, y], devices)
        np.testing.assert_array_equal(np.asarray(got[0]), np.asarray(want[0]))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.uint64, np.int16, np.float16])
def test_parameter_returned_unchanged_keeps_its_dtype(dtype, devices):
    """A program that computes nothing (JAX's identity, a no-op convert)
    is a host program: an unsigned parameter stays unsigned at its boundary
    rather than being refused as input."""
    x = np.arange(6, dtype=dtype).reshape(2, 3)
    for f in (lambda x: x, lambda x: x.astype(dtype), lambda x: (x, x)):
        with jax.enable_x64(True):
            got, want = run_both(f, [x], devices)
        for g, w in zip(got, want):
            assert np.asarray(g).dtype == np.asarray(w).dtype
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def test_lone_iota_is_a_kernel(devices):
    """An iota nothing fuses with — `jnp.arange` as the result, or a loop's
    initial value — is a fusion of its own (it was "'tensor.empty' in the
    host program is outside every fusion": 61 failures of JAX's suite)."""
    floors, cpu = devices
    for f in (lambda: jnp.arange(10), lambda: jnp.arange(6.0).reshape(2, 3)):
        with jax.default_device(floors):
            got = jax.jit(f)()
        assert got.devices() == {floors}, got.devices()
        with jax.default_device(cpu):
            want = jax.jit(f)()
        assert_close([np.asarray(got)], [np.asarray(want)], 0, 0)
    x = np.arange(4, dtype=np.float32)
    got, want = run_both(lambda x: lax.fori_loop(0, 3, lambda i, v: v + x, jnp.arange(4.0)), [x], devices)
    assert_close(got, want, 0, 0)


def test_zero_size_slice_at_the_end(devices):
    """`x[5:5]` slices zero elements at offset 5 of 5: an empty result, not
    an out-of-bounds offset (also inside a fusion, and a dynamic one)."""
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    for f in (lambda x: x[:, 5:5], lambda x: lax.slice(x, (2, 0), (2, 5)),
              lambda x: (x * 2)[:, 5:] + 1, lambda x: jnp.concatenate([x[:, 5:], x[:, :2]], axis=1),
              lambda x: lax.dynamic_slice(x, (1, 4), (1, 0))):
        got, want = run_both(f, [x], devices)
        assert np.asarray(got[0]).shape == np.asarray(want[0]).shape
        np.testing.assert_array_equal(np.asarray(got[0]), np.asarray(want[0]))


def test_bf16_vectors_of_odd_length(devices):
    """bf16 arrays whose last dim is not a power of two: moved as i16 vectors
    (`floors-cpu-legalize-bf16-vectors`); on an AVX-512 BF16 CPU LLVM
    aborted the process on the copy and the select ("Do not know how to
    soft promote this operator's operand!")."""
    rng = np.random.default_rng(12)
    r = lambda *s: rng.standard_normal(s).astype(jnp.bfloat16)
    cases = [
        (lambda x: jnp.broadcast_to(x, (5,) + x.shape), [r(25, 25)]),
        (lambda x, y: jnp.where(x > y, x, y), [r(7, 25), r(7, 25)]),
        (lambda x: jnp.where(x > 0, x, 0.5 * x), [r(4, 3, 7)]),
        (lambda x: x.T + 1, [r(13, 25)]),
        # A sort whose comparator has bf16 constants: an array of odd-length
        # bf16 vector constants (a segfault in the retyping, once).
        (lambda x: jnp.nanmedian(x), [r(6, 7)]),
        # A transposed convolution: shuffles from 5 lanes into pairs.
        (lambda x, w: lax.conv_general_dilated(x, w, (1,), [(3, 2)], lhs_dilation=(2,), rhs_dilation=(2,),
                                               dimension_numbers=("NHC", "HIO", "NHC")), [r(2, 10, 2), r(3, 2, 2)]),
        (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
         [r(1, 10, 10, 5), r(3, 3, 5, 7)]),
    ]
    for f, args in cases:
        got, want = run_both(f, args, devices)
        assert_close([g.astype(np.float32) for g in got], [w.astype(np.float32) for w in want], 1e-2, 1e-2)


def test_empty_results_and_widened_reductions(devices):
    """Concatenating into a zero-size result (`jnp.diff` of an empty array),
    an empty dynamic update, an f16 product over columns (its body widens
    the accumulator: the vectorizer refused it and the compile failed), a
    weighted mean (a reduction to a scalar)."""
    x16 = np.random.default_rng(13).uniform(0.5, 1.5, (6, 25)).astype(np.float16)
    cases = [
        (lambda x: jnp.diff(x, axis=0), [np.zeros((0, 4), np.int32)]),
        (lambda x: jnp.cumprod(x, axis=0), [np.zeros((0, 5), np.bool_)]),
        (lambda x, u: lax.dynamic_update_slice(x, u, (1, 0)), [np.ones((4, 6), np.float32), np.zeros((0, 6), np.float32)]),
        (lambda x: jnp.prod(x, axis=0), [x16]),
        (lambda x, w: jnp.average(x, weights=w), [np.arange(4, dtype=np.int32), np.arange(1, 5, dtype=np.int32)]),
    ]
    for f, args in cases:
        got, want = run_both(f, args, devices)
        assert [np.asarray(g).shape for g in got] == [np.asarray(w).shape for w in want]
        assert_close([np.asarray(g).astype(np.float64) for g in got], [np.asarray(w).astype(np.float64) for w in want], 1e-2, 1e-3)


def test_half_max_min_reductions(devices):
    """bf16/f16 max and min reductions, accumulated in f32 and rounded once
    (exact): softmax in bf16 (rows), column and full reductions, NaN and
    infinities propagated as XLA:CPU does, an odd row length."""
    rng = np.random.default_rng(14)
    x = rng.standard_normal((64, 1024)).astype(jnp.bfloat16)
    y = rng.standard_normal((33, 25)).astype(np.float16)
    y[3, 7], y[5, 0], y[9, 9] = np.nan, np.inf, -np.inf
    cases = [
        (lambda x: jax.nn.softmax(x, axis=-1), [x], 1e-2),
        (lambda x: (jnp.max(x, axis=0), jnp.min(x, axis=1), jnp.max(x)), [x], 0),
        (lambda y: (jnp.max(y, axis=1), jnp.min(y, axis=0), jnp.min(y)), [y], 0),
    ]
    for f, args, tol in cases:
        got, want = run_both(f, args, devices)
        assert_close([np.asarray(g).astype(np.float32) for g in got], [np.asarray(w).astype(np.float32) for w in want], tol, tol)


def test_result_accuracy_requests(devices):
    """`lax.exp(x, accuracy=...)` prints a `#stablehlo.result_accuracy` on the
    op (it did not parse: "unknown attribute `result_accuracy`"); floors keeps
    its own documented accuracy, within the tolerance asked here."""
    x = np.linspace(-3, 3, 64, dtype=np.float32)
    for f in (lambda x: lax.exp(x, accuracy=lax.Tolerance(atol=1e-5, rtol=1e-4, ulps=2)),
              lambda x: lax.tanh(x, accuracy=lax.AccuracyMode.HIGHEST)):
        got, want = run_both(f, [x], devices)
        assert_close(got, want, 1e-4, 1e-5)


# ---------------------------------------------------------------- errors ---


def _still_works(devices):
    got, want = run_both(lambda a: a * 2 + 1, [np.ones((2, 2), np.float32)], devices)
    assert_close(got, want, 0, 0)


def test_unsupported_op_is_an_exception(devices):
    floors, _ = devices
    x = jax.device_put(np.arange(4, dtype=np.float32), floors)
    with pytest.raises(Exception) as e:
        jax.jit(lambda x: x.astype(jnp.float8_e4m3fn))(x)  # the line floors names
    message = str(e.value)
    assert "f8E4M3FN" in message, message
    # floors' diagnostic, located by the program's locations: JAX's Python
    # call stack (floors reports the outermost frame of a call-site location).
    assert re.search(r"\S+:\d+:\d+: error: ", message), message
    _still_works(devices)


def test_unsupported_element_type_is_an_exception(devices):
    floors, _ = devices
    x = jax.device_put(np.ones((4,), np.float32), floors)
    with pytest.raises(Exception) as e:
        jax.jit(lambda a: jnp.arctan2(a * 1j, a * 2j))(x)
    # Complex numbers compile; atan2 of them does not yet: refused at the op, at fusion.
    assert "complex<f32>" in str(e.value) and "is not supported yet" in str(e.value) and "error:" in str(e.value), str(e.value)
    with pytest.raises(Exception) as e:
        jax.device_put(np.ones((2,), jnp.int4), floors)
    assert "S4" in str(e.value), str(e.value)
    _still_works(devices)


def test_shape_mismatch_is_an_exception(devices):
    floors, _ = devices
    from jax._src import xla_bridge
    from jax._src.lib import xla_client

    text = """
module @jit_add {
  func.func public @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.add %a, %b : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}"""
    exe = xla_bridge.get_backend("floors").compile_and_load(text, xla_client.DeviceList((floors,)))
    a = jax.device_put(np.ones((2, 3), np.float32), floors)
    b = jax.device_put(np.ones((3, 2), np.float32), floors)
    out = exe.execute_sharded([a, a]).disassemble_into_single_device_arrays()
    np.testing.assert_array_equal(np.asarray(out[0][0]), np.full((2, 3), 2, np.float32))
    with pytest.raises(Exception) as e:
        exe.execute_sharded([a, b]).disassemble_into_single_device_arrays()
    message = str(e.value)
    assert "input 1" in message and "tensor<2x3xf32>" in message and "[3, 2]" in message, message
    _still_works(devices)


def test_compile_error_is_an_exception(devices):
    floors, _ = devices
    x = jax.device_put(np.ones((4,), np.float32), floors)
    call = jax.ffi.ffi_call("floors_test_no_such_target", jax.ShapeDtypeStruct((4,), jnp.float32))
    with pytest.raises(Exception) as e:
        jax.jit(call)(x)
    message = str(e.value)
    assert "no handler is registered for custom_call target 'floors_test_no_such_target'" in message, message
    # A program floors cannot compile (an op no floor has yet): its
    # diagnostic, file and line (jaxlib names text it parsed `-`).
    from jax._src import xla_bridge
    from jax._src.lib import xla_client

    with pytest.raises(Exception) as e:
        xla_bridge.get_backend("floors").compile_and_load(
            "module @jit_bad {\n  func.func public @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {\n"
            "    %0 = stablehlo.cholesky %a, lower = true : tensor<2x2xf32>\n    return %0 : tensor<2x2xf32>\n  }\n}",
            xla_client.DeviceList((floors,)))
    message = str(e.value)
    assert re.search(r"(jit_bad\.stablehlo\.mlir|-):3:10: error: .*'stablehlo\.cholesky' is not supported yet", message), message
    assert "FLOORS_PJRT_DUMP_DIR" in message, message
    _still_works(devices)


@pytest.mark.parametrize("library, says", [("/nonexistent/libfloors_pjrt.so", "no such file"), ("/bin/sh", "does not load")])
def test_a_missing_or_broken_library_is_floors_own_error(devices, library, says):
    """`JAX_PLATFORMS=floors` without a usable library: JAX raises floors'
    message, not "Backend 'floors' is not in the list of known backends"."""
    env = dict(os.environ, JAX_PLATFORMS="floors", FLOORS_PJRT_LIBRARY=library,
               PYTHONPATH=os.pathsep.join([str(REPO / "python"), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-c", "import jax; jax.devices()"], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode != 0
    assert "floors PJRT plugin" in r.stderr and says in r.stderr, r.stderr[-2000:]
    assert "not in the list of known backends" not in r.stderr
