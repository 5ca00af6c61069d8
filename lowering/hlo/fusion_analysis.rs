//! What every floor asks of a fusion: its kind (XLA's emitter-kind rules,
//! DESIGN.md §5), its hero, its roots, and the bytes it moves. Also the op
//! classes the fusion pass decides with, so the pass and the analysis can never
//! disagree about what an op is.

use std::collections::HashSet;

use mlir_sys::*;

use floors_ir::{dialects::FusionKind, ir::raw};

/// What the fusion pass may do with an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpClass {
    /// Constants and iota: duplicated into every fusion that uses them.
    Leaf,
    /// Elementwise math; `expensive` ones (transcendentals, divisions) are
    /// never duplicated and never recomputed under an expanding broadcast.
    Elementwise { expensive: bool },
    /// Data movement computed per output element (broadcast, reshape, slice ...).
    Movement,
    /// Reductions: heroes of reduction fusions.
    Reduce,
    /// dot_general / dot: heroes of gemm fusions.
    Dot,
    /// convolution: heroes of convolution fusions.
    Convolution,
    /// scatter: the root of a scatter fusion.
    Scatter,
    /// Ops that become a kernel of their own (sort, reduce_window,
    /// select_and_scatter, dynamic_update_slice, ...).
    Standalone,
    /// Not fused: control flow, custom calls, terminators, non-HLO ops.
    Opaque,
}

const CHEAP_ELEMENTWISE: &[&str] = &[
    "abs",
    "complex",
    "imag",
    "real",
    "add",
    "and",
    "bitcast_convert",
    "ceil",
    "clamp",
    "compare",
    "convert",
    "count_leading_zeros",
    "floor",
    "is_finite",
    "maximum",
    "minimum",
    "multiply",
    "negate",
    "not",
    "or",
    "popcnt",
    "reduce_precision",
    "round_nearest_afz",
    "round_nearest_even",
    "select",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "sign",
    "subtract",
    "xor",
    "real",
    "imag",
    "complex",
];

/// XLA's `IsExpensive` set, as far as StableHLO spells it.
const EXPENSIVE_ELEMENTWISE: &[&str] = &[
    "atan2",
    "cbrt",
    "cosine",
    "divide",
    "exponential",
    "exponential_minus_one",
    "log",
    "log_plus_one",
    "logistic",
    "power",
    "remainder",
    "rsqrt",
    "sine",
    "sqrt",
    "tan",
    "tanh",
];

const MOVEMENT: &[&str] =
    &["broadcast", "broadcast_in_dim", "concatenate", "dynamic_slice", "gather", "pad", "reshape", "reverse", "slice", "transpose"];

// Sort is a kernel of its own (XLA:CPU's sort thunk): nothing fuses into it.
const STANDALONE: &[&str] = &["dynamic_update_slice", "reduce_window", "select_and_scatter", "batch_norm_inference", "sort", "map"];

/// Ops of the stablehlo dialect that no floor compiles yet. They parse and
/// verify (and `--emit hlo` prints them); `floors-fuse` then refuses them at
/// the op with [`not_supported`], before any floor sees them.
pub const NOT_COMPILED: &[&str] = &[
    // tokens and host transfers
    "create_token",
    "after_all",
    "infeed",
    "outfeed",
    "send",
    "recv",
    // collectives and process ids
    "replica_id",
    "partition_id",
    "all_gather",
    "all_reduce",
    "reduce_scatter",
    "all_to_all",
    "collective_broadcast",
    "collective_reduce",
    "collective_permute",
    "async_start",
    "async_done",
    // expanders XLA has and floors has not yet
    "batch_norm_grad",
    "batch_norm_training",
    "rng",
    // linear algebra, FFT
    "cholesky",
    "triangular_solve",
    "fft",
    // dynamic shapes
    "dynamic_broadcast_in_dim",
    "dynamic_iota",
    "dynamic_reshape",
    "dynamic_pad",
    "real_dynamic_slice",
    "dynamic_gather",
    "dynamic_conv",
    // quantization
    "uniform_quantize",
    "uniform_dequantize",
];

/// The diagnostic for an op no floor compiles (`name` is the full op name).
pub fn not_supported(name: &str) -> String {
    format!("'{name}' is not supported yet: floors cannot compile this op")
}

/// The stablehlo ops the CPU floor compiles on complex numbers (without the
/// prefix). Any other op on complex values is refused here; the GPU and TPU
/// floors refuse complex values at their own lowering.
pub const COMPLEX_OPS: &[&str] = &[
    "abs",
    "add",
    "broadcast_in_dim",
    "compare",
    "complex",
    "concatenate",
    "constant",
    "convert",
    "cosine",
    "custom_call",
    "divide",
    "dot",
    "dot_general",
    "dynamic_slice",
    "dynamic_update_slice",
    "exponential",
    "exponential_minus_one",
    "gather",
    "get_tuple_element",
    "if",
    "case",
    "imag",
    "iota",
    "log",
    "log_plus_one",
    "multiply",
    "negate",
    "optimization_barrier",
    "pad",
    "power",
    "real",
    "reduce",
    "reduce_window",
    "reshape",
    "return",
    "scatter",
    "reverse",
    "rsqrt",
    "select",
    "sign",
    "sine",
    "slice",
    "sort",
    "sqrt",
    "subtract",
    "tan",
    "tanh",
    "transpose",
    "tuple",
    "while",
];

/// Why no floor can compile `op`, if none can: its name is in
/// [`NOT_COMPILED`], one of its values has quantized elements, or complex
/// ones and it is not one of [`COMPLEX_OPS`].
pub fn unsupported_reason(op: MlirOperation) -> Option<String> {
    let name = raw::name(op);
    // Shardy ops left by `floors-hlo-drop-one-device-shardings`: a program
    // sharded over several devices.
    if name.starts_with("sdy.") {
        let mesh = raw::attr(op, "mesh").map(|a| {
            // SAFETY: `a` is the `mesh` attribute of a live sdy.mesh, a StringAttr (its ODS definition).
            raw::string(unsafe { mlirStringAttrGetValue(a) })
        });
        let what = mesh.map_or(String::new(), |m| format!(" {m}"));
        return Some(format!(
            "'{name}'{what}: a program sharded over several devices is not supported yet (floors runs one device; \
             shardings over a one-device mesh are dropped)"
        ));
    }
    let short = name.strip_prefix("stablehlo.")?;
    if NOT_COMPILED.contains(&short) {
        return Some(not_supported(&name));
    }
    for v in raw::operands(op).into_iter().chain(raw::results(op)) {
        // SAFETY: `v` is an operand or result of `op`, a live op of the module being checked.
        let t = unsafe { mlirValueGetType(v) };
        // SAFETY: `t` is `v`'s type; the element type is asked only of a shaped type, as the getter requires.
        let e = unsafe { if mlirTypeIsAShaped(t) { mlirShapedTypeGetElementType(t) } else { t } };
        // SAFETY: `e` is a live type (the element type read above, or `t` itself).
        let what = if unsafe { mlirTypeIsAComplex(e) } {
            if COMPLEX_OPS.contains(&short) {
                continue;
            }
            "complex numbers"
        } else if raw::type_text(e).starts_with("!quant.") {
            "quantized types"
        } else {
            continue;
        };
        return Some(format!("'{name}' on element type {} is not supported yet: floors cannot compile {what}", raw::type_text(e)));
    }
    None
}

pub fn classify_name(name: &str) -> OpClass {
    // XLA keeps TopK an op of its own (kTopK), computed by a selection:
    // floors keeps `chlo.top_k` through fusion, a kernel of its own.
    if name == "chlo.top_k" {
        return OpClass::Standalone;
    }
    let Some(short) = name.strip_prefix("stablehlo.") else {
        return OpClass::Opaque;
    };
    match short {
        "constant" | "iota" => OpClass::Leaf,
        "reduce" => OpClass::Reduce,
        "dot_general" | "dot" => OpClass::Dot,
        "convolution" => OpClass::Convolution,
        "scatter" => OpClass::Scatter,
        s if CHEAP_ELEMENTWISE.contains(&s) => OpClass::Elementwise { expensive: false },
        s if EXPENSIVE_ELEMENTWISE.contains(&s) => OpClass::Elementwise { expensive: true },
        s if MOVEMENT.contains(&s) => OpClass::Movement,
        s if STANDALONE.contains(&s) => OpClass::Standalone,
        _ => OpClass::Opaque,
    }
}

/// The class of an op; ops on non-tensor or dynamically shaped values are opaque.
pub fn classify(op: MlirOperation) -> OpClass {
    let class = classify_name(&raw::name(op));
    if class == OpClass::Opaque {
        return class;
    }
    let all_static = raw::results(op).iter().chain(raw::operands(op).iter()).all(|&v| raw::shape(v).is_some());
    if !all_static || !raw::regions_are_closed(op) {
        return OpClass::Opaque;
    }
    // A bitcast_convert between widths adds or drops a minor dimension: it
    // moves data like a reshape rather than keeping its operand's shape, which
    // the fusion rules assume of an elementwise op.
    if class == (OpClass::Elementwise { expensive: false })
        && raw::name(op) == "stablehlo.bitcast_convert"
        && raw::operands(op).first().map(|&v| raw::shape(v)) != raw::results(op).first().map(|&v| raw::shape(v))
    {
        return OpClass::Movement;
    }
    class
}

/// Everything a floor needs to know about one `floors.fusion`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FusionInfo {
    pub kind: FusionKind,
    /// The op that decides the emitter (name), e.g. `stablehlo.reduce`.
    pub hero: String,
    /// Names of the ops whose values the fusion yields.
    pub roots: Vec<String>,
    /// Ops in the body, terminator excluded.
    pub op_count: usize,
    pub bytes_in: u64,
    pub bytes_out: u64,
}

/// A fusion that only transposes its one input: `floors.fusion (x) {
/// transpose(arg 0); yield it }`.
pub struct TransposeOnly {
    /// The fusion's input.
    pub input: MlirValue,
    /// Result dim i is input dim `permutation[i]`.
    pub permutation: Vec<i64>,
    /// The `stablehlo.transpose` in its body.
    pub transpose: MlirOperation,
    pub fusion: MlirOperation,
}

/// The transpose-only fusion that produces `v`, if `v` is its (only) result:
/// what XLA's TransposeFolding folds into a dot's operand.
pub fn transpose_only_fusion(v: MlirValue) -> Option<TransposeOnly> {
    let fusion = raw::producer(v).filter(|&p| raw::name(p) == "floors.fusion")?;
    if raw::operands(fusion).len() != 1 || raw::results(fusion).len() != 1 {
        return None;
    }
    let body = *raw::region_blocks(fusion).first()?;
    let ops = raw::block_ops(body);
    let [t, y] = ops.as_slice() else { return None };
    // SAFETY: `t` is a live op of the fusion's body (from `block_ops` above); the block-argument getters run only
    // once `x` is known to be a block argument (`&&` short-circuits).
    let reads_input = unsafe {
        let x = raw::operands(*t).first().copied()?;
        mlirValueIsABlockArgument(x) && mlirBlockArgumentGetOwner(x).ptr == body.ptr && mlirBlockArgumentGetArgNumber(x) == 0
    };
    let yields_it = raw::operands(*y).first().is_some_and(|&r| raw::same_value(r, raw::results(*t)[0]));
    (raw::name(*t) == "stablehlo.transpose" && reads_input && yields_it).then(|| TransposeOnly {
        input: raw::operands(fusion)[0],
        permutation: raw::i64_array(*t, "permutation").unwrap_or_default(),
        transpose: *t,
        fusion,
    })
}

/// Derives kind and hero from a fusion's body, by XLA's decision order:
/// an explicit kind (gemm, convolution, custom) set by the pass that formed the
/// fusion wins; then a reduction hero; a transpose that moves the minor
/// dimension; several roots that are all slices; a single scatter root; a
/// concatenate root with at most 4 operands; else loop.
pub fn analyze(fusion: MlirOperation) -> FusionInfo {
    // SAFETY: every caller passes a live `floors.fusion` op (it checks the op's name first), which the shim's
    // `cast<FusionOp>` requires.
    let explicit = unsafe { floors_ir::dialects::FusionKind::from_c_public(floors_ir::capi::floorsFusionGetKind(fusion)) };
    let body = raw::region_blocks(fusion);
    let ops: Vec<MlirOperation> = body.first().map(|&b| raw::block_ops(b)).unwrap_or_default();
    let (body_ops, yield_op) = match ops.split_last() {
        Some((y, rest)) => (rest.to_vec(), Some(*y)),
        None => (vec![], None),
    };
    let roots: Vec<MlirOperation> = yield_op.map(|y| raw::operands(y).into_iter().filter_map(raw::producer).collect()).unwrap_or_default();
    let names = |v: &[MlirOperation]| v.iter().map(|&o| raw::name(o)).collect::<Vec<_>>();
    let bytes_in = raw::operands(fusion).iter().map(|&v| raw::value_bytes(v)).sum();
    let bytes_out = raw::results(fusion).iter().map(|&v| raw::value_bytes(v)).sum();
    let (kind, hero) = derive_kind(explicit, &body_ops, &roots);
    FusionInfo {
        kind,
        hero: hero.map(raw::name).unwrap_or_else(|| "none".into()),
        roots: names(&roots),
        op_count: body_ops.len(),
        bytes_in,
        bytes_out,
    }
}

/// The decision order itself, on a list of body ops and the root ops.
pub fn derive_kind(explicit: FusionKind, body_ops: &[MlirOperation], roots: &[MlirOperation]) -> (FusionKind, Option<MlirOperation>) {
    let find = |class: OpClass| body_ops.iter().copied().find(|&o| classify_name(&raw::name(o)) == class);
    match explicit {
        FusionKind::Custom => return (FusionKind::Custom, roots.first().copied()),
        FusionKind::Gemm => return (FusionKind::Gemm, find(OpClass::Dot)),
        FusionKind::Convolution => return (FusionKind::Convolution, find(OpClass::Convolution)),
        _ => {}
    }
    if let Some(d) = find(OpClass::Dot) {
        return (FusionKind::Gemm, Some(d));
    }
    if let Some(c) = find(OpClass::Convolution) {
        return (FusionKind::Convolution, Some(c));
    }
    if let Some(r) = find(OpClass::Reduce) {
        return (FusionKind::Reduction, Some(r));
    }
    let minor_transpose = body_ops.iter().copied().find(|&o| {
        raw::name(o) == "stablehlo.transpose"
            && raw::i64_array(o, "permutation").is_some_and(|p| !p.is_empty() && p[p.len() - 1] != p.len() as i64 - 1)
    });
    if let Some(t) = minor_transpose {
        return (FusionKind::Transpose, Some(t));
    }
    let unique_roots: Vec<MlirOperation> = {
        let mut seen = HashSet::new();
        roots.iter().copied().filter(|o| seen.insert(o.ptr)).collect()
    };
    if unique_roots.len() > 1 && unique_roots.iter().all(|&o| raw::name(o) == "stablehlo.slice") {
        return (FusionKind::InputSlices, unique_roots.first().copied());
    }
    if unique_roots.len() == 1 && raw::name(unique_roots[0]) == "stablehlo.scatter" {
        return (FusionKind::Scatter, Some(unique_roots[0]));
    }
    if let Some(&c) = unique_roots.iter().find(|&&o| raw::name(o) == "stablehlo.concatenate")
        && raw::operands(c).len() <= 4
    {
        return (FusionKind::Concatenate, Some(c));
    }
    (FusionKind::Loop, unique_roots.first().copied().or_else(|| body_ops.last().copied()))
}

/// Recomputes every fusion's kind and hero from its body and compares them
/// with what is stored on the op; returns one message per disagreement.
pub fn check_kinds(module: MlirOperation) -> Vec<String> {
    let mut problems = Vec::new();
    fn walk(op: MlirOperation, problems: &mut Vec<String>) {
        for b in raw::region_blocks(op) {
            for inner in raw::block_ops(b) {
                if raw::name(inner) == "floors.fusion" {
                    // SAFETY: `inner` is a live op whose name was just checked to be `floors.fusion`, as the shim's
                    // `cast<FusionOp>` requires.
                    let stored = FusionKind::from_c_public(unsafe { floors_ir::capi::floorsFusionGetKind(inner) });
                    let body: Vec<MlirOperation> = raw::region_blocks(inner).into_iter().flat_map(raw::block_ops).collect();
                    let (body_ops, yield_op) = match body.split_last() {
                        Some((y, rest)) => (rest.to_vec(), *y),
                        None => continue,
                    };
                    let roots: Vec<MlirOperation> = raw::operands(yield_op).into_iter().filter_map(raw::producer).collect();
                    let (kind, hero) = derive_kind(FusionKind::Loop, &body_ops, &roots);
                    let stored_hero = raw::attr(inner, "hero")
                        // SAFETY: `a` is a non-null attribute of the live op `inner` (`raw::attr` returns only
                        // non-null ones).
                        .filter(|a| unsafe { mlirAttributeIsAString(*a) })
                        // SAFETY: `a` passed the string-attribute check just above, as the getter assumes;
                        // `raw::string` copies the text while `inner` lives.
                        .map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) }));
                    let hero = hero.map(raw::name);
                    if kind != stored || hero != stored_hero {
                        problems.push(format!(
                            "fusion at {}: stored {} {:?}, recomputed {} {:?}",
                            raw::location_string(inner),
                            stored.as_str(),
                            stored_hero,
                            kind.as_str(),
                            hero
                        ));
                    }
                } else {
                    walk(inner, problems);
                }
            }
        }
    }
    walk(module, &mut problems);
    problems
}

/// One line per fusion plus totals, for `floors compile --fusion-report`.
#[derive(Clone, Debug, Default)]
pub struct FusionReport {
    pub fusions: Vec<(String, FusionInfo)>,
    /// Compute ops left outside any fusion (each is a kernel of its own).
    pub unfused_ops: Vec<String>,
    /// Control-flow ops (thunks that run other kernels, not kernels themselves).
    pub control_flow_ops: usize,
    /// Bytes of values one kernel writes and another reads.
    pub intermediate_bytes: u64,
    /// Why a fusion holds more than XLA:CPU would put in one kernel.
    pub notes: Vec<String>,
}

impl FusionReport {
    pub fn kernels(&self) -> usize {
        self.fusions.len() + self.unfused_ops.len()
    }
}

fn is_control_flow(name: &str) -> bool {
    matches!(name, "stablehlo.while" | "stablehlo.case" | "stablehlo.if" | "scf.while" | "scf.if")
}

/// Builds the report over every function of a module.
pub fn report(module: MlirOperation) -> FusionReport {
    let mut rep = FusionReport::default();
    fn walk(block: MlirBlock, rep: &mut FusionReport) {
        for op in raw::block_ops(block) {
            let name = raw::name(op);
            if name == "floors.fusion" {
                let info = analyze(op);
                // Values this kernel writes that another kernel reads.
                for v in raw::results(op) {
                    let consumed_by_kernel = raw::uses(v).iter().any(|(user, _)| {
                        let n = raw::name(*user);
                        n != "func.return" && n != "stablehlo.return"
                    });
                    if consumed_by_kernel {
                        rep.intermediate_bytes += raw::value_bytes(v);
                    }
                }
                let body: Vec<MlirOperation> = raw::region_blocks(op).into_iter().flat_map(raw::block_ops).collect();
                let reductions = body.iter().filter(|&&o| raw::name(o) == "stablehlo.reduce").count();
                let index = rep.fusions.len();
                if reductions > 1 {
                    rep.notes.push(format!(
                        "fusion {index}: {reductions} reductions over the same rows run row by row in one kernel \
                         (XLA:CPU launches one kernel per reduction)"
                    ));
                }
                if info.kind == FusionKind::Gemm || info.kind == FusionKind::Convolution {
                    let epilogue = info.op_count.saturating_sub(1);
                    if epilogue > 0 {
                        rep.notes.push(format!(
                            "fusion {index}: the {} takes its elementwise epilogue ({epilogue} ops) as output fusion",
                            info.hero
                        ));
                    }
                }
                rep.fusions.push((raw::location_string(op), info));
                continue;
            }
            if is_control_flow(&name) {
                rep.control_flow_ops += 1;
                for b in raw::region_blocks(op) {
                    walk(b, rep);
                }
                continue;
            }
            if name == "func.func" {
                for b in raw::region_blocks(op) {
                    walk(b, rep);
                }
                continue;
            }
            let ignorable = matches!(name.as_str(), "func.return" | "stablehlo.return" | "stablehlo.constant" | "builtin.module");
            if !ignorable {
                rep.unfused_ops.push(name.clone());
                for v in raw::results(op) {
                    if raw::uses(v).iter().any(|(u, _)| raw::name(*u) != "func.return") {
                        rep.intermediate_bytes += raw::value_bytes(v);
                    }
                }
            }
        }
    }
    for b in raw::region_blocks(module) {
        walk(b, &mut rep);
    }
    rep
}

impl std::fmt::Display for FusionReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (loc, info)) in self.fusions.iter().enumerate() {
            writeln!(
                f,
                "fusion {i}: kind={} hero={} ops={} bytes_in={} bytes_out={} roots=[{}] at {loc}",
                info.kind.as_str(),
                info.hero,
                info.op_count,
                info.bytes_in,
                info.bytes_out,
                info.roots.join(", ")
            )?;
        }
        for op in &self.unfused_ops {
            writeln!(f, "unfused: {op}")?;
        }
        for note in &self.notes {
            writeln!(f, "note: {note}")?;
        }
        write!(
            f,
            "totals: kernels={} fusions={} unfused_ops={} control_flow_ops={} intermediate_bytes={}",
            self.kernels(),
            self.fusions.len(),
            self.unfused_ops.len(),
            self.control_flow_ops,
            self.intermediate_bytes
        )
    }
}
