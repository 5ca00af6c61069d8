//! `floors compile --emit dot|svg`: the fusion graph
//! ([`crate::lowering::hlo::fusion_graph`]) of a program, with what the
//! floor it is compiled for decided about each fusion, as Graphviz text or
//! rendered to SVG by Graphviz's `dot`.

use std::io::Write as _;

use crate::{
    Compiler, Stage,
    contract::{GRID_ATTR, KERNEL_ATTR},
    driver::module_name,
    error::{Error, Result},
    ir::raw,
    lowering::hlo::fusion_graph::{FusionGraph, fusion_ops},
};

/// The fusion graph of `text`: fused (`floors-fuse`), then annotated by the
/// CPU floor (the floor `--target` picks; the only one so far).
pub fn fusion_graph(compiler: &Compiler, name: &str, text: &str) -> Result<FusionGraph> {
    let mut module = compiler.compile_module(name, text, Stage::Fused)?;
    let title = module_name(&module, name);
    let mut graph = FusionGraph::of_module(module.as_operation().to_raw(), &title);
    if let Err(e) = annotate_cpu(compiler, &mut module, &mut graph) {
        // The graph of the fused program stands on its own.
        let first = e.to_string().lines().next().unwrap_or_default().to_string();
        graph.notes.push(format!("CPU floor: cannot lower this program ({first})"));
    }
    Ok(graph)
}

/// CPU floor: each fusion's kernel and, when split, its workgroup grid, read
/// from the host program after kernel outlining (`floors.kernel`,
/// `floors.grid` on the fusion ops, which stay in place and in order).
fn annotate_cpu(compiler: &Compiler, module: &mut melior::ir::Module<'_>, graph: &mut FusionGraph) -> Result<()> {
    compiler.attach_target(module)?;
    compiler.run_quiet(module, "builtin.module(floors-linalg-lower-stablehlo,floors-linalg-outline-kernels)")?;
    let top = module.as_operation().to_raw();
    let fusions = fusion_ops(top);
    if fusions.len() != graph.fusion_count() {
        graph.notes.push(format!("CPU floor: {} kernels for {} fusions; kernels not shown", fusions.len(), graph.fusion_count()));
        return Ok(());
    }
    for (i, &f) in fusions.iter().enumerate() {
        let kernel = raw::attr(f, KERNEL_ATTR).map(|a| raw::string(unsafe { mlir_sys::mlirStringAttrGetValue(a) }));
        let grid = raw::attr(f, GRID_ATTR).map(|a| unsafe { mlir_sys::mlirIntegerAttrGetValueInt(a) }).unwrap_or(1);
        let mut line = format!("cpu: kernel {}", kernel.as_deref().unwrap_or("?"));
        if grid > 1 {
            line.push_str(&format!(", {grid} workgroups"));
        }
        graph.annotate_fusion(i, line);
    }
    let target = crate::target::CpuTarget::of_operation(top);
    let workgroups = compiler.options().workgroups.max(1);
    let target = target.map_or_else(|| "host".to_string(), |t| format!("{} ({} vector bits)", t.cpu, t.vector_bits));
    graph.notes.push(match workgroups {
        1 => format!("CPU floor: {target}, kernels not split (--workgroups 1)"),
        n => format!("CPU floor: {target}, kernels split into up to {n} workgroups"),
    });
    Ok(())
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
