//! The body of a Mosaic hand-off (`stablehlo.custom_call @tpu_custom_call`,
//! `backend_config.custom_call_config.body`): the kernel module in jaxlib's
//! wire form (`stable_mosaic.*` ops, `stable_mosaic.version = 11`), as MLIR
//! bytecode, base64 in the JSON. The conversion between normal and wire form
//! is `dialects/tpu/TpuSerde.cpp` (also the pass `floors-tpu-serde`).
//!
//! ```no_run
//! # fn demo(module: &melior::ir::Module) -> floors_ir::Result<()> {
//! let bytes = floors_tpu::handoff::encode_handoff_body(module)?;
//! let b64 = floors_tpu::handoff::to_base64(&bytes);
//! let back = floors_tpu::handoff::decode_handoff_body_in(&module.context(), &floors_tpu::handoff::from_base64(&b64)?)?;
//! # Ok(()) }
//! ```

use std::ffi::c_void;

use base64::Engine as _;
use melior::{Context, ContextRef, ir::Module};
use mlir_sys::{
    MlirStringRef, mlirBytecodeWriterConfigCreate, mlirBytecodeWriterConfigDesiredEmitVersion, mlirBytecodeWriterConfigDestroy,
    mlirContextGetAllowUnregisteredDialects, mlirContextSetAllowUnregisteredDialects, mlirModuleCreateParse, mlirOperationClone,
    mlirOperationDestroy, mlirOperationVerify, mlirOperationWriteBytecodeWithConfig,
};

use floors_ir::{
    diagnostics::{Capture, Diag, Diagnostics, Severity},
    error::{Error, Result},
};

/// The wire version floors writes: what jax 0.10.2 writes.
pub const WIRE_VERSION: i64 = 11;

/// The bytecode version jax writes hand-off bodies in (`desired_version=0`).
const BYTECODE_VERSION: i64 = 0;

/// Restores the context's "allow unregistered dialects" flag on drop.
struct AllowUnregistered {
    ctx: mlir_sys::MlirContext,
    before: bool,
}

impl AllowUnregistered {
    fn new(ctx: mlir_sys::MlirContext) -> Self {
        // SAFETY: `ctx` is the live context of the `&Context` the caller holds; the guard is a local of that caller,
        // dropped while the context still lives.
        let before = unsafe { mlirContextGetAllowUnregisteredDialects(ctx) };
        // SAFETY: as above; `drop` restores the flag.
        unsafe { mlirContextSetAllowUnregisteredDialects(ctx, true) };
        Self { ctx, before }
    }
}

impl Drop for AllowUnregistered {
    fn drop(&mut self) {
        // SAFETY: `self.ctx` was live in `new`, and the guard is a local dropped before the `&Context` it came from.
        unsafe { mlirContextSetAllowUnregisteredDialects(self.ctx, self.before) };
    }
}

fn error(message: impl Into<String>, diags: Diagnostics) -> Error {
    let mut d = diags;
    if !d.has_errors() {
        d.0.push(Diag { severity: Severity::Error, pos: None, message: message.into(), notes: vec![] });
    }
    Error::Diagnostics(d)
}

unsafe extern "C" fn collect(s: MlirStringRef, user: *mut c_void) {
    // SAFETY: `user` is `&mut bytes` that `encode_kernel_module` hands the bytecode writer: a live `Vec<u8>`, not
    // otherwise borrowed during the write.
    let out = unsafe { &mut *(user as *mut Vec<u8>) };
    if !s.data.is_null() && s.length > 0 {
        // SAFETY: the writer passes a non-null chunk (checked) of `s.length` bytes, valid during this callback; it is
        // copied.
        out.extend_from_slice(unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) });
    }
}

/// Converts a kernel module in normal form (a copy; `module` is unchanged)
/// to the wire form and writes it as MLIR bytecode: the hand-off body.
pub fn encode_handoff_body(module: &Module) -> Result<Vec<u8>> {
    let ctx_ref = module.context();
    // SAFETY: `ctx_ref` is the context of `module`, which the caller borrows: the reference is used only within this
    // call, while that context lives.
    let ctx: &Context = unsafe { ctx_ref.to_ref() };
    encode_kernel_module(ctx, module.as_operation().to_raw())
}

/// [`encode_handoff_body`] of a kernel module nested somewhere (a copy is
/// encoded, without the symbol name floors gives it: Pallas' module has none).
pub fn encode_kernel_module(ctx: &Context, module: mlir_sys::MlirOperation) -> Result<Vec<u8>> {
    let capture = Capture::new(ctx);
    let _allow = AllowUnregistered::new(ctx.to_raw());
    // SAFETY: `module` is a live op of `ctx` (the caller's kernel module); the clone is detached, owned here, and
    // destroyed on every path below.
    let copy = unsafe { mlirOperationClone(module) };
    // The body is what Pallas hands off: no symbol name, and the call's
    // parameters (aliases, VMEM limit) on the call, not in the kernel.
    for name in ["sym_name", ALIASES_ATTR, VMEM_LIMIT_ATTR] {
        // SAFETY: `copy` is the live clone; the name is a Rust string that outlives the call.
        unsafe { mlir_sys::mlirOperationRemoveAttributeByName(copy, floors_ir::ir::raw::sref(name)) };
    }
    // SAFETY: `copy` is a live, detached op (the C side checks it is a builtin.module); `_allow` lets the context hold
    // the wire form's unregistered ops.
    let ok = unsafe { floors_ir::capi::floorsTpuSerde(copy, true) };
    if !ok {
        // SAFETY: `copy` is owned here and not used after this.
        unsafe { mlirOperationDestroy(copy) };
        return Err(error("cannot convert the kernel to the Mosaic wire form", capture.take()));
    }
    let mut bytes: Vec<u8> = Vec::new();
    // SAFETY: creates a writer config, destroyed below.
    let config = unsafe { mlirBytecodeWriterConfigCreate() };
    // SAFETY: `config` was just created.
    unsafe { mlirBytecodeWriterConfigDesiredEmitVersion(config, BYTECODE_VERSION) };
    // SAFETY: `copy` and `config` are live; `collect` receives `&mut bytes`, a local that outlives the call and is not
    // touched during it.
    let written = unsafe { mlirOperationWriteBytecodeWithConfig(copy, config, Some(collect), &mut bytes as *mut Vec<u8> as *mut c_void) };
    // SAFETY: `config` and `copy` are owned here, destroyed once each, and not used afterwards.
    unsafe {
        mlirBytecodeWriterConfigDestroy(config);
        mlirOperationDestroy(copy);
    }
    if written.value == 0 {
        return Err(error("cannot write the kernel as MLIR bytecode", capture.take()));
    }
    Ok(bytes)
}

/// Parses a hand-off body (bytecode or text of a wire-form module), converts
/// it to normal form and verifies it with floors' dialects.
pub fn decode_handoff_body<'c>(context: &'c Context, bytes: &[u8]) -> Result<Module<'c>> {
    let capture = Capture::new(context);
    let raw = {
        let _allow = AllowUnregistered::new(context.to_raw());
        let source = MlirStringRef { data: bytes.as_ptr() as *const _, length: bytes.len() };
        // SAFETY: the context is live (borrowed); `source` points at `bytes`, alive for the call, and the parser copies
        // what it keeps; a null result is checked below.
        let m = unsafe { mlirModuleCreateParse(context.to_raw(), source) };
        if m.ptr.is_null() {
            return Err(error("cannot parse the Mosaic body (bytecode or text)", capture.take()));
        }
        m
    };
    // SAFETY: `raw` is the non-null module just parsed, owned by nothing else: the `Module` takes ownership of it.
    let module = unsafe { Module::from_raw(raw) };
    // SAFETY: `module` is a live builtin.module, owned above.
    let ok = unsafe { floors_ir::capi::floorsTpuSerde(module.as_operation().to_raw(), false) };
    if !ok {
        return Err(error("cannot convert the Mosaic body from its wire form", capture.take()));
    }
    // SAFETY: as above: `module` is live.
    if !unsafe { mlirOperationVerify(module.as_operation().to_raw()) } {
        return Err(error("the decoded Mosaic body does not verify", capture.take()));
    }
    Ok(module)
}

/// Like [`decode_handoff_body`], for a context borrowed from an op.
pub fn decode_handoff_body_in<'c>(context: &ContextRef<'c>, bytes: &[u8]) -> Result<Module<'c>> {
    // SAFETY: the reference carries the `ContextRef`'s lifetime 'c, during which the context lives.
    let ctx: &'c Context = unsafe { context.to_ref() };
    decode_handoff_body(ctx, bytes)
}

/// Standard base64 (with padding), as in `backend_config`.
pub fn to_base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Inverse of [`to_base64`].
pub fn from_base64(text: &str) -> Result<Vec<u8>> {
    base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| Error::Unsupported(format!("Mosaic body is not valid base64: {e}")))
}

/// The hand-off Pallas writes, for the whole program (`floors compile
/// --target tpu --emit tpu-handoff`): the fused StableHLO module with every
/// fusion replaced by `stablehlo.custom_call @tpu_custom_call` whose
/// `backend_config` carries the kernel (wire form, bytecode, base64) and
/// whose `kernel_name` names it, operand and result layouts row-major.
/// `fused` is the program after fusion (consumed: it becomes the hand-off),
/// `lowered` the same program through the TPU floor, both in `ctx`.
pub fn handoff_module(ctx: &Context, name: &str, fused: Module<'_>, lowered: &Module<'_>) -> Result<String> {
    use floors_ir::ir::raw;
    use floors_ir::ir::raw::sref;
    use mlir_sys::*;
    let top = lowered.as_operation().to_raw();
    let container = raw::region_blocks(top)
        .into_iter()
        .flat_map(raw::block_ops)
        .find(|&o| crate::is_kernel_container(o))
        .ok_or_else(|| Error::Unsupported(format!("{name}: no TPU kernel module was produced")))?;
    let kernels: Vec<MlirOperation> = raw::region_blocks(container).into_iter().flat_map(raw::block_ops).collect();
    let targets = crate::collect_fusions(fused.as_operation().to_raw());
    if targets.len() != kernels.len() {
        return Err(Error::Unsupported(format!("{name}: {} fusions but {} TPU kernels (internal)", targets.len(), kernels.len())));
    }
    let c = ctx.to_raw();
    // SAFETY: `c` is the live context of `ctx`; the values are operands or results of a live fusion; `[rank]`, `elems`
    // and `items` outlive the getters that read them, which copy them.
    let layouts = |values: &[MlirValue]| unsafe {
        let idx = mlirIndexTypeGet(c);
        let items: Vec<MlirAttribute> = values
            .iter()
            .map(|&v| {
                let rank = raw::shape(v).map_or(0, |s| s.len()) as i64;
                let minor_to_major: Vec<i64> = (0..rank).rev().collect();
                let t = mlirRankedTensorTypeGet(1, [rank].as_ptr(), idx, mlirAttributeGetNull());
                let elems: Vec<MlirAttribute> = minor_to_major.iter().map(|&d| mlirIntegerAttrGet(idx, d)).collect();
                mlirDenseElementsAttrGet(t, elems.len() as isize, elems.as_ptr())
            })
            .collect();
        mlirArrayAttrGet(c, items.len() as isize, items.as_ptr())
    };
    for (fusion, kernel) in targets.into_iter().zip(kernels) {
        let kname = raw::str_attr(kernel, "sym_name").unwrap_or_default();
        let body = to_base64(&encode_kernel_module(ctx, kernel)?);
        // Pallas' `cost_estimate` (XLA:TPU schedules around it), in the order jax writes the fields.
        let func = raw::region_blocks(kernel).into_iter().flat_map(raw::block_ops).find(|&o| raw::name(o) == "func.func");
        let cost = func.map(crate::cost::kernel_cost).unwrap_or_default().to_json();
        let config = format!(
            "{{\"custom_call_config\": {{\"body\": \"{body}\", \"cost_estimate\": {cost}, \"serialization_format\": 1, \"needs_layout_passes\": true}}}}"
        );
        let operands = raw::operands(fusion);
        let results = raw::results(fusion);
        // SAFETY: `fusion` is a live op of `fused`, in `c` as documented, with live operands and results (ranked
        // tensors: a fusion's); the strings, arrays and index lists outlive the calls, which copy them (a pair of the
        // alias attribute has two elements); each `stablehlo.convert` is created with one operand and one result
        // and inserted before `fusion` in its block, which owns it; `call` is created with one result per fusion
        // result, so `i` is in range, and inserted into `fusion`'s block, which owns it; once every use of `fusion`
        // goes to `call` (or its convert), `fusion` is destroyed, and never used again (`targets` is consumed).
        unsafe {
            let named = |n: &str, a: MlirAttribute| mlirNamedAttributeGet(mlirIdentifierGet(c, sref(n)), a);
            let mut attrs = vec![
                named("call_target_name", mlirStringAttrGet(c, sref("tpu_custom_call"))),
                named("backend_config", mlirStringAttrGet(c, sref(&config))),
                named("kernel_name", mlirStringAttrGet(c, sref(&kname))),
                named("operand_layouts", layouts(&operands)),
                named("result_layouts", layouts(&results)),
            ];
            // A kernel that updates an input in place: the call's result aliases it, as Pallas'
            // input_output_aliases hand off.
            if let Some(pairs) = raw::attr(kernel, ALIASES_ATTR).and_then(raw::i64s_of) {
                let none: [i64; 0] = [];
                let items: Vec<MlirAttribute> = pairs
                    .chunks(2)
                    .map(|p| {
                        // A single result has no tuple index; several are indexed as a tuple.
                        let out = [p[1]];
                        let (n, ptr) = if results.len() == 1 { (0, none.as_ptr()) } else { (1, out.as_ptr()) };
                        floors_ir::capi::floorsStablehloOutputOperandAliasGet(c, n, ptr, p[0], 0, none.as_ptr())
                    })
                    .collect();
                attrs.push(named("output_operand_aliases", mlirArrayAttrGet(c, items.len() as isize, items.as_ptr())));
            }
            // Booleans cross the call as i32, converted on both sides, as
            // Pallas does around every pallas_call (Mosaic has no i1 memrefs).
            let loc = mlirOperationGetLocation(fusion);
            let block = mlirOperationGetBlock(fusion);
            let widened = |t: MlirType| {
                let e = mlirShapedTypeGetElementType(t);
                (mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == 1).then(|| {
                    let shape: Vec<i64> = (0..mlirShapedTypeGetRank(t)).map(|d| mlirShapedTypeGetDimSize(t, d as isize)).collect();
                    mlirRankedTensorTypeGet(shape.len() as isize, shape.as_ptr(), mlirIntegerTypeGet(c, 32), mlirAttributeGetNull())
                })
            };
            let convert = |v: MlirValue, to: MlirType, before: MlirOperation| {
                let mut state = mlirOperationStateGet(sref("stablehlo.convert"), loc);
                mlirOperationStateAddOperands(&mut state, 1, &v);
                mlirOperationStateAddResults(&mut state, 1, &to);
                let op = mlirOperationCreate(&mut state);
                mlirBlockInsertOwnedOperationBefore(block, before, op);
                mlirOperationGetResult(op, 0)
            };
            let call_operands: Vec<MlirValue> =
                operands.iter().map(|&v| widened(mlirValueGetType(v)).map_or(v, |t| convert(v, t, fusion))).collect();
            let mut state = mlirOperationStateGet(sref("stablehlo.custom_call"), loc);
            mlirOperationStateAddOperands(&mut state, call_operands.len() as isize, call_operands.as_ptr());
            let types: Vec<MlirType> = results.iter().map(|&r| mlirValueGetType(r)).map(|t| widened(t).unwrap_or(t)).collect();
            mlirOperationStateAddResults(&mut state, types.len() as isize, types.as_ptr());
            mlirOperationStateAddAttributes(&mut state, attrs.len() as isize, attrs.as_ptr());
            let call = mlirOperationCreate(&mut state);
            mlirBlockInsertOwnedOperationBefore(block, fusion, call);
            for (i, &r) in results.iter().enumerate() {
                let out = mlirOperationGetResult(call, i as isize);
                let t = mlirValueGetType(r);
                let back = if widened(t).is_some() { convert(out, t, fusion) } else { out };
                mlirValueReplaceAllUsesOfWith(r, back);
            }
            mlirOperationDestroy(fusion);
        }
    }
    // SAFETY: `fused` is a live module owned by this function.
    if !unsafe { mlirOperationVerify(fused.as_operation().to_raw()) } {
        return Err(Error::Unsupported(format!("{name}: the hand-off module does not verify (internal)")));
    }
    Ok(floors_ir::ir::print_op(&fused.as_operation()))
}

/// Takes the Pallas kernels of a program apart (a module jax lowered for
/// TPU): every `stablehlo.custom_call @tpu_custom_call` in the host program
/// has its body decoded (base64 → bytecode → wire form → `tpu` dialect) into
/// a kernel module `@pallas_N` in the TPU floor's kernel container, and is
/// tagged `floors.kernel = "pallas_N"`, so the host program calls it like any
/// other kernel. Returns how many it took. Needs the container
/// (`floors-lower-tpu` has run).
pub fn import_pallas_calls(context: &Context, module: &Module) -> Result<usize> {
    use floors_ir::ir::raw;
    use floors_ir::ir::raw::sref;
    use mlir_sys::*;
    let top = module.as_operation().to_raw();
    let container = raw::region_blocks(top)
        .into_iter()
        .flat_map(raw::block_ops)
        .find(|&o| crate::is_kernel_container(o))
        .ok_or_else(|| Error::Unsupported("no TPU kernel container: run floors-lower-tpu first (internal)".into()))?;
    let mut calls = Vec::new();
    fn walk(op: MlirOperation, out: &mut Vec<MlirOperation>) {
        for b in raw::region_blocks(op) {
            for o in raw::block_ops(b) {
                if crate::is_kernel_container(o) {
                    continue;
                }
                let target = raw::str_attr(o, "call_target_name");
                if raw::name(o) == "stablehlo.custom_call" && target.as_deref() == Some("tpu_custom_call") {
                    out.push(o);
                }
                walk(o, out);
            }
        }
    }
    walk(top, &mut calls);
    let c = context.to_raw();
    let at = |op: MlirOperation, message: String| {
        // SAFETY: `op` is a live custom call of `module`; its location is owned by the context and only read by
        // `source_pos`.
        let pos = floors_ir::diagnostics::source_pos(unsafe { melior::ir::Location::from_raw(mlirOperationGetLocation(op)) });
        Error::Diagnostics(Diagnostics(vec![Diag { severity: Severity::Error, pos, message, notes: vec![] }]))
    };
    for (n, call) in calls.iter().enumerate() {
        let config = raw::attr(*call, "backend_config")
            // SAFETY: `a` is the non-null `backend_config` of the live custom call `*call`; this only reads its kind.
            .filter(|a| unsafe { mlirAttributeIsAString(*a) })
            // SAFETY: `a` was checked to be a StringAttr just above.
            .map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) }))
            .ok_or_else(|| at(*call, "tpu_custom_call without a backend_config string".into()))?;
        let body = handoff_config_body(&config).map_err(|e| at(*call, format!("tpu_custom_call: {e}")))?;
        let bytes = from_base64(&body).map_err(|e| at(*call, format!("tpu_custom_call: {e}")))?;
        let kernel = decode_handoff_body(context, &bytes).map_err(|e| at(*call, format!("tpu_custom_call: its Mosaic body: {e}")))?;
        let vmem_limit = handoff_vmem_limit(&config).map_err(|e| at(*call, format!("tpu_custom_call: {e}")))?;
        let aliases = floors_ir::dialects::stablehlo::CustomCallOp::cast(*call)
            .and_then(|c| c.output_operand_aliases())
            .ok_or_else(|| at(*call, "tpu_custom_call: unreadable output_operand_aliases".into()))?;
        let mut pairs = Vec::new();
        for a in &aliases {
            let output = match a.output_tuple_indices.as_slice() {
                [] => 0,
                [i] if *i >= 0 => *i,
                ix => return Err(at(*call, format!("tpu_custom_call: output_operand_aliases names output {ix:?}"))),
            };
            if a.operand_index < 0 || !a.operand_tuple_indices.is_empty() {
                return Err(at(
                    *call,
                    format!("tpu_custom_call: output_operand_aliases names operand {} {:?}", a.operand_index, a.operand_tuple_indices),
                ));
            }
            pairs.extend([a.operand_index, output]);
        }
        let name = format!("pallas_{n}");
        // SAFETY: `kernel` is a live module owned here (parsed in `c`); its clone is detached until appended to the
        // body of `container`, a builtin.module (one region), which then owns it; `*call` is a live op of `module`; the
        // names and `pairs` outlive the calls, which copy them.
        unsafe {
            let op = mlirOperationClone(kernel.as_operation().to_raw());
            mlirOperationSetAttributeByName(op, sref("sym_name"), mlirStringAttrGet(c, sref(&name)));
            if !pairs.is_empty() {
                mlirOperationSetAttributeByName(op, sref(ALIASES_ATTR), mlirDenseI64ArrayGet(c, pairs.len() as isize, pairs.as_ptr()));
            }
            if let Some(v) = vmem_limit {
                let attr = mlirIntegerAttrGet(mlirIntegerTypeGet(c, 64), v as i64);
                mlirOperationSetAttributeByName(op, sref(VMEM_LIMIT_ATTR), attr);
            }
            let body = mlirRegionGetFirstBlock(mlirOperationGetRegion(container, 0));
            mlirBlockAppendOwnedOperation(body, op);
            mlirOperationSetAttributeByName(*call, sref(floors_ir::contract::KERNEL_ATTR), mlirStringAttrGet(c, sref(&name)));
        }
    }
    Ok(calls.len())
}

use floors_ir::contract::{TPU_ALIASES_ATTR as ALIASES_ATTR, TPU_VMEM_LIMIT_ATTR as VMEM_LIMIT_ATTR};

/// The scoped VMEM limit a `tpu_custom_call` asks for: Pallas writes
/// `vmem_limit_bytes` as `"scoped_memory_configs": [{"memory_space": 1,
/// "offset": 0, "size": N}]` (memory space 1 is VMEM). None when absent.
pub fn handoff_vmem_limit(config: &str) -> std::result::Result<Option<u64>, String> {
    let v: serde_json::Value = serde_json::from_str(config).map_err(|e| format!("backend_config is not JSON: {e}"))?;
    let Some(list) = v.get("scoped_memory_configs") else { return Ok(None) };
    let list = list.as_array().ok_or("scoped_memory_configs is not a list")?;
    let mut limit = None;
    for c in list {
        let field = |n: &str| c.get(n).and_then(|x| x.as_u64()).ok_or_else(|| format!("scoped_memory_configs entry {c} has no {n}"));
        if field("memory_space")? == 1 {
            if field("offset")? != 0 {
                return Err(format!("scoped_memory_configs entry {c}: an offset floors does not model"));
            }
            limit = Some(field("size")?);
        }
    }
    Ok(limit)
}

/// The `body` of a `tpu_custom_call`'s `backend_config` JSON
/// (`{"custom_call_config": {"body": ..., "serialization_format": 1, ...}}`).
pub fn handoff_config_body(config: &str) -> std::result::Result<String, String> {
    let v: serde_json::Value = serde_json::from_str(config).map_err(|e| format!("backend_config is not JSON: {e}"))?;
    let cc = v.get("custom_call_config").ok_or("backend_config has no custom_call_config")?;
    if let Some(f) = cc.get("serialization_format").and_then(|f| f.as_i64())
        && f != 1
    {
        return Err(format!("serialization_format {f} (floors reads 1: MLIR bytecode)"));
    }
    cc.get("body").and_then(|b| b.as_str()).map(String::from).ok_or_else(|| "custom_call_config has no body".into())
}
