//! Shared test helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use floors::{CompileOptions, Compiler};

/// `../shared/corpus` next to the repository (where CI puts it).
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// Runs `pipeline` on `text` and takes one insta snapshot of the IR after
/// every pass: `<input>__<NN>_<pass>`, so a change in any pass shows up as a
/// diff of exactly that pass's snapshot.
pub fn snapshot_pipeline(input_name: &str, text: &str, pipeline: &str) {
    snapshot_pipeline_with(CompileOptions::default(), input_name, text, pipeline)
}

/// [`snapshot_pipeline`] with compile options (e.g. workgroups).
pub fn snapshot_pipeline_with(options: CompileOptions, input_name: &str, text: &str, pipeline: &str) {
    // CPU schedules follow the vector width: pin AVX2's so the snapshots do
    // not depend on the machine (every test in a binary that snapshots wants this).
    unsafe { std::env::set_var("FLOORS_CPU_LANES", "8") };
    let compiler = Compiler::new(options).expect("compiler");
    let mut module = compiler
        .parse(input_name, text)
        .unwrap_or_else(|e| panic!("{input_name} does not parse:\n{e}"));
    let steps = compiler
        .run_traced(&mut module, pipeline)
        .unwrap_or_else(|e| panic!("{pipeline} failed on {input_name}:\n{e}"));
    assert!(!steps.is_empty(), "{pipeline} ran no pass");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_input_file(input_name);
    settings.bind(|| {
        for step in &steps {
            let name = format!("{}__{:02}_{}", sanitize(input_name), step.ordinal, step.pass);
            insta::assert_snapshot!(name, &step.ir);
        }
    });
}

fn sanitize(s: &str) -> String {
    let stem = Path::new(s).file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default();
    stem.trim_end_matches(".mlir").replace(['.', '/'], "_")
}
