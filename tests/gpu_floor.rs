//! The GPU floor without a GPU: every program of `corpus/public` and
//! `corpus/bench` compiles with `--target gpu --gpu sm_90` to PTX that
//! NVIDIA's `ptxas --gpu-name sm_90 -Werror` assembles without spills, with
//! dots on cuBLAS (`--gpu-gemm library`) and on floors' emitter; the
//! fusion report names an emitter for every fusion; emitter choices per
//! kind; the reduction and transpose programs get their emitters' code, a
//! concatenate and an input-slices fusion theirs (ptxas-clean too);
//! errors for unsupported chips; snapshots after every GPU pass for a
//! loop, a reduction, a matmul, a concatenate and an input-slices program;
//! f16/bf16 dots on the tensor-core GEMM for sm_80, sm_90 (mma.sync) and
//! sm_90a (wgmma); elementwise programs' 16-byte vector loads and stores.
//!
//! ptxas comes from the test venv (`nvidia-cuda-nvcc-cu12==12.9.86`,
//! installed by scripts/pyenv.sh): `FLOORS_PTXAS`, else the venv of
//! `FLOORS_PYTHON`, else `.venv-test`. Missing: the ptxas checks fail under
//! `CI=1` and are skipped otherwise (PTX is still produced and checked for
//! unresolved `__nv_*` externs).

use crate::common;

use std::path::{Path, PathBuf};

use floors::{CompileOptions, Compiler, Stage, target::GpuTarget};
use floors_gpu::GemmMode;

fn gpu_compiler(chip: &str) -> Compiler {
    gpu_compiler_with(chip, GemmMode::Auto)
}

fn gpu_compiler_with(chip: &str, gpu_gemm: GemmMode) -> Compiler {
    Compiler::new(CompileOptions {
        target: floors::floor::Target::Gpu { target: GpuTarget::resolve(chip).unwrap(), gemm: gpu_gemm },
        ..CompileOptions::default()
    })
    .unwrap()
}

/// ptxas from FLOORS_PTXAS or the test venv; None (after the CI check) when missing.
fn ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FLOORS_PTXAS").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let venvs = [
        std::env::var_os("FLOORS_PYTHON").and_then(|p| PathBuf::from(p).parent()?.parent().map(Path::to_path_buf)),
        Some(repo.join(".venv-test")),
    ];
    for venv in venvs.into_iter().flatten() {
        let Ok(libs) = std::fs::read_dir(venv.join("lib")) else { continue };
        for lib in libs.flatten() {
            let p = lib.path().join("site-packages/nvidia/cuda_nvcc/bin/ptxas");
            if p.exists() {
                return Some(p);
            }
        }
    }
    assert!(std::env::var_os("CI").is_none(), "CI: no ptxas (FLOORS_PTXAS or the test venv); run scripts/pyenv.sh");
    eprintln!("skipped ptxas checks: no ptxas (set FLOORS_PTXAS or run scripts/pyenv.sh)");
    None
}

fn programs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for folder in ["public", "bench"] {
        let dir = common::corpus_dir().join(folder);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".stablehlo.mlir"))
            .collect();
        files.sort();
        out.extend(files);
    }
    out
}

/// Every public and bench program reaches PTX for sm_90, with no libdevice
/// extern left, and ptxas assembles every kernel without spills: dots on
/// cuBLAS (`library`: their epilogues are kernels of their own) and on
/// floors' GEMM emitter.
#[test]
fn corpus_compiles_to_ptx_that_ptxas_accepts() {
    let ptxas = ptxas();
    let programs = programs();
    assert!(programs.len() >= 20, "corpus not found: {}", common::corpus_dir().display());
    let mut failures = Vec::new();
    for (mode, p) in [GemmMode::Library, GemmMode::Emitter].into_iter().flat_map(|m| programs.iter().map(move |p| (m, p))) {
        let compiler = gpu_compiler_with("sm_90", mode);
        let text = std::fs::read_to_string(p).unwrap();
        let name = format!("{} ({})", p.display(), mode.name());
        let module = match compiler.compile_module(&name, &text, Stage::Ptx) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let ptx = floors_gpu::artifact::ptx_of_module(&module).unwrap();
        for (kernel, text) in &ptx {
            assert!(text.contains(".target sm_90") && text.contains(".version 8.0"), "{name} {kernel}: not sm_90 PTX 8.0");
            if text.contains("__nv_") {
                failures.push(format!("{name} {kernel}: a libdevice call is left"));
            }
            if let Some(ptxas) = &ptxas {
                match floors_gpu::artifact::run_ptxas(ptxas, text, "sm_90") {
                    Ok(infos) => {
                        for i in infos.iter().filter(|i| i.spill_bytes > 0) {
                            failures.push(format!("{name} {kernel}: {} spills {} bytes", i.entry, i.spill_bytes));
                        }
                    }
                    Err(e) => failures.push(format!("{name} {kernel}: {e}")),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// sm_80 and sm_90a produce PTX for their chip too.
#[test]
fn other_chips_compile() {
    let ptxas = ptxas();
    let text = std::fs::read_to_string(common::corpus_dir().join("public/softmax.stablehlo.mlir")).unwrap();
    for chip in ["sm_80", "sm_90a"] {
        let compiler = gpu_compiler(chip);
        let module = compiler.compile_module("softmax", &text, Stage::Ptx).unwrap();
        for (kernel, ptx) in floors_gpu::artifact::ptx_of_module(&module).unwrap() {
            assert!(ptx.contains(&format!(".target {chip}")), "{chip} {kernel}");
            if let Some(p) = &ptxas {
                floors_gpu::artifact::run_ptxas(p, &ptx, chip).unwrap_or_else(|e| panic!("{chip} {kernel}: {e}"));
            }
        }
    }
}

/// The fusion report names an emitter for every fusion of every program.
#[test]
fn fusion_report_names_an_emitter_for_every_fusion() {
    let compiler = gpu_compiler("sm_90");
    const EMITTERS: &[&str] = &["loop", "reduction", "transpose", "input_slices", "scatter", "concatenate", "gemm", "cublas"];
    for p in programs() {
        let text = std::fs::read_to_string(&p).unwrap();
        let name = p.display().to_string();
        let module = compiler.compile_module(&name, &text, Stage::Ptx).unwrap();
        let fused = compiler.compile_module(&name, &text, Stage::Fused).unwrap();
        let fusions = Compiler::fusion_report(&fused).fusions.len();
        let report = floors_gpu::artifact::fusion_report(&module, "sm_90").unwrap();
        let lines: Vec<&str> = report.lines().filter(|l| l.starts_with("fusion ")).collect();
        // floors-gpu-rewrite-gemm splits a library dot's epilogue into a fusion
        // of its own and folds up to two transpose fusions into each call.
        let library = lines.iter().filter(|l| l.contains("emitter cublas")).count();
        assert!(lines.len() + 2 * library >= fusions && lines.len() <= fusions + library, "{name}:\n{report}");
        assert_eq!(library, report.matches("  library call gemm: ").count(), "{name}:\n{report}");
        for l in lines {
            let emitter = l.split("emitter ").nth(1).and_then(|r| r.split_whitespace().next()).unwrap_or("");
            assert!(EMITTERS.contains(&emitter), "{name}: {l}");
        }
        assert!(report.contains("  launch ") || report.contains("  library call gemm: "), "{name}:\n{report}");
    }
}

fn emitter_of(program: &str) -> String {
    let text = std::fs::read_to_string(common::corpus_dir().join(format!("public/{program}.stablehlo.mlir"))).unwrap();
    let compiler = gpu_compiler("sm_90");
    let module = compiler.compile_module(program, &text, Stage::Gpu).unwrap();
    floors::ir::print_op(&module.as_operation())
        .lines()
        .filter(|l| l.contains("floors.gpu_emitter"))
        .map(|l| l.split("floors.gpu_emitter = ").nth(1).unwrap_or("").to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Emitter choices on corpus programs: a transpose, a row and a column reduction, a loop, a GEMM.
#[test]
fn emitters_follow_xla_order() {
    assert!(emitter_of("transpose2d").contains("kind = \"transpose\""));
    let row = emitter_of("row_sum");
    assert!(row.contains("kind = \"reduction\"") && row.contains("row reduction"), "{row}");
    let col = emitter_of("col_max");
    assert!(col.contains("kind = \"reduction\"") && col.contains("column reduction"), "{col}");
    assert!(emitter_of("relu").contains("kind = \"loop\""));
    // XLA's GemmRewriter: the 64x64x64 product goes to cuBLAS by default.
    assert!(emitter_of("matmul").contains("kind = \"cublas\""));
    let text = std::fs::read_to_string(common::corpus_dir().join("public/matmul.stablehlo.mlir")).unwrap();
    let compiler = gpu_compiler_with("sm_90", GemmMode::Emitter);
    let module = compiler.compile_module("matmul", &text, Stage::Gpu).unwrap();
    let printed = floors::ir::print_op(&module.as_operation());
    assert!(
        printed.contains("kind = \"gemm\", reason = \"dot hero (stablehlo.dot_general): floors' GEMM emitter (--gpu-gemm emitter"),
        "{printed}"
    );
}

/// The corpus' reductions and transposes are generated by their emitters
/// (the fusion report's per-launch codegen), not by the generic loops.
#[test]
fn reductions_and_transposes_get_their_emitters() {
    let compiler = gpu_compiler("sm_90");
    let cases = [
        ("public/row_sum", &["row-reduction(warp)"][..]),
        ("public/argmax", &["row-reduction(warp)"]),
        ("public/softmax", &["row-reduction(warp)"]),
        ("public/col_max", &["column-reduction(shared)"]),
        ("public/transpose2d", &["transpose(shared 32x33)"]),
        ("bench/row_sum", &["row-reduction(block)"]),
        ("bench/softmax", &["row-reduction(block)"]),
        ("bench/layernorm", &["row-reduction(warp)"]),
        // transpose(K) is folded into the first gemm call (rhsT).
        ("bench/attention", &["row-reduction(warp)"]),
    ];
    for (program, expected) in cases {
        let text = std::fs::read_to_string(common::corpus_dir().join(format!("{program}.stablehlo.mlir"))).unwrap();
        let module = compiler.compile_module(program, &text, Stage::Ptx).unwrap();
        let report = floors_gpu::artifact::fusion_report(&module, "sm_90").unwrap();
        for e in expected {
            assert!(
                report.lines().any(|l| l.starts_with("  launch ") && l.contains(&format!(": {e}; "))),
                "{program}: no {e} launch\n{report}"
            );
        }
        let ptx: String = floors_gpu::artifact::ptx_of_module(&module).unwrap().into_iter().map(|(_, t)| t).collect();
        if expected.iter().any(|e| e.starts_with("row-reduction")) {
            assert!(ptx.contains("shfl.sync.bfly"), "{program}: no warp shuffle in the PTX");
        }
        if expected.iter().any(|e| e.contains("shared")) {
            assert!(ptx.contains("bar.sync") && ptx.contains(".shared"), "{program}: no shared memory or barrier in the PTX");
        }
    }
}

/// The loop emitter moves 16 bytes per access where the nest allows
/// (contiguous innermost accesses, extent a multiple of 4, aligned
/// buffers): 4 f32 points per thread, `ld.global.v4` / `st.global.v4` in
/// the PTX (XLA:GPU's unrolled loop emitter).
#[test]
fn elementwise_programs_get_vector_loads_and_stores() {
    let compiler = gpu_compiler("sm_90");
    for program in ["bench/elementwise_chain", "public/elementwise_chain", "public/bias_add"] {
        let text = std::fs::read_to_string(common::corpus_dir().join(format!("{program}.stablehlo.mlir"))).unwrap();
        let module = compiler.compile_module(program, &text, Stage::Ptx).unwrap();
        let report = floors_gpu::artifact::fusion_report(&module, "sm_90").unwrap();
        assert!(report.contains(": loop(grid-stride, 4 per thread, v4); "), "{program}: no vectorized loop launch\n{report}");
        let ptx: String = floors_gpu::artifact::ptx_of_module(&module).unwrap().into_iter().map(|(_, t)| t).collect();
        let vector_load = ptx.contains("ld.global.v4.") || ptx.contains("ld.global.nc.v4.");
        assert!(vector_load && ptx.contains("st.global.v4."), "{program}: no 16-byte vector load and store in the PTX");
    }
}

fn test_input(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs").join(name)).unwrap()
}

/// A concatenate and an input-slices fusion get their emitters (one
/// launch each, recorded in the fusion report), and ptxas assembles the
/// PTX without spills.
#[test]
fn concatenate_and_input_slices_get_their_emitters() {
    let ptxas = ptxas();
    let compiler = gpu_compiler("sm_90");
    let cases = [
        ("gpu_concatenate.mlir", "concatenate(largest operand 4x8, 4 operands); grid [1, 1, 1] block [32, 1, 1]"),
        ("gpu_input_slices.mlir", "input-slices(2 slices of 8x16); grid [1, 1, 1] block [128, 1, 1]"),
    ];
    for (input, launch) in cases {
        let module = compiler.compile_module(input, &test_input(input), Stage::Ptx).unwrap();
        let report = floors_gpu::artifact::fusion_report(&module, "sm_90").unwrap();
        let launches: Vec<&str> = report.lines().filter(|l| l.starts_with("  launch ")).collect();
        assert!(launches.len() == 1 && launches[0].contains(&format!(": {launch};")), "{input}:\n{report}");
        for (kernel, ptx) in floors_gpu::artifact::ptx_of_module(&module).unwrap() {
            if let Some(p) = &ptxas {
                let infos = floors_gpu::artifact::run_ptxas(p, &ptx, "sm_90").unwrap_or_else(|e| panic!("{input} {kernel}: {e}"));
                assert!(infos.iter().all(|i| i.spill_bytes == 0), "{input} {kernel} spills");
            }
        }
    }
}

/// `floors-lower-gpu` up to NVVM for sm_90: the PTX object records its
/// compile time, so `gpu-module-to-binary` is left out of snapshots.
fn snapshot_pipeline_up_to_nvvm() -> String {
    let body = floors::pipelines::FLOORS_GPU_KERNELS_TO_PTX.body;
    let nvvm = body.split(",gpu-module-to-binary").next().unwrap().split_whitespace().collect::<String>();
    format!(
        "builtin.module(floors-gpu-attach-target{{gpu=sm_90}},floors-fuse,floors-gpu-rewrite-gemm,floors-gpu-select-emitter,floors-linalg-lower-stablehlo,\
         floors-linalg-outline-kernels,builtin.module(floors-gpu-kernels-to-gpu),builtin.module({nvvm}))"
    )
}

/// Snapshots after every GPU pass of the concatenate and input-slices
/// programs (tests/inputs), like [`snapshots_after_every_gpu_pass`].
#[test]
fn snapshots_of_the_concatenate_and_input_slices_emitters() {
    let pipeline = snapshot_pipeline_up_to_nvvm();
    for input in ["gpu_concatenate.mlir", "gpu_input_slices.mlir"] {
        common::snapshot_pipeline(input, &test_input(input), &pipeline);
    }
}

#[test]
fn unsupported_chip_is_an_error_before_mlir() {
    let e = GpuTarget::resolve("sm_75").unwrap_err().to_string();
    assert!(e.contains("unsupported GPU 'sm_75'") && e.contains("sm_80, sm_90, sm_90a"), "{e}");
}

/// Snapshots after every GPU pass: a loop, a reduction, a matmul and an MLP
/// program (`floors-gpu-rewrite-gemm` sends both dots of the MLP to cuBLAS
/// and splits off the bias-add epilogue)
/// (`floors-lower-gpu` up to NVVM: the PTX object records its compile time,
/// so `gpu-module-to-binary` is left to the other tests).
#[test]
fn snapshots_after_every_gpu_pass() {
    let pipeline = snapshot_pipeline_up_to_nvvm();
    for program in ["relu", "row_sum", "matmul", "mlp"] {
        let text = std::fs::read_to_string(common::corpus_dir().join(format!("public/{program}.stablehlo.mlir"))).unwrap();
        common::snapshot_pipeline(&format!("gpu_{program}.mlir"), &text, &pipeline);
    }
    // The tensor-core GEMM (floors' emitter: `mode=emitter`), its fused
    // epilogue, and the nvgpu ops lowered to NVVM.
    let pipeline = pipeline.replace("floors-gpu-rewrite-gemm,", "floors-gpu-rewrite-gemm{mode=emitter},");
    for program in ["matmul_f16", "matmul_bf16_bias_relu"] {
        let text = std::fs::read_to_string(tensorcore_dir().join(format!("{program}.stablehlo.mlir"))).unwrap();
        common::snapshot_pipeline(&format!("gpu_tc_{program}.mlir"), &text, &pipeline);
    }
}

fn tensorcore_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/tensorcore")
}

/// f16/bf16 dots (tests/inputs/tensorcore, as JAX prints them: the f16 dot
/// accumulates in f32, so the shared lowering gives a contraction generic)
/// get the tensor-core GEMM on every chip (mma.sync on sm_80/sm_90, wgmma
/// on sm_90a), with the fill and the elementwise epilogue (truncation,
/// bias + relu) in the same launch, and ptxas assembles the kernels
/// without spills for sm_80, sm_90 and sm_90a.
#[test]
fn tensor_core_gemms_assemble_for_every_chip() {
    let ptxas = ptxas();
    let mut dir: Vec<PathBuf> = std::fs::read_dir(tensorcore_dir()).unwrap().flatten().map(|e| e.path()).collect();
    dir.sort();
    assert!(dir.len() >= 3, "{dir:?}");
    for chip in ["sm_80", "sm_90", "sm_90a"] {
        let compiler = gpu_compiler_with(chip, GemmMode::Emitter);
        for p in &dir {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(p).unwrap();
            let module = compiler.compile_module(&name, &text, Stage::Ptx).unwrap_or_else(|e| panic!("{name} {chip}: {e}"));
            let report = floors_gpu::artifact::fusion_report(&module, chip).unwrap();
            let elem = if name.contains("bf16") { "bf16" } else { "f16" };
            let wgmma = chip == "sm_90a";
            let plan = if wgmma {
                format!("gemm(wgmma m64n64k16 {elem}, 64x64x32, 1 warpgroup, fused epilogue)")
            } else {
                format!("gemm(mma.sync m16n8k16 {elem}, 64x64x32, 4 warps, fused epilogue)")
            };
            assert!(report.contains(&format!("codegen {plan}")), "{name} {chip}: {report}");
            let launches = report.lines().filter(|l| l.starts_with("  launch ")).count();
            assert_eq!(launches, 1, "{name} {chip}: fill and epilogue belong to the GEMM's launch\n{report}");
            for (kernel, ptx) in floors_gpu::artifact::ptx_of_module(&module).unwrap() {
                assert!(ptx.contains(&format!(".target {chip}")), "{name} {chip} {kernel}");
                if wgmma {
                    assert!(
                        ptx.contains(&format!("wgmma.mma_async.sync.aligned.m64n64k16.f32.{elem}.{elem}")),
                        "{name} {chip} {kernel}: no wgmma"
                    );
                    assert!(ptx.contains("fence.proxy.async.shared::cta") && ptx.contains(".shared .align 128"), "{name} {chip} {kernel}");
                } else {
                    assert!(
                        ptx.contains(&format!("mma.sync.aligned.m16n8k16.row.col.f32.{elem}.{elem}.f32")),
                        "{name} {chip} {kernel}: no mma.sync"
                    );
                    assert!(
                        ptx.contains("ldmatrix.sync.aligned.m8n8.x4.shared.b16") && ptx.contains(".shared .align 16"),
                        "{name} {chip} {kernel}"
                    );
                }
                if let Some(ptxas) = &ptxas {
                    let infos =
                        floors_gpu::artifact::run_ptxas(ptxas, &ptx, chip).unwrap_or_else(|e| panic!("{name} {chip} {kernel}: {e}"));
                    for i in infos {
                        assert_eq!(i.spill_bytes, 0, "{name} {chip} {}: spills", i.entry);
                        eprintln!("{name} {chip} {}: {} registers, {} bytes shared", i.entry, i.registers, i.shared_bytes);
                    }
                }
            }
        }
    }
}

/// bench/matmul (1024³) gets floors' tiled GEMM: one launch of the
/// 64×64-tile kernel (the fill folded into its accumulators) (a 16×16 grid, 256
/// threads, A and B slices in workgroup memory), recorded in
/// `floors.gpu_codegen` and the fusion report.
#[test]
fn bench_matmul_gets_the_tiled_gemm() {
    let text = std::fs::read_to_string(common::corpus_dir().join("bench/matmul.stablehlo.mlir")).unwrap();
    // `auto` sends this dot to cuBLAS; the emitter mode keeps it on floors' kernel.
    let compiler = gpu_compiler_with("sm_90", GemmMode::Emitter);
    let module = compiler.compile_module("matmul", &text, Stage::Gpu).unwrap();
    let printed = floors::ir::print_op(&module.as_operation());
    assert!(printed.contains("floors.gpu_codegen = \"gemm(simt 64x64x16, 4x4 per thread)\""), "{printed}");
    assert!(printed.contains("entry = \"fusion_0_gemm0\", grid = [16, 16, 1]"), "{printed}");
    assert!(printed.contains("workgroup(") && printed.contains("memref<16x66xf32, #gpu.address_space<workgroup>>"), "{printed}");
    assert!(printed.contains("gpu.barrier"), "{printed}");
    let module = compiler.compile_module("matmul", &text, Stage::Ptx).unwrap();
    let report = floors_gpu::artifact::fusion_report(&module, "sm_90").unwrap();
    assert!(
        report.contains("codegen gemm(simt 64x64x16, 4x4 per thread)")
            && report.contains("launch fusion_0_gemm0: gemm(simt 64x64x16, 4x4 per thread); grid [16, 16, 1]"),
        "{report}"
    );
}
