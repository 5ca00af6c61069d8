#!/usr/bin/env bash
# AddressSanitizer + LeakSanitizer over compile and execute loops on the corpus.
#
#   scripts/sanitize.sh [--no-build]
#
# Builds `floors` (compiler + CLI) and `floors-run` (the runtime crate) with
# ASan/LSan into target/asan (stable toolchain, RUSTC_BOOTSTRAP=1 for
# -Zsanitizer=address; --target so build scripts and proc macros stay
# uninstrumented). The Rust code and the dialects' C++ (the cc crate passes
# -fsanitize=address on when Cargo reports the sanitizer) are instrumented.
# The ASan runtime is linked into each executable, so it is loaded first;
# libMLIR/libLLVM (Debian's) and the kernel shared objects `cc` links and
# floors dlopens run under its malloc, free and interceptors (double frees,
# frees of foreign pointers, leaks) without being instrumented themselves.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator, inlined into the
# instrumented C++, poisons a new slab that uninstrumented libMLIR code then
# allocates from without unpoisoning it (false use-after-poison reports).
#
# Then runs, every run under ASan with leak detection at exit:
#   public corpus: `floors run` (1 and 2 threads), `floors compile -o X.floors`
#     + `floors-run X.floors` (outputs compared byte for byte with `floors run`'s),
#     `floors compile --emit fused|llvm|thunks`;
#   bench corpus: `floors compile --emit llvm`, `floors bench --reps 2 --threads 2`;
#   error paths: tests/inputs/broken/*.mlir, a missing input, a file that is
#     not npy, a truncated artifact (each must exit 1);
#   FLOORS_SANITIZE_MUTANTS (default 1000) mutants of the sweep of
#     scripts/fuzz.sh (seed 5) through these binaries: no crash, no timeout.
# Leaks are suppressed only where they are allocated inside libMLIR/libLLVM:
# scripts/lsan-suppressions.txt (each entry documented there).
# Reports go to target/asan/logs/; exit 1 if any run reported an invalid
# access or a leak, or exited other than expected.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
triple=x86_64-unknown-linux-gnu
bin=target/asan/$triple/debug
if [[ "${1:-}" != --no-build ]]; then
    RUSTC_BOOTSTRAP=1 \
    RUSTFLAGS="-Zsanitizer=address -Cforce-frame-pointers" \
        cargo build --target $triple --target-dir target/asan -p floors -p floors-runtime --bins
fi
nm "$bin/floors" | grep __asan_init >/dev/null || { echo "sanitize.sh: $bin/floors is not built with ASan" >&2; exit 1; }

logs=target/asan/logs
work=target/asan/work
rm -rf "$logs" "$work"
mkdir -p "$logs" "$work"
symbolizer=$(command -v llvm-symbolizer || echo /usr/lib/llvm-22/bin/llvm-symbolizer)
export ASAN_SYMBOLIZER_PATH=$symbolizer
# Each run logs to $logs/NAME.PID (the sweep's runs to $logs/sweep.PID): a
# report has "ERROR:"; a run whose leaks were all suppressed only lists the
# suppressions it used.
asan="detect_leaks=1:allow_user_poisoning=0:halt_on_error=1:exitcode=23:detect_odr_violation=0:symbolize=1"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=1"
export RUST_BACKTRACE=1
unset FLOORS_FLAGS RUST_LOG

runs=0
bad=0
declare -a failures=()
# check NAME EXPECTED_EXIT CMD...: runs CMD, its stderr in $work/NAME.err.
check() {
    local name=$1 want=$2
    shift 2
    runs=$((runs + 1))
    set +e
    ASAN_OPTIONS="$asan:log_path=$root/$logs/$name" "$@" >"$work/$name.out" 2>"$work/$name.err"
    local rc=$?
    set -e
    local reports
    reports=$(cat "$logs/$name".* 2>/dev/null | grep -c 'ERROR:' || true)
    if [[ $rc -ne $want || $reports -ne 0 ]] || grep -q -E 'Sanitizer|panicked' "$work/$name.err"; then
        bad=$((bad + 1))
        failures+=("$name: exit $rc (expected $want), $reports sanitizer report(s): $*")
        echo "FAIL $name (exit $rc)"
    else
        echo "ok   $name"
    fi
}

corpus=../shared/corpus
for p in "$corpus"/public/*.stablehlo.mlir; do
    n=$(basename "$p" .stablehlo.mlir)
    inputs=()
    for i in "$corpus/public/$n".in*.npy; do inputs+=(--input "$i"); done
    check "$n.run" 0 "$bin/floors" run "$p" "${inputs[@]}" --output-dir "$work/$n.run"
    check "$n.run-t2" 0 "$bin/floors" run "$p" "${inputs[@]}" --output-dir "$work/$n.run-t2" --threads 2
    check "$n.compile" 0 "$bin/floors" compile "$p" -o "$work/$n.floors"
    check "$n.floors-run" 0 "$bin/floors-run" "$work/$n.floors" "${inputs[@]}" --output-dir "$work/$n.floors-run"
    for o in "$work/$n.run"/*.npy; do
        if ! cmp -s "$o" "$work/$n.floors-run/$(basename "$o")"; then
            bad=$((bad + 1))
            failures+=("$n: floors-run's $(basename "$o") differs from floors run's")
        fi
    done
    for e in fused llvm thunks; do
        check "$n.emit-$e" 0 "$bin/floors" compile "$p" --emit $e -o "$work/$n.$e"
    done
done
# The TPU floor (kernels in the Mosaic interpreter; what it cannot lower yet
# exits 1 with a located error) and the GPU floor (PTX: compile only here);
# the Mosaic corpus' kernels and Pallas programs.
not_tpu=" dynamic_slice_update gather_rows sort_rows "
for p in "$corpus"/public/*.stablehlo.mlir; do
    n=$(basename "$p" .stablehlo.mlir)
    inputs=()
    for i in "$corpus/public/$n".in*.npy; do inputs+=(--input "$i"); done
    want=0
    [[ "$not_tpu" == *" $n "* ]] && want=1
    check "$n.tpu-run" $want "$bin/floors" run --target tpu "$p" "${inputs[@]}" --output-dir "$work/$n.tpu"
    check "$n.tpu-handoff" $want "$bin/floors" compile --target tpu --emit tpu-handoff "$p" -o "$work/$n.handoff.mlir"
    check "$n.gpu-ptx" 0 "$bin/floors" compile --target gpu --emit ptx "$p" -o "$work/$n.ptx"
done
for k in "$corpus"/mosaic/*.mosaic.mlir; do
    n=$(basename "$k" .mosaic.mlir)
    inputs=()
    for i in "$corpus/mosaic/$n".in*.npy; do inputs+=(--input "$i"); done
    check "mosaic-$n.kernel" 0 "$bin/floors" run --target tpu "$k" "${inputs[@]}" --output-dir "$work/mosaic-$n.kernel"
    check "mosaic-$n.pallas" 0 "$bin/floors" run --target tpu "$corpus/mosaic/$n.stablehlo.mlir" "${inputs[@]}" --output-dir "$work/mosaic-$n.pallas"
done
for p in "$corpus"/bench/*.stablehlo.mlir; do
    n=bench-$(basename "$p" .stablehlo.mlir)
    check "$n.emit-llvm" 0 "$bin/floors" compile "$p" --emit llvm -o "$work/$n.ll"
    check "$n.bench" 0 "$bin/floors" bench "$p" --warmup 1 --reps 2 --threads 2
done
for p in tests/inputs/broken/*.mlir; do
    check "broken-$(basename "$p" .mlir)" 1 "$bin/floors" compile "$p" --emit llvm -o "$work/broken.ll"
done
m=$corpus/public/matmul
check "err-missing-input" 1 "$bin/floors" run "$m.stablehlo.mlir" --input "$m.in0.npy" --output-dir "$work/err1"
check "err-not-npy" 1 "$bin/floors" run "$m.stablehlo.mlir" --input "$m.stablehlo.mlir" --input "$m.in1.npy" --output-dir "$work/err2"
head -c 1000 "$work/matmul.floors" >"$work/truncated.floors"
check "err-truncated-artifact" 1 "$bin/floors-run" "$work/truncated.floors" --input "$m.in0.npy" --input "$m.in1.npy" --output-dir "$work/err3"

# Mutants: the sweep of scripts/fuzz.sh with these binaries, so error paths
# run under ASan/LSan too (a report exits 23: a crash to the sweep). No
# address-space limit (ASan reserves terabytes of shadow); single allocations
# above 4 GiB fail instead.
mutants=${FLOORS_SANITIZE_MUTANTS:-1000}
if [[ $mutants -gt 0 ]]; then
    cargo build --release --quiet --manifest-path fuzz/sweep/Cargo.toml --target-dir target/fuzz-sweep
    set +e
    ASAN_OPTIONS="$asan:log_path=$root/$logs/sweep:max_allocation_size_mb=4096:allocator_may_return_null=1" \
        target/fuzz-sweep/release/floors-sweep --floors "$bin/floors" --floors-run "$bin/floors-run" \
        --corpus ../shared/corpus --seed 5 --count "$mutants" --timeout 120 --mem-limit-mb 0 \
        --out target/asan/sweep --quiet >target/asan/sweep.txt 2>&1
    rc=$?
    set -e
    cat target/asan/sweep.txt
    runs=$((runs + 1))
    if [[ $rc -ne 0 ]]; then
        bad=$((bad + 1))
        failures+=("mutation sweep under ASan: crashes or timeouts, see target/asan/sweep/")
    fi
fi

echo
echo "$runs runs under ASan/LSan (the sweep counted as one), $bad with findings (reports: $logs/, stderr: $work/*.err)"
suppressed=$( (grep -l 'Suppressions used' "$logs"/* 2>/dev/null || true) | wc -l)
echo "runs that used a libMLIR/libLLVM leak suppression: $suppressed"
for f in "${failures[@]}"; do echo "  $f"; done
for r in "$logs"/*; do
    [[ -e $r ]] && grep -q 'ERROR:' "$r" || continue
    echo "--- $r"
    grep -E 'ERROR: |SUMMARY|^    #[0-9] ' "$r" | head -12
done
[[ $bad -eq 0 ]]
