//! Fusion on the corpus: a snapshot of the fused IR of every public program
//! (the test walks the folder, so a new program is covered automatically),
//! per-pass snapshots of the floors-fuse pipeline on two programs, and the
//! kernel counts on the bench programs against what XLA:CPU forms.

mod common;

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
            let problems = floors::lowering::hlo::fusion_analysis::check_kinds(module.as_operation().to_raw());
            assert!(problems.is_empty(), "{name}: {problems:#?}");
        }
    });
}

/// Snapshots after every pass of the CPU pipeline as far as it exists.
#[test]
fn cpu_pipeline_per_pass_snapshots() {
    for name in ["matmul", "softmax", "mlp", "fori_loop"] {
        let path = common::corpus_dir().join(format!("public/{name}.stablehlo.mlir"));
        let text = std::fs::read_to_string(&path).unwrap();
        common::snapshot_pipeline(&format!("cpu_{name}.mlir"), &text, &Stage::Llvm.pipeline());
    }
}

/// The same up to the schedule, with kernels split into 2 workgroups (no
/// size threshold): the distribution, packing and row fusion on split kernels.
#[test]
fn cpu_split_kernels_per_pass_snapshots() {
    let pipeline = "builtin.module(floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,\
                    builtin.module(func.func(linalg-fuse-elementwise-ops),floors-linalg-distribute-workgroups,\
                    floors-cpu-pack-matmul,func.func(floors-cpu-tile-and-vectorize)))";
    for name in ["matmul", "softmax"] {
        let path = common::corpus_dir().join(format!("public/{name}.stablehlo.mlir"));
        let text = std::fs::read_to_string(&path).unwrap();
        let options = CompileOptions { workgroups: 2, workgroup_min_iterations: Some(1), ..CompileOptions::default() };
        common::snapshot_pipeline_with(options, &format!("cpu_split_{name}.mlir"), &text, pipeline);
    }
}

#[test]
fn floors_fuse_per_pass_snapshots() {
    for name in ["softmax", "argmax"] {
        let path = common::corpus_dir().join(format!("public/{name}.stablehlo.mlir"));
        let text = std::fs::read_to_string(&path).unwrap();
        common::snapshot_pipeline(&format!("{name}.mlir"), &text, "builtin.module(floors-fuse)");
    }
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
