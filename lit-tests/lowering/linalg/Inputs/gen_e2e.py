#!/usr/bin/env python3
"""Generates the end-to-end lit tests of floors-linalg-lower-stablehlo.

Each test wraps a StableHLO program (a corpus program from
/work/shared/corpus/public, or a hand-written case) in a module with a
`func.func @main()` that builds the inputs as dense constants, calls the
program, compares every result with the expected values (XLA's outputs from
the corpus .npy files, or numpy's for hand-written cases) *in StableHLO*, and
prints the number of mismatching elements per result with printMemrefI32.
The whole module — program and checks — goes through the CPU lowering,
bufferization and LLVM, and runs in mlir-runner; FileCheck expects `[0]`
for every result.

Float results match when got == want (infinities), |got - want| <= atol +
rtol * |want|, or both are NaN; integer and bool results must be equal.

Run: python3 gen_e2e.py [WORD...]  (needs numpy; writes ../linalg_lower_stablehlo_e2e_*.mlir,
only the files whose name contains one of the WORDs when given: numpy versions
may round transcendental functions of the other cases an ulp apart)
"""
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
CORPUS = "/work/shared/corpus/public"

# %linalg-e2e-pipeline and %run-main are lit substitutions (lit.cfg.py): the
# stablehlo → linalg lowering, bufferized and lowered to LLVM naively, then
# run by mlir-runner.
RUN = "// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC\n"

ELEM = {
    np.dtype("float16"): "f16",
    np.dtype("float32"): "f32",
    np.dtype("float64"): "f64",
    np.dtype("int32"): "i32",
    np.dtype("int64"): "i64",
    np.dtype("int8"): "i8",
    np.dtype("int16"): "i16",
    np.dtype("uint8"): "ui8",
    np.dtype("uint16"): "ui16",
    np.dtype("uint32"): "ui32",
    np.dtype("uint64"): "ui64",
    np.dtype("bool"): "i1",
}


def ttype(shape, elem):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def dense(a, elem):
    """A dense attribute for `a` (hex raw data; bools spelled out)."""
    if elem == "i1":
        flat = ["true" if x else "false" for x in a.reshape(-1)]
        if a.ndim == 0:
            return f"dense<{flat[0]}>"
        nested = np.array(flat, dtype=object).reshape(a.shape).tolist()
        return "dense<" + str(nested).replace("'", "") + ">"
    if elem == "bf16":
        if a.dtype == np.float32:  # round to nearest even bf16 bits
            u = a.view(np.uint32).astype(np.uint64)
            a = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
        data = a.astype("<u2").tobytes()
    else:
        data = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()
    return 'dense<"0x' + data.hex().upper() + '">'


def check_func(name, shape, elem, rtol, atol):
    """func @name(got, want) -> tensor<1xi32>: number of mismatches (generic form)."""
    t = ttype(shape, elem)
    ti1 = ttype(shape, "i1")
    ti32 = ttype(shape, "i32")
    dims = ", ".join(str(i) for i in range(len(shape)))
    lines = [f"  func.func private @{name}(%got: {t}, %want: {t}) -> tensor<1xi32> {{"]
    if elem in ("f32", "f64", "bf16", "f16"):
        # f64 is compared in f64, the others in f32.
        ft = ttype(shape, "f64" if elem == "f64" else "f32")
        g, w = "%got", "%want"
        if elem not in ("f32", "f64"):
            g, w = "%g", "%w"
            lines += [
                f'    %g = "stablehlo.convert"(%got) : ({t}) -> {ft}',
                f'    %w = "stablehlo.convert"(%want) : ({t}) -> {ft}',
            ]
        lines += [
            f"    %d = stablehlo.subtract {g}, {w} : {ft}",
            f"    %ad = stablehlo.abs %d : {ft}",
            f"    %aw = stablehlo.abs {w} : {ft}",
            f"    %rt = stablehlo.constant dense<{rtol:e}> : {ft}",
            f"    %at = stablehlo.constant dense<{atol:e}> : {ft}",
            f"    %rel = stablehlo.multiply %aw, %rt : {ft}",
            f"    %tol = stablehlo.add %rel, %at : {ft}",
            f'    %le = "stablehlo.compare"(%ad, %tol) <{{comparison_direction = #stablehlo<comparison_direction LE>}}> : ({ft}, {ft}) -> {ti1}',
            f'    %gn = "stablehlo.compare"({g}, {g}) <{{comparison_direction = #stablehlo<comparison_direction NE>}}> : ({ft}, {ft}) -> {ti1}',
            f'    %wn = "stablehlo.compare"({w}, {w}) <{{comparison_direction = #stablehlo<comparison_direction NE>}}> : ({ft}, {ft}) -> {ti1}',
            f'    %eq = "stablehlo.compare"({g}, {w}) <{{comparison_direction = #stablehlo<comparison_direction EQ>}}> : ({ft}, {ft}) -> {ti1}',
            f"    %bn = stablehlo.and %gn, %wn : {ti1}",
            f"    %ok0 = stablehlo.or %le, %bn : {ti1}",
            f"    %ok = stablehlo.or %ok0, %eq : {ti1}",
        ]
    else:
        lines += [
            f'    %ok = "stablehlo.compare"(%got, %want) <{{comparison_direction = #stablehlo<comparison_direction EQ>}}> : ({t}, {t}) -> {ti1}',
        ]
    lines += [
        f"    %bad = stablehlo.not %ok : {ti1}",
        f'    %c = "stablehlo.convert"(%bad) : ({ti1}) -> {ti32}',
        "    %zero = stablehlo.constant dense<0> : tensor<i32>",
        f'    %n = "stablehlo.reduce"(%c, %zero) <{{dimensions = array<i64: {dims}>}}> ({{',
        "    ^bb0(%x: tensor<i32>, %y: tensor<i32>):",
        '      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>',
        '      "stablehlo.return"(%s) : (tensor<i32>) -> ()',
        f"    }}) : ({ti32}, tensor<i32>) -> tensor<i32>",
        '    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>',
        "    return %r : tensor<1xi32>",
        "  }",
    ]
    return "\n".join(lines)


def test_module(title, program, inputs, outputs, rtol=1e-4, atol=1e-5, elems_in=None, elems_out=None):
    """program: the text of func.funcs with a public @compute."""
    body = []
    checks = []
    ins = []
    for i, a in enumerate(inputs):
        e = (elems_in or {}).get(i) or ELEM[a.dtype]
        t = ttype(a.shape, e)
        body.append(f"    %in{i} = stablehlo.constant {dense(a, e)} : {t}")
        ins.append((f"%in{i}", t))
    out_types = []
    for k, a in enumerate(outputs):
        e = (elems_out or {}).get(k) or ELEM[a.dtype]
        out_types.append((a.shape, e))
    res = ", ".join(ttype(s, e) for s, e in out_types)
    call = f"call @compute({', '.join(n for n, _ in ins)}) : ({', '.join(t for _, t in ins)}) -> ({res})"
    nres = len(outputs)
    body.append(f"    %res{':' + str(nres) if nres > 1 else ''} = {call}")
    for k, a in enumerate(outputs):
        s, e = out_types[k]
        t = ttype(s, e)
        r = f"%res#{k}" if nres > 1 else "%res"
        body.append(f"    %want{k} = stablehlo.constant {dense(a, e)} : {t}")
        body.append(f"    %bad{k} = call @check{k}({r}, %want{k}) : ({t}, {t}) -> tensor<1xi32>")
        body.append(f"    %u{k} = tensor.cast %bad{k} : tensor<1xi32> to tensor<*xi32>")
        body.append(f"    call @printMemrefI32(%u{k}) : (tensor<*xi32>) -> ()")
        checks.append(check_func(f"check{k}", s, e, rtol, atol))
    text = [f"// {title}", "module {", program.rstrip()]
    text += checks
    text.append("  func.func private @printMemrefI32(tensor<*xi32>)")
    text.append("  func.func @main() {")
    text += body
    text.append("    return")
    text.append("  }")
    text.append("}")
    exec_lines = []
    for k in range(nres):
        exec_lines.append(f"// EXEC: sizes = [1]")
        exec_lines.append(f"// EXEC-NEXT: [0]")
    return "\n".join(text), exec_lines


def corpus_program(name, substitutions=()):
    src = open(os.path.join(CORPUS, name + ".stablehlo.mlir")).read()
    lines = src.strip().split("\n")
    assert lines[0].startswith("module @") and lines[-1] == "}"
    inner = "\n".join(lines[1:-1])
    inner = inner.replace("func.func public @main(", "func.func public @compute(")
    for a, b in substitutions:
        inner = re.sub(a, b, inner)
    return inner


def corpus_case(name, rtol=1e-4, atol=1e-5, substitutions=()):
    ins, outs = [], []
    k = 0
    while os.path.exists(os.path.join(CORPUS, f"{name}.in{k}.npy")):
        ins.append(np.load(os.path.join(CORPUS, f"{name}.in{k}.npy")))
        k += 1
    k = 0
    while os.path.exists(os.path.join(CORPUS, f"{name}.out{k}.npy")):
        outs.append(np.load(os.path.join(CORPUS, f"{name}.out{k}.npy")))
        k += 1
    return test_module(f"corpus program {name} (inputs and XLA's outputs from the corpus)", corpus_program(name, substitutions), ins, outs, rtol, atol)


def write(fname, header, case):
    text, execs = case
    parts = [RUN, header, ""] + execs + [text, ""]
    with open(os.path.join(OUT, fname), "w") as f:
        f.write("\n".join(parts))


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    import cases  # noqa: E402

    only = sys.argv[1:]
    for fname, header, c in cases.all_files(corpus_case, test_module, np):
        if only and not any(w in fname for w in only):
            continue
        write(fname, header, c)
        print("wrote", fname)
