//! Thunks: the units of dispatch. Each declares the slices it reads and
//! writes; the executor orders thunks by those uses alone.

use std::collections::HashMap;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use super::buffer::{BufferAllocations, BufferSlice, BufferUse};
use super::error::RuntimeError;
use super::executor::ThunkExecutor;
use super::kernel_abi::{HostKernel, KernelArg};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThunkKind {
    Kernel,
    Copy,
    While,
    Conditional,
    CustomCall,
}

impl fmt::Display for ThunkKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ThunkKind::Kernel => "kernel",
            ThunkKind::Copy => "copy",
            ThunkKind::While => "while",
            ThunkKind::Conditional => "conditional",
            ThunkKind::CustomCall => "custom_call",
        })
    }
}

/// What one execution gives every thunk: the buffers, and the pool that
/// kernels split their workgroups across (`None`: run on this thread).
#[derive(Clone, Copy)]
pub struct ExecuteContext<'a> {
    pub allocations: &'a BufferAllocations<'a>,
    pub pool: Option<&'a rayon::ThreadPool>,
}

pub trait Thunk: Send + Sync {
    fn kind(&self) -> ThunkKind;
    fn buffer_uses(&self) -> &[BufferUse];
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError>;
    /// One line for dumps and errors.
    fn describe(&self) -> String {
        self.kind().to_string()
    }
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

/// One fused kernel over a grid of workgroups; arguments are inputs then
/// outputs, as the kernel ABI says.
pub struct KernelThunk {
    kernel: HostKernel,
    args: Vec<BufferSlice>,
    grid: [u64; 3],
    num_workgroups: u64,
    uses: Vec<BufferUse>,
}

/// Argument arrays up to this length live on the stack: no allocation per run.
const INLINE_ARGS: usize = 16;

impl KernelThunk {
    pub fn new(kernel: HostKernel, inputs: Vec<BufferSlice>, outputs: Vec<BufferSlice>, grid: [u64; 3]) -> Result<Self, RuntimeError> {
        let num_workgroups = kernel.checked_workgroups(grid)?;
        let uses = inputs.iter().map(|&s| BufferUse::read(s)).chain(outputs.iter().map(|&s| BufferUse::write(s))).collect();
        let mut args = inputs;
        args.extend(outputs);
        Ok(Self { kernel, args, grid, num_workgroups, uses })
    }

    pub fn grid(&self) -> [u64; 3] {
        self.grid
    }

    fn run(&self, ctx: &ExecuteContext, args: &mut [KernelArg]) -> Result<(), RuntimeError> {
        for (arg, slice) in args.iter_mut().zip(&self.args) {
            let ptr = ctx.allocations.slice_ptr(slice)?;
            *arg = KernelArg { ptr: ptr.cast(), size: slice.size };
        }
        let args = &*args;
        // SAFETY: every argument is in bounds of its allocation, and the
        // executor runs no conflicting thunk while this one runs.
        unsafe {
            match ctx.pool {
                Some(pool) if self.num_workgroups > 1 => {
                    if pool.current_thread_index().is_some() {
                        self.kernel.call_grid_parallel(self.grid, args)
                    } else {
                        pool.install(|| self.kernel.call_grid_parallel(self.grid, args))
                    }
                }
                _ => self.kernel.call_workgroups(self.grid, 0..self.num_workgroups, args),
            }
        }
    }
}

impl Thunk for KernelThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::Kernel
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        if self.args.len() <= INLINE_ARGS {
            let mut args = [KernelArg::NULL; INLINE_ARGS];
            self.run(ctx, &mut args[..self.args.len()])
        } else {
            self.run(ctx, &mut vec![KernelArg::NULL; self.args.len()])
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
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
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

/// `while`: run `cond`, which writes a one-byte bool to `predicate`; while it
/// is true run `body` and repeat.
pub struct WhileThunk {
    cond: ThunkExecutor,
    predicate: BufferSlice,
    body: ThunkExecutor,
    uses: Vec<BufferUse>,
}

impl WhileThunk {
    pub fn new(cond: ThunkExecutor, predicate: BufferSlice, body: ThunkExecutor) -> Result<Self, RuntimeError> {
        if predicate.size != 1 {
            return Err(RuntimeError::WhileConditionNotBool {
                reason: format!("predicate slice is {} bytes, a bool is 1", predicate.size),
            });
        }
        let uses = nested_uses([&cond, &body], BufferUse::read(predicate));
        Ok(Self { cond, predicate, body, uses })
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
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        loop {
            self.cond.execute_in(ctx)?;
            match read_bool(ctx, &self.predicate)? {
                Some(true) => self.body.execute_in(ctx)?,
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
        Ok(Self { index, branches, uses })
    }

    fn branch(&self, ctx: &ExecuteContext) -> Result<usize, RuntimeError> {
        let last = self.branches.len() - 1;
        if self.index.size == 1 {
            return match read_bool(ctx, &self.index)? {
                Some(b) => Ok(if b { 0 } else { 1 }),
                None => Err(RuntimeError::BadConditionalIndex { reason: "bool index byte is neither 0 nor 1".into() }),
            };
        }
        let p = ctx.allocations.slice_ptr(&self.index)?;
        let i = unsafe { (p as *const i32).read_unaligned() };
        Ok(usize::try_from(i).ok().filter(|&i| i < last).unwrap_or(last))
    }
}

impl Thunk for ConditionalThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::Conditional
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        self.branches[self.branch(ctx)?].execute_in(ctx)
    }
}

// ---------------------------------------------------------------------------

/// A custom call handler: input bytes, output bytes; `Err` carries a message.
pub type CustomCallFn = dyn Fn(&[&[u8]], &mut [&mut [u8]]) -> Result<(), String> + Send + Sync;

/// Custom call targets by name. The seam for the versioned C ABI to come.
#[derive(Clone, Default)]
pub struct CustomCallRegistry {
    handlers: HashMap<String, Arc<CustomCallFn>>,
}

impl CustomCallRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// The targets every program may use: the identity annotations JAX emits
    /// on one device (`Sharding`, `SPMDFullToShardShape`,
    /// `SPMDShardToFullShape`: one input, one output of the same size).
    pub fn with_builtins() -> Self {
        let mut r = Self::new();
        for name in ["Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape"] {
            r.register(name, move |ins, outs| match (ins, outs) {
                ([i], [o]) if i.len() == o.len() => {
                    o.copy_from_slice(i);
                    Ok(())
                }
                _ => Err(format!("{name} takes one input and one output of the same size")),
            });
        }
        r
    }

    /// Registers (or replaces) `name`.
    pub fn register(
        &mut self,
        name: impl Into<String>,
        handler: impl Fn(&[&[u8]], &mut [&mut [u8]]) -> Result<(), String> + Send + Sync + 'static,
    ) -> &mut Self {
        self.handlers.insert(name.into(), Arc::new(handler));
        self
    }

    pub fn get(&self, name: &str) -> Option<&CustomCallFn> {
        self.handlers.get(name).map(|h| &**h)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.handlers.keys().map(String::as_str)
    }
}

/// Calls a registered target by name; the name is looked up when it runs.
pub struct CustomCallThunk {
    target: String,
    registry: Arc<CustomCallRegistry>,
    num_inputs: usize,
    uses: Vec<BufferUse>,
}

impl CustomCallThunk {
    /// Outputs may not overlap inputs or each other: the handler gets them as
    /// Rust slices, which must not alias.
    pub fn new(
        target: impl Into<String>,
        registry: Arc<CustomCallRegistry>,
        inputs: Vec<BufferSlice>,
        outputs: Vec<BufferSlice>,
    ) -> Result<Self, RuntimeError> {
        let target = target.into();
        for (i, o) in outputs.iter().enumerate() {
            let clash = inputs.iter().chain(&outputs[..i]).find(|s| s.overlaps(o));
            if let Some(s) = clash {
                return Err(invalid("custom_call", format!("`{target}`: output {i} {o:?} overlaps {s:?}")));
            }
        }
        let uses = inputs.iter().map(|&s| BufferUse::read(s)).chain(outputs.iter().map(|&s| BufferUse::write(s))).collect();
        Ok(Self { target, registry, num_inputs: inputs.len(), uses })
    }
}

impl Thunk for CustomCallThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::CustomCall
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        let handler = self.registry.get(&self.target).ok_or_else(|| RuntimeError::UnknownCustomCall { name: self.target.clone() })?;
        let (ins, outs) = self.uses.split_at(self.num_inputs);
        // SAFETY: outputs overlap nothing else here (checked in `new`), and
        // the executor runs no conflicting thunk meanwhile.
        let inputs = ins.iter().map(|u| unsafe { ctx.allocations.slice_bytes(&u.slice) }).collect::<Result<Vec<_>, _>>()?;
        let mut outputs = outs.iter().map(|u| unsafe { ctx.allocations.slice_bytes_mut(&u.slice) }).collect::<Result<Vec<_>, _>>()?;
        let failed = |message: String| RuntimeError::CustomCallFailed { name: self.target.clone(), message };
        // A panicking handler is a failed call, not a torn-down executor.
        match catch_unwind(AssertUnwindSafe(|| handler(&inputs, &mut outputs))) {
            Ok(r) => r.map_err(failed),
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(failed(format!("panicked: {msg}")))
            }
        }
    }
    fn describe(&self) -> String {
        format!("custom_call @{}", self.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::ExecutorOptions;

    fn run(thunk: &dyn Thunk, bufs: &mut [Vec<u8>]) -> Result<(), RuntimeError> {
        let allocations = BufferAllocations::new(bufs.iter_mut().map(|b| b.as_mut_slice()));
        thunk.execute(&ExecuteContext { allocations: &allocations, pool: None })
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
        let reg = Arc::new(CustomCallRegistry::new());
        let s = |o| BufferSlice::new(0, o, 4);
        let e = CustomCallThunk::new("f", reg.clone(), vec![s(0)], vec![s(2)]).err().unwrap();
        assert!(e.to_string().contains("`f`: output 0"), "{e}");
        assert!(CustomCallThunk::new("f", reg.clone(), vec![s(0)], vec![s(4), s(6)]).is_err());
        assert!(CustomCallThunk::new("f", reg, vec![s(0), s(0)], vec![s(4)]).is_ok());
    }

    #[test]
    fn a_panicking_custom_call_is_an_error() {
        let mut reg = CustomCallRegistry::new();
        reg.register("explode", |_, _| panic!("kaboom"));
        assert_eq!(reg.names().collect::<Vec<_>>(), ["explode"]);
        let call = CustomCallThunk::new("explode", Arc::new(reg), vec![], vec![]).unwrap();
        let e = run(&call, &mut []).unwrap_err();
        assert_eq!(e.to_string(), "custom call `explode` failed: panicked: kaboom");
    }
}
