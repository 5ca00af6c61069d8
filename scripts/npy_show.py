#!/usr/bin/env python3
"""Prints .npy arrays (shape, dtype, values) with the standard library alone,
for scripts/example.sh on a machine without numpy:

    scripts/npy_show.py out/out0.npy [...]
"""
import ast
import struct
import sys

CODES = {"b1": "?", "i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I", "i8": "q", "u8": "Q", "f2": "e", "f4": "f", "f8": "d"}


def show(path: str) -> str:
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise SystemExit(f"{path}: not an .npy file")
    major = data[6]
    hlen_size = 2 if major == 1 else 4
    hlen = int.from_bytes(data[8 : 8 + hlen_size], "little")
    header = ast.literal_eval(data[8 + hlen_size : 8 + hlen_size + hlen].decode("latin1"))
    descr, shape = header["descr"], header["shape"]
    code = CODES.get(descr.lstrip("<|="))
    if code is None or header.get("fortran_order"):
        return f"{path}: {descr} {shape} (not shown)"
    body = data[8 + hlen_size + hlen :]
    n = 1
    for d in shape:
        n *= d
    values = struct.unpack(f"<{n}{code}", body[: n * struct.calcsize(code)])
    return f"{path}: {descr} {tuple(shape)} = {list(values)}"


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(show(p))
