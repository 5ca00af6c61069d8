//! The TPU floor end to end: every public corpus program compiled for the
//! TPU (fusions → Mosaic kernels) and run with its kernels in the runtime's
//! interpreter, against JAX's outputs; what cannot go to the TPU floor yet
//! fails with a located error; artifacts round-trip; snapshots after every
//! TPU pass for matmul, softmax and layernorm.

use crate::common;

use std::{path::PathBuf, sync::Arc};

use floors::{
    CompileOptions, Compiler, Stage,
    npy::{self, ElementType, HostArray},
    run::Program,
    runtime::CustomCallRegistry,
    target::TpuTarget,
};

fn tpu_compiler(chip: &str) -> Compiler {
    Compiler::new(CompileOptions { target: floors::floor::Target::Tpu(TpuTarget::resolve(chip).unwrap()), ..CompileOptions::default() })
        .unwrap()
}

/// Programs the TPU floor cannot lower yet, and the words their error has
/// (none now: sort_rows sorts with a bitonic network).
const NOT_YET: &[(&str, &str)] = &[];

fn inputs(dir: &std::path::Path, name: &str) -> Vec<(PathBuf, HostArray)> {
    (0..).map(|i| dir.join(format!("{name}.in{i}.npy"))).take_while(|p| p.exists()).map(|p| (p.clone(), npy::read(&p).unwrap())).collect()
}

fn close(name: &str, a: &HostArray, b: &HostArray) -> Result<(), String> {
    const TRANSCENDENTAL: &[&str] = &["softmax", "gelu_erf", "unary_math", "elementwise_chain", "mlp"];
    close_to(if TRANSCENDENTAL.contains(&name) { 1e-4 } else { 1e-5 }, a, b)
}

fn close_to(tol: f64, a: &HostArray, b: &HostArray) -> Result<(), String> {
    if a.element_type != b.element_type || a.shape != b.shape {
        return Err(format!("got {} expected {}", a.describe(), b.describe()));
    }
    if a.element_type != ElementType::F32 {
        return (a.bytes == b.bytes).then_some(()).ok_or_else(|| "bytes differ".into());
    }
    let f = |x: &HostArray| x.bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect::<Vec<_>>();
    for (i, (p, q)) in f(a).iter().zip(f(b)).enumerate() {
        let ok = (p.is_nan() && q.is_nan()) || *p == q || ((p - q).abs() as f64) <= tol + tol * q.abs() as f64;
        if !ok {
            return Err(format!("element {i}: got {p}, expected {q}"));
        }
    }
    Ok(())
}

/// Every public program: 17 of 18 run on the TPU floor and match JAX; the
/// other is a located error naming the op and why.
#[test]
fn public_corpus_on_the_tpu_floor() {
    let compiler = tpu_compiler("v5e");
    let dir = common::corpus_dir().join("public");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.to_string_lossy().ends_with(".stablehlo.mlir")).collect();
    files.sort();
    let (mut ran, mut failures) = (0, Vec::new());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().trim_end_matches(".stablehlo.mlir").to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let compiled = Program::compile(&compiler, &path.display().to_string(), &text);
        if let Some((_, words)) = NOT_YET.iter().find(|(n, _)| *n == name) {
            let e = compiled.err().unwrap_or_else(|| panic!("{name} now compiles for the TPU: move it out of NOT_YET")).to_string();
            let located = format!("{}:", path.display());
            assert!(e.contains(&located) && e.contains(words) && e.contains("floors-tpu-select-blocks"), "{name}: {e}");
            continue;
        }
        let program = compiled.unwrap_or_else(|e| panic!("{name}: {e}"));
        let outs = program.executable().execute(&inputs(&dir, &name), None).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (i, got) in outs.iter().enumerate() {
            let expected = npy::read(&dir.join(format!("{name}.out{i}.npy"))).unwrap();
            if let Err(e) = close(&name, got, &expected) {
                failures.push(format!("{name} out{i}: {e}"));
            }
        }
        ran += 1;
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(ran, 18);
}

/// Bench-size programs take real grids (several blocks, the K accumulator)
/// and still match the CPU floor.
#[test]
fn bench_programs_tile_and_match_the_cpu_floor() {
    let tpu = tpu_compiler("v5e");
    let cpu = Compiler::new(CompileOptions::default()).unwrap();
    let dir = common::corpus_dir().join("bench");
    for name in ["matmul", "softmax", "layernorm", "row_sum"] {
        let path = dir.join(format!("{name}.stablehlo.mlir"));
        let text = std::fs::read_to_string(&path).unwrap();
        let kernels = tpu.compile_source(&path.display().to_string(), &text, Stage::Tpu).unwrap();
        let bounds: Vec<&str> = kernels.lines().filter(|l| l.contains("iteration_bounds")).collect();
        assert!(bounds.iter().any(|l| !l.contains("iteration_bounds = array<i64: 1>")), "{name}: every kernel has one step");
        matches_the_cpu_floor(name, &path, &text, &tpu, &cpu);
    }
}

/// Runs `text` on both floors on the same random inputs and compares: sums
/// of thousands of terms in another order, so within 1e-3 of the inputs' scale.
fn matches_the_cpu_floor(name: &str, path: &std::path::Path, text: &str, tpu: &Compiler, cpu: &Compiler) {
    let t = Program::compile(tpu, &path.display().to_string(), text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let c = Program::compile(cpu, &path.display().to_string(), text).unwrap();
    let args = floors::run::random_inputs(&c.executable().parameters());
    let (a, b) = (t.executable().execute(&args, None).unwrap(), c.executable().execute(&args, None).unwrap());
    for (x, y) in a.iter().zip(&b) {
        close_to(1e-3, x, y).unwrap_or_else(|e| panic!("{name}: TPU vs CPU floor: {e}"));
    }
}

/// The other bench programs (attention, the elementwise chain, the MLP, the
/// convolution as shifted matmuls on the MXU) run on the TPU floor too and
/// match the CPU floor: bench 8/8 with the test above.
#[test]
fn every_other_bench_program_matches_the_cpu_floor() {
    let tpu = tpu_compiler("v5e");
    let cpu = Compiler::new(CompileOptions::default()).unwrap();
    let dir = common::corpus_dir().join("bench");
    for name in ["attention", "elementwise_chain", "mlp", "conv2d_nhwc"] {
        let path = dir.join(format!("{name}.stablehlo.mlir"));
        let text = std::fs::read_to_string(&path).unwrap();
        matches_the_cpu_floor(name, &path, &text, &tpu, &cpu);
    }
}

/// A TPU artifact holds the kernels as data: saved, loaded and run again
/// without the compiler.
#[test]
fn tpu_artifacts_round_trip() {
    let compiler = tpu_compiler("v6e");
    let dir = common::corpus_dir().join("public");
    let path = dir.join("mlp.stablehlo.mlir");
    let program = Program::compile(&compiler, "mlp.mlir", &std::fs::read_to_string(&path).unwrap()).unwrap();
    let file = std::env::temp_dir().join(format!("mlp-tpu-{}.floors", std::process::id()));
    program.save(&file).unwrap();
    let again = Program::load_with_custom_calls(&file, Arc::new(CustomCallRegistry::with_builtins())).unwrap();
    std::fs::remove_file(&file).ok();
    let outs = again.executable().execute(&inputs(&dir, "mlp"), None).unwrap();
    close("mlp", &outs[0], &npy::read(&dir.join("mlp.out0.npy")).unwrap()).unwrap();
    assert!(format!("{:?}", again.artifact().target).contains("v6e"));
}

/// The hand-off: one `tpu_custom_call` per kernel, whose body floors reads
/// back into the same kernel.
#[test]
fn handoff_bodies_decode_to_the_kernels() {
    let compiler = tpu_compiler("v5e");
    let path = common::corpus_dir().join("public/softmax.stablehlo.mlir");
    let text = std::fs::read_to_string(&path).unwrap();
    let handoff = compiler.compile_source("softmax.mlir", &text, Stage::TpuHandoff).unwrap();
    assert_eq!(handoff.matches("stablehlo.custom_call @tpu_custom_call").count(), 1, "{handoff}");
    assert!(handoff.contains("kernel_name = \"fusion_0\"") && handoff.contains("\\22serialization_format\\22: 1"), "{handoff}");
    let start = handoff.find("\\22body\\22: \\22").unwrap() + "\\22body\\22: \\22".len();
    let end = start + handoff[start..].find("\\22").unwrap();
    let bytes = floors_tpu::handoff::from_base64(&handoff[start..end]).unwrap();
    let module = floors_tpu::handoff::decode_handoff_body(compiler.context(), &bytes).unwrap();
    let decoded = floors::ir::print_op(&module.as_operation());
    let kernels = compiler.compile_source("softmax.mlir", &text, Stage::Tpu).unwrap();
    for line in ["vector.multi_reduction <maximumf>", "math.exp", "tpu.vector_store", "window_params"] {
        assert!(decoded.contains(line) && kernels.contains(line), "{line} missing:\n{decoded}");
    }
}

/// Snapshots after every TPU pass (fused module in, pinned to v5e).
#[test]
fn tpu_pass_snapshots() {
    let cpu = Compiler::new(CompileOptions::default()).unwrap();
    for (dir, name) in [
        ("public", "matmul"),
        ("public", "softmax"),
        ("public", "dynamic_slice_update"),
        ("public", "gather_rows"),
        ("public", "sort_rows"),
        ("bench", "layernorm"),
        ("bench", "matmul"),
        ("bench", "conv2d_nhwc"),
    ] {
        let path = common::corpus_dir().join(format!("{dir}/{name}.stablehlo.mlir"));
        let fused = cpu.compile_source(&path.display().to_string(), &std::fs::read_to_string(&path).unwrap(), Stage::Fused).unwrap();
        common::snapshot_pipeline(
            &format!("tpu_{dir}_{name}.mlir"),
            &fused,
            "builtin.module(floors-tpu-attach-target{tpu=v5e},floors-lower-tpu)",
        );
    }
}

#[test]
fn bad_tpu_names_are_errors() {
    let e = TpuTarget::resolve("v7x").unwrap_err().to_string();
    assert!(e.contains("unknown TPU `v7x`"), "{e}");
}

/// Real Pallas programs (jax lowered them for TPU): floors takes each
/// `tpu_custom_call` apart, runs its Mosaic kernel in the interpreter as
/// part of the host program, and matches the expected outputs.
#[test]
fn pallas_programs_run_on_the_tpu_floor() {
    let compiler = tpu_compiler("v5e");
    let dir = common::corpus_dir().join("mosaic");
    for name in ["add", "matmul", "softmax", "gather_rows", "dma"] {
        let path = dir.join(format!("{name}.stablehlo.mlir"));
        let program = Program::compile(&compiler, &path.display().to_string(), &std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let outs = program.executable().execute(&inputs(&dir, name), None).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = npy::read(&dir.join(format!("{name}.out0.npy"))).unwrap();
        close_to(1e-4, &outs[0], &expected).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// A tpu_custom_call whose body is not a Mosaic kernel is an error at the call.
#[test]
fn a_broken_pallas_body_is_a_located_error() {
    let text = r#"func.func @main(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %0 = stablehlo.custom_call @tpu_custom_call(%a) {backend_config = "{\"custom_call_config\": {\"body\": \"bm90IGJ5dGVjb2Rl\", \"serialization_format\": 1}}"} : (tensor<8x128xf32>) -> tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}
"#;
    let e = Program::compile(&tpu_compiler("v5e"), "broken.mlir", text).err().expect("must fail").to_string();
    assert!(e.contains("broken.mlir:2:") && e.contains("tpu_custom_call: its Mosaic body"), "{e}");
}

/// Argmax and argmin with NaN ties on the TPU floor: JAX's reducer keeps its
/// left operand when both values are NaN, so the answer is the first NaN's
/// index, which only an in-order fold of the row gives (a halving tree
/// paired element i with i + k/2 and returned a later NaN). Rows of 40 (one
/// in-order fold) and of 2048 (runs of 32 folded in order, then the runs),
/// NaNs placed so that halving pairs would disagree; the CPU floor agrees.
#[test]
fn argmax_with_nan_ties_returns_the_first_nan_on_the_tpu_floor() {
    let tpu = tpu_compiler("v5e");
    let cpu = Compiler::new(CompileOptions::default()).unwrap();
    for (n, nans) in [(40usize, [27usize, 9, 33]), (2048, [1500, 700, 1900])] {
        // JAX's argmax / argmin reducers (`lax._compute_argminmax`).
        let program = |dir: &str, init: &str| {
            format!(
                "func.func @main(%a: tensor<8x{n}xf32>) -> tensor<8xi32> {{
  %i = stablehlo.iota dim = 1 : tensor<8x{n}xi32>
  %init = stablehlo.constant dense<{init}> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%a init: %init), (%i init: %zero) across dimensions = [1] : (tensor<8x{n}xf32>, tensor<8x{n}xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    reducer(%x: tensor<f32>, %y: tensor<f32>) (%xi: tensor<i32>, %yi: tensor<i32>) {{
      %c = stablehlo.compare {dir}, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %nan = stablehlo.compare NE, %x, %x, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %pick = stablehlo.or %c, %nan : tensor<i1>
      %eq = stablehlo.compare EQ, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %lt = stablehlo.compare LT, %xi, %yi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %pick_i = stablehlo.or %pick, %tie : tensor<i1>
      %v = stablehlo.select %pick, %x, %y : tensor<i1>, tensor<f32>
      %j = stablehlo.select %pick_i, %xi, %yi : tensor<i1>, tensor<i32>
      stablehlo.return %v, %j : tensor<f32>, tensor<i32>
    }}
  return %0#1 : tensor<8xi32>
}}
"
            )
        };
        // Row r holds r - 3.5 + j / n, with NaNs in rows 0..4 at `nans` (the
        // first listed is not the first by index).
        let mut values: Vec<f32> = (0..8 * n).map(|k| (k / n) as f32 - 3.5 + (k % n) as f32 / n as f32).collect();
        for row in 0..4 {
            for &j in &nans[..2 + row % 2] {
                values[row * n + j] = f32::NAN;
            }
        }
        let first_nan = *nans[..2].iter().min().unwrap() as i32;
        let input = HostArray {
            element_type: ElementType::F32,
            shape: vec![8, n as u64],
            bytes: values.iter().flat_map(|x| x.to_le_bytes()).collect(),
        };
        for (dir, init, plain) in [("GT", "0xFF800000", (n - 1) as i32), ("LT", "0x7F800000", 0)] {
            let text = program(dir, init);
            let name = format!("argm{}_{n}", if dir == "GT" { "ax" } else { "in" });
            let args = vec![(PathBuf::from("a.npy"), input.clone())];
            let t = Program::compile(&tpu, &name, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let c = Program::compile(&cpu, &name, &text).unwrap();
            let got = t.executable().execute(&args, None).unwrap();
            let want = c.executable().execute(&args, None).unwrap();
            let idx = |a: &HostArray| a.bytes.chunks_exact(4).map(|b| i32::from_le_bytes(b.try_into().unwrap())).collect::<Vec<_>>();
            let first = (0..4).map(|r| if r % 2 == 0 { first_nan } else { first_nan.min(nans[2] as i32) });
            let expected: Vec<i32> = first.chain(std::iter::repeat_n(plain, 4)).collect();
            assert_eq!(idx(&want[0]), expected, "{name}: CPU floor");
            assert_eq!(idx(&got[0]), expected, "{name}: TPU floor");
        }
    }
}
