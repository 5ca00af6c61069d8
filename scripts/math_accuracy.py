#!/usr/bin/env python3
"""Accuracy of floors' vectorized math functions on the CPU floor.

For each function, JAX lowers `f(x)` over a large f32 array (the StableHLO
floors is given); floors compiles and runs it (`floors run`, the vectorized
kernel with the polynomial approximations); the result is compared with a
float64 numpy reference rounded to f32, in units in the last place of the
f32 reference (ulp). Inputs: every 257th f32 bit pattern in the function's
domain plus special values, so the whole exponent range is covered.

    scripts/math_accuracy.py [--floors target/debug/floors] [--json]

f64 functions that floors computes itself (rather than upstream, whose
approximations are f32 only) are measured the same way against numpy's
float64 (glibc's libm, itself within 1 ulp), in f64 ulp, on seeded random
bit patterns of the domain, uniform samples and special values.

Prints one row per function: max ulp, mean ulp, the input of the max, and
whether the documented bound (BOUNDS) holds. Exit 1 if a bound is broken.
The pytest `python/tests/test_math_accuracy.py` runs it.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]

# name: (jax function, float64 reference, domain (lo, hi) or None, documented max ulp)
def _cases():
    import jax
    import jax.numpy as jnp
    import math

    erf64 = np.vectorize(math.erf, otypes=[np.float64])
    erfc64 = np.vectorize(math.erfc, otypes=[np.float64])
    return {
        "exp": (jnp.exp, np.exp, (-87.0, 88.0), 2),
        "log": (jnp.log, np.log, (1e-37, 3e38), 2),
        "log1p": (jnp.log1p, np.log1p, (-0.999, 3e38), 3),
        "expm1": (jnp.expm1, np.expm1, (-87.0, 88.0), 3),
        "tanh": (jnp.tanh, np.tanh, (-20.0, 20.0), 5),
        "logistic": (jax.nn.sigmoid, lambda x: 1.0 / (1.0 + np.exp(-x)), (-87.0, 87.0), 4),
        "erf": (jax.lax.erf, erf64, (-5.0, 5.0), 4),
        "sin": (jnp.sin, np.sin, (-100.0, 100.0), 1),
        "cos": (jnp.cos, np.cos, (-100.0, 100.0), 1),
        # |x| < 2^28: the f64 Cody-Waite reduction; beyond, whole vectors take libm.
        "sin (|x| < 2^28)": (jnp.sin, np.sin, (-2.68e8, 2.68e8), 1),
        "cos (|x| < 2^28)": (jnp.cos, np.cos, (-2.68e8, 2.68e8), 1),
        "tan": (jnp.tan, np.tan, (-100.0, 100.0), 1),
        "tan (|x| < 2^28)": (jnp.tan, np.tan, (-2.68e8, 2.68e8), 1),
        "atan": (jnp.arctan, np.arctan, (-3.4e38, 3.4e38), 1),
        "cbrt": (jnp.cbrt, np.cbrt, (-3.4e38, 3.4e38), 1),
        "sin (all f32)": (jnp.sin, np.sin, (-3.4e38, 3.4e38), 1),
        "cos (all f32)": (jnp.cos, np.cos, (-3.4e38, 3.4e38), 1),
        "pow": (lambda x: jnp.power(x, jnp.float32(1.5)), lambda x: np.power(x, 1.5), (1e-20, 1e20), 1),
        "pow (x^-2.5)": (lambda x: jax.lax.pow(x, jnp.float32(-2.5)), lambda x: np.power(x, -2.5), (0.0, 3.4e38), 1),
        "pow (x^3, x<0 too)": (lambda x: jax.lax.pow(x, jnp.float32(3.0)), lambda x: np.power(x, 3.0), (-1e13, 1e13), 1),
        "pow (2^x)": (lambda x: jax.lax.pow(jnp.float32(2.0), x), lambda x: np.power(2.0, x), (-160.0, 130.0), 1),
        "pow (0.999^x)": (lambda x: jax.lax.pow(jnp.float32(0.999), x), lambda x: np.power(np.float64(np.float32(0.999)), x), (-1e6, 1e6), 1),
        "erfc": (jax.lax.erfc, erfc64, (-5.0, 9.0), 10),
    }


def _cases64():
    """f64 functions floors computes itself: (jax function, numpy reference,
    domain, documented max ulp)."""
    import jax.numpy as jnp

    return {
        "f64 exp": (jnp.exp, np.exp, (-750.0, 715.0), 1),
        "f64 log": (jnp.log, np.log, (0.0, 1.79e308), 1),
        "f64 log1p": (jnp.log1p, np.log1p, (-1.0, 1.79e308), 1),
        "f64 expm1": (jnp.expm1, np.expm1, (-800.0, 720.0), 1),
        "f64 tanh": (jnp.tanh, np.tanh, (-50.0, 50.0), 3),
        "f64 sin (|x| < 2^28)": (jnp.sin, np.sin, (-2.68e8, 2.68e8), 1),
        "f64 cos (|x| < 2^28)": (jnp.cos, np.cos, (-2.68e8, 2.68e8), 1),
        "f64 tan (|x| < 2^28)": (jnp.tan, np.tan, (-2.68e8, 2.68e8), 3),
        "f64 sin (all f64)": (jnp.sin, np.sin, (-1.79e308, 1.79e308), 1),
        "f64 atan": (jnp.arctan, np.arctan, (-1.79e308, 1.79e308), 2),
        "f64 cbrt": (jnp.cbrt, np.cbrt, (-1.79e308, 1.79e308), 1),
    }


def inputs64(lo, hi):
    """f64 values in [lo, hi]: random bit patterns of each sign (every
    exponent), uniform samples, small magnitudes and special values."""
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 0x7FF0000000000000, 400_000, dtype=np.int64).view(np.float64)
    span = (max(lo, -1e6), min(hi, 1e6))
    small = rng.uniform(-1, 1, 100_000) * 10.0 ** rng.uniform(-20, 0, 100_000)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300,
               0.5, 2.0, 709.782712893384, 709.7827128933841, -745.1332191019411, 1e300, lo, hi]
    xs = np.concatenate([bits, -bits, rng.uniform(*span, 200_000), small, special])
    keep = ((xs >= lo) & (xs <= hi)) | ~np.isfinite(xs)
    return xs[keep]


def ulp_error64(got, ref):
    spacing = np.maximum(np.spacing(np.abs(ref)), np.spacing(np.finfo(np.float64).tiny))
    err = np.abs(got - ref) / spacing
    same = (np.isnan(got) & np.isnan(ref)) | (got == ref)
    return np.where(same, 0.0, err)


def pow_pairs():
    """(x, y) for pow(x, y): every pair of C99's special values (±0, ±1, ±inf,
    NaN, odd/even/non-integer exponents, subnormals, the largest finite) and
    random pairs over the whole exponent range, both signs of x, integer and
    non-integer y."""
    special = np.float32(
        [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1.5, -1.5, np.inf, -np.inf, np.nan,
         1e-45, -1e-45, 3.4e38, -3.4e38, 1e10, -1e10, 1e-10, 0.999, 1.001, 2.0**24, 2.0**24 + 2, -(2.0**23 + 1)]
    )
    xs, ys = np.meshgrid(special, special)
    rng = np.random.default_rng(0)
    n = 1 << 20
    rx = (np.sign(rng.standard_normal(n)) * 2.0 ** rng.uniform(-149, 128, n)).astype(np.float32)
    ry = rng.uniform(-40, 40, n).astype(np.float32)
    ry[::3] = np.round(ry[::3])
    return np.concatenate([xs.ravel(), rx]), np.concatenate([ys.ravel(), ry])


def atan2_pairs():
    """(y, x) for atan2(y, x): every pair of ±0, ±1, ±inf, NaN, the smallest
    subnormal and the largest finite, and random pairs over the whole
    exponent range, both signs."""
    special = np.float32([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, 3.4e38, -3.4e38])
    ys, xs = np.meshgrid(special, special)
    rng = np.random.default_rng(1)
    n = 1 << 20
    ry = (np.sign(rng.standard_normal(n)) * 2.0 ** rng.uniform(-149, 128, n)).astype(np.float32)
    rx = (np.sign(rng.standard_normal(n)) * 2.0 ** rng.uniform(-149, 128, n)).astype(np.float32)
    return np.concatenate([ys.ravel(), ry]), np.concatenate([xs.ravel(), rx])


# The documented bounds also live in README ("Math accuracy"); keep them equal.
BOUNDS = {}


def inputs(lo, hi):
    """f32 values in [lo, hi]: every 257th bit pattern of each sign, plus edges."""
    pos = np.arange(0, 0x7F800000, 257, dtype=np.uint32).view(np.float32)
    xs = np.concatenate([pos, -pos, np.float32([lo, hi, 0.0, 1.0, -1.0, 0.5, -0.5])])
    xs = xs[(xs >= lo) & (xs <= hi)]
    return np.unique(xs).astype(np.float32)


def ulp_error(got, ref64):
    ref32 = ref64.astype(np.float32)
    spacing = np.spacing(np.abs(ref32)).astype(np.float64)
    # Below the smallest normal, count in the smallest normal's ulp.
    spacing = np.maximum(spacing, np.spacing(np.float32(np.finfo(np.float32).tiny)))
    err = np.abs(got.astype(np.float64) - ref64) / spacing
    same_special = (np.isnan(got) & np.isnan(ref64)) | (np.isinf(got) & (got == ref64))
    return np.where(same_special, 0.0, err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--floors", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    floors = args.floors
    if floors is None:
        for profile in ("release", "debug"):
            cand = REPO / "target" / profile / "floors"
            if cand.exists():
                floors = str(cand)
                break
    if floors is None:
        sys.exit("floors is not built (cargo build)")
    import jax

    rows, broken = [], []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cases = [(name, fn, ref, (inputs(lo, hi),), f"[{lo:g}, {hi:g}]", bound) for name, (fn, ref, (lo, hi), bound) in _cases().items()]
        cases.append(("pow (x^y pairs)", jax.lax.pow, np.power, pow_pairs(), "C99 specials × specials, 2^20 random", 1))
        cases.append(("atan2 (y, x pairs)", jax.numpy.arctan2, np.arctan2, atan2_pairs(), "specials × specials, 2^20 random", 1))
        cases += [(name, fn, ref, (inputs64(lo, hi),), f"[{lo:g}, {hi:g}]", bound) for name, (fn, ref, (lo, hi), bound) in _cases64().items()]
        for name, fn, ref, args_, domain, bound in cases:
            BOUNDS[name] = bound
            # A whole number of vector tiles: every element goes through the
            # vectorized kernel (what a model's arrays get), not a scalar tail.
            pad = (-args_[0].size) % 65536
            args_ = [np.concatenate([a, a[:pad]]) for a in args_]
            f64 = args_[0].dtype == np.float64
            with jax.enable_x64(f64):
                text = jax.jit(fn).lower(*args_).as_text()
            stem = "".join(c if c.isalnum() else "_" for c in name)
            prog = tmp / f"{stem}.mlir"
            prog.write_text(text)
            cmd = [floors, "run", str(prog)]
            for j, a in enumerate(args_):
                np.save(tmp / f"{stem}.in{j}.npy", a)
                cmd += ["--input", str(tmp / f"{stem}.in{j}.npy")]
            out = tmp / stem
            r = subprocess.run(cmd + ["--output-dir", str(out)], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"{name}: floors failed: {r.stderr}")
            got = np.load(out / "out0.npy")
            with np.errstate(all="ignore"):
                ref64 = ref(*[a.astype(np.float64) for a in args_])
                err = ulp_error64(got, ref64) if f64 else ulp_error(got, ref64)
            # A NaN where the reference is not NaN (or the reverse) is wrong.
            err = np.where(np.isnan(got) != np.isnan(ref64), np.inf, err)
            i = int(np.nanargmax(err))
            row = {
                "function": name,
                "inputs": int(args_[0].size),
                "domain": domain,
                "max_ulp": float(err[i]),
                "mean_ulp": float(np.nanmean(err[np.isfinite(err)])),
                "worst_input": ", ".join(f"{float(a[i]):.{17 if f64 else 7}g}" for a in args_),
                "bound": bound,
                "ok": bool(err[i] <= bound),
            }
            rows.append(row)
            if not row["ok"]:
                broken.append(name)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print("| function | domain | inputs | max ulp | mean ulp | worst input | bound |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            print(
                f"| {r['function']} | {r['domain']} | {r['inputs']:,} | {r['max_ulp']:.2f} | "
                f"{r['mean_ulp']:.3f} | {r['worst_input']} | {r['bound']}{'' if r['ok'] else ' BROKEN'} |"
            )
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
