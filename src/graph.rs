//! `floors compile --emit dot|svg`: the fusion graph
//! ([`floors_hlo::fusion_graph`]) of a program, with what the
//! floor it is compiled for decided about each fusion, as Graphviz text or
//! rendered to SVG by Graphviz's `dot`.

use std::io::Write as _;

use crate::{
    Compiler, Stage,
    error::{Error, Result},
};

use floors_host::module_name;

use floors_hlo::fusion_graph::FusionGraph;

/// The fusion graph of `text`: fused (`floors-fuse`), then annotated by the
/// floor `--target` picks (its kernels, emitters, workgroups).
pub fn fusion_graph(compiler: &Compiler, name: &str, text: &str) -> Result<FusionGraph> {
    let mut module = compiler.compile_module(name, text, Stage::Fused)?;
    let title = module_name(&module, name);
    let mut graph = FusionGraph::of_module(module.as_operation().to_raw(), &title);
    let floor = compiler.options().target.floor();
    if let Err(e) = floor.annotate_graph(compiler, &mut module, &mut graph) {
        // The graph of the fused program stands on its own.
        let first = e.to_string().lines().next().unwrap_or_default().to_string();
        graph.notes.push(format!("{} floor: cannot lower this program ({first})", floor.kind().name().to_uppercase()));
    }
    Ok(graph)
}

/// Renders Graphviz text to SVG with `dot -Tsvg`. Without `dot` on PATH,
/// an error naming the package to install.
pub fn render_svg(dot_text: &str) -> Result<Vec<u8>> {
    let missing = |e: std::io::Error| {
        Error::Unsupported(format!(
            "--emit svg runs Graphviz's `dot`, which could not be started ({e}): install the `graphviz` package \
             (Debian/Ubuntu: apt-get install graphviz), or use --emit dot and render it elsewhere"
        ))
    };
    let mut child = std::process::Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(missing)?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    // Write from another thread: dot may fill its stdout pipe before reading all of stdin.
    let text = dot_text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().map_err(missing)?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(Error::Unsupported(format!(
            "Graphviz's `dot -Tsvg` failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim_end()
        )));
    }
    Ok(out.stdout)
}
