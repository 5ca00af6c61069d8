"""floors as a JAX backend: the PJRT plugin `libfloors_pjrt.so`.

JAX imports every module of the `jax_plugins` namespace package (and every
`jax_plugins` entry point) and calls its `initialize()`, which registers the
plugin under the platform name ``floors``::

    JAX_PLATFORMS=floors python prog.py          # everything on floors
    JAX_PLATFORMS=cpu,floors python prog.py      # both; jax.devices("floors")

The plugin registers with a priority below the CPU backend's, so having it
installed changes nothing until ``floors`` is asked for.

Where the library is looked for, in order: ``$FLOORS_PJRT_LIBRARY``; a
``libfloors_pjrt.so`` next to this file (what ``pip install ./python`` builds
and installs there); else the newest of ``target/release``,
``target/debug`` and ``target/debug/deps`` of the checkout this file is in.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PLATFORM = "floors"
LIBRARY = "libfloors_pjrt.so"
# Below XLA:CPU's 0: floors is used when asked for (JAX_PLATFORMS, jax.devices("floors")).
PRIORITY = -100


def library_path() -> str:
    """The path of libfloors_pjrt.so (FileNotFoundError if there is none)."""
    env = os.environ.get("FLOORS_PJRT_LIBRARY")
    if env:
        if not Path(env).is_file():
            raise FileNotFoundError(f"FLOORS_PJRT_LIBRARY={env}: no such file")
        return env
    here = Path(__file__).resolve().parent
    if (here / LIBRARY).is_file():
        return str(here / LIBRARY)
    candidates = [here / LIBRARY]
    if len(here.parents) > 2:
        repo = here.parents[2]
        candidates += [repo / "target" / p / LIBRARY for p in ("release", "debug", "debug/deps")]
    built = [c for c in candidates[1:] if c.is_file()]
    if built:
        # The checkout's newest build (`cargo test` leaves it in target/debug/deps).
        return str(max(built, key=lambda c: c.stat().st_mtime))
    raise FileNotFoundError(
        f"{LIBRARY} not found (looked at {', '.join(map(str, candidates))}); "
        "build it with `cargo build --release -p floors-pjrt` or set FLOORS_PJRT_LIBRARY")


def initialize() -> None:
    """Registers the floors PJRT plugin with JAX (called by JAX at startup)."""
    # Compiling reads the program's bytecode with this interpreter's jaxlib,
    # in a child process (see pjrt/src/vhlo.rs).
    os.environ.setdefault("FLOORS_PJRT_PYTHON", sys.executable)
    from jax._src import xla_bridge

    if PLATFORM in getattr(xla_bridge, "_backend_factories", {}):
        return  # registered already (an installed copy and a checkout both on the path)
    try:
        path = library_path()
        _check_library(path)
    except (FileNotFoundError, OSError) as e:
        # floors' own error where JAX would say "Backend 'floors' is not in
        # the list of known backends": a backend whose start raises it (loudly
        # when JAX_PLATFORMS names floors, quietly otherwise).
        message = f"floors PJRT plugin: {e}"

        def unavailable():
            raise RuntimeError(message)

        xla_bridge.register_backend_factory(PLATFORM, unavailable, priority=PRIORITY, fail_quietly=True)
        return
    _add_host_platform()
    xla_bridge.register_plugin(PLATFORM, priority=PRIORITY, library_path=path)
    # JAX's CPU lowering rules, custom-call targets (LAPACK) and host callbacks
    # for the platform floors (see _jax_rules.py).
    from . import _jax_rules

    _jax_rules.install(path)


def _check_library(path: str) -> None:
    """Loads the library once to see that it is floors' plugin (OSError if not)."""
    import ctypes

    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise OSError(f"{path} does not load: {e}") from e
    for symbol in ("GetPjrtApi", "floors_pjrt_register_ffi_target"):
        if not hasattr(lib, symbol):
            raise OSError(f"{path} is not floors' PJRT plugin (no `{symbol}`); rebuild it with `cargo build --release -p floors-pjrt`")


def _add_host_platform() -> None:
    """``JAX_PLATFORMS=floors`` also brings up JAX's ``cpu`` backend, last.

    JAX runs host callbacks (``jax.debug.print``, ``pure_callback``,
    ``io_callback``) with their arguments placed on a local ``cpu`` device;
    without one they fail ("failed to find a local CPU device"). Listed after
    floors, ``cpu`` never becomes the default device.
    """
    from jax._src import config

    platforms = config.jax_platforms.value
    if not platforms:
        return
    names = [p.strip() for p in platforms.split(",")]
    if PLATFORM in names and "cpu" not in names:
        config.config.update("jax_platforms", ",".join(names + ["cpu"]))
