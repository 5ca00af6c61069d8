//! `floors-gpu-rewrite-gemm{mode=auto|library|emitter}`: XLA's GemmRewriter
//! for the GPU floor. Per gemm fusion (a `stablehlo.dot_general` hero plus
//! its elementwise epilogue, `floors-hlo-fuse`), decides whether cuBLAS
//! computes the dot, and records why on the fusion
//! (`floors.gpu_gemm = "library" | "emitter"`, `floors.gpu_gemm_reason`).
//!
//! **Eligible** (what a `GemmSpec` can express): lhs, rhs and result of one
//! element type among f32, f64, f16, bf16 (cuBLAS accumulates half types in
//! f32); batch dimensions leading and in order on both operands (`[0, B)`);
//! after them, lhs is `[free..., contracting...]` (stored m×k) or
//! `[contracting..., free...]` (k×m, `transpose_lhs`), rhs
//! `[contracting..., free...]` (k×n) or `[free..., contracting...]` (n×k,
//! `transpose_rhs`), contracting dimensions listed in ascending order on
//! both sides (several free or contracting dimensions flatten row-major);
//! each operand a fusion input, seen through `stablehlo.reshape`s (same
//! bytes) and at most one `stablehlo.broadcast_in_dim` that adds exactly the
//! batch dimensions (one matrix for every batch: batch stride 0); no empty
//! dimension; m, n, k and the batch within cuBLAS's 32-bit arguments.
//! Anything else stays on floors' emitter with the reason recorded.
//!
//! **Transpose folding** (XLA's TransposeFolding): an operand produced by a
//! fusion that only swaps its one input's two minor dimensions (attention's
//! `transpose(K)`) is read from that input with the operand's transpose
//! flag flipped; the transpose fusion is erased when nothing else reads it.
//!
//! **Modes** (the `mode` option, else the module's `floors.gpu_gemm_mode`
//! that the driver sets from `--gpu-gemm`, else `auto`):
//! - `library`: every eligible dot;
//! - `auto`: XLA's rule (`gemm_rewriter.cc`, `IsMatrixMultiplicationTooSmallForRewriting`
//!   with `xla_gpu_gemm_rewrite_size_threshold = 100`): an eligible dot with
//!   `(m + n) · k ≥ 100` (below that, a fused elemental loop beats a library
//!   launch: the product is a few hundred multiply-adds); floors' own tiled
//!   GEMM (`floors-gpu-emit-gemm`: SIMT, or mma.sync for f16/bf16) has no
//!   cp.async pipelining yet, so the library is preferred above XLA's
//!   threshold too;
//! - `emitter`: never.
//!
//! **Rewrite** of a library dot: the dot (with the reshapes/broadcast it is
//! seen through) becomes a fusion of its own, operands `(lhs, rhs)`, stamped
//! `floors.gpu_gemm = "library"` and carrying `floors.library_call` (the
//! `GemmSpec` less its buffers); the host program turns it into
//! `ThunkSpec::Gemm` and `floors-linalg-lower-stablehlo` /
//! `floors-linalg-outline-kernels` leave it alone. The epilogue, if any,
//! becomes a second (loop) fusion reading the product. XLA folds a bias and
//! alpha into cuBLAS's epilogue (`__cublas$lt$matmul`); splitting is the
//! simple, correct first step: the epilogue costs one extra pass over the
//! product.
//!
//! Runs on the fused module, before `floors-gpu-select-emitter` (which maps
//! the stamp to the `cublas` emitter kind).

use melior::ir::OperationRef;
use mlir_sys::*;

use floors_ir::{
    contract::{GPU_GEMM_ATTR, GPU_GEMM_MODE_ATTR, GPU_GEMM_REASON_ATTR, LIBRARY_CALL_ATTR},
    dialects::{FusionKind, stablehlo::DotGeneralOp},
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

use floors_hlo::fusion_analysis;

/// XLA's `xla_gpu_gemm_rewrite_size_threshold`: `auto` sends a dot to the
/// library when `(m + n) · k` reaches it.
pub const AUTO_MIN_SIZE: u64 = 100;

/// Who computes the GPU floor's dots (`--gpu-gemm`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GemmMode {
    /// XLA's rule: eligible dots with `(m + n) · k ≥ 100` go to cuBLAS.
    #[default]
    Auto,
    /// Every eligible dot goes to cuBLAS.
    Library,
    /// floors' own GEMM kernel for every dot.
    Emitter,
}

impl GemmMode {
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(Self::Auto),
            "library" => Ok(Self::Library),
            "emitter" => Ok(Self::Emitter),
            other => Err(format!("unknown gemm mode `{other}`: expected auto, library or emitter")),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Library => "library",
            Self::Emitter => "emitter",
        }
    }
}

#[derive(Clone, Default)]
pub struct GpuRewriteGemm {
    mode: Option<GemmMode>,
}

/// A dot as a row-major batched gemm (a `GemmSpec` less its buffers): the
/// element type and the runtime's shape, which `#floors.library_call` holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GemmShape {
    /// `f32`, `f64`, `f16` or `bf16`.
    pub element_type: String,
    pub shape: floors_runtime::gemm::GemmShape,
}

impl GemmShape {
    fn describe(&self) -> String {
        let s = &self.shape;
        format!(
            "{} {}x{}x{}x{}{}{}",
            self.element_type,
            s.batch,
            s.m,
            s.n,
            s.k,
            if s.transpose_lhs { " lhsT" } else { "" },
            if s.transpose_rhs { " rhsT" } else { "" }
        )
    }

    /// XLA's size measure: `(m + n) · k`.
    pub fn size(&self) -> u64 {
        (self.shape.m + self.shape.n).saturating_mul(self.shape.k)
    }
}

/// An eligible dot inside its fusion.
struct Plan {
    dot: MlirOperation,
    /// Per operand: the value the library fusion reads (an input of the
    /// fusion, or what a folded transpose fusion transposes) and the ops
    /// between it and the dot, innermost (nearest the value) first.
    operands: [(MlirValue, Vec<MlirOperation>); 2],
    shape: GemmShape,
    /// Transpose fusions folded into the call (erased once unused).
    folded: Vec<MlirOperation>,
}

impl FloorsPass for GpuRewriteGemm {
    const ARGUMENT: &'static str = "floors-gpu-rewrite-gemm";
    const NAME: &'static str = "FloorsGpuRewriteGemm";
    const DESCRIPTION: &'static str =
        "Send eligible dots to cuBLAS (XLA's GemmRewriter): a library fusion per dot, its epilogue a loop fusion; record why";
    const OPTIONS: &'static [(&'static str, &'static str)] = &[(
        "mode",
        "auto (XLA's size rule), library (every eligible dot) or emitter (none); default: the module's floors.gpu_gemm_mode, else auto",
    )];

    fn new() -> Self {
        Self::default()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name != "mode" {
            return Err(format!("unknown option `{name}`"));
        }
        self.mode = if value.is_empty() { None } else { Some(GemmMode::parse(value)?) };
        Ok(())
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        super::refuse_complex(root)?;
        let mode = match self.mode {
            Some(m) => m,
            None => match raw::attr(root, GPU_GEMM_MODE_ATTR) {
                // SAFETY: `a` is the non-null `floors.gpu_gemm_mode` of the live module `root`; its value is read only
                // after `mlirAttributeIsAString`.
                Some(a) if unsafe { mlirAttributeIsAString(a) } => GemmMode::parse(&raw::string(unsafe { mlirStringAttrGetValue(a) }))
                    .map_err(|e| fail(root, format!("{GPU_GEMM_MODE_ATTR}: {e}")))?,
                Some(a) => return Err(fail(root, format!("{GPU_GEMM_MODE_ATTR} must be a string, not {}", raw::attr_text(a)))),
                None => GemmMode::Auto,
            },
        };
        for f in super::collect_fusions(root) {
            // SAFETY: `f` is a live `floors.fusion` (from `collect_fusions`), the op kind the C getter casts to; fusions
            // are rewritten in pre-order, and the only other ops `rewrite` destroys (folded transpose fusions, which
            // produce `f`'s operands) precede `f` in the list.
            if FusionKind::from_c_public(unsafe { floors_ir::capi::floorsFusionGetKind(f) }) != FusionKind::Gemm {
                continue;
            }
            let (library, reason) = match (mode, analyze(f)) {
                (GemmMode::Emitter, _) => (None, "--gpu-gemm emitter: floors' GEMM emitter for every dot".to_string()),
                (_, Err(why)) => (None, format!("not a cuBLAS gemm: {why}")),
                (GemmMode::Auto, Ok(p)) if p.shape.size() < AUTO_MIN_SIZE => (
                    None,
                    format!(
                        "auto: {} is small, (m+n)*k = {} < {AUTO_MIN_SIZE} (XLA's rewrite threshold)",
                        p.shape.describe(),
                        p.shape.size()
                    ),
                ),
                (GemmMode::Auto, Ok(p)) => {
                    let why = format!("auto: cuBLAS gemm {}, (m+n)*k = {} >= {AUTO_MIN_SIZE}", p.shape.describe(), p.shape.size());
                    (Some(p), why)
                }
                (GemmMode::Library, Ok(p)) => {
                    let why = format!("library: cuBLAS gemm {}", p.shape.describe());
                    (Some(p), why)
                }
            };
            match library {
                Some(p) => rewrite(f, p, &reason)?,
                None => stamp(f, "emitter", &reason),
            }
        }
        Ok(())
    }
}

fn set_str(op: MlirOperation, name: &str, value: &str) {
    // SAFETY: `op` is a live fusion; the string attribute is built in its context and both string refs point at Rust
    // strings that outlive the call (MLIR copies them).
    unsafe { mlirOperationSetAttributeByName(op, sref(name), mlirStringAttrGet(mlirOperationGetContext(op), sref(value))) };
}

fn stamp(f: MlirOperation, how: &str, reason: &str) {
    set_str(f, GPU_GEMM_ATTR, how);
    set_str(f, GPU_GEMM_REASON_ATTR, reason);
}

fn body_of(f: MlirOperation) -> MlirBlock {
    // SAFETY: every caller passes a live `floors.fusion`, which has one region holding its body block.
    unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0)) }
}

/// The block-argument index of `v` in `block`, if it is one.
fn arg_index(v: MlirValue, block: MlirBlock) -> Option<usize> {
    // SAFETY: `v` is a live value; its owner and number are read only once it is known to be a block argument.
    unsafe {
        if !mlirValueIsABlockArgument(v) || mlirBlockArgumentGetOwner(v).ptr != block.ptr {
            return None;
        }
        Some(mlirBlockArgumentGetArgNumber(v) as usize)
    }
}

fn element_type(v: MlirValue) -> String {
    // SAFETY: `v` is a live operand or result of a stablehlo.dot_general, a tensor, hence of a shaped type.
    raw::type_text(unsafe { mlirShapedTypeGetElementType(mlirValueGetType(v)) })
}

/// Why the fusion's dot is not a cuBLAS gemm, or its plan.
fn analyze(f: MlirOperation) -> Result<Plan, String> {
    let body = body_of(f);
    let ops = raw::block_ops(body);
    let dots: Vec<MlirOperation> =
        ops.iter().copied().filter(|&o| matches!(raw::name(o).as_str(), "stablehlo.dot_general" | "stablehlo.dot")).collect();
    let dot = match dots.as_slice() {
        [d] => *d,
        _ => return Err(format!("{} dots in the fusion (one expected)", dots.len())),
    };
    let Some(view) = DotGeneralOp::cast(dot) else {
        return Err(format!("'{}' is not a stablehlo.dot_general", raw::name(dot)));
    };
    let dims = view.dimension_numbers().ok_or("unreadable dot_dimension_numbers")?;
    let (lhs, rhs, out) = match (raw::operands(dot).as_slice(), raw::results(dot).as_slice()) {
        ([l, r], [o]) => (*l, *r, *o),
        _ => return Err("a dot_general without two operands and one result".into()),
    };
    let (lt, rt, ot) = (element_type(lhs), element_type(rhs), element_type(out));
    if lt != rt || lt != ot {
        return Err(format!("mixed element types {lt} x {rt} -> {ot} (a GemmSpec has one)"));
    }
    if !matches!(lt.as_str(), "f32" | "f64" | "f16" | "bf16") {
        return Err(format!("element type {lt} (cuBLAS gemms here: f32, f64, f16, bf16)"));
    }
    let (Some(ls), Some(rs)) = (raw::shape(lhs), raw::shape(rhs)) else {
        return Err("an operand without a static shape".into());
    };
    if ls.iter().chain(&rs).any(|&d| d <= 0) {
        return Err("an empty or dynamic dimension".into());
    }
    let nb = dims.lhs_batching_dims.len();
    let leading: Vec<i64> = (0..nb as i64).collect();
    if dims.lhs_batching_dims != leading || dims.rhs_batching_dims != leading {
        return Err(format!(
            "batch dimensions {:?} x {:?} do not lead in order (a GemmSpec's batch is the leading dimensions)",
            dims.lhs_batching_dims, dims.rhs_batching_dims
        ));
    }
    let (lc, rc) = (&dims.lhs_contracting_dims, &dims.rhs_contracting_dims);
    if !lc.windows(2).all(|w| w[0] < w[1]) || !rc.windows(2).all(|w| w[0] < w[1]) {
        return Err(format!("contracting dimensions {lc:?} x {rc:?} are not both in ascending order"));
    }
    let nc = lc.len();
    let prod = |s: &[i64], r: std::ops::Range<usize>| s[r].iter().map(|&d| d as u64).product::<u64>();
    let span = |start: usize| (start as i64..(start + nc) as i64).collect::<Vec<i64>>();
    let (lr, rr) = (ls.len(), rs.len());
    // lhs: [batch, free..., contracting...] or [batch, contracting..., free...].
    let transpose_lhs = if *lc == span(lr - nc) {
        false
    } else if *lc == span(nb) {
        true
    } else {
        return Err(format!("lhs contracting dimensions {lc:?} are neither the last nor right after the batch dimensions"));
    };
    // rhs: [batch, contracting..., free...] or [batch, free..., contracting...].
    let transpose_rhs = if *rc == span(nb) {
        false
    } else if *rc == span(rr - nc) {
        true
    } else {
        return Err(format!("rhs contracting dimensions {rc:?} are neither right after the batch dimensions nor the last"));
    };
    let batch = prod(&ls, 0..nb);
    let k = prod(&ls, if transpose_lhs { nb..nb + nc } else { lr - nc..lr });
    let m = prod(&ls, if transpose_lhs { nb + nc..lr } else { nb..lr - nc });
    let n = prod(&rs, if transpose_rhs { nb..rr - nc } else { nb + nc..rr });
    if [batch, m, n, k].iter().any(|&v| v > i32::MAX as u64) {
        return Err(format!("{batch}x{m}x{n}x{k} exceeds cuBLAS's 32-bit sizes"));
    }
    let (l_arg, l_chain, l_broadcast) = trace_operand(lhs, body, nb, "lhs")?;
    let (r_arg, r_chain, r_broadcast) = trace_operand(rhs, body, nb, "rhs")?;
    let inputs = raw::operands(f);
    let mut folded = Vec::new();
    let mut side = |arg: usize, chain: Vec<MlirOperation>, rank: usize, flag: &mut bool| match folded_transpose(inputs[arg], &chain, rank) {
        Some((x, t, fusion)) => {
            *flag = !*flag;
            folded.push(fusion);
            (x, vec![t])
        }
        None => (inputs[arg], chain),
    };
    let (mut transpose_lhs, mut transpose_rhs) = (transpose_lhs, transpose_rhs);
    let l = side(l_arg, l_chain, lr, &mut transpose_lhs);
    let r = side(r_arg, r_chain, rr, &mut transpose_rhs);
    let shape = GemmShape {
        element_type: lt,
        shape: floors_runtime::gemm::GemmShape {
            batch,
            m,
            n,
            k,
            transpose_lhs,
            transpose_rhs,
            lhs_batch_stride: if l_broadcast { 0 } else { m * k },
            rhs_batch_stride: if r_broadcast { 0 } else { k * n },
        },
    };
    Ok(Plan { dot, operands: [l, r], shape, folded })
}

/// XLA's TransposeFolding for a library gemm: when a dot operand (`rank`
/// dimensions, read straight from a fusion input) is the result of a
/// fusion that only swaps the two minor dimensions of its one input, cuBLAS
/// reads that input with the operand's transpose flag flipped (stored n×k
/// instead of k×n is the same matrix), and the transpose fusion goes once
/// nothing else reads it. Returns (its input, the transpose, the fusion).
fn folded_transpose(v: MlirValue, chain: &[MlirOperation], rank: usize) -> Option<(MlirValue, MlirOperation, MlirOperation)> {
    if !chain.is_empty() || rank < 2 {
        return None;
    }
    let t = fusion_analysis::transpose_only_fusion(v)?;
    let swap: Vec<i64> = (0..rank as i64 - 2).chain([rank as i64 - 1, rank as i64 - 2]).collect();
    (t.permutation == swap).then_some((t.input, t.transpose, t.fusion))
}

/// Follows a dot operand back to a fusion input through reshapes and at
/// most one broadcast of the batch dimensions: (argument index, the ops
/// innermost first, whether a broadcast shares one matrix between batches).
fn trace_operand(v: MlirValue, body: MlirBlock, nb: usize, which: &str) -> Result<(usize, Vec<MlirOperation>, bool), String> {
    let mut chain = Vec::new();
    let mut broadcast = false;
    let mut cur = v;
    loop {
        if let Some(i) = arg_index(cur, body) {
            chain.reverse();
            return Ok((i, chain, broadcast));
        }
        let Some(p) = raw::producer(cur) else {
            return Err(format!("{which} is not a fusion input"));
        };
        match raw::name(p).as_str() {
            "stablehlo.reshape" => {}
            // Only the op feeding the dot may broadcast: it adds exactly the batch dimensions.
            "stablehlo.broadcast_in_dim" if chain.is_empty() && nb > 0 => {
                let src = raw::operands(p)[0];
                let (ss, ds) = (raw::shape(src).unwrap_or_default(), raw::shape(cur).unwrap_or_default());
                let dims = raw::i64_array(p, "broadcast_dimensions").unwrap_or_default();
                let trailing: Vec<i64> = (nb as i64..ds.len() as i64).collect();
                if dims != trailing || ss.as_slice() != &ds[nb.min(ds.len())..] {
                    return Err(format!("{which} is a broadcast_in_dim that does not add exactly the batch dimensions"));
                }
                broadcast = true;
            }
            other => return Err(format!("{which} is computed in the fusion ('{other}'), not read from a buffer")),
        }
        chain.push(p);
        cur = raw::operands(p)[0];
    }
}

/// Creates a `floors.fusion` with these operands, result types and body
/// region (taken from `region`), placed before `before`.
///
/// # Safety
///
/// `before` must be a live op in a block, `loc` a location and `operands`
/// live values of its context, `results` types of it, and `region` a live
/// region (its blocks move into the new op; `region` stays the caller's).
unsafe fn new_fusion(
    before: MlirOperation,
    loc: MlirLocation,
    operands: &[MlirValue],
    results: &[MlirType],
    region: MlirRegion,
) -> MlirOperation {
    // SAFETY: the caller guarantees what `# Safety` above states; the operand, result and attribute slices outlive the
    // calls that copy them, the region passed to the state is a fresh one owned by it, and the created op is inserted
    // into `before`'s block, which then owns it.
    unsafe {
        let ctx = mlirOperationGetContext(before);
        let mut st = mlirOperationStateGet(sref("floors.fusion"), loc);
        mlirOperationStateAddOperands(&mut st, operands.len() as isize, operands.as_ptr());
        mlirOperationStateAddResults(&mut st, results.len() as isize, results.as_ptr());
        let kind = floors_ir::capi::floorsFusionKindAttrGet(ctx, FusionKind::Loop.to_c_public());
        let named = [mlirNamedAttributeGet(mlirIdentifierGet(ctx, sref("kind")), kind)];
        mlirOperationStateAddAttributes(&mut st, 1, named.as_ptr());
        let owned = mlirRegionCreate();
        mlirRegionTakeBody(owned, region);
        mlirOperationStateAddOwnedRegions(&mut st, 1, [owned].as_ptr());
        let f = mlirOperationCreate(&mut st);
        mlirBlockInsertOwnedOperationBefore(raw::block_of(before), before, f);
        f
    }
}

/// Sets kind and hero from the body (the analysis `floors-hlo-fuse` uses).
fn derive_kind(f: MlirOperation) {
    let body = body_of(f);
    let ops: Vec<MlirOperation> = raw::block_ops(body).into_iter().filter(|&o| raw::name(o) != "floors.yield").collect();
    // SAFETY: `body` is the live body block of the fusion `f`, which ends in its `floors.yield` terminator.
    let term = unsafe { mlirBlockGetTerminator(body) };
    let roots: Vec<MlirOperation> = raw::operands(term).into_iter().filter_map(raw::producer).collect();
    let (kind, hero) = fusion_analysis::derive_kind(FusionKind::Loop, &ops, &roots);
    // SAFETY: `f` is a live `floors.fusion`, the op kind the C setter casts to.
    unsafe { floors_ir::capi::floorsFusionSetKind(f, kind.to_c_public()) };
    match hero {
        Some(h) => set_str(f, "hero", &raw::name(h)),
        // SAFETY: `f` is a live op; removing an absent attribute is a no-op.
        None => unsafe {
            mlirOperationRemoveAttributeByName(f, sref("hero"));
        },
    }
}

/// Erases ops of `body` (not the terminator) whose results are unused,
/// until none is left.
fn erase_dead(body: MlirBlock) {
    loop {
        // SAFETY: `body` is a live block with a terminator (a fusion body).
        let term = unsafe { mlirBlockGetTerminator(body) };
        let dead: Vec<MlirOperation> = raw::block_ops(body)
            .into_iter()
            .filter(|&o| o.ptr != term.ptr && raw::results(o).iter().all(|&r| raw::uses(r).is_empty()))
            .collect();
        if dead.is_empty() {
            return;
        }
        for o in dead.into_iter().rev() {
            // SAFETY: `o` is a live top-level op of `body` (not its terminator) whose results had no uses when listed;
            // destroying the others only drops uses they hold, so that still holds, and each op is destroyed once.
            unsafe { mlirOperationDestroy(o) };
        }
    }
}

/// The library fusion for `p` and, when the fusion computes more than the
/// dot, the epilogue fusion; `f` is replaced by them.
fn rewrite(f: MlirOperation, p: Plan, reason: &str) -> Result<(), PassFailure> {
    let body = body_of(f);
    let fusion_operands = raw::operands(f);
    let dot_out = raw::results(p.dot)[0];
    // SAFETY: `f` is the live gemm fusion and `p` was analyzed from it just before: `p.dot` and the operand chains are
    // live ops (of its body, or of a folded transpose fusion's), the operands' values live outside it. New ops are
    // cloned or created and appended to `gbody` (2 arguments, for the 2 operands), whose region `new_fusion` moves into
    // `g` before the then empty `gregion` is destroyed. The old terminator and the dot are destroyed once their uses
    // are moved, dead ops by `erase_dead`; block arguments are erased only unused, `f` (with what is left of its body)
    // once every use of its results is replaced, and a folded transpose fusion (one result) only once that is unused.
    unsafe {
        let ctx = mlirOperationGetContext(f);
        let dot_loc = mlirOperationGetLocation(p.dot);
        // The library fusion: (lhs, rhs) -> product, its body the dot and the
        // reshapes/broadcast it reads its operands through.
        let in_types: Vec<MlirType> = p.operands.iter().map(|(v, _)| mlirValueGetType(*v)).collect();
        let locs = [dot_loc, dot_loc];
        let gbody = mlirBlockCreate(2, in_types.as_ptr(), locs.as_ptr());
        let mut dot_operands = Vec::new();
        for (j, (_, chain)) in p.operands.iter().enumerate() {
            let mut cur = mlirBlockGetArgument(gbody, j as isize);
            for &op in chain {
                let c = mlirOperationClone(op);
                mlirOperationSetOperand(c, 0, cur);
                mlirBlockAppendOwnedOperation(gbody, c);
                cur = mlirOperationGetResult(c, 0);
            }
            dot_operands.push(cur);
        }
        let dot = mlirOperationClone(p.dot);
        mlirOperationSetOperand(dot, 0, dot_operands[0]);
        mlirOperationSetOperand(dot, 1, dot_operands[1]);
        mlirBlockAppendOwnedOperation(gbody, dot);
        let product = mlirOperationGetResult(dot, 0);
        let mut y = mlirOperationStateGet(sref("floors.yield"), dot_loc);
        mlirOperationStateAddOperands(&mut y, 1, [product].as_ptr());
        mlirBlockAppendOwnedOperation(gbody, mlirOperationCreate(&mut y));
        let gregion = mlirRegionCreate();
        mlirRegionAppendOwnedBlock(gregion, gbody);
        let outer: Vec<MlirValue> = p.operands.iter().map(|(v, _)| *v).collect();
        let g = new_fusion(f, dot_loc, &outer, &[mlirValueGetType(dot_out)], gregion);
        mlirRegionDestroy(gregion);
        derive_kind(g);
        stamp(g, "library", reason);
        let spec = floors_ir::library_call::gemm_attribute(ctx, &p.shape.shape)
            .ok_or_else(|| fail(f, format!("internal error: {LIBRARY_CALL_ATTR} of {:?} does not verify", p.shape.shape)))?;
        mlirOperationSetAttributeByName(g, sref(LIBRARY_CALL_ATTR), spec);
        let g_out = mlirOperationGetResult(g, 0);

        // The epilogue: the old body reading the product as a new input.
        let term = mlirBlockGetTerminator(body);
        let yielded = raw::operands(term);
        let from_dot: Vec<bool> = yielded.iter().map(|&v| raw::same_value(v, dot_out)).collect();
        let old_results = raw::results(f);
        let kept: Vec<MlirValue> = yielded.iter().zip(&from_dot).filter(|(_, d)| !**d).map(|(v, _)| *v).collect();
        let mut epilogue = None;
        if !kept.is_empty() {
            let arg = mlirBlockAddArgument(body, mlirValueGetType(dot_out), dot_loc);
            mlirValueReplaceAllUsesOfWith(dot_out, arg);
            // The yield keeps what the epilogue computes.
            let loc = mlirOperationGetLocation(term);
            let mut y = mlirOperationStateGet(sref("floors.yield"), loc);
            mlirOperationStateAddOperands(&mut y, kept.len() as isize, kept.as_ptr());
            mlirBlockInsertOwnedOperationBefore(body, term, mlirOperationCreate(&mut y));
            mlirOperationDestroy(term);
            mlirOperationDestroy(p.dot);
            erase_dead(body);
            // Inputs the epilogue no longer reads go.
            let mut operands: Vec<MlirValue> = Vec::new();
            let mut unused = Vec::new();
            for (i, outer) in fusion_operands.iter().copied().chain([g_out]).enumerate() {
                if raw::uses(mlirBlockGetArgument(body, i as isize)).is_empty() {
                    unused.push(i);
                } else {
                    operands.push(outer);
                }
            }
            for &i in unused.iter().rev() {
                mlirBlockEraseArgument(body, i as u32);
            }
            let types: Vec<MlirType> = kept.iter().map(|&v| mlirValueGetType(v)).collect();
            let e = new_fusion(f, mlirOperationGetLocation(f), &operands, &types, mlirOperationGetRegion(f, 0));
            derive_kind(e);
            epilogue = Some(e);
        }
        // Users of the old results read the product or the epilogue's results.
        let mut next = 0;
        for (r, d) in old_results.iter().zip(&from_dot) {
            let new = match (*d, epilogue) {
                (true, _) => g_out,
                (false, Some(e)) => {
                    next += 1;
                    mlirOperationGetResult(e, next - 1)
                }
                (false, None) => return Err(fail(f, "internal error: a kept result without an epilogue fusion")),
            };
            mlirValueReplaceAllUsesOfWith(*r, new);
        }
        mlirOperationDestroy(f);
        let mut folded = p.folded;
        folded.dedup_by(|a, b| a.ptr == b.ptr);
        for t in folded {
            if raw::uses(mlirOperationGetResult(t, 0)).is_empty() {
                mlirOperationDestroy(t);
            }
        }
    }
    Ok(())
}
