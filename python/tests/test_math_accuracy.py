"""The CPU floor's math functions stay within their documented ulp bounds
(scripts/math_accuracy.py: every 257th f32 of each domain through the
vectorized kernels, against float64 numpy)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_math_functions_within_documented_ulp():
    floors = None
    for profile in ("debug", "release"):
        cand = REPO / "target" / profile / "floors"
        if cand.exists():
            floors = cand
            break
    if floors is None:
        if os.environ.get("CI"):
            pytest.fail("the floors CLI is not built", pytrace=False)
        pytest.skip("the floors CLI is not built")
    out = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "math_accuracy.py"), "--floors", str(floors)],
        capture_output=True,
        text=True,
        # JAX only lowers the programs (on CPU); floors runs them.
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "BROKEN" not in out.stdout
    assert out.stdout.count("\n| ") >= 11, out.stdout
