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

use std::{collections::HashMap, rc::Rc};

use super::kernel::*;
use crate::error::{Error, Result};

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
    src_sem: Option<(usize, usize)>,
    dst_sem: (usize, usize),
    bytes: i64,
    location: String,
    state: DmaState,
}

/// Buffers, in-flight DMAs and the tasks waiting on each semaphore.
#[derive(Default, Debug)]
pub struct Memory {
    pub buffers: Vec<Buffer>,
    dmas: Vec<Dma>,
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
        ScalarType::Index | ScalarType::I64 => i64::MAX,
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

    fn check_scalar_element(&self, op: &Op, r: &RefView, ty: ScalarType) -> R<()> {
        let b = self.buffer(op, r)?;
        match b.element {
            MemElement::Scalar(e) if e == ty => Ok(()),
            e => Err(self.bad(op, format!("accesses `{}` elements as {}", e.name(), ty.name()))),
        }
    }

    /// (start, sizes, steps) of a vector access of `vshape` at `indices`:
    /// the vector covers the trailing dims of the memref, leading dims take
    /// one element.
    fn vector_box(&self, op: &Op, r: &RefView, indices: &[i64], vshape: &[i64], strides: &[i64]) -> R<(Vec<i64>, Vec<i64>, Vec<i64>)> {
        let rank = r.shape.len();
        if indices.len() != rank || vshape.len() > rank {
            return Err(self.bad(op, format!("{} indices and a rank-{} vector for a rank-{rank} memref", indices.len(), vshape.len())));
        }
        if !strides.is_empty() && strides.len() != rank {
            return Err(self.bad(op, format!("{} strides for a rank-{rank} memref", strides.len())));
        }
        let lead = rank - vshape.len();
        let sizes: Vec<i64> = (0..rank).map(|d| if d < lead { 1 } else { vshape[d - lead] }).collect();
        let steps: Vec<i64> = if strides.is_empty() { vec![1; rank] } else { strides.to_vec() };
        if steps.iter().any(|&s| s < 1) {
            return Err(self.bad(op, format!("strides {strides:?} must be positive")));
        }
        Ok((indices.to_vec(), sizes, steps))
    }

    fn mask(&self, fr: &Frame, op: &Op, mask: Option<ValueId>, shape: &[i64]) -> R<Option<Vec<bool>>> {
        let Some(m) = mask else { return Ok(None) };
        let v = self.tensor(fr, op, m)?;
        let Value::T(t) = &*v else { return unreachable_ref() };
        match &t.data {
            Elems::I(d) if t.shape == shape => Ok(Some(d.iter().map(|&x| x != 0).collect())),
            _ => Err(self.bad(op, format!("mask is {}, expected an i1 vector of shape {}", t.describe(), shape_str(shape)))),
        }
    }

    fn exec(&mut self, fr: &mut Frame, op: &Op) -> R<Flow> {
        match &op.kind {
            OpKind::Constant(c) => {
                let (ty, shape) = self.result_tensor_type(op, 0)?;
                let n = checked_count(&shape).map_err(|m| self.bad(op, m))?;
                let data = match (c, ty.is_float()) {
                    (Constant::Int(v), false) => Elems::I(vec![wrap(ty, *v); n]),
                    (Constant::Float(v), true) => Elems::F(vec![round_to(ty, *v); n]),
                    (Constant::Ints(v), false) if v.len() == n => Elems::I(v.iter().map(|&x| wrap(ty, x)).collect()),
                    (Constant::Floats(v), true) if v.len() == n => Elems::F(v.iter().map(|&x| round_to(ty, x)).collect()),
                    _ => return Err(self.bad(op, format!("constant does not fit its type {}", self.result_type(op, 0)?.describe()))),
                };
                self.set1(fr, op, Tensor { ty, shape, data })?;
            }
            OpKind::Binary { op: b, lhs, rhs } => {
                let (l, r) = (self.tensor(fr, op, *lhs)?, self.tensor(fr, op, *rhs)?);
                let (Value::T(l), Value::T(r)) = (&*l, &*r) else { return unreachable_ref() };
                let t = binary(*b, l, r).map_err(|m| self.op_err(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Unary { op: u, operand } => {
                let v = self.tensor(fr, op, *operand)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let t = unary(*u, t).map_err(|m| self.op_err(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Fma { a, b, c } => {
                let (a, b, c) = (self.tensor(fr, op, *a)?, self.tensor(fr, op, *b)?, self.tensor(fr, op, *c)?);
                let (Value::T(a), Value::T(b), Value::T(c)) = (&*a, &*b, &*c) else { return unreachable_ref() };
                match (&a.data, &b.data, &c.data) {
                    (Elems::F(x), Elems::F(y), Elems::F(z)) if a.shape == b.shape && b.shape == c.shape && a.ty == b.ty && b.ty == c.ty => {
                        let d = x.iter().zip(y).zip(z).map(|((x, y), z)| round_to(a.ty, x.mul_add(*y, *z))).collect();
                        self.set1(fr, op, Tensor { ty: a.ty, shape: a.shape.clone(), data: Elems::F(d) })?;
                    }
                    _ => return Err(self.bad(op, "operands must be floats of one type and shape")),
                }
            }
            OpKind::CmpI { predicate, lhs, rhs } => {
                let (l, r) = (self.tensor(fr, op, *lhs)?, self.tensor(fr, op, *rhs)?);
                let (Value::T(l), Value::T(r)) = (&*l, &*r) else { return unreachable_ref() };
                let t = cmpi(*predicate, l, r).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::CmpF { predicate, lhs, rhs } => {
                let (l, r) = (self.tensor(fr, op, *lhs)?, self.tensor(fr, op, *rhs)?);
                let (Value::T(l), Value::T(r)) = (&*l, &*r) else { return unreachable_ref() };
                let t = cmpf(*predicate, l, r).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Select { condition, true_value, false_value } => {
                let c = self.tensor(fr, op, *condition)?;
                let (a, b) = (self.get(fr, op, *true_value)?, self.get(fr, op, *false_value)?);
                let Value::T(c) = &*c else { return unreachable_ref() };
                let Elems::I(cd) = &c.data else { return Err(self.bad(op, "condition must be i1")) };
                if c.shape.is_empty() {
                    let v = if cd.first().is_some_and(|&x| x != 0) { a } else { b };
                    self.set_results(fr, op, vec![v])?;
                } else {
                    let (Value::T(a), Value::T(b)) = (&*a, &*b) else { return Err(self.bad(op, "elementwise select of memrefs")) };
                    if a.shape != c.shape || b.shape != c.shape || a.ty != b.ty {
                        return Err(self.bad(op, format!("select of {} and {} on {}", a.describe(), b.describe(), c.describe())));
                    }
                    let data = match (&a.data, &b.data) {
                        (Elems::F(x), Elems::F(y)) => {
                            Elems::F(cd.iter().zip(x.iter().zip(y)).map(|(&c, (x, y))| if c != 0 { *x } else { *y }).collect())
                        }
                        (Elems::I(x), Elems::I(y)) => {
                            Elems::I(cd.iter().zip(x.iter().zip(y)).map(|(&c, (x, y))| if c != 0 { *x } else { *y }).collect())
                        }
                        _ => return Err(self.bad(op, "operands of different kinds")),
                    };
                    self.set1(fr, op, Tensor { ty: a.ty, shape: a.shape.clone(), data })?;
                }
            }
            OpKind::Cast { op: c, operand } => {
                let v = self.tensor(fr, op, *operand)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let (to, shape) = self.result_tensor_type(op, 0)?;
                if shape != t.shape {
                    return Err(self.bad(op, format!("casts {} to shape {}", t.describe(), shape_str(&shape))));
                }
                let t = cast(*c, t, to).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::VectorLoad { base, indices, mask, strides } => {
                let r = self.reference(fr, op, *base)?;
                let idx = self.ints(fr, op, indices)?;
                let (ty, vshape) = self.result_tensor_type(op, 0)?;
                self.check_scalar_element(op, &r, ty)?;
                let (start, sizes, steps) = self.vector_box(op, &r, &idx, &vshape, strides)?;
                let offs = self.box_offsets(op, &r, &start, &sizes, &steps, "read")?;
                let mut data = self.mem.buffers[r.buffer].data.gather(&offs);
                if let Some(m) = self.mask(fr, op, *mask, &vshape)? {
                    match &mut data {
                        Elems::F(d) => d.iter_mut().zip(&m).filter(|(_, m)| !**m).for_each(|(x, _)| *x = 0.0),
                        Elems::I(d) => d.iter_mut().zip(&m).filter(|(_, m)| !**m).for_each(|(x, _)| *x = 0),
                    }
                }
                self.set1(fr, op, Tensor { ty, shape: vshape, data })?;
            }
            OpKind::VectorStore { value, base, indices, mask, strides, add } => {
                let v = self.tensor(fr, op, *value)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let r = self.reference(fr, op, *base)?;
                let idx = self.ints(fr, op, indices)?;
                self.check_scalar_element(op, &r, t.ty)?;
                let (start, sizes, steps) = self.vector_box(op, &r, &idx, &t.shape, strides)?;
                let offs = self.box_offsets(op, &r, &start, &sizes, &steps, "write")?;
                let m = self.mask(fr, op, *mask, &t.shape)?;
                let ty = t.ty;
                let buf = &mut self.mem.buffers[r.buffer].data;
                let on = |i: usize| m.as_ref().is_none_or(|m| m[i]);
                match (buf, &t.data) {
                    (Elems::F(b), Elems::F(d)) => {
                        for (i, (&o, &x)) in offs.iter().zip(d).enumerate() {
                            if on(i) {
                                b[o] = if *add { round_to(ty, b[o] + x) } else { x };
                            }
                        }
                    }
                    (Elems::I(b), Elems::I(d)) => {
                        for (i, (&o, &x)) in offs.iter().zip(d).enumerate() {
                            if on(i) {
                                b[o] = if *add { wrap(ty, b[o].wrapping_add(x)) } else { x };
                            }
                        }
                    }
                    _ => return Err(self.bad(op, "value and memref element kinds differ")),
                }
            }
            OpKind::Broadcast { source } => {
                let v = self.tensor(fr, op, *source)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let (ty, shape) = self.result_tensor_type(op, 0)?;
                let t = broadcast(t, ty, &shape).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::ShapeCast { source } => {
                let v = self.tensor(fr, op, *source)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let (ty, shape) = self.result_tensor_type(op, 0)?;
                let n = checked_count(&shape).map_err(|m| self.bad(op, m))?;
                if ty != t.ty || n != t.data.len() {
                    return Err(self.bad(op, format!("cannot reshape {} to {}", t.describe(), self.result_type(op, 0)?.describe())));
                }
                self.set1(fr, op, Tensor { ty, shape, data: t.data.clone() })?;
            }
            OpKind::MultiReduction { kind, source, acc, dims } => {
                let (s, a) = (self.tensor(fr, op, *source)?, self.tensor(fr, op, *acc)?);
                let (Value::T(s), Value::T(a)) = (&*s, &*a) else { return unreachable_ref() };
                let t = multi_reduce(*kind, s, a, dims).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Reduction { kind, vector, acc } => {
                let s = self.tensor(fr, op, *vector)?;
                let Value::T(s) = &*s else { return unreachable_ref() };
                let dims: Vec<i64> = (0..s.shape.len() as i64).collect();
                let a = match acc {
                    Some(a) => {
                        let a = self.tensor(fr, op, *a)?;
                        let Value::T(a) = &*a else { return unreachable_ref() };
                        Some(a.clone())
                    }
                    None => None,
                };
                let t = match a {
                    Some(a) => multi_reduce(*kind, s, &a, &dims),
                    None => reduce_all(*kind, s),
                }
                .map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Transpose { vector, permutation } => {
                let v = self.tensor(fr, op, *vector)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let t = transpose(t, permutation).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Extract { vector, position, dynamic } => {
                let v = self.tensor(fr, op, *vector)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let pos = self.positions(fr, op, position, dynamic)?;
                let (start, count) = self.subvector(op, t, &pos)?;
                let shape = t.shape[pos.len()..].to_vec();
                let idx: Vec<usize> = (start..start + count).collect();
                self.set1(fr, op, Tensor { ty: t.ty, shape, data: t.data.gather(&idx) })?;
            }
            OpKind::Insert { value, dest, position, dynamic } => {
                let (v, d) = (self.tensor(fr, op, *value)?, self.tensor(fr, op, *dest)?);
                let (Value::T(v), Value::T(d)) = (&*v, &*d) else { return unreachable_ref() };
                let pos = self.positions(fr, op, position, dynamic)?;
                let (start, count) = self.subvector(op, d, &pos)?;
                if v.ty != d.ty || v.shape[..] != d.shape[pos.len()..] || v.data.len() != count {
                    return Err(self.bad(op, format!("cannot insert {} into {} at {pos:?}", v.describe(), d.describe())));
                }
                let mut out = d.clone();
                match (&mut out.data, &v.data) {
                    (Elems::F(o), Elems::F(x)) => o[start..start + count].copy_from_slice(x),
                    (Elems::I(o), Elems::I(x)) => o[start..start + count].copy_from_slice(x),
                    _ => return Err(self.bad(op, "element kinds differ")),
                }
                self.set1(fr, op, out)?;
            }
            OpKind::ExtractStridedSlice { vector, offsets, sizes, strides } => {
                let v = self.tensor(fr, op, *vector)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let t = strided_slice(t, offsets, sizes, strides).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::InsertStridedSlice { value, dest, offsets, strides } => {
                let v = self.tensor(fr, op, *value)?;
                let d = self.tensor(fr, op, *dest)?;
                let (Value::T(v), Value::T(d)) = (&*v, &*d) else { return unreachable_ref() };
                let t = insert_strided_slice(v, d, offsets, strides).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Iota { dimensions } => {
                let (ty, shape) = self.result_tensor_type(op, 0)?;
                let t = iota(ty, &shape, dimensions).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Matmul { lhs, rhs, acc, dimension_numbers, transpose_lhs, transpose_rhs } => {
                let (l, r, a) = (self.tensor(fr, op, *lhs)?, self.tensor(fr, op, *rhs)?, self.tensor(fr, op, *acc)?);
                let (Value::T(l), Value::T(r), Value::T(a)) = (&*l, &*r, &*a) else { return unreachable_ref() };
                let t = matmul(l, r, a, dimension_numbers.as_ref(), *transpose_lhs, *transpose_rhs).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::AllReduce { input, dim, kind } => {
                let v = self.tensor(fr, op, *input)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let red = reduce_dims(*kind, t, &[*dim], None).map_err(|m| self.bad(op, m))?;
                // Put the reduced dim back as size 1, then broadcast.
                let mut kept = t.shape.clone();
                if let Some(k) = kept.get_mut(*dim as usize) {
                    *k = 1;
                }
                let red = Tensor { shape: kept, ..red };
                let out = broadcast(&red, t.ty, &t.shape).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, out)?;
            }
            OpKind::MemRefLoad { base, indices } => {
                let r = self.reference(fr, op, *base)?;
                let idx = self.ints(fr, op, indices)?;
                let (ty, _) = self.result_tensor_type(op, 0)?;
                self.check_scalar_element(op, &r, ty)?;
                let ones = vec![1; idx.len()];
                let offs = self.box_offsets(op, &r, &idx, &ones, &ones, "read")?;
                let data = self.mem.buffers[r.buffer].data.gather(&offs);
                self.set1(fr, op, Tensor { ty, shape: vec![], data })?;
            }
            OpKind::MemRefStore { value, base, indices } => {
                let v = self.tensor(fr, op, *value)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let r = self.reference(fr, op, *base)?;
                let idx = self.ints(fr, op, indices)?;
                self.check_scalar_element(op, &r, t.ty)?;
                let ones = vec![1; idx.len()];
                let offs = self.box_offsets(op, &r, &idx, &ones, &ones, "write")?;
                if !t.shape.is_empty() {
                    return Err(self.bad(op, "stores a vector"));
                }
                match (&mut self.mem.buffers[r.buffer].data, &t.data) {
                    (Elems::F(b), Elems::F(d)) => b[offs[0]] = d[0],
                    (Elems::I(b), Elems::I(d)) => b[offs[0]] = d[0],
                    _ => return Err(self.bad(op, "element kinds differ")),
                }
            }
            OpKind::MemRefSlice { base, base_indices } => {
                let r = self.reference(fr, op, *base)?;
                let idx = self.ints(fr, op, base_indices)?;
                let Type::MemRef { shape, .. } = self.result_type(op, 0)? else {
                    return Err(self.bad(op, "result is not a memref"));
                };
                if shape.len() != r.shape.len() {
                    return Err(self.bad(op, format!("slices a rank-{} memref to rank {}", r.shape.len(), shape.len())));
                }
                let ones = vec![1; shape.len()];
                // Checks the slice lies inside the source.
                self.box_offsets(op, &r, &idx, shape, &ones, "slice")?;
                let offset = r.offset + idx.iter().zip(&r.strides).map(|(i, s)| i * s).sum::<i64>();
                let v = RefView { buffer: r.buffer, offset, shape: shape.clone(), strides: r.strides.clone() };
                self.set_results(fr, op, vec![Rc::new(Value::Ref(v))])?;
            }
            OpKind::MemRefSqueeze { input } => {
                let r = self.reference(fr, op, *input)?;
                let Type::MemRef { shape, .. } = self.result_type(op, 0)? else {
                    return Err(self.bad(op, "result is not a memref"));
                };
                // Match result dims to source dims left to right, dropping 1s.
                let mut strides = Vec::new();
                let mut j = 0;
                for (d, &n) in r.shape.iter().enumerate() {
                    if j < shape.len() && shape[j] == n && (n != 1 || r.shape.len() - d <= shape.len() - j) {
                        strides.push(r.strides[d]);
                        j += 1;
                    } else if n != 1 {
                        return Err(self.bad(op, format!("cannot squeeze {} to {}", shape_str(&r.shape), shape_str(shape))));
                    }
                }
                if j != shape.len() {
                    return Err(self.bad(op, format!("cannot squeeze {} to {}", shape_str(&r.shape), shape_str(shape))));
                }
                let v = RefView { buffer: r.buffer, offset: r.offset, shape: shape.clone(), strides };
                self.set_results(fr, op, vec![Rc::new(Value::Ref(v))])?;
            }
            OpKind::MemRefReshape { input } => {
                let r = self.reference(fr, op, *input)?;
                let Type::MemRef { shape, .. } = self.result_type(op, 0)? else {
                    return Err(self.bad(op, "result is not a memref"));
                };
                let contiguous = r.strides == row_major_strides(&r.shape);
                let same = checked_count(shape).ok() == checked_count(&r.shape).ok();
                if !contiguous || !same {
                    return Err(self.bad(op, format!("cannot view {} as {}", shape_str(&r.shape), shape_str(shape))));
                }
                let v = RefView { buffer: r.buffer, offset: r.offset, shape: shape.clone(), strides: row_major_strides(shape) };
                self.set_results(fr, op, vec![Rc::new(Value::Ref(v))])?;
            }
            OpKind::EnqueueDma { source, target, source_semaphore, target_semaphore } => {
                let (src, dst) = (self.reference(fr, op, *source)?, self.reference(fr, op, *target)?);
                let (sb, db) = (self.buffer(op, &src)?, self.buffer(op, &dst)?);
                if sb.element != db.element || src.shape != dst.shape {
                    return Err(self.op_err(
                        op,
                        format!(
                            "copies {} `{}` into {} `{}`",
                            shape_str(&src.shape),
                            sb.element.name(),
                            shape_str(&dst.shape),
                            db.element.name()
                        ),
                    ));
                }
                let MemElement::Scalar(ety) = sb.element else { return Err(self.bad(op, "copies semaphores")) };
                let n = checked_count(&src.shape).map_err(|m| self.bad(op, m))?;
                let dst_sem = self.semaphore(fr, op, *target_semaphore)?;
                let src_sem = source_semaphore.map(|s| self.semaphore(fr, op, s)).transpose()?;
                let id = self.mem.dmas.len();
                self.mem.dmas.push(Dma {
                    src,
                    dst,
                    src_sem,
                    dst_sem,
                    bytes: (n as i64).saturating_mul(ety.bytes() as i64),
                    location: op.location.clone(),
                    state: DmaState::Started,
                });
                if let Some(s) = src_sem {
                    self.mem.tasks.entry(s).or_default().push((id, false));
                }
                self.mem.tasks.entry(dst_sem).or_default().push((id, true));
            }
            OpKind::WaitDma { semaphore, src, dst } => {
                let sem = self.semaphore(fr, op, *semaphore)?;
                let (s, d) = (self.reference(fr, op, *src)?, self.reference(fr, op, *dst)?);
                let (sb, db) = (self.buffer(op, &s)?, self.buffer(op, &d)?);
                if sb.element != db.element || s.shape != d.shape {
                    return Err(self.op_err(op, format!("waits for a copy of {} into {}", shape_str(&s.shape), shape_str(&d.shape))));
                }
                let n = checked_count(&d.shape).map_err(|m| self.bad(op, m))?;
                let bytes = (n as i64).saturating_mul(match db.element {
                    MemElement::Scalar(t) => t.bytes() as i64,
                    _ => 4,
                });
                self.wait(op, sem, bytes)?;
            }
            OpKind::SemSignal { semaphore, amount } => {
                let sem = self.semaphore(fr, op, *semaphore)?;
                let a = self.int(fr, op, *amount)?;
                let c = self.count_mut(op, sem)?;
                *c = c.saturating_add(a);
            }
            OpKind::SemWait { semaphore, amount } => {
                let sem = self.semaphore(fr, op, *semaphore)?;
                let a = self.int(fr, op, *amount)?;
                self.wait(op, sem, a)?;
            }
            OpKind::SemRead { semaphore } => {
                let sem = self.semaphore(fr, op, *semaphore)?;
                let c = *self.count_mut(op, sem)?;
                let (ty, _) = self.result_tensor_type(op, 0)?;
                self.set1(fr, op, Tensor::scalar_int(ty, c))?;
            }
            OpKind::For { lower, upper, step, inits, body } => {
                let (lb, ub, st) = (self.int(fr, op, *lower)?, self.int(fr, op, *upper)?, self.int(fr, op, *step)?);
                if st <= 0 {
                    return Err(self.op_err(op, format!("step {st} is not positive")));
                }
                let ivty = match body.args.first() {
                    Some((_, Type::Scalar(t))) => *t,
                    _ => return Err(self.bad(op, "body has no scalar induction variable")),
                };
                let mut carried: Vec<Rc<Value>> = inits.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?;
                let mut iv = lb;
                while iv < ub {
                    let mut args = vec![Rc::new(Value::T(Tensor::scalar_int(ivty, iv)))];
                    args.extend(carried.iter().cloned());
                    match self.nested(fr, op, body, args)? {
                        Flow::Yield(v) => carried = v,
                        Flow::Next if carried.is_empty() => {}
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => return Err(self.bad(op, "body does not end in `scf.yield`")),
                    }
                    iv = match iv.checked_add(st) {
                        Some(n) => n,
                        None => break,
                    };
                }
                self.set_results(fr, op, carried)?;
            }
            OpKind::If { condition, then_block, else_block } => {
                let c = self.int(fr, op, *condition)? != 0;
                let block = if c { Some(then_block) } else { else_block.as_ref() };
                let out = match block {
                    Some(b) => match self.nested(fr, op, b, vec![])? {
                        Flow::Yield(v) => v,
                        Flow::Next => vec![],
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Condition(..) => return Err(self.bad(op, "region ends in `scf.condition`")),
                    },
                    None => vec![],
                };
                self.set_results(fr, op, out)?;
            }
            OpKind::While { inits, before, after } => {
                let mut carried: Vec<Rc<Value>> = inits.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?;
                loop {
                    let (go, args) = match self.nested(fr, op, before, carried)? {
                        Flow::Condition(c, a) => (c, a),
                        _ => return Err(self.bad(op, "`before` region does not end in `scf.condition`")),
                    };
                    if !go {
                        self.set_results(fr, op, args)?;
                        break;
                    }
                    carried = match self.nested(fr, op, after, args)? {
                        Flow::Yield(v) => v,
                        _ => return Err(self.bad(op, "`after` region does not end in `scf.yield`")),
                    };
                }
            }
            OpKind::Yield { values } => {
                return Ok(Flow::Yield(values.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?));
            }
            OpKind::Condition { condition, args } => {
                let c = self.int(fr, op, *condition)? != 0;
                return Ok(Flow::Condition(c, args.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?));
            }
            OpKind::Return { values } => {
                return Ok(Flow::Return(values.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?));
            }
            OpKind::Call { callee, args } => {
                let a: Vec<Rc<Value>> = args.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?;
                let out = self.call(*callee, a)?;
                self.set_results(fr, op, out)?;
            }
            OpKind::Nop { operands } => {
                let vals: Vec<Rc<Value>> = operands.iter().take(op.results.len()).map(|&i| self.get(fr, op, i)).collect::<R<_>>()?;
                self.set_results(fr, op, vals)?;
            }
        }
        Ok(Flow::Next)
    }

    fn positions(&self, fr: &Frame, op: &Op, position: &[Option<i64>], dynamic: &[ValueId]) -> R<Vec<i64>> {
        let mut dyns = dynamic.iter();
        position
            .iter()
            .map(|p| match p {
                Some(v) => Ok(*v),
                None => {
                    let id = dyns.next().ok_or_else(|| self.bad(op, "fewer dynamic positions than the op names"))?;
                    self.int(fr, op, *id)
                }
            })
            .collect()
    }

    /// (first flat index, element count) of `t[pos]`.
    fn subvector(&self, op: &Op, t: &Tensor, pos: &[i64]) -> R<(usize, usize)> {
        if pos.len() > t.shape.len() {
            return Err(self.bad(op, format!("position {pos:?} for {}", t.describe())));
        }
        let strides = row_major_strides(&t.shape);
        let mut start = 0i64;
        for (d, &p) in pos.iter().enumerate() {
            if p < 0 || p >= t.shape[d] {
                return Err(self.op_err(op, format!("position {p} out of bounds for dim {d} of {}", t.describe())));
            }
            start += p * strides[d];
        }
        let count = checked_count(&t.shape[pos.len()..]).map_err(|m| self.bad(op, m))?;
        Ok((start as usize, count))
    }

    /// A semaphore operand: a memref with one semaphore element.
    fn semaphore(&self, fr: &Frame, op: &Op, id: ValueId) -> R<(usize, usize)> {
        let r = self.reference(fr, op, id)?;
        let b = self.buffer(op, &r)?;
        if !matches!(b.element, MemElement::Semaphore | MemElement::DmaSemaphore) {
            return Err(self.bad(op, format!("%{id} is a memref of {}, not of semaphores", b.element.name())));
        }
        if r.shape.iter().any(|&d| d != 1) {
            return Err(self.bad(op, format!("%{id} is an array of semaphores {}, not one", shape_str(&r.shape))));
        }
        if r.offset < 0 || r.offset as usize >= b.data.len() {
            return Err(self.op_err(op, format!("semaphore {} of `{}` does not exist", r.offset, b.name)));
        }
        Ok((r.buffer, r.offset as usize))
    }

    fn count_mut(&mut self, op: &Op, sem: (usize, usize)) -> R<&mut i64> {
        let e = self.bad(op, "bad semaphore");
        match self.mem.buffers.get_mut(sem.0).map(|b| &mut b.data) {
            Some(Elems::I(v)) if sem.1 < v.len() => Ok(&mut v[sem.1]),
            _ => Err(e),
        }
    }

    /// Waits until `sem` counts `value`, running pending DMAs (most recent
    /// first, as Pallas does), then takes `value` off.
    fn wait(&mut self, op: &Op, sem: (usize, usize), value: i64) -> R<()> {
        loop {
            let c = self.count_mut(op, sem)?;
            if *c >= value {
                *c -= value;
                return Ok(());
            }
            let have = *c;
            let task = self.mem.tasks.get_mut(&sem).and_then(|t| t.pop());
            let Some((dma, write)) = task else {
                let name = self.mem.buffers[sem.0].name.clone();
                return Err(self.op_err(
                    op,
                    format!(
                        "waits for {value} on semaphore {} of `{name}`, which holds {have} and has no DMA or signal pending: \
                         it would wait forever",
                        sem.1
                    ),
                ));
            };
            self.run_dma(op, dma, write)?;
        }
    }

    fn run_dma(&mut self, op: &Op, id: usize, write: bool) -> R<()> {
        let Some(d) = self.mem.dmas.get(id).cloned() else { return Err(self.bad(op, "bad DMA")) };
        let data = match d.state {
            DmaState::Done => return Ok(()),
            DmaState::Read(data) => data,
            DmaState::Started => {
                let sizes = d.src.shape.clone();
                let ones = vec![1; sizes.len()];
                let zeros = vec![0; sizes.len()];
                let offs = self.box_offsets(op, &d.src, &zeros, &sizes, &ones, "DMA read")?;
                let data = self.mem.buffers[d.src.buffer].data.gather(&offs);
                if let Some(s) = d.src_sem {
                    let c = self.count_mut(op, s)?;
                    *c = c.saturating_add(d.bytes);
                }
                data
            }
        };
        if !write {
            self.mem.dmas[id].state = DmaState::Read(data);
            return Ok(());
        }
        let sizes = d.dst.shape.clone();
        let ones = vec![1; sizes.len()];
        let zeros = vec![0; sizes.len()];
        let offs = self.box_offsets(op, &d.dst, &zeros, &sizes, &ones, "DMA write")?;
        match (&mut self.mem.buffers[d.dst.buffer].data, &data) {
            (Elems::F(b), Elems::F(x)) => offs.iter().zip(x).for_each(|(&o, &v)| b[o] = v),
            (Elems::I(b), Elems::I(x)) => offs.iter().zip(x).for_each(|(&o, &v)| b[o] = v),
            _ => return Err(self.bad(op, "DMA between different element kinds")),
        }
        let c = self.count_mut(op, d.dst_sem)?;
        *c = c.saturating_add(d.bytes);
        self.mem.dmas[id].state = DmaState::Done;
        Ok(())
    }
}

fn unreachable_ref<T>() -> R<T> {
    Err(Error::Unsupported("internal: a memref where a tensor was checked".into()))
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

fn same(l: &Tensor, r: &Tensor) -> std::result::Result<(), String> {
    if l.ty != r.ty || l.shape != r.shape {
        return Err(format!("operands {} and {} differ", l.describe(), r.describe()));
    }
    Ok(())
}

fn binary(op: BinaryOp, l: &Tensor, r: &Tensor) -> std::result::Result<Tensor, String> {
    use BinaryOp::*;
    same(l, r)?;
    let ty = l.ty;
    let data = match (&l.data, &r.data) {
        (Elems::F(a), Elems::F(b)) => {
            let f = |x: f64, y: f64| -> std::result::Result<f64, String> {
                Ok(match op {
                    AddF => x + y,
                    SubF => x - y,
                    MulF => x * y,
                    DivF => x / y,
                    RemF => x % y,
                    MaximumF => {
                        if x.is_nan() || y.is_nan() {
                            f64::NAN
                        } else if x == y {
                            if x.is_sign_negative() { y } else { x }
                        } else {
                            x.max(y)
                        }
                    }
                    MinimumF => {
                        if x.is_nan() || y.is_nan() {
                            f64::NAN
                        } else if x == y {
                            if x.is_sign_negative() { x } else { y }
                        } else {
                            x.min(y)
                        }
                    }
                    MaxNumF => x.max(y),
                    MinNumF => x.min(y),
                    PowF => x.powf(y),
                    Atan2 => x.atan2(y),
                    CopySign => x.copysign(y),
                    _ => return Err(format!("{op:?} on floats")),
                })
            };
            Elems::F(a.iter().zip(b).map(|(&x, &y)| f(x, y).map(|v| round_to(ty, v))).collect::<std::result::Result<_, _>>()?)
        }
        (Elems::I(a), Elems::I(b)) => {
            let w = ty.bits();
            let f = |x: i64, y: i64| -> std::result::Result<i64, String> {
                let (ux, uy) = (unsigned(ty, x), unsigned(ty, y));
                Ok(match op {
                    AddI => x.wrapping_add(y),
                    SubI => x.wrapping_sub(y),
                    MulI => x.wrapping_mul(y),
                    DivSI | RemSI | FloorDivSI | CeilDivSI if y == 0 => return Err("integer division by zero".into()),
                    DivUI | RemUI | CeilDivUI if uy == 0 => return Err("integer division by zero".into()),
                    DivSI => x.wrapping_div(y),
                    RemSI => x.wrapping_rem(y),
                    FloorDivSI => {
                        let q = x.wrapping_div(y);
                        if (x % y != 0) && ((x < 0) != (y < 0)) { q - 1 } else { q }
                    }
                    CeilDivSI => {
                        let q = x.wrapping_div(y);
                        if (x % y != 0) && ((x < 0) == (y < 0)) { q + 1 } else { q }
                    }
                    DivUI => (ux / uy) as i64,
                    RemUI => (ux % uy) as i64,
                    CeilDivUI => ux.div_ceil(uy) as i64,
                    AndI => x & y,
                    OrI => x | y,
                    XOrI => x ^ y,
                    ShLI => {
                        if uy >= w as u64 {
                            0
                        } else {
                            ((ux as u128) << uy) as i64
                        }
                    }
                    ShRUI => {
                        if uy >= w as u64 {
                            0
                        } else {
                            (ux >> uy) as i64
                        }
                    }
                    ShRSI => x >> uy.min(63),
                    MaxSI => x.max(y),
                    MinSI => x.min(y),
                    MaxUI => ux.max(uy) as i64,
                    MinUI => ux.min(uy) as i64,
                    _ => return Err(format!("{op:?} on integers")),
                })
            };
            Elems::I(a.iter().zip(b).map(|(&x, &y)| f(x, y).map(|v| wrap(ty, v))).collect::<std::result::Result<_, _>>()?)
        }
        _ => return Err("operands of different kinds".into()),
    };
    Ok(Tensor { ty, shape: l.shape.clone(), data })
}

fn erf(x: f64) -> f64 {
    // Abramowitz-Stegun 7.1.26 is too coarse for f32; use the series /
    // continued fraction split, accurate to ~1e-15.
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    let r = if ax < 2.5 {
        // Maclaurin series.
        let mut sum = ax;
        let mut term = ax;
        let x2 = ax * ax;
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= -x2 / n;
            let t = term / (2.0 * n + 1.0);
            sum += t;
            if t.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else if ax > 6.0 {
        1.0
    } else {
        // Continued fraction for erfc (Lentz).
        let x2 = ax * ax;
        let mut f = ax;
        let mut c = ax;
        let mut d = 0.0;
        for k in 1..200 {
            let a = k as f64 / 2.0;
            d = ax + a * d;
            d = 1.0 / d;
            c = ax + a / c;
            let delta = c * d;
            f *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        1.0 - (-x2).exp() / (f * std::f64::consts::PI.sqrt())
    };
    if x < 0.0 { -r } else { r }
}

fn unary(op: UnaryOp, t: &Tensor) -> std::result::Result<Tensor, String> {
    use UnaryOp::*;
    let ty = t.ty;
    let data = match &t.data {
        Elems::F(a) => {
            let f = |x: f64| -> std::result::Result<f64, String> {
                Ok(match op {
                    NegF => -x,
                    AbsF => x.abs(),
                    Exp => x.exp(),
                    Exp2 => x.exp2(),
                    ExpM1 => x.exp_m1(),
                    Log => x.ln(),
                    Log2 => x.log2(),
                    Log10 => x.log10(),
                    Log1p => x.ln_1p(),
                    Tanh => x.tanh(),
                    Sqrt => x.sqrt(),
                    Rsqrt => 1.0 / x.sqrt(),
                    Erf => erf(x),
                    Sin => x.sin(),
                    Cos => x.cos(),
                    Tan => x.tan(),
                    Atan => x.atan(),
                    Floor => x.floor(),
                    Ceil => x.ceil(),
                    Round => x.round(),
                    RoundEven => x.round_ties_even(),
                    Trunc => x.trunc(),
                    Reciprocal => 1.0 / x,
                    _ => return Err(format!("{op:?} on floats")),
                })
            };
            Elems::F(a.iter().map(|&x| f(x).map(|v| round_to(ty, v))).collect::<std::result::Result<_, _>>()?)
        }
        Elems::I(a) => {
            let w = ty.bits();
            let f = |x: i64| -> std::result::Result<i64, String> {
                let u = unsigned(ty, x);
                Ok(match op {
                    AbsI => x.wrapping_abs(),
                    CountLeadingZeros => (u.leading_zeros() - (64 - w)) as i64,
                    CountTrailingZeros => u.trailing_zeros().min(w) as i64,
                    PopCount => u.count_ones() as i64,
                    _ => return Err(format!("{op:?} on integers")),
                })
            };
            Elems::I(a.iter().map(|&x| f(x).map(|v| wrap(ty, v))).collect::<std::result::Result<_, _>>()?)
        }
    };
    Ok(Tensor { ty, shape: t.shape.clone(), data })
}

fn cmpi(p: CmpIPredicate, l: &Tensor, r: &Tensor) -> std::result::Result<Tensor, String> {
    use CmpIPredicate::*;
    same(l, r)?;
    let (Elems::I(a), Elems::I(b)) = (&l.data, &r.data) else { return Err("cmpi on floats".into()) };
    let ty = l.ty;
    let d = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| {
            let (ux, uy) = (unsigned(ty, x), unsigned(ty, y));
            let c = match p {
                Eq => x == y,
                Ne => x != y,
                Slt => x < y,
                Sle => x <= y,
                Sgt => x > y,
                Sge => x >= y,
                Ult => ux < uy,
                Ule => ux <= uy,
                Ugt => ux > uy,
                Uge => ux >= uy,
            };
            if c { -1 } else { 0 }
        })
        .collect();
    Ok(Tensor { ty: ScalarType::I1, shape: l.shape.clone(), data: Elems::I(d) })
}

fn cmpf(p: CmpFPredicate, l: &Tensor, r: &Tensor) -> std::result::Result<Tensor, String> {
    use CmpFPredicate::*;
    same(l, r)?;
    let (Elems::F(a), Elems::F(b)) = (&l.data, &r.data) else { return Err("cmpf on integers".into()) };
    let d = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| {
            let uno = x.is_nan() || y.is_nan();
            let c = match p {
                False => false,
                True => true,
                Oeq => !uno && x == y,
                Ogt => !uno && x > y,
                Oge => !uno && x >= y,
                Olt => !uno && x < y,
                Ole => !uno && x <= y,
                One => !uno && x != y,
                Ord => !uno,
                Ueq => uno || x == y,
                Ugt => uno || x > y,
                Uge => uno || x >= y,
                Ult => uno || x < y,
                Ule => uno || x <= y,
                Une => uno || x != y,
                Uno => uno,
            };
            if c { -1 } else { 0 }
        })
        .collect();
    Ok(Tensor { ty: ScalarType::I1, shape: l.shape.clone(), data: Elems::I(d) })
}

/// Float to integer toward zero, saturating, NaN → 0.
fn fp_to_int(x: f64, to: ScalarType, signed: bool) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let w = to.bits().min(64);
    let t = x.trunc();
    if signed {
        let (lo, hi) =
            if w >= 64 { (i64::MIN as f64, i64::MAX as f64) } else { (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0) };
        if t <= lo {
            wrap(to, lo as i64)
        } else if t >= hi {
            wrap(to, hi as i64)
        } else {
            wrap(to, t as i64)
        }
    } else {
        let hi = if w >= 64 { u64::MAX as f64 } else { 2f64.powi(w as i32) - 1.0 };
        let u = if t <= 0.0 {
            0u64
        } else if t >= hi {
            if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
        } else {
            t as u64
        };
        wrap(to, u as i64)
    }
}

fn float_bits(ty: ScalarType, x: f64) -> i64 {
    match ty {
        ScalarType::F32 => (x as f32).to_bits() as i32 as i64,
        ScalarType::F64 => x.to_bits() as i64,
        ScalarType::F16 => half::f16::from_f64(x).to_bits() as i16 as i64,
        _ => half::bf16::from_f64(x).to_bits() as i16 as i64,
    }
}

fn bits_float(ty: ScalarType, b: i64) -> f64 {
    match ty {
        ScalarType::F32 => f32::from_bits(b as u32) as f64,
        ScalarType::F64 => f64::from_bits(b as u64),
        ScalarType::F16 => half::f16::from_bits(b as u16).to_f64(),
        _ => half::bf16::from_bits(b as u16).to_f64(),
    }
}

fn cast(op: CastOp, t: &Tensor, to: ScalarType) -> std::result::Result<Tensor, String> {
    use CastOp::*;
    let from = t.ty;
    let bad = || format!("{op:?} from {} to {}", from.name(), to.name());
    let data = match (&t.data, op) {
        (Elems::I(a), ExtSI | TruncI | IndexCast | Bitcast) if !to.is_float() => Elems::I(a.iter().map(|&x| wrap(to, x)).collect()),
        (Elems::I(a), ExtUI | IndexCastUI) if !to.is_float() => Elems::I(a.iter().map(|&x| wrap(to, unsigned(from, x) as i64)).collect()),
        (Elems::I(a), SIToFP) if to.is_float() => Elems::F(a.iter().map(|&x| round_to(to, x as f64)).collect()),
        (Elems::I(a), UIToFP) if to.is_float() => Elems::F(a.iter().map(|&x| round_to(to, unsigned(from, x) as f64)).collect()),
        (Elems::F(a), FPToSI) if !to.is_float() => Elems::I(a.iter().map(|&x| fp_to_int(x, to, true)).collect()),
        (Elems::F(a), FPToUI) if !to.is_float() => Elems::I(a.iter().map(|&x| fp_to_int(x, to, false)).collect()),
        (Elems::F(a), ExtF | TruncF) if to.is_float() => Elems::F(a.iter().map(|&x| round_to(to, x)).collect()),
        (Elems::F(a), Bitcast) if from.bits() == to.bits() && !to.is_float() => {
            Elems::I(a.iter().map(|&x| wrap(to, float_bits(from, x))).collect())
        }
        (Elems::I(a), Bitcast) if from.bits() == to.bits() && to.is_float() => Elems::F(a.iter().map(|&x| bits_float(to, x)).collect()),
        (Elems::F(a), Bitcast) if from.bits() == to.bits() => Elems::F(a.iter().map(|&x| bits_float(to, float_bits(from, x))).collect()),
        _ => return Err(bad()),
    };
    Ok(Tensor { ty: to, shape: t.shape.clone(), data })
}

fn broadcast(t: &Tensor, ty: ScalarType, shape: &[i64]) -> std::result::Result<Tensor, String> {
    if t.ty != ty {
        return Err(format!("broadcasts {} to {}", t.describe(), ty.name()));
    }
    let n = checked_count(shape)?;
    let r = shape.len();
    if t.shape.len() > r {
        return Err(format!("cannot broadcast {} to {shape:?}", t.describe()));
    }
    let lead = r - t.shape.len();
    for (d, &s) in t.shape.iter().enumerate() {
        if s != 1 && s != shape[lead + d] {
            return Err(format!("cannot broadcast {} to {shape:?}", t.describe()));
        }
    }
    let src_strides = row_major_strides(&t.shape);
    let mut idx = vec![0i64; r];
    let mut offs = Vec::with_capacity(n);
    for _ in 0..n {
        let mut o = 0i64;
        for (d, &s) in t.shape.iter().enumerate() {
            if s != 1 {
                o += idx[lead + d] * src_strides[d];
            }
        }
        offs.push(o as usize);
        next_index(&mut idx, shape);
    }
    Ok(Tensor { ty, shape: shape.to_vec(), data: t.data.gather(&offs) })
}

fn combine_f(kind: CombiningKind, a: f64, b: f64) -> std::result::Result<f64, String> {
    use CombiningKind::*;
    Ok(match kind {
        Add => a + b,
        Mul => a * b,
        MinNumF => a.min(b),
        MaxNumF => a.max(b),
        MinimumF => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.min(b)
            }
        }
        MaximumF => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.max(b)
            }
        }
        k => return Err(format!("reduction <{k:?}> on floats")),
    })
}

fn combine_i(kind: CombiningKind, ty: ScalarType, a: i64, b: i64) -> std::result::Result<i64, String> {
    use CombiningKind::*;
    let (ua, ub) = (unsigned(ty, a), unsigned(ty, b));
    Ok(wrap(
        ty,
        match kind {
            Add => a.wrapping_add(b),
            Mul => a.wrapping_mul(b),
            MinSI => a.min(b),
            MaxSI => a.max(b),
            MinUI => ua.min(ub) as i64,
            MaxUI => ua.max(ub) as i64,
            And => a & b,
            Or => a | b,
            Xor => a ^ b,
            k => return Err(format!("reduction <{k:?}> on integers")),
        },
    ))
}

/// Reduces `dims` of `t`, starting from `acc` (same shape as the result) or
/// from the first element along the dims.
fn reduce_dims(kind: CombiningKind, t: &Tensor, dims: &[i64], acc: Option<&Tensor>) -> std::result::Result<Tensor, String> {
    let r = t.shape.len();
    let mut reduced = vec![false; r];
    for &d in dims {
        if d < 0 || d as usize >= r || reduced[d as usize] {
            return Err(format!("bad reduction dims {dims:?} for {}", t.describe()));
        }
        reduced[d as usize] = true;
    }
    let out_shape: Vec<i64> = (0..r).filter(|&d| !reduced[d]).map(|d| t.shape[d]).collect();
    let out_n = checked_count(&out_shape)?;
    let out_strides = row_major_strides(&out_shape);
    if let Some(a) = acc
        && (a.shape != out_shape || a.ty != t.ty)
    {
        return Err(format!("accumulator {} for a result of shape {out_shape:?}", a.describe()));
    }
    let n = t.data.len();
    let mut idx = vec![0i64; r];
    // Map each source element to its output position.
    let mut target = Vec::with_capacity(n);
    for _ in 0..n {
        let mut o = 0i64;
        let mut k = 0;
        for d in 0..r {
            if !reduced[d] {
                o += idx[d] * out_strides[k];
                k += 1;
            }
        }
        target.push(o as usize);
        next_index(&mut idx, &t.shape);
    }
    let ty = t.ty;
    let data = match &t.data {
        Elems::F(v) => {
            let mut out: Vec<Option<f64>> = match acc {
                Some(Tensor { data: Elems::F(a), .. }) => a.iter().map(|&x| Some(x)).collect(),
                Some(_) => return Err("accumulator kind differs".into()),
                None => vec![None; out_n],
            };
            for (&x, &o) in v.iter().zip(&target) {
                out[o] = Some(match out[o] {
                    Some(a) => round_to(ty, combine_f(kind, a, x)?),
                    None => x,
                });
            }
            Elems::F(out.into_iter().map(|x| x.unwrap_or(f64::NAN)).collect())
        }
        Elems::I(v) => {
            let mut out: Vec<Option<i64>> = match acc {
                Some(Tensor { data: Elems::I(a), .. }) => a.iter().map(|&x| Some(x)).collect(),
                Some(_) => return Err("accumulator kind differs".into()),
                None => vec![None; out_n],
            };
            for (&x, &o) in v.iter().zip(&target) {
                out[o] = Some(match out[o] {
                    Some(a) => combine_i(kind, ty, a, x)?,
                    None => x,
                });
            }
            Elems::I(out.into_iter().map(|x| x.unwrap_or(0)).collect())
        }
    };
    Ok(Tensor { ty, shape: out_shape, data })
}

fn multi_reduce(kind: CombiningKind, s: &Tensor, acc: &Tensor, dims: &[i64]) -> std::result::Result<Tensor, String> {
    reduce_dims(kind, s, dims, Some(acc))
}

fn reduce_all(kind: CombiningKind, s: &Tensor) -> std::result::Result<Tensor, String> {
    if s.data.is_empty() {
        return Err("reduction of an empty vector without an accumulator".into());
    }
    let dims: Vec<i64> = (0..s.shape.len() as i64).collect();
    reduce_dims(kind, s, &dims, None)
}

fn transpose(t: &Tensor, perm: &[i64]) -> std::result::Result<Tensor, String> {
    let r = t.shape.len();
    let mut seen = vec![false; r];
    if perm.len() != r || perm.iter().any(|&p| p < 0 || p as usize >= r || std::mem::replace(&mut seen[p as usize], true)) {
        return Err(format!("bad permutation {perm:?} for {}", t.describe()));
    }
    let shape: Vec<i64> = perm.iter().map(|&p| t.shape[p as usize]).collect();
    let src = row_major_strides(&t.shape);
    let n = t.data.len();
    let mut idx = vec![0i64; r];
    let mut offs = Vec::with_capacity(n);
    for _ in 0..n {
        offs.push(idx.iter().zip(perm).map(|(i, &p)| i * src[p as usize]).sum::<i64>() as usize);
        next_index(&mut idx, &shape);
    }
    Ok(Tensor { ty: t.ty, shape, data: t.data.gather(&offs) })
}

fn strided_slice(t: &Tensor, offsets: &[i64], sizes: &[i64], strides: &[i64]) -> std::result::Result<Tensor, String> {
    let r = t.shape.len();
    let k = offsets.len();
    if k > r || sizes.len() != k || (strides.len() != k && !strides.is_empty()) {
        return Err(format!("bad slice offsets {offsets:?} sizes {sizes:?} strides {strides:?} of {}", t.describe()));
    }
    let mut start = vec![0i64; r];
    let mut shape = t.shape.clone();
    let mut step = vec![1i64; r];
    for d in 0..k {
        let s = if strides.is_empty() { 1 } else { strides[d] };
        let last = offsets[d] + (sizes[d] - 1).max(0) * s;
        if offsets[d] < 0 || sizes[d] < 0 || s < 1 || (sizes[d] > 0 && last >= t.shape[d]) {
            return Err(format!("slice offsets {offsets:?} sizes {sizes:?} out of bounds of {}", t.describe()));
        }
        start[d] = offsets[d];
        shape[d] = sizes[d];
        step[d] = s;
    }
    let n = checked_count(&shape)?;
    let src = row_major_strides(&t.shape);
    let mut idx = vec![0i64; r];
    let mut offs = Vec::with_capacity(n);
    for _ in 0..n {
        offs.push((0..r).map(|d| (start[d] + idx[d] * step[d]) * src[d]).sum::<i64>() as usize);
        next_index(&mut idx, &shape);
    }
    Ok(Tensor { ty: t.ty, shape, data: t.data.gather(&offs) })
}

/// `dest` with `value` written at `offsets` (one per dim of `dest`; `value`
/// may have fewer dims: it is aligned with the trailing ones) every `strides`.
fn insert_strided_slice(value: &Tensor, dest: &Tensor, offsets: &[i64], strides: &[i64]) -> std::result::Result<Tensor, String> {
    let r = dest.shape.len();
    let lead = r.checked_sub(value.shape.len()).ok_or_else(|| format!("inserting {} into {}", value.describe(), dest.describe()))?;
    if offsets.len() != r || !(strides.is_empty() || strides.len() == value.shape.len()) || value.ty != dest.ty {
        return Err(format!("bad insert offsets {offsets:?} strides {strides:?} of {} into {}", value.describe(), dest.describe()));
    }
    let step = |d: usize| if d < lead || strides.is_empty() { 1 } else { strides[d - lead] };
    for d in 0..r {
        let n = if d < lead { 1 } else { value.shape[d - lead] };
        let s = step(d);
        if offsets[d] < 0 || s < 1 || (n > 0 && offsets[d] + (n - 1) * s >= dest.shape[d]) {
            return Err(format!("insert offsets {offsets:?} put {} out of bounds of {}", value.describe(), dest.describe()));
        }
    }
    let n = checked_count(&value.shape)?;
    let dst = row_major_strides(&dest.shape);
    let mut idx = vec![0i64; value.shape.len()];
    let mut out = dest.data.clone();
    for k in 0..n {
        let off: i64 = (0..r).map(|d| (offsets[d] + if d < lead { 0 } else { idx[d - lead] * step(d) }) * dst[d]).sum();
        match (&mut out, &value.data) {
            (Elems::F(o), Elems::F(v)) => o[off as usize] = v[k],
            (Elems::I(o), Elems::I(v)) => o[off as usize] = v[k],
            _ => return Err("element kinds differ".into()),
        }
        next_index(&mut idx, &value.shape);
    }
    Ok(Tensor { ty: dest.ty, shape: dest.shape.clone(), data: out })
}

fn iota(ty: ScalarType, shape: &[i64], dims: &[i64]) -> std::result::Result<Tensor, String> {
    let r = shape.len();
    if dims.is_empty() || dims.iter().any(|&d| d < 0 || d as usize >= r) {
        return Err(format!("iota dimensions {dims:?} for shape {shape:?}"));
    }
    let n = checked_count(shape)?;
    let mut idx = vec![0i64; r];
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut v = 0i64;
        for &d in dims {
            v = v * shape[d as usize] + idx[d as usize];
        }
        out.push(v);
        next_index(&mut idx, shape);
    }
    let data = if ty.is_float() {
        Elems::F(out.into_iter().map(|v| round_to(ty, v as f64)).collect())
    } else {
        Elems::I(out.into_iter().map(|v| wrap(ty, v)).collect())
    };
    Ok(Tensor { ty, shape: shape.to_vec(), data })
}

/// Offsets (row-major, in elements of `shape` with `strides`) of every
/// multi-index over `dims`, in row-major order of those dims.
fn group_offsets(shape: &[i64], strides: &[i64], dims: &[usize]) -> Vec<usize> {
    let sizes: Vec<i64> = dims.iter().map(|&d| shape[d]).collect();
    let n: i64 = sizes.iter().product();
    let mut idx = vec![0i64; dims.len()];
    let mut out = Vec::with_capacity(n.max(0) as usize);
    for _ in 0..n {
        out.push(dims.iter().zip(&idx).map(|(&d, &i)| i * strides[d]).sum::<i64>() as usize);
        for k in (0..dims.len()).rev() {
            idx[k] += 1;
            if idx[k] < sizes[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    out
}

/// `tpu.matmul`: acc + contraction of lhs and rhs per the dimension numbers
/// (default: lhs [M, K] (or [K, M] with transpose_lhs) · rhs [K, N] (or
/// [N, K] with transpose_rhs)). Products are summed in f64 (i64) and the sum
/// added to acc and rounded once.
fn matmul(
    l: &Tensor,
    r: &Tensor,
    acc: &Tensor,
    dn: Option<&DotDimensionNumbers>,
    transpose_lhs: bool,
    transpose_rhs: bool,
) -> std::result::Result<Tensor, String> {
    let default;
    let dn = match dn {
        Some(d) => d,
        None => {
            if l.shape.len() != 2 || r.shape.len() != 2 {
                return Err("matmul without dimension_numbers needs rank-2 operands".into());
            }
            let (lc, lm) = if transpose_lhs { (0, 1) } else { (1, 0) };
            let (rc, rn) = if transpose_rhs { (1, 0) } else { (0, 1) };
            default = DotDimensionNumbers {
                lhs_contracting_dims: vec![lc],
                rhs_contracting_dims: vec![rc],
                lhs_non_contracting_dims: vec![lm],
                rhs_non_contracting_dims: vec![rn],
                output_dim_order: vec![(0, lm), (1, rn)],
                lhs_batch_dims: vec![],
                rhs_batch_dims: vec![],
            };
            &default
        }
    };
    let check = |shape: &[i64], groups: [&[i64]; 3], what: &str| -> std::result::Result<[Vec<usize>; 3], String> {
        let mut seen = vec![false; shape.len()];
        let mut out: [Vec<usize>; 3] = Default::default();
        for (g, dims) in groups.iter().enumerate() {
            for &d in *dims {
                if d < 0 || d as usize >= shape.len() || std::mem::replace(&mut seen[d as usize], true) {
                    return Err(format!("{what} dim {d} is out of range or listed twice (shape {shape:?})"));
                }
                out[g].push(d as usize);
            }
        }
        if seen.iter().any(|s| !s) {
            return Err(format!("{what} dims are not all batch, contracting or non-contracting (shape {shape:?})"));
        }
        Ok(out)
    };
    let [lb, lk, lm] = check(&l.shape, [&dn.lhs_batch_dims, &dn.lhs_contracting_dims, &dn.lhs_non_contracting_dims], "lhs")?;
    let [rb, rk, rn] = check(&r.shape, [&dn.rhs_batch_dims, &dn.rhs_contracting_dims, &dn.rhs_non_contracting_dims], "rhs")?;
    let sizes = |s: &[i64], d: &[usize]| d.iter().map(|&i| s[i]).collect::<Vec<_>>();
    if sizes(&l.shape, &lb) != sizes(&r.shape, &rb) || sizes(&l.shape, &lk) != sizes(&r.shape, &rk) {
        return Err(format!("lhs {:?} and rhs {:?} disagree on batch or contracting sizes", l.shape, r.shape));
    }
    if l.ty != r.ty && (l.ty.is_float() != r.ty.is_float()) {
        return Err(format!("lhs {} and rhs {} mix floats and integers", l.describe(), r.describe()));
    }
    // Output dims: each (operand, dim) must be a batch dim (from lhs) or a
    // non-contracting dim; default order batch, M, N.
    let order: Vec<(i64, i64)> = if dn.output_dim_order.is_empty() {
        lb.iter().map(|&d| (0, d as i64)).chain(lm.iter().map(|&d| (0, d as i64))).chain(rn.iter().map(|&d| (1, d as i64))).collect()
    } else {
        dn.output_dim_order.clone()
    };
    // (group 0 batch / 1 M / 2 N, position in group) per output dim.
    let mut place = Vec::new();
    for &(o, d) in &order {
        let d = d as usize;
        let p = match o {
            0 if lb.contains(&d) => (0, lb.iter().position(|&x| x == d).unwrap_or(0)),
            0 if lm.contains(&d) => (1, lm.iter().position(|&x| x == d).unwrap_or(0)),
            1 if rb.contains(&d) => (0, rb.iter().position(|&x| x == d).unwrap_or(0)),
            1 if rn.contains(&d) => (2, rn.iter().position(|&x| x == d).unwrap_or(0)),
            _ => return Err(format!("output_dim_order entry ({o}, {d}) is not a batch or non-contracting dim")),
        };
        place.push(p);
    }
    let (bsz, msz, nsz) = (sizes(&l.shape, &lb), sizes(&l.shape, &lm), sizes(&r.shape, &rn));
    let mut covered = [vec![false; bsz.len()], vec![false; msz.len()], vec![false; nsz.len()]];
    let mut out_shape = Vec::new();
    for &(g, i) in &place {
        if std::mem::replace(&mut covered[g][i], true) {
            return Err("output_dim_order lists a dim twice".into());
        }
        out_shape.push([&bsz, &msz, &nsz][g][i]);
    }
    if covered.iter().any(|c| c.iter().any(|x| !x)) {
        return Err("output_dim_order leaves out a batch or non-contracting dim".into());
    }
    if out_shape != acc.shape {
        return Err(format!("result shape {out_shape:?} differs from the accumulator {}", acc.describe()));
    }
    let (b, m, n, k) = (checked_count(&bsz)?, checked_count(&msz)?, checked_count(&nsz)?, checked_count(&sizes(&l.shape, &lk))?);
    if (b as u64) * (m as u64) * (n as u64) * (k as u64) > (1u64 << 40) {
        return Err("matmul too large to interpret".into());
    }
    let (ls, rs) = (row_major_strides(&l.shape), row_major_strides(&r.shape));
    let (lbo, lko, lmo) = (group_offsets(&l.shape, &ls, &lb), group_offsets(&l.shape, &ls, &lk), group_offsets(&l.shape, &ls, &lm));
    let (rbo, rko, rno) = (group_offsets(&r.shape, &rs, &rb), group_offsets(&r.shape, &rs, &rk), group_offsets(&r.shape, &rs, &rn));
    let to_f = |e: &Elems| -> Vec<f64> {
        match e {
            Elems::F(v) => v.clone(),
            Elems::I(v) => v.iter().map(|&x| x as f64).collect(),
        }
    };
    let float = acc.ty.is_float();
    // canonical [b][m][n]
    let mut canon = vec![0f64; b * m * n];
    let mut canon_i = vec![0i64; if float { 0 } else { b * m * n }];
    let (lf, rf) = (to_f(&l.data), to_f(&r.data));
    for bi in 0..b {
        // Pack lhs [m][k] and rhs [n][k] contiguously.
        let (lbo, lmo, rbo, rno) = (&lbo, &lmo, &rbo, &rno);
        let lp: Vec<f64> = (0..m).flat_map(|mi| lko.iter().map(move |&ko| lbo[bi] + lmo[mi] + ko)).map(|o| lf[o]).collect();
        let rp: Vec<f64> = (0..n).flat_map(|ni| rko.iter().map(move |&ko| rbo[bi] + rno[ni] + ko)).map(|o| rf[o]).collect();
        for mi in 0..m {
            let lrow = &lp[mi * k..(mi + 1) * k];
            for ni in 0..n {
                let rrow = &rp[ni * k..(ni + 1) * k];
                let c = (bi * m + mi) * n + ni;
                if float {
                    canon[c] = lrow.iter().zip(rrow).map(|(x, y)| x * y).sum();
                } else {
                    canon_i[c] = lrow.iter().zip(rrow).fold(0i64, |s, (x, y)| s.wrapping_add((*x as i64).wrapping_mul(*y as i64)));
                }
            }
        }
    }
    // Scatter canonical results into the output order, adding acc.
    let total = acc.data.len();
    let bst = row_major_strides(&bsz);
    let mst = row_major_strides(&msz);
    let nst = row_major_strides(&nsz);
    let mut idx = vec![0i64; out_shape.len()];
    let mut data_f = Vec::with_capacity(if float { total } else { 0 });
    let mut data_i = Vec::with_capacity(if float { 0 } else { total });
    for e in 0..total {
        let (mut bi, mut mi, mut ni) = (0i64, 0i64, 0i64);
        for (d, &(g, i)) in place.iter().enumerate() {
            match g {
                0 => bi += idx[d] * bst[i],
                1 => mi += idx[d] * mst[i],
                _ => ni += idx[d] * nst[i],
            }
        }
        let c = ((bi as usize * m) + mi as usize) * n + ni as usize;
        match &acc.data {
            Elems::F(a) => data_f.push(round_to(acc.ty, a[e] + canon[c])),
            Elems::I(a) => data_i.push(wrap(acc.ty, a[e].wrapping_add(canon_i[c]))),
        }
        next_index(&mut idx, &out_shape);
    }
    let data = if float { Elems::F(data_f) } else { Elems::I(data_i) };
    Ok(Tensor { ty: acc.ty, shape: out_shape, data })
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
