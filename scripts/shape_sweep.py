#!/usr/bin/env python3
"""Generated differential shape sweep: floors against JAX on XLA:CPU.

For every op family of the StableHLO spec that floors supports, builds small
JAX programs over a shape grid (rank 0; dims 0, 1, 2, 3, 7, 8, 9, 31, 33, 127,
129, 1023, 1025 and a few 4097-wide rows; broadcast and transposed layouts;
every element type), lowers each with `jax.jit(f, keep_unused=True).lower(...)
.as_text()`, computes its outputs on XLA:CPU, and runs it through floors:
`floors run` (CPU floor), `floors run --target tpu` (TPU floor, interpreted)
and `floors compile --target gpu` (GPU floor, compile only). Each (case, floor)
is one of

    ok         ran and matched XLA:CPU (GPU: compiled)
    xla-off    ran, differs from XLA:CPU, and matches the spec's result (numpy) where XLA:CPU does not
               (max/min reductions: XLA:CPU drops NaNs from reductions of a few thousand elements)
    mismatch   ran, but an output differs (value, NaN position, shape or dtype)
    refused    exit 1 with a located error (`file:line:col: error: ...`)
    unlocated  an error without a location in the program
    crash      killed by a signal, exit > 128, a Rust panic or an LLVM abort
    hang       still running after --timeout seconds (killed)

Integers and bools compare exactly; floats within a tolerance of their dtype
(looser for transcendental ops; sums, dots and convolutions also within a
bound that grows with the reduction length), NaN positions exactly; data
movement (transpose, slice, gather, sort, ...) bit for bit. A quarter of the
float cases (by a hash of the case id) carry NaN, infinities, -0.0 and, where
nothing accumulates, huge finite values (overflowing partial sums of dots and
sums depend on the summation order and FMA contraction, both free). Denormal
inputs are not generated: XLA:CPU flushes them to zero (FTZ/DAZ), floors does
not. float64/int64/uint64 cases run in a second process with
`jax_enable_x64`. Inputs are deterministic per case id, so a case id is a
reproducer (`--cases`).

Every finding (not ok, not refused, not xla-off) is kept under --repro-dir/<case-id>/: the
program, its inputs, XLA:CPU's outputs, floors' stderr and a README with the
commands that rerun it. Exit 1 iff a crash, hang, mismatch or unlocated error
on the CPU floor, or a crash, hang or mismatch on the TPU floor or the GPU
compile.

    .venv-test/bin/python scripts/shape_sweep.py --limit 300 --seed 1     # the fixed-seed subset (scripts/test.sh)
    .venv-test/bin/python scripts/shape_sweep.py --full --jobs 2 --out docs/shape-sweep.md   # ~9,400 cases, ~1 h on 1 job
    .venv-test/bin/python scripts/shape_sweep.py --cases ID[,ID...]       # rerun cases by id
    .venv-test/bin/python scripts/shape_sweep.py --list                   # cases per family, nothing run
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------------
# The case list: pure data, built without JAX, the same in every process.
# ---------------------------------------------------------------------------

DIMS = (0, 1, 2, 3, 7, 8, 9, 31, 33, 127, 129, 1023, 1025)
FLOATS = ("f32", "f16", "bf16")
INTS = ("i8", "i16", "i32", "u8", "u32")
X64 = ("f64", "i64", "u64")
ALL_FLOATS = FLOATS + ("f64",)
ALL_INTS = INTS + ("i64", "u64")
ALL = ALL_FLOATS + ALL_INTS + ("bool",)

R0 = [()]
R1 = [(d,) for d in DIMS] + [(4097,)]
R2 = [(a, b) for a in DIMS for b in DIMS]
R3 = [(2, 3, 7), (0, 3, 8), (8, 1, 129), (3, 33, 31), (7, 9, 1025), (1, 1, 1), (129, 2, 3), (2, 127, 33), (3, 4097, 2)]
WIDE = [(1, 4097), (3, 4097), (4097, 3)]
GRID = R0 + R1 + R2 + R3 + WIDE
R2_THIN = [(0, 7), (7, 0), (1, 1), (2, 3), (7, 8), (8, 9), (9, 7), (31, 33), (33, 31), (127, 129),
           (1, 1025), (1025, 1), (1023, 9), (3, 4097), (129, 1023)]
THIN = R0 + [(0,), (1,), (7,), (33,), (1025,), (4097,)] + R2_THIN + R3[:5]


def nelem(s):
    n = 1
    for d in s:
        n *= d
    return n


def rot(lst, i, n):
    """n items of lst starting at i*n, cycling: rotating through lst as i grows."""
    if not lst:
        return []
    return [lst[(i * n + j) % len(lst)] for j in range(min(n, len(lst)))]


def shape_str(s):
    return "x".join(map(str, s)) if len(s) else "s"


class Cases:
    def __init__(self):
        self.list = []
        self.ids = set()

    def add(self, fam, op, dt, shapes, lay="c", tag="", **p):
        shapes = [tuple(s) for s in shapes]
        cid = ".".join(x for x in (fam, op, dt, "_".join(shape_str(s) for s in shapes), lay, tag) if x)
        if cid in self.ids:
            return
        self.ids.add(cid)
        dts = dt.split("-")
        x64 = any(d in X64 for d in dts) or bool(p.pop("x64", False))
        sp = any(d in ALL_FLOATS for d in dts) and zlib.crc32(cid.encode()) % 4 == 0 and not p.pop("nosp", False)
        self.list.append({"id": cid, "fam": fam, "op": op, "dt": dt, "shapes": shapes, "lay": lay, "p": p, "x64": x64, "sp": sp})


def transposable(s):
    return len(s) >= 2


F_UN = ["neg", "abs", "exp", "log1p", "tanh", "sqrt", "floor", "sign", "sin", "logistic"]
I_UN = ["neg", "abs", "not", "popcnt", "sign", "clz"]


def gen_unary(c):
    for dt, ops in (("f32", F_UN), ("i32", I_UN)):
        for i, s in enumerate(GRID):
            c.add("unary", ops[i % len(ops)], dt, [s], "t" if transposable(s) and i % 2 else "c")
    k = 0
    for dt in ALL:
        ops = F_UN if dt in ALL_FLOATS else I_UN if dt in ALL_INTS else ["not"]
        for op in ops:
            for s in rot(THIN, k, 3):
                c.add("unary", op, dt, [s], "t" if transposable(s) and k % 2 else "c")
            k += 1


F_BIN = ["add", "sub", "mul", "div", "max", "min", "pow", "rem", "atan2", "select", "cmp", "clamp"]
I_BIN = ["add", "sub", "mul", "floordiv", "div", "rem", "mod", "max", "min", "and", "or", "xor",
         "shl", "shra", "shrl", "pow", "select", "cmp", "clamp"]
B_BIN = ["and", "or", "xor", "select", "cmp"]


def bin_layouts(s):
    if len(s) == 0:
        return ["same"]
    if len(s) == 1:
        return ["same", "scalar"]
    return ["same", "row", "col", "scalar", "T"]


def bin_shapes(s, lay):
    if lay == "same":
        return [s, s]
    if lay == "row":
        return [s, s[-1:]]
    if lay == "col":
        return [s, s[:-1] + (1,)]
    if lay == "scalar":
        return [s, ()]
    return [s[::-1], s]  # "T": x arrives transposed, the program transposes it back


def gen_binary(c):
    for dt, ops in (("f32", F_BIN), ("i32", I_BIN)):
        for i, s in enumerate(GRID):
            lays = bin_layouts(s)
            lay = lays[i % len(lays)]
            c.add("binary", ops[i % len(ops)], dt, bin_shapes(s, lay), lay)
    k = 0
    for dt in ALL:
        ops = F_BIN if dt in ALL_FLOATS else I_BIN if dt in ALL_INTS else B_BIN
        for op in ops:
            for s in rot(THIN, k, 3 if dt in ALL_FLOATS or dt == "bool" else 2):
                lays = bin_layouts(s)
                lay = lays[k % len(lays)]
                c.add("binary", op, dt, bin_shapes(s, lay), lay)
                k += 1


CONVERT_SHAPES = [(), (7,), (33, 31), (1, 1025), (0, 3), (1023, 9), (8, 129), (3, 4097)]


def gen_convert(c):
    k = 0
    for src in ALL:
        for dst in ALL:
            if src == dst:
                continue
            for s in rot(CONVERT_SHAPES, k, 2):
                c.add("convert", "convert", f"{src}-{dst}", [s], "t" if transposable(s) and k % 3 == 0 else "c")
            k += 1
    widths = {"f32": 32, "i32": 32, "u32": 32, "f16": 16, "bf16": 16, "i16": 16, "i8": 8, "u8": 8,
              "f64": 64, "i64": 64, "u64": 64}
    for src in widths:
        for dst in widths:
            if src != dst and widths[src] == widths[dst]:
                for s in rot(CONVERT_SHAPES, k, 2):
                    c.add("convert", "bitcast", f"{src}-{dst}", [s])
                k += 1


RED_F = ["sum", "max", "min", "prod", "argmax", "argmin", "mean"]
RED_I = ["sum", "max", "min", "prod", "argmax", "argmin"]
RED_B = ["any", "all", "argmax"]


def red_axes(s):
    return [str(a) for a in range(len(s))] + ["all"] + (["02"] if len(s) == 3 else [])


def red_ok(op, s, ax):
    if op not in ("argmax", "argmin"):
        return True
    if ax == "all":
        return nelem(s) > 0
    if ax == "02":
        return False
    return s[int(ax)] > 0


def gen_reduce(c):
    for dt, ops in (("f32", RED_F), ("i32", RED_I)):
        for i, s in enumerate(GRID):
            axes = red_axes(s)
            op, ax = ops[i % len(ops)], axes[(i // len(ops)) % len(axes)]
            if red_ok(op, s, ax):
                c.add("reduce", op, dt, [s], "c", "ax" + ax)
    k = 0
    for dt in ALL:
        ops = RED_F if dt in ALL_FLOATS else RED_I if dt in ALL_INTS else RED_B
        for op in ops:
            for s in rot(THIN, k, 3):
                axes = red_axes(s)
                ax = axes[k % len(axes)]
                if red_ok(op, s, ax):
                    c.add("reduce", op, dt, [s], "t" if transposable(s) and k % 4 == 1 else "c", "ax" + ax)
                k += 1


DOT_VARIANTS = ["nn", "tn", "nt", "tt", "bnn", "bnt", "btn", "bmid", "mv", "vm", "vv", "bc"]


def dot_shapes(v, m, k, n, b):
    return {
        "nn": [(m, k), (k, n)], "tn": [(k, m), (k, n)], "nt": [(m, k), (n, k)], "tt": [(k, m), (n, k)],
        "bnn": [(b, m, k), (b, k, n)], "bnt": [(b, m, k), (b, n, k)], "btn": [(b, k, m), (b, k, n)],
        "bmid": [(m, b, k), (b, k, n)], "mv": [(m, k), (k,)], "vm": [(k,), (k, n)], "vv": [(k,), (k,)],
        "bc": [(b, m, k), (k, n)], "pref": [(m, k), (k, n)],
    }[v]


def gen_dot(c):
    Ms, Ks, Ns = [0, 1, 3, 7, 8, 9, 33, 129], [0, 1, 2, 7, 8, 9, 31, 33, 127, 1025], [1, 2, 7, 8, 9, 31, 129]
    i = 0
    for m in Ms:
        for k in Ks:
            for n in Ns:
                v = DOT_VARIANTS[i % len(DOT_VARIANTS)]
                b = (1, 3, 2, 0)[(i // len(DOT_VARIANTS)) % 4]
                if m * k * n * max(b, 1) <= 1 << 22:
                    c.add("dot", v, "f32", dot_shapes(v, m, k, n, b))
                i += 1
    trip = [(1, 1, 1), (2, 3, 7), (7, 0, 9), (8, 8, 8), (9, 33, 31), (33, 1025, 7), (129, 127, 129), (0, 5, 3),
            (1, 1023, 1), (31, 2, 4097)]
    j = 0
    for dt in ALL:
        vs = DOT_VARIANTS + (["pref"] if dt not in ("f32", "f64", "i32", "i64", "u32", "u64", "bool") else [])
        for v in vs:
            for (m, k, n) in rot(trip, j, 2 if dt in ("f32", "bf16", "f16", "i8") else 1):
                c.add("dot", v, dt, dot_shapes(v, m, k, n, (1, 3, 0)[j % 3]))
                j += 1


# conv: (N, H, W, C, O, kh, kw, stride, padding, rhs dilation, lhs dilation, groups, layout)
def conv_configs():
    Ns, HWs, Cs, Os = [1, 2, 0], [(8, 8), (7, 9), (1, 1), (33, 31), (3, 3), (9, 1)], [3, 1, 8, 0, 4], [4, 1, 16, 0]
    ks = [(3, 3), (1, 1), (2, 3), (5, 5)]
    strides = [(1, 1), (2, 2), (2, 1)]
    pads = ["VALID", "SAME", "p1201"]
    rdils, ldils = [1, 1, 2], [1, 1, 1, 2]
    lays = ["nhwc", "nhwc", "nchw", "1d"]
    out = []
    for i in range(400):
        N, (H, W), C, O = Ns[i % 3], HWs[(i // 3) % 6], Cs[(i // 2) % 5], Os[(i // 5) % 4]
        kh, kw = ks[(i // 7) % 4]
        st, pad, rd, ld = strides[(i // 11) % 3], pads[(i // 4) % 3], rdils[(i // 13) % 3], ldils[(i // 17) % 4]
        lay = lays[(i // 19) % 4]
        g = C if (i % 9 == 0 and C > 0) else 1  # depthwise now and then
        if g > 1:
            O = C * 2
        if lay == "1d":
            H, kh, st = 1, 1, (1, st[1])
        out.append((N, H, W, C, O, kh, kw, st, pad, rd, ld, g, lay))
    return out


def conv_valid(cfg):
    N, H, W, C, O, kh, kw, st, pad, rd, ld, g, lay = cfg
    for d, k in ((H, kh), (W, kw)):
        de = (d - 1) * ld + 1 if d else 0
        ke = (k - 1) * rd + 1
        if pad == "VALID" and de < ke:
            return False
        if pad == "p1201" and de + 3 < ke:
            return False
        if d == 0:
            return False
    return (C % g == 0) and (O % g == 0)


def conv_shapes(cfg):
    N, H, W, C, O, kh, kw, st, pad, rd, ld, g, lay = cfg
    if lay == "nhwc":
        return [(N, H, W, C), (kh, kw, C // g, O)]
    if lay == "nchw":
        return [(N, C, H, W), (O, C // g, kh, kw)]
    return [(N, W, C), (kw, C // g, O)]


def conv_tag(cfg):
    N, H, W, C, O, kh, kw, st, pad, rd, ld, g, lay = cfg
    return f"s{st[0]}{st[1]}.{pad}.rd{rd}.ld{ld}.g{g}"


def gen_conv(c):
    cfgs = [x for x in conv_configs() if conv_valid(x)]
    for i, cfg in enumerate(cfgs[:200]):
        c.add("conv", "conv", "f32", conv_shapes(cfg), cfg[-1], conv_tag(cfg), cfg=list(cfg))
    for j, dt in enumerate(["f16", "bf16", "f64", "i32", "i8"]):
        for cfg in rot(cfgs, j, 14 if dt in FLOATS else 6):
            c.add("conv", "conv", dt, conv_shapes(cfg), cfg[-1], conv_tag(cfg), cfg=list(cfg))


POOLS = [((2, 2), (2, 2), "VALID", (1, 1), (1, 1)), ((3, 3), (1, 1), "SAME", (1, 1), (1, 1)),
         ((3, 3), (2, 2), "SAME", (1, 1), (1, 1)), ((1, 3), (1, 2), "VALID", (1, 1), (1, 1)),
         ((2, 2), (1, 1), "VALID", (2, 2), (1, 1)), ((3, 2), (2, 1), "VALID", (1, 1), (2, 1)),
         ((4, 1), (3, 1), "SAME", (1, 1), (1, 1))]


def pool_ok(s, pool):
    win, st, pad, wdil, bdil = pool
    for d, w, wd, bd in zip(s[-2:], win, wdil, bdil):
        if d == 0:
            return False
        de, we = (d - 1) * bd + 1, (w - 1) * wd + 1
        if pad == "VALID" and de < we:
            return False
    return True


CUMS = ["cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"]


def gen_window(c):
    pool_shapes = [s for s in GRID if len(s) == 2 and nelem(s) <= 1 << 18] + [(2, 9, 8, 3), (1, 33, 31, 4), (3, 7, 7, 1)]
    i = 0
    for dt in ALL:
        if dt == "bool":
            continue
        ops = ["maxpool", "minpool", "sumpool", "avgpool"] if dt in ALL_FLOATS else ["maxpool", "minpool", "sumpool"]
        shapes = pool_shapes if dt == "f32" else rot(pool_shapes, i, 8)
        for s in shapes:
            pool = POOLS[i % len(POOLS)]
            if pool_ok(s, pool):
                c.add("window", ops[i % len(ops)], dt, [s], "c", f"pool{POOLS.index(pool)}", pool=POOLS.index(pool))
            i += 1
    cum_shapes = [s for s in GRID if len(s) in (1, 2, 3) and nelem(s) <= 1 << 19]
    for dt in ALL:
        if dt == "bool":
            continue
        ops = CUMS if dt in ALL_FLOATS else CUMS[:4]
        shapes = cum_shapes if dt in ("f32", "i32") else rot(cum_shapes, i, 10)
        for s in shapes:
            if len(s) == 0:
                continue
            ax = i % len(s)
            c.add("window", ops[i % len(ops)], dt, [s], "c", f"ax{ax}" + (".rev" if (i // 5) % 2 else ""))
            i += 1


SORT_SHAPES = [s for s in GRID if nelem(s) <= 1 << 17 and len(s) >= 1]


def gen_sort(c):
    ops = ["sort", "argsort", "sortdesc", "sortkv", "sort2keys"]
    i = 0
    for dt in ALL:
        shapes = SORT_SHAPES if dt in ("f32", "i32") else rot(SORT_SHAPES, i, 8)
        for s in shapes:
            op = ops[i % len(ops)]
            c.add("sort", op, dt, [s, s] if op in ("sortkv", "sort2keys") else [s], "c", f"ax{(i // 5) % len(s)}")
            i += 1
    # top_k along the last axis (transposed layout: along the first)
    i = 0
    for dt in ALL:
        if dt == "bool":
            continue
        shapes = SORT_SHAPES if dt in ("f32", "i32") else rot(SORT_SHAPES, i, 5)
        for s in shapes:
            lay = "t" if transposable(s) and i % 3 == 2 else "c"
            n = s[0] if lay == "t" else s[-1]
            ks = sorted({min(1, n), min(3, n), n})
            c.add("topk", "topk", dt, [s], lay, f"k{ks[i % len(ks)]}", k=ks[i % len(ks)])
            i += 1


GATHER_OPS = ["rows", "rows_clip", "rows_fill", "cols", "along", "point"]
GATHER_SHAPES = [(1,), (7,), (1025,), (0, 3), (1, 1), (9, 7), (33, 31), (1023, 9), (129, 127), (3, 4097), (2, 8, 33), (4097,)]
IDX_LENS = [0, 1, 7, 33, 1025, 3]


def gen_gather(c):
    i = 0
    for dt in ALL:
        shapes = GATHER_SHAPES if dt in ("f32", "i32") else rot(GATHER_SHAPES, i, 3)
        for s in shapes:
            for op in (GATHER_OPS if dt in ("f32", "i32") else rot(GATHER_OPS, i, 3)):
                if op in ("cols", "point") and len(s) < 2:
                    continue
                L = IDX_LENS[i % len(IDX_LENS)]
                i += 1
                if nelem(s) == 0 and (op != "rows" or L):
                    continue
                c.add("gather", op, dt, [s], "c", f"L{L}", L=L)


SCATTER_OPS = ["set", "add", "max", "min", "mul", "add_clip", "set_rows", "add_point"]


def gen_scatter(c):
    i = 0
    for dt in ALL:
        shapes = GATHER_SHAPES if dt in ("f32", "i32") else rot(GATHER_SHAPES, i, 3)
        for s in shapes:
            for op in (SCATTER_OPS if dt in ("f32", "i32") else rot(SCATTER_OPS, i, 3)):
                if dt == "bool" and op not in ("set", "set_rows", "max", "min"):
                    continue
                if op in ("set_rows", "add_point") and len(s) < 2:
                    continue
                L = IDX_LENS[i % len(IDX_LENS)]
                i += 1
                c.add("scatter", op, dt, [s], "c", f"L{L}", L=L)


def gen_movement(c):
    """concatenate, pad, slice, reverse, transpose, reshape, broadcast."""
    PIECES = [0, 1, 7, 33, 1025, 2, 9]
    i = 0
    for dt in ALL:
        shapes = [s for s in GRID if len(s) >= 1 and nelem(s) <= 1 << 19]
        shapes = shapes if dt in ("f32", "i32") else rot(shapes, i, 6)
        for s in shapes:
            ax = i % len(s)
            k = 2 + i % 2
            sizes = [s[ax]] + [PIECES[(i + j) % len(PIECES)] for j in range(1, k)]
            pieces = [s[:ax] + (d,) + s[ax + 1:] for d in sizes]
            lay = ["c", "t", "b"][i % 3] if len(s) == 2 else "c"
            if lay == "t":
                pieces[1] = pieces[1][::-1]
            bto = list(pieces[1])
            if lay == "b":
                pieces[1] = (1,) + pieces[1][1:]
            c.add("concat", "concat", dt, pieces, lay, f"ax{ax}", ax=ax, bto=bto)
            i += 1
    PADS = [(0, 0, 0), (1, 2, 0), (0, 0, 1), (2, -1, 1), (-1, -1, 0), (3, 0, 2), (-2, 3, 0), (0, 5, 3)]
    for dt in ALL:
        shapes = [s for s in GRID if nelem(s) <= 1 << 18]
        shapes = shapes if dt in ("f32", "i32") else rot(shapes, i, 5)
        for s in shapes:
            cfg = [PADS[(i + 3 * j) % len(PADS)] for j in range(len(s))]
            if all(d + lo + hi + max(d - 1, 0) * it >= 0 for d, (lo, hi, it) in zip(s, cfg)):
                op = ["pad", "paddyn", "edge", "reflect", "wrap"][i % 5] if len(s) else "pad"
                if op in ("reflect", "wrap", "edge") and 0 in s:
                    op = "pad"
                tag = "" if op not in ("pad", "paddyn") else "cfg" + "_".join(f"{lo}.{hi}.{it}" for lo, hi, it in cfg).replace("-", "m")
                c.add("pad", op, dt, [s], "c", tag, cfg=cfg)
            i += 1
    SLICES = ["range", "step", "tail", "empty", "multi", "revstep"]
    for dt in ALL:
        shapes = [s for s in GRID if len(s) >= 1]
        shapes = shapes if dt in ("f32", "i32") else rot(shapes, i, 5)
        for s in shapes:
            c.add("slice", SLICES[i % len(SLICES)], dt, [s], "c", f"ax{i % len(s)}", ax=i % len(s))
            i += 1
    for dt in ALL:
        shapes = [s for s in GRID if len(s) >= 1]
        shapes = shapes if dt in ("f32", "i32") else rot(shapes, i, 4)
        for s in shapes:
            axes = [str(a) for a in range(len(s))] + (["all"] if len(s) > 1 else [])
            c.add("reverse", "reverse", dt, [s], "c", "ax" + axes[i % len(axes)])
            i += 1
    PERMS = {2: ["10"], 3: ["021", "102", "120", "201", "210"], 4: ["0312", "0231", "3210", "1032"]}
    tshapes = [s for s in GRID if len(s) >= 2] + [(2, 3, 7, 9), (1, 33, 31, 4), (8, 8, 1, 129), (0, 2, 3, 4)]
    for dt in ALL:
        shapes = tshapes if dt in ("f32", "i32") else rot(tshapes, i, 5)
        for s in shapes:
            ps = PERMS[len(s)]
            c.add("transpose", "transpose", dt, [s], "c", "p" + ps[i % len(ps)])
            i += 1
    RESH = ["flat", "swap", "unit", "tflat", "merge", "split"]
    for dt in ALL:
        shapes = [s for s in GRID if len(s) >= 1]
        shapes = shapes if dt in ("f32", "i32") else rot(shapes, i, 4)
        for s in shapes:
            op = RESH[i % len(RESH)]
            if op == "tflat" and len(s) < 2:
                op = "flat"
            c.add("reshape", op, dt, [s])
            i += 1
    BC = ["row", "col", "scalar", "mid", "bt"]
    bshapes = [s for s in GRID if len(s) == 2 and nelem(s) <= 1 << 19]
    for dt in ALL:
        shapes = bshapes if dt in ("f32", "i32") else rot(bshapes, i, 5)
        for s in shapes:
            op = BC[i % len(BC)]
            src = {"row": (s[1],), "col": (s[0], 1), "scalar": (), "mid": s, "bt": (s[1],)}[op]
            c.add("broadcast", op, dt, [src], "c", "to" + shape_str(s), to=list(s))
            i += 1


def gen_dynamic(c):
    i = 0
    shapes = [s for s in GRID if len(s) >= 1 and nelem(s) <= 1 << 19]
    for dt in ALL:
        ss = shapes if dt in ("f32", "i32") else rot(shapes, i, 5)
        for s in ss:
            op = ["ds", "dus", "index"][i % 3]
            c.add("dynamic", op, dt, [s], "c", f"v{i % 5}", v=i % 5)
            i += 1


def gen_iota(c):
    i = 0
    for dt in ALL:
        if dt == "bool":
            continue
        shapes = [s for s in GRID if len(s) >= 1 and nelem(s) <= 1 << 19]
        shapes = shapes if dt in ("i32",) else rot(shapes, i, 5)
        for s in shapes:
            op = ["iota", "biota", "arange_add"][i % 3]
            if op == "iota":
                s = (s[-1],)
            c.add("iota", op, dt, [s], "c", f"ax{i % len(s)}" if op == "biota" else "", ax=i % len(s))
            i += 1


def gen_select_scatter(c):
    shapes = [s for s in GRID if len(s) == 2 and nelem(s) <= 1 << 18] + [(2, 9, 8, 3), (1, 33, 31, 4)]
    i = 0
    for dt in ALL_FLOATS:
        ss = shapes if dt == "f32" else rot(shapes, i, 10)
        for s in ss:
            pool = POOLS[i % len(POOLS)]
            if pool_ok(s, pool) and pool[3] == (1, 1) and pool[4] == (1, 1):
                c.add("select_scatter", "maxpool_grad", dt, [s], "c", f"pool{POOLS.index(pool)}", pool=POOLS.index(pool))
            i += 1


def gen_loop(c):
    ops = ["fori", "while_n", "scan", "scan_rev", "fori_dus"]
    shapes = [s for s in GRID if len(s) >= 1 and nelem(s) <= 1 << 18]
    i = 0
    for dt in ALL:
        ss = shapes if dt == "f32" else rot(shapes, i, 6 if dt == "i32" else 3)
        for s in ss:
            op = ops[i % len(ops)]
            if op == "fori_dus" and s[0] == 0:
                op = "fori"
            c.add("loop", op, dt, [s], "c", f"n{i % 4}" if op == "while_n" else "", n=i % 4)
            i += 1


def gen_cond(c):
    ops = ["cond", "switch", "cond_tuple"]
    shapes = [s for s in GRID if nelem(s) <= 1 << 18]
    i = 0
    for dt in ALL:
        ss = shapes if dt == "f32" else rot(shapes, i, 4)
        for s in ss:
            op = ops[i % 3]
            c.add("cond", op, dt, [s], "c", f"v{i % 5}", v=i % 5)
            i += 1


GENERATORS = [gen_unary, gen_binary, gen_convert, gen_reduce, gen_dot, gen_conv, gen_window, gen_sort, gen_gather,
              gen_scatter, gen_movement, gen_dynamic, gen_iota, gen_select_scatter, gen_loop, gen_cond]
FAMILIES = ["unary", "binary", "convert", "reduce", "dot", "conv", "window", "sort", "topk", "gather", "scatter",
            "concat", "pad", "slice", "reverse", "transpose", "reshape", "broadcast", "dynamic", "iota",
            "select_scatter", "loop", "cond"]


def all_cases():
    c = Cases()
    for g in GENERATORS:
        g(c)
    return c.list


def select_cases(cases, limit, seed):
    """Stratified: round-robin over families, within each family over ops, each list shuffled by seed."""
    rng = random.Random(seed)
    fams = defaultdict(lambda: defaultdict(list))
    for cs in cases:
        fams[cs["fam"]][cs["op"]].append(cs)
    queues = {}
    for fam in FAMILIES:
        if fam not in fams:
            continue
        ops = sorted(fams[fam])
        rng.shuffle(ops)
        for op in ops:
            rng.shuffle(fams[fam][op])
        q, k = [], 0
        while any(fams[fam][op] for op in ops):
            op = ops[k % len(ops)]
            if fams[fam][op]:
                q.append(fams[fam][op].pop())
            k += 1
        queues[fam] = q
    out = []
    while len(out) < limit and any(queues.values()):
        for fam in FAMILIES:
            if queues.get(fam) and len(out) < limit:
                out.append(queues[fam].pop(0))
    return out


# ---------------------------------------------------------------------------
# The worker: builds each case with JAX, runs XLA:CPU and floors, compares.
# ---------------------------------------------------------------------------

CLASSES = ["ok", "xla-off", "mismatch", "refused", "unlocated", "crash", "hang"]
LOCATED = re.compile(r"^(?P<file>[^\s:][^:\n]*):(?P<line>\d+):(?P<col>\d+): error: ", re.M)
TOL = {  # (rtol, atol) per class and dtype
    "arith": {"float32": (1e-5, 1e-6), "float16": (1e-2, 1e-3), "bfloat16": (2e-2, 1e-2), "float64": (1e-12, 1e-14)},
    "trans": {"float32": (1e-4, 1e-5), "float16": (1e-2, 1e-3), "bfloat16": (2e-2, 1e-2), "float64": (1e-9, 1e-12)},
}


ACCUMULATING = {"reduce", "dot", "conv", "window", "scatter", "select_scatter", "loop", "cond"}


class Skip(Exception):
    pass


def worker_main(spec_path):
    spec = json.loads(Path(spec_path).read_text())
    import jax

    jax.config.update("jax_enable_x64", bool(spec["x64"]))
    jax.config.update("jax_platforms", "cpu")
    import numpy as np

    from jax import lax
    import jax.numpy as jnp

    NP = {"f32": np.float32, "f16": np.float16, "bf16": jnp.bfloat16, "f64": np.float64, "i8": np.int8,
          "i16": np.int16, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u32": np.uint32, "u64": np.uint64,
          "bool": np.bool_}
    EPS = {"float32": 2.0 ** -23, "float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float64": 2.0 ** -52}
    BF16 = np.dtype(jnp.bfloat16)
    by_id = {cs["id"]: cs for cs in all_cases()}
    out_f = open(spec["results"], "a")

    def emit(obj):
        out_f.write(json.dumps(obj) + "\n")
        out_f.flush()

    # -- data ----------------------------------------------------------------
    class Data:
        def __init__(self, case):
            self.rng = np.random.default_rng(zlib.crc32(case["id"].encode()))
            self.sp = case["sp"]
            # Families that accumulate get no huge finite specials: where partial sums overflow, the result
            # (inf, -inf or NaN) depends on the summation order and on FMA contraction, both free.
            self.acc = case["fam"] in ACCUMULATING

        def arr(self, dt, shape, kind="n"):
            rng, shape = self.rng, tuple(shape)
            d = np.dtype(NP[dt])
            if dt == "bool":
                return rng.random(shape) < 0.5
            if d.kind in "iu":
                info = np.iinfo(d)
                if kind == "small":
                    lo, hi = (0, 9) if d.kind == "u" else (-9, 9)
                    return rng.integers(lo, hi, shape, endpoint=True).astype(d)
                if kind == "shift":
                    return rng.integers(0 if d.kind == "u" else -2, info.bits + 3, shape).astype(d)
                if kind == "pow":
                    return rng.integers(0, 10, shape).astype(d)
                if kind == "prod":
                    v = rng.choice(np.array([-1, 1, 1, 2, 3, -2, 0], np.int64) if d.kind == "i" else np.array([1, 1, 2, 3, 0]), shape)
                    mask = rng.random(shape) < 0.1
                    full = rng.integers(info.min, info.max, shape, endpoint=True, dtype=d)
                    return np.where(mask, full, v.astype(d)).astype(d)
                v = rng.integers(info.min, info.max, shape, endpoint=True, dtype=d)
                small = rng.integers(-20 if d.kind == "i" else 0, 20, shape).astype(d)
                return np.where(rng.random(shape) < 0.5, small, v).astype(d)
            # floats
            if kind == "pos":
                x = rng.uniform(0.01, 4.0, shape)
            elif kind == "prod":
                K = max(int(np.prod(shape)), 1)
                x = np.exp(rng.standard_normal(shape) * 0.5 / np.sqrt(K)) * np.where(rng.random(shape) < 0.5, -1, 1)
            elif kind == "unit":
                x = rng.uniform(-1, 1, shape)
            else:
                x = rng.standard_normal(shape) * 3.0
            if d == BF16:
                x = x.astype(np.float32).astype(d)
            else:
                x = x.astype(d)
            if self.sp and x.size:
                fin = jnp.finfo(d)
                specials = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 2.5, -2.5, 0.5]
                if not self.acc:
                    specials += [float(fin.max), -float(fin.max), 1e4, -1e4]
                specials = np.array(specials, np.float64)
                mask = rng.random(shape) < 0.08
                vals = specials[rng.integers(0, len(specials), shape)]
                with np.errstate(over="ignore"):
                    x = np.where(mask, vals.astype(np.float32).astype(d) if d == BF16 else vals.astype(d), x).astype(d)
            return np.asarray(x, d)

        def idx(self, n, L, lo=None, hi=None, dt=np.int32):
            lo = -n if lo is None else lo
            hi = n if hi is None else hi
            if hi <= lo:
                return np.zeros((L,), dt)
            return self.rng.integers(lo, hi, (L,)).astype(dt)

    class Built:
        """fn and its inputs; how to compare (tol, mag, rel); ref: the spec's result computed by numpy, which
        decides, when floors and XLA:CPU differ, whether it is XLA:CPU that is off."""

        def __init__(self, fn, args, tol="arith", mag=None, rel=None, ref=None):
            self.fn, self.args, self.tol, self.mag, self.rel, self.ref = fn, args, tol, mag, rel, ref

    WIDE_FLOAT = np.float64 if spec["x64"] else np.float32

    def sq_mag(fn, args, sq, K):
        """Per-output bound scale for sums: sqrt(K * fn(args with sq-indexed args squared)) in f32/f64."""

        def m():
            wide = WIDE_FLOAT
            a2 = [np.square(np.asarray(a, np.float64)).astype(wide) if i in sq
                  else np.asarray(a, wide) if np.asarray(a).dtype.kind == "f" or np.asarray(a).dtype == BF16 else a
                  for i, a in enumerate(args)]
            outs = jax.tree_util.tree_leaves(jax.jit(fn)(*a2))
            # NaN where special values met (inf * 0): no bound there, the NaN positions are compared apart
            return [np.nan_to_num(np.sqrt(K * np.abs(np.asarray(o, np.float64))), nan=np.inf) for o in outs]

        return m

    def is_float(dt):
        return dt in ALL_FLOATS

    def one(dt):
        return np.asarray(1, NP[dt])

    # -- families ------------------------------------------------------------
    def b_unary(cs, D):
        op, dt, (s,) = cs["op"], cs["dt"], cs["shapes"]
        x = D.arr(dt, s, "small" if op in ("sign",) and not is_float(dt) else "n")
        f = {
            "neg": jnp.negative, "abs": jnp.abs, "exp": jnp.exp, "log1p": jnp.log1p, "tanh": jnp.tanh,
            "sqrt": jnp.sqrt, "floor": jnp.floor, "sign": jnp.sign, "sin": jnp.sin, "logistic": jax.nn.sigmoid,
            "not": jnp.invert, "popcnt": lax.population_count, "clz": lax.clz,
        }[op]
        t = cs["lay"] == "t"
        fn = (lambda x: f(jnp.transpose(x))) if t else (lambda x: f(x))
        tol = "exact" if op in ("neg", "abs", "floor", "sign", "not", "popcnt", "clz") else "arith" if op == "sqrt" else "trans"
        return Built(fn, [x], tol)

    def b_binary(cs, D):
        op, dt, (sx, sy), lay = cs["op"], cs["dt"], cs["shapes"], cs["lay"]
        kind_y = {"shl": "shift", "shra": "shift", "shrl": "shift", "pow": "pow" if not is_float(dt) else "n"}.get(op, "n")
        x = D.arr(dt, sx, "pos" if op == "pow" and is_float(dt) and not D.sp else "n")
        y = D.arr(dt, sy, kind_y)
        if op == "pow" and is_float(dt):
            y = D.arr(dt, sy, "unit")
        lo = np.asarray(3 if dt.startswith("u") else -1, NP[dt]) if dt != "bool" else np.asarray(False)
        F = {
            "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
            "div": (lambda a, b: a / b) if is_float(dt) else lax.div, "floordiv": jnp.floor_divide,
            "max": jnp.maximum, "min": jnp.minimum, "pow": jnp.power, "rem": lax.rem, "mod": jnp.remainder,
            "atan2": jnp.arctan2, "and": jnp.bitwise_and, "or": jnp.bitwise_or, "xor": jnp.bitwise_xor,
            "shl": lax.shift_left, "shra": lax.shift_right_arithmetic, "shrl": lax.shift_right_logical,
            "select": (lambda a, b: jnp.where(a, b, ~b)) if dt == "bool" else (lambda a, b: jnp.where(a < b, a, b * 2)),
            "cmp": lambda a, b: (a < b, a == b, a >= b, a != b),
            "clamp": lambda a, b: lax.clamp(lo, a, jnp.broadcast_to(b, a.shape)),
        }[op]
        G = (lambda a, b: F(*jnp.broadcast_arrays(a, b))) if op in ("div", "rem", "shl", "shra", "shrl") else F
        fn = (lambda a, b: G(jnp.transpose(a), b)) if lay == "T" else G
        tol = "exact" if op in ("max", "min", "select", "cmp", "clamp") else "trans" if op in ("pow", "atan2") else "arith"
        return Built(fn, [x, y], tol)

    def b_convert(cs, D):
        src, dst = cs["dt"].split("-")
        (s,) = cs["shapes"]
        x = D.arr(src, s, "n")
        if is_float(src) and not is_float(dst) and dst != "bool":
            # values across the destination's range and beyond it (saturation)
            info = np.iinfo(NP[dst])
            scale = min(float(info.max) * 1.5, float(np.finfo(np.float32 if NP[src] == BF16 else NP[src]).max) / 4)
            base = D.rng.uniform(-1, 1, s) * scale if info.min < 0 else D.rng.uniform(-0.2, 1, s) * scale
            sm = D.rng.uniform(-300, 300, s)
            v = np.where(D.rng.random(s) < 0.5, sm, base)
            v = v.astype(np.float32).astype(NP[src]) if NP[src] == BF16 else v.astype(NP[src])
            if D.sp and x.size:
                v = np.where(np.isfinite(x.astype(np.float64)) & (D.rng.random(s) < 0.9), v, x)
            x = np.asarray(v, NP[src])
        if cs["op"] == "bitcast":
            fn = lambda a: lax.bitcast_convert_type(a, NP[dst])
            return Built(fn, [x], "bits")
        t = cs["lay"] == "t"
        fn = (lambda a: lax.convert_element_type(jnp.transpose(a), NP[dst])) if t else (lambda a: lax.convert_element_type(a, NP[dst]))
        return Built(fn, [x], "ulp")

    def axes_of(tag, s):
        a = tag[2:]
        if a == "all":
            return None
        if a == "02":
            return (0, 2)
        return int(a)

    def b_reduce(cs, D):
        op, dt, (s,) = cs["op"], cs["dt"], cs["shapes"]
        t = cs["lay"] == "t"
        ax = axes_of(cs["id"].split(".")[-1], s)
        shape_in = s[::-1] if t else s
        x = D.arr(dt, shape_in, "prod" if op == "prod" else "n")
        pre = (lambda a: jnp.transpose(a)) if t else (lambda a: a)
        d = NP[dt]
        F = {
            "sum": lambda a: jnp.sum(a, axis=ax, dtype=d), "prod": lambda a: jnp.prod(a, axis=ax, dtype=d),
            "max": lambda a: lax.reduce_max(a, tuple(range(a.ndim)) if ax is None else (ax if isinstance(ax, tuple) else (ax,))),
            "min": lambda a: lax.reduce_min(a, tuple(range(a.ndim)) if ax is None else (ax if isinstance(ax, tuple) else (ax,))),
            "argmax": lambda a: jnp.argmax(a, axis=ax), "argmin": lambda a: jnp.argmin(a, axis=ax),
            "mean": lambda a: jnp.mean(a, axis=ax), "any": lambda a: jnp.any(a, axis=ax), "all": lambda a: jnp.all(a, axis=ax),
        }[op]
        fn = lambda a: F(pre(a))
        K = nelem(s) if ax is None else (s[ax[0]] * s[ax[1]] if isinstance(ax, tuple) else s[ax])
        if op in ("sum", "mean") and is_float(dt):
            return Built(fn, [x], "arith", sq_mag(lambda a: jnp.sum(pre(a), axis=ax), [x], {0}, K) if op == "sum"
                         else sq_mag(lambda a: jnp.mean(pre(a), axis=ax), [x], {0}, K))
        if op == "prod" and is_float(dt):
            return Built(fn, [x], "arith", rel=4.0 * max(K, 1))
        ref = None
        if op in ("max", "min"):
            # XLA:CPU drops NaNs in max/min reductions of a few thousand elements (stablehlo.maximum propagates them)
            def ref():
                w = np.asarray(x, np.float64) if is_float(dt) else x
                if t:
                    w = np.transpose(w)
                ini = (-np.inf if op == "max" else np.inf) if is_float(dt) else (np.iinfo(d).min if op == "max" else np.iinfo(d).max)
                with np.errstate(invalid="ignore"):
                    r = (np.max if op == "max" else np.min)(w, axis=ax, initial=ini)
                return [np.asarray(r).astype(d)]
        return Built(fn, [x], "exact", ref=ref)

    def b_dot(cs, D):
        v, dt, shapes = cs["op"], cs["dt"], cs["shapes"]
        a = D.arr(dt, shapes[0], "small" if not is_float(dt) and dt != "bool" and D.rng.random() < 0.5 else "n")
        b = D.arr(dt, shapes[1], "n")
        E = {"nn": None, "tn": "km,kn->mn", "nt": "mk,nk->mn", "tt": "km,nk->mn", "bnn": "bmk,bkn->bmn",
             "bnt": "bmk,bnk->bmn", "btn": "bkm,bkn->bmn", "bmid": "mbk,bkn->bmn"}
        if v in ("nn", "mv", "vm", "bc"):
            F = jnp.matmul
        elif v == "vv":
            F = jnp.dot
        elif v == "pref":
            pt = np.float32 if is_float(dt) else (np.uint32 if dt.startswith("u") else np.int32)
            F = lambda p, q: lax.dot(p, q, preferred_element_type=pt)
        else:
            F = lambda p, q, e=E[v]: jnp.einsum(e, p, q)
        K = shapes[1][0] if v in ("nn", "tn", "vm", "vv", "pref") else shapes[1][-2] if v in ("bnn", "bc") else shapes[0][-1]
        if v in ("tn", "btn"):
            K = shapes[0][-2] if v == "btn" else shapes[0][0]
        if not is_float(dt):
            return Built(F, [a, b], "exact")
        return Built(F, [a, b], "arith", sq_mag(F if v != "pref" else jnp.matmul, [a, b], {0, 1}, max(K, 1)))

    def conv_fn(cfg):
        N, H, W, C, O, kh, kw, st, pad, rd, ld, g, lay = cfg
        if lay == "1d":
            dn, strides, rdil, ldil = ("NWC", "WIO", "NWC"), (st[1],), (rd,), (ld,)
            padding = pad if pad != "p1201" else [(0, 1)]
        else:
            dn = ("NHWC", "HWIO", "NHWC") if lay == "nhwc" else ("NCHW", "OIHW", "NCHW")
            strides, rdil, ldil = tuple(st), (rd, rd), (ld, ld)
            padding = pad if pad != "p1201" else [(1, 2), (0, 1)]
        if ld > 1 and isinstance(padding, str):
            padding = [(1, 1)] * len(strides)
        return lambda x, w: lax.conv_general_dilated(x, w, strides, padding, lhs_dilation=ldil, rhs_dilation=rdil,
                                                     dimension_numbers=dn, feature_group_count=g)

    def b_conv(cs, D):
        cfg, dt = cs["p"]["cfg"], cs["dt"]
        xs, ws = cs["shapes"]
        x = D.arr(dt, xs, "small" if not is_float(dt) else "n")
        w = D.arr(dt, ws, "small" if not is_float(dt) else "n")
        fn = conv_fn(cfg)
        if not is_float(dt):
            return Built(fn, [x, w], "exact")
        K = cfg[5] * cfg[6] * (cfg[3] // cfg[11])
        # the spec multiplies padding zeros too (-inf * 0 is NaN); XLA:CPU skips the padding taps
        ref = lambda: [conv_ref(cfg, x, w).astype(NP[dt])]
        return Built(fn, [x, w], "arith", sq_mag(fn, [x, w], {0, 1}, max(K, 1)), ref=ref)

    def window_view(a, first, win, wdil, st):
        """a[..., first:] viewed as windows over its last len(win) axes: positions then taps (dilated, strided)."""
        eff = [(k - 1) * d + 1 for k, d in zip(win, wdil)]
        if any(e > n for e, n in zip(eff, a.shape[first:])):
            shp = a.shape[:first] + tuple(0 for _ in win) + tuple(win)
            return np.zeros(shp, a.dtype)
        v = np.lib.stride_tricks.sliding_window_view(a, eff, axis=tuple(range(first, a.ndim)))
        idx = (slice(None),) * first + tuple(slice(None, None, s) for s in st) + tuple(slice(None, None, d) for d in wdil)
        return v[idx]

    def dilate_pad(a, first, dil, pads, value):
        """Interior dilation then edge padding (negative: cropping) of a's axes from `first`, filled with value."""
        for k, (d, (lo, hi)) in enumerate(zip(dil, pads)):
            ax = first + k
            n = a.shape[ax]
            m = (n - 1) * d + 1 if n else 0
            shp = list(a.shape)
            shp[ax] = m
            b = np.full(shp, value, a.dtype)
            sl = [slice(None)] * a.ndim
            sl[ax] = slice(None, None, d)
            b[tuple(sl)] = a
            shp[ax] = m + max(lo, 0) + max(hi, 0)
            c = np.full(shp, value, a.dtype)
            sl[ax] = slice(max(lo, 0), max(lo, 0) + m)
            c[tuple(sl)] = b
            sl[ax] = slice(max(-lo, 0), shp[ax] - max(-hi, 0))
            a = c[tuple(sl)]
        return a

    def conv_ref(cfg, x, w):
        """The spec's convolution in float64: lhs dilated and padded with zeros, every tap multiplied."""
        N, H, W, C, O, kh, kw, st, pad, rd, ld, g, lay = cfg
        f = conv_fn(cfg)
        dn = {"1d": ("NWC", "WIO", "NWC"), "nhwc": ("NHWC", "HWIO", "NHWC")}.get(lay, ("NCHW", "OIHW", "NCHW"))
        nd = 1 if lay == "1d" else 2
        dnums = lax.conv_dimension_numbers(x.shape, w.shape, dn)
        lhs = np.transpose(np.asarray(x, np.float64), dnums.lhs_spec)
        rhs = np.transpose(np.asarray(w, np.float64), dnums.rhs_spec)
        strides = (st[1],) if nd == 1 else tuple(st)
        rdil, ldil = (rd,) * nd, (ld,) * nd
        padding = pad if pad != "p1201" else ([(0, 1)] if nd == 1 else [(1, 2), (0, 1)])
        if ld > 1 and isinstance(padding, str):
            padding = [(1, 1)] * nd
        if isinstance(padding, str):
            eff = [(k - 1) * r + 1 for k, r in zip(rhs.shape[2:], rdil)]
            padding = lax.padtype_to_pads(lhs.shape[2:], eff, strides, padding)
        lhs = dilate_pad(lhs, 2, ldil, padding, 0.0)
        v = window_view(lhs, 2, rhs.shape[2:], rdil, strides)  # N, C, pos..., taps...
        I = rhs.shape[1]
        Og = rhs.shape[0] // g
        outs = []
        with np.errstate(invalid="ignore", over="ignore"):
            for gi in range(g):
                xv = v[:, gi * I:(gi + 1) * I]
                wv = rhs[gi * Og:(gi + 1) * Og]
                outs.append(np.einsum(xv, [0, 1] + list(range(2, 2 + 2 * nd)), wv, [2 + 2 * nd, 1] + list(range(2 + nd, 2 + 2 * nd)),
                                      [0, 2 + 2 * nd] + list(range(2, 2 + nd))))
        out = np.concatenate(outs, axis=1) if outs else np.zeros((lhs.shape[0], 0) + v.shape[2:2 + nd])
        want_shape = jax.eval_shape(f, x, w).shape
        return np.transpose(out, np.argsort(dnums.out_spec)).reshape(want_shape)

    def pool_args(s, pool):
        win, st, pad, wdil, bdil = pool
        pre = (1,) * (len(s) - 2)
        if len(s) == 4:  # NHWC: the window over H and W
            return (1,) + win + (1,), (1,) + st + (1,), pad, (1,) + bdil + (1,), (1,) + wdil + (1,)
        return pre + win, pre + st, pad, pre + bdil, pre + wdil

    def b_window(cs, D):
        op, dt, (s,) = cs["op"], cs["dt"], cs["shapes"]
        tag = cs["id"].split(".")
        d = NP[dt]
        if op.startswith("cum"):
            ax = int([t for t in tag if t.startswith("ax")][-1][2:])
            rev = "rev" in tag
            x = D.arr(dt, s, "prod" if op == "cumprod" else "n")
            F = {"cumsum": lax.cumsum, "cumprod": lax.cumprod, "cummax": lax.cummax, "cummin": lax.cummin,
                 "cumlogsumexp": lax.cumlogsumexp}[op]
            fn = lambda a: F(a, axis=ax, reverse=rev)
            if not is_float(dt) or op in ("cummax", "cummin"):
                return Built(fn, [x], "exact")
            if op == "cumprod":
                return Built(fn, [x], "arith", rel=4.0 * max(s[ax], 1))
            if op == "cumlogsumexp":
                return Built(fn, [x], "trans", rel=4.0 * max(s[ax], 1))
            return Built(fn, [x], "arith", sq_mag(lambda a: lax.cumsum(a, axis=ax, reverse=rev), [x], {0}, max(s[ax], 1)))
        pool = POOLS[cs["p"]["pool"]]
        wd, ws, pad, bd, wdl = pool_args(s, pool)
        x = D.arr(dt, s)
        if op in ("maxpool", "minpool"):
            init = (-np.inf if op == "maxpool" else np.inf) if is_float(dt) else (np.iinfo(d).min if op == "maxpool" else np.iinfo(d).max)
            comp = lax.max if op == "maxpool" else lax.min
            fn = lambda a: lax.reduce_window(a, np.asarray(init, d), comp, wd, ws, pad, bd, wdl)
            if not is_float(dt):
                return Built(fn, [x], "exact")

            def ref():
                # the spec: padding and base-dilation holes hold the init value; maximum/minimum propagate NaN
                # (XLA:CPU's vectorized pools drop NaNs)
                pads = pad
                if isinstance(pads, str):
                    pads = lax.padtype_to_pads(x.shape, [(k - 1) * r + 1 for k, r in zip(wd, wdl)], ws, pads)
                a = dilate_pad(np.asarray(x, np.float64), 0, bd, pads, float(init))
                v = window_view(a, 0, wd, wdl, ws)
                r = (np.max if op == "maxpool" else np.min)(v, axis=tuple(range(x.ndim, 2 * x.ndim)), initial=init)
                return [r.astype(d)]
            return Built(fn, [x], "exact", ref=ref)
        size = nelem(pool[0])
        sumf = lambda a: lax.reduce_window(a, np.asarray(0, a.dtype), lax.add, wd, ws, pad, bd, wdl)
        fn = sumf if op == "sumpool" else (lambda a: sumf(a) / np.asarray(size, d))
        if not is_float(dt):
            return Built(fn, [x], "exact")
        return Built(fn, [x], "arith", sq_mag(fn, [x], {0}, size))

    def b_sort(cs, D):
        op, dt, shapes = cs["op"], cs["dt"], cs["shapes"]
        s = shapes[0]
        ax = int(cs["id"].split(".")[-1][2:])
        x = D.arr(dt, s, "small" if not is_float(dt) and D.rng.random() < 0.5 else "n")
        if op == "sort":
            return Built(lambda a: jnp.sort(a, axis=ax), [x], "bits")
        if op == "argsort":
            return Built(lambda a: jnp.argsort(a, axis=ax), [x], "bits")
        if op == "sortdesc":
            return Built(lambda a: jnp.sort(a, axis=ax, descending=True), [x], "bits")
        y = D.arr("f32" if dt != "f32" else "i32", s)
        if op == "sortkv":
            return Built(lambda a, b: lax.sort((a, b), dimension=ax, num_keys=1), [x, y], "bits")
        x2 = D.arr(dt, s, "small" if not is_float(dt) else "n")
        x = np.where(D.rng.random(s) < 0.5, x, x[tuple([0] * len(s))] if x.size else x).astype(x.dtype)  # ties on the first key
        return Built(lambda a, b: lax.sort((a, b), dimension=ax, num_keys=2), [x, x2], "bits")

    def b_topk(cs, D):
        dt, (s,), k = cs["dt"], cs["shapes"], cs["p"]["k"]
        x = D.arr(dt, s, "small" if not is_float(dt) and D.rng.random() < 0.5 else "n")
        if cs["lay"] == "t":
            return Built(lambda a: lax.top_k(a, k, axis=0), [x], "bits")
        return Built(lambda a: lax.top_k(a, k), [x], "bits")

    def idx_dt(cs):
        return np.int64 if cs["x64"] else np.int32

    def b_gather(cs, D):
        op, dt, (s,), L = cs["op"], cs["dt"], cs["shapes"], cs["p"]["L"]
        x = D.arr(dt, s)
        idt = idx_dt(cs)
        n = s[0]
        if op == "rows":
            return Built(lambda a, i: a[i], [x, D.idx(n, L, dt=idt)], "bits")
        if op in ("rows_clip", "rows_fill"):
            mode = op.split("_")[1]
            return Built(lambda a, i: jnp.take(a, i, axis=0, mode=mode), [x, D.idx(n, L, -2 * n - 1, 2 * n + 2, idt)], "bits")
        if op == "cols":
            m = s[1]
            if m == 0:
                L = 0
            return Built(lambda a, i: a[:, i], [x, D.idx(m, L, dt=idt)], "bits")
        if op == "along":
            ax = len(s) - 1
            shp = s[:ax] + (L,)
            ii = D.rng.integers(-s[ax], s[ax], shp).astype(idt) if s[ax] else np.zeros(shp, idt)
            return Built(lambda a, i: jnp.take_along_axis(a, i, axis=ax), [x, ii], "bits")
        # point: x[i, j]
        m = s[1]
        if m == 0:
            L = 0
        return Built(lambda a, i, j: a[i, j], [x, D.idx(n, L, dt=idt), D.idx(m, L, dt=idt)], "bits")

    def b_scatter(cs, D):
        op, dt, (s,), L = cs["op"], cs["dt"], cs["shapes"], cs["p"]["L"]
        x = D.arr(dt, s)
        idt = idx_dt(cs)
        n = s[0]
        if op in ("set", "set_rows"):
            # unique after normalization: some negative, some out of bounds (dropped)
            L = min(L, n + 3)
            pool = np.concatenate([D.rng.permutation(n), n + np.arange(3)])[:L] if n else n + np.arange(L)
            neg = (D.rng.random(L) < 0.3) & (pool < n)
            ii = np.where(neg, pool - n, pool).astype(idt)
            u = D.arr(dt, (L,) + s[1:])
            return Built(lambda a, i, v: a.at[i].set(v, mode="drop"), [x, ii, u], "bits")
        if op == "add_point":
            m = s[1]
            i = D.idx(n, L, -n, n + 2, idt) if n else np.zeros((L,), idt)
            j = D.idx(m, L, -m, m + 2, idt) if m else np.zeros((L,), idt)
            u = D.arr(dt, (L,))
            fn = lambda a, i, j, v: a.at[i, j].add(v, mode="drop")
            return Built(fn, [x, i, j, u], "exact" if not is_float(dt) else "arith",
                         sq_mag(fn, [x, i, j, u], {0, 3}, 8) if is_float(dt) else None)
        ii = D.idx(n, L, -n - 2, 2 * n + 2, idt)
        u = D.arr(dt, (L,) + s[1:], "prod" if op == "mul" else "n")
        mode = "clip" if op == "add_clip" else "drop"
        meth = {"add": "add", "add_clip": "add", "max": "max", "min": "min", "mul": "multiply"}[op]
        fn = lambda a, i, v: getattr(a.at[i], meth)(v, mode=mode)
        if not is_float(dt) or op in ("max", "min"):
            return Built(fn, [x, ii, u], "exact")
        if op == "mul":
            return Built(fn, [x, ii, u], "arith", rel=4.0 * max(L, 1))
        dup = max(Counter(ii.tolist()).values()) + 1 if L else 1
        return Built(fn, [x, ii, u], "arith", sq_mag(fn, [x, ii, u], {0, 2}, dup))

    def b_concat(cs, D):
        dt, shapes, lay, ax = cs["dt"], cs["shapes"], cs["lay"], cs["p"]["ax"]
        xs = [D.arr(dt, s) for s in shapes]

        def fn(*a):
            a = list(a)
            if lay == "t":  # piece 1 arrives transposed
                a[1] = jnp.transpose(a[1])
            if lay == "b":  # piece 1 arrives as one row, broadcast to its rows
                a[1] = jnp.broadcast_to(a[1], tuple(cs["p"]["bto"]))
            return jnp.concatenate(a, axis=ax)

        return Built(fn, xs, "bits")

    def b_pad(cs, D):
        op, dt, (s,), cfg = cs["op"], cs["dt"], cs["shapes"], cs["p"]["cfg"]
        x = D.arr(dt, s)
        pv = D.arr(dt, ())
        if op == "pad":
            return Built(lambda a: lax.pad(a, np.asarray(pv, x.dtype), [tuple(c) for c in cfg]), [x], "bits")
        if op == "paddyn":
            return Built(lambda a, p: lax.pad(a, p, [tuple(c) for c in cfg]), [x, pv], "bits")
        widths = [(abs(lo) % 4, abs(hi) % 3) for lo, hi, _ in cfg]
        if op == "reflect":
            widths = [(min(lo, d - 1), min(hi, d - 1)) for (lo, hi), d in zip(widths, s)]
        return Built(lambda a: jnp.pad(a, widths, mode=op), [x], "bits")

    def b_slice(cs, D):
        op, dt, (s,), ax = cs["op"], cs["dt"], cs["shapes"], cs["p"]["ax"]
        x = D.arr(dt, s)
        d = s[ax]

        def sl(k):
            idx = [slice(None)] * len(s)
            idx[ax] = k
            return tuple(idx)

        F = {
            "range": lambda a: a[sl(slice(d // 3, d - d // 4))],
            "step": lambda a: lax.slice_in_dim(a, min(1, d), d, 3 if d > 8 else 2, axis=ax),
            "tail": lambda a: a[sl(slice(-3, None))],
            "empty": lambda a: a[sl(slice(d // 2, d // 2))],
            "multi": lambda a: a[tuple(slice(1, -1, 2) for _ in s)],
            "revstep": lambda a: a[sl(slice(None, None, -2))],
        }[op]
        return Built(F, [x], "bits")

    def b_reverse(cs, D):
        dt, (s,) = cs["dt"], cs["shapes"]
        a = cs["id"].split(".")[-1][2:]
        axes = tuple(range(len(s))) if a == "all" else (int(a),)
        return Built(lambda x: jnp.flip(x, axes), [D.arr(dt, s)], "bits")

    def b_transpose(cs, D):
        dt, (s,) = cs["dt"], cs["shapes"]
        perm = tuple(int(ch) for ch in cs["id"].split(".")[-1][1:])
        return Built(lambda x: jnp.transpose(x, perm), [D.arr(dt, s)], "bits")

    def b_reshape(cs, D):
        op, dt, (s,) = cs["op"], cs["dt"], cs["shapes"]
        x = D.arr(dt, s)
        n = nelem(s)
        if op == "flat":
            F = lambda a: a.reshape(-1)
        elif op == "swap":
            F = lambda a: a.reshape(s[::-1])
        elif op == "unit":
            F = lambda a: a.reshape((1,) + tuple(x for d in s for x in (d, 1)))
        elif op == "tflat":
            F = lambda a: jnp.transpose(a).reshape(-1)
        elif op == "merge":
            F = lambda a: a.reshape((s[0] * s[1],) + s[2:]) if len(s) >= 2 else a.reshape((1, n))
        else:  # split the largest factor we can
            f = next((k for k in (8, 7, 3, 2) if n % k == 0 and n), 1)
            F = lambda a: a.reshape((f, n // f) if n else (0, 5))
        return Built(F, [x], "bits")

    def b_broadcast(cs, D):
        op, dt, (src,), to = cs["op"], cs["dt"], cs["shapes"], tuple(cs["p"]["to"])
        x = D.arr(dt, src)
        if op == "mid":
            F = lambda a: jnp.broadcast_to(a[:, None, :], (to[0], 3, to[1]))
        elif op == "bt":
            F = lambda a: jnp.transpose(jnp.broadcast_to(a, to))
        else:
            F = lambda a: jnp.broadcast_to(a, to)
        return Built(F, [x], "bits")

    def b_dynamic(cs, D):
        op, dt, (s,), v = cs["op"], cs["dt"], cs["shapes"], cs["p"]["v"]
        x = D.arr(dt, s)
        idt = idx_dt(cs)
        # start indices: in range, negative, past the end (clamped)
        starts = [np.asarray([d // 2, -3, d + 5, 0, max(d - 2, 0)][(v + j) % 5], idt) for j, d in enumerate(s)]
        sizes = tuple([d, d // 2, min(d, 3), 0 if v == 4 else 1, d][(v + j) % 5] for j, d in enumerate(s))
        if op == "ds":
            return Built(lambda a, *st: lax.dynamic_slice(a, st, sizes), [x] + starts, "bits")
        if op == "dus":
            u = D.arr(dt, sizes)
            return Built(lambda a, b, *st: lax.dynamic_update_slice(a, b, st), [x, u] + starts, "bits")
        i = np.asarray([0, -1, s[0] - 1 if s[0] else 0, s[0] // 2, 1][v], idt)
        if s[0] == 0:
            raise Skip("x[i] of an empty axis")
        return Built(lambda a, i: a[i], [x, i], "bits")

    def b_iota(cs, D):
        op, dt, (s,), ax = cs["op"], cs["dt"], cs["shapes"], cs["p"]["ax"]
        d = NP[dt]
        if op == "iota":
            return Built(lambda: lax.iota(d, s[0]), [], "exact")
        if op == "biota":
            return Built(lambda: lax.broadcasted_iota(d, s, ax), [], "exact")
        x = D.arr(dt, s)
        return Built(lambda a: a + jnp.arange(s[-1], dtype=d), [x], "exact" if not is_float(dt) else "arith")

    def b_select_scatter(cs, D):
        dt, (s,) = cs["dt"], cs["shapes"]
        pool = POOLS[cs["p"]["pool"]]
        wd, ws, pad, bd, wdl = pool_args(s, pool)
        x = D.arr(dt, s)
        d = NP[dt]
        f = lambda a: lax.reduce_window(a, np.asarray(-np.inf, a.dtype), lax.max, wd, ws, pad, bd, wdl)
        ct = D.arr(dt, jax.eval_shape(f, x).shape)

        def fn(a, c):
            return jax.vjp(f, a)[1](c)[0]

        size = nelem(pool[0])
        return Built(fn, [x, ct], "arith", sq_mag(fn, [x, ct], {1}, size))

    def b_loop(cs, D):
        op, dt, (s,) = cs["op"], cs["dt"], cs["shapes"]
        x = D.arr(dt, s, "unit" if is_float(dt) else "n")
        fl = is_float(dt)
        if dt == "bool":
            step = lambda c, i: jnp.logical_xor(c, (i % 2) == 0)
        elif fl:
            step = lambda c, i: c * np.asarray(0.5, NP[dt]) + jnp.sin(c)
        else:
            step = lambda c, i: c * np.asarray(3, NP[dt]) + (c >> np.asarray(1, NP[dt])) + one(dt)
        tol = "trans" if fl else "exact"
        if op == "fori":
            return Built(lambda a: lax.fori_loop(0, 5, lambda i, c: step(c, i), a), [x], tol)
        if op == "while_n":
            n = np.asarray([0, 1, 3, 6][cs["p"]["n"]], np.int32)

            def fn(a, n):
                return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, step(c[1], c[0])), (np.int32(0), a))
            return Built(fn, [x, n], tol)
        if op in ("scan", "scan_rev"):
            rev = op == "scan_rev"
            if dt == "bool":
                body = lambda c, xi: (jnp.logical_xor(c, xi), c & xi)
            else:
                body = lambda c, xi: (c + xi, c * (np.asarray(2, NP[dt]) if not fl else np.asarray(0.5, NP[dt])) - xi)
            fn = lambda a: lax.scan(body, jnp.zeros(a.shape[1:], a.dtype), a, reverse=rev)
            if fl:
                mf = lambda a: lax.scan(lambda c, xi: (c + xi, c + xi), jnp.zeros(a.shape[1:], a.dtype), a, reverse=rev)
                return Built(fn, [x], "arith", sq_mag(mf, [x], {0}, max(s[0], 1)))
            return Built(fn, [x], "exact")

        # fori_dus: row i of the result is step(x[i]), written in place by dynamic_update_slice
        def fn(a):
            def body(i, c):
                row = lax.dynamic_slice_in_dim(a, i, 1, 0)
                return lax.dynamic_update_slice_in_dim(c, step(row, i), i, 0)
            return lax.fori_loop(0, s[0], body, jnp.zeros_like(a))
        return Built(fn, [x], tol)

    def b_cond(cs, D):
        op, dt, (s,), v = cs["op"], cs["dt"], cs["shapes"], cs["p"]["v"]
        x = D.arr(dt, s)
        if dt == "bool":
            brs = [lambda a: ~a, lambda a: a, lambda a: a ^ True]
        else:
            brs = [lambda a: a * np.asarray(2, NP[dt]), lambda a: a - one(dt), lambda a: -a if not dt.startswith("u") else a + one(dt)]
        if op == "cond":
            p = np.asarray(v % 2 == 0)
            return Built(lambda p, a: lax.cond(p, brs[0], brs[1], a), [p, x], "arith" if is_float(dt) else "exact")
        if op == "switch":
            i = np.asarray([-1, 0, 1, 2, 7][v], np.int32)
            return Built(lambda i, a: lax.switch(i, brs, a), [i, x], "arith" if is_float(dt) else "exact")
        p = np.asarray(v % 2 == 1)
        sumd = {"bool": np.int32}.get(dt, NP[dt])

        def fn(p, a):
            return lax.cond(p, lambda b: (brs[0](b), jnp.sum(b, dtype=sumd)), lambda b: (brs[1](b), jnp.sum(b, dtype=sumd) * 0 + 1), a)
        mag = sq_mag(lambda p, a: (a, jnp.sum(a)), [p, x], {1}, max(nelem(s), 1)) if is_float(dt) else None
        return Built(fn, [p, x], "arith" if is_float(dt) else "exact", mag)

    BUILDERS = {"unary": b_unary, "binary": b_binary, "convert": b_convert, "reduce": b_reduce, "dot": b_dot,
                "conv": b_conv, "window": b_window, "sort": b_sort, "topk": b_topk, "gather": b_gather,
                "scatter": b_scatter, "concat": b_concat, "pad": b_pad, "slice": b_slice, "reverse": b_reverse,
                "transpose": b_transpose, "reshape": b_reshape, "broadcast": b_broadcast, "dynamic": b_dynamic,
                "iota": b_iota, "select_scatter": b_select_scatter, "loop": b_loop, "cond": b_cond}

    # -- comparison -----------------------------------------------------------
    def compare(w, g, tol, mag, rel):
        """None when g matches w, else a one-line reason."""
        if w.dtype == BF16:
            if g.dtype != np.uint16:
                return f"dtype {g.dtype} (bf16 travels as uint16) vs {w.dtype}"
            g = g.view(BF16)
        elif g.dtype != w.dtype:
            return f"dtype {g.dtype} vs {w.dtype}"
        if g.shape != w.shape:
            return f"shape {g.shape} vs {w.shape}"
        if w.size == 0:
            return None
        if w.dtype.kind in "biu":
            bad = g != w
            if not bad.any():
                return None
            k = int(np.flatnonzero(bad.reshape(-1))[0])
            return (f"{int(bad.sum())}/{w.size} differ; first at {tuple(int(i) for i in np.unravel_index(k, w.shape))}: "
                    f"got {g.reshape(-1)[k].item()!r} want {w.reshape(-1)[k].item()!r}")
        wf, gf = w.astype(np.float64), g.astype(np.float64)
        wn, gn = np.isnan(wf), np.isnan(gf)
        if tol == "bits":
            ui = {2: np.uint16, 4: np.uint32, 8: np.uint64}[w.dtype.itemsize]
            bad = (w.view(ui) != g.view(ui)) & ~(wn & gn)
        else:
            with np.errstate(invalid="ignore", over="ignore"):
                name = w.dtype.name
                if tol in ("exact", "ulp"):
                    info = np.finfo(np.float32 if w.dtype == BF16 else w.dtype)
                    rtol = EPS[name] if tol == "ulp" else 0.0
                    atol = float(info.tiny)
                else:
                    rtol, atol = TOL[tol][name]
                allowed = atol + rtol * np.abs(wf)
                if mag is not None:
                    allowed = allowed + 4.0 * EPS[name] * np.broadcast_to(mag, wf.shape)
                if rel is not None:
                    allowed = allowed + rel * EPS[name] * np.abs(wf)
                err = np.abs(gf - wf)
                fin = np.isfinite(wf) & np.isfinite(gf)
                bad = (wn != gn) | (~fin & ~(wn | gn) & (gf != wf)) | (fin & ~(err <= allowed))
        if not bad.any():
            return None
        k = int(np.flatnonzero(bad.reshape(-1))[0])
        extra = ""
        if tol != "bits":
            fin = np.isfinite(wf) & np.isfinite(gf)
            if fin.any():
                extra = f"; max abs err {np.max(np.abs(gf - wf)[fin]):.3g}"
        return (f"{int(bad.sum())}/{w.size} differ ({tol}); first at {tuple(int(i) for i in np.unravel_index(k, w.shape))}: "
                f"got {float(gf.reshape(-1)[k])!r} want {float(wf.reshape(-1)[k])!r}{extra}")

    def save_npy(path, a):
        a = np.asarray(a)
        np.save(path, a.view(np.uint16) if a.dtype == BF16 else a)

    def run_floor(target, prog, inputs, wdir):
        floors = spec["floors"]
        outdir = wdir / f"out-{target}"
        if target == "gpu":
            cmd = [floors, "compile", "--target", "gpu", str(prog), "-o", str(wdir / "gpu.floors")]
        else:
            flags = {"tpu": ["--target", "tpu"], "gpusim": ["--target", "gpu", "--device", "sim"]}.get(target, [])
            cmd = [floors, "run"] + flags + [str(prog)]
            for i in inputs:
                cmd += ["--input", str(i)]
            cmd += ["--output-dir", str(outdir)]
        t0 = time.time()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            out, err = p.communicate(timeout=spec["timeout"])
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            return "hang", f"no exit after {spec['timeout']} s", cmd, outdir, (out + err).decode("utf8", "replace"), time.time() - t0
        err = err.decode("utf8", "replace").replace(str(prog), "program.mlir")  # as in the reproducer
        rc = p.returncode
        dt = time.time() - t0
        if rc < 0 or rc > 128 or rc == 101 or "panicked at" in err or "PLEASE submit a bug report" in err or "Stack dump" in err:
            lines = [ln for ln in err.splitlines() if ln.strip()]
            key = next((ln for ln in lines if "panicked at" in ln or "error" in ln.lower() or "Assertion" in ln), lines[0] if lines else "")
            nxt = ""
            if "panicked at" in key:
                j = lines.index(key)
                nxt = " " + lines[j + 1].strip() if j + 1 < len(lines) else ""
            sig = f"signal {-rc}" if rc < 0 else f"exit {rc}"
            return "crash", f"{sig}: {(key.strip() + nxt)[:400]}", cmd, outdir, err, dt
        if rc == 0:
            return "ran", "", cmd, outdir, err, dt
        m = None
        for mm in LOCATED.finditer(err):
            f = mm.group("file")
            if f.endswith(".mlir"):
                m = mm
                break
        first = next((ln for ln in err.splitlines() if "error" in ln), err.strip().splitlines()[0] if err.strip() else f"exit {rc}, no message")
        if m and rc == 1:
            line = err[m.start():].splitlines()[0]
            return "refused", line[:400], cmd, outdir, err, dt
        return "unlocated", f"exit {rc}: {first.strip()[:400]}", cmd, outdir, err, dt

    def keep_repro(cs, wdir, prog, inputs, wants, findings):
        rdir = Path(spec["repro_dir"]) / cs["id"]
        if rdir.exists():
            shutil.rmtree(rdir)
        rdir.mkdir(parents=True)
        shutil.copy(prog, rdir / "program.mlir")
        names = []
        for i, p in enumerate(inputs):
            shutil.copy(p, rdir / f"in{i}.npy")
            names.append(f"in{i}.npy")
        for k, w in enumerate(wants):
            save_npy(rdir / f"want{k}.npy", w)
        lines = [f"# {cs['id']}", "",
                 f"case: {json.dumps({k: cs[k] for k in ('fam', 'op', 'dt', 'shapes', 'lay', 'p', 'x64', 'sp')})}",
                 "want*.npy: XLA:CPU's outputs (bf16 as uint16 bits).", ""]
        ins = " ".join(f"--input {n}" for n in names)
        for target, cls, msg, err in findings:
            (rdir / f"stderr-{target}.txt").write_text(err)
            if target == "gpu":
                cmd = "floors compile --target gpu program.mlir -o gpu.floors"
            else:
                flags = {"tpu": "--target tpu ", "gpusim": "--target gpu --device sim "}.get(target, "")
                cmd = f"floors run {flags}program.mlir {ins} --output-dir out-{target}"
            lines += [f"{target}: {cls}: {msg}", f"    cd {rdir} && {spec['floors']} {cmd[len('floors '):]}", ""]
        lines.append(f"regenerate: {sys.executable} {Path(__file__).resolve()} --cases {cs['id']} --floors {spec['floors']}")
        (rdir / "README").write_text("\n".join(lines) + "\n")
        return str(rdir)

    def run_case(cs):
        D = Data(cs)
        res = {"id": cs["id"], "fam": cs["fam"], "op": cs["op"], "dt": cs["dt"], "x64": cs["x64"], "floors": {}}
        t0 = time.time()
        try:
            b = BUILDERS[cs["fam"]](cs, D)
            jf = jax.jit(b.fn, keep_unused=True)
            text = jf.lower(*b.args).as_text()
            wants = [np.asarray(w) for w in jax.tree_util.tree_leaves(jf(*b.args))]
            mags = b.mag() if b.mag is not None else [None] * len(wants)
        except Skip as e:
            res["skip"] = str(e)
            return res
        except Exception as e:  # noqa: BLE001 - what JAX refuses to build is a skip, not a floors finding
            res["skip"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
            return res
        res["jax_s"] = round(time.time() - t0, 3)
        wdir = Path(tempfile.mkdtemp(prefix="case-", dir=spec["workdir"]))
        try:
            prog = wdir / "program.mlir"
            prog.write_text(text)
            inputs = []
            for i, a in enumerate(b.args):
                inputs.append(wdir / f"in{i}.npy")
                save_npy(inputs[-1], a)
            findings, everything = [], []
            for target in spec["targets"]:
                cls, msg, cmd, outdir, err, secs = run_floor(target, prog, inputs, wdir)
                if cls == "ran":
                    if target == "gpu":
                        cls = "ok"
                    else:
                        reasons = []
                        for k, w in enumerate(wants):
                            f = outdir / f"out{k}.npy"
                            if not f.exists():
                                reasons.append(f"out{k}: missing")
                                continue
                            r = compare(w, np.load(f), b.tol, mags[k] if k < len(mags) else None, b.rel)
                            if r:
                                reasons.append(f"out{k}: {r}")
                        if (outdir / f"out{len(wants)}.npy").exists():
                            reasons.append(f"out{len(wants)}: an extra output")
                        cls, msg = ("mismatch", "; ".join(reasons)[:600]) if reasons else ("ok", "")
                        if reasons and b.ref is not None:
                            # floors agrees with the spec's result and XLA:CPU does not: XLA:CPU is off
                            refs = [np.asarray(r) for r in b.ref()]
                            refs = [r.view(np.uint16) if r.dtype == BF16 else r for r in refs]  # as .npy carries bf16
                            got = [np.load(outdir / f"out{k}.npy") for k in range(len(wants))]
                            mk = [mags[k] if k < len(mags) else None for k in range(len(refs))]
                            if all(compare(r, g, b.tol, m, b.rel) is None for r, g, m in zip(refs, got, mk)):
                                xr = [compare(r, w, b.tol, m, b.rel) for r, w, m in zip(refs, wants, mk)]
                                if any(xr):
                                    cls, msg = "xla-off", "XLA:CPU vs the spec: " + "; ".join(x for x in xr if x)[:500]
                res["floors"][target] = {"cls": cls, "msg": msg, "s": round(secs, 3)}
                everything.append((target, cls, msg, err))
                if cls not in ("ok", "refused", "xla-off"):
                    findings.append((target, cls, msg, err))
            if findings or spec["keep_all"]:
                res["repro"] = keep_repro(cs, wdir, prog, inputs, wants, everything if spec["keep_all"] else findings)
        finally:
            shutil.rmtree(wdir, ignore_errors=True)
        res["s"] = round(time.time() - t0, 3)
        return res

    for cid in spec["cases"]:
        emit({"start": cid, "t": time.time()})
        emit({"result": run_case(by_id[cid])})
    out_f.close()


# ---------------------------------------------------------------------------
# The driver: workers (one process per x64 group and job), the table.
# ---------------------------------------------------------------------------


def failing(floor, cls):
    if floor == "cpu":
        return cls in ("mismatch", "unlocated", "crash", "hang")
    return cls in ("mismatch", "crash", "hang")


def drain(w):
    """The results a worker has written since the last call (whole lines only)."""
    path = Path(w["spec"]["results"])
    if not path.exists():
        return
    with open(path) as f:
        f.seek(w["pos"])
        while True:
            line = f.readline()
            if not line.endswith("\n"):
                break
            w["pos"] = f.tell()
            obj = json.loads(line)
            if "start" in obj:
                w["started"] = (obj["start"], time.time())
            else:
                w["done"].add(obj["result"]["id"])
                w["started"] = None
                yield obj["result"]


def run_workers(cases, a, targets, workdir):
    """Runs the cases in worker processes; yields result dicts as they come in."""
    units = []
    for x64 in (False, True):
        group = [cs["id"] for cs in cases if cs["x64"] == x64]
        for j in range(a.jobs):
            part = group[j::a.jobs]
            if part:
                units.append({"x64": x64, "cases": part})
    case_limit = a.timeout * (len(targets) + 1) + 180
    running = []
    pending = list(units)
    n = 0
    while pending or running:
        while pending and len(running) < a.jobs:
            u = pending.pop(0)
            n += 1
            spec = {"x64": u["x64"], "cases": u["cases"], "floors": str(a.floors), "targets": targets,
                    "timeout": a.timeout, "repro_dir": str(a.repro_dir), "workdir": str(workdir), "keep_all": a.keep_all,
                    "results": str(workdir / f"results-{n}.jsonl")}
            sp = workdir / f"spec-{n}.json"
            sp.write_text(json.dumps(spec))
            log = open(workdir / f"worker-{n}.log", "w")
            proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker", str(sp)],
                                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            running.append({"proc": proc, "spec": spec, "pos": 0, "done": set(), "started": None, "log": log, "n": n})
        time.sleep(0.2)
        for w in list(running):
            dead = w["proc"].poll() is not None
            yield from drain(w)  # after poll: a worker that has exited has written all it will
            stuck = w["started"] and time.time() - w["started"][1] > case_limit
            if stuck and not dead:
                os.killpg(w["proc"].pid, signal.SIGKILL)
                w["proc"].wait()
                dead = True
            if dead:
                w["log"].close()
                running.remove(w)
                left = [c for c in w["spec"]["cases"] if c not in w["done"]]
                if left:
                    cid = w["started"][0] if w["started"] else left[0]
                    why = "timed out" if stuck else f"exited {w['proc'].returncode}"
                    tail = Path(workdir / f"worker-{w['n']}.log").read_text(errors="replace").strip().splitlines()[-3:]
                    yield {"id": cid, "skip": f"harness: the worker {why} (JAX/XLA side) {' | '.join(tail)[:300]}",
                           "harness": True}
                    rest = [c for c in left if c != cid]
                    if rest:
                        pending.insert(0, {"x64": w["spec"]["x64"], "cases": rest})


def table(results, cases, targets):
    by_id = {cs["id"]: cs for cs in cases}
    lines = []
    names = {"cpu": "CPU floor (`floors run`)", "tpu": "TPU floor (`floors run --target tpu`, interpreted)",
             "gpu": "GPU floor (`floors compile --target gpu`, compile only)",
             "gpusim": "GPU floor on the simulated device (`floors run --target gpu --device sim`, every check on)"}
    for t in targets:
        cols = [c for c in CLASSES if not (t == "gpu" and c in ("mismatch", "xla-off"))]
        lines += [f"### {names[t]}", "", "| family | cases | " + " | ".join(cols) + " |",
                  "|---|" + "---:|" * (len(cols) + 1)]
        tot = Counter()
        for fam in FAMILIES:
            rs = [r for r in results if by_id[r["id"]]["fam"] == fam and t in r.get("floors", {})]
            if not rs:
                continue
            cnt = Counter(r["floors"][t]["cls"] for r in rs)
            tot.update(cnt)
            tot["cases"] += len(rs)
            lines.append(f"| {fam} | {len(rs)} | " + " | ".join(str(cnt[c]) if cnt[c] else "" for c in cols) + " |")
        lines.append(f"| **total** | **{tot['cases']}** | " + " | ".join(f"**{tot[c]}**" for c in cols) + " |")
        lines.append("")
    return lines


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--floors", type=Path, default=REPO / "target" / "debug" / "floors", help="the floors binary (default target/debug/floors)")
    p.add_argument("--floors-targets", default="cpu,tpu,gpu", help="comma-separated floors to check: cpu, tpu, gpu (compile only), gpusim (run on the simulated GPU) (default cpu,tpu,gpu)")
    p.add_argument("--limit", type=int, default=300, help="a fixed-seed stratified sample of this many cases (default 300)")
    p.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    p.add_argument("--full", action="store_true", help="every case (ignores --limit)")
    p.add_argument("--families", default="", help="comma-separated families (default all): " + ", ".join(FAMILIES))
    p.add_argument("--dtypes", default="", help="comma-separated element types; cases with any of them (default all): " + ", ".join(ALL))
    p.add_argument("--cases", default="", help="comma-separated case ids (overrides --limit/--full)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per floors command before it is a hang (default 60)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--repro-dir", type=Path, default=REPO / "target" / "shape-sweep" / "repro")
    p.add_argument("--keep-all", action="store_true", help="keep every case in --repro-dir, not only the findings")
    p.add_argument("--out", type=Path, help="write the markdown report here (e.g. docs/shape-sweep.md)")
    p.add_argument("--list", action="store_true", help="print the case counts per family (and the ids with -v) and exit")
    p.add_argument("-v", "--verbose", action="store_true", help="print every case's result")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.worker:
        worker_main(a.worker)
        return 0
    targets = [t for t in a.floors_targets.split(",") if t]
    if any(t not in ("cpu", "tpu", "gpu", "gpusim") for t in targets) or not targets:
        p.error("--floors-targets takes cpu, tpu, gpu, gpusim")
    if a.jobs < 1:
        p.error("--jobs must be >= 1")
    cases = all_cases()
    fams = [f for f in a.families.split(",") if f]
    if any(f not in FAMILIES for f in fams):
        p.error(f"unknown family in --families; families: {', '.join(FAMILIES)}")
    if fams:
        cases = [cs for cs in cases if cs["fam"] in fams]
    dts = [d for d in a.dtypes.split(",") if d]
    if any(d not in ALL for d in dts):
        p.error(f"unknown dtype in --dtypes; dtypes: {', '.join(ALL)}")
    if dts:
        cases = [cs for cs in cases if any(d in dts for d in cs["dt"].split("-"))]
    if a.cases:
        want = a.cases.split(",")
        by_id = {cs["id"]: cs for cs in all_cases()}
        missing = [w for w in want if w not in by_id]
        if missing:
            p.error(f"unknown case id(s): {', '.join(missing)}")
        sel = [by_id[w] for w in want]
    elif a.full:
        sel = cases
    else:
        sel = select_cases(cases, a.limit, a.seed)
    if a.list:
        cnt, cnt_sel = Counter(cs["fam"] for cs in cases), Counter(cs["fam"] for cs in sel)
        for fam in FAMILIES:
            print(f"{fam:15} {cnt[fam]:6} {cnt_sel[fam]:6}")
        print(f"{'total':15} {len(cases):6} {len(sel):6}  (x64: {sum(cs['x64'] for cs in sel)})")
        if a.verbose:
            for cs in sel:
                print(cs["id"])
        return 0
    if not a.floors.exists():
        p.error(f"no floors binary at {a.floors}")
    a.floors = a.floors.resolve()
    a.repro_dir = a.repro_dir.resolve()
    t0 = time.time()
    results = {}
    workdir = Path(tempfile.mkdtemp(prefix="shape-sweep-"))
    print(f"shape sweep: {len(sel)} cases ({sum(cs['x64'] for cs in sel)} with x64), floors {', '.join(targets)}, "
          f"{a.jobs} job(s), {a.floors}", flush=True)
    try:
        for r in run_workers(sel, a, targets, workdir):
            results[r["id"]] = r
            bad = [(t, v) for t, v in r.get("floors", {}).items() if v["cls"] not in ("ok", "refused", "xla-off")]
            if a.verbose or bad or r.get("harness"):
                what = r.get("skip") or "; ".join(
                    f"{t}: {v['cls']}" + (f": {v['msg'][:300]}" if v["msg"] else "") for t, v in r["floors"].items())
                print(f"[{len(results)}/{len(sel)}] {r['id']}: {what}", flush=True)
            elif len(results) % 50 == 0:
                print(f"[{len(results)}/{len(sel)}] {time.time() - t0:.0f} s", flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    wall = time.time() - t0
    res = [results[cs["id"]] for cs in sel if cs["id"] in results]
    skips = [r for r in res if "skip" in r]
    findings = [(r["id"], t, v, r.get("repro", "")) for r in res for t, v in r.get("floors", {}).items()
                if v["cls"] not in ("ok", "refused", "xla-off")]
    xla_off = [(r["id"], t, v) for r in res for t, v in r.get("floors", {}).items() if v["cls"] == "xla-off"]
    fail = any(failing(t, v["cls"]) for _, t, v, _ in findings)
    mode = f"--cases ({len(sel)})" if a.cases else "--full" if a.full else f"--limit {a.limit} --seed {a.seed}"
    md = ["# Shape sweep", "",
          "Generated by `scripts/shape_sweep.py` (regenerated on each run; do not edit). Each case is a small JAX",
          "program (an op family over a shape grid, layouts and element types), lowered with",
          "`jax.jit(f, keep_unused=True).lower(...).as_text()`, run on XLA:CPU and through floors, and compared.",
          "Run it with `.venv-test/bin/python scripts/shape_sweep.py --full --jobs 2 --out docs/shape-sweep.md`",
          "(`--limit N --seed S` for a stratified sample, `--families`, `--cases ID,...` to rerun; see `--help`).",
          "",
          f"This run: `{mode}`, floors {', '.join(targets)}, {len(res)} cases ({sum(r.get('x64', False) for r in res)} with x64), "
          f"{len(skips)} skipped, {wall / 60:.1f} min with {a.jobs} job(s), `{os.path.relpath(a.floors, REPO) if a.floors.is_relative_to(REPO) else a.floors}`.",
          ""]
    md += table(res, sel, targets)
    if findings:
        md += ["### Findings", "", "| case | floor | class | message |", "|---|---|---|---|"]
        for cid, t, v, rp in findings[:200]:
            md.append(f"| `{cid}` | {t} | {v['cls']} | {v['msg'][:300].replace('|', '/')} |")
        if len(findings) > 200:
            md.append(f"| ... {len(findings) - 200} more | | | |")
        md.append("")
        md.append(f"Reproducers: `{os.path.relpath(a.repro_dir, REPO) if str(a.repro_dir).startswith(str(REPO)) else a.repro_dir}/<case>/`.")
        md.append("")
    if xla_off:
        md += ["### XLA:CPU off the spec (floors agrees with numpy's result)", "", "| case | floor | XLA:CPU |", "|---|---|---|"]
        md += [f"| `{cid}` | {t} | {v['msg'][:240].replace('|', '/')} |" for cid, t, v in xla_off[:50]]
        md.append("")
    for t in targets:
        ref = Counter(re.sub(r"^\S+:\d+:\d+: error: ", "", v["msg"])[:160] for r in res
                      for tt, v in r.get("floors", {}).items() if tt == t and v["cls"] == "refused")
        if ref:
            md += [f"### Most common refusals: {t}", "", "| cases | error |", "|---:|---|"]
            md += [f"| {n} | {m.replace('|', '/')} |" for m, n in ref.most_common(12)]
            md.append("")
    if skips:
        sk = Counter(r["skip"][:160] for r in skips)
        ex = {r["skip"][:160]: r["id"] for r in skips}
        md += ["### Skipped (JAX did not build it, or its worker died)", "", "| cases | reason | e.g. |", "|---:|---|---|"]
        md += [f"| {n} | {m.replace('|', '/')} | `{ex[m]}` |" for m, n in sk.most_common(10)]
        md.append("")
    text = "\n".join(md)
    print()
    print(text)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(text)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
