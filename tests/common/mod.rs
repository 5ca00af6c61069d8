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
    CompileOptions { target: floors::floor::Target::Cpu(Some(x86_64_v3())), ..CompileOptions::default() }
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
    if let floors::floor::Target::Cpu(None) = options.target {
        options.target = floors::floor::Target::Cpu(Some(x86_64_v3()));
    }
    let compiler = Compiler::new(options).expect("compiler");
    let mut module = compiler.parse(input_name, text).unwrap_or_else(|e| panic!("{input_name} does not parse:\n{e}"));
    let input = floors::ir::print_op(&module.as_operation());
    let steps = compiler.run_traced(&mut module, pipeline).unwrap_or_else(|e| panic!("{pipeline} failed on {input_name}:\n{e}"));
    assert!(!steps.is_empty(), "{pipeline} ran no pass");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_input_file(input_name);
    let kept = changing_steps(&input, &steps);
    settings.bind(|| {
        for (i, (pass, ir)) in kept.iter().enumerate() {
            let name = format!("{}__{:02}_{}", sanitize(input_name), i + 1, pass);
            insta::assert_snapshot!(name, ir);
        }
    });
}

/// The floors passes that changed the IR, each with the IR after it (a pass
/// anchored on functions runs once per function: the IR after its last run
/// in a row, compared with the IR before its first). A pass that changed
/// nothing has no snapshot (its lit test says what it leaves alone), nor do
/// upstream passes (their output is checked by lit and by running it).
fn changing_steps<'s>(input: &'s str, steps: &'s [floors::dump::Step]) -> Vec<(String, &'s str)> {
    // (pass, IR after, changed) per run of one pass in a row.
    let mut groups: Vec<(&str, &str, bool)> = Vec::new();
    let mut before = input;
    for (i, s) in steps.iter().enumerate() {
        if steps.get(i + 1).is_some_and(|n| n.pass == s.pass) {
            continue;
        }
        groups.push((&s.pass, &s.ir, s.ir != before));
        before = &s.ir;
    }
    // A pass nested under `func.func` beside others runs once per function
    // with the others in between: its last run (every function done) stands
    // for it, when any of its runs changed the IR.
    let mut kept: Vec<(String, &str)> = Vec::new();
    for (k, &(pass, ir, _)) in groups.iter().enumerate() {
        let later = groups[k + 1..].iter().any(|g| g.0 == pass);
        let changed = groups.iter().any(|g| g.0 == pass && g.2);
        if pass.starts_with("floors-") && !later && changed {
            kept.push((pass.to_string(), ir));
        }
    }
    kept
}

fn sanitize(s: &str) -> String {
    let stem = Path::new(s).file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default();
    stem.trim_end_matches(".mlir").replace(['.', '/'], "_")
}
