#!/usr/bin/env bash
# Runs test files of JAX's own test suite against the floors PJRT plugin and
# classifies every failure (not part of CI: thousands of tests, an hour or
# more on 2 cores):
#
#   scripts/jax_suite.sh [--markdown FILE] JAX_SRC [tests/lax_test.py ...]
#
# JAX_SRC is a checkout of the jax source at the release the venv has
# (`git clone --branch jax-v0.10.2 https://github.com/jax-ml/jax`: its tests/
# folder). Default files: the nine of docs/jax-suite.md. The tests need
# absl-py, which goes into target/jax-suite/venv (on top of .venv-test/'s
# packages, which it reuses). The plugin is FLOORS_PJRT_LIBRARY, else the
# checkout's newest build. JUnit XML lands in target/jax-suite/; then
# scripts/jax_suite_classify.py prints the failures per class (wrong number,
# compile error, not yet supported op, unsupported by design, JAX refuses the
# platform, other) and per file, writes the Markdown table to FILE with
# --markdown, and the script exits 1 if any failure is a wrong number.
set -euo pipefail
cd "$(dirname "$0")/.."
MARKDOWN=()
if [[ ${1:-} == --markdown ]]; then
  MARKDOWN=(--markdown "$(realpath -m "$2")")
  shift 2
fi
JAX_SRC=${1:?usage: scripts/jax_suite.sh [--markdown FILE] JAX_SRC [TEST_FILE ...]}
shift
FILES=("$@")
[[ ${#FILES[@]} -gt 0 ]] || FILES=(tests/lax_control_flow_test.py tests/lax_numpy_indexing_test.py tests/lax_test.py
  tests/lax_numpy_operators_test.py tests/lax_numpy_reducers_test.py tests/random_lax_test.py tests/nn_test.py
  tests/lax_vmap_test.py tests/lax_autodiff_test.py tests/fft_test.py tests/linalg_test.py)
BASE=$(bash scripts/pyenv.sh)
OUT=$PWD/target/jax-suite
VENV=$OUT/venv
mkdir -p "$OUT"
if [[ ! -x "$VENV/bin/python" ]]; then
  python3 -m venv "$VENV"
  "$BASE" -c 'import site; print(site.getsitepackages()[0])' > "$("$VENV/bin/python" -c 'import site; print(site.getsitepackages()[0])')/venv-test.pth"
fi
"$VENV/bin/python" -c 'import absl' 2>/dev/null || "$VENV/bin/python" -m pip install -q --disable-pip-version-check absl-py
XMLS=()
for f in "${FILES[@]}"; do
  name=$(basename "$f" .py)
  echo "== $f"
  # -p jax_suite_dut (python/jax_suite_dut.py): floors is tested as a `cpu`
  # device, so the tests JAX runs only on CPU run on floors too.
  # floors,cpu: what the plugin makes of JAX_PLATFORMS=floors (JAX runs host
  # callbacks on a cpu device), set up front so that JAX's test harness does not
  # see the first test change jax_platforms.
  (cd "$JAX_SRC" && JAX_PLATFORMS=floors,cpu PYTHONPATH="$OLDPWD/python" \
    "$VENV/bin/python" -m pytest -q -p no:cacheprovider -p jax_suite_dut --junitxml="$OUT/$name.xml" "$f" 2>&1 | tail -1) || true
  XMLS+=("$OUT/$name.xml")
done
"$VENV/bin/python" scripts/jax_suite_classify.py "${MARKDOWN[@]}" "${XMLS[@]}"
