//! From the CPU floor's host program in MLIR to the runtime's
//! [`HostProgram`] (data: allocations, parameters, results, thunk specs) and
//! the kernel table.
//!
//! The host program is `@main` after `floors-linalg-lower-stablehlo` and
//! `floors-linalg-outline-kernels`: its ops are `floors.fusion` (each marked
//! `floors.kernel = "fusion_N"`, one host kernel), tensor constants, and
//! control flow (`scf.while`, `scf.if`, `scf.index_switch`) and
//! `stablehlo.custom_call`s. Every tensor value gets a buffer slice; a fusion
//! becomes a kernel thunk that reads its operands' slices and writes its
//! results' slices (over its `floors.grid` of workgroups), a loop a while
//! thunk whose carried values live in fixed buffers (copied in before, copied
//! back after each iteration), a branch a conditional thunk, a custom call a
//! custom-call thunk whose target must have a handler in the
//! [`CustomCallRegistry`] given at build time (checked here, at the op's
//! location, and again when the runtime builds the thunks). Anything else in the host
//! program is an error naming the op and its location: nothing runs that was
//! not compiled to a kernel or a thunk.
//!
//! Buffers are assigned by liveness (`runtime::buffer_assignment`): the
//! thunks are built twice, once to learn live ranges, once over the slices.

use std::collections::HashMap;

use mlir_sys::*;

use floors_runtime::{
    AllocationRole, AllocationSpec, BufferSlice, CustomCallRegistry, HostProgram, MemoryReport, ThunkSpec,
    artifact::{KernelArgInfo, KernelInfo},
    buffer_assignment::{BufferKind, LogicalBuffer, assign_buffers},
    npy::{ElementType, TensorSpec},
};

use crate::{
    error::{Error, Result},
    ir::raw,
};

/// The `.npy`-carried type of an MLIR ranked tensor type with a static shape,
/// or None.
pub fn tensor_spec(t: MlirType) -> Option<TensorSpec> {
    let shape = raw::type_shape(t)?;
    let e = unsafe { mlirShapedTypeGetElementType(t) };
    let element_type = unsafe {
        if mlirTypeIsAF32(e) {
            ElementType::F32
        } else if mlirTypeIsAF64(e) {
            ElementType::F64
        } else if mlirTypeIsABF16(e) {
            ElementType::Bf16
        } else if mlirTypeIsAInteger(e) {
            let w = mlirIntegerTypeGetWidth(e);
            let unsigned = mlirIntegerTypeIsUnsigned(e);
            match (w, unsigned) {
                (1, _) => ElementType::Bool,
                (8, false) => ElementType::I8,
                (16, false) => ElementType::I16,
                (32, false) => ElementType::I32,
                (64, false) => ElementType::I64,
                (8, true) => ElementType::U8,
                (16, true) => ElementType::U16,
                (32, true) => ElementType::U32,
                (64, true) => ElementType::U64,
                _ => return None,
            }
        } else {
            return None;
        }
    };
    Some(TensorSpec { element_type, shape: shape.into_iter().map(|d| d as u64).collect() })
}

/// What a logical buffer holds, for buffer assignment.
#[derive(Clone, Debug)]
enum Role {
    Param(usize),
    Result(usize),
    Const(Vec<u8>),
    Temp,
}

/// A value's buffer before assignment, with its live range over the
/// top-level ops of `@main` (nested ops count as their enclosing op).
#[derive(Clone, Debug)]
struct Logical {
    size: u64,
    role: Role,
    def: usize,
    last: usize,
}

fn err_at(op: MlirOperation, msg: impl std::fmt::Display) -> Error {
    Error::At { location: raw::location_string(op), message: msg.to_string() }
}

/// Builds the thunk specs twice: first with one logical buffer per value to
/// learn live ranges, then with the slices buffer assignment chose (`plan`).
struct Builder<'r> {
    custom_calls: &'r CustomCallRegistry,
    logical: Vec<Logical>,
    plan: Option<Vec<BufferSlice>>,
    slices: HashMap<*const std::ffi::c_void, BufferSlice>,
    /// The logical buffer of each value a thunk writes (kernel and branch results).
    written: HashMap<*const std::ffi::c_void, usize>,
    kernels: Vec<KernelInfo>,
    /// Ordinal of the top-level op being built.
    pos: usize,
    depth: usize,
}

/// `f32`-style MLIR spelling of a shaped type's element type.
fn element_type_name(t: MlirType) -> String {
    raw::type_text(unsafe { mlirShapedTypeGetElementType(t) })
}

impl Builder<'_> {
    fn new_buffer_as(&mut self, size: u64, role: Role) -> BufferSlice {
        let index = self.logical.len();
        self.logical.push(Logical { size, role, def: self.pos, last: self.pos });
        match &self.plan {
            Some(plan) => plan[index],
            None => BufferSlice { allocation: index, offset: 0, size },
        }
    }

    fn new_buffer(&mut self, size: u64, init: Option<Vec<u8>>) -> BufferSlice {
        match init {
            Some(bytes) => self.new_buffer_as(size, Role::Const(bytes)),
            None => self.new_buffer_as(size, Role::Temp),
        }
    }

    fn slice_of(&mut self, v: MlirValue, at: MlirOperation) -> Result<BufferSlice> {
        let s = self.slices.get(&v.ptr).copied().ok_or_else(|| err_at(at, "uses a value the host program never computed (internal)"))?;
        if self.plan.is_none() {
            let l = &mut self.logical[s.allocation];
            l.last = l.last.max(self.pos);
        }
        Ok(s)
    }

    fn fresh_result(&mut self, v: MlirValue) -> BufferSlice {
        let index = self.logical.len();
        let s = self.new_buffer(raw::value_bytes(v), None);
        self.slices.insert(v.ptr, s);
        self.written.insert(v.ptr, index);
        s
    }

    /// Bytes of a dense constant, row-major, splats expanded.
    fn constant_bytes(&self, op: MlirOperation) -> Result<Vec<u8>> {
        let v = raw::results(op)[0];
        let attr = raw::attr(op, "value").ok_or_else(|| err_at(op, "constant without a value"))?;
        if !unsafe { mlirAttributeIsADenseElements(attr) } {
            return Err(err_at(op, "only dense tensor constants are supported"));
        }
        let n = raw::num_elements(v).ok_or_else(|| err_at(op, "constant with a dynamic shape"))? as usize;
        let t = unsafe { mlirValueGetType(v) };
        let elem = unsafe { mlirShapedTypeGetElementType(t) };
        unsafe {
            if mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 1 {
                // i1 is bit-packed in MLIR; the runtime uses a byte per bool.
                return Ok((0..n).map(|i| mlirDenseElementsAttrGetBoolValue(attr, i as isize) as u8).collect());
            }
        }
        let width = raw::element_bytes(t) as usize;
        let data = unsafe { mlirDenseElementsAttrGetRawData(attr) } as *const u8;
        let splat = unsafe { mlirDenseElementsAttrIsSplat(attr) };
        let stored = if splat { width } else { width * n };
        let raw_bytes = unsafe { std::slice::from_raw_parts(data, stored) };
        Ok(if splat { raw_bytes.repeat(n) } else { raw_bytes.to_vec() })
    }

    /// Thunks for the ops of `block` up to its terminator, which is returned.
    fn block(&mut self, block: MlirBlock) -> Result<(Vec<ThunkSpec>, MlirOperation)> {
        let ops = raw::block_ops(block);
        let (terminator, body) = ops.split_last().ok_or_else(|| Error::Unsupported("empty block in the host program".into()))?;
        let top = self.depth == 0;
        self.depth += 1;
        let result = self.block_ops(body, top);
        self.depth -= 1;
        Ok((result?, *terminator))
    }

    fn kernel(&mut self, op: MlirOperation) -> Result<ThunkSpec> {
        let kname = raw::attr(op, crate::contract::KERNEL_ATTR)
            .filter(|a| unsafe { mlirAttributeIsAString(*a) })
            .map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) }))
            .ok_or_else(|| err_at(op, "fusion has no kernel (run floors-linalg-outline-kernels)"))?;
        let grid = raw::attr(op, crate::contract::GRID_ATTR)
            .filter(|&a| unsafe { mlirAttributeIsAInteger(a) })
            .map_or(1, |a| unsafe { mlirIntegerAttrGetValueInt(a) });
        let grid = u64::try_from(grid).ok().filter(|&g| g >= 1).ok_or_else(|| err_at(op, format!("invalid grid {grid}")))?;
        let inputs = raw::operands(op).into_iter().map(|v| self.slice_of(v, op)).collect::<Result<Vec<_>>>()?;
        let outputs: Vec<BufferSlice> = raw::results(op).into_iter().map(|v| self.fresh_result(v)).collect();
        if self.plan.is_some() {
            let arg = |v: MlirValue, output: bool| {
                let t = unsafe { mlirValueGetType(v) };
                KernelArgInfo {
                    dtype: element_type_name(t),
                    shape: raw::type_shape(t).unwrap_or_default().into_iter().map(|d| d as u64).collect(),
                    bytes: raw::value_bytes(v),
                    output,
                }
            };
            let args = raw::operands(op).into_iter().map(|v| arg(v, false)).chain(raw::results(op).into_iter().map(|v| arg(v, true)));
            self.kernels.push(KernelInfo { name: kname.clone(), grid: [grid, 1, 1], args: args.collect() });
        }
        Ok(ThunkSpec::Kernel { kernel: kname, inputs, outputs, grid: [grid, 1, 1] })
    }

    fn custom_call(&mut self, op: MlirOperation) -> Result<ThunkSpec> {
        let target = raw::attr(op, "call_target_name")
            .filter(|a| unsafe { mlirAttributeIsAString(*a) })
            .map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) }))
            .ok_or_else(|| err_at(op, "custom_call without a call_target_name"))?;
        if self.custom_calls.get(&target).is_none() {
            let mut known: Vec<&str> = self.custom_calls.names().collect();
            known.sort();
            return Err(err_at(
                op,
                format!("no handler is registered for custom_call target '{target}' (registered: {})", known.join(", ")),
            ));
        }
        for v in raw::operands(op).into_iter().chain(raw::results(op)) {
            if tensor_spec(unsafe { mlirValueGetType(v) }).is_none() {
                return Err(err_at(op, format!("custom_call '{target}': operands and results must be statically shaped tensors")));
            }
        }
        let inputs = raw::operands(op).into_iter().map(|v| self.slice_of(v, op)).collect::<Result<Vec<_>>>()?;
        let outputs: Vec<BufferSlice> = raw::results(op).into_iter().map(|v| self.fresh_result(v)).collect();
        if let Some((i, o)) =
            outputs.iter().enumerate().find_map(|(i, o)| inputs.iter().chain(&outputs[..i]).find(|s| s.overlaps(o)).map(|_| (i, o)))
        {
            return Err(err_at(op, format!("custom_call '{target}': output {i} {o:?} would overlap another buffer")));
        }
        Ok(ThunkSpec::CustomCall { target, inputs, outputs })
    }

    fn block_ops(&mut self, body: &[MlirOperation], top: bool) -> Result<Vec<ThunkSpec>> {
        let mut thunks = Vec::new();
        for (i, &op) in body.iter().enumerate() {
            if top {
                self.pos = i;
            }
            let name = raw::name(op);
            match name.as_str() {
                "arith.constant" | "stablehlo.constant" => {
                    let bytes = self.constant_bytes(op)?;
                    let v = raw::results(op)[0];
                    let s = self.new_buffer(bytes.len() as u64, Some(bytes));
                    self.slices.insert(v.ptr, s);
                }
                "floors.fusion" => thunks.push(self.kernel(op)?),
                "stablehlo.custom_call" => thunks.push(self.custom_call(op)?),
                // Scalar plumbing for control flow: the predicate or index is
                // read from its 0-d tensor's buffer where the loop or branch uses it.
                "tensor.extract" | "arith.index_cast" | "arith.index_castui"
                    if raw::results(op).iter().all(|&r| {
                        raw::uses(r).iter().all(|(u, _)| {
                            matches!(
                                raw::name(*u).as_str(),
                                "scf.condition" | "scf.if" | "scf.index_switch" | "arith.index_cast" | "arith.index_castui"
                            )
                        })
                    }) => {}
                "scf.while" => thunks.extend(self.while_loop(op)?),
                "scf.if" | "scf.index_switch" => thunks.push(self.conditional(op)?),
                _ => {
                    return Err(err_at(
                        op,
                        format!("'{name}' is not a kernel; the CPU floor runs only fusions, constants and control flow"),
                    ));
                }
            }
        }
        Ok(thunks)
    }

    /// Copies `from` into `to` unless they are the same slice.
    fn copy(from: BufferSlice, to: BufferSlice, at: MlirOperation) -> Result<Option<ThunkSpec>> {
        if from == to {
            return Ok(None);
        }
        if from.size != to.size {
            return Err(err_at(at, format!("copy between slices of {} and {} bytes", from.size, to.size)));
        }
        Ok(Some(ThunkSpec::Copy { from, to }))
    }

    fn while_loop(&mut self, op: MlirOperation) -> Result<Vec<ThunkSpec>> {
        let mut out = Vec::new();
        // The carried values live in fresh buffers; the init values are copied in.
        let carried: Vec<BufferSlice> = raw::operands(op).iter().map(|&v| self.new_buffer(raw::value_bytes(v), None)).collect();
        for (&v, &c) in raw::operands(op).iter().zip(&carried) {
            out.extend(Self::copy(self.slice_of(v, op)?, c, op)?);
        }
        let blocks = raw::region_blocks(op);
        let (before, after) = match blocks.as_slice() {
            [b, a] => (*b, *a),
            _ => return Err(err_at(op, "scf.while with other than one block per region")),
        };
        for (i, &c) in carried.iter().enumerate() {
            self.slices.insert(unsafe { mlirBlockGetArgument(before, i as isize) }.ptr, c);
        }
        let (cond, condition) = self.block(before)?;
        // scf.condition(%pred) %forwarded...: the predicate is a 0-d i1 tensor
        // extracted to a scalar; forwarded values must be the carried ones.
        let ops = raw::operands(condition);
        let pred = ops[0];
        let pred_tensor = raw::producer(pred)
            .filter(|&p| raw::name(p) == "tensor.extract")
            .map(|p| raw::operands(p)[0])
            .ok_or_else(|| err_at(condition, "loop condition is not an extracted 0-d tensor"))?;
        let predicate = self.slice_of(pred_tensor, condition)?;
        if predicate.size != 1 {
            return Err(err_at(condition, format!("loop predicate is {} bytes, not one bool", predicate.size)));
        }
        let forwarded: Vec<BufferSlice> = ops[1..].iter().map(|&v| self.slice_of(v, condition)).collect::<Result<_>>()?;
        // The condition block may compute the predicate only; forwarded ==
        // carried is the form scf.while takes from stablehlo.while.
        if forwarded != carried {
            return Err(err_at(condition, "loop condition forwards values other than the carried ones"));
        }
        for (i, &s) in forwarded.iter().enumerate() {
            self.slices.insert(unsafe { mlirBlockGetArgument(after, i as isize) }.ptr, s);
        }
        let (mut body, yield_op) = self.block(after)?;
        // scf.yield values become the next iteration's carried values.
        let yielded: Vec<BufferSlice> = raw::operands(yield_op).iter().map(|&v| self.slice_of(v, yield_op)).collect::<Result<_>>()?;
        // Two-step copy through temporaries avoids clobbering a carried value
        // another yielded value still reads.
        let temps: Vec<BufferSlice> = yielded.iter().map(|s| self.new_buffer(s.size, None)).collect();
        for (&y, &t) in yielded.iter().zip(&temps) {
            body.extend(Self::copy(y, t, yield_op)?);
        }
        for (&t, &c) in temps.iter().zip(&carried) {
            body.extend(Self::copy(t, c, yield_op)?);
        }
        for (&r, &c) in raw::results(op).iter().zip(&carried) {
            self.slices.insert(r.ptr, c);
        }
        out.push(ThunkSpec::While { cond, predicate, body });
        Ok(out)
    }

    fn conditional(&mut self, op: MlirOperation) -> Result<ThunkSpec> {
        let name = raw::name(op);
        let index = raw::operands(op)[0];
        // scf.if takes an i1 scalar, scf.index_switch an index: both come from
        // a 0-d tensor through tensor.extract (and index_cast).
        let mut source = index;
        while let Some(p) = raw::producer(source) {
            match raw::name(p).as_str() {
                "tensor.extract" => {
                    source = raw::operands(p)[0];
                    break;
                }
                "arith.index_cast" | "arith.index_castui" => source = raw::operands(p)[0],
                _ => break,
            }
        }
        let index_slice = self.slice_of(source, op)?;
        let results: Vec<BufferSlice> = raw::results(op).into_iter().map(|v| self.fresh_result(v)).collect();
        // index_switch: regions are [default, case 0, case 1, ...]; the
        // runtime's out-of-range rule picks the last branch, so put default last.
        let mut regions: Vec<MlirBlock> = raw::region_blocks(op);
        if name == "scf.index_switch" {
            let cases = raw::i64_array(op, "cases").unwrap_or_default();
            if cases.iter().enumerate().any(|(i, &c)| c != i as i64) {
                return Err(err_at(op, "index_switch cases must be 0..n"));
            }
            let default = regions.remove(0);
            regions.push(default);
        }
        match (index_slice.size, regions.len()) {
            (4, n) if n > 0 => {}
            (1, 2) => {}
            (s, n) => return Err(err_at(op, format!("a {s}-byte branch index selecting among {n} branches"))),
        }
        let mut branches = Vec::new();
        for block in regions {
            let (mut thunks, yield_op) = self.block(block)?;
            for (&v, &r) in raw::operands(yield_op).iter().zip(&results) {
                thunks.extend(Self::copy(self.slice_of(v, yield_op)?, r, yield_op)?);
            }
            branches.push(thunks);
        }
        Ok(ThunkSpec::Conditional { index: index_slice, branches })
    }
}

/// The host program of `main` (a func.func after the CPU floor's
/// lowering) and its kernel table, with buffers assigned by liveness.
/// `custom_calls` are the targets a `stablehlo.custom_call` may name.
pub fn build(main: MlirOperation, custom_calls: &CustomCallRegistry) -> Result<(HostProgram, Vec<KernelInfo>)> {
    // Pass 1: one buffer per value, to learn the live ranges.
    let (first, ..) = build_with(main, custom_calls, None)?;
    let nparams = first.logical.iter().filter(|l| matches!(l.role, Role::Param(_))).count();
    let mut consts = 0;
    let logical: Vec<LogicalBuffer> = first
        .logical
        .iter()
        .map(|l| LogicalBuffer {
            size: l.size.max(1),
            alignment: 64,
            first_def: l.def,
            last_use: l.last.max(l.def),
            kind: match l.role {
                Role::Param(i) => BufferKind::Parameter(i),
                Role::Result(i) => BufferKind::Result(i),
                // Constants are never shared: they are written once per run.
                Role::Const(_) => {
                    consts += 1;
                    BufferKind::Parameter(nparams + consts - 1)
                }
                Role::Temp => BufferKind::Temp,
            },
        })
        .collect();
    let assignment = assign_buffers(&logical).map_err(|e| Error::Unsupported(format!("buffer assignment: {e}")))?;
    // Pass 2: the same thunks over the assigned slices.
    let (mut second, body, params, results) = build_with(main, custom_calls, Some(assignment.slices.clone()))?;
    let mut const_bytes: Vec<Vec<u8>> =
        second.logical.iter_mut().filter_map(|l| if let Role::Const(b) = &mut l.role { Some(std::mem::take(b)) } else { None }).collect();
    let allocations = assignment
        .allocations
        .iter()
        .map(|a| AllocationSpec {
            size: a.size,
            role: match a.kind {
                BufferKind::Parameter(i) if i < nparams => AllocationRole::Parameter(i),
                BufferKind::Parameter(i) => AllocationRole::Constant(std::mem::take(&mut const_bytes[i - nparams])),
                BufferKind::Result(_) => AllocationRole::Result,
                BufferKind::Temp => AllocationRole::Temp,
            },
        })
        .collect();
    let memory = MemoryReport {
        peak_bytes: assignment.peak_bytes,
        temp_bytes: assignment.temp_bytes,
        unshared_temp_bytes: assignment.unshared_temp_bytes,
        live_temp_bytes: assignment.live_temp_bytes,
    };
    let kernels = std::mem::take(&mut second.kernels);
    Ok((HostProgram { allocations, params, results, body, memory }, kernels))
}

#[allow(clippy::type_complexity)]
fn build_with<'r>(
    main: MlirOperation,
    custom_calls: &'r CustomCallRegistry,
    plan: Option<Vec<BufferSlice>>,
) -> Result<(Builder<'r>, Vec<ThunkSpec>, Vec<(TensorSpec, usize)>, Vec<(TensorSpec, BufferSlice)>)> {
    let mut b = Builder {
        custom_calls,
        logical: Vec::new(),
        plan,
        slices: HashMap::new(),
        written: HashMap::new(),
        kernels: Vec::new(),
        pos: 0,
        depth: 0,
    };
    let entry = *raw::region_blocks(main).first().ok_or_else(|| err_at(main, "function without a body"))?;
    let mut params = Vec::new();
    let nargs = unsafe { mlirBlockGetNumArguments(entry) };
    for i in 0..nargs {
        let a = unsafe { mlirBlockGetArgument(entry, i) };
        let spec = tensor_spec(unsafe { mlirValueGetType(a) })
            .ok_or_else(|| err_at(main, format!("argument {i} is not a statically shaped tensor .npy can carry")))?;
        let s = b.new_buffer_as(raw::value_bytes(a), Role::Param(i as usize));
        b.slices.insert(a.ptr, s);
        params.push((spec, s.allocation));
    }
    let (mut thunks, ret) = b.block(entry)?;
    b.pos = raw::block_ops(entry).len();
    // Results get their own buffers, so a returned argument or constant is
    // a copy and every result slice is written by this run.
    let mut results = Vec::new();
    for (i, v) in raw::operands(ret).into_iter().enumerate() {
        let spec = tensor_spec(unsafe { mlirValueGetType(v) })
            .ok_or_else(|| err_at(ret, "a result is not a statically shaped tensor .npy can carry"))?;
        let from = b.slice_of(v, ret)?;
        // A value a kernel writes is written straight into the result
        // buffer; arguments, constants, loop values and repeats are copied.
        let direct = b.written.get(&v.ptr).copied().filter(|&l| matches!(b.logical[l].role, Role::Temp));
        let to = match direct {
            Some(l) => {
                b.logical[l].role = Role::Result(i);
                from
            }
            None => b.new_buffer_as(from.size, Role::Result(i)),
        };
        thunks.extend(Builder::copy(from, to, ret)?);
        results.push((spec, to));
    }
    Ok((b, thunks, params, results))
}
