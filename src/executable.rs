//! From the CPU floor's host program to a runnable thunk sequence.
//!
//! The host program is `@main` after `floors-cpu-lower-to-linalg` and
//! `floors-cpu-outline-kernels`: its ops are `floors.fusion` (each marked
//! `floors.kernel = "fusion_N"`, one host kernel), tensor constants, and
//! control flow (`scf.while`, `scf.if`, `scf.index_switch`) and
//! `stablehlo.custom_call`s. Every tensor value gets a buffer slice; a fusion
//! becomes a kernel thunk that reads its operands' slices and writes its
//! results' slices (over its `floors.grid` of workgroups), a loop a while
//! thunk whose carried values live in fixed buffers (copied in before, copied
//! back after each iteration), a branch a conditional thunk, a custom call a
//! custom-call thunk whose target must have a handler in the
//! [`CustomCallRegistry`] given at build time. Anything else in the host
//! program is an error naming the op and its location: nothing runs that was
//! not compiled to a kernel or a thunk.
//!
//! Buffers are assigned by liveness (`runtime::buffer_assignment`): the
//! thunks are built twice, once to learn live ranges, once over the slices.

use std::{collections::HashMap, sync::Arc};

use mlir_sys::*;

use crate::{
    error::{Error, Result},
    ir::raw,
    npy::{HostArray, TensorSpec},
    runtime::{
        buffer::{AlignedBuffer, BufferAllocations, BufferSlice},
        buffer_assignment::{BufferKind, LogicalBuffer, assign_buffers},
        executor::{ExecutorOptions, ThunkExecutor},
        kernel_abi::{HostKernel, HostKernelFn},
        thunk::{ConditionalThunk, CopyThunk, CustomCallRegistry, CustomCallThunk, KernelThunk, Thunk, WhileThunk},
    },
};

/// One allocation of an execution: its size, its bytes for constants, and
/// which parameter it is (parameters are read where the caller holds them).
#[derive(Clone, Debug)]
struct AllocSpec {
    size: u64,
    init: Option<Vec<u8>>,
    param: Option<usize>,
    result: bool,
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

/// A compiled CPU program: thunks over numbered allocations.
pub struct CpuExecutable {
    executor: ThunkExecutor,
    allocations: Vec<AllocSpec>,
    params: Vec<(TensorSpec, usize)>,
    results: Vec<(TensorSpec, BufferSlice)>,
    memory: MemoryReport,
    /// Temporary and constant buffers of finished runs, reused by the next
    /// ones (fresh pages cost a fault each: 64 MB is 16k faults).
    arenas: std::sync::Mutex<Vec<Vec<Option<AlignedBuffer>>>>,
}

/// Bytes one execution holds, after liveness-based buffer assignment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryReport {
    /// Parameters, results, constants and temporaries together.
    pub peak_bytes: u64,
    /// The shared allocation all temporaries are packed into.
    pub temp_bytes: u64,
    /// What the temporaries would take with no reuse at all.
    pub unshared_temp_bytes: u64,
    /// The most temporary bytes live at once (a lower bound for `temp_bytes`).
    pub live_temp_bytes: u64,
}

fn err_at(op: MlirOperation, msg: impl std::fmt::Display) -> Error {
    Error::At { location: raw::location_string(op), message: msg.to_string() }
}

/// Builds the thunks twice: first with one logical buffer per value to learn
/// live ranges, then with the slices buffer assignment chose (`plan`).
struct Builder<'k> {
    kernels: &'k dyn Fn(&str) -> Option<HostKernelFn>,
    custom_calls: Arc<CustomCallRegistry>,
    logical: Vec<Logical>,
    plan: Option<Vec<BufferSlice>>,
    slices: HashMap<*const std::ffi::c_void, BufferSlice>,
    /// The logical buffer of each value a thunk writes (kernel and branch results).
    written: HashMap<*const std::ffi::c_void, usize>,
    options: ExecutorOptions,
    /// Ordinal of the top-level op being built.
    pos: usize,
    depth: usize,
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
        let s = self
            .slices
            .get(&v.ptr)
            .copied()
            .ok_or_else(|| err_at(at, "uses a value the host program never computed (internal)"))?;
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
    fn block(&mut self, block: MlirBlock) -> Result<(Vec<Box<dyn Thunk>>, MlirOperation)> {
        let ops = raw::block_ops(block);
        let (terminator, body) = ops.split_last().ok_or_else(|| Error::Unsupported("empty block in the host program".into()))?;
        let top = self.depth == 0;
        self.depth += 1;
        let result = self.block_ops(body, top);
        self.depth -= 1;
        Ok((result?, *terminator))
    }

    fn block_ops(&mut self, body: &[MlirOperation], top: bool) -> Result<Vec<Box<dyn Thunk>>> {
        let mut thunks: Vec<Box<dyn Thunk>> = Vec::new();
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
                "floors.fusion" => {
                    let kname = raw::attr(op, "floors.kernel")
                        .filter(|a| unsafe { mlirAttributeIsAString(*a) })
                        .map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) }))
                        .ok_or_else(|| err_at(op, "fusion has no kernel (run floors-cpu-outline-kernels)"))?;
                    let f = (self.kernels)(&kname).ok_or_else(|| err_at(op, format!("kernel '{kname}' was not compiled")))?;
                    let inputs = raw::operands(op).into_iter().map(|v| self.slice_of(v, op)).collect::<Result<Vec<_>>>()?;
                    let outputs: Vec<BufferSlice> = raw::results(op).into_iter().map(|v| self.fresh_result(v)).collect();
                    let kernel = unsafe { HostKernel::new(kname, f) };
                    let grid = raw::attr(op, crate::lowering::cpu::cpu_distribute_workgroups::GRID_ATTR)
                        .filter(|&a| unsafe { mlirAttributeIsAInteger(a) })
                        .map_or(1, |a| unsafe { mlirIntegerAttrGetValueInt(a) });
                    let grid = u64::try_from(grid).ok().filter(|&g| g >= 1).ok_or_else(|| err_at(op, format!("invalid grid {grid}")))?;
                    let t = KernelThunk::new(kernel, inputs, outputs, [grid, 1, 1]).map_err(|e| err_at(op, e))?;
                    thunks.push(Box::new(t));
                }
                "stablehlo.custom_call" => {
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
                        if TensorSpec::from_type(unsafe { mlirValueGetType(v) }).is_none() {
                            return Err(err_at(op, format!("custom_call '{target}': operands and results must be statically shaped tensors")));
                        }
                    }
                    let inputs = raw::operands(op).into_iter().map(|v| self.slice_of(v, op)).collect::<Result<Vec<_>>>()?;
                    let outputs: Vec<BufferSlice> = raw::results(op).into_iter().map(|v| self.fresh_result(v)).collect();
                    let t = CustomCallThunk::new(target, self.custom_calls.clone(), inputs, outputs).map_err(|e| err_at(op, e))?;
                    thunks.push(Box::new(t));
                }
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
                "scf.if" | "scf.index_switch" => thunks.extend(self.conditional(op)?),
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

    fn executor(&self, thunks: Vec<Box<dyn Thunk>>) -> ThunkExecutor {
        ThunkExecutor::new(thunks, self.options.clone())
    }

    /// Copies `from` into `to` unless they are the same slice.
    fn copy(from: BufferSlice, to: BufferSlice, at: MlirOperation) -> Result<Option<Box<dyn Thunk>>> {
        if from == to {
            return Ok(None);
        }
        Ok(Some(Box::new(CopyThunk::new(from, to).map_err(|e| err_at(at, e))?)))
    }

    fn while_loop(&mut self, op: MlirOperation) -> Result<Vec<Box<dyn Thunk>>> {
        let mut out: Vec<Box<dyn Thunk>> = Vec::new();
        // The carried values live in fresh buffers; the init values are copied in.
        let carried: Vec<BufferSlice> =
            raw::operands(op).iter().map(|&v| self.new_buffer(raw::value_bytes(v), None)).collect();
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
        let (mut cond, condition) = self.block(before)?;
        // scf.condition(%pred) %forwarded...: the predicate is a 0-d i1 tensor
        // extracted to a scalar; forwarded values must be the carried ones.
        let ops = raw::operands(condition);
        let pred = ops[0];
        let pred_tensor = raw::producer(pred)
            .filter(|&p| raw::name(p) == "tensor.extract")
            .map(|p| raw::operands(p)[0])
            .ok_or_else(|| err_at(condition, "loop condition is not an extracted 0-d tensor"))?;
        let pred_slice = self.slice_of(pred_tensor, condition)?;
        // The results of the loop (and the after-block arguments) are the
        // forwarded values; copy them into fresh buffers when they differ.
        let forwarded: Vec<BufferSlice> = ops[1..].iter().map(|&v| self.slice_of(v, condition)).collect::<Result<_>>()?;
        let after_args: Vec<BufferSlice> = forwarded.clone();
        for (i, &s) in after_args.iter().enumerate() {
            self.slices.insert(unsafe { mlirBlockGetArgument(after, i as isize) }.ptr, s);
        }
        let (mut body, yield_op) = self.block(after)?;
        // scf.yield values become the next iteration's carried values.
        let yielded: Vec<BufferSlice> =
            raw::operands(yield_op).iter().map(|&v| self.slice_of(v, yield_op)).collect::<Result<_>>()?;
        // Two-step copy through temporaries avoids clobbering a carried value
        // another yielded value still reads.
        let temps: Vec<BufferSlice> = yielded.iter().map(|s| self.new_buffer(s.size, None)).collect();
        for (&y, &t) in yielded.iter().zip(&temps) {
            body.extend(Self::copy(y, t, yield_op)?);
        }
        for (&t, &c) in temps.iter().zip(&carried) {
            body.extend(Self::copy(t, c, yield_op)?);
        }
        // The condition block may compute the predicate only; forwarded ==
        // carried is the form scf.while takes from stablehlo.while.
        if forwarded != carried {
            for (&f, &c) in forwarded.iter().zip(&carried) {
                if f != c {
                    return Err(err_at(condition, "loop condition forwards values other than the carried ones"));
                }
            }
        }
        cond.shrink_to_fit();
        let results: Vec<MlirValue> = raw::results(op);
        for (&r, &c) in results.iter().zip(&carried) {
            self.slices.insert(r.ptr, c);
        }
        let t = WhileThunk::new(self.executor(cond), pred_slice, self.executor(body)).map_err(|e| err_at(op, e))?;
        out.push(Box::new(t));
        Ok(out)
    }

    fn conditional(&mut self, op: MlirOperation) -> Result<Vec<Box<dyn Thunk>>> {
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
        let mut branches = Vec::new();
        for block in regions {
            let (mut thunks, yield_op) = self.block(block)?;
            for (&v, &r) in raw::operands(yield_op).iter().zip(&results) {
                thunks.extend(Self::copy(self.slice_of(v, yield_op)?, r, yield_op)?);
            }
            branches.push(self.executor(thunks));
        }
        let t = ConditionalThunk::new(index_slice, branches).map_err(|e| err_at(op, e))?;
        Ok(vec![Box::new(t)])
    }
}

impl std::fmt::Display for CpuExecutable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = self.memory;
        writeln!(
            f,
            "// {} allocations; peak {} bytes; temporaries packed into {} bytes ({} live at most, {} without reuse)",
            self.allocations.len(),
            m.peak_bytes,
            m.temp_bytes,
            m.live_temp_bytes,
            m.unshared_temp_bytes
        )?;
        for (i, (spec, alloc)) in self.params.iter().enumerate() {
            writeln!(f, "// parameter {i}: {} in a{alloc}", spec.describe())?;
        }
        for (i, (spec, slice)) in self.results.iter().enumerate() {
            writeln!(f, "// result {i}: {} in a{}", spec.describe(), slice.allocation)?;
        }
        write!(f, "{}", self.executor)
    }
}

impl CpuExecutable {
    /// Builds the thunk sequence of `main` (a func.func of the host program),
    /// with buffers assigned by liveness.
    pub fn build(main: MlirOperation, kernels: &dyn Fn(&str) -> Option<HostKernelFn>) -> Result<Self> {
        Self::build_with_custom_calls(main, kernels, Arc::new(CustomCallRegistry::with_builtins()))
    }

    /// [`CpuExecutable::build`] with the handlers `stablehlo.custom_call`
    /// targets resolve to; a target without a handler is an error here, at
    /// its location, before anything runs.
    pub fn build_with_custom_calls(
        main: MlirOperation,
        kernels: &dyn Fn(&str) -> Option<HostKernelFn>,
        custom_calls: Arc<CustomCallRegistry>,
    ) -> Result<Self> {
        // Pass 1: one buffer per value, to learn the live ranges.
        let (first, ..) = Self::build_with(main, kernels, &custom_calls, None)?;
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
        let (second, executor, params, results) = Self::build_with(main, kernels, &custom_calls, Some(assignment.slices.clone()))?;
        let const_bytes: Vec<Vec<u8>> = second
            .logical
            .iter()
            .filter_map(|l| if let Role::Const(b) = &l.role { Some(b.clone()) } else { None })
            .collect();
        let allocations = assignment
            .allocations
            .iter()
            .map(|a| match a.kind {
                BufferKind::Parameter(i) if i < nparams => AllocSpec { size: a.size, init: None, param: Some(i), result: false },
                BufferKind::Parameter(i) => {
                    AllocSpec { size: a.size, init: Some(const_bytes[i - nparams].clone()), param: None, result: false }
                }
                BufferKind::Result(_) => AllocSpec { size: a.size, init: None, param: None, result: true },
                BufferKind::Temp => AllocSpec { size: a.size, init: None, param: None, result: false },
            })
            .collect();
        let memory = MemoryReport {
            peak_bytes: assignment.peak_bytes,
            temp_bytes: assignment.temp_bytes,
            unshared_temp_bytes: assignment.unshared_temp_bytes,
            live_temp_bytes: assignment.live_temp_bytes,
        };
        Ok(Self { executor, allocations, params, results, memory, arenas: std::sync::Mutex::new(Vec::new()) })
    }

    #[allow(clippy::type_complexity)]
    fn build_with<'k>(
        main: MlirOperation,
        kernels: &'k dyn Fn(&str) -> Option<HostKernelFn>,
        custom_calls: &Arc<CustomCallRegistry>,
        plan: Option<Vec<BufferSlice>>,
    ) -> Result<(Builder<'k>, ThunkExecutor, Vec<(TensorSpec, usize)>, Vec<(TensorSpec, BufferSlice)>)> {
        let mut b = Builder {
            kernels,
            custom_calls: custom_calls.clone(),
            logical: Vec::new(),
            plan,
            slices: HashMap::new(),
            written: HashMap::new(),
            options: ExecutorOptions::default(),
            pos: 0,
            depth: 0,
        };
        let entry = *raw::region_blocks(main).first().ok_or_else(|| err_at(main, "function without a body"))?;
        let mut params = Vec::new();
        let nargs = unsafe { mlirBlockGetNumArguments(entry) };
        for i in 0..nargs {
            let a = unsafe { mlirBlockGetArgument(entry, i) };
            let spec = TensorSpec::from_type(unsafe { mlirValueGetType(a) })
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
            let spec = TensorSpec::from_type(unsafe { mlirValueGetType(v) })
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
        let executor = b.executor(thunks);
        Ok((b, executor, params, results))
    }

    /// Bytes one execution holds.
    pub fn memory(&self) -> MemoryReport {
        self.memory
    }

    pub fn parameters(&self) -> Vec<TensorSpec> {
        self.params.iter().map(|(s, _)| s.clone()).collect()
    }

    pub fn executor(&self) -> &ThunkExecutor {
        &self.executor
    }

    /// Runs once on `inputs` (checked first); safe to call from many threads.
    pub fn execute(
        &self,
        inputs: &[(std::path::PathBuf, HostArray)],
        pool: Option<&rayon::ThreadPool>,
    ) -> Result<Vec<HostArray>> {
        if inputs.len() != self.params.len() {
            return Err(Error::Unsupported(format!(
                "the program takes {} inputs, {} were given",
                self.params.len(),
                inputs.len()
            )));
        }
        for (i, ((path, arr), (spec, _))) in inputs.iter().zip(&self.params).enumerate() {
            spec.check(i, path, arr)?;
        }
        // Parameters are read where the caller holds them (kernels never write
        // an input; loops copy their carried values). Results are fresh vectors
        // handed to the caller without a copy. Temporaries and constants come
        // from an arena of an earlier run when one is free; every temporary is
        // written before it is read, so arenas are not cleared.
        let mut arena = self.arenas.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut temps: Vec<Option<AlignedBuffer>> = match arena.take() {
            Some(a) => a,
            None => self
                .allocations
                .iter()
                .map(|a| {
                    if a.param.is_some() || a.result {
                        Ok(None)
                    } else {
                        AlignedBuffer::zeroed(a.size as usize, 64).map(Some)
                    }
                })
                .collect::<std::result::Result<_, _>>()
                .map_err(|e| Error::Unsupported(e.to_string()))?,
        };
        for (buf, spec) in temps.iter_mut().zip(&self.allocations) {
            if let (Some(buf), Some(init)) = (buf.as_mut(), &spec.init) {
                buf.as_mut_slice()[..init.len()].copy_from_slice(init);
            }
        }
        let mut outs: Vec<Option<Vec<u8>>> =
            self.allocations.iter().map(|a| a.result.then(|| vec![0u8; a.size as usize])).collect();
        let status = {
            let bases: Vec<(*mut u8, u64)> = temps
                .iter_mut()
                .zip(outs.iter_mut())
                .zip(&self.allocations)
                .map(|((t, o), spec)| match (t, o, spec.param) {
                    (Some(t), _, _) => (t.as_mut_slice().as_mut_ptr(), t.len() as u64),
                    (None, Some(o), _) => (o.as_mut_ptr(), o.len() as u64),
                    (None, None, Some(i)) => {
                        let bytes = &inputs[i].1.bytes;
                        (bytes.as_ptr() as *mut u8, bytes.len() as u64)
                    }
                    (None, None, None) => unreachable!("every allocation is a parameter, a result or a temporary"),
                })
                .collect();
            // SAFETY: every pointer is live for this call; parameter buffers are
            // only read (kernel inputs and copy sources), never written.
            let allocs = unsafe { BufferAllocations::from_raw(bases) };
            self.executor.execute(&allocs, pool)
        };
        self.arenas.lock().unwrap_or_else(|e| e.into_inner()).push(temps);
        status.map_err(|e| Error::Unsupported(format!("run failed: {e}")))?;
        Ok(self
            .results
            .iter()
            .map(|(spec, slice)| {
                let whole = slice.offset == 0 && outs[slice.allocation].as_ref().is_some_and(|o| o.len() as u64 == slice.size);
                let bytes = if whole {
                    outs[slice.allocation].take().expect("checked above")
                } else {
                    let o = outs[slice.allocation].as_ref().expect("results have their own buffers");
                    o[slice.offset as usize..(slice.offset + slice.size) as usize].to_vec()
                };
                HostArray { element_type: spec.element_type, shape: spec.shape.clone(), bytes }
            })
            .collect())
    }
}
