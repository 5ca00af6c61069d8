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

use super::blocks::{self, Analysis, Plan, Strategy, Tiling, analyze, block_shape, body_of, key, the_matmul};
use super::emitter::*;
use floors_ir::{
    contract::{KERNEL_ATTR, MANIFEST_ATTR, MOSAIC_VERSION, MOSAIC_VERSION_ATTR, TPU_KERNEL_MODULE_NAME},
    ir::{
        raw,
        raw::{sref, type_text},
    },
    op_builder::Builder,
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

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
    // An input updated at computed offsets stays in HBM, aliased to the
    // result; the update goes there by DMA.
    let access = if plan.strategy == Strategy::Whole { blocks::hbm_access(body) } else { blocks::HbmAccess::default() };
    let in_place = access.update;
    let aliased = access.aliased();
    let spec = |v: MlirValue, hbm: bool| -> WindowSpec {
        let array = raw::shape(v).unwrap_or_default();
        let tiling = analysis.of(v);
        WindowSpec { block: block_shape(&array, &tiling, &plan.block), array, tiling, elem: value_elem(ctx, v), hbm, smem: false }
    };
    let mut inputs: Vec<WindowSpec> = params.iter().enumerate().map(|(i, &v)| spec(v, access.in_hbm(i))).collect();
    for (i, w) in inputs.iter_mut().enumerate() {
        w.smem = access.in_smem(i);
    }
    let outputs: Vec<WindowSpec> = yields.iter().map(|&v| spec(v, aliased.is_some())).collect();
    let buffers = dma_buffers(ctx, &access, &inputs);
    let dma = DmaScratch { buffers, alias: aliased };
    let text = kernel_text(name, plan, &inputs, &outputs, matmul.map(|mm| value_elem(ctx, raw::results(mm)[0])), &dma);
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
            if w.hbm || w.smem {
                continue;
            }
            let r = e.load(&b, args[ng + i], w);
            e.env.insert(key(p), r);
        }
        let out_refs = &args[ng + params.len()..ng + params.len() + yields.len()];
        let body_ops = &ops[..ops.len() - 1];
        let scratch = &args[ng + params.len() + yields.len()..];
        match matmul {
            None if !dma.buffers.is_empty() => {
                let sem = scratch[dma.buffers.len()];
                for &op in body_ops {
                    if let Some(k) = access.reads.iter().position(|&(x, d)| x.ptr == op.ptr && d < params.len()) {
                        let d = access.reads[k].1;
                        e.emit_read_dma(&b, op, args[ng + d], scratch[k], sem)?;
                    } else if in_place.is_some_and(|(ins, _)| ins.ptr == op.ptr) {
                        e.emit_update_dma(&b, op, out_refs[0], scratch[access.reads.len()], sem)?;
                    } else if let Some(k) = access.gathers.iter().position(|g| g.generic.ptr == op.ptr) {
                        let g = &access.gathers[k];
                        let smem: HashMap<usize, MlirValue> = g.smem_inputs.iter().map(|&d| (d, args[ng + d])).collect();
                        let buf = scratch[access.reads.len() + usize::from(in_place.is_some()) + k];
                        e.emit_row_gather(&b, g, args[ng + g.src], &smem, buf, sem)?;
                    } else if let Some(sc) = access.scatter.as_ref().filter(|s| s.op.ptr == op.ptr) {
                        let smem: HashMap<usize, MlirValue> = sc.smem_inputs.iter().map(|&d| (d, args[ng + d])).collect();
                        let k = access.reads.len() + usize::from(in_place.is_some()) + access.gathers.len();
                        let row_buf = sc.operand.map(|_| scratch[k + 1]);
                        e.emit_row_scatter(&b, sc, out_refs[0], &smem, (row_buf, scratch[k], sem))?;
                    } else if access.gathers.iter().any(|g| g.absorbed.iter().any(|a| a.ptr == op.ptr))
                        || access.scatter.as_ref().is_some_and(|s| s.absorbed.iter().any(|a| a.ptr == op.ptr))
                    {
                        // Computed per row by the gather or per update by the scatter.
                    } else {
                        e.emit_op(&b, op)?;
                    }
                }
                // An aliased output was written by DMA, a row scatter's output window by the scatter.
                if aliased.is_none() && access.scatter.is_none() {
                    e.store_all(&b, &yields, out_refs, &outputs)?;
                }
            }
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

/// The VMEM buffers a grid-less kernel's DMAs go through, in the order the
/// emitter takes them: one per read slice, the update, one per row gather,
/// then a scatter's updates and (for an aliased operand) its row.
fn dma_buffers(ctx: MlirContext, access: &blocks::HbmAccess, inputs: &[WindowSpec]) -> Vec<String> {
    access
        .reads
        .iter()
        .chain(&access.update)
        .map(|&(op, d)| memref_text(&raw::i64_array(op, "static_sizes").unwrap_or_default(), inputs[d].elem, "vmem"))
        .chain(access.gathers.iter().map(|g| {
            let r = raw::results(g.generic)[0];
            memref_text(&raw::shape(r).unwrap_or_default(), value_elem(ctx, r), "vmem")
        }))
        .chain(access.scatter.iter().flat_map(|s| {
            let (x, upd) = (raw::operands(s.op)[0], raw::operands(s.op)[2]);
            let us = raw::shape(upd).unwrap_or_default();
            let row: Vec<i64> = std::iter::once(1).chain(us.iter().skip(1).copied()).collect();
            let row_buf = s.operand.map(|_| memref_text(&row, value_elem(ctx, x), "vmem"));
            std::iter::once(memref_text(&us, value_elem(ctx, upd), "vmem")).chain(row_buf)
        }))
        .collect()
}

/// A kernel ref's type; booleans are stored as i32 (`ref_elem`).
fn memref_text(shape: &[i64], elem: MlirType, space: &str) -> String {
    let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
    format!("memref<{dims}{}, #tpu.memory_space<{space}>>", type_text(ref_elem(elem)))
}

fn i64s_text(v: &[i64]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

/// The scratch of a grid-less kernel's DMAs: the VMEM buffers (memref
/// types) slices pass through, and the input aliased to the output.
struct DmaScratch {
    buffers: Vec<String>,
    alias: Option<usize>,
}

/// The kernel module with an empty kernel body (a `return`) and its index
/// maps: a small parsed template; the body is built op by op. `dma`: the
/// buffers DMAs go through (a DMA semaphore comes with them) and the input
/// aliased to the output.
fn kernel_text(name: &str, plan: &Plan, inputs: &[WindowSpec], outputs: &[WindowSpec], acc: Option<MlirType>, dma: &DmaScratch) -> String {
    let ng = plan.grid.len();
    let mut args: Vec<String> = (0..ng).map(|i| format!("%g{i}: i32")).collect();
    let windows: Vec<&WindowSpec> = inputs.iter().chain(outputs).collect();
    for (i, w) in windows.iter().enumerate() {
        let space = if w.hbm {
            "any"
        } else if w.array.is_empty() || w.smem {
            "smem"
        } else {
            "vmem"
        };
        args.push(format!("%w{i}: {}", memref_text(&w.block, w.elem, space)));
    }
    let mut scratch = 0;
    if let Some(acc) = acc {
        args.push(format!("%acc: {}", memref_text(&plan.block[..2], acc, "vmem")));
        scratch = 1;
    }
    let mut module_attrs = format!("{MOSAIC_VERSION_ATTR} = {MOSAIC_VERSION} : i64");
    if !dma.buffers.is_empty() {
        for (i, buf) in dma.buffers.iter().enumerate() {
            args.push(format!("%dma{i}: {buf}"));
        }
        args.push("%sem: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>".into());
        scratch += dma.buffers.len() + 1;
    }
    if let Some(d) = dma.alias {
        module_attrs.push_str(&format!(", {} = array<i64: {d}, 0>", floors_ir::contract::TPU_ALIASES_ATTR));
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
        "module @{name} attributes {{{module_attrs}}} {{\n  func.func @{name}({}) attributes {{{}}} {{\n    return\n  }}\n{transforms}}}",
        args.join(", "),
        attrs.join(", ")
    )
}
