//! The same pass gives the same IR through upstream mlir-opt (plugin loaded)
//! and through a Rust PassManager.

use std::{path::PathBuf, process::Command};

use floors::{CompileOptions, Compiler, target::CpuTarget};

fn plugin() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(|p| p.parent()).unwrap().to_path_buf();
    [profile.join("deps/libfloors_plugin.so"), profile.join("libfloors_plugin.so")]
        .into_iter()
        .find(|p| p.exists())
        .expect("libfloors_plugin.so was not built")
}

/// `pipeline` is `builtin.module(...)`. The Rust side records the target
/// (`floors.target`) when it parses; mlir-opt gets the same one from
/// floors-cpu-attach-target at the start of its pipeline.
fn check(input: &str, pipeline: &str) {
    let p = plugin();
    let inner = pipeline.strip_prefix("builtin.module(").expect("a builtin.module(...) pipeline");
    let opt_pipeline = format!("builtin.module(floors-cpu-attach-target{{cpu=x86-64-v3}},{inner}");
    let out = Command::new("/usr/lib/llvm-22/bin/mlir-opt")
        .arg(format!("--load-dialect-plugin={}", p.display()))
        .arg(format!("--load-pass-plugin={}", p.display()))
        .arg(format!("--pass-pipeline={opt_pipeline}"))
        .arg(input)
        .output()
        .expect("mlir-opt");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let from_opt = String::from_utf8(out.stdout).unwrap();

    let target = CpuTarget::resolve("x86-64-v3").unwrap();
    let compiler = Compiler::new(CompileOptions { target: floors::floor::Target::Cpu(Some(target)), ..CompileOptions::default() }).unwrap();
    let text = std::fs::read_to_string(input).unwrap();
    let mut module = compiler.parse(input, &text).unwrap();
    compiler.run_pipeline(&mut module, pipeline, "same_ir").unwrap();
    let from_rust = floors::ir::print_op(&module.as_operation());
    assert_eq!(from_opt.trim(), from_rust.trim(), "{input}: {pipeline}");
}

#[test]
fn inline_through_mlir_opt_equals_rust_pass_manager() {
    check(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/inputs/helpers.mlir"), "builtin.module(floors-hlo-inline)");
    let argmax = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/public/argmax.stablehlo.mlir");
    check(argmax, "builtin.module(floors-hlo-inline)");
}

#[test]
fn floors_fuse_through_mlir_opt_equals_rust_pass_manager() {
    for name in ["softmax", "mlp", "fori_loop"] {
        let path = format!("{}/../../shared/corpus/public/{name}.stablehlo.mlir", env!("CARGO_MANIFEST_DIR"));
        check(&path, "builtin.module(floors-fuse)");
    }
}
