"""pytest setup for the floors PJRT plugin tests.

JAX runs with two backends, XLA:CPU (the reference) and floors (the plugin
from `python/jax_plugins/floors`, library `FLOORS_PJRT_LIBRARY` or the
checkout's `target/{release,debug}/libfloors_pjrt.so`). When the plugin
cannot be loaded the tests skip, except under `CI=1`, where they fail:
the test command must not pass without having run them.
"""

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# Before jax is imported: both backends; the plugin package and the scripts
# whose programs the tests reuse (scripts/jax_check.py, scripts/bench.py).
os.environ["JAX_PLATFORMS"] = "cpu,floors"
# Four devices on both backends, for the sharded programs
# (test_multi_device.py); the other tests use one device of each.
os.environ.setdefault("FLOORS_DEVICE_COUNT", "4")
if "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=4").strip()
for p in (REPO / "python", REPO / "scripts", Path(__file__).resolve().parent):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"floors PJRT plugin unavailable under CI=1: {reason}", pytrace=False)
    pytest.skip(f"floors PJRT plugin unavailable: {reason}")


@pytest.fixture(scope="session")
def devices():
    """(floors device, cpu device)."""
    try:
        from jax_plugins import floors as plugin

        plugin.library_path()
    except Exception as e:  # noqa: BLE001 - any reason the plugin is missing
        _unavailable(str(e))
    import jax

    try:
        floors = jax.devices("floors")[0]
    except Exception as e:  # noqa: BLE001
        _unavailable(f"jax.devices('floors'): {e}")
    return floors, jax.devices("cpu")[0]
