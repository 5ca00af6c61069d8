//! Shared test helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use floors::{CompileOptions, Compiler, target::CpuTarget};

/// `../shared/corpus` next to the repository (where CI puts it).
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// Compile options for tests whose IR is compared with snapshots: the CPU
/// target pinned to x86-64-v3 (AVX2, 8 f32 lanes), so neither the schedules
/// nor the module's `floors.target` depend on the machine.
pub fn pinned_options() -> CompileOptions {
    CompileOptions { target: Some(x86_64_v3()), ..CompileOptions::default() }
}

pub fn x86_64_v3() -> CpuTarget {
    CpuTarget::resolve("x86-64-v3").expect("x86-64-v3")
}

/// Runs `pipeline` on `text` and takes one insta snapshot of the IR after
/// every floors pass (`floors-*`; upstream passes inside a pipeline and pass
/// adaptors are not snapshotted) and of the final IR:
/// `<input>__<NN>_<pass>` with NN counting the snapshots, then
/// `<input>__<NN>_final`, so a change in any floors pass shows up as a diff
/// of exactly that pass's snapshot.
pub fn snapshot_pipeline(input_name: &str, text: &str, pipeline: &str) {
    snapshot_pipeline_with(pinned_options(), input_name, text, pipeline)
}

/// [`snapshot_pipeline`] with compile options (e.g. workgroups).
pub fn snapshot_pipeline_with(mut options: CompileOptions, input_name: &str, text: &str, pipeline: &str) {
    // CPU schedules follow the target's vector width: pin x86-64-v3 unless
    // the caller chose a target, so the snapshots do not depend on the machine.
    if options.target.is_none() {
        options.target = Some(x86_64_v3());
    }
    let compiler = Compiler::new(options).expect("compiler");
    let mut module = compiler.parse(input_name, text).unwrap_or_else(|e| panic!("{input_name} does not parse:\n{e}"));
    let steps = compiler.run_traced(&mut module, pipeline).unwrap_or_else(|e| panic!("{pipeline} failed on {input_name}:\n{e}"));
    assert!(!steps.is_empty(), "{pipeline} ran no pass");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_input_file(input_name);
    // A pass anchored on functions runs once per function: keep the IR after
    // its last run in a row (the module once every function went through it).
    let mut kept: Vec<(String, &str)> = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        let next_same = steps.get(i + 1).is_some_and(|n| n.pass == s.pass);
        if s.pass.starts_with("floors-") && !next_same {
            kept.push((s.pass.clone(), s.ir.as_str()));
        }
    }
    let last = steps.last().expect("checked above");
    if !last.pass.starts_with("floors-") {
        kept.push(("final".into(), &last.ir));
    }
    settings.bind(|| {
        for (i, (pass, ir)) in kept.iter().enumerate() {
            let name = format!("{}__{:02}_{}", sanitize(input_name), i + 1, pass);
            insta::assert_snapshot!(name, ir);
        }
    });
}

fn sanitize(s: &str) -> String {
    let stem = Path::new(s).file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default();
    stem.trim_end_matches(".mlir").replace(['.', '/'], "_")
}
