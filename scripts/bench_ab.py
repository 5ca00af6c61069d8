#!/usr/bin/env python3
"""Two floors binaries, the same programs, interleaved (A B A B ...): did a
change move run time or compile time? Not a test: prints a table.

    scripts/bench_ab.py OLD_FLOORS NEW_FLOORS [--rounds 5] [--reps 20] [PROG...]

Each round runs `floors bench` once per binary per program (alternating
which goes first), with the same deterministic random inputs; the table
gives the median over rounds of each binary's per-run median, and the
spread (max - min over rounds) so a difference can be read against noise.
Programs default to ../shared/corpus/bench/*.stablehlo.mlir.
"""
import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def bench(floors, prog, reps, threads):
    cmd = [str(floors), "bench", str(prog), "--warmup", "3", "--reps", str(reps), "--threads", str(threads)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if p.returncode != 0:
        sys.exit("exit %d: %s\n%s" % (p.returncode, " ".join(cmd), p.stderr[-2000:]))
    line = [l for l in p.stdout.splitlines() if l.strip().startswith("{")][-1]
    return json.loads(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("programs", nargs="*", type=Path)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    progs = args.programs or sorted((REPO.parent / "shared" / "corpus" / "bench").glob("*.stablehlo.mlir"))
    print("| program | old run ms | new run ms | new/old | old spread | new spread | old compile s | new compile s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for prog in progs:
        runs = {"old": [], "new": []}
        compiles = {"old": [], "new": []}
        for r in range(args.rounds):
            order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
            for which in order:
                res = bench(getattr(args, which), prog, args.reps, args.threads)
                runs[which].append(res["median_ms"])
                compiles[which].append(res.get("compile_s", float("nan")))
        o, n = statistics.median(runs["old"]), statistics.median(runs["new"])
        print("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f |" % (
            prog.name.replace(".stablehlo.mlir", ""), o, n, n / o if o else float("nan"),
            max(runs["old"]) - min(runs["old"]), max(runs["new"]) - min(runs["new"]),
            statistics.median(compiles["old"]), statistics.median(compiles["new"])), flush=True)


if __name__ == "__main__":
    main()
