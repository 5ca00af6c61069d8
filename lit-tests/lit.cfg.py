# lit configuration for floors.
#
# The plugin under test comes from FLOORS_PLUGIN (the test runner sets it to the
# freshly built libfloors_plugin.so). Tools are LLVM 22's, never whatever
# FileCheck happens to be first on PATH.
import os
import platform

import lit.formats

config.name = "floors"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
repo_root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.path.join(repo_root, "target", "lit")
config.excludes = ["Inputs", "lit.cfg.py"]

llvm_bin = os.environ.get("FLOORS_LLVM_BIN", "/usr/lib/llvm-22/bin")
config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
for var in ("RUST_LOG", "FLOORS_FLAGS", "HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# Tests that name x86 CPUs (x86-64-v3 pins the CPU schedules) need an x86 host.
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")

plugin = os.environ.get("FLOORS_PLUGIN")
if not plugin or not os.path.exists(plugin):
    lit_config.fatal(
        "FLOORS_PLUGIN must name the built plugin (libfloors_plugin.so); "
        "run the suite through `cargo test --test lit` or scripts/test.sh"
    )

mlir_opt = os.path.join(llvm_bin, "mlir-opt")
config.substitutions.append(
    ("%floors-opt",
     f"{mlir_opt} --load-dialect-plugin={plugin} --load-pass-plugin={plugin}")
)
config.substitutions.append(("%mlir-opt", mlir_opt))
# The end-to-end check of floors-linalg-lower-stablehlo: lower, bufferize,
# loops, LLVM (naively: the point is the numbers), then run @main.
config.substitutions.append(
    ("%linalg-e2e-pipeline",
     "--pass-pipeline='builtin.module(floors-linalg-lower-stablehlo,eliminate-empty-tensors,"
     "one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries "
     "function-boundary-type-conversion=identity-layout-map},func.func(convert-linalg-to-loops),"
     "convert-scf-to-cf,expand-strided-metadata,lower-affine,finalize-memref-to-llvm,convert-math-to-llvm,"
     "convert-math-to-libm,convert-to-llvm,reconcile-unrealized-casts)'")
)
llvm_lib = os.path.join(os.path.dirname(llvm_bin), "lib")
config.substitutions.append(
    ("%run-main",
     os.path.join(llvm_bin, "mlir-runner") + " -e main -entry-point-result=void -shared-libs="
     + os.path.join(llvm_lib, "libmlir_runner_utils.so") + "," + os.path.join(llvm_lib, "libmlir_c_runner_utils.so"))
)
config.substitutions.append(("%FileCheck", os.path.join(llvm_bin, "FileCheck")))
config.substitutions.append(("%corpus", os.path.join(os.path.dirname(repo_root), "shared", "corpus")))

floors_bin = os.environ.get("FLOORS_BIN")
if floors_bin and os.path.exists(floors_bin):
    config.substitutions.append(("%floors", floors_bin))
    config.available_features.add("floors-cli")
