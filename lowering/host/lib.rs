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
//! results' slices (over its `floors.grid` of workgroups) — one a library
//! computes (`floors.library_call`) a library thunk (`ThunkSpec::Gemm`) —, a loop a while
//! thunk whose carried values live in fixed buffers (copied in before, copied
//! back after each iteration), a branch a conditional thunk, a custom call a
//! custom-call thunk (an XLA FFI call: its operands' and results' dtypes and
//! dims, its typed attributes encoded sorted by name, its output-operand
//! aliases and side effect, its location; the handler is found when the
//! runtime builds the thunks, so an artifact needs none). Anything else in the host
//! program is an error naming the op and its location: nothing runs that was
//! not compiled to a kernel or a thunk.
//!
//! Buffers are assigned by liveness (`runtime::buffer_assignment`): the
//! thunks are built twice, once to learn live ranges, once over the slices.

use std::collections::{HashMap, HashSet};

use melior::ir::operation::OperationLike;
use mlir_sys::*;

use floors_runtime::{
    AllocationRole, AllocationSpec, BufferSlice, CustomCallInfo, HostProgram, MemoryReport, ThunkSpec,
    artifact::{KernelArgInfo, KernelInfo},
    buffer_assignment::{BufferKind, LogicalBuffer, assign_buffers},
    ffi::{Attr, Attrs},
    npy::{ElementType, TensorSpec},
};

use floors_ir::{
    dialects::stablehlo::{BackendConfig, CustomCallOp},
    error::{Error, Result},
    ir::raw,
};

/// The `.npy`-carried type of an MLIR ranked tensor type with a static shape,
/// or None.
pub fn tensor_spec(t: MlirType) -> Option<TensorSpec> {
    let shape = raw::type_shape(t)?;
    // SAFETY: `t` is a ranked tensor type (`type_shape` returned Some).
    let e = unsafe { mlirShapedTypeGetElementType(t) };
    // SAFETY: `e` is a live type; the width and signedness are read only of an integer type.
    let element_type = unsafe {
        if mlirTypeIsAF32(e) {
            ElementType::F32
        } else if mlirTypeIsAF64(e) {
            ElementType::F64
        } else if mlirTypeIsABF16(e) {
            ElementType::Bf16
        } else if mlirTypeIsAF16(e) {
            ElementType::F16
        } else if mlirTypeIsAComplex(e) {
            let part = mlirComplexTypeGetElementType(e);
            if mlirTypeIsAF32(part) {
                ElementType::C64
            } else if mlirTypeIsAF64(part) {
                ElementType::C128
            } else {
                return None;
            }
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
struct Builder {
    logical: Vec<Logical>,
    plan: Option<Vec<BufferSlice>>,
    slices: HashMap<*const std::ffi::c_void, BufferSlice>,
    /// The logical buffer of each value a thunk writes (kernel and branch results).
    written: HashMap<*const std::ffi::c_void, usize>,
    /// Slices chosen for values before their producer is built
    /// ([`Builder::direct_yields`]): a loop body's yielded value written
    /// straight into its carried buffer, a branch's into the branch result.
    preassigned: HashMap<*const std::ffi::c_void, BufferSlice>,
    /// For a branch result preassigned a loop's carried buffer: the carried
    /// value that buffer holds, which the branch's own yields must respect.
    branch_states: HashMap<*const std::ffi::c_void, MlirValue>,
    /// Loop states (block arguments, results) that share a read-only
    /// buffer ([`Builder::read_only`]): a carried value the body passes
    /// through unchanged.
    read_only_states: HashSet<*const std::ffi::c_void>,
    kernels: Vec<KernelInfo>,
    /// Ordinal of the top-level op being built.
    pos: usize,
    depth: usize,
}

/// `f32`-style MLIR spelling of a shaped type's element type.
fn element_type_name(t: MlirType) -> String {
    // SAFETY: `t` is the type of a fusion operand or result, read as a shaped type: a tensor in the host program (the
    // fusion op itself allows any type; not checked here).
    raw::type_text(unsafe { mlirShapedTypeGetElementType(t) })
}

impl Builder {
    fn new_buffer_as(&mut self, size: u64, role: Role) -> BufferSlice {
        let index = self.logical.len();
        self.logical.push(Logical { size, role, def: self.pos, last: self.pos });
        match &self.plan {
            // Assignment gives every buffer at least a byte; the slice keeps
            // the value's own size (0 for a zero-size tensor).
            Some(plan) => BufferSlice { size, ..plan[index] },
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
        if let Some(s) = self.preassigned.remove(&v.ptr) {
            self.slices.insert(v.ptr, s);
            return s;
        }
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
        // SAFETY: `attr` is the non-null `value` of the live constant `op`; this only reads its kind.
        if !unsafe { mlirAttributeIsADenseElements(attr) } {
            return Err(err_at(op, "only dense tensor constants are supported"));
        }
        let n = raw::num_elements(v).ok_or_else(|| err_at(op, "constant with a dynamic shape"))? as usize;
        // SAFETY: `v` is the result of the live constant `op`.
        let t = unsafe { mlirValueGetType(v) };
        // SAFETY: `t` is a statically shaped tensor type (`num_elements` returned Some above).
        let elem = unsafe { mlirShapedTypeGetElementType(t) };
        // SAFETY: the width is read only of an integer type; `attr` is dense elements of the result's type (the
        // constant verifiers), so of `n` elements, and `i < n`.
        unsafe {
            if mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 1 {
                // i1 is bit-packed in MLIR; the runtime uses a byte per bool.
                return Ok((0..n).map(|i| mlirDenseElementsAttrGetBoolValue(attr, i as isize) as u8).collect());
            }
        }
        if n == 0 {
            return Ok(Vec::new());
        }
        let width = raw::element_bytes(t) as usize;
        // SAFETY: `attr` is dense elements (checked above).
        let data = unsafe { mlirDenseElementsAttrGetRawData(attr) } as *const u8;
        // SAFETY: as above.
        let splat = unsafe { mlirDenseElementsAttrIsSplat(attr) };
        let stored = if splat { width } else { width * n };
        // SAFETY: `data` points at the attribute's storage, owned by the context: one element (a splat) or `n`, each of
        // `width` bytes, since the constant verifiers give the attribute the result's type and MLIR stores whole bytes
        // per element (bit-packed i1 returned above); the bytes are copied out at once.
        let raw_bytes = unsafe { std::slice::from_raw_parts(data, stored) };
        Ok(if splat { raw_bytes.repeat(n) } else { raw_bytes.to_vec() })
    }

    /// Thunks for the ops of `block` up to its terminator, which is returned.
    fn block(&mut self, block: MlirBlock) -> Result<(Vec<ThunkSpec>, MlirOperation)> {
        let ops = raw::block_ops(block);
        let (terminator, body) = ops.split_last().ok_or_else(|| Error::Unsupported("empty block in the host program".into()))?;
        // Depth 0 is @main; every loop or branch body adds one.
        if self.depth > floors_runtime::program::MAX_CONTROL_FLOW_DEPTH {
            // SAFETY: `block` is a live block of the host program.
            let at = unsafe { mlirBlockGetParentOperation(block) };
            return Err(err_at(
                at,
                format!("control flow nested deeper than {} levels (the runtime's limit)", floors_runtime::program::MAX_CONTROL_FLOW_DEPTH),
            ));
        }
        let top = self.depth == 0;
        self.depth += 1;
        let result = self.block_ops(body, top);
        self.depth -= 1;
        Ok((result?, *terminator))
    }

    fn kernel(&mut self, op: MlirOperation) -> Result<Vec<ThunkSpec>> {
        let kname = raw::attr(op, floors_ir::contract::KERNEL_ATTR)
            // SAFETY: `a` is the non-null `floors.kernel` of the live fusion `op`; this only reads its kind.
            .filter(|a| unsafe { mlirAttributeIsAString(*a) })
            // SAFETY: `a` was checked to be a StringAttr just above.
            .map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) }))
            .ok_or_else(|| err_at(op, "fusion has no kernel (run floors-linalg-outline-kernels)"))?;
        let grid = raw::attr(op, floors_ir::contract::GRID_ATTR)
            // SAFETY: `a` is the non-null `floors.grid` of the live fusion `op`; this only reads its kind.
            .filter(|&a| unsafe { mlirAttributeIsAInteger(a) })
            // SAFETY: `a` was checked to be an IntegerAttr just above.
            .map_or(1, |a| unsafe { mlirIntegerAttrGetValueInt(a) });
        let grid = u64::try_from(grid).ok().filter(|&g| g >= 1).ok_or_else(|| err_at(op, format!("invalid grid {grid}")))?;
        let inputs = raw::operands(op).into_iter().map(|v| self.slice_of(v, op)).collect::<Result<Vec<_>>>()?;
        let (outputs, mut thunks) = self.kernel_outputs(op, &inputs)?;
        // One table entry per kernel: identical fusions share one kernel
        // (`floors-linalg-outline-kernels`), called from several sites.
        if self.plan.is_some() && !self.kernels.iter().any(|k| k.name == kname) {
            let arg = |v: MlirValue, output: bool| {
                // SAFETY: `v` is an operand or result of the live fusion `op`; only its type is read.
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
        thunks.push(ThunkSpec::Kernel { kernel: kname, inputs, outputs, grid: [grid, 1, 1] });
        Ok(thunks)
    }

    /// A kernel's result slices: fresh, except a result computed in place
    /// (`floors.in_place`), which is its operand's slice — or, when nothing
    /// may write that operand's buffer (a parameter, a constant, a loop
    /// state read in place: [`Builder::read_only`]), a fresh slice the
    /// operand is first copied into (the copies are returned with the
    /// slices, to run before the kernel).
    fn kernel_outputs(&mut self, op: MlirOperation, inputs: &[BufferSlice]) -> Result<(Vec<BufferSlice>, Vec<ThunkSpec>)> {
        let results = raw::results(op);
        let operands = raw::operands(op);
        let mut copies = Vec::new();
        let mut tied: Vec<Option<BufferSlice>> = vec![None; results.len()];
        if let Some(a) = raw::attr(op, floors_ir::contract::IN_PLACE_ATTR) {
            let pairs = raw::i64s_of(a).ok_or_else(|| err_at(op, "floors.in_place is not an array of i64"))?;
            for p in pairs.chunks(2) {
                let (r, k) = match *p {
                    [r, k] if (r as usize) < results.len() && (k as usize) < inputs.len() => (r as usize, k as usize),
                    _ => return Err(err_at(op, format!("floors.in_place {pairs:?}: not (result, operand) pairs of this fusion"))),
                };
                if inputs[k].size != raw::value_bytes(results[r]) {
                    return Err(err_at(op, format!("floors.in_place: result {r} and operand {k} differ in size")));
                }
                if self.read_only(operands[k]) {
                    let fresh = self.fresh_result(results[r]);
                    copies.extend(Self::copy(inputs[k], fresh, op)?);
                    tied[r] = Some(fresh);
                } else {
                    tied[r] = Some(inputs[k]);
                }
            }
        }
        let outputs = results
            .into_iter()
            .zip(tied)
            .map(|(v, t)| match t {
                Some(s) => {
                    self.slices.insert(v.ptr, s);
                    s
                }
                None => self.fresh_result(v),
            })
            .collect();
        Ok((outputs, copies))
    }

    /// A fusion a runtime library computes (`floors.library_call`, written by
    /// `floors-gpu-rewrite-gemm`): today a gemm, `ThunkSpec::Gemm` over the
    /// fusion's operands (lhs, rhs) and result.
    fn library_call(&mut self, op: MlirOperation) -> Result<ThunkSpec> {
        use floors_ir::contract::LIBRARY_CALL_ATTR;
        let (call, shape) = raw::attr(op, LIBRARY_CALL_ATTR)
            .and_then(floors_ir::library_call::of_attribute)
            .ok_or_else(|| err_at(op, format!("{LIBRARY_CALL_ATTR} is not a #floors.library_call")))?;
        if call != floors_ir::library_call::GEMM {
            return Err(err_at(op, format!("{LIBRARY_CALL_ATTR}: unknown library call `{call}` (gemm is the one the runtime has)")));
        }
        let (operands, results) = (raw::operands(op), raw::results(op));
        if operands.len() != 2 || results.len() != 1 {
            return Err(err_at(op, "a gemm library call takes (lhs, rhs) and gives one result"));
        }
        // SAFETY: `results[0]` is the result of the live fusion `op`; only its type is read.
        let element_type = tensor_spec(unsafe { mlirValueGetType(results[0]) })
            .ok_or_else(|| err_at(op, "a gemm result that is not a statically shaped tensor"))?
            .element_type;
        let lhs = self.slice_of(operands[0], op)?;
        let rhs = self.slice_of(operands[1], op)?;
        let out = self.fresh_result(results[0]);
        let compute = floors_ir::library_call::gemm_compute(op);
        let gemm = floors_runtime::gemm::GemmSpec { element_type, lhs, rhs, out, shape, compute };
        if self.plan.is_some() {
            gemm.validate().map_err(|e| err_at(op, format!("{LIBRARY_CALL_ATTR}: {e}")))?;
        }
        Ok(ThunkSpec::Gemm(gemm))
    }

    /// A custom call: copies of aliased operands into their results' buffers,
    /// then the call (see the module docs).
    fn custom_call(&mut self, op: MlirOperation) -> Result<Vec<ThunkSpec>> {
        let call = CustomCallOp::cast(op).ok_or_else(|| err_at(op, "not a stablehlo.custom_call (internal)"))?;
        let target = call.call_target_name().ok_or_else(|| err_at(op, "custom_call without a call_target_name"))?;
        let at = |msg: String| err_at(op, format!("custom_call '{target}': {msg}"));
        let types = |values: Vec<MlirValue>| -> Result<Vec<TensorSpec>> {
            values
                .into_iter()
                // SAFETY: `v` is an operand or result of the live custom call `op`; only its type is read.
                .map(|v| tensor_spec(unsafe { mlirValueGetType(v) }))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| at("operands and results must be statically shaped tensors".into()))
        };
        // The handler sees each buffer with its logical dims; after
        // `floors-hlo-custom-call-layouts` the values are in the layouts' physical order.
        let physical = raw::attr(op, floors_ir::contract::PHYSICAL_LAYOUTS_ATTR).is_some();
        let input_types = logical_types(op, "operand_layouts", types(raw::operands(op))?, physical).map_err(&at)?;
        let output_types = logical_types(op, "result_layouts", types(raw::results(op))?, physical).map_err(&at)?;
        let attributes = ffi_attributes(&call).map_err(&at)?;
        let mut aliases = Vec::new();
        for a in call.output_operand_aliases().ok_or_else(|| at("unreadable output_operand_aliases".into()))? {
            let output = match (a.output_tuple_indices.as_slice(), output_types.len()) {
                ([], 1) => 0,
                ([i], n) if (0..n as i64).contains(i) => *i as usize,
                (ix, _) => return Err(at(format!("output_operand_aliases: no result at tuple index {ix:?}"))),
            };
            let input = usize::try_from(a.operand_index).ok().filter(|&i| i < input_types.len() && a.operand_tuple_indices.is_empty());
            let Some(input) = input else {
                return Err(at(format!("output_operand_aliases: no operand {} {:?}", a.operand_index, a.operand_tuple_indices)));
            };
            if input_types[input] != output_types[output] {
                return Err(at(format!(
                    "result {output} ({}) aliases operand {input} ({}) of another type",
                    output_types[output].describe(),
                    input_types[input].describe()
                )));
            }
            if aliases.iter().any(|&(o, _)| o == output) {
                return Err(at(format!("result {output} aliases two operands")));
            }
            aliases.push((output, input));
        }
        let mut inputs = raw::operands(op).into_iter().map(|v| self.slice_of(v, op)).collect::<Result<Vec<_>>>()?;
        let outputs: Vec<BufferSlice> = raw::results(op).into_iter().map(|v| self.fresh_result(v)).collect();
        // An aliased result starts as a copy of its operand, updated in place:
        // the operand's own buffer (an argument, a constant, a value used
        // later) is never written.
        let mut thunks = Vec::new();
        for &(o, i) in &aliases {
            thunks.extend(Self::copy(inputs[i], outputs[o], op)?);
            inputs[i] = outputs[o];
        }
        let aliased = |o: usize| aliases.iter().any(|&(ao, _)| ao == o);
        if let Some((i, o)) = outputs
            .iter()
            .enumerate()
            .filter(|(i, _)| !aliased(*i))
            .find_map(|(i, o)| inputs.iter().chain(&outputs[..i]).find(|s| s.overlaps(o)).map(|_| (i, o)))
        {
            return Err(at(format!("output {i} {o:?} would overlap another buffer")));
        }
        let info = CustomCallInfo {
            input_types,
            output_types,
            attributes,
            has_side_effect: call.has_side_effect(),
            aliases,
            location: raw::location_string(op),
        };
        thunks.push(ThunkSpec::CustomCall { target, inputs, outputs, info });
        Ok(thunks)
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
                "floors.fusion" if raw::attr(op, floors_ir::contract::LIBRARY_CALL_ATTR).is_some() => thunks.push(self.library_call(op)?),
                "floors.fusion" => thunks.extend(self.kernel(op)?),
                // A Pallas kernel the TPU floor took over (`tpu_handoff::import_pallas_calls`).
                "stablehlo.custom_call" if raw::attr(op, floors_ir::contract::KERNEL_ATTR).is_some() => thunks.extend(self.kernel(op)?),
                "stablehlo.custom_call" => thunks.extend(self.custom_call(op)?),
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

    /// Whether loop `op` may take over `v`'s buffer as its state: `v` is read
    /// only as this one init operand, and its buffer is not read-only (a
    /// parameter, a constant, a loop state read in place).
    fn owned_by(&self, v: MlirValue, op: MlirOperation, inits: &[MlirValue]) -> bool {
        let uses = raw::uses(v);
        let only_here = uses.len() == 1 && uses[0].0.ptr == op.ptr && inits.iter().filter(|i| i.ptr == v.ptr).count() == 1;
        only_here && !self.read_only(v)
    }

    /// Whether nothing writes `v`'s buffer while the program runs: a
    /// parameter of `@main` (the caller's, read in place), a constant, or a
    /// loop state sharing one of those.
    fn read_only(&self, v: MlirValue) -> bool {
        // SAFETY: `v` is a live value of the host program; its owner block is read only once it is known to be a block
        // argument, and that block's parent op goes to `raw::name`, which takes a null one.
        let parameter =
            unsafe { mlirValueIsABlockArgument(v) && raw::name(mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v))) == "func.func" };
        let constant = raw::producer(v).is_some_and(|p| matches!(raw::name(p).as_str(), "arith.constant" | "stablehlo.constant"));
        parameter || constant || self.read_only_states.contains(&v.ptr)
    }

    /// Lets the producer of each value `block` yields write it straight into
    /// its target slice (a loop's carried buffer, a branch's result), so the
    /// yield needs no copy: XLA's copy insertion sharing a while body's
    /// result buffers with its parameter. `states[k]`: the value the target
    /// of yield `k` holds while `block` runs (a loop's carried value), which
    /// must then be dead where the producer writes ([`writes_into_state`]);
    /// `None`: a fresh target nothing reads before. Elsewhere the yield stays
    /// a copy.
    fn direct_yields(&mut self, block: MlirBlock, targets: &[BufferSlice], states: &[Option<MlirValue>]) {
        let body = BlockReads::new(block);
        let Some(&terminator) = body.ops.last() else { return };
        let yielded = raw::operands(terminator);
        for (k, (&y, &target)) in yielded.iter().zip(targets).enumerate() {
            let state = states.get(k).copied().flatten();
            if state.is_some_and(|s| s.ptr == y.ptr) {
                continue; // the carried value yielded back: already in place
            }
            if !writes_into_state(&body, y, state) {
                continue;
            }
            self.preassigned.insert(y.ptr, target);
            if let Some(state) = state {
                // A branch computing it checks its own yields against the same state.
                self.branch_states.insert(y.ptr, state);
            }
        }
    }

    fn while_loop(&mut self, op: MlirOperation) -> Result<Vec<ThunkSpec>> {
        let mut out = Vec::new();
        // The carried values live in fresh buffers and the init values are
        // copied in, except an init value nothing else reads (computed for
        // the loop, or an enclosing loop's state handed down): its buffer
        // becomes the loop state, so nested loops share one state instead
        // of a copy per level. A value the body passes through unchanged
        // (`lax.scan`'s xs) whose buffer nothing writes (a parameter, a
        // constant) is read where it is: no copy, as XLA's copy insertion
        // leaves a read-only loop-invariant element in place.
        let inits = raw::operands(op);
        let blocks = raw::region_blocks(op);
        let (before, after) = match blocks.as_slice() {
            [b, a] => (*b, *a),
            _ => return Err(err_at(op, "scf.while with other than one block per region")),
        };
        let yielded_back = raw::block_ops(after).last().map(|&t| raw::operands(t)).unwrap_or_default();
        // SAFETY: `after` is the loop's live after-block; `i` is below its argument count (one per carried value,
        // scf.while's verifier) because `yielded_back` has one operand per carried value.
        let passes_through =
            |i: usize| yielded_back.get(i).is_some_and(|y| unsafe { y.ptr == mlirBlockGetArgument(after, i as isize).ptr });
        let mut carried = Vec::with_capacity(inits.len());
        // The logical buffer each state lives in when the loop owns it (a
        // kernel's or an inner loop's result, or the copy made here): a
        // state returned by `@main` is then computed in the result buffer.
        let mut owned: Vec<Option<usize>> = Vec::with_capacity(inits.len());
        for (i, &v) in inits.iter().enumerate() {
            if self.owned_by(v, op, &inits) {
                carried.push(self.slice_of(v, op)?);
                owned.push(self.written.get(&v.ptr).copied());
            } else if passes_through(i) && self.read_only(v) {
                owned.push(None);
                carried.push(self.slice_of(v, op)?);
                // SAFETY: both blocks have one argument per carried value (scf.while's verifier), `i` is below that
                // count, and the loop has one result per carried value.
                unsafe {
                    self.read_only_states.extend([
                        mlirBlockGetArgument(before, i as isize).ptr as *const _,
                        mlirBlockGetArgument(after, i as isize).ptr as *const _,
                        raw::results(op)[i].ptr as *const _,
                    ]);
                }
            } else {
                owned.push(Some(self.logical.len()));
                let c = self.new_buffer(raw::value_bytes(v), None);
                out.extend(Self::copy(self.slice_of(v, op)?, c, op)?);
                carried.push(c);
            }
        }
        for (i, &c) in carried.iter().enumerate() {
            // SAFETY: `before` is the loop's live before-block, whose argument count is `inits.len()` (scf.while's
            // verifier); `i` is below it.
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
            // SAFETY: `after` is the loop's live after-block, whose argument count is that of the values scf.condition
            // forwards (scf.while's verifier); `i` is below it.
            self.slices.insert(unsafe { mlirBlockGetArgument(after, i as isize) }.ptr, s);
        }
        // SAFETY: `after` is the loop's live after-block; its arguments are the carried values as the body reads them.
        let states: Vec<Option<MlirValue>> = (0..carried.len()).map(|i| Some(unsafe { mlirBlockGetArgument(after, i as isize) })).collect();
        self.direct_yields(after, &carried, &states);
        let (mut body, yield_op) = self.block(after)?;
        // scf.yield values become the next iteration's carried values.
        let yielded: Vec<BufferSlice> = raw::operands(yield_op).iter().map(|&v| self.slice_of(v, yield_op)).collect::<Result<_>>()?;
        // A yielded value in a carried buffer that another copy writes (a
        // rotation of the state) goes through a temporary, so no copy
        // clobbers a carried value another copy still reads; the rest are
        // copied straight in (also from a carried buffer no copy writes: a
        // value written there directly and yielded twice).
        let written: Vec<BufferSlice> = yielded.iter().zip(&carried).filter(|(y, c)| y != c).map(|(_, &c)| c).collect();
        let rotates = |y: &BufferSlice| written.iter().any(|c| c.overlaps(y));
        let staged: Vec<(BufferSlice, BufferSlice)> =
            yielded.iter().zip(&carried).filter(|(y, c)| y != c && rotates(y)).map(|(&y, &c)| (y, c)).collect();
        let temps: Vec<BufferSlice> = staged.iter().map(|(y, _)| self.new_buffer(y.size, None)).collect();
        for (&(y, _), &t) in staged.iter().zip(&temps) {
            body.extend(Self::copy(y, t, yield_op)?);
        }
        for (&y, &c) in yielded.iter().zip(&carried) {
            if !rotates(&y) {
                body.extend(Self::copy(y, c, yield_op)?);
            }
        }
        for (&(_, c), &t) in staged.iter().zip(&temps) {
            body.extend(Self::copy(t, c, yield_op)?);
        }
        for ((&r, &c), &l) in raw::results(op).iter().zip(&carried).zip(&owned) {
            self.slices.insert(r.ptr, c);
            if let Some(l) = l {
                self.written.insert(r.ptr, l);
            }
        }
        // A counted loop (`floors-hlo-annotate-trip-counts`) runs its body that often, its condition never.
        let trip_count = raw::int_attr(op, floors_ir::contract::KNOWN_TRIP_COUNT_ATTR).and_then(|n| u64::try_from(n).ok());
        out.push(ThunkSpec::While { cond, predicate, body, trip_count });
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
        let states: Vec<Option<MlirValue>> = raw::results(op).iter().map(|r| self.branch_states.remove(&r.ptr)).collect();
        for block in regions {
            self.direct_yields(block, &results, &states);
            let (mut thunks, yield_op) = self.block(block)?;
            for (&v, &r) in raw::operands(yield_op).iter().zip(&results) {
                thunks.extend(Self::copy(self.slice_of(v, yield_op)?, r, yield_op)?);
            }
            branches.push(thunks);
        }
        Ok(ThunkSpec::Conditional { index: index_slice, branches })
    }
}

/// Whether fusion `op` computes result `v` in place over one of its operands (`floors.in_place`).
fn in_place_result(op: MlirOperation, v: MlirValue) -> bool {
    let Some(index) = raw::results(op).iter().position(|r| r.ptr == v.ptr) else { return false };
    match raw::attr(op, floors_ir::contract::IN_PLACE_ATTR).and_then(raw::i64s_of) {
        Some(pairs) => pairs.chunks(2).any(|p| p.first() == Some(&(index as i64))),
        // An unreadable attribute: assume the worst (`kernel_outputs` reports it).
        None => raw::attr(op, floors_ir::contract::IN_PLACE_ATTR).is_some(),
    }
}

/// A block's ops (its terminator last) and, computed once when first
/// asked, what each reads: its operands and those of the ops nested in it,
/// except inside a fusion (isolated from above: its body reads only its
/// operands).
struct BlockReads {
    ops: Vec<MlirOperation>,
    reads: std::cell::OnceCell<Vec<HashSet<*const std::ffi::c_void>>>,
}

impl BlockReads {
    fn new(block: MlirBlock) -> Self {
        Self { ops: raw::block_ops(block), reads: std::cell::OnceCell::new() }
    }

    fn reads(&self) -> &[HashSet<*const std::ffi::c_void>] {
        self.reads.get_or_init(|| {
            fn nested(op: MlirOperation, out: &mut HashSet<*const std::ffi::c_void>) {
                out.extend(raw::operands(op).iter().map(|v| v.ptr));
                if raw::name(op) == "floors.fusion" {
                    return;
                }
                for block in raw::region_blocks(op) {
                    for inner in raw::block_ops(block) {
                        nested(inner, out);
                    }
                }
            }
            self.ops
                .iter()
                .map(|&op| {
                    let mut out = HashSet::new();
                    nested(op, &mut out);
                    out
                })
                .collect()
        })
    }
}

/// Whether the producer of `y`, a value the block yields once, may write
/// `y` straight into the buffer of `state` (`None`: a fresh buffer nothing
/// reads before): the producer is a fusion (not computing `y` in place over
/// an operand) or a branch directly in the block, and nothing from the
/// producer on reads `state` or a value that may share its buffer; a branch
/// must then, in every region, yield `state` itself or a value it may write
/// the same way.
fn writes_into_state(body: &BlockReads, y: MlirValue, state: Option<MlirValue>) -> bool {
    let ops = &body.ops;
    let Some(&terminator) = ops.last() else { return false };
    if raw::operands(terminator).iter().filter(|v| v.ptr == y.ptr).count() != 1 {
        return false;
    }
    let Some(producer) = raw::producer(y) else { return false };
    let Some(at) = ops.iter().position(|o| o.ptr == producer.ptr) else { return false };
    match raw::name(producer).as_str() {
        "floors.fusion" => !in_place_result(producer, y) && state.is_none_or(|s| state_dead_from(body, s, at)),
        "scf.if" | "scf.index_switch" => {
            let Some(state) = state else { return true };
            if !state_dead_from(body, state, at + 1) {
                return false;
            }
            let Some(k) = raw::results(producer).iter().position(|r| r.ptr == y.ptr) else { return false };
            raw::region_blocks(producer).into_iter().all(|block| {
                let inner = BlockReads::new(block);
                match inner.ops.last().map(|&t| raw::operands(t)) {
                    Some(yields) if k < yields.len() => {
                        yields[k].ptr == state.ptr && !yields.iter().enumerate().any(|(m, v)| m != k && v.ptr == state.ptr)
                            || writes_into_state(&inner, yields[k], Some(state))
                    }
                    _ => false,
                }
            })
        }
        _ => false,
    }
}

/// Whether no op of `body` from index `from` on reads `state` or a value
/// that may share its buffer: a fusion's result computed in place over such
/// a value, or any result of a loop or custom call that takes one (a loop
/// takes over its init's buffer; a branch's results never share its
/// operands' buffers).
fn state_dead_from(body: &BlockReads, state: MlirValue, from: usize) -> bool {
    let mut aliases: HashSet<*const std::ffi::c_void> = HashSet::from([state.ptr]);
    for (j, (&op, reads)) in body.ops.iter().zip(body.reads()).enumerate() {
        if reads.is_disjoint(&aliases) {
            continue;
        }
        if j >= from {
            return false;
        }
        let results = raw::results(op);
        match raw::name(op).as_str() {
            "floors.fusion" => aliases.extend(results.iter().filter(|&&r| in_place_result(op, r)).map(|r| r.ptr)),
            // A branch's results are its own buffers (or other loop states'): yields are copied into them.
            "scf.if" | "scf.index_switch" => {}
            _ => aliases.extend(results.iter().map(|r| r.ptr)),
        }
    }
    true
}

/// The host program of `main` (a func.func after the CPU floor's
/// lowering) and its kernel table, with buffers assigned by liveness.
pub fn build(main: MlirOperation) -> Result<(HostProgram, Vec<KernelInfo>)> {
    // Pass 1: one buffer per value, to learn the live ranges.
    let (first, ..) = build_with(main, None)?;
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
    let (mut second, body, params, results) = build_with(main, Some(assignment.slices.clone()))?;
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
    Ok((HostProgram { allocations, params, results, body, memory, spmd: None }, kernels))
}

#[allow(clippy::type_complexity)]
fn build_with(
    main: MlirOperation,
    plan: Option<Vec<BufferSlice>>,
) -> Result<(Builder, Vec<ThunkSpec>, Vec<(TensorSpec, usize)>, Vec<(TensorSpec, BufferSlice)>)> {
    let mut b = Builder {
        logical: Vec::new(),
        plan,
        slices: HashMap::new(),
        written: HashMap::new(),
        preassigned: HashMap::new(),
        branch_states: HashMap::new(),
        read_only_states: HashSet::new(),
        kernels: Vec::new(),
        pos: 0,
        depth: 0,
    };
    let entry = *raw::region_blocks(main).first().ok_or_else(|| err_at(main, "function without a body"))?;
    let mut params = Vec::new();
    // SAFETY: `entry` is the live entry block of `@main`.
    let nargs = unsafe { mlirBlockGetNumArguments(entry) };
    for i in 0..nargs {
        // SAFETY: `i` is below the argument count read above.
        let a = unsafe { mlirBlockGetArgument(entry, i) };
        // SAFETY: `a` is a live argument of `@main`; only its type is read.
        let spec = tensor_spec(unsafe { mlirValueGetType(a) })
            // SAFETY: as above.
            .ok_or_else(|| err_at(main, format!("argument {i} ({}) is not a statically shaped tensor of an element type floors runs (complex, fp8 and int4 are not supported yet)", raw::type_text(unsafe { mlirValueGetType(a) }))))?;
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
        // SAFETY: `v` is a live operand of `@main`'s return; only its type is read.
        let spec = tensor_spec(unsafe { mlirValueGetType(v) })
            // SAFETY: as above.
            .ok_or_else(|| err_at(ret, format!("result {i} ({}) is not a statically shaped tensor of an element type floors runs (complex, fp8 and int4 are not supported yet)", raw::type_text(unsafe { mlirValueGetType(v) }))))?;
        let from = b.slice_of(v, ret)?;
        // A value a kernel writes, or a loop state the loop owns, is
        // computed straight in the result buffer; arguments, constants,
        // states read in place and repeats are copied.
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

// ---------------------------------------------------------------------------
// Custom-call attributes: MLIR → the FFI's typed attributes (as XLA's
// `xla/ffi/attribute_map.cc` converts them).

/// The typed FFI attributes of a custom call: `mhlo.backend_config = {...}`
/// (as JAX prints `jax.ffi.ffi_call`), else a dictionary `backend_config`
/// (the spec's `api_version = 4` form), else, with `api_version = 4`, a
/// string `backend_config` holding a dictionary in MLIR syntax (as XLA
/// reads it); otherwise none.
fn ffi_attributes(call: &CustomCallOp) -> std::result::Result<Attrs, String> {
    let dict = match (call.mhlo_backend_config(), call.backend_config()) {
        (Some(d), _) => d,
        (None, Some(BackendConfig::Dictionary(d))) => d,
        (None, Some(BackendConfig::String(s))) if call.api_version() == Some(4) => {
            // SAFETY: `s` is the `backend_config` that `CustomCallOp::backend_config` checked to be a StringAttr.
            let text = raw::string(unsafe { mlirStringAttrGetValue(s) });
            if text.trim().is_empty() {
                return Ok(Attrs::default());
            }
            // SAFETY: `call.operation()` is a live custom call of the host program.
            let ctx = unsafe { mlirOperationGetContext(call.operation()) };
            let (a, why) = parse_attribute(ctx, &text);
            // SAFETY: `a` is non-null here (checked first); this only reads its kind.
            if a.ptr.is_null() || !unsafe { mlirAttributeIsADictionary(a) } {
                let why = if why.is_empty() { String::new() } else { format!(" ({why})") };
                return Err(format!("backend_config of a typed FFI call (api_version = 4) is not a dictionary: {text:?}{why}"));
            }
            a
        }
        (None, None) => return Err("backend_config is neither a string nor a dictionary".into()),
        _ => return Ok(Attrs::default()),
    };
    dictionary(dict)
}

/// Parses an attribute; a failure's diagnostics come back as text instead
/// of going to MLIR's default handler (stderr).
fn parse_attribute(ctx: MlirContext, text: &str) -> (MlirAttribute, String) {
    unsafe extern "C" fn collect(d: MlirDiagnostic, user: *mut std::ffi::c_void) -> MlirLogicalResult {
        unsafe extern "C" fn append(s: MlirStringRef, user: *mut std::ffi::c_void) {
            // SAFETY: `user` is the `String` `collect` was handed: `parse_attribute`'s `messages`, alive and not
            // otherwise borrowed while the handler is attached.
            let out = unsafe { &mut *user.cast::<String>() };
            out.push_str(&raw::string(s));
        }
        // SAFETY: `user` is `&mut messages` of `parse_attribute`, alive and not otherwise borrowed while the handler is
        // attached.
        let out = unsafe { &mut *user.cast::<String>() };
        if !out.is_empty() {
            out.push_str("; ");
        }
        // SAFETY: `d` is the diagnostic being handled, valid during this call; `append` gets the same `user`.
        unsafe { mlirDiagnosticPrint(d, Some(append), user) };
        MlirLogicalResult { value: 1 }
    }
    let mut messages = String::new();
    let user = (&mut messages as *mut String).cast();
    // SAFETY: `ctx` is the live context of the custom call; `user` points at `messages`, which outlives the handler
    // (detached before the block ends) and is not read until then; `text` outlives the parse, which copies what it
    // keeps.
    unsafe {
        let id = mlirContextAttachDiagnosticHandler(ctx, Some(collect), user, None);
        let a = mlirAttributeParseGet(ctx, raw::sref(text));
        mlirContextDetachDiagnosticHandler(ctx, id);
        (a, messages)
    }
}

fn dictionary(dict: MlirAttribute) -> std::result::Result<Attrs, String> {
    // SAFETY: `dict` is a DictionaryAttr: the callers pass one checked by `IsADictionary`.
    let n = unsafe { mlirDictionaryAttrGetNumElements(dict) };
    let mut entries = Vec::with_capacity(n as usize);
    for i in 0..n {
        // SAFETY: `i` is below the element count read above.
        let named = unsafe { mlirDictionaryAttrGetElement(dict, i) };
        // SAFETY: `named.name` is the entry's identifier, owned by the context; its text is copied.
        let name = raw::string(unsafe { mlirIdentifierStr(named.name) });
        let value = attribute(named.attribute).map_err(|e| format!("attribute `{name}`: {e}"))?;
        entries.push((name, value));
    }
    Attrs::new(entries)
}

/// One attribute value: bool, integer (8/16/32/64 bits, signed or not),
/// f32/f64, a dense array or rank-any dense elements of those, a string, a
/// dictionary.
fn attribute(a: MlirAttribute) -> std::result::Result<Attr, String> {
    let unsupported = || format!("{} is not an FFI attribute (bool, integer, f32, f64, array, string or dictionary)", raw::attr_text(a));
    // SAFETY: `a` is a live attribute; every getter runs after the `IsA` check of its kind, the element getters with
    // the element width and signedness they read matched, and indices below the counts read.
    unsafe {
        if mlirAttributeIsABool(a) {
            return Ok(Attr::scalar(mlirBoolAttrGetValue(a)));
        }
        if mlirAttributeIsAInteger(a) {
            let t = mlirAttributeGetType(a);
            if !mlirTypeIsAInteger(t) {
                return Err(unsupported());
            }
            let (w, unsigned) = (mlirIntegerTypeGetWidth(t), mlirIntegerTypeIsUnsigned(t));
            let (s, u) = (mlirIntegerAttrGetValueInt(a), mlirIntegerAttrGetValueUInt(a));
            return Ok(match (w, unsigned) {
                (8, false) => Attr::scalar(s as i8),
                (16, false) => Attr::scalar(s as i16),
                (32, false) => Attr::scalar(s as i32),
                (64, false) => Attr::scalar(s),
                (8, true) => Attr::scalar(u as u8),
                (16, true) => Attr::scalar(u as u16),
                (32, true) => Attr::scalar(u as u32),
                (64, true) => Attr::scalar(u),
                _ => return Err(format!("{}: integers of {w} bits are not FFI scalars", raw::attr_text(a))),
            });
        }
        if mlirAttributeIsAFloat(a) {
            let t = mlirAttributeGetType(a);
            let v = mlirFloatAttrGetValueDouble(a);
            return if mlirTypeIsAF32(t) {
                Ok(Attr::scalar(v as f32))
            } else if mlirTypeIsAF64(t) {
                Ok(Attr::scalar(v))
            } else {
                Err(format!("{}: only f32 and f64 floats are FFI scalars", raw::attr_text(a)))
            };
        }
        if mlirAttributeIsAString(a) {
            return Ok(Attr::String(raw::string(mlirStringAttrGetValue(a))));
        }
        if mlirAttributeIsADictionary(a) {
            return dictionary(a).map(Attr::Dict);
        }
        macro_rules! dense_array {
            ($($is:ident, $get:ident, $t:ty);*) => {$(
                if $is(a) {
                    let n = mlirDenseArrayGetNumElements(a);
                    return Ok(Attr::array(&(0..n).map(|i| $get(a, i)).collect::<Vec<$t>>()));
                }
            )*};
        }
        dense_array!(
            mlirAttributeIsADenseI8Array, mlirDenseI8ArrayGetElement, i8;
            mlirAttributeIsADenseI16Array, mlirDenseI16ArrayGetElement, i16;
            mlirAttributeIsADenseI32Array, mlirDenseI32ArrayGetElement, i32;
            mlirAttributeIsADenseI64Array, mlirDenseI64ArrayGetElement, i64;
            mlirAttributeIsADenseF32Array, mlirDenseF32ArrayGetElement, f32;
            mlirAttributeIsADenseF64Array, mlirDenseF64ArrayGetElement, f64
        );
        if mlirAttributeIsADenseIntElements(a) || mlirAttributeIsADenseFPElements(a) {
            let e = mlirShapedTypeGetElementType(mlirAttributeGetType(a));
            let n = mlirElementsAttrGetNumElements(a) as isize;
            macro_rules! elems {
                ($get:ident, $t:ty) => {
                    Attr::array(&(0..n).map(|i| $get(a, i)).collect::<Vec<$t>>())
                };
            }
            if mlirTypeIsAInteger(e) {
                return Ok(match (mlirIntegerTypeGetWidth(e), mlirIntegerTypeIsUnsigned(e)) {
                    (8, false) => elems!(mlirDenseElementsAttrGetInt8Value, i8),
                    (16, false) => elems!(mlirDenseElementsAttrGetInt16Value, i16),
                    (32, false) => elems!(mlirDenseElementsAttrGetInt32Value, i32),
                    (64, false) => elems!(mlirDenseElementsAttrGetInt64Value, i64),
                    (8, true) => elems!(mlirDenseElementsAttrGetUInt8Value, u8),
                    (16, true) => elems!(mlirDenseElementsAttrGetUInt16Value, u16),
                    (32, true) => elems!(mlirDenseElementsAttrGetUInt32Value, u32),
                    (64, true) => elems!(mlirDenseElementsAttrGetUInt64Value, u64),
                    _ => return Err(format!("{}: arrays of this integer type are not FFI arrays", raw::attr_text(a))),
                });
            }
            if mlirTypeIsAF32(e) {
                return Ok(elems!(mlirDenseElementsAttrGetFloatValue, f32));
            }
            if mlirTypeIsAF64(e) {
                return Ok(elems!(mlirDenseElementsAttrGetDoubleValue, f64));
            }
            return Err(format!("{}: arrays of this element type are not FFI arrays", raw::attr_text(a)));
        }
    }
    Err(unsupported())
}

/// The logical types of a custom call's operands or results. Without
/// `physical`, `operand_layouts` / `result_layouts`, when given, must be the
/// default (major-to-minor, `[rank-1, ..., 0]`): floors' buffers are
/// row-major. With it (`floors-hlo-custom-call-layouts` ran), each value is in
/// its layout's physical order (dim `k` of the value is logical dim
/// `layout[rank-1-k]`), and its logical dims are those permuted back.
fn logical_types(
    op: MlirOperation,
    name: &str,
    mut types: Vec<TensorSpec>,
    physical: bool,
) -> std::result::Result<Vec<TensorSpec>, String> {
    if raw::attr(op, name).is_none() {
        return Ok(types);
    }
    let what = if name.starts_with("operand") { "operand" } else { "result" };
    let layouts =
        raw::layouts(op, name).filter(|l| l.len() == types.len()).ok_or_else(|| format!("{name} must have one layout per {what}"))?;
    for (i, (t, layout)) in types.iter_mut().zip(layouts).enumerate() {
        let rank = t.shape.len();
        let default: Vec<i64> = (0..rank as i64).rev().collect();
        if layout == default {
            continue;
        }
        let mut sorted = layout.clone();
        sorted.sort_unstable();
        if !physical || sorted != (0..rank as i64).collect::<Vec<_>>() {
            return Err(format!("{name}[{i}] is {layout:?}; floors passes buffers row-major (layout {default:?}) only"));
        }
        let mut logical = t.shape.clone();
        for (k, &d) in layout.iter().rev().enumerate() {
            logical[d as usize] = t.shape[k];
        }
        t.shape = logical;
    }
    Ok(types)
}

/// The host program and kernel table of a compiled module's `@main` (every
/// floor's artifact starts here); `name` names the module in errors.
pub fn export(module: &melior::ir::Module<'_>, name: &str) -> Result<(HostProgram, Vec<KernelInfo>)> {
    let top = module.as_operation().to_raw();
    let main = main_of(top, name)?;
    let (mut program, kernels) = floors_ir::source::with_big_stack(|| build(main))?;
    program.spmd = spmd_layout(top);
    Ok((program, kernels))
}

/// The tiling `floors-hlo-spmd-partition` recorded on the module
/// (`floors.spmd_shardings`), if it partitioned it.
fn spmd_layout(top: MlirOperation) -> Option<floors_runtime::collectives::SpmdLayout> {
    let dict = raw::attr(top, "floors.spmd_shardings")?;
    let list = |name: &str| -> Vec<floors_runtime::collectives::Tiling> {
        // SAFETY: `dict` is a live attribute of the module; every element is read below its count and only after
        // its kind is checked.
        unsafe {
            if !mlirAttributeIsADictionary(dict) {
                return Vec::new();
            }
            let array = mlirDictionaryAttrGetElementByName(dict, raw::sref(name));
            if array.ptr.is_null() || !mlirAttributeIsAArray(array) {
                return Vec::new();
            }
            (0..mlirArrayAttrGetNumElements(array))
                .map(|i| {
                    let d = mlirArrayAttrGetElement(array, i);
                    let get = |k: &str| {
                        let a = mlirDictionaryAttrGetElementByName(d, raw::sref(k));
                        (!a.ptr.is_null()).then_some(a)
                    };
                    floors_runtime::collectives::Tiling {
                        tiles: get("tiles").and_then(raw::i64s_of).unwrap_or_default(),
                        devices: get("devices").and_then(raw::i64s_of).unwrap_or_default(),
                        replicated_last: get("replicated_last").is_some_and(|a| mlirAttributeIsABool(a) && mlirBoolAttrGetValue(a)),
                    }
                })
                .collect()
        }
    };
    let count = |name: &str| raw::int_attr(top, name).unwrap_or(1).clamp(1, u32::MAX as i64) as u32;
    Some(floors_runtime::collectives::SpmdLayout {
        num_replicas: count("mhlo.num_replicas"),
        num_partitions: count("mhlo.num_partitions"),
        params: list("params"),
        results: list("results"),
    })
}

/// The `@main` function of a compiled module.
fn main_of(top: MlirOperation, name: &str) -> Result<MlirOperation> {
    raw::region_blocks(top)
        .into_iter()
        .flat_map(raw::block_ops)
        .find(|&o| {
            raw::name(o) == "func.func"
                // SAFETY: `a` is the non-null `sym_name` of `o`, a live func.func of `top`: a StringAttr by the symbol
                // verifier.
                && raw::attr(o, "sym_name").is_some_and(|a| raw::string(unsafe { mlirStringAttrGetValue(a) }) == "main")
        })
        .ok_or_else(|| Error::Unsupported(format!("{name}: the program has no @main function")))
}

/// The name an artifact of `module` carries: its `sym_name`, else the stem
/// of the file it came from.
pub fn module_name(module: &melior::ir::Module<'_>, file: &str) -> String {
    if let Ok(a) = module.as_operation().attribute("sym_name")
        && let Ok(s) = melior::ir::attribute::StringAttribute::try_from(a)
    {
        return s.value().to_string();
    }
    std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().trim_end_matches(".stablehlo").to_string())
        .unwrap_or_else(|| "module".into())
}

/// What an artifact records as its producer.
pub fn producer() -> String {
    format!("floors {}", env!("CARGO_PKG_VERSION"))
}
