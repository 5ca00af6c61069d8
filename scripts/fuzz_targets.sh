#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of the MLIR-free
# parts of floors, the targets in fuzz/fuzz_targets/:
#   npy_read   floors_runtime::npy::read on arbitrary files
#   artifact   Artifact::from_bytes (raw files, and payloads given a valid
#              header), the encode/decode round trip, Executable::new over
#              stub kernels, and execution of small loop-free programs
#   ffi_attrs  custom-call attributes: postcard decode, check, the FFI C
#              encoding, and every typed getter of the safe binding
#
#   scripts/fuzz_targets.sh [SECONDS] [TARGET...]     (default: 180 s each, all targets)
#
# Builds fuzz/ (its own workspace) with the flags cargo-fuzz uses, on the
# stable toolchain through RUSTC_BOOTSTRAP=1 (-Zsanitizer=address), into
# target/fuzz; seeds come from the public corpus (.npy files, artifacts
# compiled by target/debug/floors, synthetic attribute dictionaries). The
# growing corpus lives in target/fuzz/corpus/TARGET; crashes, leaks, OOMs
# (> 1 GiB malloc, > 2 GiB RSS) and slow units (> 20 s) are written to
# target/fuzz/findings/TARGET/ (reproduce: target/fuzz/x86_64-unknown-linux-gnu/release/TARGET FILE).
# Exit 1 if any target found something. With cargo-fuzz installed,
# `cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run TARGET` runs the same targets.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-180}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(npy_read artifact ffi_attrs)
triple=x86_64-unknown-linux-gnu
bin=target/fuzz/$triple/release
export RUSTC_BOOTSTRAP=1
# Line tables in the release build, for the findings' stack traces.
export CARGO_PROFILE_RELEASE_DEBUG=line-tables-only
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Zsanitizer=address -Cdebug-assertions -Coverflow-checks -Cforce-frame-pointers"
cargo build --release --target $triple --target-dir target/fuzz --manifest-path fuzz/Cargo.toml
unset RUSTFLAGS RUSTC_BOOTSTRAP CARGO_PROFILE_RELEASE_DEBUG

# Seeds: artifacts of the public corpus, its .npy files, synthetic attributes.
seeds=target/fuzz/seeds
if [[ ! -d $seeds/artifact ]]; then
    [[ -x target/debug/floors ]] || cargo build -p floors --bin floors
    mkdir -p $seeds/floors
    for p in ../shared/corpus/public/*.stablehlo.mlir; do
        target/debug/floors compile "$p" -o "$seeds/floors/$(basename "$p" .stablehlo.mlir).floors"
    done
    $bin/make_seeds $seeds $seeds/floors/*.floors ../shared/corpus/public/*.npy
fi

status=0
summary=""
for t in "${targets[@]}"; do
    corpus=target/fuzz/corpus/$t
    findings=target/fuzz/findings/$t
    mkdir -p "$corpus" "$findings"
    log=target/fuzz/$t.log
    echo "== $t: ${secs} s (log: $log)"
    set +e
    $bin/$t "$corpus" "$seeds/$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1
    rc=$?
    set -e
    runs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
    eps=$(grep -m1 'stat::average_exec_per_sec' "$log" | awk '{print $2}')
    cov=$(grep -E '^#[0-9]+.*cov:' "$log" | tail -1 | sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+)\/.*/cov \1, features \2, corpus \3/')
    found=$(find "$findings" -type f | wc -l)
    line="$t: rc $rc, ${runs:-?} runs, ${eps:-?} exec/s, ${cov:-?}, $found finding file(s) in $findings"
    echo "$line"
    summary+="$line"$'\n'
    if [[ $rc -ne 0 || $found -gt 0 ]]; then
        status=1
        grep -E 'ERROR|panicked|SUMMARY|Test unit written' "$log" | head -20 || true
    fi
done
echo
echo "$summary"
exit $status
