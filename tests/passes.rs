//! Insta snapshots of the IR after every pass of the pipelines that exist.

use crate::common;

use common::snapshot_pipeline;

#[test]
fn hlo_inline_helpers() {
    let text = include_str!("inputs/helpers.mlir");
    snapshot_pipeline("helpers.mlir", text, "builtin.module(floors-hlo-inline)");
}

#[test]
fn hlo_expand_rng_bit_generator() {
    let text = include_str!("inputs/rng_bit_generator.mlir");
    snapshot_pipeline("rng_bit_generator.mlir", text, "builtin.module(floors-hlo-expand-rng-bit-generator)");
}

#[test]
fn hlo_eliminate_zero_sized() {
    let text = include_str!("inputs/zero_sized.mlir");
    snapshot_pipeline("zero_sized.mlir", text, "builtin.module(floors-hlo-eliminate-zero-sized)");
}

/// NamedShardings over a one-device mesh and a sharding constraint, as JAX
/// 0.10.2 prints them: gone, with the mesh.
#[test]
fn hlo_drop_one_device_shardings() {
    let text = include_str!("inputs/one_device_sharding.mlir");
    snapshot_pipeline("one_device_sharding.mlir", text, "builtin.module(floors-hlo-drop-one-device-shardings)");
}

/// A `shard_map` with `psum` over a one-device mesh, as JAX 0.10.2 lowers
/// it: the all_reduce is its operand, partition_id 0.
#[test]
fn hlo_single_device_collectives() {
    let text = include_str!("inputs/one_device_shard_map.mlir");
    snapshot_pipeline("one_device_shard_map.mlir", text, "builtin.module(floors-hlo-single-device-collectives)");
}

/// A `shard_map` over a 2x2 mesh (psum over one axis, pmax over the other),
/// as JAX 0.10.2 lowers it: the per-device program (local shards, the manual
/// computation inlined, no Shardy annotations), then its collectives as
/// calls of the runtime's collective thunks.
#[test]
fn hlo_spmd_partition_and_collectives_to_calls() {
    let text = include_str!("inputs/shard_map_mesh22.mlir");
    snapshot_pipeline("shard_map_mesh22.mlir", text, "builtin.module(floors-hlo-spmd-partition,floors-hlo-collectives-to-calls)");
}

/// sort (a merge sort), chlo.top_k (a heap) and a cumulative reduce_window
/// (a prefix scan) lowered to linalg/scf.
#[test]
fn linalg_lower_sort_top_k_scan() {
    let text = include_str!("inputs/sort_select_scan.mlir");
    snapshot_pipeline("sort_select_scan.mlir", text, "builtin.module(floors-linalg-lower-stablehlo)");
}

#[test]
fn floors_fuse_helpers() {
    let text = include_str!("inputs/helpers.mlir");
    snapshot_pipeline("fuse_helpers.mlir", text, "builtin.module(floors-fuse)");
}

/// A Rust pass that panics does not take the process down (unwinding into
/// MLIR's C++ would abort it): the panic becomes an error diagnostic at the
/// op the pass ran on, with where in Rust it happened.
#[derive(Clone)]
struct Explodes;

impl floors::pass::FloorsPass for Explodes {
    const ARGUMENT: &'static str = "floors-test-explodes";
    const NAME: &'static str = "Explodes";
    const DESCRIPTION: &'static str = "panics (test)";

    fn new() -> Self {
        Explodes
    }

    fn run(&mut self, _op: melior::ir::OperationRef<'_, '_>) -> Result<(), floors::pass::PassFailure> {
        let v: Vec<u8> = Vec::new();
        let _ = v[3]; // index out of bounds
        Ok(())
    }
}

#[test]
fn a_panicking_pass_is_an_error_not_an_abort() {
    let compiler = floors::Compiler::new(floors::CompileOptions::default()).unwrap();
    let mut module = compiler.parse("boom.mlir", "func.func @f() {\n  return\n}\n").unwrap();
    let pm = melior::pass::PassManager::new(compiler.context());
    pm.add_pass(floors::pass::create::<Explodes>());
    let capture = floors::diagnostics::Capture::new(compiler.context());
    assert!(pm.run(&mut module).is_err());
    let diags = capture.take().to_string();
    assert!(diags.contains("floors-test-explodes: internal error: the pass panicked: index out of bounds"), "{diags}");
    assert!(diags.contains("tests/passes.rs"), "{diags}");
    // The process, and the context, are still usable.
    let again = compiler.compile_source("ok.mlir", "func.func @g() {\n  return\n}\n", floors::Stage::Hlo).unwrap();
    assert!(again.contains("func.func @g"));
}
