"""pytest plugin for scripts/jax_suite.sh (`-p jax_suite_dut`): JAX's test
utilities take the device under test from the absl flag `--jax_test_dut`,
which pytest cannot pass. floors is a host (CPU) backend, so JAX's tests run
it as `cpu`: the tests JAX runs only on CPU, with CPU tolerances, run on
floors too instead of being skipped.
"""

import jax
from jax._src import test_util  # noqa: F401 - defines the flag


def pytest_configure(config):  # noqa: ARG001 - pytest's hook signature
    jax.config.update("jax_test_dut", "cpu")
