//! Seeing what floors did:
//! - the fusion graph (`--emit dot|svg`): Graphviz parses the graph of every
//!   public corpus program, snapshots of two graphs, a clear error without `dot`;
//! - the timeline (`--trace`): valid Chrome trace-event JSON from `floors run`,
//!   `floors-run` and the Rust API, slices on one thread never overlap (control
//!   flow and the whole execution enclose theirs), the compile phases on their
//!   own track, and the attention bench program's kernels on both threads of a
//!   two-thread pool;
//! - the browsable dump (`--dump-html`): an index that links every dumped pass,
//!   every link resolves, every page is well-formed, unchanged passes marked.

use crate::common;

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    process::Command,
    sync::Arc,
};

use floors::{
    CompileOptions, Compiler, Stage,
    npy::{self, ElementType, HostArray, TensorSpec},
    run::Program,
    runtime::{CustomCallRegistry, Trace},
};
use serde_json::Value;

fn floors_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_floors"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("floors-visualize-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn public_programs() -> Vec<PathBuf> {
    let dir = common::corpus_dir().join("public");
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".stablehlo.mlir"))
        .collect();
    programs.sort();
    assert!(!programs.is_empty(), "no public programs in {}", dir.display());
    programs
}

fn attention() -> PathBuf {
    common::corpus_dir().join("bench/attention.stablehlo.mlir")
}

// --- the fusion graph ------------------------------------------------------

fn graph_of(path: &Path, options: CompileOptions) -> String {
    let compiler = Compiler::new(options).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    compiler.compile_source(&name, &text, Stage::Dot).unwrap_or_else(|e| panic!("{name}: --emit dot failed:\n{e}"))
}

#[test]
fn dot_of_every_public_program_parses_with_graphviz() {
    assert!(
        Command::new("dot").arg("-V").output().is_ok(),
        "Graphviz's `dot` is not on PATH: install the `graphviz` package (scripts/setup.sh does)"
    );
    for path in public_programs() {
        let dot = graph_of(&path, common::pinned_options());
        let name = path.display();
        let svg = floors::graph::render_svg(&dot).unwrap_or_else(|e| panic!("{name}: dot rejects the graph:\n{e}\n{dot}"));
        let svg = String::from_utf8(svg).unwrap();
        assert!(svg.contains("<svg"), "{name}: not an SVG:\n{svg}");
        // One node per fusion of the report, each with its CPU kernel.
        let compiler = Compiler::new(common::pinned_options()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let module = compiler.compile_module("p.mlir", &text, Stage::Fused).unwrap();
        let report = Compiler::fusion_report(&module);
        for (i, (_, info)) in report.fusions.iter().enumerate() {
            assert!(dot.contains(&format!("fusion {i}: {}", info.kind.as_str())), "{name}: fusion {i} missing:\n{dot}");
        }
        assert_eq!(dot.matches("cpu: kernel fusion_").count(), report.fusions.len(), "{name}:\n{dot}");
        assert!(dot.contains("result 0"), "{name}:\n{dot}");
    }
}

#[test]
fn fusion_graph_snapshots() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    // Kernels split in two: the CPU floor's workgroups show on the nodes.
    let options = CompileOptions { workgroups: 2, ..common::pinned_options() };
    let attention = graph_of(&attention(), options);
    // Control flow: a while loop's cond and body as clusters.
    let fori = graph_of(&common::corpus_dir().join("public/fori_loop.stablehlo.mlir"), common::pinned_options());
    settings.bind(|| {
        insta::assert_snapshot!("fusion_graph__attention_workgroups_2", attention);
        insta::assert_snapshot!("fusion_graph__fori_loop", fori);
    });
}

#[test]
fn emit_dot_and_svg_from_the_cli_and_a_clear_error_without_dot() {
    let dir = scratch("svg");
    let program = common::corpus_dir().join("public/softmax.stablehlo.mlir");
    let out =
        Command::new(floors_bin()).arg("compile").arg(&program).args(["--emit", "svg", "-o"]).arg(dir.join("g.svg")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(dir.join("g.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("fusion 0: reduction"), "{svg}");
    let out = Command::new(floors_bin()).arg("compile").arg(&program).args(["--emit", "dot"]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("digraph \"jit_softmax\" {"));
    // No `dot` on PATH: exit 1 naming the package.
    let empty = scratch("empty-path");
    let out = Command::new(floors_bin()).env("PATH", &empty).arg("compile").arg(&program).args(["--emit", "svg"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("`graphviz` package") && stderr.contains("--emit dot"), "{stderr}");
}

// --- the timeline ----------------------------------------------------------

/// Checks a trace against the trace-event format and returns its complete
/// events by track name. Every `X` event has name/cat/ts/dur/pid/tid with
/// numbers where numbers belong; every tid is named by an `M` event; on one
/// tid, slices are disjoint or nested, and leaf slices (everything but
/// control flow, whole executions and passes, which nest) never overlap at all.
fn check_trace(json: &str) -> (BTreeMap<String, Vec<Value>>, Value) {
    let v: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("not JSON: {e}\n{json}"));
    let events = v["traceEvents"].as_array().expect("traceEvents is an array");
    let mut names: BTreeMap<u64, String> = BTreeMap::new();
    let mut slices: BTreeMap<u64, Vec<Value>> = BTreeMap::new();
    for e in events {
        let ph = e["ph"].as_str().unwrap_or_else(|| panic!("event without ph: {e}"));
        assert!(e["pid"].is_u64() && e["tid"].is_u64() && e["name"].is_string(), "bad event {e}");
        match ph {
            "M" => {
                let n = e["name"].as_str().unwrap();
                assert!(["process_name", "thread_name", "thread_sort_index"].contains(&n), "{e}");
                assert!(e["args"].is_object(), "{e}");
                if n == "thread_name" {
                    names.insert(e["tid"].as_u64().unwrap(), e["args"]["name"].as_str().unwrap().to_string());
                }
            }
            "X" => {
                assert!(e["cat"].is_string(), "{e}");
                let (ts, dur) = (e["ts"].as_f64(), e["dur"].as_f64());
                assert!(ts.is_some_and(|t| t >= 0.0) && dur.is_some_and(|d| d >= 0.0), "bad ts/dur: {e}");
                assert!(e.get("args").is_none_or(Value::is_object), "{e}");
                slices.entry(e["tid"].as_u64().unwrap()).or_default().push(e.clone());
            }
            other => panic!("unexpected phase {other}: {e}"),
        }
    }
    // Enclosing slices: a whole execution, control flow, a pass manager.
    let leaf = |e: &Value| !matches!(e["cat"].as_str(), Some("control") | Some("execute") | Some("pass"));
    let mut by_track = BTreeMap::new();
    for (tid, on) in slices {
        let track = names.get(&tid).unwrap_or_else(|| panic!("tid {tid} has no thread_name")).clone();
        for (i, a) in on.iter().enumerate() {
            for b in &on[i + 1..] {
                let (a0, b0) = (a["ts"].as_f64().unwrap(), b["ts"].as_f64().unwrap());
                let (a1, b1) = (a0 + a["dur"].as_f64().unwrap(), b0 + b["dur"].as_f64().unwrap());
                // Timestamps are rounded to nanoseconds: allow that much.
                let eps = 0.002;
                let disjoint = a1 <= b0 + eps || b1 <= a0 + eps;
                let nested = (a0 <= b0 + eps && b1 <= a1 + eps) || (b0 <= a0 + eps && a1 <= b1 + eps);
                assert!(disjoint || nested, "{track}: {a} and {b} overlap without nesting");
                assert!(disjoint || !(leaf(a) && leaf(b)), "{track}: {a} and {b} overlap");
            }
        }
        by_track.insert(track, on);
    }
    (by_track, v["otherData"].clone())
}

/// Tracks that ran kernel slices.
fn kernel_tracks(tracks: &BTreeMap<String, Vec<Value>>) -> BTreeSet<String> {
    tracks.iter().filter(|(_, s)| s.iter().any(|e| e["cat"] == "kernel")).map(|(t, _)| t.clone()).collect()
}

fn random_attention_inputs(dir: &Path) -> Vec<PathBuf> {
    let spec = TensorSpec { element_type: ElementType::F32, shape: vec![512, 64] };
    floors::run::random_inputs(&[spec.clone(), spec.clone(), spec])
        .into_iter()
        .enumerate()
        .map(|(i, (_, a))| {
            let p = dir.join(format!("in{i}.npy"));
            npy::write(&p, &a).unwrap();
            p
        })
        .collect()
}

#[test]
fn floors_run_writes_a_trace_with_compile_phases_and_kernels_on_the_pool() {
    let dir = scratch("trace-cli");
    let inputs = random_attention_inputs(&dir);
    let mut cmd = Command::new(floors_bin());
    cmd.arg("run").arg(attention()).args(["--threads", "2", "--output-dir"]).arg(dir.join("out")).arg("--trace").arg(dir.join("t.json"));
    for i in &inputs {
        cmd.arg("--input").arg(i);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (tracks, other) = check_trace(&std::fs::read_to_string(dir.join("t.json")).unwrap());
    let phases: Vec<&str> = tracks["compile"].iter().map(|e| e["name"].as_str().unwrap()).collect();
    for want in ["parse", "passes builtin.module(floors-fuse,floors-lower-cpu)", "host program", "codegen (LLVM -O3, objects)", "link"] {
        assert!(phases.contains(&want), "no compile phase {want}: {phases:?}");
    }
    assert!(tracks["compile passes"].iter().any(|e| e["name"] == "floors-hlo-fuse"), "{:?}", tracks["compile passes"]);
    let execute = tracks["caller"].iter().find(|e| e["name"] == "execute").expect("an execute slice on the caller");
    assert!(execute["args"]["mode"].as_str().unwrap().starts_with("sequential"), "{execute}");
    assert_eq!(execute["args"]["threads"], 2);
    assert_eq!(other["executor_mode"], execute["args"]["mode"]);
    assert_eq!(other["program"], "jit_attention");
    // The sequence runs on the pool (moved there once), so every kernel,
    // split or not, is on a worker; which workers is up to rayon's stealing
    // (see trace_of_attention_shows_kernels_on_both_pool_threads).
    let kernels = kernel_tracks(&tracks);
    assert!(!kernels.is_empty() && kernels.iter().all(|t| t.starts_with("worker ")), "{kernels:?}");
    let k = tracks.values().flatten().find(|e| e["name"] == "fusion_1").expect("fusion_1");
    assert_eq!(k["args"]["grid"], serde_json::json!([2, 1, 1]));
    assert_eq!(k["args"]["bytes_written"], 512 * 512 * 4);
}

#[test]
fn trace_of_attention_shows_kernels_on_both_pool_threads() {
    let options = CompileOptions { workgroups: 2, ..CompileOptions::default() };
    let compiler = Compiler::new(options).unwrap();
    let text = std::fs::read_to_string(attention()).unwrap();
    let program = Program::compile(&compiler, "attention.mlir", &text).unwrap();
    let inputs = floors::run::random_inputs(&program.executable().parameters());
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    // Which worker steals which workgroup is up to rayon: loop a few runs
    // until both workers ran kernels (one run almost always suffices).
    // Under load (tests run in parallel on two cores) the second worker may
    // wake late: allow many runs, each about a millisecond.
    let mut seen = BTreeSet::new();
    for _ in 0..500 {
        let trace = Trace::new("attention");
        program.executable().execute_traced(&inputs, Some(&pool), Some(&trace)).unwrap();
        let (tracks, _) = check_trace(&trace.to_json());
        seen = kernel_tracks(&tracks).into_iter().filter(|t| t.starts_with("worker ")).collect();
        if seen.len() == 2 {
            break;
        }
    }
    assert_eq!(seen, BTreeSet::from(["worker 0".to_string(), "worker 1".to_string()]));
}

#[test]
fn compile_traced_and_floors_run_binary_write_traces() {
    let dir = scratch("trace-artifact");
    // The Rust API: the compile phases on their own track.
    let compiler = Compiler::new(CompileOptions { workgroups: 2, ..CompileOptions::default() }).unwrap();
    let text = std::fs::read_to_string(attention()).unwrap();
    let trace = Trace::new("compile");
    let registry = Arc::new(CustomCallRegistry::with_builtins());
    let program = Program::compile_traced(&compiler, "attention.mlir", &text, registry, Some(&trace)).unwrap();
    let (tracks, _) = check_trace(&trace.to_json());
    assert!(tracks["compile"].iter().any(|e| e["name"] == "load kernels and build thunks"), "{tracks:?}");
    // floors-run: reading and loading the artifact, then the run.
    program.save(&dir.join("a.floors")).unwrap();
    let inputs = random_attention_inputs(&dir);
    let floors_run = floors_bin().with_file_name("floors-run");
    assert!(floors_run.exists(), "{} is missing: build the workspace", floors_run.display());
    let mut cmd = Command::new(floors_run);
    cmd.arg(dir.join("a.floors")).args(["--threads", "2", "--output-dir"]).arg(dir.join("out")).arg("--trace").arg(dir.join("t.json"));
    for i in &inputs {
        cmd.arg("--input").arg(i);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (tracks, other) = check_trace(&std::fs::read_to_string(dir.join("t.json")).unwrap());
    let phases: Vec<&str> = tracks["compile"].iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(phases, ["read artifact", "load kernels and build thunks"]);
    let kernels = kernel_tracks(&tracks);
    assert!(!kernels.is_empty() && kernels.iter().all(|t| t.starts_with("worker ")), "{tracks:?}");
    assert!(other["executor_mode"].is_string());
    let outs: Vec<HostArray> = (0..1).map(|i| npy::read(&dir.join(format!("out/out{i}.npy"))).unwrap()).collect();
    assert_eq!(outs[0].shape, [512, 64]);
}

// --- the browsable dump ----------------------------------------------------

/// Parses every `.html` under `dir` as XML (the dump writes well-formed
/// HTML), checks that every `href` resolves to a file, and returns the
/// hrefs of each page.
fn check_html_tree(dir: &Path) -> BTreeMap<PathBuf, Vec<String>> {
    let mut pages = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "html") {
                let text = std::fs::read_to_string(&p).unwrap();
                assert!(text.starts_with("<!DOCTYPE html>"), "{}", p.display());
                let opts = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
                let doc = roxmltree::Document::parse_with_options(&text, opts)
                    .unwrap_or_else(|e| panic!("{} is not well-formed: {e}", p.display()));
                assert_eq!(doc.root_element().tag_name().name(), "html");
                let hrefs: Vec<String> = doc.descendants().filter_map(|n| n.attribute("href")).map(str::to_string).collect();
                for h in &hrefs {
                    let target = p.parent().unwrap().join(h);
                    assert!(target.is_file(), "{}: link {h} does not resolve", p.display());
                }
                pages.insert(p, hrefs);
            }
        }
    }
    pages
}

#[test]
fn dump_html_index_links_every_dumped_pass() {
    let dir = scratch("dump-html");
    let out = Command::new(floors_bin())
        .arg("compile")
        .arg(attention())
        .args(["--emit", "llvm", "-o"])
        .arg(dir.join("out.mlir"))
        .arg("--dump-to")
        .arg(dir.join("d"))
        .arg("--dump-html")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pages = check_html_tree(&dir.join("d"));
    let root = &pages[&dir.join("d/index.html")];
    assert_eq!(root, &["jit_attention/index.html"]);
    let module = dir.join("d/jit_attention");
    let index = &pages[&module.join("index.html")];
    let mut dumped: Vec<String> = std::fs::read_dir(&module)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".mlir"))
        .collect();
    dumped.sort();
    assert!(dumped.len() > 40, "{dumped:?}");
    for f in &dumped {
        assert!(index.contains(f), "index does not link {f}");
        if f != "0000.input.mlir" {
            let page = format!("{}.html", f.strip_suffix(".mlir").unwrap());
            assert!(index.contains(&page), "index does not link {page}");
            assert!(pages.contains_key(&module.join(&page)), "{page} missing");
        }
    }
    let text = std::fs::read_to_string(module.join("index.html")).unwrap();
    // Passes in order, with times; unchanged ones marked, changed ones with counts.
    let fuse = text.find(">floors-hlo-fuse<").expect("floors-hlo-fuse listed");
    let lower = text.find(">floors-linalg-lower-stablehlo<").expect("lowering listed");
    assert!(fuse < lower);
    assert!(text.contains("<tr class=\"unchanged\">") && text.contains("<td>unchanged</td>"), "no unchanged pass marked");
    assert!(text.contains("<tr class=\"changed\">"));
    assert!(text.contains(" ms</td>"));
    let fuse_page = std::fs::read_to_string(module.join("0018.floors-hlo-fuse.html")).unwrap();
    assert!(fuse_page.contains("<span class=\"add\">+    %0 = floors.fusion"), "{fuse_page}");
    assert!(fuse_page.contains("IR after this pass"));
    // A real browser, when the machine has one (headless): the index renders.
    for browser in ["chromium", "chromium-browser", "google-chrome"] {
        if let Ok(out) = Command::new(browser)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
            .arg(format!("file://{}", module.join("index.html").display()))
            .output()
            && out.status.success()
        {
            let dom = String::from_utf8_lossy(&out.stdout);
            assert!(dom.contains("floors-hlo-fuse") && dom.contains("<table>"), "{browser}: {dom}");
            break;
        }
    }
}

#[test]
fn dump_html_from_floors_flags_with_a_pass_filter() {
    let dir = scratch("dump-html-flags");
    let d = dir.join("d");
    let program = common::corpus_dir().join("public/softmax.stablehlo.mlir");
    let out = Command::new(floors_bin())
        .env("FLOORS_FLAGS", format!("--dump-to={} --dump-pass-re=fuse --dump-html", d.display()))
        .arg("compile")
        .arg(&program)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pages = check_html_tree(&d);
    let index = std::fs::read_to_string(d.join("jit_softmax/index.html")).unwrap();
    // Every pass is listed and timed; only the matching ones have IR and a page.
    assert!(index.contains(">canonicalize<") && index.contains("not dumped"), "{index}");
    assert!(index.contains("0018.floors-hlo-fuse.mlir") && index.contains("0018.floors-hlo-fuse.html"), "{index}");
    assert_eq!(pages.len(), 3, "{pages:?}"); // root index, module index, one pass page
    // --dump-html alone is an error.
    let out = Command::new(floors_bin()).env("FLOORS_FLAGS", "--dump-html").arg("compile").arg(&program).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--dump-html needs --dump-to"));
}
