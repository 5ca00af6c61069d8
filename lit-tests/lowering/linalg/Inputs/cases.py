"""The e2e cases (see gen_e2e.py)."""

CORPUS = [
    # name, rtol, atol
    ("elementwise_chain", 1e-4, 1e-5),
    ("bias_add", 1e-5, 1e-6),
    ("relu", 0, 0),
    ("softmax", 1e-4, 1e-6),
    ("row_sum", 1e-5, 1e-5),
    ("col_max", 0, 0),
    ("transpose2d", 0, 0),
    ("matmul", 1e-4, 1e-4),
    ("mlp", 1e-4, 1e-5),
    ("gather_rows", 0, 0),
    ("dynamic_slice_update", 0, 0),
    ("argmax", 0, 0),
    ("int_ops", 0, 0),
    ("fori_loop", 1e-5, 1e-5),
    ("sort_rows", 0, 0),
    ("shape_ops", 0, 0),
    ("unary_math", 1e-5, 1e-5),
]

# chlo is legalized by floors-hlo-legalize-chlo, not by this pass: the e2e
# copy of unary_math spells chlo.square as the multiply it stands for.
SUBST = {"unary_math": [(r"chlo\.square (%\w+) : (tensor<[^>]*>) -> tensor<[^>]*>", r"stablehlo.multiply \1, \1 : \2")]}


def all_files(corpus_case, test_module, np):
    out = []
    for name, rtol, atol in CORPUS:
        out.append((f"linalg_lower_stablehlo_e2e_{name}.mlir", f"// End to end: corpus program {name}.", corpus_case(name, rtol, atol, SUBST.get(name, ()))))
    return out + hand_cases(test_module, np)


# ---------------------------------------------------------------------------
# Hand-written cases: generic-form StableHLO, expected values from numpy
# (following the spec, and XLA:CPU where the spec leaves a choice).

def T(shape, e):
    return "tensor<" + "".join(f"{d}x" for d in shape) + e + ">"


class Prog:
    """Builds `func.func public @compute` in generic form."""

    def __init__(self, args):
        self.args = args  # [(shape, elem)]
        self.lines = []
        self.n = 0

    def arg(self, i):
        return (f"%arg{i}",) + tuple(self.args[i])

    def op(self, name, operands, res, attrs="", region=None):
        """operands: [(name, shape, elem)]; res: (shape, elem) or list of them."""
        self.n += 1
        v = f"%v{self.n}"
        many = isinstance(res, list)
        ress = res if many else [res]
        lhs = f"{v}:{len(ress)}" if many and len(ress) > 1 else v
        ins = ", ".join(o[0] for o in operands)
        tys = ", ".join(T(o[1], o[2]) for o in operands)
        rt = ", ".join(T(s, e) for s, e in ress)
        a = f" <{{{attrs}}}>" if attrs else ""
        reg = f" ({region})" if region else ""
        self.lines.append(f'    {lhs} = "stablehlo.{name}"({ins}){a}{reg} : ({tys}) -> ({rt})')
        if many and len(ress) > 1:
            return [(f"{v}#{i}",) + tuple(r) for i, r in enumerate(ress)]
        return (v,) + tuple(ress[0])

    def const(self, arr_text, shape, e):
        self.n += 1
        v = f"%v{self.n}"
        self.lines.append(f'    {v} = "stablehlo.constant"() <{{value = {arr_text} : {T(shape, e)}}}> : () -> {T(shape, e)}')
        return (v, shape, e)

    def text(self, results):
        args = ", ".join(f"%arg{i}: {T(s, e)}" for i, (s, e) in enumerate(self.args))
        rt = ", ".join(T(r[1], r[2]) for r in results)
        out = [f"  func.func public @compute({args}) -> ({rt}) {{"]
        out += self.lines
        out.append(f"    return {', '.join(r[0] for r in results)} : {rt}")
        out.append("  }")
        return "\n".join(out)


def body(args, lines, ret):
    """A region in generic form: args [(name, elem)], body lines, returned names with elems."""
    a = ", ".join(f"{n}: tensor<{e}>" for n, e in args)
    rs = ", ".join(n for n, _ in ret)
    rt = ", ".join(f"tensor<{e}>" for _, e in ret)
    inner = "\n".join("      " + l for l in lines)
    return f"{{\n    ^bb0({a}):\n{inner}\n      \"stablehlo.return\"({rs}) : ({rt}) -> ()\n    }}"


def scalar_bin(name, x, y, e, out=None, attrs=""):
    a = f" <{{{attrs}}}>" if attrs else ""
    return f'{out} = "stablehlo.{name}"({x}, {y}){a} : (tensor<{e}>, tensor<{e}>) -> tensor<{e if name != "compare" else "i1"}>'


def cmp_attr(d, t=None):
    s = f"comparison_direction = #stablehlo<comparison_direction {d}>"
    if t:
        s += f", compare_type = #stablehlo<comparison_type {t}>"
    return s


def hand_cases(test_module, np):
    out = []
    i32 = np.int32

    # -- integer semantics ---------------------------------------------------
    a = np.array([7, -7, 7, -7, 5, -2147483648, -2147483648, 0, 123, -1, 1, 2], dtype=i32)
    b = np.array([2, 2, -2, -2, 0, -1, 0, 0, 3, 3, -5, 40], dtype=i32)
    p = Prog([((12,), "i32"), ((12,), "i32")])
    x, y = p.arg(0), p.arg(1)
    div = p.op("divide", [x, y], ((12,), "i32"))
    rem = p.op("remainder", [x, y], ((12,), "i32"))
    shl = p.op("shift_left", [x, y], ((12,), "i32"))
    shra = p.op("shift_right_arithmetic", [x, y], ((12,), "i32"))
    shrl = p.op("shift_right_logical", [x, y], ((12,), "i32"))
    pw = p.op("power", [x, y], ((12,), "i32"))
    sg = p.op("sign", [x], ((12,), "i32"))
    nt = p.op("not", [x], ((12,), "i32"))
    pc = p.op("popcnt", [x], ((12,), "i32"))
    clz = p.op("count_leading_zeros", [x], ((12,), "i32"))
    mx = p.op("maximum", [x, y], ((12,), "i32"))
    ab = p.op("abs", [x], ((12,), "i32"))
    res = [div, rem, shl, shra, shrl, pw, sg, nt, pc, clz, mx, ab]

    def xla_div(a, b):
        out = []
        for u, v in zip(a.tolist(), b.tolist()):
            if v == 0:
                out.append(-1)
            elif u == -2**31 and v == -1:
                out.append(-2**31)
            else:
                q = abs(u) // abs(v)
                out.append(q if (u >= 0) == (v >= 0) else -q)
        return np.array(out, dtype=i32)

    def xla_rem(a, b):
        out = []
        for u, v in zip(a.tolist(), b.tolist()):
            if v == 0:
                out.append(u)
            elif u == -2**31 and v == -1:
                out.append(0)
            else:
                r = abs(u) % abs(v)
                out.append(r if u >= 0 else -r)
        return np.array(out, dtype=i32)

    def shifts(a, b, kind):
        out = []
        for u, v in zip(a.tolist(), b.tolist()):
            amt = v & 0xFFFFFFFF
            if kind == "shl":
                out.append(0 if amt >= 32 else ((u << amt) & 0xFFFFFFFF))
            elif kind == "shra":
                out.append(u >> min(amt, 31))
            else:
                out.append(0 if amt >= 32 else ((u & 0xFFFFFFFF) >> amt))
        return np.array(out, dtype=np.int64).astype(np.uint32).view(i32) if kind != "shra" else np.array(out, dtype=i32)

    def ipow(a, b):
        out = []
        for u, v in zip(a.tolist(), b.tolist()):
            acc, base, e = 1, u, v & 0xFFFFFFFF
            for _ in range(6):
                if e & 1:
                    acc = (acc * base) & 0xFFFFFFFF
                base = (base * base) & 0xFFFFFFFF
                e >>= 1
            acc = np.array([acc], dtype=np.uint32).view(i32)[0]
            out.append(acc if v >= 0 else (1 if u == 1 else 0))
        return np.array(out, dtype=i32)

    def clz32(a):
        out = []
        for u in a.tolist():
            u &= 0xFFFFFFFF
            out.append(32 - u.bit_length())
        return np.array(out, dtype=i32)

    want = [
        xla_div(a, b), xla_rem(a, b), shifts(a, b, "shl"), shifts(a, b, "shra"), shifts(a, b, "shrl"), ipow(a, b),
        np.sign(a).astype(i32), ~a, np.array([bin(u & 0xFFFFFFFF).count("1") for u in a.tolist()], dtype=i32), clz32(a),
        np.maximum(a, b), np.abs(a),
    ]
    out.append(("linalg_lower_stablehlo_e2e_int_semantics.mlir",
                "// End to end: integer corner cases (divide/remainder by 0 and INT_MIN/-1, shifts >= 32 and negative,\n"
                "// power with negative exponent, sign, not, popcnt, clz), expected values per XLA.",
                test_module("integer semantics", p.text(res), [a, b], want, 0, 0)))

    # -- float semantics -----------------------------------------------------
    f = np.array([np.nan, -0.0, 0.0, 2.5, -2.5, 0.5, 1.5, -1.5, np.inf, -np.inf, 3e9, -3e9, 1e-3, -7.25, 100.0, 0.3],
                 dtype=np.float32)
    g = np.array([1.0, np.nan, -1.0, 2.0, 3.0, -0.5, 0.0, 1.5, 2.0, 1.0, 1.0, 2.0, -3.0, 0.5, 1.5, 2.0], dtype=np.float32)
    n = 16
    p = Prog([((n,), "f32"), ((n,), "f32")])
    x, y = p.arg(0), p.arg(1)
    sg = p.op("sign", [x], ((n,), "f32"))
    rne = p.op("round_nearest_even", [x], ((n,), "f32"))
    afz = p.op("round_nearest_afz", [x], ((n,), "f32"))
    mx = p.op("maximum", [x, y], ((n,), "f32"))
    mn = p.op("minimum", [x, y], ((n,), "f32"))
    cv = p.op("convert", [x], ((n,), "i32"))
    cb = p.op("convert", [x], ((n,), "i1"))
    fin = p.op("is_finite", [x], ((n,), "i1"))
    rem = p.op("remainder", [x, y], ((n,), "f32"))
    tot = p.op("compare", [x, y], ((n,), "i1"), cmp_attr("LT", "TOTALORDER"))
    flt = p.op("compare", [x, y], ((n,), "i1"), cmp_attr("NE", "FLOAT"))
    lg = p.op("logistic", [y], ((n,), "f32"))
    th = p.op("tanh", [x], ((n,), "f32"))
    at = p.op("atan2", [x, y], ((n,), "f32"))
    cbr = p.op("cbrt", [x], ((n,), "f32"))
    res = [sg, rne, afz, mx, mn, cv, cb, fin, rem, tot, flt, lg, th, at, cbr]

    def sign(v):
        o = np.sign(v)
        o[v == 0] = v[v == 0]
        return o.astype(np.float32)

    def afz_(v):
        return (np.sign(v) * np.floor(np.abs(v) + 0.5)).astype(np.float32)

    def nanmax(u, v, fn):
        o = fn(u, v)
        return o.astype(np.float32)

    def f2i(v):
        o = []
        for u in v.tolist():
            if u != u:
                o.append(0)
            elif u >= 2**31:
                o.append(2**31 - 1)
            elif u <= -2**31:
                o.append(-2**31)
            else:
                o.append(int(u))
        return np.array(o, dtype=i32)

    def total_key(v):
        bits = v.view(i32).astype(np.int64)
        return np.where(bits < 0, bits ^ 0x7FFFFFFF, bits)

    with np.errstate(all="ignore"):
        want = [
            sign(f), np.round(f).astype(np.float32), afz_(f), np.maximum(f, g), np.minimum(f, g), f2i(f), (f != 0) | np.isnan(f),
            np.isfinite(f), np.fmod(f, g).astype(np.float32), total_key(f) < total_key(g), f != g,
            (1 / (1 + np.exp(-g))).astype(np.float32), np.tanh(f).astype(np.float32), np.arctan2(f, g).astype(np.float32),
            np.cbrt(f).astype(np.float32),
        ]
    out.append(("linalg_lower_stablehlo_e2e_float_semantics.mlir",
                "// End to end: float corner cases (sign of NaN/±0, round half even/away, NaN-propagating max/min,\n"
                "// float->int saturation and NaN->0, float->bool, is_finite, fmod remainder, TOTALORDER vs FLOAT compare, ...).",
                test_module("float semantics", p.text(res), [f, g], want, 1e-6, 1e-6)))

    # -- bf16 -----------------------------------------------------------------
    def to_bf16_bits(v):
        u = v.astype(np.float32).view(np.uint32).astype(np.uint64)
        r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
        return r

    def bf16_to_f32(bits):
        return (bits.astype(np.uint32) << 16).view(np.float32)

    xb = to_bf16_bits(np.linspace(-2, 2, 8).astype(np.float32))
    yb = to_bf16_bits(np.linspace(0.5, 3, 8).astype(np.float32))
    xf, yf = bf16_to_f32(xb), bf16_to_f32(yb)
    p = Prog([((8,), "bf16"), ((8,), "bf16")])
    x, y = p.arg(0), p.arg(1)
    s = p.op("add", [x, y], ((8,), "bf16"))
    m = p.op("multiply", [s, y], ((8,), "bf16"))
    e = p.op("exponential", [x], ((8,), "bf16"))
    c = p.op("convert", [m], ((8,), "f32"))
    res = [m, e, c]
    sf = bf16_to_f32(to_bf16_bits(xf + yf))
    mf = bf16_to_f32(to_bf16_bits(sf * yf))
    ef = bf16_to_f32(to_bf16_bits(np.exp(xf)))
    out.append(("linalg_lower_stablehlo_e2e_bf16.mlir",
                "// End to end: bf16 arithmetic (computed in f32, rounded to bf16 after every op) and convert.",
                test_module("bf16", p.text(res), [xb, yb], [mf, ef, mf],
                            elems_in={0: "bf16", 1: "bf16"}, elems_out={0: "bf16", 1: "bf16"}, rtol=1e-2, atol=1e-2)))

    # -- dot_general ------------------------------------------------------------
    rng = np.random.default_rng(0)
    A = rng.standard_normal((3, 4, 5)).astype(np.float32)
    B = rng.standard_normal((3, 5, 2)).astype(np.float32)
    C = rng.standard_normal((5, 3, 6)).astype(np.float32)  # contract dim 0, batch dim 1
    p = Prog([((3, 4, 5), "f32"), ((3, 5, 2), "f32"), ((5, 3, 6), "f32")])
    x, y, z = p.arg(0), p.arg(1), p.arg(2)
    bm = p.op("dot_general", [x, y], ((3, 4, 2), "f32"),
              "dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
              "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>")
    gm = p.op("dot_general", [x, z], ((3, 4, 6), "f32"),
              "dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], "
              "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>")
    outer = p.op("dot_general", [x, z], ((3, 4, 5, 5, 6), "f32"),
                 "dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1]>")
    res = [bm, gm, outer]
    want = [np.einsum("bmk,bkn->bmn", A, B), np.einsum("bmk,kbn->bmn", A, C), np.einsum("bmk,jbn->bmkjn", A, C)]
    out.append(("linalg_lower_stablehlo_e2e_dot_general.mlir",
                "// End to end: dot_general batched (batch_matmul), with non-canonical batch/contracting dims (generic),\n"
                "// and with no contracting dims (outer product).",
                test_module("dot_general", p.text(res), [A, B, C], want, 1e-5, 1e-5)))

    # -- reduce / reduce_window ----------------------------------------------------
    X = rng.standard_normal((4, 6, 5)).astype(np.float32)
    p = Prog([((4, 6, 5), "f32")])
    x = p.arg(0)
    zero = p.const("dense<0.0>", (), "f32")
    ninf = p.const("dense<0xFF800000>", (), "f32")
    add_body = body([("%p", "f32"), ("%q", "f32")], ['%s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>'], [("%s", "f32")])
    max_body = body([("%p", "f32"), ("%q", "f32")], ['%s = "stablehlo.maximum"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>'], [("%s", "f32")])
    s02 = p.op("reduce", [x, zero], ((6,), "f32"), "dimensions = array<i64: 0, 2>", add_body)
    m1 = p.op("reduce", [x, ninf], ((4, 5), "f32"), "dimensions = array<i64: 1>", max_body)
    # max pool 2x2 stride 2 over dims 1,2 with padding (0,0),(0,1),(1,0)
    pool = p.op("reduce_window", [x, ninf], ((4, 3, 3), "f32"),
                "window_dimensions = array<i64: 1, 2, 2>, window_strides = array<i64: 1, 2, 2>, "
                "padding = dense<[[0, 0], [0, 1], [1, 0]]> : tensor<3x2xi64>", max_body)
    # sum window 3 with dilation 2 along dim 1
    win = p.op("reduce_window", [x, zero], ((4, 2, 5), "f32"),
               "window_dimensions = array<i64: 1, 3, 1>, window_dilations = array<i64: 1, 2, 1>", add_body)
    res = [s02, m1, pool, win]
    Xp = np.pad(X, ((0, 0), (0, 1), (1, 0)), constant_values=-np.inf)
    pw = np.full((4, 3, 3), -np.inf, np.float32)
    for i in range(3):
        for j in range(3):
            pw[:, i, j] = Xp[:, 2 * i:2 * i + 2, 2 * j:2 * j + 2].max(axis=(1, 2))
    ww = np.stack([X[:, i] + X[:, i + 2] + X[:, i + 4] for i in range(2)], axis=1)
    want = [X.sum(axis=(0, 2)), X.max(axis=1), pw, ww]
    out.append(("linalg_lower_stablehlo_e2e_reduce.mlir",
                "// End to end: reduce over several dims (sum, max), reduce_window (max pool with stride and padding,\n"
                "// sum with window dilation).",
                test_module("reduce", p.text(res), [X], want, 1e-5, 1e-5)))

    # -- shape ops -----------------------------------------------------------------
    S = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    p = Prog([((2, 3, 4), "f32")])
    x = p.arg(0)
    tr = p.op("transpose", [x], ((4, 2, 3), "f32"), "permutation = array<i64: 2, 0, 1>")
    sl = p.op("slice", [x], ((2, 2, 2), "f32"), "start_indices = array<i64: 0, 1, 0>, limit_indices = array<i64: 2, 3, 4>, strides = array<i64: 1, 1, 2>")
    pv = p.const("dense<-1.0>", (), "f32")
    pd = p.op("pad", [x, pv], ((3, 5, 7), "f32"),
              "edge_padding_low = array<i64: 1, -1, 0>, edge_padding_high = array<i64: 0, 1, 0>, interior_padding = array<i64: 0, 1, 1>")
    rv = p.op("reverse", [x], ((2, 3, 4), "f32"), "dimensions = array<i64: 0, 2>")
    rs = p.op("reshape", [x], ((6, 4), "f32"))
    ct = p.op("concatenate", [x, x], ((2, 6, 4), "f32"), "dimension = 1 : i64")
    io = p.op("iota", [], ((3, 4), "f32"), "iota_dimension = 1 : i64")
    bc = p.op("broadcast_in_dim", [rs], ((4, 6, 4), "f32"), "broadcast_dimensions = array<i64: 1, 2>")
    res = [tr, sl, pd, rv, rs, ct, io, bc]
    P = np.full((2, 5, 7), -1.0, np.float32)
    P[:, ::2, ::2] = S
    P = np.concatenate([np.full((1, 5, 7), -1.0, np.float32), P], axis=0)[:, 1:, :]
    P = np.concatenate([P, np.full((3, 1, 7), -1.0, np.float32)], axis=1)
    want = [S.transpose(2, 0, 1), S[:, 1:3, 0:4:2], P, S[::-1, :, ::-1], S.reshape(6, 4), np.concatenate([S, S], axis=1),
            np.tile(np.arange(4, dtype=np.float32), (3, 1)), np.broadcast_to(S.reshape(6, 4), (4, 6, 4))]
    out.append(("linalg_lower_stablehlo_e2e_shape.mlir",
                "// End to end: transpose, strided slice, pad (negative edge + interior), reverse, reshape, concatenate,\n"
                "// iota (float), broadcast_in_dim.",
                test_module("shape ops", p.text(res), [S], want, 0, 0)))

    # -- gather / scatter --------------------------------------------------------------
    O = np.arange(30, dtype=np.float32).reshape(5, 6)
    I = np.array([[0, 1], [4, 5], [2, 0], [-3, 9]], dtype=i32)
    U = np.ones((4, 2, 2), np.float32)
    p = Prog([((5, 6), "f32"), ((4, 2), "i32"), ((4, 2, 2), "f32")])
    o, idx, u = p.arg(0), p.arg(1), p.arg(2)
    ga = p.op("gather", [o, idx], ((4, 2, 3), "f32"),
              "dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, "
              "indices_are_sorted = false, slice_sizes = array<i64: 2, 3>")
    add_body = body([("%p", "f32"), ("%q", "f32")], ['%s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>'], [("%s", "f32")])
    sc = p.op("scatter", [o, idx, u], ((5, 6), "f32"),
              "scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0, 1], "
              "index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false", add_body)
    res = [ga, sc]
    G = np.zeros((4, 2, 3), np.float32)
    Sc = O.copy()
    for k, (r, c) in enumerate(I.tolist()):
        rr, cc = min(max(r, 0), 3), min(max(c, 0), 3)
        G[k] = O[rr:rr + 2, cc:cc + 3]
        if 0 <= r <= 3 and 0 <= c <= 4:
            Sc[r:r + 2, c:c + 2] += U[k]
    out.append(("linalg_lower_stablehlo_e2e_gather_scatter.mlir",
                "// End to end: gather of 2-D windows with clamped start indices; scatter-add whose out-of-bounds\n"
                "// update windows are skipped (XLA).",
                test_module("gather/scatter", p.text(res), [O, I, U], [G, Sc], 0, 0)))

    # -- convolution -----------------------------------------------------------------------
    L = rng.standard_normal((2, 7, 6, 4)).astype(np.float32)
    K = rng.standard_normal((3, 3, 2, 6)).astype(np.float32)  # feature_group_count = 2: 4 inputs / 2 groups
    p = Prog([((2, 7, 6, 4), "f32"), ((3, 3, 2, 6), "f32")])
    l, k = p.arg(0), p.arg(1)
    cv = p.op("convolution", [l, k], ((2, 4, 3, 6), "f32"),
              "batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, "
              "feature_group_count = 2 : i64, padding = dense<[[1, 1], [1, 0]]> : tensor<2x2xi64>, "
              "rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 2, 2>, window_reversal = array<i1: false, true>")
    res = [cv]
    Lp = np.pad(L, ((0, 0), (1, 1), (1, 0), (0, 0)))
    Kr = K[:, ::-1]
    W = np.zeros((2, 4, 3, 6), np.float32)
    for oy in range(4):
        for ox in range(3):
            patch = Lp[:, 2 * oy:2 * oy + 3, 2 * ox:2 * ox + 3, :]
            for oc in range(6):
                gidx = oc // 3
                W[:, oy, ox, oc] = np.einsum("bhwc,hwc->b", patch[..., 2 * gidx:2 * gidx + 2], Kr[..., oc])
    out.append(("linalg_lower_stablehlo_e2e_convolution.mlir",
                "// End to end: NHWC convolution with stride 2, asymmetric padding, 2 feature groups, window reversal.",
                test_module("convolution", p.text(res), [L, K], [W], 1e-5, 1e-5)))

    # -- sort with two operands, descending ---------------------------------------------------
    key = np.array([[3, 1, 2, 3, 0, 2], [5, 5, 1, 0, 9, 1]], dtype=i32)
    val = np.arange(12, dtype=np.float32).reshape(2, 6)
    p = Prog([((2, 6), "i32"), ((2, 6), "f32")])
    kk, vv = p.arg(0), p.arg(1)
    cmpb = body([("%a", "i32"), ("%b", "i32"), ("%c", "f32"), ("%d", "f32")],
                [f'%s = "stablehlo.compare"(%a, %b) <{{{cmp_attr("GT", "SIGNED")}}}> : (tensor<i32>, tensor<i32>) -> tensor<i1>'],
                [("%s", "i1")])
    so = p.op("sort", [kk, vv], [((2, 6), "i32"), ((2, 6), "f32")], "dimension = 1 : i64, is_stable = true", cmpb)
    res = so
    order = np.argsort(-key, axis=1, kind="stable")
    out.append(("linalg_lower_stablehlo_e2e_sort_pairs.mlir",
                "// End to end: stable sort of (key, value) pairs, descending keys.",
                test_module("sort pairs", p.text(res), [key, val],
                            [np.take_along_axis(key, order, 1), np.take_along_axis(val, order, 1)], 0, 0)))

    # -- case / if -------------------------------------------------------------------------------
    p = Prog([((), "i32"), ((4,), "f32")])
    sel, xv = p.arg(0), p.arg(1)
    branches = []
    for kconst in ["1.0", "2.0", "3.0"]:
        branches.append("{\n" + f'      %k = "stablehlo.constant"() <{{value = dense<{kconst}> : tensor<4xf32>}}> : () -> tensor<4xf32>\n'
                        f'      %r = "stablehlo.multiply"({xv[0]}, %k) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n'
                        '      "stablehlo.return"(%r) : (tensor<4xf32>) -> ()\n    }')
    cs = p.op("case", [sel], ((4,), "f32"), "", ", ".join(branches))
    zero = p.const("dense<0>", (), "i32")
    pred = p.op("compare", [sel, zero], ((), "i1"), cmp_attr("GT", "SIGNED"))
    ifb = ("{\n" + f'      "stablehlo.return"({cs[0]}) : (tensor<4xf32>) -> ()\n    }}, {{\n'
           f'      %n = "stablehlo.negate"({xv[0]}) : (tensor<4xf32>) -> tensor<4xf32>\n'
           '      "stablehlo.return"(%n) : (tensor<4xf32>) -> ()\n    }')
    iff = p.op("if", [pred], ((4,), "f32"), "", ifb)
    res = [cs, iff]
    xin = np.array([1, -2, 3, 0.5], np.float32)
    cases_ = []
    for s_, f_ in [(1, 2.0), (7, 3.0), (-1, 3.0)]:
        pp = Prog(p.args)
        pp.lines, pp.n = p.lines, p.n
        want_if = xin * f_ if s_ > 0 else -xin
        cases_.append((s_, f_, want_if))
    for s_, f_, want_if in cases_:
        out.append((f"linalg_lower_stablehlo_e2e_case_{'neg' if s_ < 0 else s_}.mlir",
                    f"// End to end: case with index {s_} (out of range → last branch) and if on index > 0.",
                    test_module("case/if", p.text(res), [np.array(s_, dtype=i32), xin], [xin * f_, want_if], 0, 0)))

    # -- select_and_scatter (max-pool gradient), batch_norm_inference, broadcast ------------------
    X = rng.standard_normal((4, 6)).astype(np.float32)
    Src = rng.standard_normal((2, 3)).astype(np.float32)
    Sc = rng.standard_normal((6,)).astype(np.float32)
    Of = rng.standard_normal((6,)).astype(np.float32)
    Mn = rng.standard_normal((6,)).astype(np.float32)
    Vr = (rng.random((6,)) + 0.5).astype(np.float32)
    p = Prog([((4, 6), "f32"), ((2, 3), "f32"), ((6,), "f32"), ((6,), "f32"), ((6,), "f32"), ((6,), "f32")])
    x, src, sc, of, mn, vr = [p.arg(i) for i in range(6)]
    zero = p.const("dense<0.0>", (), "f32")
    selb = body([("%a", "f32"), ("%b", "f32")],
                [f'%c = "stablehlo.compare"(%a, %b) <{{{cmp_attr("GE", "FLOAT")}}}> : (tensor<f32>, tensor<f32>) -> tensor<i1>'], [("%c", "i1")])
    addb = body([("%a", "f32"), ("%b", "f32")], ['%s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>'], [("%s", "f32")])
    sas = p.op("select_and_scatter", [x, src, zero], ((4, 6), "f32"),
               "window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>, "
               "padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>", selb + ", " + addb)
    bn = p.op("batch_norm_inference", [x, sc, of, mn, vr], ((4, 6), "f32"), "epsilon = 1.000000e-03 : f32, feature_index = 1 : i64")
    bc = p.op("broadcast", [sc], ((2, 3, 6), "f32"), "broadcast_sizes = array<i64: 2, 3>")
    res = [sas, bn, bc]
    G = np.zeros((4, 6), np.float32)
    Xp = np.pad(X, ((0, 0), (0, 1)), constant_values=-np.inf)
    for i in range(2):
        for j in range(3):
            w = Xp[2 * i:2 * i + 2, 2 * j:2 * j + 3]
            # first maximum in row-major order (ties keep the earlier one: select is GE)
            k = int(np.argmax(w))
            G[2 * i + k // 3, 2 * j + k % 3] += Src[i, j]
    BN = (X - Mn) * Sc / np.sqrt(Vr + 1e-3) + Of
    out.append(("linalg_lower_stablehlo_e2e_select_and_scatter.mlir",
                "// End to end: select_and_scatter (max-pool gradient with stride and padding), batch_norm_inference,\n"
                "// legacy broadcast.",
                test_module("select_and_scatter", p.text(res), [X, Src, Sc, Of, Mn, Vr], [G, BN.astype(np.float32), np.broadcast_to(Sc, (2, 3, 6))], 1e-5, 1e-5)))
    return out
