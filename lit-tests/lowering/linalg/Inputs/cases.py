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
    return out + hand_cases(test_module, np) + type_cases(test_module, np)


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


# ---------------------------------------------------------------------------
# One file per element-type family: unsigned integers (ui32 corner cases, and
# ui8/ui16/ui64), booleans, f16, f64. Expected values from numpy, following
# the spec and XLA:CPU where the spec leaves a choice (checked against
# XLA:CPU when written).

def xla_pow(a, b, bits):
    """XLA's EmitIntegerPow: squaring over the low 6 exponent bits; an
    exponent with the sign bit set (also for unsigned types) gives 1 for base
    1 and 0 otherwise."""
    m = (1 << bits) - 1
    out = []
    for u, v in zip(a.tolist(), b.tolist()):
        acc, base, e = 1, u & m, v & m
        for _ in range(6):
            if e & 1:
                acc = (acc * base) & m
            base = (base * base) & m
            e >>= 1
        out.append(acc if (v & m) < (1 << (bits - 1)) else (1 if u == 1 else 0))
    return out


def f2u(v, bits, np):
    """float → unsigned, saturating, NaN → 0 (XLA's fptoui.sat)."""
    out = []
    for u in v.tolist():
        if u != u or u <= 0:
            out.append(0)
        elif u >= 2.0**bits:
            out.append(2**bits - 1)
        else:
            out.append(int(u))
    return np.array(out, dtype=f"uint{bits}")


def f2i(v, bits, np):
    """float → signed, saturating, NaN → 0 (XLA)."""
    out = []
    for u in v.tolist():
        if u != u:
            out.append(0)
        elif u >= 2.0 ** (bits - 1):
            out.append(2 ** (bits - 1) - 1)
        elif u <= -(2.0 ** (bits - 1)):
            out.append(-(2 ** (bits - 1)))
        else:
            out.append(int(u))
    return np.array(out, dtype=f"int{bits}")


def type_cases(test_module, np):
    out = []
    u32 = np.uint32
    M = 0xFFFFFFFF

    # -- ui32 corner cases -------------------------------------------------------
    a = np.array([7, M, 0x80000000, 5, 0, 123, 1, 2, 3000000000, 17, 0xDEADBEEF, 100], dtype=u32)
    b = np.array([2, 2, 1, 0, 0, 3, 40, 31, 7, 32, 4, M], dtype=u32)
    c = np.array([np.nan, -1, -0.5, 0.5, 1.5, 4294967040.0, 4294967296.0, 1e20, np.inf, -np.inf, 3e9, 255.9], dtype=np.float32)
    n = 12
    U = ((n,), "ui32")
    p = Prog([U, U, ((n,), "f32")])
    x, y, z = p.arg(0), p.arg(1), p.arg(2)
    lo = p.const("dense<10>", (), "ui32")
    hi = p.const("dense<3000000000>", (), "ui32")
    res = [
        p.op("divide", [x, y], U),
        p.op("remainder", [x, y], U),
        p.op("shift_left", [x, y], U),
        p.op("shift_right_logical", [x, y], U),
        p.op("shift_right_arithmetic", [x, y], U),
        p.op("power", [x, y], U),
        p.op("maximum", [x, y], U),
        p.op("minimum", [x, y], U),
        p.op("compare", [x, y], ((n,), "i1"), cmp_attr("LT")),
        p.op("compare", [x, y], ((n,), "i1"), cmp_attr("GE", "UNSIGNED")),
        p.op("clamp", [lo, x, hi], U),
        p.op("not", [x], U),
        p.op("negate", [x], U),
        p.op("popcnt", [x], U),
        p.op("count_leading_zeros", [x], U),
        p.op("multiply", [x, y], U),
        p.op("convert", [x], ((n,), "f32")),
        p.op("convert", [x], ((n,), "f64")),
        p.op("convert", [x], ((n,), "ui64")),
        p.op("convert", [x], ((n,), "i64")),
        p.op("convert", [x], ((n,), "i16")),
        p.op("convert", [x], ((n,), "ui8")),
        p.op("convert", [z], ((n,), "ui32")),
        p.op("convert", [z], ((n,), "ui8")),
        p.op("convert", [z], ((n,), "ui64")),
        p.op("bitcast_convert", [x], ((n,), "f32")),
        p.op("bitcast_convert", [z], U),
        p.op("bitcast_convert", [x], ((n,), "i32")),
    ]
    a64, b64 = a.astype(np.uint64), b.astype(np.uint64)
    shra = [((np.int64(np.int32(u)) >> min(v, 31)) & M) for u, v in zip(a.view(np.int32).tolist(), b.tolist())]
    want = [
        np.where(b == 0, M, a // np.maximum(b, 1)).astype(u32),
        np.where(b == 0, a, a % np.maximum(b, 1)).astype(u32),
        np.where(b64 >= 32, 0, (a64 << np.minimum(b64, 63)) & M).astype(u32),
        np.where(b64 >= 32, 0, a64 >> np.minimum(b64, 63)).astype(u32),
        np.array(shra, dtype=np.int64).astype(u32),
        np.array(xla_pow(a, b, 32), dtype=u32),
        np.maximum(a, b),
        np.minimum(a, b),
        a < b,
        a >= b,
        np.clip(a, 10, 3000000000).astype(u32),
        ~a,
        ((0 - a64) & M).astype(u32),
        np.array([bin(u).count("1") for u in a.tolist()], dtype=u32),
        np.array([32 - u.bit_length() for u in a.tolist()], dtype=u32),
        ((a64 * b64) & M).astype(u32),
        a.astype(np.float32),
        a.astype(np.float64),
        a.astype(np.uint64),
        a.astype(np.int64),
        a.astype(np.int16),
        a.astype(np.uint8),
        f2u(c, 32, np),
        f2u(c, 8, np),
        f2u(c, 64, np),
        a.view(np.float32),
        c.view(u32),
        a.view(np.int32),
    ]
    out.append(("linalg_lower_stablehlo_e2e_unsigned.mlir",
                "// End to end: ui32 corner cases (divide/remainder by 0 → all ones/dividend, shifts >= 32, arithmetic shift of\n"
                "// the top bit, power with a sign-bit exponent, unsigned max/min/clamp/compare with and without a type, wrap),\n"
                "// conversions (uitofp, zero extension, truncation, float → unsigned saturating with NaN → 0), bitcasts.",
                test_module("ui32 semantics", p.text(res), [a, b, c], want, 0, 0)))

    # -- ui8 / ui16 / ui64 -----------------------------------------------------------
    rng = np.random.default_rng(7)
    a8 = np.array([0, 1, 2, 100, 200, 255, 17, 128], dtype=np.uint8)
    b8 = np.array([0, 3, 255, 7, 9, 2, 8, 128], dtype=np.uint8)
    a16 = np.array([0, 1, 65535, 40000, 300, 65000, 17, 32768], dtype=np.uint16)
    b16 = np.array([0, 65535, 2, 3, 16, 7, 40, 32768], dtype=np.uint16)
    a64 = np.array([0, 1, 2**64 - 1, 2**63, 12345678901234567890, 5, 2**53 + 1, 77], dtype=np.uint64)
    b64 = np.array([0, 2**64 - 1, 2, 3, 1000000007, 64, 1, 2**63], dtype=np.uint64)
    m = rng.integers(0, 256, size=(3, 5)).astype(np.uint8)
    k = rng.integers(0, 256, size=(5, 2)).astype(np.uint8)
    p = Prog([((8,), "ui8"), ((8,), "ui8"), ((8,), "ui16"), ((8,), "ui16"), ((8,), "ui64"), ((8,), "ui64"), ((3, 5), "ui8"), ((5, 2), "ui8")])
    x8, y8, x16, y16, x64, y64, mm, kk = (p.arg(i) for i in range(8))
    res, want = [], []
    for xs, ys, av, bv, w in ((x8, y8, a8, b8, 8), (x16, y16, a16, b16, 16), (x64, y64, a64, b64, 64)):
        e = f"ui{w}"
        T_ = ((8,), e)
        dt = getattr(np, f"uint{w}")
        mask = (1 << w) - 1
        res += [
            p.op("add", [xs, ys], T_),
            p.op("multiply", [xs, ys], T_),
            p.op("divide", [xs, ys], T_),
            p.op("remainder", [xs, ys], T_),
            p.op("compare", [xs, ys], ((8,), "i1"), cmp_attr("GT", "UNSIGNED")),
            p.op("maximum", [xs, ys], T_),
            p.op("shift_right_logical", [xs, ys], T_),
            p.op("convert", [xs], ((8,), "f32")),
            p.op("convert", [xs], ((8,), "f64")),
            p.op("convert", [xs], ((8,), "i64")),
        ]
        al, bl = [int(v) for v in av.tolist()], [int(v) for v in bv.tolist()]
        want += [
            np.array([(u + v) & mask for u, v in zip(al, bl)], dtype=dt),
            np.array([(u * v) & mask for u, v in zip(al, bl)], dtype=dt),
            np.array([mask if v == 0 else u // v for u, v in zip(al, bl)], dtype=dt),
            np.array([u if v == 0 else u % v for u, v in zip(al, bl)], dtype=dt),
            av > bv,
            np.maximum(av, bv),
            np.array([0 if v >= w else u >> v for u, v in zip(al, bl)], dtype=dt),
            av.astype(np.float32),
            av.astype(np.float64),
            av.astype(np.int64),
        ]
    # widening ui8 → ui32 in a dot (zero extension), a wrapping ui8 sum, an unsigned ui64 max, iota
    zero8 = p.const("dense<0>", (), "ui8")
    zero64 = p.const("dense<0>", (), "ui64")
    add8 = body([("%p", "ui8"), ("%q", "ui8")], ['%s = "stablehlo.add"(%p, %q) : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>'], [("%s", "ui8")])
    max64 = body([("%p", "ui64"), ("%q", "ui64")], ['%s = "stablehlo.maximum"(%p, %q) : (tensor<ui64>, tensor<ui64>) -> tensor<ui64>'], [("%s", "ui64")])
    mm32 = p.op("convert", [mm], ((3, 5), "ui32"))
    kk32 = p.op("convert", [kk], ((5, 2), "ui32"))
    res += [
        p.op("dot_general", [mm, kk], ((3, 2), "ui32"),
             "dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>"),
        p.op("dot_general", [mm32, kk32], ((3, 2), "ui32"),
             "dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>"),
        p.op("reduce", [mm, zero8], ((3,), "ui8"), "dimensions = array<i64: 1>", add8),
        p.op("reduce", [p.op("reshape", [x64], ((2, 4), "ui64")), zero64], ((2,), "ui64"), "dimensions = array<i64: 1>", max64),
        p.op("iota", [], ((4, 3), "ui16"), "iota_dimension = 1 : i64"),
    ]
    want += [
        m.astype(np.uint32) @ k.astype(np.uint32),
        m.astype(np.uint32) @ k.astype(np.uint32),
        (m.astype(np.int64).sum(axis=1) & 0xFF).astype(np.uint8),
        a64.reshape(2, 4).max(axis=1),
        np.tile(np.arange(3, dtype=np.uint16), (4, 1)),
    ]
    out.append(("linalg_lower_stablehlo_e2e_unsigned_widths.mlir",
                "// End to end: ui8/ui16/ui64 arithmetic (wrap, divide/remainder incl. by 0, unsigned compare/max, logical\n"
                "// shift by >= width), conversions to f32/f64/i64 (values above the signed range), a ui8 dot accumulating\n"
                "// in ui32 (zero extension), a wrapping ui8 sum, an unsigned ui64 max, ui16 iota.",
                test_module("ui8/ui16/ui64", p.text(res), [a8, b8, a16, b16, a64, b64, m, k], want, 0, 0)))

    # -- booleans ----------------------------------------------------------------
    pb = np.array([0, 0, 1, 1, 0, 1, 0, 1], dtype=bool)
    qb = np.array([0, 1, 0, 1, 1, 1, 0, 0], dtype=bool)
    rb = np.array([[1, 1, 1, 1], [0, 1, 0, 0], [0, 0, 0, 0]], dtype=bool)
    iv = np.array([0, -3, 7, 0, 1, 0, 2**31 - 1, -2**31], dtype=np.int32)
    B = ((8,), "i1")
    p = Prog([B, B, ((3, 4), "i1"), ((8,), "i32")])
    x, y, r, iv_ = p.arg(0), p.arg(1), p.arg(2), p.arg(3)
    fls = p.const("dense<false>", (), "i1")
    tru = p.const("dense<true>", (), "i1")
    or_body = body([("%p", "i1"), ("%q", "i1")], ['%s = "stablehlo.or"(%p, %q) : (tensor<i1>, tensor<i1>) -> tensor<i1>'], [("%s", "i1")])
    and_body = body([("%p", "i1"), ("%q", "i1")], ['%s = "stablehlo.and"(%p, %q) : (tensor<i1>, tensor<i1>) -> tensor<i1>'], [("%s", "i1")])
    nx = p.op("not", [x], B)
    res = [
        p.op("add", [x, y], B),
        p.op("multiply", [x, y], B),
        p.op("maximum", [x, y], B),
        p.op("minimum", [x, y], B),
        p.op("and", [x, y], B),
        p.op("or", [x, y], B),
        p.op("xor", [x, y], B),
        nx,
        p.op("compare", [x, y], B, cmp_attr("LT")),
        p.op("compare", [x, y], B, cmp_attr("GE", "UNSIGNED")),
        p.op("compare", [x, y], B, cmp_attr("EQ")),
        p.op("compare", [x, y], B, cmp_attr("NE")),
        p.op("select", [x, y, nx], B),
        p.op("convert", [x], ((8,), "f32")),
        p.op("convert", [x], ((8,), "ui8")),
        p.op("convert", [x], ((8,), "i32")),
        p.op("convert", [x], ((8,), "f16")),
        p.op("convert", [iv_], B),
        p.op("reduce", [r, fls], ((3,), "i1"), "dimensions = array<i64: 1>", or_body),
        p.op("reduce", [r, tru], ((4,), "i1"), "dimensions = array<i64: 0>", and_body),
    ]
    want = [
        pb | qb, pb & qb, pb | qb, pb & qb, pb & qb, pb | qb, pb ^ qb, ~pb,
        pb < qb, pb >= qb, pb == qb, pb != qb, np.where(pb, qb, ~pb),
        pb.astype(np.float32), pb.astype(np.uint8), pb.astype(np.int32), pb.astype(np.float16), iv != 0,
        rb.any(axis=1), rb.all(axis=0),
    ]
    out.append(("linalg_lower_stablehlo_e2e_bool.mlir",
                "// End to end: i1 (bool): add is or, multiply is and, max/min are or/and, logic ops, compare (false < true),\n"
                "// select, conversions to and from numbers, any/all reductions.",
                test_module("booleans", p.text(res), [pb, qb, rb, iv], want, 0, 0)))

    # -- f16 ---------------------------------------------------------------------
    h = np.array([0.0, -0.0, 1.0, -2.5, 65504.0, np.inf, -np.inf, np.nan, 6e-8, 0.1, 300.0, -70000.0 / 2], dtype=np.float16)
    g = np.array([1.5, 2.0, -3.0, 0.25, 2.0, 1.0, 7.0, 1.0, 3.0, 0.3, 0.5, -1.0], dtype=np.float16)
    w32 = np.array([1.0, 1.00048828125, 1.000732421875, 65519.0, 65520.0, 1e-8, -2.9802322e-08, 3.14159265], dtype=np.float32)
    w64 = np.array([1.0 + 2.0**-11 + 2.0**-40, 1.0 + 2.0**-11, 1.0 + 3 * 2.0**-11, 65519.99, 1e-7, -0.1], dtype=np.float64)
    hm = np.random.default_rng(3).standard_normal((4, 6)).astype(np.float16)
    hk = np.random.default_rng(4).standard_normal((6, 3)).astype(np.float16)
    n = 12
    H = ((n,), "f16")
    p = Prog([H, H, ((8,), "f32"), ((6,), "f64"), ((4, 6), "f16"), ((6, 3), "f16")])
    x, y, w3, w6, hm_, hk_ = (p.arg(i) for i in range(6))
    zh = p.const("dense<0.0>", (), "f16")
    addh = body([("%p", "f16"), ("%q", "f16")], ['%s = "stablehlo.add"(%p, %q) : (tensor<f16>, tensor<f16>) -> tensor<f16>'], [("%s", "f16")])
    dn = "dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>"
    res = [
        p.op("add", [x, y], H),
        p.op("multiply", [x, y], H),
        p.op("divide", [x, y], H),
        p.op("exponential", [y], H),
        p.op("tanh", [x], H),
        p.op("sqrt", [y], H),
        p.op("maximum", [x, y], H),
        p.op("compare", [x, y], ((n,), "i1"), cmp_attr("LT", "FLOAT")),
        p.op("convert", [x], ((n,), "f32")),
        p.op("convert", [x], ((n,), "f64")),
        p.op("convert", [x], ((n,), "i32")),
        p.op("convert", [x], ((n,), "ui8")),
        p.op("convert", [w3], ((8,), "f16")),
        p.op("convert", [w6], ((6,), "f16")),
        p.op("bitcast_convert", [x], ((n,), "ui16")),
        p.op("reduce", [hm_, zh], ((4,), "f16"), "dimensions = array<i64: 1>", addh),
        p.op("dot_general", [hm_, hk_], ((4, 3), "f16"), dn),
        p.op("dot_general", [hm_, hk_], ((4, 3), "f32"), dn),
    ]
    f16 = np.float16

    def seq_sum16(v):
        out_ = []
        for row in v:
            acc = f16(0)
            for e_ in row:
                acc = f16(np.float32(acc) + np.float32(e_))
            out_.append(acc)
        return np.array(out_, dtype=f16)

    with np.errstate(all="ignore"):
        hf, gf = h.astype(np.float32), g.astype(np.float32)
        prod = hm.astype(np.float32) @ hk.astype(np.float32)
        want = [
            (hf + gf).astype(f16), (hf * gf).astype(f16), (hf / gf).astype(f16), np.exp(gf).astype(f16), np.tanh(hf).astype(f16),
            np.sqrt(gf).astype(f16), np.where(np.isnan(hf) | np.isnan(gf), np.nan, np.maximum(hf, gf)).astype(f16), hf < gf,
            hf, h.astype(np.float64), f2i(hf, 32, np), f2u(hf, 8, np), w32.astype(f16), w64.astype(f16), h.view(np.uint16),
            seq_sum16(hm), prod.astype(f16), prod,
        ]
    out.append(("linalg_lower_stablehlo_e2e_f16.mlir",
                "// End to end: f16 arithmetic (computed in f32, rounded to f16 after every op) with inf/NaN/subnormals,\n"
                "// conversions (to f32/f64, saturating to i32/ui8, f32 and f64 → f16 rounded once to nearest even),\n"
                "// bitcast to ui16, a sum rounded at every step, dot_general accumulating in f32 (f16 and f32 results).",
                test_module("f16", p.text(res), [h, g, w32, w64, hm, hk], want, 1e-3, 1e-4)))

    # -- f64 ---------------------------------------------------------------------
    rng = np.random.default_rng(5)
    d = 1e8 + rng.standard_normal((4, 50))
    e = np.array([0.1, -2.5, 1e300, -1e-300, np.nan, np.inf, 2.0**63, -2.0**63 - 4096, 1.5e19, -0.0, 3.0, 1e-30], dtype=np.float64)
    f = np.array([0.3, 4.0, 1e10, 2.0, 1.0, -1.0, 1.0, 2.0, 3.0, 5.0, np.nan, 1.0], dtype=np.float64)
    uv = np.array([0, 1, 2**53 + 1, 2**64 - 1, 12345678901234567890, 2**63], dtype=np.uint64)
    dk = rng.standard_normal((50, 3))
    n = 12
    D = ((n,), "f64")
    p = Prog([((4, 50), "f64"), D, D, ((6,), "ui64"), ((50, 3), "f64")])
    dd, x, y, uu, kk = (p.arg(i) for i in range(5))
    z64 = p.const("dense<0.0>", (), "f64")
    addd = body([("%p", "f64"), ("%q", "f64")], ['%s = "stablehlo.add"(%p, %q) : (tensor<f64>, tensor<f64>) -> tensor<f64>'], [("%s", "f64")])
    res = [
        p.op("reduce", [dd, z64], ((4,), "f64"), "dimensions = array<i64: 1>", addd),
        p.op("dot_general", [dd, kk], ((4, 3), "f64"), dn),
        p.op("add", [x, y], D),
        p.op("multiply", [x, y], D),
        p.op("divide", [x, y], D),
        p.op("sqrt", [y], D),
        p.op("exponential", [y], D),
        p.op("log", [y], D),
        p.op("maximum", [x, y], D),
        p.op("compare", [x, y], ((n,), "i1"), cmp_attr("GT", "FLOAT")),
        p.op("convert", [x], ((n,), "f32")),
        p.op("convert", [x], ((n,), "bf16")),
        p.op("convert", [x], ((n,), "i64")),
        p.op("convert", [x], ((n,), "ui64")),
        p.op("convert", [uu], ((6,), "f64")),
        p.op("bitcast_convert", [x], ((n,), "ui64")),
    ]

    def to_bf16_bits64(v):
        # f64 → bf16 rounded once to nearest even (through f32 rounded to odd)
        out_ = []
        for u in v.tolist():
            f32v = np.float32(u)
            if np.isfinite(f32v) and float(f32v) != u:
                bits = int(np.array(f32v, np.float32).view(np.uint32))
                if abs(float(f32v)) > abs(u):
                    bits -= 1
                bits |= 1
                f32v = np.array(bits, np.uint32).view(np.float32)
            b = int(np.array(f32v, np.float32).view(np.uint32))
            if (b & 0x7F800000) == 0x7F800000 and (b & 0x7FFFFF):
                out_.append((b >> 16) | 0x40)
            else:
                out_.append((b + 0x7FFF + ((b >> 16) & 1)) >> 16)
        return np.array(out_, dtype=np.uint16)

    with np.errstate(all="ignore"):
        want = [
            d.sum(axis=1), d @ dk, e + f, e * f, e / f, np.sqrt(f), np.exp(f), np.log(f),
            np.where(np.isnan(e) | np.isnan(f), np.nan, np.maximum(e, f)), e > f, e.astype(np.float32),
            to_bf16_bits64(e), f2i(e, 64, np), f2u(e, 64, np), uv.astype(np.float64), e.view(np.uint64),
        ]
    out.append(("linalg_lower_stablehlo_e2e_f64.mlir",
                "// End to end: f64 kept in f64 (a sum of 1e8-sized values f32 could not hold, a dot, math functions),\n"
                "// conversions (to f32, to bf16 rounded once, saturating to i64/ui64, ui64 → f64), bitcast to ui64.",
                test_module("f64", p.text(res), [d, e, f, uv, dk], want, 1e-13, 1e-300,
                            elems_out={11: "bf16"})))
    return out
