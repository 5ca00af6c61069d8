//! Runs the functions of a [`TpuKernel`] on simulated TPU memory: one call of
//! the kernel body (one grid point) or of an index map. [`super::grid`]
//! drives it over the grid.
//!
//! Values: scalars and vectors are [`Tensor`]s (a scalar has shape `[]`);
//! floats are held as f64 and rounded to their type after every op (so f32
//! arithmetic is f32's, transcendental functions are correctly rounded f64
//! results rounded once), integers as i64 sign-extended from their width
//! (i1 true is -1; unsigned ops read the low bits). Memrefs are views
//! ([`RefView`]: buffer, offset, shape, strides) into [`Memory`]'s buffers.
//!
//! DMAs follow Pallas' TPU interpret mode (`dma_execution_mode="on_wait"`,
//! its default): `tpu.enqueue_dma` only records the copy as a task of its
//! semaphores; a wait on a semaphore runs its pending tasks, most recent
//! first, until the count suffices, and a task reads the source and writes the
//! target *then* (so the source must still hold the data at the wait, as on
//! hardware where the copy may take that long). DMA semaphores count bytes.
//! A wait that no pending task can satisfy would block forever on one core:
//! an error here.
//!
//! Every failure is an [`Error`] naming the op and its location; nothing in a
//! kernel (bad ids, wrong types, out-of-bounds indices, huge shapes) panics.
//!
//! This file holds the values, the memory and the [`Machine`] (calls, blocks,
//! operands, results, bounds checks); `exec` hands each op to its family in a
//! submodule: `elementwise`, `vector` (with `matmul`), `memory`, `dma`,
//! `control`.

use std::{collections::HashMap, rc::Rc};

use super::kernel::*;
use crate::error::{Error, Result};

mod control;
mod dma;
mod elementwise;
mod matmul;
mod memory;
mod vector;

/// Deepest nesting of regions (scf bodies) and calls a kernel may have.
pub const MAX_NESTING: usize = 64;
/// Most elements one vector or buffer may have (2^28: 2 GiB as f64).
pub const MAX_ELEMENTS: u64 = 1 << 28;

/// Element storage: floats as f64, integers as sign-extended i64.
#[derive(Clone, Debug, PartialEq)]
pub enum Elems {
    F(Vec<f64>),
    I(Vec<i64>),
}

impl Elems {
    pub fn len(&self) -> usize {
        match self {
            Elems::F(v) => v.len(),
            Elems::I(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn filled(ty: ScalarType, n: usize, f: f64, i: i64) -> Elems {
        if ty.is_float() { Elems::F(vec![f; n]) } else { Elems::I(vec![i; n]) }
    }

    /// Elements at `idx` (all in range: callers check).
    fn gather(&self, idx: &[usize]) -> Elems {
        match self {
            Elems::F(v) => Elems::F(idx.iter().map(|&i| v[i]).collect()),
            Elems::I(v) => Elems::I(idx.iter().map(|&i| v[i]).collect()),
        }
    }
}

/// A scalar (shape `[]`) or vector value.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    pub ty: ScalarType,
    pub shape: Vec<i64>,
    pub data: Elems,
}

impl Tensor {
    pub fn scalar_int(ty: ScalarType, v: i64) -> Tensor {
        Tensor { ty, shape: vec![], data: Elems::I(vec![wrap(ty, v)]) }
    }

    fn describe(&self) -> String {
        if self.shape.is_empty() {
            self.ty.name().to_string()
        } else {
            Type::Vector { shape: self.shape.clone(), element: self.ty }.describe()
        }
    }
}

/// A view of a buffer: element offset, shape and strides (in elements).
#[derive(Clone, Debug, PartialEq)]
pub struct RefView {
    pub buffer: usize,
    pub offset: i64,
    pub shape: Vec<i64>,
    pub strides: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    T(Tensor),
    Ref(RefView),
}

/// One simulated memory buffer (an HBM array, a VMEM window, scratch, an
/// SMEM array, or semaphores, whose counts are the elements).
#[derive(Clone, Debug)]
pub struct Buffer {
    pub name: String,
    pub element: MemElement,
    pub memory_space: MemorySpace,
    pub shape: Vec<i64>,
    pub data: Elems,
}

#[derive(Clone, Debug)]
enum DmaState {
    Started,
    Read(Elems),
    Done,
}

#[derive(Clone, Debug)]
struct Dma {
    src: RefView,
    dst: RefView,
    /// The flat elements it reads and writes (for the race checks).
    src_elems: DmaRegion,
    dst_elems: DmaRegion,
    src_sem: Option<(usize, usize)>,
    dst_sem: (usize, usize),
    bytes: i64,
    location: String,
    state: DmaState,
}

/// Elements of one buffer: (buffer, lowest, highest, every flat offset).
#[derive(Clone, Debug)]
struct DmaRegion {
    buffer: usize,
    lo: usize,
    hi: usize,
    offsets: std::sync::Arc<std::collections::HashSet<usize>>,
}

impl DmaRegion {
    fn new(buffer: usize, offs: &[usize]) -> DmaRegion {
        let lo = offs.iter().copied().min().unwrap_or(0);
        let hi = offs.iter().copied().max().unwrap_or(0);
        DmaRegion { buffer, lo, hi, offsets: std::sync::Arc::new(offs.iter().copied().collect()) }
    }

    /// Whether any of `offs` of `buffer` is in the region.
    fn meets(&self, buffer: usize, offs: &[usize]) -> bool {
        !offs.is_empty()
            && !self.offsets.is_empty()
            && buffer == self.buffer
            && offs.iter().any(|o| (self.lo..=self.hi).contains(o) && self.offsets.contains(o))
    }
}

/// Buffers, in-flight DMAs and the tasks waiting on each semaphore.
#[derive(Default, Debug)]
pub struct Memory {
    pub buffers: Vec<Buffer>,
    dmas: Vec<Dma>,
    /// DMAs started and not yet complete (ids into `dmas`).
    in_flight: Vec<usize>,
    /// (buffer, element) of a semaphore → (dma, whether the task also writes).
    tasks: HashMap<(usize, usize), Vec<(usize, bool)>>,
}

impl Memory {
    pub fn add(&mut self, b: Buffer) -> usize {
        self.buffers.push(b);
        self.buffers.len() - 1
    }

    /// DMAs started and never completed: (location, semaphore buffer name).
    pub fn unfinished_dmas(&self) -> Vec<String> {
        self.dmas
            .iter()
            .filter(|d| !matches!(d.state, DmaState::Done))
            .map(|d| {
                let at = if d.location.is_empty() { String::new() } else { format!(" at {}", d.location) };
                format!("the DMA started{at} into {}", self.buffers.get(d.dst.buffer).map_or("?", |b| b.name.as_str()))
            })
            .collect()
    }

    /// The race rule of DMAs (what Pallas' race detector reports): an access
    /// of `offs` of `buffer` (a write when `write`) must not touch what an
    /// in-flight DMA will write, and a write must not touch what one has not
    /// read yet. Err: where that DMA started.
    fn racing_dma(&self, buffer: usize, offs: &[usize], write: bool) -> Option<(&str, &'static str)> {
        self.in_flight.iter().map(|&d| &self.dmas[d]).find_map(|d| {
            let unread = matches!(d.state, DmaState::Started);
            if d.dst_elems.meets(buffer, offs) {
                Some((d.location.as_str(), "writes"))
            } else if write && unread && d.src_elems.meets(buffer, offs) {
                Some((d.location.as_str(), "has not yet read"))
            } else {
                None
            }
        })
    }

    /// Frees buffers `mark..` (a `tpu.region`'s scoped allocations). Every
    /// DMA touching them must have completed and their semaphores be zero,
    /// as Pallas requires of `run_scoped`.
    pub fn release_from(&mut self, mark: usize) -> std::result::Result<(), String> {
        let scoped = |r: &RefView| r.buffer >= mark;
        if let Some(d) = self.dmas.iter().find(|d| {
            !matches!(d.state, DmaState::Done)
                && (scoped(&d.src) || scoped(&d.dst) || d.dst_sem.0 >= mark || d.src_sem.is_some_and(|s| s.0 >= mark))
        }) {
            let at = if d.location.is_empty() { String::new() } else { format!(" (started at {})", d.location) };
            return Err(format!("a DMA on a scoped buffer or semaphore is still in flight{at}"));
        }
        for b in &self.buffers[mark.min(self.buffers.len())..] {
            if matches!(b.element, MemElement::Semaphore | MemElement::DmaSemaphore)
                && let Elems::I(v) = &b.data
                && let Some((i, c)) = v.iter().enumerate().find(|(_, c)| **c != 0)
            {
                return Err(format!("semaphore {i} of the {} is {c}", b.name));
            }
        }
        self.tasks.retain(|&(b, _), _| b < mark);
        self.in_flight.retain(|&d| self.dmas[d].dst.buffer < mark && self.dmas[d].src.buffer < mark);
        self.buffers.truncate(mark);
        Ok(())
    }

    /// Semaphores with a non-zero count: (buffer name, element, count).
    pub fn nonzero_semaphores(&self) -> Vec<(String, usize, i64)> {
        let mut out = Vec::new();
        for b in &self.buffers {
            if matches!(b.element, MemElement::Semaphore | MemElement::DmaSemaphore)
                && let Elems::I(v) = &b.data
            {
                out.extend(v.iter().enumerate().filter(|(_, c)| **c != 0).map(|(i, c)| (b.name.clone(), i, *c)));
            }
        }
        out
    }
}

/// Row-major strides of `shape`.
pub fn row_major_strides(shape: &[i64]) -> Vec<i64> {
    let mut s = vec![1i64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1].saturating_mul(shape[d + 1].max(1));
    }
    s
}

/// Elements of `shape`, checked: no negative dims, at most [`MAX_ELEMENTS`].
pub fn checked_count(shape: &[i64]) -> std::result::Result<usize, String> {
    let mut n: u64 = 1;
    for &d in shape {
        if d < 0 {
            return Err(format!("negative dimension {d} in shape {shape:?}"));
        }
        n = n
            .checked_mul(d as u64)
            .filter(|&n| n <= MAX_ELEMENTS)
            .ok_or_else(|| format!("shape {shape:?} has more than {MAX_ELEMENTS} elements"))?;
    }
    Ok(n as usize)
}

/// `v` truncated to `ty`'s width and sign-extended (index and i64: as is).
pub fn wrap(ty: ScalarType, v: i64) -> i64 {
    let w = ty.bits();
    if w >= 64 || ty.is_float() {
        v
    } else {
        let s = 64 - w;
        (v << s) >> s
    }
}

/// The low `ty`-width bits of `v`, as unsigned.
fn unsigned(ty: ScalarType, v: i64) -> u64 {
    let w = ty.bits();
    if w >= 64 { v as u64 } else { (v as u64) & ((1u64 << w) - 1) }
}

/// `x` rounded to float type `ty`.
pub fn round_to(ty: ScalarType, x: f64) -> f64 {
    match ty {
        ScalarType::F32 => x as f32 as f64,
        ScalarType::F16 => half::f16::from_f64(x).to_f64(),
        ScalarType::Bf16 => half::bf16::from_f64(x).to_f64(),
        _ => x,
    }
}

/// What uninitialized memory holds (Pallas' `uninitialized_memory="nan"`),
/// as (float, int): NaN for floats, the largest value for integers, true
/// (-1) for i1.
pub fn uninitialized_value(ty: ScalarType) -> (f64, i64) {
    let i = match ty {
        ScalarType::I1 => -1,
        // 64-bit types (i64, index, f64's integer view): i64::MAX, without
        // shifting a 1 into the sign bit.
        t if t.bits() >= 64 => i64::MAX,
        t => (1i64 << (t.bits() - 1)) - 1,
    };
    (f64::NAN, i)
}

/// Elements filled with the uninitialized pattern.
pub fn uninitialized_elems(ty: ScalarType, n: usize) -> Elems {
    let (f, i) = uninitialized_value(ty);
    Elems::filled(ty, n, f, i)
}

/// What a block ended with.
enum Flow {
    Next,
    Return(Vec<Rc<Value>>),
    Yield(Vec<Rc<Value>>),
    Condition(bool, Vec<Rc<Value>>),
}

struct Frame<'f> {
    func: &'f Function,
    env: Vec<Option<Rc<Value>>>,
}

/// Runs kernel functions against a [`Memory`].
pub struct Machine<'k> {
    pub kernel: &'k TpuKernel,
    pub mem: Memory,
    /// The grid point being run, for messages (`(0, 3)`).
    pub grid_point: String,
    depth: usize,
}

type R<T> = Result<T>;

fn shape_str(s: &[i64]) -> String {
    format!("{s:?}")
}

impl<'k> Machine<'k> {
    pub fn new(kernel: &'k TpuKernel, mem: Memory) -> Self {
        Machine { kernel, mem, grid_point: "()".into(), depth: 0 }
    }

    fn kernel_err(&self, location: &str, message: impl Into<String>) -> Error {
        Error::TpuKernel { kernel: self.kernel.name().to_string(), location: location.to_string(), message: message.into() }
    }

    fn op_err(&self, op: &Op, message: impl Into<String>) -> Error {
        Error::TpuOp {
            kernel: self.kernel.name().to_string(),
            op: op.name.clone(),
            location: op.location.clone(),
            grid_point: self.grid_point.clone(),
            message: message.into(),
        }
    }

    fn bad(&self, op: &Op, message: impl Into<String>) -> Error {
        self.kernel_err(&op.location, format!("`{}`: {}", op.name, message.into()))
    }

    /// Calls function `f` with `args`; its results.
    pub fn call(&mut self, f: FuncId, args: Vec<Rc<Value>>) -> R<Vec<Rc<Value>>> {
        let func = self.kernel.functions.get(f).ok_or_else(|| self.kernel_err("", format!("no function #{f}")))?;
        if self.depth >= MAX_NESTING {
            return Err(self.kernel_err(&func.location, format!("calls and regions nested deeper than {MAX_NESTING} levels")));
        }
        let n = func.num_values as usize;
        if n as u64 > MAX_ELEMENTS {
            return Err(self.kernel_err(&func.location, format!("@{}: {n} values", func.name)));
        }
        if args.len() != func.body.args.len() {
            return Err(self.kernel_err(
                &func.location,
                format!("@{} takes {} arguments, called with {}", func.name, func.body.args.len(), args.len()),
            ));
        }
        let mut frame = Frame { func, env: vec![None; n] };
        self.depth += 1;
        let flow = self.run_block(&mut frame, &func.body, args);
        self.depth -= 1;
        match flow? {
            Flow::Return(v) => {
                if v.len() != func.results.len() {
                    return Err(self.kernel_err(
                        &func.location,
                        format!("@{} returns {} values, its type says {}", func.name, v.len(), func.results.len()),
                    ));
                }
                Ok(v)
            }
            Flow::Next if func.results.is_empty() => Ok(vec![]),
            _ => Err(self.kernel_err(&func.location, format!("@{} does not end in `func.return`", func.name))),
        }
    }

    fn bind(&self, fr: &mut Frame, id: ValueId, v: Rc<Value>, location: &str) -> R<()> {
        let slot = fr
            .env
            .get_mut(id as usize)
            .ok_or_else(|| self.kernel_err(location, format!("value id %{id} out of range (function has {})", fr.func.num_values)))?;
        *slot = Some(v);
        Ok(())
    }

    fn run_block(&mut self, fr: &mut Frame, block: &Block, args: Vec<Rc<Value>>) -> R<Flow> {
        if args.len() != block.args.len() {
            return Err(self.kernel_err(
                &fr.func.location,
                format!("a block of @{} has {} arguments, given {}", fr.func.name, block.args.len(), args.len()),
            ));
        }
        for ((id, ty), v) in block.args.iter().zip(args) {
            check_type(&v, ty).map_err(|m| self.kernel_err(&fr.func.location, format!("block argument %{id}: {m}")))?;
            self.bind(fr, *id, v, &fr.func.location.clone())?;
        }
        for op in &block.ops {
            match self.exec(fr, op)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    fn nested(&mut self, fr: &mut Frame, op: &Op, block: &Block, args: Vec<Rc<Value>>) -> R<Flow> {
        if self.depth >= MAX_NESTING {
            return Err(self.bad(op, format!("regions nested deeper than {MAX_NESTING} levels")));
        }
        self.depth += 1;
        let r = self.run_block(fr, block, args);
        self.depth -= 1;
        r
    }

    fn get(&self, fr: &Frame, op: &Op, id: ValueId) -> R<Rc<Value>> {
        match fr.env.get(id as usize) {
            Some(Some(v)) => Ok(v.clone()),
            Some(None) => Err(self.bad(op, format!("uses %{id} before it is defined"))),
            None => Err(self.bad(op, format!("value id %{id} out of range"))),
        }
    }

    fn tensor(&self, fr: &Frame, op: &Op, id: ValueId) -> R<Rc<Value>> {
        let v = self.get(fr, op, id)?;
        match &*v {
            Value::T(_) => Ok(v),
            Value::Ref(_) => Err(self.bad(op, format!("%{id} is a memref where a scalar or vector is expected"))),
        }
    }

    fn reference(&self, fr: &Frame, op: &Op, id: ValueId) -> R<RefView> {
        match &*self.get(fr, op, id)? {
            Value::Ref(r) => Ok(r.clone()),
            Value::T(t) => Err(self.bad(op, format!("%{id} is a {} where a memref is expected", t.describe()))),
        }
    }

    /// An integer scalar operand (any int type or index).
    fn int(&self, fr: &Frame, op: &Op, id: ValueId) -> R<i64> {
        let v = self.tensor(fr, op, id)?;
        match &*v {
            Value::T(Tensor { shape, data: Elems::I(d), .. }) if shape.is_empty() && d.len() == 1 => Ok(d[0]),
            Value::T(t) => Err(self.bad(op, format!("%{id} is a {} where an integer scalar is expected", t.describe()))),
            Value::Ref(_) => unreachable_ref(),
        }
    }

    fn ints(&self, fr: &Frame, op: &Op, ids: &[ValueId]) -> R<Vec<i64>> {
        ids.iter().map(|&i| self.int(fr, op, i)).collect()
    }

    fn result_type<'o>(&self, op: &'o Op, i: usize) -> R<&'o Type> {
        op.results.get(i).map(|(_, t)| t).ok_or_else(|| self.bad(op, format!("has no result #{i}")))
    }

    /// The (element, shape) a scalar/vector result is declared with.
    fn result_tensor_type(&self, op: &Op, i: usize) -> R<(ScalarType, Vec<i64>)> {
        match self.result_type(op, i)? {
            Type::Scalar(s) => Ok((*s, vec![])),
            Type::Vector { shape, element } => Ok((*element, shape.clone())),
            t => Err(self.bad(op, format!("result #{i} is {} where a scalar or vector is expected", t.describe()))),
        }
    }

    fn set_results(&self, fr: &mut Frame, op: &Op, values: Vec<Rc<Value>>) -> R<()> {
        if values.len() != op.results.len() {
            return Err(self.bad(op, format!("produces {} values, declares {} results", values.len(), op.results.len())));
        }
        for ((id, ty), v) in op.results.iter().zip(values) {
            check_type(&v, ty).map_err(|m| self.bad(op, format!("result %{id}: {m}")))?;
            self.bind(fr, *id, v, &op.location)?;
        }
        Ok(())
    }

    fn set1(&self, fr: &mut Frame, op: &Op, t: Tensor) -> R<()> {
        self.set_results(fr, op, vec![Rc::new(Value::T(t))])
    }

    fn buffer(&self, op: &Op, r: &RefView) -> R<&Buffer> {
        self.mem.buffers.get(r.buffer).ok_or_else(|| self.bad(op, format!("memref names buffer #{} that does not exist", r.buffer)))
    }

    /// Flat element offsets of the box `start + i*step` (i < `sizes`) of
    /// `r`, checked against `r`'s shape and the buffer. `what` names the
    /// access in errors.
    fn box_offsets(&self, op: &Op, r: &RefView, start: &[i64], sizes: &[i64], steps: &[i64], what: &str) -> R<Vec<usize>> {
        let buf = self.buffer(op, r)?;
        if start.len() != r.shape.len() || sizes.len() != r.shape.len() || r.strides.len() != r.shape.len() {
            return Err(self.bad(op, format!("{} indices for a rank-{} memref", start.len(), r.shape.len())));
        }
        for d in 0..start.len() {
            let (s, n, k) = (start[d], sizes[d], steps[d]);
            let last = if n == 0 { s } else { s.saturating_add((n - 1).saturating_mul(k)) };
            if s < 0 || last < 0 || (n > 0 && last >= r.shape[d]) || s > r.shape[d] {
                let range = if k == 1 { format!("[{s}, {})", s.saturating_add(n)) } else { format!("{n} elements from {s} step {k}") };
                return Err(self.op_err(
                    op,
                    format!(
                        "out-of-bounds {what}: dim {d} {range} of `{}` (shape {}, view of buffer `{}`)",
                        Type::MemRef { shape: r.shape.clone(), element: buf.element, memory_space: buf.memory_space }.describe(),
                        shape_str(&r.shape),
                        buf.name
                    ),
                ));
            }
        }
        let count = checked_count(sizes).map_err(|m| self.bad(op, m))?;
        let mut out = Vec::with_capacity(count);
        let mut idx = vec![0i64; sizes.len()];
        let len = buf.data.len() as i64;
        for _ in 0..count {
            let mut off = r.offset;
            for d in 0..idx.len() {
                off = off.saturating_add((start[d] + idx[d] * steps[d]).saturating_mul(r.strides[d]));
            }
            if off < 0 || off >= len {
                return Err(self.op_err(op, format!("{what} reaches element {off} of buffer `{}`, which has {len}", buf.name)));
            }
            out.push(off as usize);
            next_index(&mut idx, sizes);
        }
        Ok(out)
    }

    /// Runs one op; each family of ops has its function in a submodule.
    fn exec(&mut self, fr: &mut Frame, op: &Op) -> R<Flow> {
        match &op.kind {
            OpKind::Constant(_)
            | OpKind::Binary { .. }
            | OpKind::Unary { .. }
            | OpKind::Fma { .. }
            | OpKind::CmpI { .. }
            | OpKind::CmpF { .. }
            | OpKind::Select { .. }
            | OpKind::Cast { .. } => self.exec_elementwise(fr, op)?,
            OpKind::Broadcast { .. }
            | OpKind::ShapeCast { .. }
            | OpKind::MultiReduction { .. }
            | OpKind::Reduction { .. }
            | OpKind::Transpose { .. }
            | OpKind::Extract { .. }
            | OpKind::Insert { .. }
            | OpKind::ExtractStridedSlice { .. }
            | OpKind::InsertStridedSlice { .. }
            | OpKind::Iota { .. }
            | OpKind::DynamicRotate { .. }
            | OpKind::ReduceIndex { .. }
            | OpKind::DynamicGather { .. }
            | OpKind::IterationBound { .. }
            | OpKind::Concatenate { .. }
            | OpKind::VectorBitcast { .. }
            | OpKind::Matmul { .. }
            | OpKind::AllReduce { .. } => self.exec_vector(fr, op)?,
            OpKind::VectorLoad { .. } | OpKind::VectorStore { .. } | OpKind::MemRefLoad { .. } | OpKind::MemRefStore { .. } => {
                self.exec_memory(fr, op)?
            }
            OpKind::MemRefSlice { .. } | OpKind::MemRefSqueeze { .. } | OpKind::MemRefReshape { .. } | OpKind::Alloca => {
                self.exec_view(fr, op)?
            }
            OpKind::EnqueueDma { .. }
            | OpKind::WaitDma { .. }
            | OpKind::SemSignal { .. }
            | OpKind::SemWait { .. }
            | OpKind::SemRead { .. } => self.exec_dma(fr, op)?,
            OpKind::For { .. }
            | OpKind::If { .. }
            | OpKind::Region { .. }
            | OpKind::While { .. }
            | OpKind::Yield { .. }
            | OpKind::Condition { .. }
            | OpKind::Return { .. }
            | OpKind::Call { .. }
            | OpKind::Nop { .. } => return self.exec_control(fr, op),
        }
        Ok(Flow::Next)
    }
}

fn unreachable_ref<T>() -> R<T> {
    Err(Error::Unsupported("internal: a memref where a tensor was checked".into()))
}

/// An op passed to the `exec_*` function of a family it is not in.
fn misrouted<T>(op: &Op) -> R<T> {
    Err(Error::Unsupported(format!("internal: `{}` reached the wrong op family", op.name)))
}

/// Whether runtime value `v` fits declared type `ty`.
fn check_type(v: &Value, ty: &Type) -> std::result::Result<(), String> {
    let ok = match (v, ty) {
        (Value::T(t), Type::Scalar(s)) => t.shape.is_empty() && t.ty == *s,
        (Value::T(t), Type::Vector { shape, element }) => t.shape == *shape && t.ty == *element,
        (Value::Ref(r), Type::MemRef { shape, .. }) => r.shape == *shape,
        (Value::Ref(r), Type::Semaphore { .. }) => r.shape.iter().all(|&d| d == 1),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        let have = match v {
            Value::T(t) => t.describe(),
            Value::Ref(r) => format!("a memref of shape {:?}", r.shape),
        };
        Err(format!("is {have}, declared {}", ty.describe()))
    }
}

/// Steps a row-major multi-index over `shape` (last dimension fastest; it
/// wraps to all zeros after the last element).
fn next_index(idx: &mut [i64], shape: &[i64]) {
    for d in (0..idx.len()).rev() {
        idx[d] += 1;
        if idx[d] < shape[d] {
            return;
        }
        idx[d] = 0;
    }
}
