#!/usr/bin/env python3
"""Classifies the failures of JAX test files run on floors (JUnit XML from
scripts/jax_suite.sh) and prints counts per class and per file, and a
Markdown table with --markdown FILE. Exit 1 when any failure is a wrong
number.

    scripts/jax_suite_classify.py [--markdown docs/jax-suite.md] target/jax-suite/*.xml

Classes (first match wins):
- wrong number: an assertion on values failed (numpy's assert_allclose /
  assert_array_equal messages, JAX's "Not equal to tolerance"), i.e. floors
  computed something and it was not what XLA:CPU computes.
- unsupported by design: fp8 and int4/int2 element types, which floors does
  not compile yet (floors names the type in its error, or the test is
  parametrized over it).
- not yet supported op: floors' located "... is not supported" error naming an
  op (collectives, an op on complex numbers the CPU floor does not lower yet,
  ... until they exist), or a custom call with no handler, counted per op.
- JAX refuses the platform: JAX itself will not run the test on a platform
  named `floors` (no lowering rule for it, a test guarded to cpu/gpu/tpu,
  pmap/multi-device on one device, `lax.platform_dependent` tests that
  expect the `cpu` branch while floors, run as a `cpu` test device, takes its
  own).
- compile error: any other error floors reported while compiling or running
  (its message, numbers blanked, is the sub-class).
- other: anything else (the exception type is the sub-class).
"""

import argparse
import collections
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

WRONG = re.compile(
    r"Not equal to tolerance|Arrays are not (almost )?equal|Mismatched elements|Mismatch at ind|"
    r"x and y nan location mismatch|AssertionError: \s*\n?\s*(Items|Arrays)|DESIRED:|ACTUAL:"
)
# Test names join dtypes with `_` (`testOp290_array_equal_complex64_uint32`),
# so the boundaries are "not a letter or digit" rather than \b.
BY_DESIGN = re.compile(r"float8|f8E\d|(?<![a-z0-9])u?int[24](?![0-9])|(?<![a-z0-9])u?i4(?![0-9])", re.I)
NOT_SUPPORTED_OP = re.compile(r"'(stablehlo\.[a-z_]+|chlo\.[a-z_]+|mhlo\.[a-z_]+)'[^\n]*(not supported|cannot|unsupported)|"
                              r"(not supported|unsupported)[^\n]*'(stablehlo\.[a-z_]+|chlo\.[a-z_]+)'")
PLATFORM = re.compile(
    r"MLIR translation rule for primitive .* not found for platform floors|"
    r"not implemented for platform|Unknown backend|backend 'floors' is not|"
    r"Only (CPU|GPU|TPU)|only (supported|implemented) (on|for) (CPU|GPU|TPU|cpu|gpu|tpu)|"
    r"[Rr]equires? (at least )?\d+ devices|compiling computation that requires \d+ (logical )?devices|"
    r"pmap|device_count|Platform 'floors' is experimental.*not supported|lowering rule.*floors"
)
FLOORS_ERROR = re.compile(r"(?:\.mlir|floors)[^\n]*?error: ([^\n]+)|floors[^\n]*: ([^\n]+)")


def _blank(s: str) -> str:
    s = re.sub(r"tensor<[^>]*>", "tensor<…>", s)
    s = re.sub(r"\d+", "N", s)
    return s.strip()[:140]


def classify(text: str, name: str) -> tuple[str, str]:
    """(class, sub-class) of one failure's message + traceback."""
    if "platform_dependent" in name:
        # lax.platform_dependent picks floors' branch (the platform is
        # `floors`); the test, told the device is `cpu` (python/jax_suite_dut.py),
        # expects the `cpu` branch.
        return "JAX refuses the platform", "platform_dependent: the test expects the branch of platform `cpu`"
    if WRONG.search(text):
        return "wrong number", ""
    m = re.search(r"no handler is registered for custom_call target '([^']+)'", text)
    if m:
        return "not yet supported op", f"custom_call @{m.group(1)} (no handler)"
    m = NOT_SUPPORTED_OP.search(text)
    if m:
        op = next(g for g in m.groups() if g and g.startswith(("stablehlo.", "chlo.", "mhlo.")))
        if BY_DESIGN.search(name) or re.search(r"f8E|i4\b", text):
            return "unsupported by design", "fp8/int4"
        if re.search(r"on element type complex", text):
            return "not yet supported op", f"{op} on complex numbers"
        return "not yet supported op", op
    if BY_DESIGN.search(name) or re.search(r"f8E\w+|[x<]u?i[24]>|\b[su]?i4\b|element type .*(f8|i4)", text):
        return "unsupported by design", "fp8/int4"
    if PLATFORM.search(text):
        m = PLATFORM.search(text)
        return "JAX refuses the platform", _blank(m.group(0))
    for line in text.splitlines():
        m = re.search(r"error: (.+)", line)
        if m and ("floors" in text or ".mlir" in line):
            return "compile error", _blank(m.group(1))
    m = re.search(r"^E\s+(\w+(Error|Exception)):?\s*(.*)$", text, re.M)
    return "other", (m.group(1) + ": " + _blank(m.group(3))) if m else "unknown"


HEADER = """# JAX's own tests on floors

The latest table of `scripts/jax_suite.sh --markdown docs/jax-suite.md
JAX_SRC` (JAX 0.10.2's test files, run through the PJRT plugin with
`JAX_PLATFORMS=floors,cpu`, floors the default device and tested as a
`cpu` device; see [jax.md](jax.md#jaxs-own-tests-on-floors) for how it runs
and how failures are classified); the script writes this page whole. It
exits non-zero on any *wrong number*; that column must stay 0.

What the other classes hold:
- **compile error**: floors reported an error it should not (the detail
  names the message).
- **not yet supported op**: an op or custom call floors refuses, at the op,
  until it is built (collectives; an op on complex numbers the CPU floor
  does not lower yet, named with its op).
- **unsupported by design**: fp8 and int4/int2 element types, which floors
  does not compile yet; floors names the type in its error.
- **JAX refuses the platform**: JAX itself does not run the test on a
  platform named `floors`: `lax.platform_dependent` tests expecting the
  `cpu` branch, pmap over several devices, tests guarded to other platforms.
- **other**: anything else, named by its exception.

"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("xml", nargs="+", type=Path)
    ap.add_argument("--markdown", type=Path, help="write the table here")
    ap.add_argument("--examples", type=int, default=0, help="print N failing test names per sub-class")
    args = ap.parse_args()
    per_file = {}
    per_class = collections.Counter()
    sub = collections.Counter()
    examples = collections.defaultdict(list)
    for path in args.xml:
        root = ET.parse(path).getroot()
        counts = collections.Counter()
        for case in root.iter("testcase"):
            counts["tests"] += 1
            bad = case.find("failure")
            if bad is None:
                bad = case.find("error")
            if case.find("skipped") is not None:
                counts["skipped"] += 1
                continue
            if bad is None:
                counts["passed"] += 1
                continue
            text = (bad.get("message") or "") + "\n" + (bad.text or "")
            name = case.get("name", "")
            cls, detail = classify(text, name)
            counts[cls] += 1
            per_class[cls] += 1
            sub[(cls, detail)] += 1
            if len(examples[(cls, detail)]) < args.examples:
                examples[(cls, detail)].append(f"{path.stem}::{case.get('classname', '').split('.')[-1]}::{name}")
        per_file[path.stem] = counts
    classes = ["wrong number", "compile error", "not yet supported op", "unsupported by design", "JAX refuses the platform", "other"]
    header = ["file", "tests", "passed", "skipped"] + classes
    rows = [[f, str(c["tests"]), str(c["passed"]), str(c["skipped"])] + [str(c[k]) for k in classes] for f, c in sorted(per_file.items())]
    total = collections.Counter()
    for c in per_file.values():
        total.update(c)
    rows.append(["**total**", str(total["tests"]), str(total["passed"]), str(total["skipped"])] + [str(total[k]) for k in classes])
    table = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + ["| " + " | ".join(r) + " |" for r in rows]
    details = ["| class | detail | failures |", "|---|---|---|"] + [
        f"| {c} | {d.replace('|', '/') or '—'} | {n} |" for (c, d), n in sorted(sub.items(), key=lambda kv: (classes.index(kv[0][0]), -kv[1]))
    ]
    print("\n".join(table))
    print()
    print("\n".join(details))
    for key, names in examples.items():
        print(f"\n{key[0]} / {key[1]}:")
        for n in names:
            print("  ", n)
    if args.markdown:
        args.markdown.write_text(HEADER + "\n".join(table) + "\n\nFailures by class and detail:\n\n" + "\n".join(details) + "\n")
    return 1 if per_class["wrong number"] else 0


if __name__ == "__main__":
    sys.exit(main())
