#!/usr/bin/env bash
# Runs test files of JAX's own test suite against the floors PJRT plugin
# (not part of CI: a few thousand tests, ~35 minutes on 2 cores):
#
#   scripts/jax_suite.sh JAX_SRC [tests/lax_numpy_operators_test.py ...]
#
# JAX_SRC is a checkout of the jax source at the release the venv has
# (jax-v0.10.2: its tests/ folder). Default files: lax_numpy_operators_test,
# lax_numpy_reducers_test, lax_test. The tests need absl-py, which goes into
# target/jax-suite/venv (on top of .venv-test/'s packages, which it reuses). The
# plugin is FLOORS_PJRT_LIBRARY, else the checkout's newest build. Prints
# pytest's summary per file; JUnit XML lands in target/jax-suite/.
set -euo pipefail
cd "$(dirname "$0")/.."
JAX_SRC=${1:?usage: scripts/jax_suite.sh JAX_SRC [TEST_FILE ...]}
shift
FILES=("$@")
[[ ${#FILES[@]} -gt 0 ]] || FILES=(tests/lax_numpy_operators_test.py tests/lax_numpy_reducers_test.py tests/lax_test.py)
BASE=$(bash scripts/pyenv.sh)
OUT=$PWD/target/jax-suite
VENV=$OUT/venv
mkdir -p "$OUT"
if [[ ! -x "$VENV/bin/python" ]]; then
  python3 -m venv "$VENV"
  "$BASE" -c 'import site; print(site.getsitepackages()[0])' > "$("$VENV/bin/python" -c 'import site; print(site.getsitepackages()[0])')/venv-test.pth"
fi
"$VENV/bin/python" -c 'import absl' 2>/dev/null || "$VENV/bin/python" -m pip install -q --disable-pip-version-check absl-py
for f in "${FILES[@]}"; do
  name=$(basename "$f" .py)
  echo "== $f"
  (cd "$JAX_SRC" && JAX_PLATFORMS=floors PYTHONPATH="$OLDPWD/python" \
    "$VENV/bin/python" -m pytest -q -p no:cacheprovider --junitxml="$OUT/$name.xml" "$f" 2>&1 | tail -1) || true
done
