//! Mosaic kernels from the corpus (`corpus/mosaic/NAME.mosaic.mlir`, real
//! Pallas output) parsed with floors' `tpu` dialect, imported
//! (`floors::tpu_import`) and run by the runtime's interpreter on the
//! corpus inputs, against the numpy reference outputs: exact for the
//! data-movement kernels (add, dma, gather_rows), within a tight tolerance
//! for matmul and softmax (see `close`). Plus the CLI path
//! `floors run --target tpu KERNEL.mosaic.mlir` and its errors.

use crate::common;

use std::{path::PathBuf, process::Command};

use floors::{
    context::create_context,
    npy::{ElementType, HostArray},
    runtime::tpu::{TpuGeneration, TpuRunOptions, run_kernel},
};
use floors_tpu::import::{import_kernel, is_mosaic_kernel_module};

fn mosaic(name: &str) -> PathBuf {
    common::corpus_dir().join("mosaic").join(name)
}

fn inputs(kernel: &str) -> Vec<PathBuf> {
    (0..).map(|i| mosaic(&format!("{kernel}.in{i}.npy"))).take_while(|p| p.exists()).collect()
}

fn f32s(a: &HostArray) -> Vec<f32> {
    assert_eq!(a.element_type, ElementType::F32);
    a.bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// |got - want| ≤ 1e-5·|want| + `atol` for every element: f32 results
/// whose only difference from the reference is summation order and libm
/// (the interpreter sums matmul products in f64 and rounds once; the
/// reference accumulates in f32, so a K = 512 dot product whose terms cancel
/// differs by up to ~K·2⁻²⁴·|terms| in absolute terms).
fn close(got: &HostArray, want: &HostArray, atol: f32) -> Result<(), String> {
    let (g, w) = (f32s(got), f32s(want));
    let mut worst = 0f32;
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        let ok = (a - b).abs() <= 1e-5 * b.abs() + atol; // false for NaN
        if !ok {
            return Err(format!("element {i}: got {a}, want {b}"));
        }
        worst = worst.max((a - b).abs());
    }
    eprintln!("max abs difference {worst}");
    Ok(())
}

fn run_corpus(kernel: &str, options: &TpuRunOptions) -> Vec<HostArray> {
    let path = mosaic(&format!("{kernel}.mosaic.mlir"));
    let text = std::fs::read_to_string(&path).unwrap();
    let context = create_context();
    let module = floors::source::parse_module(&context, &path.display().to_string(), &text).unwrap_or_else(|e| panic!("{kernel}: {e}"));
    let op = module.as_operation().to_raw();
    assert!(is_mosaic_kernel_module(op));
    let k = import_kernel(op).unwrap_or_else(|e| panic!("{kernel}: {e}"));
    let arrays: Vec<HostArray> = inputs(kernel).iter().map(|p| floors::npy::read(p).unwrap()).collect();
    run_kernel(&k, &arrays, options).unwrap_or_else(|e| panic!("{kernel}: {e}"))
}

#[test]
fn corpus_kernels_match_the_reference() {
    // (kernel, absolute tolerance; None: bit-exact)
    for (kernel, atol) in [("add", None), ("dma", None), ("gather_rows", None), ("matmul", Some(1e-4)), ("softmax", Some(1e-7))] {
        let want = floors::npy::read(&mosaic(&format!("{kernel}.out0.npy"))).unwrap();
        // In order, and with the parallel axes shuffled: none of these
        // kernels depends on the order of its parallel steps.
        for seed in [None, Some(1)] {
            let outs = run_corpus(kernel, &TpuRunOptions { grid_seed: seed, ..Default::default() });
            assert_eq!(outs.len(), 1, "{kernel}");
            assert_eq!((outs[0].element_type, &outs[0].shape), (want.element_type, &want.shape), "{kernel}");
            match atol {
                None => assert!(outs[0].bytes == want.bytes, "{kernel}: output differs from the reference"),
                Some(atol) => close(&outs[0], &want, atol).unwrap_or_else(|e| panic!("{kernel} (seed {seed:?}): {e}")),
            }
        }
    }
}

#[test]
fn corpus_vmem_budgets() {
    // matmul: 3 double-buffered 64 KiB windows + a 64 KiB accumulator =
    // 448 KiB: fits every generation's default; refused under 256 KiB.
    for g in [TpuGeneration::V4, TpuGeneration::V5e, TpuGeneration::V5p, TpuGeneration::V6e] {
        run_corpus("add", &TpuRunOptions { generation: g, ..Default::default() });
    }
    let path = mosaic("matmul.mosaic.mlir");
    let text = std::fs::read_to_string(&path).unwrap();
    let context = create_context();
    let module = floors::source::parse_module(&context, "matmul.mosaic.mlir", &text).unwrap();
    let k = import_kernel(module.as_operation().to_raw()).unwrap();
    let arrays: Vec<HostArray> = inputs("matmul").iter().map(|p| floors::npy::read(p).unwrap()).collect();
    let e = run_kernel(&k, &arrays, &TpuRunOptions { vmem_limit_bytes: Some(256 << 10), ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("needs 0.44 MiB of VMEM, over the 0.25 MiB limit on v5e"), "{e}");
}

#[test]
fn unknown_ops_are_located_errors() {
    let text = r#"module {
  func.func @k(%arg0: i32, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 1>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, window_params = [{transform_indices = @t, window_bounds = array<i64: 8, 128>}]} {
    %cst = arith.constant 1.0 : f32
    %0 = math.cbrt %cst : f32
    return
  }
  func.func @t(%arg0: i32) -> (i32, i32) {
    return %arg0, %arg0 : i32, i32
  }
}
"#;
    let context = create_context();
    let module = floors::source::parse_module(&context, "k.mlir", text).unwrap();
    let e = import_kernel(module.as_operation().to_raw()).unwrap_err();
    assert_eq!(e.to_string(), "k.mlir:4:10: error: `math.cbrt` is not supported by the TPU interpreter");
}

fn floors_cmd() -> Command {
    Command::new(env!("CARGO_BIN_EXE_floors"))
}

#[test]
fn cli_runs_a_mosaic_kernel() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = floors_cmd();
    cmd.args(["run", "--target", "tpu", "--tpu", "v6e"]).arg(mosaic("gather_rows.mosaic.mlir"));
    for p in inputs("gather_rows") {
        cmd.arg("--input").arg(p);
    }
    let out = cmd.arg("--output-dir").arg(dir.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = floors::npy::read(&dir.path().join("out0.npy")).unwrap();
    assert_eq!(got, floors::npy::read(&mosaic("gather_rows.out0.npy")).unwrap());

    // A bad generation is refused. (StableHLO with --target tpu goes
    // through the TPU floor, not this path.)
    let out = floors_cmd()
        .args(["run", "--target", "tpu", "--tpu", "v9"])
        .arg(mosaic("add.mosaic.mlir"))
        .arg("--output-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown TPU `v9`"));
    // A kernel error names the pipeline rule: one input missing.
    let out = floors_cmd()
        .args(["run", "--target", "tpu"])
        .arg(mosaic("matmul.mosaic.mlir"))
        .arg("--input")
        .arg(mosaic("matmul.in0.npy"))
        .arg("--output-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error: Mosaic kernel `matmul_kernel`:"), "{err}");
}
