"""`pip install ./python` builds floors' PJRT plugin and ships it inside the
package, so `JAX_PLATFORMS=floors python prog.py` works with nothing copied
by hand.

The library comes from, in order: `$FLOORS_PJRT_LIBRARY` (a built
`libfloors_pjrt.so`), a copy already next to the package sources, or
`cargo build --release -p floors-pjrt` run in the checkout this directory
belongs to (the Rust toolchain and the LLVM/MLIR of `scripts/setup.sh`
must be there; pip builds in the source tree, so the checkout is the parent
of this directory). The wheel is tagged for this platform (it holds a
native library).
"""

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
LIBRARY = "libfloors_pjrt.so"


def _library() -> Path:
    given = os.environ.get("FLOORS_PJRT_LIBRARY")
    if given:
        if not Path(given).is_file():
            raise SystemExit(f"FLOORS_PJRT_LIBRARY={given}: no such file")
        return Path(given)
    shipped = HERE / "jax_plugins" / "floors" / LIBRARY
    if shipped.is_file():
        return shipped
    if not (REPO / "Cargo.toml").is_file():
        raise SystemExit(f"no {LIBRARY}: set FLOORS_PJRT_LIBRARY, or install from a floors checkout ({REPO} is not one)")
    cargo = shutil.which("cargo")
    if cargo is None:
        raise SystemExit(f"no {LIBRARY} and no `cargo` to build it: install Rust (rustup) or set FLOORS_PJRT_LIBRARY")
    subprocess.run([cargo, "build", "--release", "-p", "floors-pjrt"], cwd=REPO, check=True)
    return REPO / "target" / "release" / LIBRARY


class BuildWithLibrary(build_py):
    """The Python sources, then the plugin library next to them."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "jax_plugins" / "floors" / LIBRARY
        target.parent.mkdir(parents=True, exist_ok=True)
        source = _library()
        if source.resolve() != target.resolve():
            shutil.copy2(source, target)


class BinaryDistribution(Distribution):
    """A platform wheel: the package holds a native library."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
