//! Fusion on the corpus: a snapshot of the fused IR of every public program
//! (the test walks the folder, so a new program is covered automatically),
//! per-pass snapshots of the floors-fuse pipeline on two programs, and the
//! kernel counts on the bench programs against what XLA:CPU forms.

use crate::common;

use floors::{CompileOptions, Compiler, Stage};

fn compile(path: &std::path::Path) -> (Compiler, String) {
    let compiler = Compiler::new(common::pinned_options()).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    (compiler, text)
}

#[test]
fn fused_corpus_snapshots() {
    let dir = common::corpus_dir().join("public");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".stablehlo.mlir"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no programs in {}", dir.display());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for path in files {
            let (compiler, text) = compile(&path);
            let name = path.file_name().unwrap().to_string_lossy().trim_end_matches(".stablehlo.mlir").to_string();
            let out = compiler.compile_source(&path.display().to_string(), &text, Stage::Fused).unwrap_or_else(|e| panic!("{name}: {e}"));
            insta::assert_snapshot!(format!("fused__{name}"), out);
            // The kind and hero stored on each fusion are what the analysis recomputes.
            let module = compiler.compile_module(&path.display().to_string(), &text, Stage::Fused).unwrap();
            let problems = floors_hlo::fusion_analysis::check_kinds(module.as_operation().to_raw());
            assert!(problems.is_empty(), "{name}: {problems:#?}");
        }
    });
}

/// Snapshots after every pass of the CPU pipeline as far as it exists; the
/// bench attention program for `q @ k.T` (its transpose folded into the dot,
/// k packed from its own layout).
#[test]
fn cpu_pipeline_per_pass_snapshots() {
    for (dir, name) in [("public", "matmul"), ("public", "softmax"), ("public", "mlp"), ("public", "fori_loop"), ("bench", "attention")] {
        let path = common::corpus_dir().join(format!("{dir}/{name}.stablehlo.mlir"));
        let text = std::fs::read_to_string(&path).unwrap();
        common::snapshot_pipeline(&format!("cpu_{name}.mlir"), &text, &Stage::Llvm.pipeline());
    }
}

/// A bf16 dot and a bf16 select over rows of 25 on a CPU with AVX-512 BF16
/// (znver4): the VNNI packing and `vdpbf16ps` register tile, and the
/// odd-length bf16 vectors carried as i16 in the LLVM dialect.
#[test]
fn cpu_bf16_per_pass_snapshots() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/bf16_dot_select.stablehlo.mlir");
    let text = std::fs::read_to_string(&path).unwrap();
    let target = floors::target::CpuTarget::resolve("znver4").unwrap();
    let options = CompileOptions { target: floors::floor::Target::Cpu(Some(target)), ..CompileOptions::default() };
    common::snapshot_pipeline_with(options, "cpu_bf16_znver4.mlir", &text, &Stage::Llvm.pipeline());
}

/// The same up to the schedule, with kernels split into 2 workgroups (no
/// size threshold): the distribution, packing and row fusion on split kernels.
#[test]
fn cpu_split_kernels_per_pass_snapshots() {
    let pipeline = "builtin.module(floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,\
                    builtin.module(func.func(linalg-fuse-elementwise-ops),floors-linalg-distribute-workgroups,\
                    floors-cpu-pack-matmul,func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize)))";
    for name in ["matmul", "softmax"] {
        let path = common::corpus_dir().join(format!("public/{name}.stablehlo.mlir"));
        let text = std::fs::read_to_string(&path).unwrap();
        let options = CompileOptions { workgroups: 2, workgroup_min_iterations: Some(1), ..CompileOptions::default() };
        common::snapshot_pipeline_with(options, &format!("cpu_split_{name}.mlir"), &text, pipeline);
    }
}

/// `x.at[idx].add(v)` as JAX lowers it (negative indices wrapped by
/// `select(i < 0, i + n, i)`): the wrap fused into the scatter
/// (`floors-fuse`), then computed in the scatter loop where each index is
/// read (`floors-linalg-scalarize-extracts`), no index tensor left.
#[test]
fn cpu_scatter_per_pass_snapshots() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/scatter_add_wrap.stablehlo.mlir");
    let text = std::fs::read_to_string(&path).unwrap();
    let pipeline = "builtin.module(floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,\
                    builtin.module(func.func(linalg-fuse-elementwise-ops,floors-linalg-scalarize-extracts)))";
    common::snapshot_pipeline("cpu_scatter_add_wrap.mlir", &text, pipeline);
}

#[test]
fn floors_fuse_per_pass_snapshots() {
    for name in ["softmax", "argmax"] {
        let path = common::corpus_dir().join(format!("public/{name}.stablehlo.mlir"));
        let text = std::fs::read_to_string(&path).unwrap();
        common::snapshot_pipeline(&format!("{name}.mlir"), &text, "builtin.module(floors-fuse)");
    }
    // Tokens, an FFT and a column-major LAPACK call: the passes at the head
    // of floors-fuse that JAX's CPU rules need.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/jax_cpu_path.stablehlo.mlir");
    let text = std::fs::read_to_string(&path).unwrap();
    common::snapshot_pipeline("jax_cpu_path.mlir", &text, "builtin.module(floors-fuse)");
}

/// Kernels (fusions + unfused compute ops) XLA:CPU forms for the bench
/// programs (issue #4); floors must not form more.
const XLA_CPU_KERNELS: &[(&str, usize)] = &[
    ("matmul", 1),
    ("mlp", 4),
    ("softmax", 1),
    ("layernorm", 1),
    ("attention", 5),
    ("elementwise_chain", 1),
    ("row_sum", 1),
    ("conv2d_nhwc", 1),
];

#[test]
fn bench_kernel_counts_at_most_xla() {
    for &(name, xla) in XLA_CPU_KERNELS {
        let path = common::corpus_dir().join(format!("bench/{name}.stablehlo.mlir"));
        let (compiler, text) = compile(&path);
        let module = compiler.compile_module(&path.display().to_string(), &text, Stage::Fused).unwrap();
        let report = Compiler::fusion_report(&module);
        assert!(report.kernels() <= xla, "{name}: floors forms {} kernels, XLA:CPU {xla}\n{report}", report.kernels());
        assert!(report.unfused_ops.is_empty(), "{name}: unfused ops {:?}", report.unfused_ops);
    }
}

/// A 1,000-op chain whose values are reused up to 5 ops later: fusions stop
/// at the size limit (256 ops) and the next fusion still takes producers
/// whose other users are in a later fusion (writing those values out), so
/// the chain is a handful of kernels rather than one per op — and it still
/// computes the same as the unfused program.
#[test]
fn reused_chain_splits_at_the_size_limit_into_few_fusions() {
    let n = 1000;
    let mut text =
        String::from("func.func public @main(%a: tensor<16xf32>) -> tensor<16xf32> {\n  %v0 = stablehlo.add %a, %a : tensor<16xf32>\n");
    for i in 1..n {
        let j = i - 1 - ((i * 7) % 5).min(i - 1);
        let op = if i % 2 == 1 { "multiply" } else { "add" };
        text.push_str(&format!("  %v{i} = stablehlo.{op} %v{}, %v{j} : tensor<16xf32>\n", i - 1));
    }
    text.push_str(&format!("  return %v{} : tensor<16xf32>\n}}\n", n - 1));
    let compiler = Compiler::new(common::pinned_options()).unwrap();
    let fused = compiler.compile_source("chain.mlir", &text, Stage::Fused).unwrap();
    let fusions = fused.matches("floors.fusion").count();
    assert!((4..=8).contains(&fusions), "{fusions} fusions for {n} ops");
    // Same numbers as with fusion off (every op its own kernel).
    let x = floors::npy::HostArray {
        element_type: floors::npy::ElementType::F32,
        shape: vec![16],
        bytes: (0..16).flat_map(|i| (0.999f32 + i as f32 * 1e-4).to_le_bytes()).collect(),
    };
    let args = vec![("a.npy".into(), x)];
    let fusedp = floors::run::Program::compile(&compiler, "chain.mlir", &text).unwrap();
    let got = fusedp.executable().execute(&args, None).unwrap();
    let unfused = Compiler::new(CompileOptions::default()).unwrap();
    let mut module = unfused.parse("chain.mlir", &text).unwrap();
    unfused.attach_target(&module).unwrap();
    unfused.run_pipeline(&mut module, "builtin.module(floors-hlo-cleanup,floors-hlo-fuse-singletons,floors-lower-cpu)", "chain").unwrap();
    let reference = floors::run::artifact_of_module(&unfused, &module, "chain.mlir").unwrap();
    let reference =
        floors::run::Program::from_artifact(reference, "chain", std::sync::Arc::new(floors::runtime::CustomCallRegistry::with_builtins()))
            .unwrap();
    assert_eq!(got, reference.executable().execute(&args, None).unwrap());
}
