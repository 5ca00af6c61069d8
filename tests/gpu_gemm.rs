//! The GPU floor's cuBLAS path without a GPU: programs with dots compiled
//! with `--gpu-gemm library`, their `ThunkSpec::Gemm`s taken out of the
//! artifact and run through the runtime's reference gemm
//! (`floors_runtime::gemm::host_gemm`, the column-major mapping cuBLAS
//! gets) on the bytes the thunk program would hand it:
//! - programs whose thunks are all gemms and copies run whole on the host
//!   and match the corpus' expected outputs (`public/matmul`) or the CPU
//!   floor (`bench/matmul`, batched, transposed and broadcast dots);
//! - every library fusion of every program (`mlp`, `attention`, ...) is
//!   checked alone: its StableHLO body (what the call computes) compiled by
//!   the CPU floor against its gemm thunk on the same inputs;
//! - the artifact round trip keeps the gemm thunks; `auto` and `emitter`
//!   choose as documented; `--emit thunks` shows the gemms.
//!
//! This proves the layout (m, n, k, transposes, batch strides) of each
//! spec; what a device adds (cuBLAS itself) is the runtime's self-test.

use crate::common;

use floors::{
    CompileOptions, Compiler, Stage,
    npy::{ElementType, HostArray},
    run::{Program, compile_artifact},
    runtime::{AllocationRole, Artifact, GemmSpec, ThunkSpec, gemm::host_gemm},
    target::GpuTarget,
};
use floors_gpu::GemmMode;

fn gpu_compiler(mode: GemmMode) -> Compiler {
    Compiler::new(CompileOptions {
        target: floors::floor::Target::Gpu { target: GpuTarget::resolve("sm_90").unwrap(), gemm: mode },
        ..CompileOptions::default()
    })
    .unwrap()
}

fn gemms(thunks: &[ThunkSpec], out: &mut Vec<GemmSpec>) {
    for t in thunks {
        match t {
            ThunkSpec::Gemm(g) => out.push(g.clone()),
            ThunkSpec::While { cond, body, .. } => {
                gemms(cond, out);
                gemms(body, out);
            }
            ThunkSpec::Conditional { branches, .. } => branches.iter().for_each(|b| gemms(b, out)),
            _ => {}
        }
    }
}

fn gemms_of(a: &Artifact) -> Vec<GemmSpec> {
    let mut out = Vec::new();
    gemms(&a.program.body, &mut out);
    out
}

/// Deterministic values in [-1, 1] for a tensor of `shape`.
fn random_f32(shape: &[u64], seed: u64) -> HostArray {
    let n: u64 = shape.iter().product();
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let bytes = (0..n)
        .flat_map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (((x >> 33) as f64 / (1u64 << 31) as f64) as f32 * 2.0 - 1.0).to_le_bytes()
        })
        .collect();
    HostArray { element_type: ElementType::F32, shape: shape.to_vec(), bytes }
}

fn f32s(a: &HostArray) -> Vec<f32> {
    a.bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn assert_close(what: &str, got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "{what}: element counts");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-3 * (1.0 + w.abs()), "{what}: element {i} is {g}, expected {w}");
    }
}

/// Runs a thunk program of gemms and copies on the host; None when it has
/// any other thunk (kernels need the device).
fn run_gemm_program(a: &Artifact, inputs: &[HostArray]) -> Option<Vec<HostArray>> {
    let p = &a.program;
    let mut mem: Vec<Vec<u8>> = p
        .allocations
        .iter()
        .map(|al| match &al.role {
            AllocationRole::Parameter(i) => inputs[*i].bytes.to_vec(),
            AllocationRole::Constant(b) => b.clone(),
            _ => vec![0u8; al.size as usize],
        })
        .collect();
    let read =
        |mem: &Vec<Vec<u8>>, s: &floors::runtime::BufferSlice| mem[s.allocation][s.offset as usize..(s.offset + s.size) as usize].to_vec();
    for t in &p.body {
        match t {
            ThunkSpec::Gemm(g) => {
                let (lhs, rhs) = (read(&mem, &g.lhs), read(&mem, &g.rhs));
                let out = &mut mem[g.out.allocation][g.out.offset as usize..(g.out.offset + g.out.size) as usize];
                host_gemm(g, &lhs, &rhs, out).unwrap();
            }
            ThunkSpec::Copy { from, to } => {
                let b = read(&mem, from);
                mem[to.allocation][to.offset as usize..(to.offset + to.size) as usize].copy_from_slice(&b);
            }
            _ => return None,
        }
    }
    Some(
        p.results
            .iter()
            .map(|(spec, s)| HostArray { element_type: spec.element_type, shape: spec.shape.clone(), bytes: read(&mem, s).into() })
            .collect(),
    )
}

/// The CPU floor's outputs for `text` on `inputs`.
fn cpu_outputs(name: &str, text: &str, inputs: &[HostArray]) -> Vec<HostArray> {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let program = Program::compile(&compiler, name, text).unwrap_or_else(|e| panic!("{name} on the CPU floor: {e}"));
    let named: Vec<(std::path::PathBuf, HostArray)> =
        inputs.iter().enumerate().map(|(i, a)| (format!("in{i}").into(), a.clone())).collect();
    program.executable().execute(&named, None).unwrap()
}

fn param_inputs(a: &Artifact, seed: u64) -> Vec<HostArray> {
    a.program.params.iter().enumerate().map(|(i, (spec, _))| random_f32(&spec.shape, seed + i as u64)).collect()
}

/// The library fusions of the GPU-lowered module as stand-alone StableHLO
/// programs (`func.func public @main(block arguments) { body; return }`),
/// in walk order (the order of the gemm thunks).
fn library_fusion_programs(compiler: &Compiler, name: &str, text: &str) -> Vec<String> {
    let module = compiler.compile_module(name, text, Stage::Gpu).unwrap();
    let printed = floors::ir::print_op(&module.as_operation());
    let lines: Vec<&str> = printed.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if !(l.contains("floors.fusion") && l.contains("floors.library_call")) {
            i += 1;
            continue;
        }
        let indent = l.len() - l.trim_start().len();
        // `(%arg5 = %x : T, %arg6 = %y : U) -> R attributes {...} {`
        let args_text = l.split(" (").nth(1).unwrap().split(") -> ").next().unwrap();
        let args: Vec<String> = args_text
            .split(", %")
            .map(|a| {
                let a = a.trim_start_matches('%');
                let (arg, rest) = a.split_once(" = ").unwrap();
                format!("%{arg}: {}", rest.split_once(" : ").unwrap().1)
            })
            .collect();
        let result = l.split(") -> ").nth(1).unwrap().split(" attributes").next().unwrap();
        let mut body = Vec::new();
        i += 1;
        while !(lines[i].trim() == "}" && lines[i].len() - lines[i].trim_start().len() == indent) {
            body.push(lines[i].replace("floors.yield", "return"));
            i += 1;
        }
        out.push(format!("func.func public @main({}) -> {result} {{\n{}\n}}\n", args.join(", "), body.join("\n")));
    }
    out
}

/// Every gemm thunk of `text` against its library fusion on the CPU floor.
fn check_each_gemm(name: &str, text: &str, expected_gemms: usize) -> Artifact {
    let compiler = gpu_compiler(GemmMode::Library);
    let artifact = compile_artifact(&compiler, name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let specs = gemms_of(&artifact);
    assert_eq!(specs.len(), expected_gemms, "{name}: gemm thunks {specs:?}");
    let programs = library_fusion_programs(&compiler, name, text);
    assert_eq!(programs.len(), specs.len(), "{name}: one library fusion per gemm thunk");
    for (j, (spec, program)) in specs.iter().zip(&programs).enumerate() {
        let cpu = Compiler::new(CompileOptions::default()).unwrap();
        let p = Program::compile(&cpu, &format!("{name}-gemm{j}"), program).unwrap_or_else(|e| panic!("{name} gemm {j}:\n{program}\n{e}"));
        let inputs: Vec<HostArray> =
            p.artifact().program.params.iter().enumerate().map(|(i, (s, _))| random_f32(&s.shape, 17 * j as u64 + i as u64)).collect();
        let named: Vec<(std::path::PathBuf, HostArray)> =
            inputs.iter().enumerate().map(|(i, a)| (format!("in{i}").into(), a.clone())).collect();
        let want = p.executable().execute(&named, None).unwrap();
        assert!(inputs[0].bytes.len() as u64 <= spec.lhs.size, "{name} gemm {j}: the lhs slice holds the operand");
        let mut out = vec![0u8; spec.out.size as usize];
        let rhs = if inputs.len() > 1 { &inputs[1].bytes } else { &inputs[0].bytes };
        host_gemm(spec, &inputs[0].bytes, rhs, &mut out).unwrap();
        let got = HostArray { element_type: spec.element_type, shape: want[0].shape.clone(), bytes: out.into() };
        assert_close(&format!("{name} gemm {j} ({})", spec.describe()), &f32s(&got), &f32s(&want[0]));
    }
    artifact
}

fn corpus(path: &str) -> String {
    std::fs::read_to_string(common::corpus_dir().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// public/matmul runs whole on the host through its gemm thunk and gives
/// the corpus' expected output for the corpus' inputs.
#[test]
fn public_matmul_matches_its_expected_output() {
    let dir = common::corpus_dir().join("public");
    let text = corpus("public/matmul.stablehlo.mlir");
    let artifact = compile_artifact(&gpu_compiler(GemmMode::Library), "matmul", &text).unwrap();
    assert!(artifact.kernels.is_empty(), "every fusion is a library call: {:?}", artifact.kernels);
    assert_eq!(gemms_of(&artifact).len(), 1);
    let inputs: Vec<HostArray> = ["matmul.in0.npy", "matmul.in1.npy"].iter().map(|f| floors::npy::read(&dir.join(f)).unwrap()).collect();
    let want = floors::npy::read(&dir.join("matmul.out0.npy")).unwrap();
    let got = run_gemm_program(&artifact, &inputs).expect("gemms and copies only");
    assert_close("public/matmul", &f32s(&got[0]), &f32s(&want));
}

/// Gemm-only programs (the bench matmul; batched, transposed, broadcast and
/// multi-dimensional dots) run whole on the host and match the CPU floor.
#[test]
fn gemm_only_programs_match_the_cpu_floor() {
    let programs: Vec<(&str, String, &str)> = vec![
        ("bench/matmul", corpus("bench/matmul.stablehlo.mlir"), "F32 TF32 1x1024x1024x1024"),
        (
            "batched",
            "func.func public @main(%a: tensor<3x8x32xf32>, %b: tensor<3x32x16xf32>) -> tensor<3x8x16xf32> {
               %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x8x32xf32>, tensor<3x32x16xf32>) -> tensor<3x8x16xf32>
               return %0 : tensor<3x8x16xf32>
             }"
            .into(),
            "F32 TF32 3x8x16x32",
        ),
        (
            "transposed",
            "func.func public @main(%a: tensor<2x32x8xf32>, %b: tensor<2x16x32xf32>) -> tensor<2x8x16xf32> {
               %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<2x32x8xf32>, tensor<2x16x32xf32>) -> tensor<2x8x16xf32>
               return %0 : tensor<2x8x16xf32>
             }"
            .into(),
            "F32 TF32 2x8x16x32 lhsT rhsT",
        ),
        (
            "broadcast weight",
            "func.func public @main(%a: tensor<4x8x32xf32>, %w: tensor<32x16xf32>) -> tensor<4x8x16xf32> {
               %b = stablehlo.broadcast_in_dim %w, dims = [1, 2] : (tensor<32x16xf32>) -> tensor<4x32x16xf32>
               %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>
               return %0 : tensor<4x8x16xf32>
             }"
            .into(),
            "F32 TF32 4x8x16x32",
        ),
        (
            "two free and two contracting dims",
            "func.func public @main(%a: tensor<4x3x5x6xf32>, %b: tensor<5x6x7xf32>) -> tensor<4x3x7xf32> {
               %0 = stablehlo.dot_general %a, %b, contracting_dims = [2, 3] x [0, 1] : (tensor<4x3x5x6xf32>, tensor<5x6x7xf32>) -> tensor<4x3x7xf32>
               return %0 : tensor<4x3x7xf32>
             }"
            .into(),
            "F32 TF32 1x12x7x30",
        ),
    ];
    for (name, text, describe) in programs {
        let artifact = compile_artifact(&gpu_compiler(GemmMode::Library), name, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let specs = gemms_of(&artifact);
        assert_eq!(specs.iter().map(GemmSpec::describe).collect::<Vec<_>>(), vec![describe.to_string()], "{name}");
        if name == "broadcast weight" {
            assert_eq!((specs[0].shape.lhs_batch_stride, specs[0].shape.rhs_batch_stride), (256, 0), "one weight matrix for every batch");
        }
        let inputs = param_inputs(&artifact, 7);
        let got = run_gemm_program(&artifact, &inputs).unwrap_or_else(|| panic!("{name}: not gemms and copies only"));
        let want = cpu_outputs(name, &text, &inputs);
        assert_close(name, &f32s(&got[0]), &f32s(&want[0]));
    }
}

/// Every gemm of the corpus programs with dots, checked alone against the
/// CPU floor (the epilogues run in PTX kernels, which need a device).
#[test]
fn each_corpus_gemm_matches_the_cpu_floor() {
    for (path, n) in [
        ("public/matmul.stablehlo.mlir", 1),
        ("public/mlp.stablehlo.mlir", 2),
        ("bench/matmul.stablehlo.mlir", 1),
        ("bench/mlp.stablehlo.mlir", 2),
        ("bench/attention.stablehlo.mlir", 2),
    ] {
        let artifact = check_each_gemm(path, &corpus(path), n);
        // The artifact round trip keeps the gemm thunks.
        let back = Artifact::from_bytes(&artifact.to_bytes().unwrap(), path).unwrap();
        assert_eq!(back.program, artifact.program, "{path}");
        assert_eq!(gemms_of(&back).len(), n, "{path}");
    }
}

/// An epilogue is split off: the bias add and relu of the MLP's first layer
/// are a loop kernel reading the gemm's output slice.
#[test]
fn epilogue_reads_the_gemm_output() {
    let artifact = compile_artifact(&gpu_compiler(GemmMode::Library), "mlp", &corpus("public/mlp.stablehlo.mlir")).unwrap();
    let body = &artifact.program.body;
    let ThunkSpec::Gemm(g) = &body[0] else { panic!("first thunk: {:?}", body[0]) };
    let ThunkSpec::Kernel { inputs, .. } = &body[1] else { panic!("second thunk: {:?}", body[1]) };
    assert!(inputs.contains(&g.out), "the epilogue kernel reads the product: {inputs:?} vs {:?}", g.out);
}

/// `auto` takes the corpus' dots (all above XLA's threshold) and leaves a
/// tiny one to the emitter; `emitter` takes none; reasons are recorded.
#[test]
fn modes_choose_as_documented() {
    let text = corpus("public/mlp.stablehlo.mlir");
    let auto = compile_artifact(&gpu_compiler(GemmMode::Auto), "mlp", &text).unwrap();
    assert_eq!(gemms_of(&auto).len(), 2);
    let emitter = compile_artifact(&gpu_compiler(GemmMode::Emitter), "mlp", &text).unwrap();
    assert_eq!(gemms_of(&emitter).len(), 0);
    let tiny = "func.func public @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
                  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
                  return %0 : tensor<2x4xf32>
                }";
    let compiler = gpu_compiler(GemmMode::Auto);
    assert_eq!(gemms_of(&compile_artifact(&compiler, "tiny", tiny).unwrap()).len(), 0);
    let module = compiler.compile_module("tiny", tiny, Stage::Gpu).unwrap();
    let printed = floors::ir::print_op(&module.as_operation());
    assert!(printed.contains("kind = \"gemm\"") && printed.contains("(m+n)*k = 18 < 100"), "{printed}");
    assert_eq!(gemms_of(&compile_artifact(&gpu_compiler(GemmMode::Library), "tiny", tiny).unwrap()).len(), 1);
}

/// `--emit thunks` on the GPU floor lists the gemm thunks.
#[test]
fn emit_thunks_shows_the_gemms() {
    let compiler = gpu_compiler(GemmMode::Library);
    let out = compiler.compile_source("attention", &corpus("bench/attention.stablehlo.mlir"), Stage::Thunks).unwrap();
    assert_eq!(out.lines().filter(|l| l.starts_with("gemm F32 TF32 1x512x")).count(), 2, "{out}");
    // transpose(K) folds into the first call (rhsT): the softmax is the one kernel.
    assert!(out.contains("gemm F32 TF32 1x512x512x64 rhsT"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("kernel fusion_")).count(), 1, "{out}");
}
