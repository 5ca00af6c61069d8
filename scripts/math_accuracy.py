#!/usr/bin/env python3
"""Accuracy of floors' vectorized math functions on the CPU floor.

For each function, JAX lowers `f(x)` over a large f32 array (the StableHLO
floors is given); floors compiles and runs it (`floors run`, the vectorized
kernel with the polynomial approximations); the result is compared with a
float64 numpy reference rounded to f32, in units in the last place of the
f32 reference (ulp). Inputs: every 257th f32 bit pattern in the function's
domain plus special values, so the whole exponent range is covered.

    scripts/math_accuracy.py [--floors target/debug/floors] [--json]

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
        "pow": (lambda x: jnp.power(x, jnp.float32(1.5)), lambda x: np.power(x, 1.5), (1e-20, 1e20), 1),
        "erfc": (jax.lax.erfc, erfc64, (-5.0, 9.0), 10),
    }


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
        for name, (fn, ref, (lo, hi), bound) in _cases().items():
            BOUNDS[name] = bound
            x = inputs(lo, hi)
            # A whole number of vector tiles: every element goes through the
            # vectorized kernel (what a model's arrays get), not a scalar tail.
            pad = (-x.size) % 65536
            x = np.concatenate([x, x[:pad]])
            text = jax.jit(fn).lower(x).as_text()
            prog = tmp / f"{name}.mlir"
            prog.write_text(text)
            np.save(tmp / f"{name}.in0.npy", x)
            out = tmp / name
            r = subprocess.run(
                [floors, "run", str(prog), "--input", str(tmp / f"{name}.in0.npy"), "--output-dir", str(out)],
                capture_output=True,
                text=True,
            )
            if r.returncode != 0:
                sys.exit(f"{name}: floors failed: {r.stderr}")
            got = np.load(out / "out0.npy")
            with np.errstate(all="ignore"):
                ref64 = ref(x.astype(np.float64))
                err = ulp_error(got, ref64)
            i = int(np.nanargmax(err))
            row = {
                "function": name,
                "inputs": int(x.size),
                "domain": [lo, hi],
                "max_ulp": float(err[i]),
                "mean_ulp": float(np.nanmean(err)),
                "worst_input": float(x[i]),
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
                f"| {r['function']} | [{r['domain'][0]:g}, {r['domain'][1]:g}] | {r['inputs']:,} | {r['max_ulp']:.2f} | "
                f"{r['mean_ulp']:.3f} | {r['worst_input']:.7g} | {r['bound']}{'' if r['ok'] else ' BROKEN'} |"
            )
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
