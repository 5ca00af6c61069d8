#!/usr/bin/env python3
"""Benchmark (not a test): floors vs XLA:CPU (JAX) vs IREE (llvm-cpu) side by side on the bench corpus.

For each program in ../shared/corpus/bench (or --corpus): random f32 inputs
(fixed seed) from @main's signature, saved as .npy; XLA:CPU times a jax.numpy
function written to be the same program (its lowered StableHLO is compared
with the corpus text); floors is run as `floors bench` on the same .npy
files, first once to check its outputs against JAX's (rtol/atol 1e-4), then
timed; IREE compiles the same corpus text (iree.compiler.compile_str,
llvm-cpu, target CPU host), runs it with the local-task driver on the same
inputs uploaded once as device arrays, its outputs checked against JAX's
like floors'. Every side: W warm-ups, then max(reps, enough runs for
--min-time seconds) timed runs; medians and minima. Prints the machine,
versions and a markdown table with the floors/XLA, floors/IREE and
floors/best ratios, rates (as in shared/ANCHORS.md) and compile times.

Run it through scripts/bench.sh (which builds floors in release and makes the
venv with jax and IREE), or directly with a python that has jax and numpy
(and iree-base-compiler + iree-base-runtime, else the IREE column says why not).
Exit status: 0 unless something failed for real (a floors run that errored,
floors outputs that do not match); slow numbers are not failures, and neither
is IREE failing or mismatching (the table says so).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "bench"
ORDER = ["matmul", "mlp", "softmax", "layernorm", "attention",
         "elementwise_chain", "row_sum", "conv2d_nhwc"]
RTOL = 1e-4
ATOL = 1e-4


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                   help="folder of NAME.stablehlo.mlir programs (default: %(default)s)")
    p.add_argument("--programs", default="",
                   help="comma-separated subset, e.g. matmul,softmax (default: all)")
    p.add_argument("--reps", type=int, default=10,
                   help="minimum timed runs per side (default: %(default)s)")
    p.add_argument("--min-time", type=float, default=1.0,
                   help="time at least this many seconds of runs per side (default: %(default)s)")
    p.add_argument("--max-reps", type=int, default=5000,
                   help="never more timed runs than this (default: %(default)s)")
    p.add_argument("--warmup", type=int, default=3, help="untimed runs first (default: %(default)s)")
    ncpu = len(os.sched_getaffinity(0))
    p.add_argument("--threads", type=int, default=ncpu,
                   help="floors --threads, the cores XLA:CPU may use and IREE's local-task "
                        "workers (default: all %d)" % ncpu)
    p.add_argument("--floors", type=Path, default=REPO / "target" / "release" / "floors",
                   help="floors binary (default: %(default)s)")
    p.add_argument("--skip-floors", action="store_true",
                   help="do not run floors (time XLA, and IREE unless --skip-iree)")
    p.add_argument("--skip-iree", action="store_true", help="do not run IREE")
    p.add_argument("--iree-compile-args",
                   default="--iree-llvmcpu-target-cpu=host --iree-opt-level=O3 --iree-opt-data-tiling",
                   help="extra_args of iree.compiler.compile_str, space-separated; pass it as "
                        "--iree-compile-args='...' (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="numpy seed of the inputs (default: 0)")
    p.add_argument("--timeout", type=float, default=1800,
                   help="seconds allowed to one floors process (default: %(default)s)")
    p.add_argument("--attempts", type=int, default=1,
                   help="re-time a side up to this many times while other processes use more than "
                        "--quiet %% of the CPU, keeping the quietest attempt (default: %(default)s)")
    p.add_argument("--rounds", type=int, default=1,
                   help="time each side this many times and keep its lowest median among the "
                        "quiet rounds (default: %(default)s)")
    p.add_argument("--quiet", type=float, default=10.0,
                   help="other-process CPU %% below which an attempt counts as quiet (default: %(default)s)")
    p.add_argument("--json", type=Path, help="also write every measurement to this JSON file")
    return p.parse_args()


ARGS = parse_args()

# XLA:CPU's threads are fixed before jax is imported (scripts/xla_threads.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from xla_threads import limit_threads  # noqa: E402

_all_cpus = limit_threads(ARGS.threads, "bench")
# IREE's local-task driver sizes its worker pool from the topology it detects
# (physical cores the process may use); to leave nothing to detection it gets
# one worker pinned to each of the cores XLA may use, by a runtime flag.
IREE_CPUS = sorted(os.sched_getaffinity(0))[:ARGS.threads]
IREE_FLAGS = ["--task_topology_cpu_ids=" + ",".join(map(str, IREE_CPUS))]
IREE_COMPILE_ARGS = ARGS.iree_compile_args.split()

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402


# --- The programs in jax.numpy. Function names are the corpus modules' names
# (module @jit_<name>), so the lowered text can be compared with the corpus file.

def matmul(a, b):
    return a @ b


def _mlp_bench(x, w1, b1, w2, b2):  # module @jit__mlp_bench
    h = jax.nn.relu(x @ w1 + b1)
    return jax.nn.softmax(h @ w2 + b2, axis=-1)


def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def layernorm(x, gamma, beta):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta


def attention(q, k, v):
    s = q @ k.T / jnp.sqrt(np.float32(64.0))
    return jax.nn.softmax(s, axis=-1) @ v


def elementwise_chain(a, b):
    return jnp.tanh(a * b + jnp.exp(-a))


def row_sum(x):
    return jnp.sum(x, axis=1)


def conv2d_nhwc(x, w):
    return lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


JAX_FNS = {"matmul": matmul, "mlp": _mlp_bench, "softmax": softmax, "layernorm": layernorm,
           "attention": attention, "elementwise_chain": elementwise_chain, "row_sum": row_sum,
           "conv2d_nhwc": conv2d_nhwc}

# --- Reading the program text: signature, flops.

DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i32": np.int32,
          "i64": np.int64, "i8": np.int8, "i1": np.bool_}


def parse_tensor(t: str):
    """'4096x1024xf32' -> ((4096, 1024), 'f32'); 'f32' -> ((), 'f32')."""
    parts = t.split("x")
    return tuple(int(d) for d in parts[:-1]), parts[-1]


def main_signature(text: str):
    m = re.search(r"func\.func\s+public\s+@main\((.*?)\)\s*->\s*(.*?)\s*\{\s*$", text, re.M)
    if not m:
        raise ValueError("no `func.func public @main(...)` line")
    ins = [parse_tensor(t) for t in re.findall(r"%\w+:\s*tensor<([^>]*)>", m.group(1))]
    outs = [parse_tensor(t) for t in re.findall(r"tensor<([^>]*)>", m.group(2))]
    return ins, outs


def count_flops(text: str) -> int:
    """2*MACs of every dot_general and convolution (ANCHORS.md counts only these)."""
    flops = 0
    for line in text.splitlines():
        if "stablehlo.dot_general" in line:
            m = re.search(r"contracting_dims = \[([\d, ]*)\]", line)
            ts = re.findall(r"tensor<([^>]*)>", line.split(" : ", 1)[1])
            lhs, _ = parse_tensor(ts[0])
            out, _ = parse_tensor(ts[-1])
            k = math.prod(lhs[int(c)] for c in m.group(1).split(",") if c.strip())
            flops += 2 * math.prod(out) * k
        elif "stablehlo.convolution" in line:
            m = re.search(r"\]x\[([^\]]*)\]->", line)
            rhs_spec = [s.strip() for s in m.group(1).split(",")]
            ts = re.findall(r"tensor<([^>]*)>", line.split(" : ", 1)[1])
            rhs, _ = parse_tensor(ts[1])
            out, _ = parse_tensor(ts[-1])
            per_out = math.prod(rhs) // rhs[rhs_spec.index("o")]
            flops += 2 * math.prod(out) * per_out
    return flops


def nbytes(tensors) -> int:
    return sum(math.prod(s) * np.dtype(DTYPES[d]).itemsize for s, d in tensors)


def rate(flops: int, nbytes_: int, ms: float | None) -> str:
    if ms is None or ms <= 0:
        return "-"
    if flops:
        return "%.1f GFLOP/s" % (flops / (ms * 1e-3) / 1e9)
    return "%.1f GB/s" % (nbytes_ / (ms * 1e-3) / 1e9)


def normalize_hlo(text: str) -> str:
    text = re.sub(r"\s+loc\(.*?\)", "", text)
    return "\n".join(l.rstrip() for l in text.strip().splitlines())

# --- Load of other processes, from /proc/stat (as ANCHORS.md).


def cpu_jiffies():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return sum(v[:8]), idle


class LoadMeter:
    """Share of all cores used by other processes between start() and stop()."""

    def __init__(self):
        self.tck = os.sysconf("SC_CLK_TCK")

    def _own(self):
        t = os.times()
        return (t.user + t.system + t.children_user + t.children_system) * self.tck

    def start(self):
        self.t0, self.i0 = cpu_jiffies()
        self.o0 = self._own()

    def stop(self) -> float:
        t1, i1 = cpu_jiffies()
        total = t1 - self.t0
        busy = total - (i1 - self.i0)
        own = self._own() - self.o0
        return max(0.0, 100.0 * (busy - own) / total) if total > 0 else 0.0

# --- XLA side.


def time_xla(name, arrays, warmup):
    f = JAX_FNS[name]
    dev = [jax.device_put(a) for a in arrays]
    t0 = time.perf_counter()
    lowered = jax.jit(f).lower(*dev)
    t1 = time.perf_counter()
    compiled = lowered.compile()
    t2 = time.perf_counter()
    hlo = lowered.as_text()
    out = None
    for _ in range(max(1, warmup)):
        out = jax.block_until_ready(compiled(*dev))
    t = time.perf_counter()
    jax.block_until_ready(compiled(*dev))
    est = time.perf_counter() - t
    n = min(ARGS.max_reps, max(ARGS.reps, math.ceil(ARGS.min_time / max(est, 1e-6))))

    def attempt():
        meter = LoadMeter()
        meter.start()
        times = []
        for _ in range(n):
            t = time.perf_counter()
            jax.block_until_ready(compiled(*dev))
            times.append((time.perf_counter() - t) * 1e3)
        return {"median_ms": float(np.median(times)), "min_ms": float(np.min(times)), "reps": n,
                "other_cpu_pct": meter.stop()}

    r = quietest(attempt)
    outs = out if isinstance(out, (tuple, list)) else [out]
    r.update({"lower_s": t1 - t0, "compile_s": t2 - t0, "xla_compile_only_s": t2 - t1,
              "hlo": hlo, "outputs": [np.asarray(o) for o in outs]})
    return r


def quietest(attempt):
    """Time a side --rounds times, and up to --attempts times in all while no
    round was quiet; keep the quiet round with the lowest median (the
    issue's "each side's best median of two rounds": this VM's host noise
    doubles whole runs without showing in /proc/stat), else the quietest."""
    rounds = []
    for _ in range(max(1, ARGS.rounds, ARGS.attempts)):
        rounds.append(attempt())
        if len(rounds) >= ARGS.rounds and min(r["other_cpu_pct"] for r in rounds) <= ARGS.quiet:
            break
    quiet = [r for r in rounds if r["other_cpu_pct"] <= ARGS.quiet]
    best = min(quiet, key=lambda r: r["median_ms"]) if quiet else min(rounds, key=lambda r: r["other_cpu_pct"])
    best["attempts"] = len(rounds)
    return best

def check_f64(name, arrays, got, exp, who="floors"):
    """Second opinion when floors (or IREE) and XLA differ by more than
    rtol/atol: both against the jax function run in float64. Long f32 sums
    round differently in every order (row_sum: 4096 terms of size ~1 give
    errors ~1e-4 on sums near 0), so `who` passes if it is within rtol +
    atol*max|ref| of the f64 result (atol scaled by the output's magnitude)."""
    with jax.enable_x64(True):
        ref = jax.jit(JAX_FNS[name])(*[a.astype(np.float64) for a in arrays])
        ref = [np.asarray(r) for r in (ref if isinstance(ref, (tuple, list)) else [ref])]
    err_f = max(float(np.max(np.abs(g - r))) for g, r in zip(got, ref))
    err_x = max(float(np.max(np.abs(e - r))) for e, r in zip(exp, ref))
    ok = all(np.allclose(g, r, rtol=RTOL, atol=ATOL * max(1.0, float(np.max(np.abs(r)))))
             for g, r in zip(got, ref))
    return {"f64_err_" + who: err_f, "f64_err_xla": err_x, "f64_ok": ok}


def check_outputs(name, arrays, got, exp, who):
    """`who`'s outputs against XLA's: (cell text, ok, details for the JSON)."""
    if len(exp) != len(got) or any(g.shape != e.shape for g, e in zip(got, exp)):
        return ("**MISMATCH** (shapes %s vs %s)" % ([g.shape for g in got], [e.shape for e in exp]),
                False, {})
    diff = max(float(np.max(np.abs(g.astype(np.float64) - e.astype(np.float64))))
               if g.size else 0.0 for g, e in zip(got, exp))
    ok = all(np.allclose(g, e, rtol=RTOL, atol=ATOL) for g, e in zip(got, exp))
    cell, info = "%.1e" % diff, {"max_abs_diff": diff}
    if not ok:
        info.update(check_f64(name, arrays, got, exp, who))
        ok = info["f64_ok"]
        cell = "%.1e (f64 err: %s %.1e, XLA %.1e)" % (diff, who, info["f64_err_" + who], info["f64_err_xla"])
        if not ok:
            cell = "**MISMATCH** " + cell
    return cell, ok, info


def short_reason(e: BaseException, limit=60) -> str:
    """One short line for a table cell: the first `error:` message if any."""
    text = str(e)
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    errs = [l.split("error:", 1)[1].strip() for l in lines if "error:" in l]
    msg = errs[0] if errs else (lines[0] if lines else type(e).__name__)
    msg = msg.replace("|", "/").replace("`", "'")
    return msg if len(msg) <= limit else msg[:limit - 1] + "…"

# --- IREE side.


_IREE = None  # (iree.compiler, iree.runtime, Config) once loaded, or why not


def iree_backend():
    """The IREE packages and one local-task device shared by every program."""
    global _IREE
    if _IREE is None:
        try:
            import iree.compiler as ic
            import iree.runtime as rt
            rt.flags.parse_flags(*IREE_FLAGS)  # before the first device is made
            _IREE = (ic, rt, rt.Config("local-task"))
        except Exception as e:
            _IREE = "IREE unavailable: %s" % short_reason(e)
    return _IREE


def iree_versions():
    from importlib import metadata
    try:
        return "iree-base-compiler %s, iree-base-runtime %s" % (
            metadata.version("iree-base-compiler"), metadata.version("iree-base-runtime"))
    except metadata.PackageNotFoundError:
        return "IREE not installed"


def time_iree(text, arrays, warmup):
    be = iree_backend()
    if isinstance(be, str):
        raise RuntimeError(be)
    ic, rt, cfg = be
    t0 = time.perf_counter()
    vmfb = ic.compile_str(text, target_backends=["llvm-cpu"], input_type="stablehlo",
                          extra_args=IREE_COMPILE_ARGS)
    t1 = time.perf_counter()
    ctx = rt.SystemContext(config=cfg)
    ctx.add_vm_module(rt.VmModule.copy_buffer(ctx.instance, vmfb))
    t2 = time.perf_counter()
    mods = [m for m in ctx.modules if m != "hal" and "main" in ctx.modules[m].vm_module.function_names]
    if not mods:
        raise RuntimeError("no main function in the compiled module")
    f = ctx.modules[mods[0]]["main"]
    dev = [rt.asdevicearray(cfg.device, a) for a in arrays]
    # A sync function: the call returns once the results are computed.
    out = None
    for _ in range(max(1, warmup)):
        out = f(*dev)
    t = time.perf_counter()
    f(*dev)
    est = time.perf_counter() - t
    n = min(ARGS.max_reps, max(ARGS.reps, math.ceil(ARGS.min_time / max(est, 1e-6))))

    def attempt():
        meter = LoadMeter()
        meter.start()
        times = []
        for _ in range(n):
            t = time.perf_counter()
            f(*dev)
            times.append((time.perf_counter() - t) * 1e3)
        return {"median_ms": float(np.median(times)), "min_ms": float(np.min(times)), "reps": n,
                "other_cpu_pct": meter.stop()}

    r = quietest(attempt)
    outs = out if isinstance(out, (tuple, list)) else [out]
    r.update({"compile_s": t1 - t0, "load_s": t2 - t1, "vmfb_bytes": len(vmfb),
              "outputs": [np.array(o.to_host() if hasattr(o, "to_host") else o) for o in outs]})
    del dev, f, ctx
    return r

# --- floors side.


def floors_bench(prog: Path, inputs, warmup, reps, out_dir=None):
    cmd = [str(ARGS.floors), "bench", str(prog)]
    for i in inputs:
        cmd += ["--input", str(i)]
    if out_dir is not None:
        cmd += ["--output-dir", str(out_dir)]
    cmd += ["--threads", str(ARGS.threads), "--warmup", str(warmup), "--reps", str(reps)]
    meter = LoadMeter()
    meter.start()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=ARGS.timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError("timed out after %gs: %s" % (ARGS.timeout, " ".join(cmd)))
    load = meter.stop()
    if p.returncode != 0:
        raise RuntimeError("exit %d: %s\n%s" % (p.returncode, " ".join(cmd), p.stderr.strip()[-2000:]))
    lines = [l for l in p.stdout.splitlines() if l.strip().startswith("{")]
    if not lines:
        raise RuntimeError("no JSON line on stdout: %s\nstdout: %s\nstderr: %s"
                           % (" ".join(cmd), p.stdout[-1000:], p.stderr[-1000:]))
    r = json.loads(lines[-1])
    r["other_cpu_pct"] = load
    return r


def check_floors_binary():
    if not ARGS.floors.exists():
        sys.exit("bench: %s not found (cargo build --release -p floors, or --floors PATH, "
                 "or --skip-floors)" % ARGS.floors)
    p = subprocess.run([str(ARGS.floors), "bench", "--help"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("bench: `%s bench` is not available:\n%s" % (ARGS.floors, (p.stderr or p.stdout).strip()))

# --- Report.


def machine_lines():
    model = "?"
    flags = set()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name") and model == "?":
                model = line.split(":", 1)[1].strip()
            if line.startswith("flags") and not flags:
                flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    avx = [f for f in ("avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_bf16", "avx512_vnni")
           if f in flags]
    import jaxlib
    return [
        "- CPU: %s, %d cores online (%d usable by this process), %s"
        % (model, os.cpu_count(), len(_all_cpus), " ".join(avx) or "no AVX2"),
        "- Threads: floors --threads %d; XLA:CPU intra-op Eigen pool on %d core(s)%s; "
        "IREE local-task driver, one worker on each of CPUs %s (`%s`)"
        % (ARGS.threads, min(ARGS.threads, len(_all_cpus)),
           " (--xla_cpu_multi_thread_eigen=false)" if ARGS.threads == 1 else "",
           ",".join(map(str, IREE_CPUS)), " ".join(IREE_FLAGS)),
        "- python %s, jax %s, jaxlib %s, numpy %s, %s; floors: %s"
        % (sys.version.split()[0], jax.__version__, jaxlib.__version__, np.__version__,
           "IREE skipped" if ARGS.skip_iree else iree_versions(),
           "skipped" if ARGS.skip_floors else ARGS.floors),
        "- Timing: %d warm-ups, then max(%d, runs for %gs) timed runs per side; medians. "
        "XLA: `jax.jit(f).lower(*args).compile()`, `block_until_ready(compiled(*args))`; "
        "compile s = lowering + compile. floors: `floors bench` (its own clock; compile s as it reports). "
        "IREE: `iree.compiler.compile_str(text, target_backends=[\"llvm-cpu\"], input_type=\"stablehlo\", "
        "extra_args=%s)` (compile s; loading the module not included), inputs uploaded once "
        "(`asdevicearray`), each timed run one call of the module's sync `main` from Python. "
        "Each side timed in %d round(s) (up to %d while other processes use > %g%% of the CPU); "
        "the quiet round with the lowest median kept (else the quietest)."
        % (ARGS.warmup, ARGS.reps, ARGS.min_time, json.dumps(IREE_COMPILE_ARGS), max(1, ARGS.rounds),
           max(1, ARGS.rounds, ARGS.attempts), ARGS.quiet),
        "- Check: floors' and IREE's outputs vs JAX's on the same inputs, rtol=atol=%g; where that "
        "fails, both vs the jax function in float64 (must be within rtol + atol*max|ref|; the errors "
        "are shown); MISMATCH when that fails too." % RTOL,
    ]


def fmt(v, f="%.3f"):
    return "-" if v is None else f % v


def main():
    corpus = ARGS.corpus.resolve()
    if not corpus.is_dir():
        sys.exit("bench: no corpus folder %s" % corpus)
    found = sorted(p.name[:-len(".stablehlo.mlir")] for p in corpus.glob("*.stablehlo.mlir"))
    names = [n for n in ORDER if n in found] + [n for n in found if n not in ORDER]
    if ARGS.programs:
        want = [n.strip() for n in ARGS.programs.split(",") if n.strip()]
        unknown = [n for n in want if n not in found]
        if unknown:
            sys.exit("bench: not in %s: %s (have: %s)" % (corpus, ", ".join(unknown), ", ".join(found)))
        names = [n for n in names if n in want]
    if not ARGS.skip_floors:
        check_floors_binary()

    # Start the backend before any timed compile.
    jax.block_until_ready(jax.jit(lambda x: x + 1)(np.zeros(4, np.float32)))

    rows, notes, failed = [], [], False
    for name in names:
        prog = corpus / (name + ".stablehlo.mlir")
        text = prog.read_text()
        ins, outs = main_signature(text)
        flops, nb = count_flops(text), nbytes(ins) + nbytes(outs)
        row = {"program": name, "shape": " , ".join("x".join(map(str, s)) or "scalar" for s, _ in ins),
               "flops": flops, "bytes": nb}
        print("bench: %s ..." % name, file=sys.stderr, flush=True)
        rng = np.random.default_rng(ARGS.seed)
        arrays = [rng.standard_normal(s, dtype=np.float32).astype(DTYPES[d]) for s, d in ins]
        with tempfile.TemporaryDirectory(prefix="floors-bench-") as tmp:
            tmp = Path(tmp)
            paths = []
            for i, a in enumerate(arrays):
                paths.append(tmp / ("in%d.npy" % i))
                np.save(paths[-1], a)

            # XLA
            xla = None
            if name in JAX_FNS:
                xla = time_xla(name, arrays, ARGS.warmup)
                same = normalize_hlo(xla["hlo"]) == normalize_hlo(text)
                row["jax_hlo_same"] = same
                if not same:
                    notes.append("%s: the jax function's StableHLO differs from the corpus text "
                                 "(the output check below still compares results)" % name)
            else:
                notes.append("%s: no jax function for this program; XLA not timed" % name)

            # floors: one checked run, then the timed one.
            fl = None
            if not ARGS.skip_floors:
                try:
                    out_dir = tmp / "out"
                    out_dir.mkdir()
                    first = floors_bench(prog, paths, 0, 1, out_dir)
                    got = [np.load(out_dir / ("out%d.npy" % i)) for i in range(len(outs))]
                    if xla is not None:
                        row["check"], ok, info = check_outputs(name, arrays, got, xla["outputs"], "floors")
                        row.update(info)
                        failed |= not ok
                    est_s = max(first.get("median_ms", 1.0), 1e-3) * 1e-3
                    n = min(ARGS.max_reps, max(ARGS.reps, math.ceil(ARGS.min_time / est_s)))
                    fl = quietest(lambda: floors_bench(prog, paths, ARGS.warmup, n))
                except Exception as e:  # a failing program is reported, the others still run
                    failed = True
                    row["check"] = "**FAILED**"
                    notes.append("%s: floors failed: %s" % (name, e))

            # IREE: the same corpus text and inputs; a failure is reported in its cell.
            ir = None
            if not ARGS.skip_iree:
                try:
                    ir = time_iree(text, arrays, ARGS.warmup)
                except Exception as e:
                    row["iree_fails"] = short_reason(e)
                    detail = str(e).split("Invoked with:")[0].strip().splitlines()
                    detail = "\n    ".join(l for l in detail[:10] if l.strip())
                    notes.append("%s: IREE failed: %s" % (name, detail))
                if ir is not None and xla is not None:
                    row["iree_check"], ok, info = check_outputs(name, arrays, ir["outputs"],
                                                                xla["outputs"], "IREE")
                    row["iree_check_info"] = info
                    if not ok:
                        notes.append("%s: IREE's outputs do not match XLA's (%s)" % (name, row["iree_check"]))
        row["xla"] = {k: v for k, v in (xla or {}).items() if k not in ("outputs", "hlo")} or None
        row["floors"] = fl
        row["iree"] = {k: v for k, v in (ir or {}).items() if k != "outputs"} or None
        rows.append(row)
        del arrays, xla, ir

    # Table
    print()
    print("## floors vs XLA:CPU vs IREE on %s" % corpus)
    print()
    for l in machine_lines():
        print(l)
    print()
    print("| program | shape (inputs) | floors ms | XLA ms | IREE ms | floors/XLA | floors/IREE "
          "| floors/best | GFLOP/s or GB/s floors / XLA / IREE | min ms floors / XLA / IREE "
          "| floors compile s | XLA compile s | IREE compile s | runs floors / XLA / IREE "
          "| max abs diff floors | max abs diff IREE | other-process CPU % floors / XLA / IREE |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")

    def ratio(a, b):
        return "%.2f" % (a / b) if a and b else "-"

    for r in rows:
        f, x, i = r["floors"] or {}, r["xla"] or {}, r["iree"] or {}
        fm, xm, im = f.get("median_ms"), x.get("median_ms"), i.get("median_ms")
        others = [m for m in (xm, im) if m]
        iree_cell = ("fails: " + r["iree_fails"]) if "iree_fails" in r else fmt(im)
        if ARGS.skip_iree:
            iree_cell = "skipped"

        def three(key, form):
            return " / ".join(fmt(d.get(key), form) for d in (f, x, i))

        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["program"], r["shape"], fmt(fm), fmt(xm), iree_cell,
            ratio(fm, xm), ratio(fm, im), ratio(fm, min(others) if others else None),
            " / ".join(rate(r["flops"], r["bytes"], m) for m in (fm, xm, im)),
            three("min_ms", "%.3f"),
            fmt(f.get("compile_s"), "%.2f"), fmt(x.get("compile_s"), "%.3f"),
            fmt(i.get("compile_s"), "%.2f"),
            " / ".join(str(d.get("reps", "-")) for d in (f, x, i)),
            r.get("check", "-"), r.get("iree_check", "-"),
            three("other_cpu_pct", "%.0f")))
    print()
    print("Ratios of medians (> 1: floors is slower); floors/best: floors against the faster of XLA "
          "and IREE. Rates from the medians. GFLOP/s counts 2*M*N*K per dot_general and "
          "2*out*(kh*kw*Cin) per convolution (nothing else); GB/s counts the minimal bytes (inputs "
          "read once, outputs written once), as in shared/ANCHORS.md. max abs diff: against XLA's "
          "outputs. other-process CPU %: share of all cores used by other processes while each side "
          "ran (floors: its whole process, compile included); rows with a high value are noisy.")
    same = [r["program"] for r in rows if r.get("jax_hlo_same")]
    if same:
        print("The jax functions lower to exactly the corpus text for: %s." % ", ".join(same))
    for n in notes:
        print("- " + n)
    if ARGS.json:
        ARGS.json.write_text(json.dumps(rows, indent=1))
    if failed:
        print("\nbench: some programs FAILED or MISMATCHED (see the table)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
