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

/// Imports Mosaic kernel text and runs it (in grid order unless `options`
/// say otherwise).
fn run_text(text: &str, inputs: &[HostArray], options: &TpuRunOptions) -> Result<Vec<HostArray>, String> {
    let context = create_context();
    let module = floors::source::parse_module(&context, "k.mlir", text).map_err(|e| e.to_string())?;
    let k = import_kernel(module.as_operation().to_raw()).map_err(|e| e.to_string())?;
    run_kernel(&k, inputs, options).map_err(|e| e.to_string())
}

fn f32_array(shape: &[u64], f: impl Fn(usize) -> f32) -> HostArray {
    let n: u64 = shape.iter().product();
    let bytes: Vec<u8> = (0..n as usize).flat_map(|i| f(i).to_le_bytes()).collect();
    HostArray { element_type: ElementType::F32, shape: shape.to_vec(), bytes: bytes.into() }
}

fn i32s(a: &HostArray) -> Vec<i32> {
    assert_eq!(a.element_type, ElementType::I32);
    a.bytes.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// `pl.Element` windows: the index map returns element offsets (rows
/// 3 + 8·i, columns 64 + 128·j of a 40×384 array), and a window reaching
/// past the array's end reads uninitialized (NaN) values there.
#[test]
fn element_windows_start_at_element_offsets() {
    let text = r#"module {
  func.func @k(%i: i32, %j: i32, %x: memref<8x128xf32, #tpu.memory_space<vmem>>, %o: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<arbitrary>, #tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 5, 3>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, window_params = [{transform_indices = @tx, window_bounds = array<i64: 8, 128>, window_kind = #tpu.element_window<[0, 0], [0, 0]>}, {transform_indices = @to, window_bounds = array<i64: 8, 128>}]} {
    %c0 = arith.constant 0 : index
    %v = vector.load %x[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    vector.store %v, %o[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    return
  }
  func.func @tx(%i: i32, %j: i32) -> (i32, i32) {
    %c8 = arith.constant 8 : i32
    %c3 = arith.constant 3 : i32
    %c128 = arith.constant 128 : i32
    %c64 = arith.constant 64 : i32
    %r = arith.muli %i, %c8 : i32
    %r3 = arith.addi %r, %c3 : i32
    %c = arith.muli %j, %c128 : i32
    %c64j = arith.addi %c, %c64 : i32
    return %r3, %c64j : i32, i32
  }
  func.func @to(%i: i32, %j: i32) -> (i32, i32) {
    return %i, %j : i32, i32
  }
}
"#;
    let x = f32_array(&[40, 384], |i| i as f32);
    let opts = TpuRunOptions { grid_in_order: true, ..Default::default() };
    let out = run_text(text, &[x], &opts).unwrap();
    assert_eq!(out[0].shape, vec![40, 384]);
    let o = f32s(&out[0]);
    for r in 0..40usize {
        for c in 0..384usize {
            let (sr, sc) = (r + 3, c + 64);
            let got = o[r * 384 + c];
            if sr < 40 && sc < 384 {
                assert_eq!(got, (sr * 384 + sc) as f32, "({r}, {c})");
            } else {
                assert!(got.is_nan(), "({r}, {c}) reads past the end: {got}");
            }
        }
    }
}

/// `input_output_aliases` (the module attribute the hand-off import sets):
/// blocks the grid does not visit keep the aliased input.
#[test]
fn aliased_outputs_keep_unwritten_input_blocks() {
    let text = r#"module attributes {floors.input_output_aliases = array<i64: 0, 0>} {
  func.func @k(%i: i32, %x: memref<8x128xf32, #tpu.memory_space<vmem>>, %o: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, window_params = [{transform_indices = @t, window_bounds = array<i64: 8, 128>}, {transform_indices = @t, window_bounds = array<i64: 8, 128>}]} {
    %c0 = arith.constant 0 : index
    %v = vector.load %x[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %w = arith.negf %v : vector<8x128xf32>
    vector.store %w, %o[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    return
  }
  func.func @t(%i: i32) -> (i32, i32) {
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }
}
"#;
    let x = f32_array(&[32, 128], |i| i as f32 + 1.0);
    let out = run_text(text, &[x], &TpuRunOptions::default()).unwrap();
    let o = f32s(&out[0]);
    assert_eq!(out[0].shape, vec![32, 128]);
    for (i, &v) in o.iter().enumerate() {
        let want = if i < 16 * 128 { -(i as f32 + 1.0) } else { i as f32 + 1.0 };
        assert_eq!(v, want, "element {i}");
    }
    // Without the alias the unwritten half is uninitialized.
    let x = f32_array(&[32, 128], |i| i as f32);
    let plain = text.replace("module attributes {floors.input_output_aliases = array<i64: 0, 0>}", "module");
    let spec = floors::npy::TensorSpec { element_type: ElementType::F32, shape: vec![32, 128] };
    let out = run_text(&plain, &[x], &TpuRunOptions { outputs: Some(vec![spec]), ..Default::default() }).unwrap();
    assert!(f32s(&out[0])[16 * 128..].iter().all(|v| v.is_nan()));
}

/// `tpu.dynamic_rotate` (plain, dynamic negative-equivalent and strided),
/// `tpu.concatenate`, `tpu.bitcast` across widths and `tpu.reduce_index`
/// with NaN, on small vectors whose results are computed here by hand.
#[test]
fn rotate_concatenate_bitcast_and_reduce_index() {
    let text = r#"module {
  func.func @k(%x: memref<8x128xf32, #tpu.memory_space<vmem>>, %s: memref<1xi32, #tpu.memory_space<smem>>, %a: memref<8x128xf32, #tpu.memory_space<vmem>>, %b: memref<8x128xf32, #tpu.memory_space<vmem>>, %c: memref<8x256xf32, #tpu.memory_space<vmem>>, %d: memref<16x128xi16, #tpu.memory_space<vmem>>, %e: memref<8xi32, #tpu.memory_space<smem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64} {
    %c0 = arith.constant 0 : index
    %v = vector.load %x[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %n = memref.load %s[%c0] : memref<1xi32, #tpu.memory_space<smem>>
    %r = tpu.dynamic_rotate %v by %n dim 1 : vector<8x128xf32>, i32 -> vector<8x128xf32>
    vector.store %r, %a[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %c1 = arith.constant 1 : i32
    %q = tpu.dynamic_rotate %v by %c1 dim 1 {stride = 3 : si32, stride_dimension = 0 : si32} : vector<8x128xf32>, i32 -> vector<8x128xf32>
    vector.store %q, %b[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %cc = tpu.concatenate %r, %v in 1 : vector<8x128xf32>, vector<8x128xf32> -> vector<8x256xf32>
    vector.store %cc, %c[%c0, %c0] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>
    %bits = tpu.bitcast %v : vector<8x128xf32> -> vector<16x128xi16>
    vector.store %bits, %d[%c0, %c0] : memref<16x128xi16, #tpu.memory_space<vmem>>, vector<16x128xi16>
    %ix = tpu.reduce_index %v {axis = 1 : i32, kind = #tpu.reduction_kind<arg_max>} : vector<8x128xf32> -> vector<8xi32>
    %c0i = arith.constant 0 : index
    %e0 = vector.extract %ix[0] : i32 from vector<8xi32>
    %e1 = vector.extract %ix[1] : i32 from vector<8xi32>
    %c1x = arith.constant 1 : index
    memref.store %e0, %e[%c0i] : memref<8xi32, #tpu.memory_space<smem>>
    memref.store %e1, %e[%c1x] : memref<8xi32, #tpu.memory_space<smem>>
    return
  }
}
"#;
    // Row 0: i; row 1: a NaN at 7 and 9 (argmax: the first NaN); others: -i.
    let x = f32_array(&[8, 128], |i| {
        let (r, c) = (i / 128, i % 128);
        match r {
            0 => c as f32,
            1 if c == 7 || c == 9 => f32::NAN,
            _ => -(c as f32),
        }
    });
    let s = HostArray { element_type: ElementType::I32, shape: vec![1], bytes: (-3i32 + 128 * 5).to_le_bytes().to_vec().into() };
    let out = run_text(text, &[x.clone(), s], &TpuRunOptions::default()).unwrap();
    let xv = f32s(&x);
    let same = |a: f32, b: f32| a == b || (a.is_nan() && b.is_nan());
    let (a, b, c) = (f32s(&out[0]), f32s(&out[1]), f32s(&out[2]));
    for r in 0..8 {
        for col in 0..128usize {
            // jnp.roll by 637 ≡ 125 (mod 128): a[c] = x[(c − 125) mod 128].
            assert!(same(a[r * 128 + col], xv[r * 128 + (col + 128 - 125) % 128]));
            let shift = (1 + 3 * r) % 128;
            assert!(same(b[r * 128 + col], xv[r * 128 + (col + 128 - shift) % 128]), "strided ({r}, {col})");
            assert!(same(c[r * 256 + col], a[r * 128 + col]) && same(c[r * 256 + 128 + col], xv[r * 128 + col]));
        }
    }
    // Bitcast f32 → i16: row 2r holds the low halves of row r, 2r+1 the high.
    let d: Vec<i16> = out[3].bytes.chunks_exact(2).map(|c| i16::from_le_bytes(c.try_into().unwrap())).collect();
    for r in 0..8 {
        for col in 0..128 {
            let bits = xv[r * 128 + col].to_bits();
            assert_eq!(d[2 * r * 128 + col] as u16 as u32, bits & 0xffff);
            assert_eq!(d[(2 * r + 1) * 128 + col] as u16 as u32, bits >> 16);
        }
    }
    assert_eq!(&i32s(&out[4])[..2], &[127, 7]);
}

/// `pl.run_scoped` (`tpu.region` with `memref.alloca` and `tpu.sem_alloc`):
/// a scoped buffer and semaphore serve a DMA; reading the buffer before the
/// wait, or ending the scope with the DMA still in flight, is an error
/// naming the DMA.
#[test]
fn run_scoped_buffers_live_until_the_region_ends() {
    let text = r#"module {
  func.func @k(%x: memref<8x128xf32, #tpu.memory_space<any>>, %o: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64} {
    "tpu.region"() ({
      %buf = memref.alloca() : memref<8x128xf32, #tpu.memory_space<vmem>>
      %sem = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
      tpu.enqueue_dma source(%x : memref<8x128xf32, #tpu.memory_space<any>>) target(%buf : memref<8x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
      WAIT
      %c0 = arith.constant 0 : index
      %v = vector.load %buf[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      vector.store %v, %o[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      tpu.yield
    }) : () -> ()
    return
  }
}
"#;
    let wait = "tpu.wait_dma2 semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%x : memref<8x128xf32, #tpu.memory_space<any>>) dst(%buf : memref<8x128xf32, #tpu.memory_space<vmem>>)";
    let x = f32_array(&[8, 128], |i| i as f32 * 0.5);
    let out = run_text(&text.replace("WAIT", wait), std::slice::from_ref(&x), &TpuRunOptions::default()).unwrap();
    assert_eq!(f32s(&out[0]), f32s(&x));
    // Without the wait, reading the buffer is a race; without the read too,
    // the scope ends with the DMA in flight.
    let e = run_text(&text.replace("WAIT", ""), std::slice::from_ref(&x), &TpuRunOptions::default()).unwrap_err();
    assert!(e.contains("reads memory that the DMA started at k.mlir:6:7 writes"), "{e}");
    let no_read: Vec<&str> =
        text.lines().filter(|l| !l.contains("WAIT") && !l.contains("%buf[%c0, %c0]") && !l.contains("%v, %o")).collect();
    let e = run_text(&no_read.join("\n"), &[x], &TpuRunOptions::default()).unwrap_err();
    assert!(
        e.contains("k.mlir:3:5") && e.contains("a DMA on a scoped buffer or semaphore is still in flight (started at k.mlir:6:7)"),
        "{e}"
    );
}

/// Races with DMAs in flight (what Pallas' race detector reports): reading
/// a DMA's destination before its wait, and a second DMA into the same
/// memory, are errors naming both places; waiting first is fine.
#[test]
fn dma_races_are_errors() {
    let text = r#"module {
  func.func @k(%x: memref<8x128xf32, #tpu.memory_space<any>>, %o: memref<8x128xf32, #tpu.memory_space<vmem>>, %buf: memref<8x128xf32, #tpu.memory_space<vmem>>, %sem: memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c0i = arith.constant 0 : i32
    %c1i = arith.constant 1 : i32
    %s0 = tpu.memref_slice %sem[%c0i] : memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>> -> memref<1x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
    %s = tpu.memref_squeeze %s0 : memref<1x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>> -> memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
    %t0 = tpu.memref_slice %sem[%c1i] : memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>> -> memref<1x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
    %t = tpu.memref_squeeze %t0 : memref<1x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>> -> memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
    tpu.enqueue_dma source(%x : memref<8x128xf32, #tpu.memory_space<any>>) target(%buf : memref<8x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%s : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
    BODY
    tpu.wait_dma2 semaphore(%s : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%x : memref<8x128xf32, #tpu.memory_space<any>>) dst(%buf : memref<8x128xf32, #tpu.memory_space<vmem>>)
    %w = vector.load %buf[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    vector.store %w, %o[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    return
  }
}
"#;
    let x = f32_array(&[8, 128], |i| i as f32);
    let run = |body: &str| run_text(&text.replace("BODY", body), std::slice::from_ref(&x), &TpuRunOptions::default());
    assert_eq!(f32s(&run("").unwrap()[0]), f32s(&x));
    let e = run("%v = vector.load %buf[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>").unwrap_err();
    assert!(
        e.contains("k.mlir:11:10") && e.contains("reads memory that the DMA started at k.mlir:10:5 writes: wait for the DMA first"),
        "{e}"
    );
    let second = "tpu.enqueue_dma source(%x : memref<8x128xf32, #tpu.memory_space<any>>) target(%buf : memref<8x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%t : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)";
    let e = run(second).unwrap_err();
    assert!(
        e.contains("k.mlir:11:5") && e.contains("races with the DMA started at k.mlir:10:5, which writes memory this DMA copies"),
        "{e}"
    );
}

/// On megacore chips (v4, v5p) the parallel axes are split across two
/// TensorCores: an output block written from two points of a parallel axis
/// is a race there (an error naming the points), and fine on v5e.
#[test]
fn writing_one_block_across_a_parallel_axis_is_a_race_on_megacore() {
    let text = r#"module {
  func.func @k(%i: i32, %x: memref<8x128xf32, #tpu.memory_space<vmem>>, %o: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 4>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, window_params = [{transform_indices = @tx, window_bounds = array<i64: 8, 128>}, {transform_indices = @to, window_bounds = array<i64: 8, 128>}]} {
    %c0 = arith.constant 0 : index
    %v = vector.load %x[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    vector.store %v, %o[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    return
  }
  func.func @tx(%i: i32) -> (i32, i32) {
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }
  func.func @to(%i: i32) -> (i32, i32) {
    %c0 = arith.constant 0 : i32
    return %c0, %c0 : i32, i32
  }
}
"#;
    let x = f32_array(&[32, 128], |i| i as f32);
    let opts = |generation| TpuRunOptions { generation, grid_in_order: true, ..Default::default() };
    assert!(run_text(text, std::slice::from_ref(&x), &opts(TpuGeneration::V5e)).is_ok());
    let e = run_text(text, std::slice::from_ref(&x), &opts(TpuGeneration::V5p)).unwrap_err();
    assert!(e.contains("output 0 block (0, 0) is written at grid points (0) and (1), which differ on parallel axis 0: on v5p"), "{e}");
}
