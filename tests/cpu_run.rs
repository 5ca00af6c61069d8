//! End to end on the CPU floor: every public corpus program is compiled
//! (fusion → linalg → kernels → LLVM → JIT), run by the thunk runtime on its
//! .npy inputs, and compared with JAX's outputs. The test walks the folder,
//! so a new program is covered automatically. Also: many concurrent runs of
//! one compiled program give identical results.

use crate::common;

use std::path::PathBuf;

use floors::{
    CompileOptions, Compiler, Stage,
    npy::{self, ElementType, HostArray},
    run::artifact_of_module,
    runtime::{CustomCallRegistry, Executable},
};

struct Compiled {
    exe: Executable,
}

/// The CPU pipeline with fusion switched off: one kernel per op.
const UNFUSED: &str = "builtin.module(floors-hlo-cleanup,floors-hlo-fuse-singletons,floors-lower-cpu)";

fn compile(compiler: &Compiler, path: &std::path::Path) -> Compiled {
    compile_with(compiler, path, None)
}

fn compile_with(compiler: &Compiler, path: &std::path::Path, pipeline: Option<&str>) -> Compiled {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.display().to_string();
    let module = match pipeline {
        None => compiler.compile_module(&name, &text, Stage::Llvm),
        Some(p) => compiler.parse(&name, &text).and_then(|mut m| {
            compiler.attach_target(&m)?;
            compiler.run_pipeline(&mut m, p, "unfused").map(|_| m)
        }),
    }
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let registry = std::sync::Arc::new(CustomCallRegistry::with_builtins());
    let artifact = artifact_of_module(compiler, &module, &name).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let program = floors::run::Program::from_artifact(artifact, &name, registry).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Compiled { exe: program.into_executable() }
}

fn close(a: &HostArray, b: &HostArray, tol: f64) -> Result<(), String> {
    if a.element_type != b.element_type || a.shape != b.shape {
        return Err(format!("got {} expected {}", a.describe(), b.describe()));
    }
    match a.element_type {
        ElementType::F32 => {
            let x: Vec<f32> = a.bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
            let y: Vec<f32> = b.bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
            for (i, (p, q)) in x.iter().zip(&y).enumerate() {
                let ok = (p.is_nan() && q.is_nan()) || p == q || ((p - q).abs() as f64) <= tol + tol * q.abs() as f64;
                if !ok {
                    return Err(format!("element {i}: got {p}, expected {q}"));
                }
            }
            Ok(())
        }
        _ => (a.bytes == b.bytes).then_some(()).ok_or_else(|| "bytes differ".to_string()),
    }
}

fn inputs(dir: &std::path::Path, name: &str) -> Vec<(PathBuf, HostArray)> {
    (0..)
        .map(|i| dir.join(format!("{name}.in{i}.npy")))
        .take_while(|p| p.exists())
        .map(|p| {
            let a = npy::read(&p).unwrap();
            (p, a)
        })
        .collect()
}

#[test]
fn corpus_runs_and_matches_jax() {
    run_corpus(None);
}

/// Fusion preserves semantics: the same results with every op its own kernel.
#[test]
fn corpus_matches_jax_with_fusion_disabled() {
    run_corpus(Some(UNFUSED));
}

/// Kernels split into workgroups compute the same: every kernel that can be
/// split is (no size threshold), into 3 or 2 workgroups (odd and even
/// chunks), run one after another on this thread and across a pool.
#[test]
fn corpus_matches_jax_split_into_workgroups() {
    let options = CompileOptions { workgroups: 3, workgroup_min_iterations: Some(1), ..CompileOptions::default() };
    let split = run_corpus_with(&Compiler::new(options).unwrap(), None, None);
    eprintln!("{split} kernels split into workgroups");
    assert!(split > 5, "only {split} kernels were split into workgroups");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let options = CompileOptions { workgroups: 2, workgroup_min_iterations: Some(1), ..CompileOptions::default() };
    run_corpus_with(&Compiler::new(options).unwrap(), None, Some(&pool));
    // Every op its own kernel, each split: the split meets every op kind alone.
    let options = CompileOptions { workgroups: 3, workgroup_min_iterations: Some(1), ..CompileOptions::default() };
    let split = run_corpus_with(&Compiler::new(options).unwrap(), Some(UNFUSED), Some(&pool));
    assert!(split > 20, "only {split} single-op kernels were split");
}

/// Programs whose outputs go through transcendental functions get JAX's
/// looser tolerance (1e-4); the rest must match to 1e-5.
fn tolerance(name: &str) -> f64 {
    const TRANSCENDENTAL: &[&str] = &["softmax", "gelu_erf", "unary_math", "elementwise_chain", "mlp"];
    if TRANSCENDENTAL.contains(&name) { 1e-4 } else { 1e-5 }
}

fn run_corpus(pipeline: Option<&str>) {
    run_corpus_with(&Compiler::new(CompileOptions::default()).unwrap(), pipeline, None);
}

/// Runs and checks every public program; returns how many kernels had a grid.
fn run_corpus_with(compiler: &Compiler, pipeline: Option<&str>, pool: Option<&rayon::ThreadPool>) -> usize {
    let mut split = 0;
    let dir = common::corpus_dir().join("public");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.to_string_lossy().ends_with(".stablehlo.mlir")).collect();
    files.sort();
    let mut failures = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().trim_end_matches(".stablehlo.mlir").to_string();
        let program = compile_with(compiler, &path, pipeline);
        split += program.exe.to_string().lines().filter(|l| l.contains(" kernel @") && !l.contains("grid [1, 1, 1]")).count();
        let outs = program.exe.execute(&inputs(&dir, &name), pool).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (i, got) in outs.iter().enumerate() {
            let expected = npy::read(&dir.join(format!("{name}.out{i}.npy"))).unwrap();
            if let Err(e) = close(got, &expected, tolerance(&name)) {
                failures.push(format!("{name} out{i}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    split
}

#[test]
fn concurrent_runs_are_identical() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let dir = common::corpus_dir().join("public");
    let program = compile(&compiler, &dir.join("softmax.stablehlo.mlir"));
    let ins = inputs(&dir, "softmax");
    let first = program.exe.execute(&ins, None).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                for _ in 0..20 {
                    assert_eq!(program.exe.execute(&ins, Some(&pool)).unwrap(), first);
                }
            });
        }
    });
}

#[test]
fn wrong_inputs_are_errors() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let dir = common::corpus_dir().join("public");
    let program = compile(&compiler, &dir.join("bias_add.stablehlo.mlir"));
    let ins = inputs(&dir, "bias_add");
    let e = program.exe.execute(&ins[..1], None).unwrap_err().to_string();
    assert!(
        e.contains("bias_add.stablehlo.mlir: error: the program takes 2 inputs (tensor<8x16xf32>, tensor<16xf32>), 1 were given"),
        "{e}"
    );
    let swapped = vec![ins[1].clone(), ins[0].clone()];
    let e = program.exe.execute(&swapped, None).unwrap_err().to_string();
    assert!(e.contains("input 0") && e.contains("expected tensor<8x16xf32>"), "{e}");
}

/// Buffer assignment reuses memory between temporaries whose lives do not
/// overlap (attention: transpose → dot → softmax → dot), and reports it.
#[test]
fn temporaries_share_memory() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let program = compile(&compiler, &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/two_layers.stablehlo.mlir"));
    let m = program.exe.memory();
    assert!(m.temp_bytes < m.unshared_temp_bytes, "{m:?}");
    assert!(m.temp_bytes >= m.live_temp_bytes, "{m:?}");
    assert!(m.peak_bytes >= m.temp_bytes, "{m:?}");
}

/// Convolutions (no conv in the public corpus): channels-last ones take the
/// direct convolution, NCHW is transposed to channels-last first, a
/// reversed window reads the kernel backwards (here: the flipped kernel's
/// convolution); all against a naive reference, with and without
/// workgroups. Strides, dilation and asymmetric padding exercise the window
/// index maps; 16 and 12 output features (a whole vector tile and not).
/// (`python/tests/test_convolution.py` has the matrix of
/// layouts, groups and types against XLA.)
/// Batch 2 splits workgroups over the batch, batch 1 over output rows.
#[test]
fn convolutions_match_a_naive_reference() {
    for f in [16, 12] {
        check_convolutions(2, f);
        check_convolutions(1, f);
    }
}

fn check_convolutions(n: usize, f: usize) {
    // (n, h, w, c), (kh, kw, f), strides, rhs dilation, padding (lo, hi) per dim
    let (h, w, c, kh, kw) = (12usize, 11usize, 32usize, 3usize, 2usize);
    let (s, d, pad) = ([2usize, 1usize], [1usize, 2usize], [(1usize, 2usize), (0usize, 1usize)]);
    let oh = (h + pad[0].0 + pad[0].1 - d[0] * (kh - 1) - 1) / s[0] + 1;
    let ow = (w + pad[1].0 + pad[1].1 - d[1] * (kw - 1) - 1) / s[1] + 1;
    let x: Vec<f32> = (0..n * h * w * c).map(|i| ((i * 7919 % 1000) as f32 / 500.0) - 1.0).collect();
    let k: Vec<f32> = (0..kh * kw * c * f).map(|i| ((i * 104729 % 1000) as f32 / 500.0) - 1.0).collect();
    // NHWC x HWIO -> NHWC reference.
    let mut want = vec![0f32; n * oh * ow * f];
    for b in 0..n {
        for y in 0..oh {
            for z in 0..ow {
                for o in 0..f {
                    let mut acc = 0f32;
                    for i in 0..kh {
                        for j in 0..kw {
                            let (yy, zz) =
                                ((y * s[0] + i * d[0]) as isize - pad[0].0 as isize, (z * s[1] + j * d[1]) as isize - pad[1].0 as isize);
                            if yy < 0 || zz < 0 || yy >= h as isize || zz >= w as isize {
                                continue;
                            }
                            for ci in 0..c {
                                acc += x[((b * h + yy as usize) * w + zz as usize) * c + ci] * k[((i * kw + j) * c + ci) * f + o];
                            }
                        }
                    }
                    want[((b * oh + y) * ow + z) * f + o] = acc;
                }
            }
        }
    }
    let f32s = |shape: Vec<u64>, v: &[f32]| HostArray {
        element_type: ElementType::F32,
        shape,
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    };
    let window = format!(
        "window = {{stride = [{}, {}], pad = [[{}, {}], [{}, {}]], lhs_dilate = [1, 1], rhs_dilate = [{}, {}], reverse = [false, false]}}",
        s[0], s[1], pad[0].0, pad[0].1, pad[1].0, pad[1].1, d[0], d[1]
    );
    let attrs = "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}";
    let nhwc = format!(
        "func.func public @main(%x: tensor<{n}x{h}x{w}x{c}xf32>, %k: tensor<{kh}x{kw}x{c}x{f}xf32>) -> tensor<{n}x{oh}x{ow}x{f}xf32> {{\n  \
         %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], {window} {attrs} : \
         (tensor<{n}x{h}x{w}x{c}xf32>, tensor<{kh}x{kw}x{c}x{f}xf32>) -> tensor<{n}x{oh}x{ow}x{f}xf32>\n  return %0 : tensor<{n}x{oh}x{ow}x{f}xf32>\n}}"
    );
    // The same convolution with NCHW input and output (OIHW... kept HWIO).
    let nchw = format!(
        "func.func public @main(%x: tensor<{n}x{c}x{h}x{w}xf32>, %k: tensor<{kh}x{kw}x{c}x{f}xf32>) -> tensor<{n}x{f}x{oh}x{ow}xf32> {{\n  \
         %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[0, 1, i, o]->[b, f, 0, 1], {window} {attrs} : \
         (tensor<{n}x{c}x{h}x{w}xf32>, tensor<{kh}x{kw}x{c}x{f}xf32>) -> tensor<{n}x{f}x{oh}x{ow}xf32>\n  return %0 : tensor<{n}x{f}x{oh}x{ow}xf32>\n}}"
    );
    let to_nchw = |v: &[f32], (a, b, cc, dd): (usize, usize, usize, usize)| {
        let mut out = vec![0f32; v.len()];
        for i0 in 0..a {
            for i1 in 0..b {
                for i2 in 0..cc {
                    for i3 in 0..dd {
                        out[((i0 * dd + i3) * b + i1) * cc + i2] = v[((i0 * b + i1) * cc + i2) * dd + i3];
                    }
                }
            }
        }
        out
    };
    let reversed = nhwc.replace("reverse = [false, false]", "reverse = [true, true]");
    // The kernel flipped in both window dims: reversed, it is `k` again.
    let mut flipped = vec![0f32; k.len()];
    for i in 0..kh {
        for j in 0..kw {
            let (from, to) = (((kh - 1 - i) * kw + (kw - 1 - j)) * c * f, (i * kw + j) * c * f);
            flipped[to..to + c * f].copy_from_slice(&k[from..from + c * f]);
        }
    }
    let kshape = vec![kh as u64, kw as u64, c as u64, f as u64];
    let (kernel, kernel_flipped) = (f32s(kshape.clone(), &k), f32s(kshape, &flipped));
    let cases = [
        (
            nhwc,
            f32s(vec![n as u64, h as u64, w as u64, c as u64], &x),
            &kernel,
            want.clone(),
            vec![n as u64, oh as u64, ow as u64, f as u64],
        ),
        (
            nchw,
            f32s(vec![n as u64, c as u64, h as u64, w as u64], &to_nchw(&x, (n, h, w, c))),
            &kernel,
            to_nchw(&want, (n, oh, ow, f)),
            vec![n as u64, f as u64, oh as u64, ow as u64],
        ),
        (
            reversed,
            f32s(vec![n as u64, h as u64, w as u64, c as u64], &x),
            &kernel_flipped,
            want.clone(),
            vec![n as u64, oh as u64, ow as u64, f as u64],
        ),
    ];
    for workgroups in [1, 3] {
        let options = CompileOptions { workgroups, workgroup_min_iterations: Some(1), ..CompileOptions::default() };
        let compiler = Compiler::new(options).unwrap();
        for (text, input, kernel, expected, shape) in &cases {
            let program = floors::run::Program::compile(&compiler, "conv.mlir", text).unwrap_or_else(|e| panic!("{e}"));
            let inputs = vec![(PathBuf::from("x"), input.clone()), (PathBuf::from("k"), (*kernel).clone())];
            let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
            let got = program.executable().execute(&inputs, Some(&pool)).unwrap();
            close(&got[0], &f32s(shape.clone(), expected), 1e-4).unwrap_or_else(|e| panic!("workgroups {workgroups}: {e}\n{text}"));
        }
    }
}

/// Custom calls run as runtime thunks: a handler registered under the
/// target's name gets the input and output bytes; `Sharding` is built in
/// (identity); a target without a handler is a located error before anything
/// runs.
#[test]
fn custom_calls_reach_registered_handlers() {
    let text = "func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = \"{replicated}\"} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = stablehlo.custom_call @double(%1) {api_version = 2 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = stablehlo.multiply %2, %a : tensor<4xf32>
  return %3 : tensor<4xf32>
}";
    let f32s =
        |v: [f32; 4]| HostArray { element_type: ElementType::F32, shape: vec![4], bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let err = floors::run::Program::compile(&compiler, "cc.mlir", text).err().expect("no handler for @double");
    assert!(err.to_string().contains("cc.mlir:4:8: error: no handler is registered for custom_call target 'double'"), "{err}");
    let mut registry = floors::runtime::thunk::CustomCallRegistry::with_builtins();
    registry.register("double", |ins, outs| {
        for (o, i) in outs[0].chunks_exact_mut(4).zip(ins[0].chunks_exact(4)) {
            o.copy_from_slice(&(2.0 * f32::from_le_bytes(i.try_into().unwrap())).to_le_bytes());
        }
        Ok(())
    });
    let program = floors::run::Program::compile_with_custom_calls(&compiler, "cc.mlir", text, std::sync::Arc::new(registry)).unwrap();
    let inputs = vec![(PathBuf::from("a"), f32s([0.0, 1.0, 2.0, 3.0])), (PathBuf::from("b"), f32s([1.0; 4]))];
    let out = program.executable().execute(&inputs, None).unwrap();
    assert_eq!(out[0], f32s([0.0, 4.0, 12.0, 24.0]));
    assert!(program.executable().to_string().contains("custom_call @double"));
}

/// A custom call asking for column-major operand and result layouts (as
/// JAX's LAPACK calls do) gets its buffers in that order, described with
/// their logical dims, and its column-major result is read back as the
/// logical array (`floors-hlo-custom-call-layouts`).
#[test]
fn custom_calls_get_their_operand_and_result_layouts() {
    let text = "func.func public @main(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0:2 = stablehlo.custom_call @colmajor(%a) {api_version = 4 : i32, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xf32>
}";
    let f32s = |v: &[f32]| HostArray {
        element_type: ElementType::F32,
        shape: vec![2, 3],
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    };
    let mut registry = floors::runtime::CustomCallRegistry::with_builtins();
    registry.register_rust("colmajor", |frame| {
        let (info, col, row) = (frame.arg_info(0)?, frame.ret_info(0)?, frame.ret_info(1)?);
        if info.dims != [2, 3] || col.dims != [2, 3] || row.dims != [2, 3] {
            return Err(floors::runtime::ffi::FfiError::invalid_argument(format!("dims {:?} {:?} {:?}", info.dims, col.dims, row.dims)));
        }
        let x = frame.arg::<f32>(0)?.to_vec();
        // The operand is column-major: x = a[0,0], a[1,0], a[0,1], ...; the
        // first result is written column-major, the second row-major, both
        // as 10 * a + 1.
        frame.ret::<f32>(0)?.iter_mut().zip(&x).for_each(|(o, v)| *o = 10.0 * v + 1.0);
        let r = frame.ret::<f32>(1)?;
        for i in 0..2 {
            for j in 0..3 {
                r[i * 3 + j] = 10.0 * x[j * 2 + i] + 1.0;
            }
        }
        Ok(())
    });
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let program = floors::run::Program::compile_with_custom_calls(&compiler, "layouts.mlir", text, std::sync::Arc::new(registry)).unwrap();
    let out = program.executable().execute(&[(PathBuf::from("a"), f32s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]))], None).unwrap();
    let want = f32s(&[1.0, 11.0, 21.0, 31.0, 41.0, 51.0]);
    assert_eq!(out[0], want);
    assert_eq!(out[1], want);
}

/// f32 → bf16 → f32 through the JIT (LLVM would call compiler-rt's
/// `__truncsfbf2`, which the JIT does not have): round to nearest even.
#[test]
fn bf16_conversions_round_to_nearest_even() {
    let text = "func.func public @main(%a: tensor<6xf32>) -> tensor<6xf32> {
  %0 = stablehlo.convert %a : (tensor<6xf32>) -> tensor<6xbf16>
  %1 = stablehlo.convert %0 : (tensor<6xbf16>) -> tensor<6xf32>
  return %1 : tensor<6xf32>
}";
    let xs: [f32; 6] = [1.0, 1.003_906_2, 1.011_718_8, -3.0, 65504.0, 1.0e-3];
    let round = |x: f32| {
        let b = x.to_bits();
        f32::from_bits(((b + 0x7fff + ((b >> 16) & 1)) >> 16) << 16)
    };
    let arr =
        |v: Vec<f32>| HostArray { element_type: ElementType::F32, shape: vec![6], bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let program = floors::run::Program::compile(&compiler, "bf16.mlir", text).unwrap();
    let out = program.executable().execute(&[(PathBuf::from("a"), arr(xs.to_vec()))], None).unwrap();
    assert_eq!(out[0], arr(xs.iter().map(|&x| round(x)).collect()));
}

/// Results written into the previous run's buffers are the same results,
/// in the same memory (no fresh pages per run); buffers of the wrong size
/// are not reused.
#[test]
fn execute_reusing_writes_into_the_previous_results() {
    let dir = common::corpus_dir().join("public");
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let program = compile(&compiler, &dir.join("softmax.stablehlo.mlir"));
    let args = inputs(&dir, "softmax");
    let first = program.exe.execute(&args, None).unwrap();
    let ptr = first[0].bytes.as_ptr();
    let again = program.exe.execute_reusing(&args, None, first.clone()).unwrap();
    assert_eq!(again, first);
    let third = program.exe.execute_reusing(&args, None, again).unwrap();
    assert_eq!(third, first);
    assert_ne!(ptr, third[0].bytes.as_ptr(), "the clone, not the original, was handed back");
    let reused_ptr = third[0].bytes.as_ptr();
    let fourth = program.exe.execute_reusing(&args, None, third).unwrap();
    assert_eq!(fourth[0].bytes.as_ptr(), reused_ptr, "the result buffer was reused");
    let mut wrong = fourth.clone();
    wrong[0].bytes = wrong[0].bytes[..4].into();
    assert_eq!(program.exe.execute_reusing(&args, None, wrong).unwrap(), first);
}

/// A kernel with a big write-only output (16 MiB) runs its streaming clone
/// (non-temporal stores) on the runtime's 64-byte aligned buffers, split
/// into workgroups or not; the values are those of plain stores.
#[test]
fn big_outputs_are_streamed_correctly() {
    let text = r#"
func.func public @main(%x: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %two = stablehlo.constant dense<2.0> : tensor<2048x2048xf32>
  %m = stablehlo.multiply %x, %two : tensor<2048x2048xf32>
  %e = stablehlo.exponential %m : tensor<2048x2048xf32>
  return %e : tensor<2048x2048xf32>
}"#;
    let n = 2048 * 2048;
    let xs: Vec<f32> = (0..n).map(|i| ((i % 97) as f32 - 48.0) / 64.0).collect();
    let x = HostArray { element_type: ElementType::F32, shape: vec![2048, 2048], bytes: xs.iter().flat_map(|v| v.to_le_bytes()).collect() };
    let args = vec![(PathBuf::from("x"), x)];
    for workgroups in [1, 2] {
        let compiler = Compiler::new(CompileOptions { workgroups, ..CompileOptions::default() }).unwrap();
        let llvm = compiler.compile_source("stream", text, Stage::LlvmIr).unwrap();
        assert!(llvm.contains("!nontemporal"), "a 16 MiB write-only output is streamed");
        let program = floors::run::Program::compile(&compiler, "stream", text).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let out = program.executable().execute(&args, Some(&pool)).unwrap();
        assert_eq!(out[0].bytes.as_ptr() as usize % 64, 0, "results are 64-byte aligned");
        for (i, c) in out[0].bytes.chunks_exact(4).enumerate().step_by(4099) {
            let got = f32::from_le_bytes(c.try_into().unwrap());
            let want = (2.0 * xs[i]).exp();
            assert!((got - want).abs() <= 1e-5 * want.abs(), "element {i}: {got} vs {want}");
        }
    }
}

/// Forward-mode derivative of a `lax.scan` RNN loss (JAX's
/// `lax_control_flow_test.py::testScanRnn`, the program the PJRT plugin
/// received): the primal and the tangent are two reductions of one fusion
/// whose accumulators CSE merged into one fill. Both went to the first
/// output's buffer and the tangent came back equal to the primal.
#[test]
fn scan_rnn_jvp_returns_the_tangent_not_the_primal() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs");
    let program = compile(&compiler, &dir.join("scan_rnn_jvp.stablehlo.mlir"));
    let outs = program.exe.execute(&inputs(&dir, "scan_rnn_jvp"), None).unwrap();
    for (k, got) in outs.iter().enumerate() {
        let want = npy::read(&dir.join(format!("scan_rnn_jvp.out{k}.npy"))).unwrap();
        close(got, &want, 1e-5).unwrap_or_else(|e| panic!("out{k}: {e}"));
    }
}

/// Two sums in one reduction fusion, each its own output.
#[test]
fn two_reductions_of_one_fusion_are_two_results() {
    let text = "func.func public @main(%a: tensor<3x1xf32>, %b: tensor<3x1xf32>) -> (tensor<f32>, tensor<f32>) {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %m = stablehlo.multiply %a, %a : tensor<3x1xf32>
  %n = stablehlo.multiply %a, %b : tensor<3x1xf32>
  %0 = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x1xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.reduce(%n init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x1xf32>, tensor<f32>) -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two_sums.mlir");
    std::fs::write(&path, text).unwrap();
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let program = compile(&compiler, &path);
    let f32s = |shape: Vec<u64>, v: &[f32]| HostArray {
        element_type: ElementType::F32,
        shape,
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    };
    let ins = vec![(PathBuf::from("a"), f32s(vec![3, 1], &[1.0, 2.0, 3.0])), (PathBuf::from("b"), f32s(vec![3, 1], &[10.0, 20.0, 30.0]))];
    let outs = program.exe.execute(&ins, None).unwrap();
    close(&outs[0], &f32s(vec![], &[14.0]), 0.0).unwrap();
    close(&outs[1], &f32s(vec![], &[140.0]), 0.0).unwrap();
}

/// Dots with a zero-size dimension (nn_test.py's orthogonal initializer of
/// shape 0x0 and 5x0 under `val @ val.T`): 0x0·0x0 is an empty result and
/// 5x0·0x6 is zeros; the 0x0 one crashed the CPU schedule.
#[test]
fn zero_size_dots_compile_and_run() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let f32s = |shape: Vec<u64>| HostArray {
        element_type: ElementType::F32,
        bytes: vec![0; 4 * shape.iter().product::<u64>() as usize].into(),
        shape,
    };
    for (m, k, n) in [(0u64, 0u64, 0u64), (5, 0, 6), (0, 3, 4)] {
        let text = format!(
            "func.func public @main(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %0 : tensor<{m}x{n}xf32>
}}"
        );
        let path = dir.path().join(format!("dot_{m}x{k}x{n}.mlir"));
        std::fs::write(&path, text).unwrap();
        let program = compile(&compiler, &path);
        let ins = vec![(PathBuf::from("a"), f32s(vec![m, k])), (PathBuf::from("b"), f32s(vec![k, n]))];
        let outs = program.exe.execute(&ins, None).unwrap();
        close(&outs[0], &f32s(vec![m, n]), 0.0).unwrap_or_else(|e| panic!("{m}x{k}x{n}: {e}"));
    }
}

/// Copies in `thunks` at this level and in branches (not in nested loops),
/// and the loops found.
fn copies_and_loops(thunks: &[floors::runtime::ThunkSpec], copies: &mut usize, loops: &mut Vec<Vec<floors::runtime::ThunkSpec>>) {
    use floors::runtime::ThunkSpec;
    for t in thunks {
        match t {
            ThunkSpec::Copy { .. } => *copies += 1,
            ThunkSpec::Conditional { branches, .. } => branches.iter().for_each(|b| copies_and_loops(b, copies, loops)),
            ThunkSpec::While { body, .. } => loops.push(body.clone()),
            _ => {}
        }
    }
}

/// A loop body's yielded values are written straight into the carried
/// buffers (XLA's copy insertion sharing the body's results with its
/// parameter): the branch computing `x` writes it there from inside its
/// branches; `i + 1`, written before the remainder reads `i`, is moved after
/// it (`floors-linalg-outline-kernels` sinks loop-state updates to the yield)
/// and computed in place. Only `y`'s new value (a reversal, computed while
/// its old one is still read) goes through a copy. The values match a plain
/// evaluation of the loop.
#[test]
fn loop_yields_are_written_into_the_carried_buffers() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/loop_yields_in_place.mlir");
    let text = std::fs::read_to_string(&path).unwrap();
    let artifact = floors::run::compile_artifact(&compiler, "loop_yields_in_place", &text).unwrap();
    let (mut copies, mut loops) = (0, Vec::new());
    copies_and_loops(&artifact.program.body, &mut copies, &mut loops);
    assert_eq!(loops.len(), 1, "{:#?}", artifact.program.body);
    let (mut body_copies, mut nested) = (0, Vec::new());
    copies_and_loops(&loops[0], &mut body_copies, &mut nested);
    assert_eq!(body_copies, 1, "one copy per iteration (y's); the body: {:#?}", loops[0]);

    let program = compile(&compiler, &path);
    let f32s = |v: Vec<f32>| HostArray {
        element_type: ElementType::F32,
        shape: vec![v.len() as u64],
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>().into(),
    };
    let (mut x, mut y) = (vec![0f32; 4], vec![1f32, 2., 3., 4.]);
    let ins = vec![(PathBuf::from("x"), f32s(x.clone())), (PathBuf::from("y"), f32s(y.clone()))];
    for i in 0..5 {
        let xn: Vec<f32> = if i % 2 == 0 { y.iter().map(|v| v * 2.0).collect() } else { y.iter().map(|v| v - 1.0).collect() };
        y = y.iter().rev().map(|v| v + 1.0).collect();
        x = xn;
    }
    let outs = program.exe.execute(&ins, None).unwrap();
    close(&outs[0], &f32s(x), 0.0).unwrap();
    close(&outs[1], &f32s(y), 0.0).unwrap();
}

/// `lax.scan` stacking its outputs (XLA's copy insertion): `xs`, which the
/// loop passes through unchanged, is read in the caller's buffer (no copy
/// into a loop state), and the stacked outputs, a state the loop owns, are
/// computed in the result buffer (no copy out after the loop). The only
/// copy left is the 4-byte counter's start from its constant. The values
/// match a plain evaluation of the scan.
#[test]
fn scan_reads_xs_in_place_and_stacks_into_the_result() {
    use floors::runtime::ThunkSpec;
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/scan_stack.mlir");
    let text = std::fs::read_to_string(&path).unwrap();
    let artifact = floors::run::compile_artifact(&compiler, "scan_stack", &text).unwrap();
    let copies: Vec<u64> = artifact
        .program
        .body
        .iter()
        .filter_map(|t| match t {
            ThunkSpec::Copy { from, .. } => Some(from.size),
            _ => None,
        })
        .collect();
    assert_eq!(copies, vec![4], "only the counter is copied: {:#?}", artifact.program.body);

    let program = compile(&compiler, &path);
    let xs: Vec<f32> = (0..32).map(|i| ((i * 7 % 11) as f32 - 5.0) * 0.25).collect();
    let ins = vec![(
        PathBuf::from("xs"),
        HostArray {
            element_type: ElementType::F32,
            shape: vec![8, 4],
            bytes: xs.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>().into(),
        },
    )];
    let mut c = [0f32; 4];
    let mut ys = Vec::new();
    for row in xs.chunks(4) {
        for (c, &x) in c.iter_mut().zip(row) {
            *c = *c * 0.9 + x;
            ys.push(c.tanh());
        }
    }
    let outs = program.exe.execute(&ins, None).unwrap();
    let want = HostArray {
        element_type: ElementType::F32,
        shape: vec![8, 4],
        bytes: ys.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>().into(),
    };
    close(&outs[0], &want, 1e-6).unwrap();
}

/// A loop state read in the caller's buffer (a parameter passed through
/// unchanged) is never written afterwards: the dynamic_update_slice of the
/// loop's result and a second loop carrying it work on copies, so the
/// caller's input is unchanged and the values are those of a plain
/// evaluation.
#[test]
fn a_state_read_in_place_is_never_written() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/loop_pass_through_then_updated.mlir");
    let program = compile(&compiler, &path);
    let f32s = |v: &[f32]| HostArray {
        element_type: ElementType::F32,
        shape: vec![v.len() as u64],
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>().into(),
    };
    let x = [1f32, 2., 3., 4.];
    let ins = vec![(PathBuf::from("x"), f32s(&x))];
    let outs = program.exe.execute(&ins, None).unwrap();
    close(&outs[0], &f32s(&[3., 6., 9., 12.]), 0.0).unwrap();
    close(&outs[1], &f32s(&[1., 9., 3., 4.]), 0.0).unwrap();
    close(&outs[2], &f32s(&[8., 72., 24., 32.]), 0.0).unwrap();
    close(&ins[0].1, &f32s(&x), 0.0).expect("the caller's input is unchanged");
}
