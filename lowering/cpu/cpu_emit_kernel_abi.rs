//! `floors-cpu-emit-kernel-abi`: for every kernel `@fusion_N` (after
//! bufferization: static, identity-layout memref arguments, inputs then
//! outputs) emit the host entry point of the uniform kernel ABI
//!
//! ```text
//! func.func @fusion_N_kernel(%frame: !llvm.ptr) -> !llvm.ptr   // → llvm.func, C symbol fusion_N_kernel
//! struct KernelCallFrame { u64 grid[3]; u64 workgroup[3]; u64 num_args; KernelArg *args; }
//! struct KernelArg { void *ptr; u64 size; }          // size in bytes
//! struct KernelError { const char *message; }        // returned; NULL = success
//! ```
//!
//! (the runtime crate's `kernel_abi` owns this layout; the pass takes the
//! struct types, field indices and the entry-point suffix from
//! [`floors_ir::contract`]). The entry point checks,
//! in this order, and returns a pointer to a static `KernelError` naming the
//! problem instead of computing:
//! 1. `num_args` equals the kernel's argument count;
//! 2. the grid is G×1×1, where G is the kernel's `floors.grid` (1 when it has
//!    none), and the workgroup id x is below G. A kernel with a grid was
//!    split by `floors-linalg-distribute-workgroups`: this pass first binds its
//!    `floors.workgroups` loop to a trailing `index` argument
//!    ([`bind_workgroups`]), and the entry point passes the frame's
//!    workgroup x there, so workgroup `w` computes only its chunk;
//! 3. every `args[i].size` equals the byte size of argument i, and its
//!    pointer is not NULL (unless the size is 0).
//!
//! Then it builds one memref descriptor per argument (allocated = aligned =
//! `ptr`, offset 0, the static sizes, row-major strides), calls `@fusion_N`
//! and returns NULL. The descriptors are `!llvm.struct`s cast to memrefs with
//! `builtin.unrealized_conversion_cast`; the casts cancel against the ones
//! `finalize-memref-to-llvm`/`convert-func-to-llvm` insert, in
//! `reconcile-unrealized-casts`.
//!
//! The pass runs after bufferization and before the memref/func → LLVM
//! conversions (see `floors-lower-cpu`). Like `floors-linalg-lower-stablehlo` it
//! writes the new IR as MLIR text and parses it in the pass's context.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use floors_ir::{
    contract::{
        ENTRY_SUFFIX, KERNEL_ATTR, NUM_INPUTS_ATTR,
        layout::{
            ARG_LLVM_TYPE, ARG_PTR, ARG_SIZE, ERROR_LLVM_TYPE, FRAME_ARGS, FRAME_GRID, FRAME_LLVM_TYPE, FRAME_NUM_ARGS, FRAME_WORKGROUP,
        },
    },
    ir::{
        raw,
        raw::{sref, type_text},
    },
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

use crate::streaming::{NONTEMPORAL_ATTR, streamable_outputs};

use floors_linalg::workgroups::bind_workgroups;

#[derive(Clone, Default)]
pub struct CpuEmitKernelAbi;

/// An MLIR string literal body (without quotes), NUL-terminated.
fn c_string_literal(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_graphic() && b != b'"' && b != b'\\' || b == b' ' {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\{b:02X}"));
        }
    }
    out.push_str("\\00");
    out
}

/// One memref argument of a kernel.
struct Arg {
    ty: String,
    shape: Vec<i64>,
    bytes: u64,
}

fn read_arg(func: MlirOperation, name: &str, i: usize, t: MlirType) -> Result<Arg, PassFailure> {
    // SAFETY: `t` is the type of a live kernel's argument; the shaped and memref getters run only
    // after `mlirTypeIsAMemRef` (a ranked memref), with `d` below its rank; the layout is read as
    // an affine map only after `mlirAttributeIsAAffineMap`.
    unsafe {
        if !mlirTypeIsAMemRef(t) {
            return Err(fail(func, format!("{name}: argument {i} has type {}, expected a memref (run after bufferization)", type_text(t))));
        }
        let rank = mlirShapedTypeGetRank(t);
        let shape: Vec<i64> = (0..rank).map(|d| mlirShapedTypeGetDimSize(t, d as isize)).collect();
        if !mlirShapedTypeHasStaticShape(t) {
            return Err(fail(func, format!("{name}: argument {i} has a dynamic shape {}, not supported yet", type_text(t))));
        }
        let layout = mlirMemRefTypeGetLayout(t);
        let identity =
            layout.ptr.is_null() || (mlirAttributeIsAAffineMap(layout) && mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(layout)));
        if !identity {
            return Err(fail(func, format!("{name}: argument {i} has a non-identity layout {}", type_text(t))));
        }
        let ms = mlirMemRefTypeGetMemorySpace(t);
        if !ms.ptr.is_null() {
            return Err(fail(func, format!("{name}: argument {i} is in a memory space: {}", type_text(t))));
        }
        let elem = mlirShapedTypeGetElementType(t);
        let complex_of_float = mlirTypeIsAComplex(elem) && mlirTypeIsAFloat(mlirComplexTypeGetElementType(elem));
        if !(mlirTypeIsAInteger(elem) || mlirTypeIsAFloat(elem) || mlirTypeIsAIndex(elem) || complex_of_float) {
            return Err(fail(func, format!("{name}: argument {i} has element type {}, not supported yet", type_text(elem))));
        }
        let numel: i64 = shape.iter().product();
        let bytes = numel.max(0) as u64 * raw::element_bytes(t);
        Ok(Arg { ty: type_text(t), shape, bytes })
    }
}

fn descriptor_type(rank: usize) -> String {
    if rank == 0 {
        "!llvm.struct<(ptr, ptr, i64)>".into()
    } else {
        format!("!llvm.struct<(ptr, ptr, i64, array<{rank} x i64>, array<{rank} x i64>)>")
    }
}

/// The entry point and its error globals, as MLIR text (a module body).
/// `streamed`: the arguments a `@{name}_nt` clone writes with non-temporal
/// stores (see `cpu_nontemporal_stores`); empty when there is no clone.
fn entry_text(name: &str, args: &[Arg], num_inputs: usize, grid: i64, zero_only: bool, streamed: &[usize]) -> String {
    let mut g = String::new(); // globals
    let mut b = String::new(); // body
    let mut n_err = 0usize;
    // Emits a static KernelError with `msg`; returns its symbol.
    let mut error = |g: &mut String, msg: &str| -> String {
        let sym = format!("{name}_error_{n_err}");
        n_err += 1;
        g.push_str(&format!("  llvm.mlir.global private constant @{sym}_msg(\"{}\") {{addr_space = 0 : i32}}\n", c_string_literal(msg)));
        g.push_str(&format!(
            "  llvm.mlir.global private constant @{sym}() {{addr_space = 0 : i32}} : {ERROR_LLVM_TYPE} {{\n\
             \x20   %0 = llvm.mlir.addressof @{sym}_msg : !llvm.ptr\n\
             \x20   %1 = llvm.mlir.undef : {ERROR_LLVM_TYPE}\n\
             \x20   %2 = llvm.insertvalue %0, %1[0] : {ERROR_LLVM_TYPE}\n\
             \x20   llvm.return %2 : {ERROR_LLVM_TYPE}\n  }}\n"
        ));
        sym
    };
    let mut blk = 0usize;
    // A check: branch to an error return when `cond` (an i1 SSA name) is false.
    let mut check = |b: &mut String, g: &mut String, cond: &str, msg: &str| {
        let sym = error(g, msg);
        b.push_str(&format!("    cf.cond_br {cond}, ^ok{blk}, ^bad{blk}\n  ^bad{blk}:\n"));
        b.push_str(&format!("    %err{blk} = llvm.mlir.addressof @{sym} : !llvm.ptr\n    return %err{blk} : !llvm.ptr\n"));
        b.push_str(&format!("  ^ok{blk}:\n"));
        blk += 1;
    };
    let n = args.len();
    let what = |i: usize| {
        if i < num_inputs { format!("input {i}") } else { format!("output {}", i - num_inputs) }
    };
    b.push_str(&format!("  func.func @{name}{ENTRY_SUFFIX}(%frame: !llvm.ptr) -> !llvm.ptr {{\n"));
    b.push_str("    %c0 = arith.constant 0 : i64\n    %c1 = arith.constant 1 : i64\n    %null = llvm.mlir.zero : !llvm.ptr\n");
    b.push_str(&format!(
        "    %nargs_p = llvm.getelementptr %frame[0, {FRAME_NUM_ARGS}] : (!llvm.ptr) -> !llvm.ptr, {FRAME_LLVM_TYPE}\n\
         \x20   %nargs = llvm.load %nargs_p : !llvm.ptr -> i64\n\
         \x20   %nargs_want = arith.constant {n} : i64\n\
         \x20   %nargs_ok = arith.cmpi eq, %nargs, %nargs_want : i64\n"
    ));
    check(&mut b, &mut g, "%nargs_ok", &format!("{name}: expected {n} arguments ({num_inputs} inputs, then {} outputs)", n - num_inputs));
    b.push_str(&format!("    %gridx_want = arith.constant {grid} : i64\n"));
    for d in 0..3 {
        let want = if d == 0 { "%gridx_want" } else { "%c1" };
        b.push_str(&format!(
            "    %grid{d}_p = llvm.getelementptr %frame[0, {FRAME_GRID}, {d}] : (!llvm.ptr) -> !llvm.ptr, {FRAME_LLVM_TYPE}\n\
             \x20   %grid{d} = llvm.load %grid{d}_p : !llvm.ptr -> i64\n\
             \x20   %grid{d}_one = arith.cmpi eq, %grid{d}, {want} : i64\n"
        ));
    }
    b.push_str("    %grid01 = arith.andi %grid0_one, %grid1_one : i1\n    %grid_ok = arith.andi %grid01, %grid2_one : i1\n");
    check(&mut b, &mut g, "%grid_ok", &format!("{name}: the grid must be {grid}x1x1 (the kernel was compiled for {grid} workgroup(s))"));
    // The workgroup id (x): within the grid, checked; y and z are 0.
    b.push_str(&format!(
        "    %wg_p = llvm.getelementptr %frame[0, {FRAME_WORKGROUP}, 0] : (!llvm.ptr) -> !llvm.ptr, {FRAME_LLVM_TYPE}\n\
         \x20   %wg = llvm.load %wg_p : !llvm.ptr -> i64\n\
         \x20   %wg_ok = arith.cmpi ult, %wg, %gridx_want : i64\n"
    ));
    check(&mut b, &mut g, "%wg_ok", &format!("{name}: the workgroup id must be below the grid size {grid}"));
    b.push_str("    %wg_index = arith.index_cast %wg : i64 to index\n");
    if zero_only {
        // Not split: workgroup 0 does the whole kernel.
        b.push_str(
            "    %wg_zero = arith.cmpi eq, %wg, %c0 : i64\n    cf.cond_br %wg_zero, ^run, ^idle\n  ^idle:\n    return %null : !llvm.ptr\n  ^run:\n",
        );
    }
    b.push_str(&format!(
        "    %args_p = llvm.getelementptr %frame[0, {FRAME_ARGS}] : (!llvm.ptr) -> !llvm.ptr, {FRAME_LLVM_TYPE}\n\
         \x20   %args = llvm.load %args_p : !llvm.ptr -> !llvm.ptr\n"
    ));
    for (i, a) in args.iter().enumerate() {
        b.push_str(&format!(
            "    %size{i}_p = llvm.getelementptr %args[{i}, {ARG_SIZE}] : (!llvm.ptr) -> !llvm.ptr, {ARG_LLVM_TYPE}\n\
             \x20   %size{i} = llvm.load %size{i}_p : !llvm.ptr -> i64\n\
             \x20   %size{i}_want = arith.constant {} : i64\n\
             \x20   %size{i}_ok = arith.cmpi eq, %size{i}, %size{i}_want : i64\n",
            a.bytes
        ));
        check(&mut b, &mut g, &format!("%size{i}_ok"), &format!("{name}: argument {i} ({}, {}) must be {} bytes", what(i), a.ty, a.bytes));
        b.push_str(&format!(
            "    %ptr{i}_p = llvm.getelementptr %args[{i}, {ARG_PTR}] : (!llvm.ptr) -> !llvm.ptr, {ARG_LLVM_TYPE}\n\
             \x20   %ptr{i} = llvm.load %ptr{i}_p : !llvm.ptr -> !llvm.ptr\n"
        ));
        if a.bytes > 0 {
            b.push_str(&format!("    %ptr{i}_ok = llvm.icmp \"ne\" %ptr{i}, %null : !llvm.ptr\n"));
            check(&mut b, &mut g, &format!("%ptr{i}_ok"), &format!("{name}: argument {i} ({}, {}) is NULL", what(i), a.ty));
        }
        let dt = descriptor_type(a.shape.len());
        b.push_str(&format!(
            "    %d{i}_0 = llvm.mlir.undef : {dt}\n\
             \x20   %d{i}_1 = llvm.insertvalue %ptr{i}, %d{i}_0[0] : {dt}\n\
             \x20   %d{i}_2 = llvm.insertvalue %ptr{i}, %d{i}_1[1] : {dt}\n\
             \x20   %d{i}_3 = llvm.insertvalue %c0, %d{i}_2[2] : {dt}\n"
        ));
        let mut last = format!("%d{i}_3");
        let mut stride = 1i64;
        let rank = a.shape.len();
        for d in (0..rank).rev() {
            b.push_str(&format!(
                "    %d{i}_s{d} = arith.constant {} : i64\n\
                 \x20   %d{i}_st{d} = arith.constant {stride} : i64\n\
                 \x20   %d{i}_a{d} = llvm.insertvalue %d{i}_s{d}, {last}[3, {d}] : {dt}\n\
                 \x20   %d{i}_b{d} = llvm.insertvalue %d{i}_st{d}, %d{i}_a{d}[4, {d}] : {dt}\n",
                a.shape[d]
            ));
            last = format!("%d{i}_b{d}");
            stride *= a.shape[d].max(1);
        }
        b.push_str(&format!("    %m{i} = builtin.unrealized_conversion_cast {last} : {dt} to {}\n", a.ty));
    }
    let mut ms: Vec<String> = (0..n).map(|i| format!("%m{i}")).collect();
    let mut tys: Vec<&str> = args.iter().map(|a| a.ty.as_str()).collect();
    if grid > 1 && !zero_only {
        ms.push("%wg_index".into());
        tys.push("index");
    }
    let call = format!("    call @{name}{{}}({}) : ({}) -> ()\n", ms.join(", "), tys.join(", "));
    // Declarations of the kernels so the text verifies on its own; not moved.
    let mut decl = format!("  func.func private @{name}({})\n", tys.join(", "));
    if !streamed.is_empty() {
        // The streaming clone only when every streamed pointer is 64-byte
        // aligned (vmovntps faults otherwise); LLVM is told so, and the
        // streamed lines are fenced before the thunk reports completion.
        decl.push_str(&format!("  func.func private @{name}{NT_SUFFIX}({})\n", tys.join(", ")));
        b.push_str("    %c63 = arith.constant 63 : i64\n    %c64 = arith.constant 64 : i64\n    %true = arith.constant true\n");
        let mut all = "%true".to_string();
        for &i in streamed {
            b.push_str(&format!(
                "    %addr{i} = llvm.ptrtoint %ptr{i} : !llvm.ptr to i64\n\
                 \x20   %low{i} = arith.andi %addr{i}, %c63 : i64\n\
                 \x20   %al{i} = arith.cmpi eq, %low{i}, %c0 : i64\n\
                 \x20   %all{i} = arith.andi {all}, %al{i} : i1\n"
            ));
            all = format!("%all{i}");
        }
        b.push_str(&format!("    cf.cond_br {all}, ^stream, ^plain\n  ^stream:\n"));
        for &i in streamed {
            b.push_str(&format!("    llvm.intr.assume %true [\"align\"(%ptr{i}, %c64 : !llvm.ptr, i64)] : i1\n"));
        }
        b.push_str(&call.replace("{}", NT_SUFFIX));
        b.push_str("    llvm.call_intrinsic \"llvm.x86.sse.sfence\"() : () -> ()\n    return %null : !llvm.ptr\n  ^plain:\n");
    }
    b.push_str(&call.replace("{}", ""));
    b.push_str("    return %null : !llvm.ptr\n  }\n");
    format!("module {{\n{decl}{g}{b}}}\n")
}

impl FloorsPass for CpuEmitKernelAbi {
    const ARGUMENT: &'static str = "floors-cpu-emit-kernel-abi";
    const NAME: &'static str = "FloorsCpuEmitKernelAbi";
    const DESCRIPTION: &'static str = "Emit the host kernel ABI entry point @fusion_N_kernel(frame) -> error for every \
         bufferized kernel @fusion_N (grid, workgroup id, argument count and byte sizes checked; split kernels bound to their workgroup)";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        // SAFETY: the getter takes nothing and returns the static handle of the cf dialect, linked
        // into this binary.
        vec![DialectHandle::func(), DialectHandle::arith(), DialectHandle::llvm(), unsafe {
            DialectHandle::from_raw(mlirGetDialectHandle__cf__())
        }]
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        // SAFETY: `root` is the live `builtin.module` the pass runs on, which has exactly one
        // region.
        let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(root, 0)) };
        let kernels: Vec<MlirOperation> =
            raw::block_ops(body).into_iter().filter(|&o| raw::name(o) == "func.func" && raw::attr(o, KERNEL_ATTR).is_some()).collect();
        // Streaming stores (and the sfence after them) are x86's.
        let x86 = floors_ir::target::CpuTarget::of_operation(root).is_some_and(|t| t.triple.starts_with("x86_64"));
        for f in kernels {
            // SAFETY: `f` is a live `func.func`, whose verifier makes `sym_name` a StringAttr; its
            // text is copied at once.
            let name = unsafe { raw::string(mlirStringAttrGetValue(raw::attr(f, "sym_name").unwrap())) };
            let num_inputs = raw::attr(f, NUM_INPUTS_ATTR)
                // SAFETY: `a` is a live attribute of `f`.
                .filter(|&a| unsafe { mlirAttributeIsAInteger(a) })
                // SAFETY: `a` was checked to be an IntegerAttr just above.
                .map(|a| unsafe { mlirIntegerAttrGetValueInt(a) } as usize)
                .ok_or_else(|| fail(f, format!("{name}: kernel without a {NUM_INPUTS_ATTR} attribute")))?;
            // SAFETY: `f` is a live `func.func`, whose verifier makes `function_type` a TypeAttr of
            // a FunctionType.
            let fty = unsafe { mlirTypeAttrGetValue(raw::attr(f, "function_type").unwrap()) };
            // SAFETY: `fty` is a FunctionType (see above).
            let (nin, nres) = unsafe { (mlirFunctionTypeGetNumInputs(fty), mlirFunctionTypeGetNumResults(fty)) };
            if nres != 0 {
                return Err(fail(f, format!("{name}: a kernel must return nothing (outputs are arguments), this one has {nres} results")));
            }
            // A split kernel takes its workgroup id as a trailing index argument.
            let grid = bind_workgroups(f, &name, (nin as usize).saturating_sub(num_inputs))?;
            let mut args = Vec::new();
            for i in 0..nin {
                // SAFETY: `i` is below `nin`, the input count of `fty`.
                args.push(read_arg(f, &name, i as usize, unsafe { mlirFunctionTypeGetInput(fty, i) })?);
            }
            if num_inputs > args.len() {
                return Err(fail(f, format!("{name}: {NUM_INPUTS_ATTR} = {num_inputs} but the kernel has {} arguments", args.len())));
            }
            let bytes: Vec<u64> = args.iter().map(|a| a.bytes).collect();
            let streamed = if x86 { streamable_outputs(f, num_inputs, &bytes) } else { Vec::new() };
            if !streamed.is_empty() {
                clone_streaming(f, body, &name, &streamed);
            }
            let text = entry_text(
                &name,
                &args,
                num_inputs,
                grid.as_ref().map_or(1, |b| b.grid),
                grid.as_ref().is_some_and(|b| b.zero_only),
                &streamed,
            );
            // SAFETY: `root` and `f` are live. The parsed module is in `root`'s context and checked
            // non-null; its body's ops, listed before any move, are detached one at a time and
            // inserted into `body` after `f` or the op moved before, so that block owns them.
            // `parsed` is then destroyed with only the skipped declarations left in it. The string
            // attribute belongs to `ctx`; every string reference points at a Rust string that
            // outlives its call.
            unsafe {
                let ctx = mlirOperationGetContext(root);
                let parsed = mlirOperationCreateParse(ctx, sref(&text), sref("floors-cpu-emit-kernel-abi"));
                if parsed.ptr.is_null() {
                    return Err(fail(f, format!("internal error: the entry point of {name} does not parse:\n{text}")));
                }
                let loc = mlirOperationGetLocation(f);
                let pbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(parsed, 0));
                let mut after = f;
                // Past the kernels' declarations (one, or two with a clone).
                for o in raw::block_ops(pbody).into_iter().skip(if streamed.is_empty() { 1 } else { 2 }) {
                    mlirOperationRemoveFromParent(o);
                    set_locations(o, loc);
                    mlirBlockInsertOwnedOperationAfter(body, after, o);
                    after = o;
                }
                mlirOperationDestroy(parsed);
                // Only the entry is called from outside; private, the kernel
                // can be inlined into it and dropped (`inline` in
                // floors-cpu-kernels-to-llvm), so no call is left to resolve
                // by symbol when lowering to LLVM (a scan of the module each).
                mlirOperationSetAttributeByName(f, sref("sym_visibility"), mlirStringAttrGet(ctx, sref("private")));
            }
        }
        Ok(())
    }
}

/// Suffix of a kernel's streaming clone.
const NT_SUFFIX: &str = "_nt";

/// `@{name}_nt`: a private copy of kernel `f` (inserted after it) whose
/// `streamed` arguments `floors-cpu-nontemporal-stores` writes with
/// non-temporal stores.
fn clone_streaming(f: MlirOperation, body: MlirBlock, name: &str, streamed: &[usize]) {
    // SAFETY: `f` is a live kernel in `body`. Its clone is detached until, with its attributes set
    // (of `f`'s context; `idx` and the name strings outlive the calls), it is inserted into `body`
    // after `f`, so the block owns it.
    unsafe {
        let ctx = mlirOperationGetContext(f);
        let c = mlirOperationClone(f);
        mlirOperationSetAttributeByName(c, sref("sym_name"), mlirStringAttrGet(ctx, sref(&format!("{name}{NT_SUFFIX}"))));
        mlirOperationSetAttributeByName(c, sref("sym_visibility"), mlirStringAttrGet(ctx, sref("private")));
        // Not a kernel of its own: the entry point of `f` calls it.
        mlirOperationRemoveAttributeByName(c, sref(KERNEL_ATTR));
        let idx: Vec<i64> = streamed.iter().map(|&i| i as i64).collect();
        mlirOperationSetAttributeByName(c, sref(NONTEMPORAL_ATTR), mlirDenseI64ArrayGet(ctx, idx.len() as isize, idx.as_ptr()));
        mlirBlockInsertOwnedOperationAfter(body, f, c);
    }
}

/// Gives `op` and everything nested in it the location `loc`.
fn set_locations(op: MlirOperation, loc: MlirLocation) {
    // SAFETY: callers pass live ops (the moved entry-point ops and the ops nested in them) and
    // `loc`, the kernel's location, of the same context.
    unsafe { mlirOperationSetLocation(op, loc) };
    for b in raw::region_blocks(op) {
        for o in raw::block_ops(b) {
            set_locations(o, loc);
        }
    }
}
