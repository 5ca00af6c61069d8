#!/usr/bin/env python3
"""Runs the corpus on the simulated GPU (`floors run --target gpu --device sim`)
for every chip and gemm mode, and compares each output with its reference.

References: the corpus' own `NAME.outK.npy` where it has them (public),
otherwise the CPU floor's output on the same inputs (seeded random inputs
from the program's signature). Every run has all the simulator's checks on
(memcheck, racecheck, initcheck, synccheck); a check that fires is a FAIL.

Usage: scripts/gpu_sim_check.py [--floors PATH] [--sets public,stress,bench]
       [--chips sm_80,sm_90,sm_90a] [--gemm library,emitter] [--only NAME,...]
       [--out FILE.md] [--timeout S]
Exit status 1 when any run fails or mismatches.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
SETS = {"public": "public", "stress": "gpu-stress", "bench": "bench"}

DTYPES = {
    "f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": "bf16",
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
}


def signature(text):
    m = re.search(r"func\.func public @main\((.*?)\)\s*->", text, re.S)
    if not m:
        return []
    args = []
    for t in re.findall(r"tensor<([^>]*)>", m.group(1)):
        parts = t.split("x")
        dims = [int(p) for p in parts[:-1]]
        args.append((dims, parts[-1]))
    return args


def random_inputs(args, rng, text):
    out = []
    for dims, dt in args:
        if dt in ("f32", "f64", "f16"):
            a = rng.uniform(-1, 1, dims).astype(DTYPES[dt])
        elif dt == "bf16":
            f = rng.uniform(-1, 1, dims).astype(np.float32)
            a = (f.view(np.uint32) >> 16).astype(np.uint16)
        elif dt == "i1":
            a = rng.integers(0, 2, dims).astype(np.bool_)
        else:
            # Indices and offsets: small non-negative values.
            a = rng.integers(0, 8, dims).astype(DTYPES[dt])
        out.append(a)
    return out


def as_f64(a, bf16=False):
    if bf16 or (a.dtype == np.uint16 and bf16):
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if a.dtype == np.bool_:
        return a.astype(np.float64)
    return a.astype(np.float64)


def close(got, want, dtype_name, tf32=False):
    if got.shape != want.shape:
        return False, f"shape {got.shape} vs {want.shape}"
    if got.size == 0:
        return True, ""
    if np.issubdtype(want.dtype, np.integer) or want.dtype == np.bool_:
        bad = int(np.sum(got != want))
        return bad == 0, f"{bad} elements differ"
    bf = dtype_name == "bf16"
    g, w = as_f64(got, bf), as_f64(want, bf)
    tol = {np.float16: 2e-3}.get(want.dtype.type, 1e-4)
    if tf32 and want.dtype == np.float32:
        # f32 dots of precision DEFAULT on cuBLAS run on TF32 tensor cores
        # (XLA:GPU's choice): 11 significant bits per operand element.
        tol = 5e-3
    if bf:
        tol = 1e-2
    scale = max(1.0, float(np.nanmax(np.abs(w))) if np.isfinite(w).any() else 1.0)
    nan_ok = np.array_equal(np.isnan(g), np.isnan(w))
    fin = np.isfinite(w) & np.isfinite(g)
    err = float(np.max(np.abs(g[fin] - w[fin]))) if fin.any() else 0.0
    ok = nan_ok and err <= tol * scale + tol and np.array_equal(np.isinf(g), np.isinf(w))
    return ok, f"max abs err {err:.3g} (scale {scale:.3g})"


def result_dtypes(text):
    m = re.search(r"func\.func public @main\(.*?\)\s*->\s*\((.*?)\)\s*\{", text, re.S)
    if not m:
        m = re.search(r"func\.func public @main\(.*?\)\s*->\s*(tensor<[^>]*>)", text, re.S)
    if not m:
        return []
    return [t.split("x")[-1] for t in re.findall(r"tensor<([^>]*)>", m.group(1))]


def run(cmd, timeout):
    t = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr, time.time() - t
    except subprocess.TimeoutExpired:
        return 124, f"timeout after {timeout} s", time.time() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--floors", default=str(ROOT / "target" / "debug" / "floors"))
    ap.add_argument("--sets", default="public,stress")
    ap.add_argument("--chips", default="sm_80,sm_90,sm_90a")
    ap.add_argument("--gemm", default="library,emitter")
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    floors = args.floors
    only = [o for o in args.only.split(",") if o]
    rows = []
    failures = 0
    total_t = 0.0
    work = Path(tempfile.mkdtemp(prefix="gpu_sim_"))
    for set_name in args.sets.split(","):
        d = CORPUS / SETS[set_name]
        for prog in sorted(d.glob("*.stablehlo.mlir")):
            name = prog.name.replace(".stablehlo.mlir", "")
            if only and name not in only:
                continue
            text = prog.read_text()
            rdt = result_dtypes(text)
            ins = sorted(d.glob(f"{name}.in*.npy"))
            outs = sorted(d.glob(f"{name}.out*.npy"))
            case = work / f"{set_name}_{name}"
            case.mkdir()
            if not ins and signature(text):
                rng = np.random.default_rng(0)
                for k, a in enumerate(random_inputs(signature(text), rng, text)):
                    np.save(case / f"in{k}.npy", a)
                ins = sorted(case.glob("in*.npy"))
            input_flags = [x for p in ins for x in ("--input", str(p))]
            if not outs:
                ref = case / "cpu"
                rc, log, _ = run([floors, "run", str(prog), *input_flags, "--output-dir", str(ref)], args.timeout)
                if rc != 0:
                    rows.append((set_name, name, "cpu reference", "ERROR", log.strip().splitlines()[-1][:200], 0))
                    failures += 1
                    continue
                outs = sorted(ref.glob("out*.npy"))
            for chip in args.chips.split(","):
                for gemm in args.gemm.split(","):
                    o = case / f"{chip}_{gemm}"
                    cmd = [floors, "run", str(prog), "--target", "gpu", "--gpu", chip, "--gpu-gemm", gemm,
                           "--device", "sim", "--counters", *input_flags, "--output-dir", str(o)]
                    rc, log, dt = run(cmd, args.timeout)
                    total_t += dt
                    cfg = f"{chip} {gemm}"
                    if rc != 0:
                        lines = [l for l in log.strip().splitlines() if l.strip()]
                        rows.append((set_name, name, cfg, "FAIL", (lines[-1] if lines else "")[:300], dt))
                        failures += 1
                        continue
                    counters = next((l for l in log.splitlines() if l.startswith("device:")), "")
                    verdicts = []
                    ok_all = True
                    for k, want_p in enumerate(outs):
                        got = np.load(o / f"out{k}.npy")
                        want = np.load(want_p)
                        ok, msg = close(got, want, rdt[k] if k < len(rdt) else "", tf32=gemm != "emitter")
                        ok_all &= ok
                        if not ok:
                            verdicts.append(f"out{k}: {msg}")
                    if not ok_all:
                        failures += 1
                    rows.append((set_name, name, cfg, "ok" if ok_all else "MISMATCH",
                                 "; ".join(verdicts) or counters.replace("device: ", ""), dt))
                    print(f"{set_name}/{name} [{cfg}] {'ok' if ok_all else 'MISMATCH'} {dt:.1f}s {'; '.join(verdicts)}", flush=True)
    lines = ["| set | program | chip, gemm | result | detail | s |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]:.1f} |")
    table = "\n".join(lines)
    summary = f"{len(rows)} runs, {failures} failed or mismatched, {total_t:.1f} s on the simulator"
    print(table)
    print(summary)
    if args.out:
        Path(args.out).write_text(table + "\n\n" + summary + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
