"""Inputs for the emitter GEMM checks of scripts/gpu_prepare.sh.

    python scripts/gpu_emitter_inputs.py PROG.stablehlo.mlir OUT/NAME

writes OUT/NAME.in0.npy, ... (normal(0, 0.5), fixed seed; bf16 as uint16 bit
patterns, as floors-run reads them) for @main's parameters and adds NAME's
output dtypes to OUT/manifest.json (the schema of the corpus manifest, which
scripts/gpu_check.py reads for its tolerances).
"""
import json
import os
import re
import sys

import numpy as np

DTYPES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "i32": "int32", "i64": "int64"}


def tensors(text):
    out = []
    for t in re.findall(r"tensor<([^>]*)>", text):
        *dims, elem = t.split("x")
        out.append(([int(d) for d in dims], elem))
    return out


def main():
    src, prefix = sys.argv[1], sys.argv[2]
    text = open(src).read()
    m = re.search(r"func\.func\s+public\s+@main\((.*?)\)\s*->(.*?)\{\s*$", text, re.S | re.M)
    if not m:
        sys.exit("gpu_emitter_inputs: no public @main in %s" % src)
    rng = np.random.default_rng(0)
    for i, (shape, elem) in enumerate(tensors(m.group(1))):
        a = (rng.standard_normal(shape) * 0.5).astype(np.float32)
        if elem == "bf16":
            a = (a.view(np.uint32) >> 16).astype(np.uint16)
        elif elem in DTYPES:
            a = a.astype(DTYPES[elem])
        else:
            sys.exit("gpu_emitter_inputs: parameter %d of %s has element type %s" % (i, src, elem))
        np.save("%s.in%d.npy" % (prefix, i), a)
    manifest_path = os.path.join(os.path.dirname(prefix), "manifest.json")
    manifest = json.load(open(manifest_path)) if os.path.exists(manifest_path) else {"programs": {}}
    outputs = [{"dtype": DTYPES.get(elem, elem)} for _, elem in tensors(m.group(2))]
    manifest["programs"][os.path.basename(prefix)] = {"outputs": outputs}
    json.dump(manifest, open(manifest_path, "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
