//! Insta snapshots of the IR after every pass of the pipelines that exist.

mod common;

use common::snapshot_pipeline;

#[test]
fn hlo_inline_helpers() {
    let text = include_str!("inputs/helpers.mlir");
    snapshot_pipeline("helpers.mlir", text, "builtin.module(floors-hlo-inline)");
}

#[test]
fn floors_fuse_helpers() {
    let text = include_str!("inputs/helpers.mlir");
    snapshot_pipeline("fuse_helpers.mlir", text, "builtin.module(floors-fuse)");
}
