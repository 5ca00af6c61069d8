//! The fusion graph of a fused module, for people: one node per fusion,
//! unfused op, constant, parameter and result; edges labelled with the
//! bytes that pass along them; control-flow bodies as clusters; fusions
//! coloured by kind. `floors compile --emit dot` prints it as Graphviz text,
//! `--emit svg` renders it with `dot`.
//!
//! The graph is built from the target-neutral fused module with the same
//! analysis the floors read ([`super::fusion_analysis`]), so a node's kind,
//! hero and bytes are exactly what the fusion report says. A floor adds what
//! it decided about each fusion as extra lines ([`FusionGraph::annotate_fusion`]:
//! the CPU floor its kernel and workgroup grid; later the GPU floor its
//! emitter, the TPU floor its grid and block shapes) and notes on the whole
//! graph ([`FusionGraph::notes`]).

use std::{collections::HashMap, fmt::Write as _};

use mlir_sys::*;

use super::fusion_analysis::{analyze, report};
use floors_ir::{dialects::FusionKind, ir::raw};

/// What a node stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Argument `i` of a function.
    Parameter(usize),
    /// Value `i` a function returns.
    Result(usize),
    Constant,
    /// Fusion `index` (in the order of the fusion report).
    Fusion {
        index: usize,
        kind: FusionKind,
    },
    /// A compute op outside any fusion (a kernel of its own).
    Unfused,
    /// A control-flow op (`while`, `case`, `if`): its operands, the values
    /// its bodies receive, and its results; the bodies are clusters.
    ControlFlow,
}

#[derive(Clone, Debug)]
pub struct Node {
    /// Graphviz id (`p0`, `f3`, ...).
    pub id: String,
    pub kind: NodeKind,
    /// Label lines from the fusion analysis.
    pub lines: Vec<String>,
    /// Label lines a floor added.
    pub floor_lines: Vec<String>,
    /// The innermost cluster the node is in.
    pub cluster: Option<usize>,
}

/// How a value travels along an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// Read by the consumer.
    Data,
    /// Yielded by a control-flow body back to its op (the next iteration's
    /// values, a branch's results, the loop predicate).
    Yield,
}

#[derive(Clone, Debug)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub bytes: u64,
    pub kind: EdgeKind,
}

/// A control-flow op or one of its bodies (or a function, when the module
/// has several).
#[derive(Clone, Debug)]
pub struct Cluster {
    pub label: String,
    pub parent: Option<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct FusionGraph {
    pub title: String,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub clusters: Vec<Cluster>,
    /// Lines under the title: totals, and what floors add.
    pub notes: Vec<String>,
    /// Node of fusion `i`.
    fusions: Vec<usize>,
}

/// Fill colours by fusion kind (also the legend's).
pub fn kind_color(kind: FusionKind) -> &'static str {
    match kind {
        FusionKind::Loop => "#cfe2f3",
        FusionKind::Reduction => "#fce5cd",
        FusionKind::Transpose => "#d9d2e9",
        FusionKind::Concatenate => "#fff2cc",
        FusionKind::InputSlices => "#d0e0e3",
        FusionKind::Scatter => "#d9ead3",
        FusionKind::Gemm => "#f4cccc",
        FusionKind::Convolution => "#ea9999",
        FusionKind::Custom => "#d9d9d9",
    }
}

/// Bytes for people: `96 B`, `1.5 KiB`, `2.0 MiB`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if b < 1024 {
        return format!("{b} B");
    }
    let mut v = b as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// A value's type without the `tensor<...>` wrapper: `512x64xf32`.
fn type_of(v: MlirValue) -> String {
    // SAFETY: `v` is a live value of the module being drawn (an operand, result or block argument of one of its ops),
    // so it has a type.
    let t = raw::type_text(unsafe { mlirValueGetType(v) });
    match t.strip_prefix("tensor<").and_then(|r| r.strip_suffix('>')) {
        Some(inner) => inner.to_string(),
        None => t,
    }
}

fn short(op_name: &str) -> &str {
    op_name.strip_prefix("stablehlo.").unwrap_or(op_name)
}

fn is_control_flow(name: &str) -> bool {
    matches!(name, "stablehlo.while" | "stablehlo.case" | "stablehlo.if" | "scf.while" | "scf.if")
}

fn block_args(block: MlirBlock) -> Vec<MlirValue> {
    if block.ptr.is_null() {
        return Vec::new();
    }
    // SAFETY: `block` is non-null (checked above) and a live block of the module; every index is below the argument
    // count just read.
    unsafe { (0..mlirBlockGetNumArguments(block)).map(|i| mlirBlockGetArgument(block, i)).collect() }
}

/// Results listed on a node: at most 4, then how many more.
fn output_lines(values: &[MlirValue]) -> Vec<String> {
    let mut out: Vec<String> = values.iter().take(4).map(|&v| format!("out {}", type_of(v))).collect();
    if values.len() > 4 {
        out.push(format!("... {} more results", values.len() - 4));
    }
    out
}

struct Builder {
    graph: FusionGraph,
    /// Value (pointer) to the node that produces it for its readers.
    values: HashMap<usize, usize>,
    counters: HashMap<&'static str, usize>,
}

impl Builder {
    fn node(&mut self, prefix: &'static str, kind: NodeKind, lines: Vec<String>, cluster: Option<usize>) -> usize {
        let n = self.counters.entry(prefix).or_insert(0);
        let id = format!("{prefix}{n}");
        *n += 1;
        self.graph.nodes.push(Node { id, kind, lines, floor_lines: Vec::new(), cluster });
        self.graph.nodes.len() - 1
    }

    fn cluster(&mut self, label: String, parent: Option<usize>) -> usize {
        self.graph.clusters.push(Cluster { label, parent });
        self.graph.clusters.len() - 1
    }

    /// Edges from the producers of `values` to `to` (one per distinct value).
    fn reads(&mut self, values: &[MlirValue], to: usize, kind: EdgeKind) {
        let mut seen = Vec::new();
        for &v in values {
            if seen.contains(&v.ptr) {
                continue;
            }
            seen.push(v.ptr);
            let Some(&from) = self.values.get(&(v.ptr as usize)) else { continue };
            // Several values between the same two nodes travel as one edge.
            let bytes = raw::value_bytes(v);
            match self.graph.edges.iter_mut().find(|e| e.from == from && e.to == to && e.kind == kind) {
                Some(e) => e.bytes += bytes,
                None => self.graph.edges.push(Edge { from, to, bytes, kind }),
            }
        }
    }

    fn produces(&mut self, values: &[MlirValue], node: usize) {
        for v in values {
            self.values.insert(v.ptr as usize, node);
        }
    }

    fn block(&mut self, block: MlirBlock, cluster: Option<usize>, owner: Option<usize>) {
        for op in raw::block_ops(block) {
            let name = raw::name(op);
            let operands = raw::operands(op);
            let results = raw::results(op);
            match name.as_str() {
                "floors.fusion" => {
                    let info = analyze(op);
                    let index = self.graph.fusions.len();
                    let mut lines = vec![format!("fusion {index}: {}", info.kind.as_str()), format!("hero {}", short(&info.hero))];
                    lines.push(format!("{} op{}", info.op_count, if info.op_count == 1 { "" } else { "s" }));
                    lines.extend(output_lines(&results));
                    lines.push(format!("in {} / out {}", human_bytes(info.bytes_in), human_bytes(info.bytes_out)));
                    let node = self.node("f", NodeKind::Fusion { index, kind: info.kind }, lines, cluster);
                    self.graph.fusions.push(node);
                    self.reads(&operands, node, EdgeKind::Data);
                    self.produces(&results, node);
                }
                "stablehlo.constant" | "arith.constant" => {
                    let lines = vec!["constant".to_string(), results.first().map(|&v| type_of(v)).unwrap_or_default()];
                    let node = self.node("c", NodeKind::Constant, lines, cluster);
                    self.produces(&results, node);
                }
                "func.return" => {
                    for (i, &v) in operands.iter().enumerate() {
                        let lines = vec![format!("result {i}"), type_of(v), human_bytes(raw::value_bytes(v))];
                        let node = self.node("r", NodeKind::Result(i), lines, cluster);
                        self.reads(&[v], node, EdgeKind::Data);
                    }
                }
                "stablehlo.return" | "scf.yield" | "scf.condition" => {
                    if let Some(owner) = owner {
                        self.reads(&operands, owner, EdgeKind::Yield);
                    }
                }
                n if is_control_flow(n) => {
                    let what = short(n).trim_start_matches("scf.").to_string();
                    let outer = self.cluster(what.clone(), cluster);
                    let mut lines = vec![what.clone()];
                    if !results.is_empty() {
                        lines.push(format!("{} value{}", results.len(), if results.len() == 1 { "" } else { "s" }));
                    }
                    let node = self.node("cf", NodeKind::ControlFlow, lines, Some(outer));
                    self.reads(&operands, node, EdgeKind::Data);
                    let regions = raw::region_blocks(op);
                    let count = regions.len();
                    for (i, b) in regions.into_iter().enumerate() {
                        let label = match (what.as_str(), i) {
                            ("while", 0) => "cond".to_string(),
                            ("while", _) => "body".to_string(),
                            ("if", 0) => "true".to_string(),
                            ("if", _) => "false".to_string(),
                            _ if count == 1 => "body".to_string(),
                            _ => format!("branch {i}"),
                        };
                        let inner = self.cluster(label, Some(outer));
                        // The body reads what the op hands it (loop-carried values).
                        let args = block_args(b);
                        self.produces(&args, node);
                        self.block(b, Some(inner), Some(node));
                    }
                    self.produces(&results, node);
                }
                _ => {
                    let mut lines = vec![short(&name).to_string()];
                    lines.extend(output_lines(&results));
                    let node = self.node("u", NodeKind::Unfused, lines, cluster);
                    self.reads(&operands, node, EdgeKind::Data);
                    self.produces(&results, node);
                }
            }
        }
    }
}

impl FusionGraph {
    /// The graph of every function of a fused module (`floors-fuse` output).
    pub fn of_module(module: MlirOperation, title: &str) -> Self {
        let mut b = Builder {
            graph: FusionGraph { title: title.to_string(), ..Default::default() },
            values: HashMap::new(),
            counters: HashMap::new(),
        };
        let funcs: Vec<MlirOperation> =
            raw::region_blocks(module).into_iter().flat_map(raw::block_ops).filter(|&o| raw::name(o) == "func.func").collect();
        for &f in &funcs {
            let fname = raw::str_attr(f, "sym_name").unwrap_or_default();
            let cluster = (funcs.len() > 1).then(|| b.cluster(format!("func @{fname}"), None));
            let Some(&entry) = raw::region_blocks(f).first() else { continue };
            for (i, arg) in block_args(entry).into_iter().enumerate() {
                let lines = vec![format!("parameter {i}"), type_of(arg), human_bytes(raw::value_bytes(arg))];
                let node = b.node("p", NodeKind::Parameter(i), lines, cluster);
                b.produces(&[arg], node);
            }
            b.block(entry, cluster, None);
        }
        let rep = report(module);
        b.graph.notes.push(format!(
            "{} kernel{} ({} fusion{}, {} unfused), {} control-flow op{}, {} passed between kernels",
            rep.kernels(),
            if rep.kernels() == 1 { "" } else { "s" },
            rep.fusions.len(),
            if rep.fusions.len() == 1 { "" } else { "s" },
            rep.unfused_ops.len(),
            rep.control_flow_ops,
            if rep.control_flow_ops == 1 { "" } else { "s" },
            human_bytes(rep.intermediate_bytes)
        ));
        b.graph
    }

    /// Number of fusions (the report's order: fusion `i` is the report's `fusion i`).
    pub fn fusion_count(&self) -> usize {
        self.fusions.len()
    }

    /// Adds a floor's line to fusion `index`'s node (ignored when out of range).
    pub fn annotate_fusion(&mut self, index: usize, line: impl Into<String>) {
        if let Some(&n) = self.fusions.get(index) {
            self.nodes[n].floor_lines.push(line.into());
        }
    }

    /// Graphviz text (`dot -Tsvg` renders it).
    pub fn to_dot(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "digraph {} {{", quote(&self.title));
        let mut label = vec![self.title.clone()];
        label.extend(self.notes.iter().cloned());
        let _ = writeln!(out, "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11, labelloc=t, label={}];", quote_lines(&label));
        out.push_str("  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n");
        // Nodes in their clusters, clusters nested: children listed under parents.
        self.write_cluster(&mut out, None, 1);
        for e in &self.edges {
            let from = &self.nodes[e.from];
            let to = &self.nodes[e.to];
            let between_kernels = matches!(from.kind, NodeKind::Fusion { .. } | NodeKind::Unfused)
                && matches!(to.kind, NodeKind::Fusion { .. } | NodeKind::Unfused | NodeKind::ControlFlow);
            let style = match e.kind {
                EdgeKind::Yield => ", style=dashed, constraint=false",
                EdgeKind::Data if between_kernels => ", penwidth=1.5",
                EdgeKind::Data => ", color=\"#777777\", fontcolor=\"#555555\"",
            };
            let _ = writeln!(out, "  {} -> {} [label={}{style}];", from.id, to.id, quote(&human_bytes(e.bytes)));
        }
        out.push_str("}\n");
        out
    }

    fn write_cluster(&self, out: &mut String, cluster: Option<usize>, depth: usize) {
        let pad = "  ".repeat(depth);
        for n in self.nodes.iter().filter(|n| n.cluster == cluster) {
            let mut lines = n.lines.clone();
            lines.extend(n.floor_lines.iter().cloned());
            let attrs = match &n.kind {
                NodeKind::Parameter(_) => "shape=invhouse, style=filled, fillcolor=\"#eeeeee\"".to_string(),
                NodeKind::Result(_) => "shape=house, style=filled, fillcolor=\"#eeeeee\"".to_string(),
                NodeKind::Constant => "shape=box, style=dotted, fontsize=9".to_string(),
                NodeKind::Fusion { kind, .. } => format!("shape=box, style=\"filled,rounded\", fillcolor=\"{}\"", kind_color(*kind)),
                NodeKind::Unfused => "shape=box, style=dashed".to_string(),
                NodeKind::ControlFlow => "shape=hexagon, style=filled, fillcolor=\"#f3f3f3\"".to_string(),
            };
            let _ = writeln!(out, "{pad}{} [label={}, {attrs}];", n.id, quote_lines(&lines));
        }
        for (i, c) in self.clusters.iter().enumerate().filter(|(_, c)| c.parent == cluster) {
            let _ = writeln!(out, "{pad}subgraph cluster_{i} {{");
            let _ = writeln!(out, "{pad}  label={}; style=rounded; color=\"#999999\";", quote(&c.label));
            self.write_cluster(out, Some(i), depth + 1);
            let _ = writeln!(out, "{pad}}}");
        }
    }
}

/// The `floors.fusion` ops of a module in the graph's (and the fusion
/// report's) order: functions in order, ops in order, control-flow bodies
/// where their op is. A floor that rewrote the module without reordering
/// fusions (the CPU floor's outlining) finds fusion `i` at position `i`.
pub fn fusion_ops(module: MlirOperation) -> Vec<MlirOperation> {
    fn walk(block: MlirBlock, out: &mut Vec<MlirOperation>) {
        for op in raw::block_ops(block) {
            let name = raw::name(op);
            if name == "floors.fusion" {
                out.push(op);
            } else if is_control_flow(&name) {
                raw::region_blocks(op).into_iter().for_each(|b| walk(b, out));
            }
        }
    }
    let mut out = Vec::new();
    for f in raw::region_blocks(module).into_iter().flat_map(raw::block_ops).filter(|&o| raw::name(o) == "func.func") {
        if let Some(&entry) = raw::region_blocks(f).first() {
            walk(entry, &mut out);
        }
    }
    out
}

/// A Graphviz string literal.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Lines as one Graphviz label (centred lines).
fn quote_lines(lines: &[String]) -> String {
    let escaped: Vec<String> = lines.iter().map(|l| quote(l)).map(|q| q[1..q.len() - 1].to_string()).collect();
    format!("\"{}\"", escaped.join("\\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_for_people() {
        assert_eq!(human_bytes(96), "96 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(2 << 20), "2.0 MiB");
        assert_eq!(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(quote_lines(&["x".into(), "y\"".into()]), "\"x\\ny\\\"\"");
    }
}
