//! `floors-tpu-emit-kernels`: turns every `floors.fusion` that carries a
//! `floors.tpu_plan` into a Mosaic kernel module, the way Pallas would have
//! written it, in the module `@floors_tpu_kernels` nested in the program:
//!
//! ```mlir
//! module @floors_tpu_kernels attributes {floors.kernels = ["fusion_0"]} {
//!   module @fusion_0 attributes {stable_mosaic.version = 11 : i64} {
//!     func.func @fusion_0(%i: i32, %x: memref<256x1024xf32, #tpu.memory_space<vmem>>, ...)
//!         attributes {dimension_semantics = [#tpu.dimension_semantics<parallel>],
//!                     iteration_bounds = array<i64: 4>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64,
//!                     tpu.core_type = #tpu.core_type<tc>,
//!                     window_params = [{transform_indices = @transform_0, window_bounds = array<i64: 256, 1024>}, ...]} {...}
//!     func.func @transform_0(%i: i32) -> (i32, i32) {...}
//!   }
//! }
//! ```
//!
//! The kernel body is the fusion's linalg computed on blocks: inputs are
//! `vector.load`ed from their windows, each structured op becomes vector
//! ops over its loop block (operands transposed/broadcast into the loop
//! order, the scalar body applied to vectors, `linalg.index` as `tpu.iota`
//! plus the block's offset), reductions become `vector.multi_reduction`
//! for the plain combiners and a tree of body applications otherwise
//! (argmax: StableHLO's reduce may combine in any order), matmuls
//! `tpu.matmul`, reshapes `vector.shape_cast`, static slices strided
//! slice ops; results are `tpu.vector_store`d into their windows. The
//! matmul strategy accumulates in a VMEM scratch across the K axis
//! (zeroed at k = 0, epilogue and store at the last k), as Pallas' matmul
//! does. The fusion op is tagged `floors.kernel = "fusion_N"`.

use std::collections::HashMap;

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use super::blocks::{self, Analysis, Plan, Strategy, Tiling, analyze, block_shape, body_of, key, structured, the_matmul};
use floors_ir::{
    attrs::vector::CombiningKind,
    contract::{KERNEL_ATTR, MANIFEST_ATTR, MOSAIC_VERSION, MOSAIC_VERSION_ATTR, TPU_KERNEL_MODULE_NAME},
    ir::{
        raw,
        raw::{sref, type_text},
    },
    op_builder::Builder,
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

type R<T> = Result<T, PassFailure>;

#[derive(Clone, Default)]
pub struct TpuEmitKernels;

impl FloorsPass for TpuEmitKernels {
    const ARGUMENT: &'static str = "floors-tpu-emit-kernels";
    const NAME: &'static str = "FloorsTpuEmitKernels";
    const DESCRIPTION: &'static str = "Emit a Mosaic (tpu dialect) kernel module for every fusion from its floors.tpu_plan";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        // SAFETY: the C-API registration hooks return the dialects' static handles, valid for the whole program.
        unsafe {
            vec![
                DialectHandle::from_raw(floors_ir::capi::mlirGetDialectHandle__floors__()),
                DialectHandle::from_raw(floors_ir::capi::mlirGetDialectHandle__tpu__()),
                DialectHandle::from_raw(mlirGetDialectHandle__vector__()),
                DialectHandle::from_raw(mlirGetDialectHandle__memref__()),
                DialectHandle::from_raw(mlirGetDialectHandle__scf__()),
                DialectHandle::from_raw(mlirGetDialectHandle__func__()),
                DialectHandle::from_raw(mlirGetDialectHandle__arith__()),
                DialectHandle::from_raw(mlirGetDialectHandle__math__()),
            ]
        }
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let module = op.to_raw();
        let fusions = super::collect_fusions(module);
        // SAFETY: `module` is the live builtin.module this pass runs on.
        let ctx = unsafe { mlirOperationGetContext(module) };
        let container = container(module);
        let mut names = Vec::new();
        for (n, fusion) in fusions.into_iter().enumerate() {
            let plan = blocks::Plan::of(fusion)
                .ok_or_else(|| fail(fusion, "no floors.tpu_plan on this fusion: run floors-tpu-select-blocks first"))?;
            plan.check().map_err(|e| fail(fusion, format!("floors.tpu_plan: {e}")))?;
            let name = format!("fusion_{n}");
            let kernel = emit(fusion, &plan, &name)?;
            // SAFETY: `container` is the live kernel container, a builtin.module (one region, one block); `kernel` is
            // the detached module `emit` returned, which that block then owns; `fusion` is a live op of `module`, `ctx`
            // its context; `name` outlives the call, which copies it.
            unsafe {
                let body = mlirRegionGetFirstBlock(mlirOperationGetRegion(container, 0));
                mlirBlockAppendOwnedOperation(body, kernel);
                mlirOperationSetAttributeByName(fusion, sref(KERNEL_ATTR), mlirStringAttrGet(ctx, sref(&name)));
            }
            names.push(name);
        }
        // SAFETY: `ctx` and `container` are live (as above); `list` outlives the array getter, which copies it.
        unsafe {
            let list: Vec<MlirAttribute> = names.iter().map(|n| mlirStringAttrGet(ctx, sref(n))).collect();
            mlirOperationSetAttributeByName(container, sref(MANIFEST_ATTR), mlirArrayAttrGet(ctx, list.len() as isize, list.as_ptr()));
        }
        Ok(())
    }
}

/// The kernel container (created at the end of the module when missing).
fn container(module: MlirOperation) -> MlirOperation {
    // SAFETY: `module` is the live builtin.module this pass runs on, which has one region.
    let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)) };
    if let Some(c) = raw::block_ops(body).into_iter().find(|&o| super::is_kernel_container(o)) {
        return c;
    }
    // SAFETY: `module` is live (as above); the new container module is appended to `module`'s body, which owns it from
    // then on; the name is a static string, copied.
    unsafe {
        let ctx = mlirOperationGetContext(module);
        let loc = mlirOperationGetLocation(module);
        let m = mlirModuleGetOperation(mlirModuleCreateEmpty(loc));
        mlirOperationSetAttributeByName(m, sref("sym_name"), mlirStringAttrGet(ctx, sref(TPU_KERNEL_MODULE_NAME)));
        mlirBlockAppendOwnedOperation(body, m);
        m
    }
}

/// A fusion value in the kernel: an SSA value of the block shape (a scalar
/// for shape []), or an uninitialized tensor (`tensor.empty`).
#[derive(Clone)]
enum Repr {
    Val { v: MlirValue, shape: Vec<i64> },
    Empty { shape: Vec<i64> },
}

/// The element type a kernel computes a value on (`index` as i32, as the
/// TPU's vector unit does).
fn elem_of(ctx: MlirContext, t: MlirType) -> MlirType {
    // SAFETY: `t` is a live type; the element type is read only of a shaped type; `ctx` is the live context of the
    // kernel being emitted.
    unsafe {
        let e = if mlirTypeIsAShaped(t) { mlirShapedTypeGetElementType(t) } else { t };
        if mlirTypeIsAIndex(e) { mlirIntegerTypeGet(ctx, 32) } else { e }
    }
}

fn value_elem(ctx: MlirContext, v: MlirValue) -> MlirType {
    // SAFETY: `v` is a live value of the fusion being emitted; only its type is read.
    elem_of(ctx, unsafe { mlirValueGetType(v) })
}

/// One kernel operand's window: its array shape, block shape, tiling and element type.
struct WindowSpec {
    array: Vec<i64>,
    block: Vec<i64>,
    tiling: Tiling,
    elem: MlirType,
}

struct Emitter<'a> {
    ctx: MlirContext,
    plan: &'a Plan,
    analysis: Analysis,
    /// The kernel's grid arguments (i32), one per axis.
    grid: Vec<MlirValue>,
    env: HashMap<usize, Repr>,
}

fn emit(fusion: MlirOperation, plan: &Plan, name: &str) -> R<MlirOperation> {
    // SAFETY: `fusion` is a live op of the module this pass runs on.
    let ctx = unsafe { mlirOperationGetContext(fusion) };
    let body = body_of(fusion);
    let ops = raw::block_ops(body);
    let terminator = *ops.last().ok_or_else(|| fail(fusion, "an empty fusion body"))?;
    let yields = raw::operands(terminator);
    // SAFETY: `body` is the live body block of `fusion`; `i` stays below its argument count.
    let params: Vec<MlirValue> = unsafe { (0..mlirBlockGetNumArguments(body)).map(|i| mlirBlockGetArgument(body, i)).collect() };
    let matmul = if plan.strategy == Strategy::Matmul {
        Some(
            the_matmul(body)
                .ok_or_else(|| fail(fusion, "the matmul plan no longer matches the fusion (one linalg.matmul of two inputs)"))?,
        )
    } else {
        None
    };
    let analysis = match plan.strategy {
        Strategy::Whole => Analysis::default(),
        Strategy::Rows => {
            let demands: Vec<Tiling> =
                yields.iter().map(|&v| (0..raw::shape(v).unwrap_or_default().len()).map(|d| (d == 0).then_some(0)).collect()).collect();
            analyze(body, &demands, &[]).map_err(|na| fail(na.op, format!("the rows plan does not apply: {}", na.reason)))?
        }
        Strategy::Matmul => {
            let Some(mm) = matmul else { return Err(fail(fusion, "internal error: a matmul plan without its matmul")) };
            let demands: Vec<Tiling> = yields.iter().map(|_| vec![Some(0), Some(1)]).collect();
            let mut a =
                analyze(body, &demands, &[mm]).map_err(|na| fail(na.op, format!("the matmul plan does not apply: {}", na.reason)))?;
            let operands = raw::operands(mm);
            a.tiling.insert(key(operands[0]), vec![Some(0), Some(2)]);
            a.tiling.insert(key(operands[1]), vec![Some(2), Some(1)]);
            a
        }
    };
    if plan.grid.len() != plan.block.len() {
        return Err(fail(fusion, "a floors.tpu_plan whose grid and block differ in length"));
    }
    let spec = |v: MlirValue| -> WindowSpec {
        let array = raw::shape(v).unwrap_or_default();
        let tiling = analysis.of(v);
        WindowSpec { block: block_shape(&array, &tiling, &plan.block), array, tiling, elem: value_elem(ctx, v) }
    };
    let inputs: Vec<WindowSpec> = params.iter().map(|&v| spec(v)).collect();
    let outputs: Vec<WindowSpec> = yields.iter().map(|&v| spec(v)).collect();
    let text = kernel_text(name, plan, &inputs, &outputs, matmul.map(|mm| value_elem(ctx, raw::results(mm)[0])));
    // SAFETY: `ctx` is the fusion's live context; `text` outlives the call, and the parser copies what it keeps; a null
    // result is checked below.
    let module = unsafe { mlirOperationCreateParse(ctx, sref(&text), sref("floors-tpu-emit-kernels")) };
    if module.ptr.is_null() {
        return Err(fail(fusion, format!("internal error: the kernel template does not parse:\n{text}")));
    }
    // SAFETY: `fusion` is live.
    raw::set_location_recursive(module, unsafe { mlirOperationGetLocation(fusion) });
    let result = (|| {
        // SAFETY: `module` is the op just parsed from `kernel_text`'s template: a builtin.module (one region) whose
        // first op is the kernel's func.func.
        let mbody = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)) };
        let func = raw::block_ops(mbody)[0];
        // SAFETY: `func` is the template's func.func, which has one region: its body.
        let entry = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)) };
        let ret = *raw::block_ops(entry).last().ok_or_else(|| fail(fusion, "internal error: the kernel template has no return"))?;
        // SAFETY: `entry` is the live entry block of `func`; `i` stays below its argument count.
        let args: Vec<MlirValue> = unsafe { (0..mlirBlockGetNumArguments(entry)).map(|i| mlirBlockGetArgument(entry, i)).collect() };
        let ng = plan.grid.len();
        // SAFETY: `fusion` is live.
        let b = Builder::before_at(ret, unsafe { mlirOperationGetLocation(fusion) });
        let mut e = Emitter { ctx, plan, analysis, grid: args[..ng].to_vec(), env: HashMap::new() };
        for (i, (&p, w)) in params.iter().zip(&inputs).enumerate() {
            let r = e.load(&b, args[ng + i], w);
            e.env.insert(key(p), r);
        }
        let out_refs = &args[ng + params.len()..ng + params.len() + yields.len()];
        let body_ops = &ops[..ops.len() - 1];
        match matmul {
            None => {
                for &op in body_ops {
                    e.emit_op(&b, op)?;
                }
                e.store_all(&b, &yields, out_refs, &outputs)?;
            }
            Some(mm) => {
                let acc = args[ng + params.len() + yields.len()];
                e.emit_matmul_kernel(&b, mm, body_ops, acc, &yields, out_refs, &outputs)?;
            }
        }
        Ok(())
    })();
    match result {
        Ok(()) => Ok(module),
        Err(e) => {
            // SAFETY: `module` was parsed here and never inserted anywhere, so it is owned here; it is not used after
            // this.
            unsafe { mlirOperationDestroy(module) };
            Err(e)
        }
    }
}

fn memref_text(shape: &[i64], elem: MlirType, space: &str) -> String {
    let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
    format!("memref<{dims}{}, #tpu.memory_space<{space}>>", type_text(elem))
}

fn i64s_text(v: &[i64]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

/// The kernel module with an empty kernel body (a `return`) and its index
/// maps: a small parsed template; the body is built op by op.
fn kernel_text(name: &str, plan: &Plan, inputs: &[WindowSpec], outputs: &[WindowSpec], acc: Option<MlirType>) -> String {
    let ng = plan.grid.len();
    let mut args: Vec<String> = (0..ng).map(|i| format!("%g{i}: i32")).collect();
    let windows: Vec<&WindowSpec> = inputs.iter().chain(outputs).collect();
    for (i, w) in windows.iter().enumerate() {
        let space = if w.array.is_empty() { "smem" } else { "vmem" };
        args.push(format!("%w{i}: {}", memref_text(&w.block, w.elem, space)));
    }
    let mut scratch = 0;
    if let Some(acc) = acc {
        args.push(format!("%acc: {}", memref_text(&plan.block[..2], acc, "vmem")));
        scratch = 1;
    }
    let semantics: Vec<&str> = match plan.strategy {
        Strategy::Matmul => vec!["parallel", "parallel", "arbitrary"],
        _ => vec!["parallel"; ng],
    };
    let semantics = semantics.iter().map(|s| format!("#tpu.dimension_semantics<{s}>")).collect::<Vec<_>>().join(", ");
    let mut attrs = vec![format!("dimension_semantics = [{semantics}]")];
    let mut transforms = String::new();
    if ng > 0 {
        attrs.push(format!("iteration_bounds = array<i64: {}>", i64s_text(&plan.grid)));
        let params: Vec<String> = windows
            .iter()
            .enumerate()
            .map(|(i, w)| {
                format!(
                    "{{transform_indices = @transform_{i}, window_bounds = array<i64{}{}>}}",
                    if w.block.is_empty() { "" } else { ": " },
                    i64s_text(&w.block)
                )
            })
            .collect();
        attrs.push(format!("window_params = [{}]", params.join(", ")));
        for (i, w) in windows.iter().enumerate() {
            let gargs: Vec<String> = (0..ng).map(|g| format!("%g{g}: i32")).collect();
            let results: Vec<String> = w.tiling.iter().map(|t| t.map_or("%c0_i32".to_string(), |a| format!("%g{a}"))).collect();
            let types = vec!["i32"; results.len()].join(", ");
            let ret = if results.is_empty() { "return".to_string() } else { format!("return {} : {types}", results.join(", ")) };
            transforms.push_str(&format!(
                "  func.func @transform_{i}({}) -> ({types}) {{\n    %c0_i32 = arith.constant 0 : i32\n    {ret}\n  }}\n",
                gargs.join(", ")
            ));
        }
    }
    attrs.push("scalar_prefetch = 0 : i64".into());
    attrs.push(format!("scratch_operands = {scratch} : i64"));
    attrs.push("tpu.core_type = #tpu.core_type<tc>".into());
    format!(
        "module @{name} attributes {{{MOSAIC_VERSION_ATTR} = {MOSAIC_VERSION} : i64}} {{\n  func.func @{name}({}) attributes {{{}}} {{\n    return\n  }}\n{transforms}}}",
        args.join(", "),
        attrs.join(", ")
    )
}

/// The combining kinds of `vector.multi_reduction`, by the scalar op that combines.
fn combining_kind(op: &str) -> Option<CombiningKind> {
    use CombiningKind::*;
    Some(match op {
        "arith.addf" | "arith.addi" => Add,
        "arith.mulf" | "arith.muli" => Mul,
        "arith.maximumf" => MaximumF,
        "arith.minimumf" => MinimumF,
        "arith.maxnumf" => MaxNumF,
        "arith.minnumf" => MinNumF,
        "arith.maxsi" => MaxSi,
        "arith.minsi" => MinSi,
        "arith.maxui" => MaxUi,
        "arith.minui" => MinUi,
        "arith.andi" => And,
        "arith.ori" => Or,
        "arith.xori" => Xor,
        _ => return None,
    })
}

/// The lists of a `#tpu.dot_dimension_numbers`, in its order: lhs and rhs
/// contracting, lhs and rhs non-contracting, the output dim order
/// ((operand, dim) pairs), lhs and rhs batch.
type DotDims = [&'static [i64]; 7];

/// `[m, k] x [k, n] -> [m, n]`.
const MATMUL_DIMS: DotDims = [&[1], &[0], &[0], &[1], &[0, 0, 1, 1], &[], &[]];
/// `[b, m, k] x [b, k, n] -> [b, m, n]`.
const BATCH_MATMUL_DIMS: DotDims = [&[2], &[1], &[1], &[2], &[0, 0, 0, 1, 1, 2], &[0], &[0]];

/// The `#tpu.dot_dimension_numbers` of `dims`; None if the dialect refuses
/// them.
fn dot_dimension_numbers(ctx: MlirContext, dims: DotDims) -> Option<MlirAttribute> {
    let ptrs = dims.map(|l| l.as_ptr());
    let sizes = dims.map(|l| l.len() as isize);
    // SAFETY: `ctx` is a live context; the seven pointers and sizes describe live slices the attribute copies.
    let a = unsafe { floors_ir::capi::floorsTpuDotDimensionNumbersGet(ctx, ptrs.as_ptr(), sizes.as_ptr()) };
    (!a.ptr.is_null()).then_some(a)
}

fn is_float(t: MlirType) -> bool {
    // SAFETY: `t` is a live type; this only reads its kind.
    unsafe { mlirTypeIsAFloat(t) }
}

impl Emitter<'_> {
    fn repr(&self, at: MlirOperation, v: MlirValue) -> R<Repr> {
        self.env.get(&key(v)).cloned().ok_or_else(|| fail(at, "internal error: an operand the TPU emitter has not computed"))
    }

    fn val(&self, at: MlirOperation, v: MlirValue) -> R<(MlirValue, Vec<i64>)> {
        match self.repr(at, v)? {
            Repr::Val { v, shape } => Ok((v, shape)),
            Repr::Empty { .. } => Err(fail(at, "reads an uninitialized tensor (tensor.empty) on the TPU floor")),
        }
    }

    /// The block shape of a fusion value under the plan.
    fn block_of(&self, v: MlirValue) -> Vec<i64> {
        block_shape(&raw::shape(v).unwrap_or_default(), &self.analysis.of(v), &self.plan.block)
    }

    fn load(&self, b: &Builder, r: MlirValue, w: &WindowSpec) -> Repr {
        if w.array.is_empty() {
            let v = b.value("memref.load", &[r], w.elem, &[]);
            return Repr::Val { v, shape: vec![] };
        }
        let zeros: Vec<MlirValue> = (0..w.block.len()).map(|_| b.index_const(0)).collect();
        let mut operands = vec![r];
        operands.extend(zeros);
        let v = b.value("vector.load", &operands, b.vector(&w.block, w.elem), &[]);
        Repr::Val { v, shape: w.block.clone() }
    }

    fn store(&self, b: &Builder, at: MlirOperation, value: MlirValue, r: MlirValue, w: &WindowSpec) -> R<()> {
        let (v, shape) = self.val(at, value)?;
        if shape != w.block {
            return Err(fail(at, format!("internal error: a result block of shape {shape:?} for a window of {:?}", w.block)));
        }
        let zeros: Vec<MlirValue> = (0..shape.len()).map(|_| b.index_const(0)).collect();
        if shape.is_empty() {
            b.op("memref.store", &[v, r], &[], &[]);
            return Ok(());
        }
        let mut operands = vec![v, r];
        operands.extend(&zeros);
        b.op(
            "tpu.vector_store",
            &operands,
            &[],
            &[("strides", b.i32_array(&[])), ("operandSegmentSizes", b.i32_array(&[1, 1, zeros.len() as i32, 0]))],
        );
        Ok(())
    }

    fn store_all(&self, b: &Builder, yields: &[MlirValue], refs: &[MlirValue], outs: &[WindowSpec]) -> R<()> {
        let at = yields.first().and_then(|&v| raw::producer(v)).unwrap_or(b.before);
        for ((&y, &r), w) in yields.iter().zip(refs).zip(outs) {
            self.store(b, at, y, r, w)?;
        }
        Ok(())
    }

    /// The matmul strategy's kernel: acc = init at k = 0; acc += A·B; at the
    /// last k the epilogue on acc, stored.
    #[allow(clippy::too_many_arguments)]
    fn emit_matmul_kernel(
        &mut self,
        b: &Builder,
        mm: MlirOperation,
        body_ops: &[MlirOperation],
        acc: MlirValue,
        yields: &[MlirValue],
        out_refs: &[MlirValue],
        outs: &[WindowSpec],
    ) -> R<()> {
        let mm_result = raw::results(mm)[0];
        let mm_ops = raw::operands(mm);
        let fill = raw::producer(mm_ops[2]).ok_or_else(|| fail(mm, "the matmul's accumulator is not a linalg.fill"))?;
        // Ops that depend on the matmul run at the last k; the others (the
        // init's scalar, broadcasts of a bias) before the steps.
        let mut after: std::collections::HashSet<usize> = std::collections::HashSet::new();
        after.insert(key(mm_result));
        let mut post = Vec::new();
        for &op in body_ops {
            if op.ptr == mm.ptr {
                continue;
            }
            let depends = raw::operands(op).iter().any(|&v| after.contains(&key(v))) || captures_any(op, &after);
            if depends {
                raw::results(op).iter().for_each(|&r| {
                    after.insert(key(r));
                });
                post.push(op);
            } else if op.ptr != fill.ptr && !only_feeds(op, fill) {
                self.emit_op(b, op)?;
            }
        }
        let fill_scalar = raw::operands(fill)[0];
        let (init, _) = match self.env.get(&key(fill_scalar)) {
            Some(_) => self.val(fill, fill_scalar)?,
            None => {
                let p = raw::producer(fill_scalar).ok_or_else(|| fail(fill, "the accumulator's initial value is not a constant"))?;
                self.emit_op(b, p)?;
                self.val(fill, fill_scalar)?
            }
        };
        let elem = value_elem(self.ctx, mm_result);
        let tile = vec![self.plan.block[0], self.plan.block[1]];
        let vt = b.vector(&tile, elem);
        // SAFETY: `self.ctx` is the live context of the kernel being emitted.
        let i1 = unsafe { mlirIntegerTypeGet(self.ctx, 1) };
        // SAFETY: `self.ctx` is the live context of the kernel being emitted.
        let eq = unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(self.ctx, 64), 0) }; // arith.cmpi's `eq`
        let pred_eq = |b: &Builder, x: MlirValue, c: i64| {
            let c = b.i32_const(c);
            b.value("arith.cmpi", &[x, c], i1, &[("predicate", eq)])
        };
        let zeros = |b: &Builder| -> Vec<MlirValue> { (0..2).map(|_| b.index_const(0)).collect() };
        let store_acc = |b: &Builder, v: MlirValue| {
            let mut operands = vec![v, acc];
            operands.extend(zeros(b));
            b.op("tpu.vector_store", &operands, &[], &[("strides", b.i32_array(&[])), ("operandSegmentSizes", b.i32_array(&[1, 1, 2, 0]))]);
        };
        let load_acc = |b: &Builder| {
            let mut operands = vec![acc];
            operands.extend(zeros(b));
            b.value("vector.load", &operands, vt, &[])
        };
        // k == 0: acc = init.
        let first = pred_eq(b, self.grid[2], 0);
        let if0 = b.op_regions("scf.if", &[first], &[], &[], &[Some(vec![]), Some(vec![])]);
        {
            let then = b.into_region(if0, 0, "scf.yield");
            let v = then.value("vector.broadcast", &[init], vt, &[]);
            store_acc(&then, v);
            b.into_region(if0, 1, "scf.yield");
        }
        // acc += A·B.
        let (x, xs) = self.val(mm, mm_ops[0])?;
        let (y, ys) = self.val(mm, mm_ops[1])?;
        let dn = dot_dimension_numbers(self.ctx, MATMUL_DIMS).ok_or_else(|| fail(mm, "internal error: no #tpu.dot_dimension_numbers"))?;
        let prod = self.mxu_matmul(b, mm, (x, &xs), (y, &ys), &tile, elem, dn)?;
        let old = load_acc(b);
        let add = if is_float(elem) { "arith.addf" } else { "arith.addi" };
        let sum = b.value(add, &[old, prod], vt, &[]);
        store_acc(b, sum);
        // k == last: epilogue and store.
        let last = pred_eq(b, self.grid[2], self.plan.grid[2] - 1);
        let ifl = b.op_regions("scf.if", &[last], &[], &[], &[Some(vec![]), Some(vec![])]);
        let then = b.into_region(ifl, 0, "scf.yield");
        b.into_region(ifl, 1, "scf.yield");
        let v = load_acc(&then);
        self.env.insert(key(mm_result), Repr::Val { v, shape: tile.clone() });
        for op in post {
            self.emit_op(&then, op)?;
        }
        self.store_all(&then, yields, out_refs, outs)
    }

    fn zero_vector(&self, b: &Builder, at: MlirOperation, shape: &[i64], elem: MlirType) -> R<MlirValue> {
        let vt = b.vector(shape, elem);
        // SAFETY: `self.ctx` is live; `elem` comes from `elem_of`, so a float gets a float attribute and anything else
        // (an integer type) an integer one.
        let zero = unsafe { if is_float(elem) { mlirFloatAttrDoubleGet(self.ctx, elem, 0.0) } else { mlirIntegerAttrGet(elem, 0) } };
        if shape.is_empty() {
            return Ok(b.value("arith.constant", &[], vt, &[("value", zero)]));
        }
        // SAFETY: `vt` is a vector type (`shape` is not empty here) of `elem`, and `zero` an attribute of `elem`.
        let splat = unsafe { mlirDenseElementsAttrSplatGet(vt, zero) };
        if splat.ptr.is_null() {
            return Err(fail(at, format!("cannot make a zero of {}", type_text(vt))));
        }
        Ok(b.value("arith.constant", &[], vt, &[("value", splat)]))
    }

    fn emit_op(&mut self, b: &Builder, op: MlirOperation) -> R<()> {
        // Kernel ops carry the location of what they came from.
        // SAFETY: `op` is a live op of the fusion body.
        let b = &b.at(unsafe { mlirOperationGetLocation(op) });
        let name = raw::name(op);
        let results = raw::results(op);
        if structured(op).is_some() {
            return self.emit_structured(b, op);
        }
        match name.as_str() {
            "tensor.empty" => {
                self.env.insert(key(results[0]), Repr::Empty { shape: self.block_of(results[0]) });
            }
            "arith.constant" => {
                let r = results[0];
                // SAFETY: `r` is a result of the live op `op`.
                let t = unsafe { mlirValueGetType(r) };
                let value = raw::attr(op, "value").ok_or_else(|| fail(op, "an arith.constant without a value"))?;
                // SAFETY: `t` is a live type; this only reads its kind.
                if unsafe { mlirTypeIsAShaped(t) } {
                    let shape = self.block_of(r);
                    let elem = value_elem(self.ctx, r);
                    // SAFETY: `value` is the `value` of a shaped arith.constant, so dense elements (its verifier), and
                    // a splat, which `unsupported_op` (floors-tpu-select-blocks) requires of a non-0-d one.
                    let scalar = unsafe { mlirDenseElementsAttrGetSplatValue(value) };
                    let (vt, attr) = if shape.is_empty() {
                        (elem, scalar)
                    } else {
                        let vt = b.vector(&shape, elem);
                        // SAFETY: `vt` is a vector type and `scalar` the constant's splat element, of the element type
                        // (`value_elem`).
                        (vt, unsafe { mlirDenseElementsAttrSplatGet(vt, scalar) })
                    };
                    let v = b.value("arith.constant", &[], vt, &[("value", attr)]);
                    self.env.insert(key(r), Repr::Val { v, shape });
                } else {
                    let v = b.value("arith.constant", &[], t, &[("value", value)]);
                    self.env.insert(key(r), Repr::Val { v, shape: vec![] });
                }
            }
            "tensor.extract" => {
                let operands = raw::operands(op);
                let (v, shape) = self.val(op, operands[0])?;
                if shape.is_empty() {
                    self.env.insert(key(results[0]), Repr::Val { v, shape });
                } else {
                    let mut pos = Vec::new();
                    for &i in &operands[1..] {
                        let c = raw::producer(i).and_then(|p| raw::attr(p, "value"));
                        pos.push(
                            // SAFETY: `a` is the `value` of the index's producer, an arith.constant of `index` type
                            // (`unsupported_op` requires it), so an IntegerAttr.
                            c.map(|a| unsafe { mlirIntegerAttrGetValueInt(a) })
                                .ok_or_else(|| fail(op, "an index that is not a constant"))?,
                        );
                    }
                    let elem = value_elem(self.ctx, results[0]);
                    let x = b.value("vector.extract", &[v], elem, &[("static_position", b.i64_array(&pos))]);
                    self.env.insert(key(results[0]), Repr::Val { v: x, shape: vec![] });
                }
            }
            "linalg.fill" => {
                let operands = raw::operands(op);
                let (s, _) = self.val(op, operands[0])?;
                let shape = self.block_of(results[0]);
                let v = if shape.is_empty() {
                    s
                } else {
                    b.value("vector.broadcast", &[s], b.vector(&shape, value_elem(self.ctx, results[0])), &[])
                };
                self.env.insert(key(results[0]), Repr::Val { v, shape });
            }
            "tensor.collapse_shape" | "tensor.expand_shape" => {
                let (v, _) = self.val(op, raw::operands(op)[0])?;
                let shape = self.block_of(results[0]);
                let v = self.shape_cast(b, v, &shape, value_elem(self.ctx, results[0]));
                self.env.insert(key(results[0]), Repr::Val { v, shape });
            }
            "tensor.extract_slice" => {
                let (v, _) = self.val(op, raw::operands(op)[0])?;
                let (offsets, sizes, strides) = static_slice(op)?;
                let elem = value_elem(self.ctx, results[0]);
                // A unit-stride window over the range, then every stride-th slice.
                let span: Vec<i64> = sizes.iter().zip(&strides).map(|(&n, &s)| if n == 0 { 0 } else { (n - 1) * s + 1 }).collect();
                let mut sliced = b.value(
                    "vector.extract_strided_slice",
                    &[v],
                    b.vector(&span, elem),
                    &[
                        ("offsets", self.i64_array_attr(&offsets)),
                        ("sizes", self.i64_array_attr(&span)),
                        ("strides", self.i64_array_attr(&vec![1; span.len()])),
                    ],
                );
                let mut cur_shape = span.clone();
                for (d, &st) in strides.iter().enumerate() {
                    if st > 1 {
                        let picks: Vec<i64> = (0..sizes[d]).map(|i| i * st).collect();
                        sliced = self.pick(b, op, sliced, &cur_shape, d, &picks)?;
                        cur_shape[d] = sizes[d];
                    }
                }
                let shape = self.block_of(results[0]);
                let v = self.shape_cast(b, sliced, &shape, elem);
                self.env.insert(key(results[0]), Repr::Val { v, shape });
            }
            "tensor.insert_slice" => {
                let operands = raw::operands(op);
                let (src, _) = self.val(op, operands[0])?;
                let elem = value_elem(self.ctx, results[0]);
                let dest_shape = self.block_of(results[0]);
                let dest = match self.repr(op, operands[1])? {
                    Repr::Val { v, .. } => v,
                    Repr::Empty { shape } => self.zero_vector(b, op, &shape, elem)?,
                };
                let (offsets, sizes, _) = static_slice(op)?;
                let src = self.shape_cast(b, src, &sizes, elem);
                let v = b.value(
                    "vector.insert_strided_slice",
                    &[src, dest],
                    b.vector(&dest_shape, elem),
                    &[("offsets", self.i64_array_attr(&offsets)), ("strides", self.i64_array_attr(&vec![1; sizes.len()]))],
                );
                self.env.insert(key(results[0]), Repr::Val { v, shape: dest_shape });
            }
            _ if name.starts_with("arith.") || name.starts_with("math.") => {
                // Scalar arithmetic between structured ops.
                let mut operands = Vec::new();
                for v in raw::operands(op) {
                    operands.push(self.val(op, v)?.0);
                }
                // SAFETY: `r` is a result of the live op `op`; only its type is read.
                let types: Vec<MlirType> = results.iter().map(|&r| unsafe { mlirValueGetType(r) }).collect();
                let attrs = copy_attrs(op);
                let new = b.op(&name, &operands, &types, &attr_refs(&attrs));
                for (i, &r) in results.iter().enumerate() {
                    // SAFETY: `new` was just built with one result per entry of `results`, so `i` is below its result
                    // count.
                    self.env.insert(key(r), Repr::Val { v: unsafe { mlirOperationGetResult(new, i as isize) }, shape: vec![] });
                }
            }
            _ => return Err(fail(op, format!("'{name}' has no TPU lowering"))),
        }
        Ok(())
    }

    /// `ArrayAttr` of i64 `IntegerAttr`s (the vector dialect's strided-slice attributes).
    fn i64_array_attr(&self, v: &[i64]) -> MlirAttribute {
        // SAFETY: `self.ctx` is live; `elems` outlives the array getter, which copies it.
        unsafe {
            let i64t = mlirIntegerTypeGet(self.ctx, 64);
            let elems: Vec<MlirAttribute> = v.iter().map(|&x| mlirIntegerAttrGet(i64t, x)).collect();
            mlirArrayAttrGet(self.ctx, elems.len() as isize, elems.as_ptr())
        }
    }

    fn shape_cast(&self, b: &Builder, v: MlirValue, to: &[i64], elem: MlirType) -> MlirValue {
        // SAFETY: `v` is a live value of the kernel being built; only its type is read.
        let t = unsafe { mlirValueGetType(v) };
        let target = b.vector(to, elem);
        // SAFETY: both are live types of `self.ctx`.
        if unsafe { mlirTypeEqual(t, target) } {
            return v;
        }
        if to.is_empty() {
            // vector<1x1xT> → T.
            // SAFETY: `t` is read as a shaped type: a kernel value that is not already the scalar `elem` is a vector
            // (what callers pass; not checked here).
            let rank = unsafe { mlirShapedTypeGetRank(t) } as usize;
            return b.value("vector.extract", &[v], elem, &[("static_position", b.i64_array(&vec![0; rank]))]);
        }
        // SAFETY: `t` is a live type; this only reads its kind.
        if !unsafe { mlirTypeIsAVector(t) } {
            return b.value("vector.broadcast", &[v], target, &[]);
        }
        b.value("vector.shape_cast", &[v], target, &[])
    }

    /// `v` (a value of some operand's block shape, indexed by `map`) as a
    /// vector over the loop block `loops` (transposed into loop order, unit
    /// dims inserted, broadcast).
    fn expand(&self, b: &Builder, at: MlirOperation, v: MlirValue, shape: &[i64], map: &[Option<usize>], loops: &[i64]) -> R<MlirValue> {
        // SAFETY: `v` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(v) });
        if loops.is_empty() {
            return Ok(v);
        }
        if shape.is_empty() {
            return Ok(b.value("vector.broadcast", &[v], b.vector(loops, elem), &[]));
        }
        if map.len() != shape.len() {
            return Err(fail(at, "internal error: an indexing map that does not match its operand's rank"));
        }
        // Drop broadcast unit dims.
        let kept: Vec<(usize, i64)> = map.iter().zip(shape).filter_map(|(l, &n)| l.map(|l| (l, n))).collect();
        let mut cur = v;
        let kept_shape: Vec<i64> = kept.iter().map(|k| k.1).collect();
        if kept.len() != shape.len() {
            cur = self.shape_cast(b, cur, &kept_shape, elem);
        }
        if kept.is_empty() {
            return Ok(b.value("vector.broadcast", &[cur], b.vector(loops, elem), &[]));
        }
        // Into loop order.
        let mut order: Vec<usize> = (0..kept.len()).collect();
        order.sort_by_key(|&i| kept[i].0);
        if order.iter().enumerate().any(|(i, &o)| i != o) {
            let perm: Vec<i64> = order.iter().map(|&o| o as i64).collect();
            let tshape: Vec<i64> = order.iter().map(|&o| kept[o].1).collect();
            cur = b.value("vector.transpose", &[cur], b.vector(&tshape, elem), &[("permutation", b.i64_array(&perm))]);
        }
        let present: Vec<usize> = order.iter().map(|&o| kept[o].0).collect();
        let with_units: Vec<i64> = (0..loops.len()).map(|l| if present.contains(&l) { loops[l] } else { 1 }).collect();
        cur = self.shape_cast(b, cur, &with_units, elem);
        if with_units != loops {
            cur = b.value("vector.broadcast", &[cur], b.vector(loops, elem), &[]);
        }
        Ok(cur)
    }

    /// `v` with every dimension flagged in `rev` reversed.
    fn reverse(&self, b: &Builder, at: MlirOperation, v: MlirValue, shape: &[i64], rev: &[bool]) -> R<MlirValue> {
        let mut cur = v;
        for (d, _) in rev.iter().enumerate().filter(|(_, r)| **r) {
            let picks: Vec<i64> = (0..shape[d]).rev().collect();
            cur = self.pick(b, at, cur, shape, d, &picks)?;
        }
        Ok(cur)
    }

    /// The slices `picks` of `v` along dimension `d`, in that order, slice
    /// by slice (reversals and strided slices: Mosaic's vectors have
    /// neither; up to 512 slices).
    fn pick(&self, b: &Builder, at: MlirOperation, v: MlirValue, shape: &[i64], d: usize, picks: &[i64]) -> R<MlirValue> {
        if picks.len() > 512 {
            return Err(fail(
                at,
                format!(
                    "gathering {} slices of a vector (a reversal or strided slice over more than 512) has no TPU lowering yet",
                    picks.len()
                ),
            ));
        }
        // SAFETY: `v` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(v) });
        let mut one = shape.to_vec();
        one[d] = 1;
        let mut out_shape = shape.to_vec();
        out_shape[d] = picks.len() as i64;
        let ones = self.i64_array_attr(&vec![1; shape.len()]);
        let mut out = self.zero_vector(b, at, &out_shape, elem)?;
        for (i, &p) in picks.iter().enumerate() {
            let mut from = vec![0; shape.len()];
            from[d] = p;
            let piece = b.value(
                "vector.extract_strided_slice",
                &[v],
                b.vector(&one, elem),
                &[("offsets", self.i64_array_attr(&from)), ("sizes", self.i64_array_attr(&one)), ("strides", ones)],
            );
            let mut to = vec![0; shape.len()];
            to[d] = i as i64;
            out = b.value(
                "vector.insert_strided_slice",
                &[piece, out],
                b.vector(&out_shape, elem),
                &[("offsets", self.i64_array_attr(&to)), ("strides", ones)],
            );
        }
        Ok(out)
    }

    /// A vector over `loops` ordered as the loops, transposed into the
    /// order `map` gives a result's dims.
    fn in_result_order(&self, b: &Builder, at: MlirOperation, v: MlirValue, loops_of_result: &[usize], shape: &[i64]) -> R<MlirValue> {
        // SAFETY: `v` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(v) });
        let mut sorted = loops_of_result.to_vec();
        sorted.sort();
        if sorted == loops_of_result {
            return Ok(v);
        }
        // v's dims are the result's loops in increasing order; result dim q is loop loops_of_result[q].
        let perm: Result<Vec<i64>, _> =
            loops_of_result.iter().map(|l| sorted.iter().position(|s| s == l).map(|p| p as i64).ok_or(())).collect();
        let perm = perm.map_err(|_| fail(at, "internal error: a result map that is not a permutation"))?;
        Ok(b.value("vector.transpose", &[v], b.vector(shape, elem), &[("permutation", b.i64_array(&perm))]))
    }

    fn emit_structured(&mut self, b: &Builder, op: MlirOperation) -> R<()> {
        let s = structured(op).expect("checked").map_err(|e| fail(op, e))?;
        let operands = raw::operands(op);
        let results = raw::results(op);
        let axes = self.analysis.loop_axes.get(&(op.ptr as usize)).cloned().unwrap_or_else(|| vec![None; s.num_loops]);
        // Loop sizes from the operands' full shapes, then blocked.
        let mut full = vec![1i64; s.num_loops];
        for (i, &v) in operands.iter().enumerate() {
            if let Some(shape) = raw::shape(v) {
                for (q, l) in s.maps[i].iter().enumerate() {
                    if let Some(l) = l {
                        full[*l] = shape[q];
                    }
                }
            }
        }
        let loops: Vec<i64> = full.iter().zip(&axes).map(|(&n, a)| a.map_or(n, |a| self.plan.block[a])).collect();
        let name = raw::name(op);
        if name == "linalg.matmul" || name == "linalg.batch_matmul" {
            return self.emit_named_matmul(b, op, &name);
        }
        // SAFETY: `op` is a live linalg.generic (the named matmuls returned above), which has one region: its body.
        let region_block = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)) };
        let inner = raw::block_ops(region_block);
        // SAFETY: `region_block` is the generic's live body block; `i` stays below its argument count.
        let args: Vec<MlirValue> =
            unsafe { (0..mlirBlockGetNumArguments(region_block)).map(|i| mlirBlockGetArgument(region_block, i)).collect() };
        let ni = s.num_inputs;
        let no = results.len();
        let mut ins = Vec::new();
        for (i, &operand) in operands.iter().enumerate().take(ni) {
            let (v, shape) = self.val(op, operand)?;
            let v = self.reverse(b, op, v, &shape, &s.reversed[i])?;
            ins.push(self.expand(b, op, v, &shape, &s.maps[i], &loops)?);
        }
        if s.reversed[ni..].iter().flatten().any(|&r| r) {
            return Err(fail(op, "a structured op that writes its result backwards has no TPU lowering yet"));
        }
        let reduced: Vec<usize> = (0..s.num_loops).filter(|&l| !s.parallel[l]).collect();
        let out_loops: Vec<Vec<usize>> = (0..no)
            .map(|j| s.maps[ni + j].iter().map(|l| l.ok_or_else(|| fail(op, "a result indexed by a constant"))).collect::<R<Vec<usize>>>())
            .collect::<R<_>>()?;
        let so = StructuredOp { op, s, operands, results, inner, args, loops, axes, ins, reduced, out_loops };
        if so.reduced.is_empty() { self.emit_parallel_structured(b, so) } else { self.emit_structured_reduction(b, so) }
    }

    /// A structured op without reductions: the body on the vectors of its
    /// blocked loops (outputs passed in only where the body reads them).
    fn emit_parallel_structured(&mut self, b: &Builder, so: StructuredOp) -> R<()> {
        let StructuredOp { op, s, operands, results, inner, args, loops, axes, ins, out_loops, .. } = so;
        let (ni, no) = (s.num_inputs, results.len());
        let mut outs = Vec::new();
        for j in 0..no {
            let used = !raw::uses(args[ni + j]).is_empty();
            outs.push(if used {
                let (v, shape) = self.val(op, operands[ni + j])?;
                Some(self.expand(b, op, v, &shape, &s.maps[ni + j], &loops)?)
            } else {
                None
            });
        }
        let mut bind: HashMap<usize, MlirValue> = HashMap::new();
        for (i, &a) in args.iter().enumerate() {
            if let Some(v) = if i < ni { Some(ins[i]) } else { outs[i - ni] } {
                bind.insert(key(a), v);
            }
        }
        let yielded = self.apply_body(b, op, &inner, &mut bind, &loops, &axes)?;
        for (j, &r) in results.iter().enumerate() {
            let shape = self.block_of(r);
            let v = self.in_result_order(b, op, yielded[j], &out_loops[j], &shape)?;
            self.env.insert(key(r), Repr::Val { v, shape });
        }
        Ok(())
    }

    /// A structured op with reductions: the accumulators' initial values
    /// over the parallel loops, then one `vector.multi_reduction` when the
    /// body is a single combiner, else a tree of body applications.
    fn emit_structured_reduction(&mut self, b: &Builder, so: StructuredOp) -> R<()> {
        let (op, s) = (so.op, &so.s);
        let (ni, no) = (s.num_inputs, so.results.len());
        let par_loops: Vec<usize> = (0..s.num_loops).filter(|&l| s.parallel[l]).collect();
        let par_shape: Vec<i64> = par_loops.iter().map(|&l| so.loops[l]).collect();
        let mut inits = Vec::new();
        for j in 0..no {
            let (v, shape) = self.val(op, so.operands[ni + j])?;
            // Out map over the parallel loops, renumbered 0.. in loop order.
            let m: Vec<Option<usize>> = s.maps[ni + j].iter().map(|l| l.and_then(|l| par_loops.iter().position(|&p| p == l))).collect();
            inits.push(self.expand(b, op, v, &shape, &m, &par_shape)?);
        }
        let combiner = single_combiner(&so.inner, &so.args, ni);
        let reduced_vals: Vec<MlirValue> = if let (1, Some(combiner)) = (no, combiner) {
            vec![self.reduce_with_combiner(b, &so, combiner, inits[0], &par_shape)?]
        } else {
            self.reduce_by_tree(b, &so, &inits, &par_shape)?
        };
        for (j, &r) in so.results.iter().enumerate() {
            let shape = self.block_of(r);
            let renum: Vec<usize> = so.out_loops[j].iter().map(|l| par_loops.iter().position(|p| p == l).unwrap_or(0)).collect();
            let v = self.in_result_order(b, op, reduced_vals[j], &renum, &shape)?;
            self.env.insert(key(r), Repr::Val { v, shape });
        }
        Ok(())
    }

    /// out = combine(out, f(ins)) with `combiner` (the combining op and the
    /// value it takes besides the accumulator): f on vectors, then one
    /// `vector.multi_reduction` into `init`, of `par_shape`.
    fn reduce_with_combiner(
        &self,
        b: &Builder,
        so: &StructuredOp,
        (cop, x_is_arg): (MlirOperation, MlirValue),
        init: MlirValue,
        par_shape: &[i64],
    ) -> R<MlirValue> {
        let kind = combining_kind(&raw::name(cop)).expect("checked by single_combiner");
        let mut bind: HashMap<usize, MlirValue> = HashMap::new();
        for i in 0..so.s.num_inputs {
            bind.insert(key(so.args[i]), so.ins[i]);
        }
        let pre: Vec<MlirOperation> = so.inner.iter().copied().filter(|o| o.ptr != cop.ptr && raw::name(*o) != "linalg.yield").collect();
        self.apply_ops(b, so.op, &pre, &mut bind, &so.loops, &so.axes)?;
        let x = bind.get(&key(x_is_arg)).copied().ok_or_else(|| fail(cop, "internal error: the reduced value was not computed"))?;
        // SAFETY: `x` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(x) });
        let rt = b.vector(par_shape, elem);
        let kind_attr = floors_ir::attrs::vector::combining_kind(self.ctx, kind)
            .ok_or_else(|| fail(cop, format!("internal error: no #vector.kind for {kind:?}")))?;
        let red: Vec<i64> = so.reduced.iter().map(|&l| l as i64).collect();
        Ok(b.value("vector.multi_reduction", &[x, init], rt, &[("kind", kind_attr), ("reduction_dims", b.i64_array(&red))]))
    }

    /// Any other reduction body (argmax's pairs): a tree of body
    /// applications along each reduced loop, then one with the initial
    /// values `inits`, of `par_shape`.
    fn reduce_by_tree(&self, b: &Builder, so: &StructuredOp, inits: &[MlirValue], par_shape: &[i64]) -> R<Vec<MlirValue>> {
        let (op, inner, args) = (so.op, &so.inner, &so.args);
        let (ni, no) = (so.s.num_inputs, so.results.len());
        if inner.iter().any(|&o| raw::name(o) == "linalg.index") {
            return Err(fail(op, "a reduction body that reads its loop index has no TPU lowering yet"));
        }
        // SAFETY: `args` are live arguments of the structured op's body block (Rust's indexing bounds-checks both).
        if ni != no || (0..ni).any(|i| unsafe { !mlirTypeEqual(mlirValueGetType(args[i]), mlirValueGetType(args[ni + i])) }) {
            return Err(fail(op, "a reduction whose body is not a combiner of accumulator pairs has no TPU lowering"));
        }
        let mut cur = so.ins.clone();
        let mut shape = so.loops.clone();
        for &r in so.reduced.iter().rev() {
            while shape[r] > 1 {
                let k = shape[r];
                let h = k / 2;
                let lo: Vec<MlirValue> = cur.iter().map(|&v| self.slice_along(b, v, r, 0, h, &shape)).collect();
                let hi: Vec<MlirValue> = cur.iter().map(|&v| self.slice_along(b, v, r, h, h, &shape)).collect();
                let mut half = shape.clone();
                half[r] = h;
                let mut next = self.combine(b, op, inner, args, &hi, &lo, &half)?;
                if k % 2 == 1 {
                    let mut one = shape.clone();
                    one[r] = 1;
                    let rest: Vec<MlirValue> = cur.iter().map(|&v| self.slice_along(b, v, r, k - 1, 1, &shape)).collect();
                    let first: Vec<MlirValue> = next.iter().map(|&v| self.slice_along(b, v, r, 0, 1, &half)).collect();
                    let merged = self.combine(b, op, inner, args, &rest, &first, &one)?;
                    next = next
                        .iter()
                        .zip(&merged)
                        .map(|(&n, &m)| {
                            // SAFETY: `n` is a live value of the kernel being built; only its type is read.
                            let elem = elem_of(self.ctx, unsafe { mlirValueGetType(n) });
                            b.value(
                                "vector.insert_strided_slice",
                                &[m, n],
                                b.vector(&half, elem),
                                &[
                                    ("offsets", self.i64_array_attr(&vec![0; half.len()])),
                                    ("strides", self.i64_array_attr(&vec![1; half.len()])),
                                ],
                            )
                        })
                        .collect();
                }
                cur = next;
                shape = half;
            }
        }
        let flat: Vec<MlirValue> =
            // SAFETY: `v` is a live value of the kernel being built; only its type is read.
            cur.iter().map(|&v| self.shape_cast(b, v, par_shape, elem_of(self.ctx, unsafe { mlirValueGetType(v) }))).collect();
        self.combine(b, op, inner, args, &flat, inits, par_shape)
    }

    /// The `n` elements of vector `v` (of `shape`) from `from` along dim
    /// `r`.
    fn slice_along(&self, b: &Builder, v: MlirValue, r: usize, from: i64, n: i64, shape: &[i64]) -> MlirValue {
        // SAFETY: `v` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(v) });
        let mut offsets = vec![0; shape.len()];
        offsets[r] = from;
        let mut sizes = shape.to_vec();
        sizes[r] = n;
        b.value(
            "vector.extract_strided_slice",
            &[v],
            b.vector(&sizes, elem),
            &[
                ("offsets", self.i64_array_attr(&offsets)),
                ("sizes", self.i64_array_attr(&sizes)),
                ("strides", self.i64_array_attr(&vec![1; shape.len()])),
            ],
        )
    }

    /// The body applied to `ins` (as the inputs) and `outs` (as the
    /// accumulators), all of `shape`.
    #[allow(clippy::too_many_arguments)]
    fn combine(
        &self,
        b: &Builder,
        op: MlirOperation,
        inner: &[MlirOperation],
        args: &[MlirValue],
        ins: &[MlirValue],
        outs: &[MlirValue],
        shape: &[i64],
    ) -> R<Vec<MlirValue>> {
        let mut bind = HashMap::new();
        for (i, &v) in ins.iter().enumerate() {
            bind.insert(key(args[i]), v);
        }
        for (j, &v) in outs.iter().enumerate() {
            bind.insert(key(args[ins.len() + j]), v);
        }
        // Index-free bodies only: a tree has no loop index to give.
        let no_axes = vec![None; shape.len()];
        self.apply_body(b, op, inner, &mut bind, shape, &no_axes)
    }

    /// Applies a structured op's scalar body to vectors of `loops`; returns the yielded values.
    fn apply_body(
        &self,
        b: &Builder,
        op: MlirOperation,
        inner: &[MlirOperation],
        bind: &mut HashMap<usize, MlirValue>,
        loops: &[i64],
        axes: &[Option<usize>],
    ) -> R<Vec<MlirValue>> {
        let (body, yield_op) = inner.split_at(inner.len().saturating_sub(1));
        self.apply_ops(b, op, body, bind, loops, axes)?;
        let y = yield_op.first().ok_or_else(|| fail(op, "a linalg body without a yield"))?;
        raw::operands(*y).iter().map(|&v| self.operand(b, op, v, bind, loops)).collect()
    }

    /// A body operand as a vector of `loops`: bound, or a scalar from
    /// outside the body broadcast.
    fn operand(&self, b: &Builder, at: MlirOperation, v: MlirValue, bind: &HashMap<usize, MlirValue>, loops: &[i64]) -> R<MlirValue> {
        if let Some(&x) = bind.get(&key(v)) {
            return Ok(x);
        }
        let (s, shape) = self.val(at, v)?;
        if !shape.is_empty() {
            return Err(fail(at, "a structured op's body reads an array from outside it"));
        }
        Ok(if loops.is_empty() {
            s
        } else {
            // SAFETY: `s` is a live value of the kernel being built; only its type is read.
            b.value("vector.broadcast", &[s], b.vector(loops, elem_of(self.ctx, unsafe { mlirValueGetType(s) })), &[])
        })
    }

    fn apply_ops(
        &self,
        b: &Builder,
        at: MlirOperation,
        ops: &[MlirOperation],
        bind: &mut HashMap<usize, MlirValue>,
        loops: &[i64],
        axes: &[Option<usize>],
    ) -> R<()> {
        // SAFETY: `self.ctx` is the live context of the kernel being emitted.
        let i32t = unsafe { mlirIntegerTypeGet(self.ctx, 32) };
        for &o in ops {
            let name = raw::name(o);
            let results = raw::results(o);
            let vt = |e: MlirType| b.vector(loops, e);
            let v = match name.as_str() {
                "linalg.index" => {
                    // SAFETY: `a` is the non-null `dim` of the linalg.index `o`: an IntegerAttr by its verifier.
                    let d = raw::attr(o, "dim").map(|a| unsafe { mlirIntegerAttrGetValueInt(a) }).unwrap_or(0) as usize;
                    if loops.is_empty() {
                        return Err(fail(o, "linalg.index in a 0-d body"));
                    }
                    let mut v = b.value("tpu.iota", &[], vt(i32t), &[("dimensions", b.i32_array(&[d as i32]))]);
                    if let Some(Some(axis)) = axes.get(d) {
                        let block = b.i32_const(self.plan.block[*axis]);
                        let off = b.value("arith.muli", &[self.grid[*axis], block], i32t, &[]);
                        let off = b.value("vector.broadcast", &[off], vt(i32t), &[]);
                        v = b.value("arith.addi", &[v, off], vt(i32t), &[]);
                    }
                    v
                }
                "arith.index_cast" | "arith.index_castui" => {
                    let x = self.operand(b, o, raw::operands(o)[0], bind, loops)?;
                    // SAFETY: `results[0]` is a result of the live op `o`; only its type is read.
                    let to = elem_of(self.ctx, unsafe { mlirValueGetType(results[0]) });
                    // SAFETY: `x` is a live value of the kernel being built; only its type is read.
                    let from = elem_of(self.ctx, unsafe { mlirValueGetType(x) });
                    // SAFETY: `from` and `to` are integer types: index_cast converts between index and integers, and
                    // `elem_of` makes index i32.
                    let (fw, tw) = unsafe { (mlirIntegerTypeGetWidth(from), mlirIntegerTypeGetWidth(to)) };
                    if fw == tw {
                        x
                    } else if tw > fw {
                        let ext = if name == "arith.index_cast" { "arith.extsi" } else { "arith.extui" };
                        b.value(ext, &[x], vt(to), &[])
                    } else {
                        b.value("arith.trunci", &[x], vt(to), &[])
                    }
                }
                "arith.constant" => {
                    // SAFETY: `results[0]` is a result of the live op `o`; only its type is read.
                    let t = elem_of(self.ctx, unsafe { mlirValueGetType(results[0]) });
                    let mut value = raw::attr(o, "value").ok_or_else(|| fail(o, "an arith.constant without a value"))?;
                    // SAFETY: as above; this only reads the type's kind.
                    if unsafe { mlirTypeIsAIndex(mlirValueGetType(results[0])) } {
                        // SAFETY: `value` is an index-typed arith.constant's, so an IntegerAttr (its verifier gives it
                        // the result's type); `t` is i32.
                        value = unsafe { mlirIntegerAttrGet(t, mlirIntegerAttrGetValueInt(value)) };
                    }
                    if loops.is_empty() {
                        b.value("arith.constant", &[], t, &[("value", value)])
                    } else {
                        // SAFETY: `vt(t)` is a vector type (`loops` is not empty here) of `t`, and `value` an attribute
                        // of `t`: a scalar constant of the body, rebuilt as i32 above when it was an index.
                        let splat = unsafe { mlirDenseElementsAttrSplatGet(vt(t), value) };
                        b.value("arith.constant", &[], vt(t), &[("value", splat)])
                    }
                }
                _ => {
                    let mut operands = Vec::new();
                    for v in raw::operands(o) {
                        operands.push(self.operand(b, o, v, bind, loops)?);
                    }
                    // SAFETY: `r` is a result of the live op `o`; only its type is read.
                    let types: Vec<MlirType> = results.iter().map(|&r| vt(elem_of(self.ctx, unsafe { mlirValueGetType(r) }))).collect();
                    let attrs = copy_attrs(o);
                    let new = b.op(&name, &operands, &types, &attr_refs(&attrs));
                    for (i, &r) in results.iter().enumerate() {
                        // SAFETY: `new` was just built with one result per entry of `results`, so `i` is below its
                        // result count.
                        bind.insert(key(r), unsafe { mlirOperationGetResult(new, i as isize) });
                    }
                    continue;
                }
            };
            bind.insert(key(results[0]), v);
        }
        let _ = at;
        Ok(())
    }

    /// `linalg.matmul` / `linalg.batch_matmul` inside a rows or whole kernel:
    /// `tpu.matmul` of the operands' blocks, added to the initial value.
    /// `tpu.matmul` of `x` [.., M, K] and `y` [.., K, N] into a zero
    /// accumulator of [.., M, N], with every dimension the MXU rule would
    /// refuse (see floors-tpu-check-legality: more than one tile and not a
    /// multiple of it) zero-padded first and the result sliced back: zeros
    /// along K add nothing, extra rows and columns are dropped.
    #[allow(clippy::too_many_arguments)]
    fn mxu_matmul(
        &self,
        b: &Builder,
        at: MlirOperation,
        (x, xs): (MlirValue, &[i64]),
        (y, ys): (MlirValue, &[i64]),
        out: &[i64],
        elem: MlirType,
        dn: MlirAttribute,
    ) -> R<MlirValue> {
        let r = xs.len();
        if r < 2 || ys.len() != r || out.len() != r {
            return Err(fail(at, "internal error: matmul operands of unexpected ranks"));
        }
        let round = |n: i64, m: i64| if n > m && n % m != 0 { (n + m - 1) / m * m } else { n };
        // SAFETY: `x` is a live value of the kernel being built; only its type is read.
        let sx = super::blocks::sublanes(super::blocks::element_bits(unsafe { mlirValueGetType(x) }));
        // SAFETY: `y` is a live value of the kernel being built; only its type is read.
        let sy = super::blocks::sublanes(super::blocks::element_bits(unsafe { mlirValueGetType(y) }));
        let (m, k, n) = (xs[r - 2], xs[r - 1], ys[r - 1]);
        let mp = round(m, sx);
        // K is the lhs's lane dimension and the rhs's sublane dimension.
        let kp = if k > 128 { round(k, 128) } else { round(k, sy) };
        let np = round(n, 128);
        let pad = |v: MlirValue, shape: &[i64], rows: i64, cols: i64| -> R<(MlirValue, Vec<i64>)> {
            let mut target = shape.to_vec();
            target[r - 2] = rows;
            target[r - 1] = cols;
            if target == shape {
                return Ok((v, target));
            }
            // SAFETY: `v` is a live value of the kernel being built; only its type is read.
            let e = elem_of(self.ctx, unsafe { mlirValueGetType(v) });
            let zero = self.zero_vector(b, at, &target, e)?;
            let padded = b.value(
                "vector.insert_strided_slice",
                &[v, zero],
                b.vector(&target, e),
                &[("offsets", self.i64_array_attr(&vec![0; r])), ("strides", self.i64_array_attr(&vec![1; r]))],
            );
            Ok((padded, target))
        };
        let (xp, _) = pad(x, xs, mp, kp)?;
        let (yp, _) = pad(y, ys, kp, np)?;
        let mut outp = out.to_vec();
        outp[r - 2] = mp;
        outp[r - 1] = np;
        let zero = self.zero_vector(b, at, &outp, elem)?;
        let prod = b.value(
            "tpu.matmul",
            &[xp, yp, zero],
            b.vector(&outp, elem),
            &[("dimension_numbers", dn), ("transpose_lhs_hint", b.bool_attr(false))],
        );
        if outp == out {
            return Ok(prod);
        }
        Ok(b.value(
            "vector.extract_strided_slice",
            &[prod],
            b.vector(out, elem),
            &[
                ("offsets", self.i64_array_attr(&vec![0; r])),
                ("sizes", self.i64_array_attr(out)),
                ("strides", self.i64_array_attr(&vec![1; r])),
            ],
        ))
    }

    fn emit_named_matmul(&mut self, b: &Builder, op: MlirOperation, name: &str) -> R<()> {
        let operands = raw::operands(op);
        let result = raw::results(op)[0];
        let (x, xs) = self.val(op, operands[0])?;
        let (y, ys) = self.val(op, operands[1])?;
        let shape = self.block_of(result);
        let elem = value_elem(self.ctx, result);
        let vt = b.vector(&shape, elem);
        let dims = if name == "linalg.matmul" { MATMUL_DIMS } else { BATCH_MATMUL_DIMS };
        let dn = dot_dimension_numbers(self.ctx, dims).ok_or_else(|| fail(op, "internal error: no #tpu.dot_dimension_numbers"))?;
        let prod = self.mxu_matmul(b, op, (x, &xs), (y, &ys), &shape, elem, dn)?;
        let v = match self.repr(op, operands[2])? {
            Repr::Empty { .. } => prod,
            Repr::Val { v: init, .. } => {
                let add = if is_float(elem) { "arith.addf" } else { "arith.addi" };
                b.value(add, &[init, prod], vt, &[])
            }
        };
        self.env.insert(key(result), Repr::Val { v, shape });
        Ok(())
    }
}

/// Every attribute of `op` (inherent and discardable), to put on its vector twin.
fn copy_attrs(op: MlirOperation) -> Vec<(String, MlirAttribute)> {
    // SAFETY: `op` is a live op of the fusion body and `i` stays below its attribute count; the name is copied into a
    // `String`, and the attribute is owned by the context.
    unsafe {
        (0..mlirOperationGetNumAttributes(op))
            .map(|i| {
                let na = mlirOperationGetAttribute(op, i);
                (raw::string(mlirIdentifierStr(na.name)), na.attribute)
            })
            .collect()
    }
}

fn attr_refs(attrs: &[(String, MlirAttribute)]) -> Vec<(&str, MlirAttribute)> {
    attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect()
}

/// A structured op (not a named matmul) being emitted: its structure,
/// operands and results, its body (ops and block arguments), the block sizes
/// of its loops with their grid axes, its inputs expanded over the loops,
/// its reduced loops, and per result the loops of its dims.
struct StructuredOp {
    op: MlirOperation,
    s: blocks::Structured,
    operands: Vec<MlirValue>,
    results: Vec<MlirValue>,
    inner: Vec<MlirOperation>,
    args: Vec<MlirValue>,
    loops: Vec<i64>,
    axes: Vec<Option<usize>>,
    ins: Vec<MlirValue>,
    reduced: Vec<usize>,
    out_loops: Vec<Vec<usize>>,
}

/// For a one-output reduction body `out = comb(out, x)` (either order) with
/// a known combining kind and `out` used nowhere else: the combining op and
/// the value it combines in.
fn single_combiner(inner: &[MlirOperation], args: &[MlirValue], ni: usize) -> Option<(MlirOperation, MlirValue)> {
    let out = *args.get(ni)?;
    let y = *inner.last()?;
    let yv = *raw::operands(y).first()?;
    let cop = raw::producer(yv)?;
    combining_kind(&raw::name(cop))?;
    let ops = raw::operands(cop);
    if ops.len() != 2 || raw::uses(out).len() != 1 {
        return None;
    }
    if ops[0].ptr == out.ptr {
        Some((cop, ops[1]))
    } else if ops[1].ptr == out.ptr {
        Some((cop, ops[0]))
    } else {
        None
    }
}

/// Whether `op`'s regions read any value in `set` (captured from outside).
fn captures_any(op: MlirOperation, set: &std::collections::HashSet<usize>) -> bool {
    raw::region_blocks(op)
        .iter()
        .any(|&blk| raw::block_ops(blk).iter().any(|&o| raw::operands(o).iter().any(|v| set.contains(&key(*v))) || captures_any(o, set)))
}

/// Whether every use of `op`'s results is `target` (the matmul init's feeders).
fn only_feeds(op: MlirOperation, target: MlirOperation) -> bool {
    let results = raw::results(op);
    !results.is_empty() && results.iter().all(|&r| raw::uses(r).iter().all(|(u, _)| u.ptr == target.ptr))
}

/// Static offsets, sizes and strides of a tensor slice op.
fn static_slice(op: MlirOperation) -> R<(Vec<i64>, Vec<i64>, Vec<i64>)> {
    let get = |n: &str| raw::i64_array(op, n).ok_or_else(|| fail(op, format!("a slice without {n}")));
    let (o, s, t) = (get("static_offsets")?, get("static_sizes")?, get("static_strides")?);
    if o.iter().chain(&s).chain(&t).any(|&x| x < 0) {
        return Err(fail(op, "a slice with dynamic offsets, sizes or strides has no TPU lowering yet"));
    }
    Ok((o, s, t))
}

#[cfg(test)]
mod tests {
    use melior::ir::{Attribute, AttributeLike};

    use super::*;

    /// The built dimension numbers are the attributes their spellings denote.
    #[test]
    fn dot_dimension_numbers_build_their_spelling() {
        let c = floors_ir::context::create_context();
        for (dims, text) in [
            (MATMUL_DIMS, "#tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>"),
            (BATCH_MATMUL_DIMS, "#tpu.dot_dimension_numbers<[2], [1], [1], [2], [0, 0, 0, 1, 1, 2], [0], [0]>"),
        ] {
            let built = dot_dimension_numbers(c.to_raw(), dims).expect(text);
            let parsed = Attribute::parse(&c, text).expect(text);
            // SAFETY: both attributes live in `c`.
            assert!(unsafe { mlirAttributeEqual(built, parsed.to_raw()) }, "{text}");
        }
        let odd: DotDims = [&[1], &[0], &[0], &[1], &[0, 0, 1], &[], &[]];
        assert!(dot_dimension_numbers(c.to_raw(), odd).is_none(), "output order must be pairs");
    }
}
