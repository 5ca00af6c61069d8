//! Thunks: the units of dispatch. Each declares the slices it reads and
//! writes; the executor orders thunks by those uses alone.

use std::fmt;

use super::buffer::{BufferAllocations, BufferSlice, BufferUse};
use super::error::RuntimeError;
use super::executor::ThunkExecutor;
use super::kernel_abi::{HostKernel, KernelArg};
use super::npy::{HostArray, TensorSpec};
use super::trace::{Trace, TraceArg};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThunkKind {
    Kernel,
    Copy,
    While,
    Conditional,
    CustomCall,
    Gemm,
    Memset,
    Collective,
}

impl fmt::Display for ThunkKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ThunkKind::Kernel => "kernel",
            ThunkKind::Copy => "copy",
            ThunkKind::While => "while",
            ThunkKind::Conditional => "conditional",
            ThunkKind::CustomCall => "custom_call",
            ThunkKind::Gemm => "gemm",
            ThunkKind::Memset => "memset",
            ThunkKind::Collective => "collective",
        })
    }
}

/// What one execution gives every thunk: the buffers, the pool that
/// kernels split their workgroups across (`None`: run on this thread), the
/// trace that records what ran where (`None`: nothing is timed), and the
/// device of an SPMD run this execution is (`None`: the only device; see
/// [`crate::collectives`]).
#[derive(Clone, Copy)]
pub struct ExecuteContext<'a> {
    pub allocations: &'a BufferAllocations<'a>,
    pub pool: Option<&'a rayon::ThreadPool>,
    pub trace: Option<&'a Trace>,
    pub device: Option<&'a crate::collectives::DeviceRun>,
}

impl<'a> ExecuteContext<'a> {
    /// A context without a trace, on the only device.
    pub fn new(allocations: &'a BufferAllocations<'a>, pool: Option<&'a rayon::ThreadPool>) -> Self {
        Self { allocations, pool, trace: None, device: None }
    }
}

pub trait Thunk: Send + Sync {
    fn kind(&self) -> ThunkKind;
    fn buffer_uses(&self) -> &[BufferUse];
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError>;
    /// One line for dumps and errors.
    fn describe(&self) -> String {
        self.kind().to_string()
    }
    /// Whether it has effects beyond its buffer uses (a custom call with
    /// `has_side_effect`, or control flow around one): the executor keeps
    /// such thunks in program order.
    fn has_side_effect(&self) -> bool {
        false
    }
    /// Whether running this thunk can use the thread pool (a kernel split
    /// into workgroups, a body that runs as dataflow, a custom call's
    /// handler or a library call). A sequence of thunks none of which does
    /// runs on the caller's thread, without waking the pool's workers.
    fn uses_pool(&self) -> bool {
        true
    }
    /// This thunk as a step a loop can prepare once for all its iterations
    /// ([`prepare_steps`]): a one-workgroup kernel call or a copy with its
    /// slices resolved in `ctx`, or a loop or branch of such steps.
    /// `Ok(None)`: not such a thunk.
    /// A kernel's resolved arguments go to `args`, one vector for a whole
    /// loop nest (not an allocation per kernel per run of a loop).
    fn prepare<'a>(&'a self, _ctx: &ExecuteContext, _args: &mut Vec<KernelArg>) -> Result<Option<PreparedStep<'a>>, RuntimeError> {
        Ok(None)
    }
}

/// A loop body step with its buffers resolved: what a loop body of such
/// steps runs each iteration instead of its thunks, since the buffers do not
/// move while the loop runs (buffer assignment is static), so resolving and
/// checking the slices once is enough.
pub enum PreparedStep<'a> {
    /// A one-workgroup kernel call; its arguments are `args` of the
    /// vector the nest was prepared into.
    Kernel { kernel: &'a HostKernel, args: std::ops::Range<usize> },
    /// A copy (memmove) of `len` bytes.
    Copy { src: *const u8, dst: *mut u8, len: usize },
    /// A nested loop whose condition and body are prepared steps too (its
    /// one-byte predicate read where it lies), so a loop nest is resolved
    /// once, not once per run of each inner loop.
    While { cond: Vec<PreparedStep<'a>>, predicate: *const u8, body: Vec<PreparedStep<'a>>, trip_count: Option<u64> },
    /// A nested branch, each branch prepared; `index` is a one-byte bool
    /// (`bool_index`: true → branch 0) or an i32 (out of range → the last).
    Conditional { index: *const u8, bool_index: bool, branches: Vec<Vec<PreparedStep<'a>>> },
    /// A thunk run as it is (its `execute` in the loop's context) between
    /// prepared steps: one that cannot be prepared (a custom call, a kernel
    /// split into workgroups) in a sequence its executor runs in program
    /// order anyway ([`prepare_steps`]).
    Thunk(&'a dyn Thunk),
}

impl PreparedStep<'_> {
    /// # Safety
    /// The allocations the step was resolved in (those of `ctx`) must still
    /// be live and not otherwise accessed during the call (as while the loop
    /// that prepared it runs).
    #[inline]
    unsafe fn run(&self, ctx: &ExecuteContext, args: &[KernelArg]) -> Result<(), RuntimeError> {
        match self {
            // SAFETY: the arguments are in bounds of live allocations (resolved and checked by `prepare`), as the
            // caller's contract keeps them.
            PreparedStep::Kernel { kernel, args: range } => unsafe { kernel.call_single(&args[range.clone()]) },
            PreparedStep::Copy { src, dst, len } => {
                // SAFETY: both ranges were resolved in bounds of live allocations (`slice_ptr` checks), which the
                // caller's contract keeps; `copy` is memmove, so they may overlap.
                unsafe { std::ptr::copy(*src, *dst, *len) };
                Ok(())
            }
            PreparedStep::While { cond, predicate, body, trip_count } => {
                if let Some(n) = trip_count {
                    for _ in 0..*n {
                        // SAFETY: forwarded from the caller (the nested steps were prepared with this one).
                        unsafe { run_prepared(body, ctx, args) }?;
                    }
                    return Ok(());
                }
                loop {
                    // SAFETY: as above.
                    unsafe { run_prepared(cond, ctx, args) }?;
                    // SAFETY: `predicate` was resolved in bounds of a live allocation (one byte), as above.
                    match unsafe { predicate.read() } {
                        // SAFETY: as above.
                        1 => unsafe { run_prepared(body, ctx, args) }?,
                        0 => return Ok(()),
                        _ => {
                            return Err(RuntimeError::WhileConditionNotBool { reason: "predicate byte is neither 0 nor 1".into() });
                        }
                    }
                }
            }
            PreparedStep::Conditional { index, bool_index, branches } => {
                // SAFETY: `index` was resolved in bounds of a live allocation (1 or 4 bytes as `bool_index` says), as
                // above.
                let chosen = unsafe { choose_branch(*index, *bool_index, branches.len()) }?;
                // SAFETY: forwarded from the caller.
                unsafe { run_prepared(&branches[chosen], ctx, args) }
            }
            PreparedStep::Thunk(thunk) => thunk.execute(ctx),
        }
    }
}

/// The thunks of `seq` prepared as steps (one-workgroup kernels, copies,
/// loops and branches of them), when nothing traces the run and either every
/// thunk can be prepared or the sequence's executor runs it in program order
/// anyway (then the others run as they are, [`PreparedStep::Thunk`]); `None`
/// otherwise (the sequence then runs through its executor). Running them in
/// program order is one of the orders the sequence's dataflow allows.
pub fn prepare_steps<'a>(
    seq: &'a ThunkExecutor,
    ctx: &ExecuteContext,
    args: &mut Vec<KernelArg>,
) -> Result<Option<Vec<PreparedStep<'a>>>, RuntimeError> {
    if ctx.trace.is_some() {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(seq.thunks().len());
    for t in seq.thunks() {
        match t.prepare(ctx, args)? {
            Some(step) => out.push(step),
            None if seq.is_sequential() => out.push(PreparedStep::Thunk(&**t)),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// Runs prepared steps in order.
///
/// # Safety
/// As [`PreparedStep::run`].
unsafe fn run_prepared(steps: &[PreparedStep<'_>], ctx: &ExecuteContext, args: &[KernelArg]) -> Result<(), RuntimeError> {
    for step in steps {
        // SAFETY: forwarded from the caller.
        unsafe { step.run(ctx, args) }?;
    }
    Ok(())
}

fn invalid(kind: &'static str, reason: impl Into<String>) -> RuntimeError {
    RuntimeError::InvalidThunk { kind, reason: reason.into() }
}

/// Uses of a nested sequence, plus `extra`: what a control-flow thunk touches.
fn nested_uses<'a>(seqs: impl IntoIterator<Item = &'a ThunkExecutor>, extra: BufferUse) -> Vec<BufferUse> {
    let mut uses = vec![extra];
    for seq in seqs {
        for u in seq.buffer_uses() {
            if !uses.contains(&u) {
                uses.push(u);
            }
        }
    }
    uses
}

// ---------------------------------------------------------------------------

/// A kernel the runtime runs itself rather than calling machine code: the
/// TPU floor's kernels in the Mosaic interpreter. It sees its arguments as
/// arrays of the types the kernel table gives.
pub trait InterpretedKernel: Send + Sync {
    fn inputs(&self) -> &[TensorSpec];
    fn outputs(&self) -> &[TensorSpec];
    fn run(&self, inputs: &[HostArray]) -> Result<Vec<HostArray>, RuntimeError>;
}

/// Calls an [`InterpretedKernel`]: inputs copied out of their slices,
/// outputs copied into theirs (checked against the kernel table's sizes).
pub struct InterpretedKernelThunk {
    name: String,
    kernel: std::sync::Arc<dyn InterpretedKernel>,
    inputs: Vec<BufferSlice>,
    outputs: Vec<BufferSlice>,
    uses: Vec<BufferUse>,
}

impl InterpretedKernelThunk {
    pub fn new(
        name: String,
        kernel: std::sync::Arc<dyn InterpretedKernel>,
        inputs: Vec<BufferSlice>,
        outputs: Vec<BufferSlice>,
    ) -> Result<Self, RuntimeError> {
        let sized = |specs: &[TensorSpec], slices: &[BufferSlice]| {
            specs.len() == slices.len() && specs.iter().zip(slices).all(|(t, s)| t.bytes() == s.size)
        };
        if !sized(kernel.inputs(), &inputs) || !sized(kernel.outputs(), &outputs) {
            return Err(invalid("kernel", format!("kernel `{name}`: the call's buffers do not match the kernel's arrays")));
        }
        let uses = inputs.iter().map(|&s| BufferUse::read(s)).chain(outputs.iter().map(|&s| BufferUse::write(s))).collect();
        Ok(Self { name, kernel, inputs, outputs, uses })
    }
}

impl Thunk for InterpretedKernelThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::Kernel
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        let start = ctx.trace.map(|_| std::time::Instant::now());
        let mut arrays = Vec::with_capacity(self.inputs.len());
        for (slice, spec) in self.inputs.iter().zip(self.kernel.inputs()) {
            let p = ctx.allocations.slice_ptr(slice)?;
            // SAFETY: in bounds (checked by slice_ptr); no conflicting thunk runs meanwhile.
            let bytes = crate::AlignedBuffer::copy_from(unsafe { std::slice::from_raw_parts(p, slice.size as usize) });
            arrays.push(HostArray { element_type: spec.element_type, shape: spec.shape.clone(), bytes });
        }
        let results = self.kernel.run(&arrays)?;
        if results.len() != self.outputs.len() {
            return Err(RuntimeError::KernelFailed {
                kernel: self.name.clone(),
                message: format!("gave {} results for {} outputs", results.len(), self.outputs.len()),
            });
        }
        for (slice, r) in self.outputs.iter().zip(&results) {
            if r.bytes.len() as u64 != slice.size {
                return Err(RuntimeError::KernelFailed {
                    kernel: self.name.clone(),
                    message: format!("a result of {} bytes for an output of {}", r.bytes.len(), slice.size),
                });
            }
            let p = ctx.allocations.slice_ptr(slice)?;
            // SAFETY: as above; the thunk owns its outputs while it runs.
            unsafe { std::ptr::copy_nonoverlapping(r.bytes.as_ptr(), p, r.bytes.len()) };
        }
        if let (Some(t), Some(start)) = (ctx.trace, start) {
            t.slice("kernel", &self.name, start, std::time::Instant::now(), vec![("interpreted", TraceArg::Str("tpu".into()))]);
        }
        Ok(())
    }
    fn describe(&self) -> String {
        format!("kernel @{} (interpreted)", self.name)
    }
}

// ---------------------------------------------------------------------------

/// One fused kernel over a grid of workgroups; arguments are inputs then
/// outputs, as the kernel ABI says.
pub struct KernelThunk {
    kernel: HostKernel,
    args: Vec<BufferSlice>,
    grid: [u64; 3],
    num_workgroups: u64,
    uses: Vec<BufferUse>,
    /// Bytes of the input and of the output arguments (for traces).
    bytes: (u64, u64),
}

/// Argument arrays up to this length live on the stack: no allocation per run.
const INLINE_ARGS: usize = 16;

impl KernelThunk {
    pub fn new(kernel: HostKernel, inputs: Vec<BufferSlice>, outputs: Vec<BufferSlice>, grid: [u64; 3]) -> Result<Self, RuntimeError> {
        let num_workgroups = kernel.checked_workgroups(grid)?;
        let uses = inputs.iter().map(|&s| BufferUse::read(s)).chain(outputs.iter().map(|&s| BufferUse::write(s))).collect();
        let bytes = (inputs.iter().map(|s| s.size).sum(), outputs.iter().map(|s| s.size).sum());
        let mut args = inputs;
        args.extend(outputs);
        Ok(Self { kernel, args, grid, num_workgroups, uses, bytes })
    }

    /// Records one call of `workgroups` on this thread.
    fn record(&self, trace: &Trace, workgroups: std::ops::Range<u64>, start: std::time::Instant) {
        let end = std::time::Instant::now();
        let args = vec![
            ("grid", TraceArg::Ints(self.grid.to_vec())),
            ("workgroups", TraceArg::Str(format!("{}..{} of {}", workgroups.start, workgroups.end, self.num_workgroups))),
            ("bytes_read", TraceArg::Int(self.bytes.0)),
            ("bytes_written", TraceArg::Int(self.bytes.1)),
        ];
        trace.slice("kernel", self.kernel.name(), start, end, args);
    }

    pub fn grid(&self) -> [u64; 3] {
        self.grid
    }

    /// Calls the kernel with `args`, this thunk's slices resolved in `ctx`.
    fn run(&self, ctx: &ExecuteContext, args: &[KernelArg]) -> Result<(), RuntimeError> {
        // SAFETY: every argument is in bounds of its allocation, and the
        // executor runs no conflicting thunk while this one runs.
        unsafe {
            match ctx.pool {
                Some(pool) if self.num_workgroups > 1 => {
                    // Traced: one slice per workgroup, on the worker that ran it.
                    let observe =
                        ctx.trace.map(|t| move |range: std::ops::Range<u64>, start: std::time::Instant| self.record(t, range, start));
                    let observe = observe.as_ref().map(|f| f as &crate::kernel_abi::WorkgroupObserver);
                    if pool.current_thread_index().is_some() {
                        self.kernel.call_grid_parallel_observed(self.grid, args, observe)
                    } else {
                        pool.install(|| self.kernel.call_grid_parallel_observed(self.grid, args, observe))
                    }
                }
                _ => {
                    let start = ctx.trace.map(|_| std::time::Instant::now());
                    let r = self.kernel.call_workgroups(self.grid, 0..self.num_workgroups, args);
                    if let (Some(t), Some(start)) = (ctx.trace, start) {
                        self.record(t, 0..self.num_workgroups, start);
                    }
                    r
                }
            }
        }
    }
}

impl Thunk for KernelThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::Kernel
    }
    fn prepare<'a>(&'a self, ctx: &ExecuteContext, args: &mut Vec<KernelArg>) -> Result<Option<PreparedStep<'a>>, RuntimeError> {
        if self.num_workgroups != 1 {
            return Ok(None);
        }
        let start = args.len();
        for s in &self.args {
            args.push(KernelArg { ptr: ctx.allocations.slice_ptr(s)?.cast(), size: s.size });
        }
        Ok(Some(PreparedStep::Kernel { kernel: &self.kernel, args: start..args.len() }))
    }
    fn uses_pool(&self) -> bool {
        self.num_workgroups > 1
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        let arg = |slice: &BufferSlice| -> Result<KernelArg, RuntimeError> {
            Ok(KernelArg { ptr: ctx.allocations.slice_ptr(slice)?.cast(), size: slice.size })
        };
        let n = self.args.len();
        if n <= INLINE_ARGS {
            // Not zero-filled first: a loop of tiny kernels pays for every
            // byte written per call.
            let mut buf = [std::mem::MaybeUninit::<KernelArg>::uninit(); INLINE_ARGS];
            for (dst, slice) in buf.iter_mut().zip(&self.args) {
                dst.write(arg(slice)?);
            }
            // SAFETY: the first `n` entries were all written just above (`self.args` has `n` slices, each resolved or
            // the function returned), and `KernelArg` has `MaybeUninit<KernelArg>`'s layout.
            let args = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<KernelArg>(), n) };
            if self.num_workgroups == 1 && ctx.trace.is_none() {
                // SAFETY: every argument is in bounds of its allocation, and the executor runs no conflicting thunk
                // while this one runs.
                return unsafe { self.kernel.call_single(args) };
            }
            self.run(ctx, args)
        } else {
            let args = self.args.iter().map(arg).collect::<Result<Vec<_>, _>>()?;
            self.run(ctx, &args)
        }
    }
    fn describe(&self) -> String {
        format!("kernel @{} grid {:?}", self.kernel.name(), self.grid)
    }
}

// ---------------------------------------------------------------------------

/// Copies one slice to another of the same size.
pub struct CopyThunk {
    uses: [BufferUse; 2],
}

impl CopyThunk {
    pub fn new(src: BufferSlice, dst: BufferSlice) -> Result<Self, RuntimeError> {
        if src.size != dst.size {
            return Err(invalid("copy", format!("source is {} bytes, destination {}", src.size, dst.size)));
        }
        Ok(Self { uses: [BufferUse::read(src), BufferUse::write(dst)] })
    }
}

impl Thunk for CopyThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::Copy
    }
    fn uses_pool(&self) -> bool {
        false
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn prepare<'a>(&'a self, ctx: &ExecuteContext, _args: &mut Vec<KernelArg>) -> Result<Option<PreparedStep<'a>>, RuntimeError> {
        let src = ctx.allocations.slice_ptr(&self.uses[0].slice)?;
        let dst = ctx.allocations.slice_ptr(&self.uses[1].slice)?;
        Ok(Some(PreparedStep::Copy { src, dst, len: self.uses[0].slice.size as usize }))
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        let src = ctx.allocations.slice_ptr(&self.uses[0].slice)?;
        let dst = ctx.allocations.slice_ptr(&self.uses[1].slice)?;
        // `copy` is memmove: source and destination may overlap.
        unsafe { std::ptr::copy(src, dst, self.uses[0].slice.size as usize) };
        Ok(())
    }
}

// ---------------------------------------------------------------------------

/// A matrix product on the host: the reference gemm of [`crate::gemm`]
/// (the GPU runs the same spec through cuBLAS).
pub struct GemmThunk {
    spec: crate::gemm::GemmSpec,
    uses: [BufferUse; 3],
}

impl GemmThunk {
    pub fn new(spec: crate::gemm::GemmSpec) -> Result<Self, RuntimeError> {
        spec.validate().map_err(|e| invalid("gemm", e))?;
        let uses = [BufferUse::read(spec.lhs), BufferUse::read(spec.rhs), BufferUse::write(spec.out)];
        Ok(Self { spec, uses })
    }
}

impl Thunk for GemmThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::Gemm
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        let s = &self.spec;
        // SAFETY: the executor runs no conflicting thunk meanwhile, and the
        // output overlaps no operand (validated).
        let (lhs, rhs, out) = unsafe {
            (ctx.allocations.slice_bytes(&s.lhs)?, ctx.allocations.slice_bytes(&s.rhs)?, ctx.allocations.slice_bytes_mut(&s.out)?)
        };
        crate::gemm::host_gemm(s, lhs, rhs, out).map_err(|message| RuntimeError::KernelFailed { kernel: "gemm".into(), message })
    }
    fn describe(&self) -> String {
        format!("gemm {}", self.spec.describe())
    }
}

/// Fills a slice with a repeated byte or 32-bit word.
pub struct MemsetThunk {
    value: crate::program::MemsetValue,
    uses: [BufferUse; 1],
}

impl MemsetThunk {
    pub fn new(dst: BufferSlice, value: crate::program::MemsetValue) -> Self {
        Self { value, uses: [BufferUse::write(dst)] }
    }
}

impl Thunk for MemsetThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::Memset
    }
    fn uses_pool(&self) -> bool {
        false
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        // SAFETY: the executor runs no other user of the slice meanwhile.
        let dst = unsafe { ctx.allocations.slice_bytes_mut(&self.uses[0].slice)? };
        match self.value {
            crate::program::MemsetValue::Byte(b) => dst.fill(b),
            crate::program::MemsetValue::Word(w) => dst.chunks_mut(4).for_each(|c| c.copy_from_slice(&w.to_le_bytes()[..c.len()])),
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------

/// `while`: run `cond`, which writes a one-byte bool to `predicate`; while it
/// is true run `body` and repeat.
pub struct WhileThunk {
    cond: ThunkExecutor,
    predicate: BufferSlice,
    body: ThunkExecutor,
    /// Known trip count: run the body this often, never the condition.
    trip_count: Option<u64>,
    uses: Vec<BufferUse>,
    has_side_effect: bool,
}

/// Whether any thunk of these sequences has a side effect.
fn nested_side_effect<'a>(seqs: impl IntoIterator<Item = &'a ThunkExecutor>) -> bool {
    seqs.into_iter().any(|s| s.thunks().iter().any(|t| t.has_side_effect()))
}

impl WhileThunk {
    pub fn new(cond: ThunkExecutor, predicate: BufferSlice, body: ThunkExecutor) -> Result<Self, RuntimeError> {
        if predicate.size != 1 {
            return Err(RuntimeError::WhileConditionNotBool {
                reason: format!("predicate slice is {} bytes, a bool is 1", predicate.size),
            });
        }
        let uses = nested_uses([&cond, &body], BufferUse::read(predicate));
        let has_side_effect = nested_side_effect([&cond, &body]);
        Ok(Self { cond, predicate, body, trip_count: None, uses, has_side_effect })
    }

    /// The loop with a known trip count (the compiler proved the condition
    /// holds exactly `n` times: `floors-hlo-annotate-trip-counts`); `None`
    /// keeps evaluating the condition.
    pub fn with_trip_count(mut self, n: Option<u64>) -> Self {
        self.trip_count = n;
        self
    }
}

/// Reads a one-byte bool; anything but 0 or 1 is a broken program.
fn read_bool(ctx: &ExecuteContext, slice: &BufferSlice) -> Result<Option<bool>, RuntimeError> {
    let byte = unsafe { *ctx.allocations.slice_ptr(slice)? };
    Ok(match byte {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    })
}

impl Thunk for WhileThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::While
    }
    fn prepare<'a>(&'a self, ctx: &ExecuteContext, args: &mut Vec<KernelArg>) -> Result<Option<PreparedStep<'a>>, RuntimeError> {
        let Some(body) = prepare_steps(&self.body, ctx, args)? else { return Ok(None) };
        // A counted loop never runs its condition: it need not be preparable.
        let cond = match self.trip_count {
            Some(_) => Vec::new(),
            None => match prepare_steps(&self.cond, ctx, args)? {
                Some(c) => c,
                None => return Ok(None),
            },
        };
        let predicate = ctx.allocations.slice_ptr(&self.predicate)?.cast_const();
        Ok(Some(PreparedStep::While { cond, predicate, body, trip_count: self.trip_count }))
    }
    fn uses_pool(&self) -> bool {
        self.cond.uses_pool() || self.body.uses_pool()
    }
    fn has_side_effect(&self) -> bool {
        self.has_side_effect
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn describe(&self) -> String {
        match self.trip_count {
            Some(n) => format!("while (known trip count {n})"),
            None => "while".into(),
        }
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        // A loop that can use the pool moves onto it once, not once per
        // iteration or per split kernel (each a hand-off to a worker and back).
        if let Some(pool) = ctx.pool
            && self.uses_pool()
            && pool.current_thread_index().is_none()
        {
            return pool.install(|| self.execute(ctx));
        }
        // A body (and condition) of one-workgroup kernels and copies: their
        // buffers resolved once, then only the calls and copies per iteration.
        let mut args = Vec::new();
        let body = prepare_steps(&self.body, ctx, &mut args)?;
        if let Some(n) = self.trip_count {
            for _ in 0..n {
                match &body {
                    // SAFETY: the calls were prepared in `ctx`'s allocations, which live for this execution, and the
                    // executor runs nothing else on the loop's buffers meanwhile.
                    Some(calls) => unsafe { run_prepared(calls, ctx, &args) }?,
                    None => self.body.execute_in(ctx)?,
                }
            }
            return Ok(());
        }
        let cond = prepare_steps(&self.cond, ctx, &mut args)?;
        loop {
            match &cond {
                // SAFETY: as for the body above.
                Some(calls) => unsafe { run_prepared(calls, ctx, &args) }?,
                None => self.cond.execute_in(ctx)?,
            }
            match read_bool(ctx, &self.predicate)? {
                Some(true) => match &body {
                    // SAFETY: as above.
                    Some(calls) => unsafe { run_prepared(calls, ctx, &args) }?,
                    None => self.body.execute_in(ctx)?,
                },
                Some(false) => return Ok(()),
                None => {
                    return Err(RuntimeError::WhileConditionNotBool { reason: "predicate byte is neither 0 nor 1".into() });
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------

/// `case` / `if`: an i32 index (out of range → last branch, as StableHLO's
/// case) or a one-byte bool (true → branch 0, false → branch 1, as `if`).
pub struct ConditionalThunk {
    index: BufferSlice,
    branches: Vec<ThunkExecutor>,
    uses: Vec<BufferUse>,
    has_side_effect: bool,
}

impl ConditionalThunk {
    pub fn new(index: BufferSlice, branches: Vec<ThunkExecutor>) -> Result<Self, RuntimeError> {
        let bad = |reason: String| Err(RuntimeError::BadConditionalIndex { reason });
        match (index.size, branches.len()) {
            (_, 0) => return Err(invalid("conditional", "no branches")),
            (4, _) | (1, 2) => {}
            (1, n) => return bad(format!("a bool index selects between 2 branches, not {n}")),
            (s, _) => {
                return bad(format!("index slice is {s} bytes; expected an i32 (4) or a bool (1)"));
            }
        }
        let uses = nested_uses(&branches, BufferUse::read(index));
        let has_side_effect = nested_side_effect(&branches);
        Ok(Self { index, branches, uses, has_side_effect })
    }

    fn branch(&self, ctx: &ExecuteContext) -> Result<usize, RuntimeError> {
        let p = ctx.allocations.slice_ptr(&self.index)?;
        // SAFETY: `p` was resolved in bounds of a live allocation for the index slice, of 1 or 4 bytes (`new`).
        unsafe { choose_branch(p, self.index.size == 1, self.branches.len()) }
    }
}

/// The branch an index picks among `count`: a one-byte bool (`bool_index`:
/// true → branch 0, false → 1, any other byte an error) or an i32 (out of
/// range → the last branch, as StableHLO's `case`).
///
/// # Safety
/// `index` must point to 1 (`bool_index`) or 4 readable bytes, any alignment.
unsafe fn choose_branch(index: *const u8, bool_index: bool, count: usize) -> Result<usize, RuntimeError> {
    let last = count - 1;
    if bool_index {
        // SAFETY: one readable byte (the caller's contract).
        return match unsafe { index.read() } {
            1 => Ok(0),
            0 => Ok(1),
            _ => Err(RuntimeError::BadConditionalIndex { reason: "bool index byte is neither 0 nor 1".into() }),
        };
    }
    // SAFETY: four readable bytes (the caller's contract); read unaligned.
    let i = unsafe { (index as *const i32).read_unaligned() };
    Ok(usize::try_from(i).ok().filter(|&i| i < last).unwrap_or(last))
}

impl Thunk for ConditionalThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::Conditional
    }
    fn prepare<'a>(&'a self, ctx: &ExecuteContext, args: &mut Vec<KernelArg>) -> Result<Option<PreparedStep<'a>>, RuntimeError> {
        let mut branches = Vec::with_capacity(self.branches.len());
        for b in &self.branches {
            match prepare_steps(b, ctx, args)? {
                Some(steps) => branches.push(steps),
                None => return Ok(None),
            }
        }
        let index = ctx.allocations.slice_ptr(&self.index)?.cast_const();
        Ok(Some(PreparedStep::Conditional { index, bool_index: self.index.size == 1, branches }))
    }
    fn uses_pool(&self) -> bool {
        self.branches.iter().any(|b| b.uses_pool())
    }
    fn has_side_effect(&self) -> bool {
        self.has_side_effect
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        self.branches[self.branch(ctx)?].execute_in(ctx)
    }
}

// ---------------------------------------------------------------------------

pub use crate::ffi::CustomCallRegistry;
pub use crate::ffi::call::CustomCallInfo;

/// A bytes-in, bytes-out handler ([`CustomCallRegistry::register`]).
pub type CustomCallFn = dyn Fn(&[&[u8]], &mut [&mut [u8]]) -> Result<(), String> + Send + Sync;

/// A `stablehlo.custom_call`: an XLA FFI call of a registered handler (C or
/// Rust) over typed buffers, with attributes encoded once (see
/// [`crate::ffi`]). Building it resolves the handler and runs its
/// instantiate stage; each execution runs prepare, initialize and execute.
/// An output that aliases an input (`output_operand_aliases`) is the same
/// slice as that input; no other output overlaps an input or another output.
/// A call with a side effect is ordered after every earlier one.
pub struct CustomCallThunk {
    site: crate::ffi::CallSite,
    location: String,
    slices: Vec<BufferSlice>,
    num_inputs: usize,
    uses: Vec<BufferUse>,
    has_side_effect: bool,
}

impl CustomCallThunk {
    pub fn new(
        target: &str,
        info: &CustomCallInfo,
        inputs: Vec<BufferSlice>,
        outputs: Vec<BufferSlice>,
        registry: &CustomCallRegistry,
    ) -> Result<Self, RuntimeError> {
        let bad = |reason: String| invalid("custom_call", format!("`{target}`: {reason}"));
        if info.input_types.len() != inputs.len() || info.output_types.len() != outputs.len() {
            return Err(bad(format!(
                "{} inputs and {} outputs, but {} and {} types",
                inputs.len(),
                outputs.len(),
                info.input_types.len(),
                info.output_types.len()
            )));
        }
        let typed = inputs
            .iter()
            .zip(&info.input_types)
            .map(|(s, t)| ("input", s, t))
            .chain(outputs.iter().zip(&info.output_types).map(|(s, t)| ("output", s, t)));
        for (what, s, t) in typed {
            if s.size != t.bytes() {
                return Err(bad(format!("{what} {s:?} is {} bytes, its type {} is {}", s.size, t.describe(), t.bytes())));
            }
        }
        let mut aliased = vec![None; outputs.len()];
        for &(o, i) in &info.aliases {
            match (outputs.get(o), inputs.get(i)) {
                (Some(so), Some(si)) if so == si && aliased[o].is_none() => aliased[o] = Some(i),
                _ => return Err(bad(format!("output {o} cannot alias input {i} (it must be the same slice, aliased once)"))),
            }
        }
        for (i, o) in outputs.iter().enumerate() {
            if aliased[i].is_some() {
                continue;
            }
            if let Some(s) = inputs.iter().chain(&outputs[..i]).find(|s| s.overlaps(o)) {
                return Err(bad(format!("output {i} {o:?} overlaps {s:?}")));
            }
        }
        let handler = registry
            .resolve(target, crate::ffi::CPU_PLATFORM)
            .map_err(bad)?
            .ok_or_else(|| RuntimeError::UnknownCustomCall { name: target.to_string() })?;
        let site =
            crate::ffi::CallSite::new(target, handler, &info.input_types, &info.output_types, &info.attributes, registry.user_data())
                .map_err(|message| RuntimeError::CustomCallFailed { name: target.to_string(), location: info.location.clone(), message })?;
        // Aliased inputs are written through their output.
        let uses = inputs
            .iter()
            .enumerate()
            .filter(|(i, _)| !aliased.contains(&Some(*i)))
            .map(|(_, &s)| BufferUse::read(s))
            .chain(outputs.iter().map(|&s| BufferUse::write(s)))
            .collect();
        let num_inputs = inputs.len();
        let mut slices = inputs;
        slices.extend(outputs);
        Ok(Self { site, location: info.location.clone(), slices, num_inputs, uses, has_side_effect: info.has_side_effect })
    }

    /// A call over untyped buffers (`u8[size]` each), with no attributes.
    pub fn untyped(
        target: &str,
        registry: &CustomCallRegistry,
        inputs: Vec<BufferSlice>,
        outputs: Vec<BufferSlice>,
    ) -> Result<Self, RuntimeError> {
        let bytes = |s: &BufferSlice| crate::npy::TensorSpec { element_type: crate::npy::ElementType::U8, shape: vec![s.size] };
        let info = CustomCallInfo {
            input_types: inputs.iter().map(bytes).collect(),
            output_types: outputs.iter().map(bytes).collect(),
            ..Default::default()
        };
        Self::new(target, &info, inputs, outputs, registry)
    }

    pub fn target(&self) -> &str {
        self.site.target()
    }
}

impl Thunk for CustomCallThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::CustomCall
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn has_side_effect(&self) -> bool {
        self.has_side_effect
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        let ptrs = self.slices.iter().map(|s| ctx.allocations.slice_ptr(s)).collect::<Result<Vec<_>, _>>()?;
        let (args, rets) = ptrs.split_at(self.num_inputs);
        // SAFETY (handlers): every buffer is in bounds of its allocation, and
        // the executor runs no conflicting thunk meanwhile.
        self.site.run(args, rets, ctx.pool).map_err(|message| RuntimeError::CustomCallFailed {
            name: self.target().to_string(),
            location: self.location.clone(),
            message,
        })
    }
    fn describe(&self) -> String {
        let mut s = format!("custom_call @{}", self.target());
        if !self.site.attrs_text().is_empty() {
            s += &format!(" {}", self.site.attrs_text());
        }
        s += &format!(" (handler: {}", self.site.handler().origin);
        if self.has_side_effect {
            s += ", has_side_effect";
        }
        s + ")"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::ExecutorOptions;

    fn run(thunk: &dyn Thunk, bufs: &mut [Vec<u8>]) -> Result<(), RuntimeError> {
        let allocations = BufferAllocations::new(bufs.iter_mut().map(|b| b.as_mut_slice()));
        thunk.execute(&ExecuteContext::new(&allocations, None))
    }

    fn one(thunk: impl Thunk + 'static) -> ThunkExecutor {
        ThunkExecutor::new(vec![Box::new(thunk)], ExecutorOptions::default())
    }

    #[test]
    fn copy_moves_bytes_and_checks_sizes() {
        let copy = CopyThunk::new(BufferSlice::new(0, 1, 3), BufferSlice::new(1, 0, 3)).unwrap();
        let mut bufs = vec![vec![1, 2, 3, 4], vec![0; 3]];
        run(&copy, &mut bufs).unwrap();
        assert_eq!(bufs[1], [2, 3, 4]);
        let e = CopyThunk::new(BufferSlice::new(0, 0, 4), BufferSlice::new(1, 0, 3)).err().unwrap();
        assert_eq!(e.to_string(), "invalid copy thunk: source is 4 bytes, destination 3");
    }

    static CURSED: crate::kernel_abi::KernelError = crate::kernel_abi::KernelError { message: c"count 7 is cursed".as_ptr() };

    /// Body: out u32 = in u32 + 1 (fails at 7); the log byte at the new count is set.
    unsafe extern "C" fn step(frame: *const crate::kernel_abi::KernelCallFrame) -> *const crate::kernel_abi::KernelError {
        let args = unsafe { (*frame).args() };
        let n = unsafe { *(args[0].ptr as *const u32) } + 1;
        if n == 7 {
            return &CURSED;
        }
        unsafe { *(args[1].ptr as *mut u32) = n };
        unsafe { *(args[2].ptr as *mut u8).add(n as usize) = 1 };
        std::ptr::null()
    }

    /// Condition: predicate byte = (u32 < limit byte).
    unsafe extern "C" fn below(frame: *const crate::kernel_abi::KernelCallFrame) -> *const crate::kernel_abi::KernelError {
        let args = unsafe { (*frame).args() };
        let (n, limit) = unsafe { (*(args[0].ptr as *const u32), *(args[1].ptr as *const u8)) };
        unsafe { *(args[2].ptr as *mut u8) = u8::from(n < u32::from(limit)) };
        std::ptr::null()
    }

    /// A loop of a kernel and a copy (prepared once) counts: buffer 0 holds
    /// the counter, 1 the limit and predicate, 2 a log of the counts, 3 the
    /// next count, which the copy moves into the counter.
    fn counting_loop(trip_count: Option<u64>, limit: u8) -> (Result<(), RuntimeError>, Vec<Vec<u8>>) {
        let (counter, next) = (BufferSlice::new(0, 0, 4), BufferSlice::new(3, 0, 4));
        let kernel = |name, f| unsafe { HostKernel::new(name, f) };
        let step = KernelThunk::new(kernel("step", step), vec![counter], vec![next, BufferSlice::new(2, 0, 16)], [1, 1, 1]);
        let body: Vec<Box<dyn Thunk>> = vec![Box::new(step.unwrap()), Box::new(CopyThunk::new(next, counter).unwrap())];
        let body = ThunkExecutor::new(body, ExecutorOptions::default());
        let cond =
            KernelThunk::new(kernel("below", below), vec![counter, BufferSlice::new(1, 0, 1)], vec![BufferSlice::new(1, 1, 1)], [1, 1, 1]);
        let w = WhileThunk::new(one(cond.unwrap()), BufferSlice::new(1, 1, 1), body).unwrap().with_trip_count(trip_count);
        let mut bufs = vec![vec![0; 4], vec![limit, 0], vec![0; 16], vec![0; 4]];
        let r = run(&w, &mut bufs);
        (r, bufs)
    }

    #[test]
    fn loops_of_kernels_and_copies_run_prepared_steps() {
        // Counted: the condition never runs (its limit byte says 0).
        let (r, bufs) = counting_loop(Some(5), 0);
        r.unwrap();
        assert_eq!(bufs[0], 5u32.to_le_bytes());
        assert_eq!(bufs[2][..7], [0, 1, 1, 1, 1, 1, 0]);
        // Uncounted: the condition kernel decides.
        let (r, bufs) = counting_loop(None, 4);
        r.unwrap();
        assert_eq!(bufs[0], 4u32.to_le_bytes());
        assert_eq!(bufs[1][1], 0);
        // A failing kernel stops the loop with its message.
        let (r, bufs) = counting_loop(Some(10), 0);
        assert_eq!(r.unwrap_err().to_string(), "kernel `step` failed: count 7 is cursed");
        assert_eq!(bufs[0], 6u32.to_le_bytes());
    }

    /// A loop nest runs prepared as a whole: an outer counted loop whose body
    /// is a branch (its bool index byte in buffer 4) around the counting loop
    /// of [`counting_loop`], then a custom call (not preparable: it runs as
    /// it is between the prepared steps) that counts its own calls in buffer 5.
    #[test]
    fn loop_nests_with_branches_and_calls_run_prepared() {
        let (counter, next) = (BufferSlice::new(0, 0, 4), BufferSlice::new(3, 0, 4));
        let kernel = |name, f| unsafe { HostKernel::new(name, f) };
        let inner = || {
            let step = KernelThunk::new(kernel("step", step), vec![counter], vec![next, BufferSlice::new(2, 0, 16)], [1, 1, 1]);
            let body: Vec<Box<dyn Thunk>> = vec![Box::new(step.unwrap()), Box::new(CopyThunk::new(next, counter).unwrap())];
            let nop = one(CopyThunk::new(BufferSlice::new(1, 0, 1), BufferSlice::new(1, 1, 1)).unwrap());
            WhileThunk::new(nop, BufferSlice::new(1, 1, 1), ThunkExecutor::new(body, ExecutorOptions::default()))
                .unwrap()
                .with_trip_count(Some(2))
        };
        let mut reg = CustomCallRegistry::new();
        reg.register("tick", |_, outs| {
            outs[0][0] += 1;
            Ok(())
        });
        let tick = CustomCallThunk::untyped("tick", &reg, vec![], vec![BufferSlice::new(5, 0, 1)]).unwrap();
        let skip = one(CopyThunk::new(BufferSlice::new(1, 0, 1), BufferSlice::new(1, 1, 1)).unwrap());
        let branch = ConditionalThunk::new(BufferSlice::new(4, 0, 1), vec![one(inner()), skip]).unwrap();
        let body = ThunkExecutor::new(vec![Box::new(branch), Box::new(tick)], ExecutorOptions::default());
        assert!(body.is_sequential());
        let nop = one(CopyThunk::new(BufferSlice::new(1, 0, 1), BufferSlice::new(1, 1, 1)).unwrap());
        let outer = WhileThunk::new(nop, BufferSlice::new(1, 1, 1), body).unwrap().with_trip_count(Some(3));
        for (taken, count) in [(1u8, 6u32), (0, 0)] {
            let mut bufs = vec![vec![0; 4], vec![0, 0], vec![0; 16], vec![0; 4], vec![taken], vec![0]];
            run(&outer, &mut bufs).unwrap();
            assert_eq!(bufs[0], count.to_le_bytes(), "branch byte {taken}");
            assert_eq!(bufs[2][..8], [0, taken, taken, taken, taken, taken, taken, 0]);
            assert_eq!(bufs[5], [3]);
        }
        // A bad branch byte inside the prepared nest is the branch's error.
        let mut bufs = vec![vec![0; 4], vec![0, 0], vec![0; 16], vec![0; 4], vec![9], vec![0]];
        let e = run(&outer, &mut bufs).unwrap_err();
        assert!(matches!(e, RuntimeError::BadConditionalIndex { .. }), "{e}");
    }

    #[test]
    fn control_flow_rejects_non_bool_bytes() {
        let pred = BufferSlice::new(0, 0, 1);
        let nop = || one(CopyThunk::new(BufferSlice::new(1, 0, 1), BufferSlice::new(1, 1, 1)).unwrap());
        let w = WhileThunk::new(nop(), pred, nop()).unwrap();
        let e = run(&w, &mut [vec![7], vec![0, 0]]).unwrap_err();
        assert!(matches!(e, RuntimeError::WhileConditionNotBool { .. }), "{e}");
        let c = ConditionalThunk::new(pred, vec![nop(), nop()]).unwrap();
        let e = run(&c, &mut [vec![2], vec![0, 0]]).unwrap_err();
        assert!(matches!(e, RuntimeError::BadConditionalIndex { .. }), "{e}");
        assert!(ConditionalThunk::new(BufferSlice::new(0, 0, 4), vec![]).is_err());
    }

    #[test]
    fn control_flow_uses_cover_the_bodies() {
        let body = one(CopyThunk::new(BufferSlice::new(1, 0, 4), BufferSlice::new(2, 0, 4)).unwrap());
        let c = ConditionalThunk::new(BufferSlice::new(0, 0, 4), vec![body]).unwrap();
        assert_eq!(
            c.buffer_uses(),
            [
                BufferUse::read(BufferSlice::new(0, 0, 4)),
                BufferUse::read(BufferSlice::new(1, 0, 4)),
                BufferUse::write(BufferSlice::new(2, 0, 4)),
            ]
        );
    }

    #[test]
    fn custom_call_outputs_may_not_alias() {
        let mut reg = CustomCallRegistry::new();
        reg.register("f", |_, _| Ok(()));
        let s = |o| BufferSlice::new(0, o, 4);
        let e = CustomCallThunk::untyped("f", &reg, vec![s(0)], vec![s(2)]).err().unwrap();
        assert!(e.to_string().contains("`f`: output 0"), "{e}");
        assert!(CustomCallThunk::untyped("f", &reg, vec![s(0)], vec![s(4), s(6)]).is_err());
        assert!(CustomCallThunk::untyped("f", &reg, vec![s(0), s(0)], vec![s(4)]).is_ok());
        // A declared alias is the same slice as its input.
        let info = |aliases| CustomCallInfo {
            input_types: vec![crate::npy::TensorSpec { element_type: crate::npy::ElementType::F32, shape: vec![1] }],
            output_types: vec![crate::npy::TensorSpec { element_type: crate::npy::ElementType::F32, shape: vec![1] }],
            aliases,
            ..Default::default()
        };
        let call = CustomCallThunk::new("f", &info(vec![(0, 0)]), vec![s(0)], vec![s(0)], &reg).unwrap();
        assert_eq!(call.buffer_uses(), [BufferUse::write(s(0))]);
        assert!(CustomCallThunk::new("f", &info(vec![(0, 0)]), vec![s(0)], vec![s(4)], &reg).is_err());
        assert!(CustomCallThunk::new("f", &info(vec![]), vec![s(0)], vec![s(0)], &reg).is_err());
        assert_eq!(CustomCallThunk::untyped("g", &reg, vec![], vec![]).err().unwrap().to_string(), "unknown custom call target `g`");
    }

    #[test]
    fn a_panicking_custom_call_is_an_error() {
        let mut reg = CustomCallRegistry::new();
        reg.register("explode", |_, _| panic!("kaboom"));
        assert_eq!(reg.names(), ["explode"]);
        let call = CustomCallThunk::untyped("explode", &reg, vec![], vec![]).unwrap();
        let e = run(&call, &mut []).unwrap_err();
        assert_eq!(e.to_string(), "custom call `explode` failed: panicked: kaboom");
    }
}
