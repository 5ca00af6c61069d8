//! The Pallas TPU pipeline around a Mosaic kernel body: what
//! `pallas_call` does with the kernel's `iteration_bounds`,
//! `dimension_semantics`, `window_params`, `scalar_prefetch` and
//! `scratch_operands`, with the semantics of Pallas' TPU interpret mode
//! (jax `pallas/mosaic/interpret`, default `InterpretParams`):
//!
//! - Kernel arguments: one i32 per grid axis, the scalar-prefetch refs (SMEM
//!   copies of the first `scalar_prefetch` inputs, passed to every index map
//!   too), one ref per input then per output, then the scratch refs.
//! - An operand with a `window_params` entry that has `window_bounds` (and a
//!   ref not in `any`/`hbm` memory) gets a VMEM window of that block shape;
//!   its index map (`transform_indices`) returns block indices, the block
//!   starts at index × bounds. Any other operand is passed whole (the
//!   kernel moves its data itself, e.g. with DMAs).
//! - Arrays are padded to whole blocks with the uninitialized pattern (NaN
//!   for floats, the largest value for integers); a block outside the padded
//!   array is an error. Outputs start uninitialized and come back unpadded.
//! - The grid is walked in lexicographic order, last axis fastest. With a
//!   seed, the coordinates along each `parallel` axis are permuted (Pallas'
//!   `random_seed`), to expose order dependence.
//! - An input block is copied into its window at the first step and whenever
//!   its block index changes; an output window is written back when the next
//!   step's block index differs and at the last step. Windows and scratch
//!   are allocated once per run (uninitialized), so they keep their contents
//!   across steps (that is how accumulators work).
//! - An output block visited again after another block was visited in
//!   between is an error (Pallas' revisit check).
//! - At exit every semaphore must be zero, and (stricter than Pallas, which
//!   only never runs them) every started DMA must have been waited for.
//! - The VMEM budget: every window twice (double buffering; once with
//!   `pipeline_mode = synchronous`) plus VMEM scratch must fit the limit
//!   (the generation's default scoped limit unless one is passed), which may
//!   not exceed the chip's VMEM.

use std::{collections::HashMap, rc::Rc};

use super::{
    TpuRunOptions,
    interp::{Buffer, Elems, Machine, Memory, RefView, Tensor, Value, checked_count, row_major_strides, uninitialized_elems},
    kernel::*,
};
use crate::{
    error::{Error, Result},
    npy::{ElementType, HostArray, TensorSpec},
};

fn err(kernel: &TpuKernel, message: impl Into<String>) -> Error {
    Error::TpuPipeline { kernel: kernel.name().to_string(), message: message.into() }
}

fn kerr(kernel: &TpuKernel, location: &str, message: impl Into<String>) -> Error {
    Error::TpuKernel { kernel: kernel.name().to_string(), location: location.to_string(), message: message.into() }
}

/// One input or output of the kernel.
struct Operand {
    /// `input 1` / `output 0`, for messages.
    name: String,
    element: ScalarType,
    /// The kernel's ref shape (the block shape for a window).
    ref_shape: Vec<i64>,
    memory_space: MemorySpace,
    window: Option<Window>,
}

struct Window {
    map: FuncId,
    buffers: u64,
    /// A `pl.Element` window: the index map returns element offsets.
    element: bool,
}

/// Deepest region nesting, computed without recursion.
fn max_depth(f: &Function) -> usize {
    let mut stack = vec![(&f.body, 1usize)];
    let mut deepest = 0;
    while let Some((b, d)) = stack.pop() {
        deepest = deepest.max(d);
        for op in &b.ops {
            match &op.kind {
                OpKind::For { body, .. } => stack.push((body, d + 1)),
                OpKind::If { then_block, else_block, .. } => {
                    stack.push((then_block, d + 1));
                    if let Some(e) = else_block {
                        stack.push((e, d + 1));
                    }
                }
                OpKind::While { before, after, .. } => {
                    stack.push((before, d + 1));
                    stack.push((after, d + 1));
                }
                _ => {}
            }
        }
    }
    deepest
}

/// The `.npy` element type that carries `t` by default.
pub fn host_element_type(t: ScalarType) -> ElementType {
    match t {
        ScalarType::I1 => ElementType::Bool,
        ScalarType::I8 => ElementType::I8,
        ScalarType::I16 => ElementType::I16,
        ScalarType::I32 => ElementType::I32,
        ScalarType::I64 | ScalarType::Index => ElementType::I64,
        ScalarType::F16 => ElementType::F16,
        ScalarType::Bf16 => ElementType::Bf16,
        ScalarType::F32 => ElementType::F32,
        ScalarType::F64 => ElementType::F64,
    }
}

/// Whether a host array of `e` can stand for kernel elements of `t`
/// (signless integers take either signedness; bf16 also travels as u16;
/// booleans as i32, widened to 0/1 on the way in and narrowed to `≠ 0` on
/// the way out — how Pallas hands them to a kernel, Mosaic having no i1
/// memrefs).
fn compatible(e: ElementType, t: ScalarType) -> bool {
    use ElementType as E;
    match t {
        ScalarType::I1 => e == E::Bool,
        ScalarType::I8 => matches!(e, E::I8 | E::U8),
        ScalarType::I16 => matches!(e, E::I16 | E::U16),
        ScalarType::I32 => matches!(e, E::I32 | E::U32 | E::Bool),
        ScalarType::I64 | ScalarType::Index => matches!(e, E::I64 | E::U64),
        ScalarType::F16 => e == E::F16,
        ScalarType::Bf16 => matches!(e, E::Bf16 | E::U16),
        ScalarType::F32 => e == E::F32,
        ScalarType::F64 => e == E::F64,
    }
}

fn decode(a: &HostArray, t: ScalarType) -> Elems {
    let b = &a.bytes;
    let w = a.element_type.bytes();
    let n = b.len() / w.max(1);
    let word = |i: usize| -> u64 {
        let mut x = [0u8; 8];
        x[..w].copy_from_slice(&b[i * w..(i + 1) * w]);
        u64::from_le_bytes(x)
    };
    match t {
        ScalarType::F32 => Elems::F((0..n).map(|i| f32::from_bits(word(i) as u32) as f64).collect()),
        ScalarType::F64 => Elems::F((0..n).map(|i| f64::from_bits(word(i))).collect()),
        ScalarType::F16 => Elems::F((0..n).map(|i| half::f16::from_bits(word(i) as u16).to_f64()).collect()),
        ScalarType::Bf16 => Elems::F((0..n).map(|i| half::bf16::from_bits(word(i) as u16).to_f64()).collect()),
        ScalarType::I1 => Elems::I((0..n).map(|i| if word(i) != 0 { -1 } else { 0 }).collect()),
        _ => Elems::I((0..n).map(|i| super::interp::wrap(t, word(i) as i64)).collect()),
    }
}

fn encode(e: &Elems, t: ScalarType, out: ElementType) -> Vec<u8> {
    let w = out.bytes();
    let mut bytes = Vec::with_capacity(e.len() * w);
    let mut push = |x: u64| bytes.extend_from_slice(&x.to_le_bytes()[..w]);
    match e {
        Elems::F(v) => {
            for &x in v {
                push(match t {
                    ScalarType::F32 => (x as f32).to_bits() as u64,
                    ScalarType::F16 => half::f16::from_f64(x).to_bits() as u64,
                    ScalarType::Bf16 => half::bf16::from_f64(x).to_bits() as u64,
                    _ => x.to_bits(),
                })
            }
        }
        Elems::I(v) => {
            for &x in v {
                push(if t == ScalarType::I1 || out == ElementType::Bool { (x != 0) as u64 } else { x as u64 })
            }
        }
    }
    bytes
}

/// Copies the box `sizes` at `from_start` of row-major `from` (shape
/// `from_shape`) to `to_start` of `to` (all in range: callers check).
fn copy_box(from: &Elems, from_shape: &[i64], from_start: &[i64], to: &mut Elems, to_shape: &[i64], to_start: &[i64], sizes: &[i64]) {
    let (fs, ts) = (row_major_strides(from_shape), row_major_strides(to_shape));
    let r = sizes.len();
    if sizes.iter().any(|&s| s <= 0) {
        return;
    }
    if r == 0 {
        match (from, &mut *to) {
            (Elems::F(a), Elems::F(b)) if !a.is_empty() && !b.is_empty() => b[0] = a[0],
            (Elems::I(a), Elems::I(b)) if !a.is_empty() && !b.is_empty() => b[0] = a[0],
            _ => {}
        }
        return;
    }
    let inner = sizes[r.saturating_sub(1)] as usize;
    let outer: i64 = sizes[..r.saturating_sub(1)].iter().product();
    let mut idx = vec![0i64; r.saturating_sub(1)];
    for _ in 0..outer.max(1) {
        let mut fo = from_start.get(r.wrapping_sub(1)).copied().unwrap_or(0) * fs.last().copied().unwrap_or(1);
        let mut to_o = to_start.get(r.wrapping_sub(1)).copied().unwrap_or(0) * ts.last().copied().unwrap_or(1);
        for d in 0..idx.len() {
            fo += (from_start[d] + idx[d]) * fs[d];
            to_o += (to_start[d] + idx[d]) * ts[d];
        }
        let (fo, to_o) = (fo as usize, to_o as usize);
        match (from, &mut *to) {
            (Elems::F(a), Elems::F(b)) => b[to_o..to_o + inner].copy_from_slice(&a[fo..fo + inner]),
            (Elems::I(a), Elems::I(b)) => b[to_o..to_o + inner].copy_from_slice(&a[fo..fo + inner]),
            _ => {}
        }
        for d in (0..idx.len()).rev() {
            idx[d] += 1;
            if idx[d] < sizes[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// A small deterministic PRNG (splitmix64) for the parallel-axis shuffle.
fn shuffled(n: i64, seed: &mut u64) -> Vec<i64> {
    let mut v: Vec<i64> = (0..n).collect();
    let mut next = || {
        *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in (1..v.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
    v
}

fn point_str(p: &[i64]) -> String {
    format!("({})", p.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "))
}

fn mib(b: u64) -> String {
    if b.is_multiple_of(1 << 20) { format!("{} MiB", b >> 20) } else { format!("{:.2} MiB", b as f64 / (1u64 << 20) as f64) }
}

/// Runs `kernel` over its grid on `inputs` (scalar-prefetch arrays first,
/// then the inputs); returns the outputs.
pub fn run(kernel: &TpuKernel, inputs: &[HostArray], options: &TpuRunOptions) -> Result<Vec<HostArray>> {
    let sig = Signature::check(kernel, inputs.len())?;
    let operands = sig.operands(kernel)?;
    sig.check_vmem(kernel, &operands, options)?;
    let (mem, prefetch_refs) = sig.prefetch(kernel, inputs)?;
    let mut machine = Machine::new(kernel, mem);
    let grid = Grid::new(kernel, options)?;
    let generation = options.generation.info();
    let megacore = generation.cores > 1;
    let pipeline = Pipeline { kernel, generation, megacore, sig: &sig, operands: &operands, prefetch_refs, grid };
    pipeline.check_aliases()?;
    let out_specs = pipeline.output_specs(&mut machine, inputs, options)?;
    let bufs = pipeline.allocate(&mut machine, inputs, &out_specs)?;
    pipeline.walk(&mut machine, &bufs)?;
    check_exit(kernel, &machine)?;
    pipeline.outputs(&machine, &bufs, &out_specs)
}

/// The kernel's entry function and its arguments, checked against the
/// `pallas_call` parameters: `ng` grid indices, `pf` scalar-prefetch refs,
/// `nops` input/output refs (`nin` inputs, `nout` outputs), then the scratch
/// refs.
struct Signature<'k> {
    f: &'k Function,
    args: Vec<&'k Type>,
    ng: usize,
    pf: usize,
    nops: usize,
    nin: usize,
    nout: usize,
}

impl<'k> Signature<'k> {
    /// Checks the entry function, the nesting of every function, the
    /// argument counts and kinds, and that `n_inputs` arrays fit.
    fn check(kernel: &'k TpuKernel, n_inputs: usize) -> Result<Self> {
        let f = kernel.kernel().ok_or_else(|| err(kernel, format!("entry function #{} does not exist", kernel.entry)))?;
        if !f.results.is_empty() {
            return Err(kerr(kernel, &f.location, "a kernel returns nothing; this function has results"));
        }
        for g in &kernel.functions {
            if max_depth(g) > super::interp::MAX_NESTING {
                return Err(kerr(
                    kernel,
                    &g.location,
                    format!("@{} nests regions deeper than {} levels", g.name, super::interp::MAX_NESTING),
                ));
            }
        }
        let args: Vec<&Type> = f.arg_types().collect();
        let ng = kernel.iteration_bounds.len();
        let (pf, ns) = (kernel.scalar_prefetch, kernel.scratch_operands);
        let fixed = ng.saturating_add(pf).saturating_add(ns);
        if args.len() < fixed {
            return Err(kerr(
                kernel,
                &f.location,
                format!("{} arguments cannot hold {ng} grid indices, {pf} scalar-prefetch refs and {ns} scratch refs", args.len()),
            ));
        }
        let nops = args.len() - fixed;
        if !kernel.dimension_semantics.is_empty() && kernel.dimension_semantics.len() != ng {
            return Err(kerr(
                kernel,
                &f.location,
                format!("{} dimension_semantics for a {ng}-axis grid", kernel.dimension_semantics.len()),
            ));
        }
        if !kernel.window_params.is_empty() && kernel.window_params.len() != nops {
            return Err(kerr(
                kernel,
                &f.location,
                format!("{} window_params for {nops} input/output operands", kernel.window_params.len()),
            ));
        }
        for (i, t) in args[..ng].iter().enumerate() {
            if !matches!(t, Type::Scalar(s) if !s.is_float()) {
                return Err(kerr(kernel, &f.location, format!("grid argument {i} is {}, expected i32", t.describe())));
            }
        }
        if let Some(b) = kernel.iteration_bounds.iter().find(|&&b| b < 0) {
            return Err(kerr(kernel, &f.location, format!("negative iteration bound {b}")));
        }
        if n_inputs < pf || n_inputs > pf + nops {
            return Err(err(
                kernel,
                format!("takes {pf} scalar-prefetch array(s) and up to {nops} inputs (then outputs); given {n_inputs} arrays"),
            ));
        }
        let nin = n_inputs - pf;
        let nout = nops - nin;
        Ok(Signature { f, args, ng, pf, nops, nin, nout })
    }

    /// The scratch arguments (after the input/output refs).
    fn scratch_args(&self) -> &[&'k Type] {
        &self.args[self.ng + self.pf + self.nops..]
    }

    /// The inputs then the outputs, each with its window if it has one.
    fn operands(&self, kernel: &TpuKernel) -> Result<Vec<Operand>> {
        let (ng, pf) = (self.ng, self.pf);
        let mut operands = Vec::new();
        for k in 0..self.nops {
            let name = if k < self.nin { format!("input {k}") } else { format!("output {}", k - self.nin) };
            let Type::MemRef { shape, element: MemElement::Scalar(element), memory_space } = self.args[ng + pf + k] else {
                return Err(kerr(kernel, &self.f.location, format!("{name} is {}, expected a memref", self.args[ng + pf + k].describe())));
            };
            let wp = kernel.window_params.get(k);
            let whole_space = matches!(memory_space, MemorySpace::Any | MemorySpace::Hbm);
            let window = match wp {
                Some(WindowParam { window_bounds: Some(b), transform_indices, single_buffered, element_window }) if !whole_space => {
                    if b != shape {
                        return Err(kerr(
                            kernel,
                            &self.f.location,
                            format!("{name}: window_bounds {b:?} differ from the kernel's block ref {}", self.args[ng + pf + k].describe()),
                        ));
                    }
                    let map = transform_indices
                        .ok_or_else(|| kerr(kernel, &self.f.location, format!("{name} has window_bounds but no transform_indices")))?;
                    self.check_index_map(kernel, &name, map, shape.len())?;
                    if let Some(ew) = element_window
                        && ew.pad_low.iter().chain(&ew.pad_high).any(|&p| p != 0)
                    {
                        return Err(kerr(
                            kernel,
                            &self.f.location,
                            format!(
                                "{name}: a `pl.Element` window with padding {:?}/{:?} is not supported by the TPU interpreter (padding 0 is)",
                                ew.pad_low, ew.pad_high
                            ),
                        ));
                    }
                    Some(Window { map, buffers: if *single_buffered { 1 } else { 2 }, element: element_window.is_some() })
                }
                _ => None,
            };
            operands.push(Operand { name, element: *element, ref_shape: shape.clone(), memory_space: *memory_space, window });
        }
        Ok(operands)
    }

    /// Checks index map `map` of operand `name`: it must exist, take the grid
    /// and scalar-prefetch arguments and return `rank` block indices.
    fn check_index_map(&self, kernel: &TpuKernel, name: &str, map: FuncId, rank: usize) -> Result<()> {
        let (ng, pf) = (self.ng, self.pf);
        let m =
            kernel.functions.get(map).ok_or_else(|| kerr(kernel, &self.f.location, format!("{name}: index map #{map} does not exist")))?;
        if m.body.args.len() != ng + pf || m.results.len() != rank {
            return Err(kerr(
                kernel,
                &m.location,
                format!(
                    "index map @{} of {name} takes {} arguments and returns {} indices; expected {} and {}",
                    m.name,
                    m.body.args.len(),
                    m.results.len(),
                    ng + pf,
                    rank
                ),
            ));
        }
        Ok(())
    }

    /// The VMEM budget: every window times its buffer count plus VMEM
    /// scratch must fit the limit, which must fit the chip.
    fn check_vmem(&self, kernel: &TpuKernel, operands: &[Operand], options: &TpuRunOptions) -> Result<()> {
        let info = options.generation.info();
        let (limit, source) = match (options.vmem_limit_bytes, kernel.vmem_limit_bytes) {
            (Some(l), _) => (l, "as passed"),
            (None, Some(l)) => (l, "the kernel's own vmem_limit_bytes"),
            (None, None) => (info.default_scoped_vmem_bytes, "the default scoped limit"),
        };
        if limit > info.vmem_bytes {
            return Err(err(kernel, format!("a VMEM limit of {} exceeds {}'s {} of VMEM", mib(limit), info.name, mib(info.vmem_bytes))));
        }
        let mut items: Vec<(String, u64)> = Vec::new();
        for o in operands {
            if let Some(w) = &o.window {
                let n = checked_count(&o.ref_shape).map_err(|m| err(kernel, format!("{}: {m}", o.name)))? as u64;
                items.push((
                    format!("{} window {:?} {} ×{}", o.name, o.ref_shape, o.element.name(), w.buffers),
                    n * o.element.bytes() * w.buffers,
                ));
            }
        }
        for (i, t) in self.scratch_args().iter().enumerate() {
            if let Type::MemRef { shape, element: MemElement::Scalar(e), memory_space: MemorySpace::Vmem } = t {
                let n = checked_count(shape).map_err(|m| err(kernel, format!("scratch {i}: {m}")))? as u64;
                items.push((format!("scratch {i} {:?} {}", shape, e.name()), n * e.bytes()));
            }
        }
        let total: u64 = items.iter().map(|(_, b)| b).sum();
        if total > limit {
            let parts: Vec<String> = items.iter().map(|(n, b)| format!("{n} = {}", mib(*b))).collect();
            return Err(err(
                kernel,
                format!(
                    "needs {} of VMEM, over the {} limit on {} ({}; the chip has {}): {}. Use smaller blocks (about {:.0}% of these sizes would fit) \
                     or raise the limit",
                    mib(total),
                    mib(limit),
                    info.name,
                    source,
                    mib(info.vmem_bytes),
                    parts.join(", "),
                    100.0 * limit as f64 / total as f64
                ),
            ));
        }
        Ok(())
    }

    /// A memory holding the scalar-prefetch arrays (in SMEM), and refs to
    /// them.
    fn prefetch(&self, kernel: &TpuKernel, inputs: &[HostArray]) -> Result<(Memory, Vec<RefView>)> {
        let ng = self.ng;
        let mut mem = Memory::default();
        let mut prefetch_refs = Vec::new();
        for (i, a) in inputs[..self.pf].iter().enumerate() {
            let Type::MemRef { shape, element: MemElement::Scalar(e), memory_space } = self.args[ng + i] else {
                return Err(kerr(kernel, &self.f.location, format!("scalar-prefetch argument {i} is {}", self.args[ng + i].describe())));
            };
            let ashape: Vec<i64> = a.shape.iter().map(|&d| d as i64).collect();
            if !compatible(a.element_type, *e) || &ashape != shape {
                return Err(err(
                    kernel,
                    format!("scalar-prefetch array {i} is {}, the kernel takes {}", a.describe(), self.args[ng + i].describe()),
                ));
            }
            let id = mem.add(Buffer {
                name: format!("scalar prefetch {i}"),
                element: MemElement::Scalar(*e),
                memory_space: *memory_space,
                shape: shape.clone(),
                data: decode(a, *e),
            });
            prefetch_refs.push(RefView { buffer: id, offset: 0, shape: shape.clone(), strides: row_major_strides(shape) });
        }
        Ok((mem, prefetch_refs))
    }

    /// Scratch buffers: uninitialized; semaphores at zero.
    fn scratch(&self, kernel: &TpuKernel, mem: &mut Memory) -> Result<Vec<RefView>> {
        let mut scratch_refs = Vec::new();
        for (i, t) in self.scratch_args().iter().enumerate() {
            let (shape, element, space) = match t {
                Type::MemRef { shape, element, memory_space } => (shape.clone(), *element, *memory_space),
                Type::Semaphore { dma } => {
                    (vec![], if *dma { MemElement::DmaSemaphore } else { MemElement::Semaphore }, MemorySpace::SemaphoreMem)
                }
                t => return Err(kerr(kernel, &self.f.location, format!("scratch operand {i} is {}", t.describe()))),
            };
            let n = checked_count(&shape).map_err(|m| err(kernel, format!("scratch {i}: {m}")))?;
            let data = match element {
                MemElement::Scalar(e) => uninitialized_elems(e, n),
                _ => Elems::I(vec![0; n]),
            };
            let id = mem.add(Buffer { name: format!("scratch {i}"), element, memory_space: space, shape: shape.clone(), data });
            scratch_refs.push(RefView { buffer: id, offset: 0, shape: shape.clone(), strides: row_major_strides(&shape) });
        }
        Ok(scratch_refs)
    }
}

/// The grid's order: lexicographic, last axis fastest, with the coordinates
/// of `parallel` axes permuted (seed 0 unless given), as Pallas' interpret
/// mode does by default; in order when asked.
struct Grid {
    bounds: Vec<i64>,
    /// Per axis: the permuted coordinates, if shuffled.
    perms: Vec<Option<Vec<i64>>>,
    /// Grid points in all.
    steps: u64,
}

impl Grid {
    fn new(kernel: &TpuKernel, options: &TpuRunOptions) -> Result<Grid> {
        let bounds = kernel.iteration_bounds.clone();
        let steps = bounds
            .iter()
            .try_fold(1u64, |a, &b| a.checked_mul(b as u64))
            .ok_or_else(|| err(kernel, format!("grid {bounds:?} is too large")))?;
        let mut seed = options.grid_seed.unwrap_or(0);
        let shuffle = !options.grid_in_order;
        let perms: Vec<Option<Vec<i64>>> = bounds
            .iter()
            .enumerate()
            .map(|(d, &b)| {
                let parallel =
                    matches!(kernel.dimension_semantics.get(d), Some(DimensionSemantics::Parallel | DimensionSemantics::CoreParallel));
                (shuffle && parallel).then(|| shuffled(b, &mut seed))
            })
            .collect();
        Ok(Grid { bounds, perms, steps })
    }

    /// The grid point of step `t`.
    fn point(&self, t: u64) -> Vec<i64> {
        let bounds = &self.bounds;
        let mut p = vec![0i64; bounds.len()];
        let mut r = t;
        for d in (0..bounds.len()).rev() {
            let b = bounds[d] as u64;
            let c = (r % b) as i64;
            r /= b;
            p[d] = self.perms[d].as_ref().map_or(c, |v| v[c as usize]);
        }
        p
    }
}

/// The buffers of a run: per operand its (padded) array and its window,
/// the arrays' logical shapes, and the scratch refs.
struct Buffers {
    arrays: Vec<usize>,
    windows: Vec<Option<usize>>,
    logical_shapes: Vec<Vec<i64>>,
    scratch_refs: Vec<RefView>,
}

/// A checked kernel and its operands, ready to walk the grid.
struct Pipeline<'a, 'k> {
    kernel: &'k TpuKernel,
    generation: &'static super::GenerationInfo,
    /// Parallel axes run on several TensorCores (`generation.cores` > 1).
    megacore: bool,
    sig: &'a Signature<'k>,
    operands: &'a [Operand],
    prefetch_refs: Vec<RefView>,
    grid: Grid,
}

impl Pipeline<'_, '_> {
    /// The arguments the kernel body and the index maps start with at grid
    /// point `p`: the grid indices and the scalar-prefetch refs.
    fn grid_args(&self, p: &[i64]) -> Vec<Rc<Value>> {
        let mut v: Vec<Rc<Value>> = p
            .iter()
            .zip(&self.sig.args[..self.sig.ng])
            .map(|(&c, t)| Rc::new(Value::T(Tensor::scalar_int(t.element().unwrap_or(ScalarType::I32), c))))
            .collect();
        v.extend(self.prefetch_refs.iter().map(|r| Rc::new(Value::Ref(r.clone()))));
        v
    }

    /// Block indices of every windowed operand at grid point `p`.
    fn blocks_at(&self, machine: &mut Machine, p: &[i64]) -> Result<Vec<Option<Vec<i64>>>> {
        machine.grid_point = point_str(p);
        let mut out = Vec::new();
        for o in self.operands {
            let Some(w) = &o.window else {
                out.push(None);
                continue;
            };
            let vals = machine.call(w.map, self.grid_args(p))?;
            let mut idx = Vec::new();
            for v in vals {
                match &*v {
                    Value::T(Tensor { shape, data: Elems::I(d), .. }) if shape.is_empty() && d.len() == 1 => idx.push(d[0]),
                    _ => return Err(err(self.kernel, format!("the index map of {} returned a non-integer", o.name))),
                }
            }
            out.push(Some(idx));
        }
        Ok(out)
    }

    /// Output shapes: given, or the smallest arrays covering every block the
    /// grid visits (whole operands: the ref's shape).
    fn output_specs(&self, machine: &mut Machine, inputs: &[HostArray], options: &TpuRunOptions) -> Result<Vec<TensorSpec>> {
        let (kernel, nin, nout) = (self.kernel, self.sig.nin, self.sig.nout);
        let outputs = &self.operands[nin..];
        let aliased = |j: usize| {
            self.aliased_input(j)
                .map(|i| TensorSpec { element_type: inputs[self.sig.pf + i].element_type, shape: inputs[self.sig.pf + i].shape.clone() })
        };
        if let Some(specs) = &options.outputs {
            if specs.len() != nout {
                return Err(err(kernel, format!("{} output types given for {nout} outputs", specs.len())));
            }
            for (s, o) in specs.iter().zip(outputs) {
                if !compatible(s.element_type, o.element) {
                    return Err(err(kernel, format!("{} is {} in the kernel, asked for as {}", o.name, o.element.name(), s.describe())));
                }
            }
            return Ok(specs.clone());
        }
        let mut extent: Vec<Vec<i64>> =
            outputs.iter().map(|o| if o.window.is_some() { vec![0; o.ref_shape.len()] } else { o.ref_shape.clone() }).collect();
        if outputs.iter().any(|o| o.window.is_some()) {
            for t in 0..self.grid.steps {
                let blocks = self.blocks_at(machine, &self.grid.point(t))?;
                for (j, o) in outputs.iter().enumerate() {
                    if let Some(b) = &blocks[nin + j] {
                        let element = o.window.as_ref().is_some_and(|w| w.element);
                        for (d, &i) in b.iter().enumerate() {
                            let end =
                                if element { i.saturating_add(o.ref_shape[d]) } else { i.saturating_add(1).saturating_mul(o.ref_shape[d]) };
                            extent[j][d] = extent[j][d].max(end);
                        }
                    }
                }
            }
        }
        Ok(outputs
            .iter()
            .zip(extent)
            .enumerate()
            .map(|(j, (o, e))| {
                aliased(j).unwrap_or_else(|| TensorSpec {
                    element_type: host_element_type(o.element),
                    shape: e.iter().map(|&d| d.max(0) as u64).collect(),
                })
            })
            .collect())
    }

    /// The kernel input output `j` aliases (`input_output_aliases`), if any
    /// (checked by [`Pipeline::check_aliases`]).
    fn aliased_input(&self, j: usize) -> Option<usize> {
        self.kernel.input_output_aliases.iter().find(|&&(_, o)| o == j).map(|&(operand, _)| operand - self.sig.pf)
    }

    /// `input_output_aliases` must pair a kernel input (not a scalar-prefetch
    /// operand) with an output of the same element type, each at most once.
    fn check_aliases(&self) -> Result<()> {
        let (kernel, pf, nin, nout) = (self.kernel, self.sig.pf, self.sig.nin, self.sig.nout);
        for (n, &(operand, output)) in kernel.input_output_aliases.iter().enumerate() {
            if operand < pf || operand >= pf + nin || output >= nout {
                return Err(err(
                    kernel,
                    format!(
                        "input_output_aliases pairs operand {operand} with output {output}; the call has {pf} scalar-prefetch operands, \
                         {nin} inputs after them and {nout} outputs (a scalar-prefetch operand cannot be aliased here)"
                    ),
                ));
            }
            if kernel.input_output_aliases[..n].iter().any(|&(_, o)| o == output) {
                return Err(err(kernel, format!("input_output_aliases aliases output {output} twice")));
            }
            let (i, o) = (&self.operands[operand - pf], &self.operands[nin + output]);
            if i.element != o.element {
                return Err(err(kernel, format!("{} ({}) is aliased to {} ({})", o.name, o.element.name(), i.name, i.element.name())));
            }
        }
        Ok(())
    }

    /// HBM arrays (padded to whole blocks, inputs copied in), VMEM windows
    /// (uninitialized) and scratch.
    fn allocate(&self, machine: &mut Machine, inputs: &[HostArray], out_specs: &[TensorSpec]) -> Result<Buffers> {
        let (kernel, pf, nin) = (self.kernel, self.sig.pf, self.sig.nin);
        let mut arrays = Vec::new(); // buffer id per operand
        let mut windows = Vec::new(); // window buffer id per operand
        let mut logical_shapes = Vec::new();
        for (k, o) in self.operands.iter().enumerate() {
            let (shape, data): (Vec<i64>, Option<&HostArray>) = if k < nin {
                let a = &inputs[pf + k];
                if !compatible(a.element_type, o.element) {
                    return Err(err(kernel, format!("{} is {}, the kernel reads {} elements", o.name, a.describe(), o.element.name())));
                }
                (a.shape.iter().map(|&d| d as i64).collect(), Some(a))
            } else {
                let shape: Vec<i64> = out_specs[k - nin].shape.iter().map(|&d| d as i64).collect();
                // An aliased output is its input's buffer: blocks the grid
                // does not write keep the input.
                let input = self.aliased_input(k - nin).map(|i| &inputs[pf + i]);
                if let Some(a) = input
                    && a.shape.iter().map(|&d| d as i64).ne(shape.iter().copied())
                {
                    return Err(err(kernel, format!("{} is {:?} but aliases an input of {}", o.name, shape, a.describe())));
                }
                (shape, input)
            };
            let padded = padded_shape(kernel, o, &shape)?;
            let n = checked_count(&padded).map_err(|m| err(kernel, format!("{}: {m}", o.name)))?;
            let mut buf = uninitialized_elems(o.element, n);
            if let Some(a) = data {
                let src = decode(a, o.element);
                let zeros = vec![0; shape.len()];
                copy_box(&src, &shape, &zeros, &mut buf, &padded, &zeros, &shape);
            }
            let space = if o.window.is_some() { MemorySpace::Hbm } else { o.memory_space };
            arrays.push(machine.mem.add(Buffer {
                name: o.name.clone(),
                element: MemElement::Scalar(o.element),
                memory_space: space,
                shape: padded,
                data: buf,
            }));
            logical_shapes.push(shape);
            windows.push(match &o.window {
                Some(_) => {
                    let n = checked_count(&o.ref_shape).map_err(|m| err(kernel, m))?;
                    Some(machine.mem.add(Buffer {
                        name: format!("{} window", o.name),
                        element: MemElement::Scalar(o.element),
                        memory_space: o.memory_space,
                        shape: o.ref_shape.clone(),
                        data: uninitialized_elems(o.element, n),
                    }))
                }
                None => None,
            });
        }
        let scratch_refs = self.sig.scratch(kernel, &mut machine.mem)?;
        Ok(Buffers { arrays, windows, logical_shapes, scratch_refs })
    }

    /// The start of block `blk` of operand `o` (an array `padded`, of
    /// `logical` shape before padding) at grid point `p`, and the sizes of
    /// the part inside the array: a blocked window lies wholly inside the
    /// padded array (checked); a `pl.Element` window starts at the element
    /// offset `blk` inside the array and may reach past its end.
    fn block_range(&self, o: &Operand, blk: &[i64], padded: &[i64], logical: &[i64], p: &[i64]) -> Result<(Vec<i64>, Vec<i64>)> {
        let element = o.window.as_ref().is_some_and(|w| w.element);
        let (mut start, mut sizes) = (Vec::new(), Vec::new());
        for d in 0..blk.len() {
            let b = o.ref_shape[d];
            let s = if element { blk[d] } else { blk[d].saturating_mul(b) };
            let outside = if element { s < 0 || (s >= padded[d] && b > 0) } else { blk[d] < 0 || s.saturating_add(b) > padded[d] };
            if outside {
                let what = if element { "element offset" } else { "block index" };
                return Err(err(
                    self.kernel,
                    format!(
                        "{what} {} of {} at grid point {} is out of range: dim {d} would cover [{s}, {}) of an array of {}{}",
                        point_str(blk),
                        o.name,
                        point_str(p),
                        s.saturating_add(b),
                        logical[d],
                        if element {
                            String::new()
                        } else {
                            format!(" (padded to {} = {} blocks of {b})", padded[d], padded[d] / b.max(1))
                        }
                    ),
                ));
            }
            start.push(s);
            sizes.push(b.min(padded[d] - s));
        }
        Ok((start, sizes))
    }

    /// Walks the grid: per step, input blocks into their windows (when the
    /// block index changed), the body, output windows back (when the next
    /// step's block differs, and at the last step), the revisit check.
    fn walk(&self, machine: &mut Machine, bufs: &Buffers) -> Result<()> {
        let (nin, nops, steps) = (self.sig.nin, self.sig.nops, self.grid.steps);
        // Per output: block index → (first, last) grid point that visited it.
        let mut visited: Vec<HashMap<Vec<i64>, Visits>> = vec![HashMap::new(); nops];
        // Per output: block index → the first grid point that wrote it.
        let mut writers: Vec<HashMap<Vec<i64>, Vec<i64>>> = vec![HashMap::new(); nops];
        let mut prev: Vec<Option<Vec<i64>>> = vec![None; nops];
        let mut cur = if steps > 0 { self.blocks_at(machine, &self.grid.point(0))? } else { vec![] };
        for t in 0..steps {
            let p = self.grid.point(t);
            machine.grid_point = point_str(&p);
            // Inputs in.
            for k in 0..nin {
                let (Some(blk), Some(win)) = (&cur[k], bufs.windows[k]) else { continue };
                if t > 0 && prev[k].as_ref() == Some(blk) {
                    continue;
                }
                self.copy_in(machine, bufs, k, blk, win, &p)?;
            }
            // The next step's block indices, before the body (as Pallas and
            // the hardware's prefetch evaluate them).
            let next = if t + 1 < steps { Some(self.blocks_at(machine, &self.grid.point(t + 1))?) } else { None };
            machine.grid_point = point_str(&p);
            self.call_body(machine, bufs, &p)?;
            machine.grid_point = point_str(&p);
            // Outputs out.
            for k in nin..nops {
                let (Some(blk), Some(win)) = (&cur[k], bufs.windows[k]) else { continue };
                if next.as_ref().is_none_or(|n| n[k].as_ref() != Some(blk)) {
                    self.copy_out(machine, bufs, k, blk, win, &p)?;
                }
                // Pallas does not check revisits of aliased outputs.
                if self.aliased_input(k - nin).is_none() {
                    self.check_revisit(&mut visited[k], &self.operands[k], prev[k].as_deref(), blk, &p)?;
                }
                if self.megacore {
                    self.check_parallel_writes(&mut writers[k], &self.operands[k], blk, &p)?;
                }
            }
            prev = std::mem::take(&mut cur);
            cur = next.unwrap_or_default();
        }
        Ok(())
    }

    /// Copies block `blk` of input `k` into its window `win`.
    fn copy_in(&self, machine: &mut Machine, bufs: &Buffers, k: usize, blk: &[i64], win: usize, p: &[i64]) -> Result<()> {
        let o = &self.operands[k];
        let (start, sizes) = self.block_range(o, blk, &machine.mem.buffers[bufs.arrays[k]].shape.clone(), &bufs.logical_shapes[k], p)?;
        let (src, dst) = two(&mut machine.mem.buffers, bufs.arrays[k], win);
        if sizes != o.ref_shape {
            // The part of an Element window past the array's end.
            dst.data = uninitialized_elems(o.element, dst.data.len());
        }
        let zeros = vec![0; start.len()];
        copy_box(&src.data, &src.shape, &start, &mut dst.data, &dst.shape, &zeros, &sizes);
        Ok(())
    }

    /// Writes the window `win` of output `k` back to its block `blk`.
    fn copy_out(&self, machine: &mut Machine, bufs: &Buffers, k: usize, blk: &[i64], win: usize, p: &[i64]) -> Result<()> {
        let o = &self.operands[k];
        let (start, sizes) = self.block_range(o, blk, &machine.mem.buffers[bufs.arrays[k]].shape.clone(), &bufs.logical_shapes[k], p)?;
        let (dst, src) = two(&mut machine.mem.buffers, bufs.arrays[k], win);
        let zeros = vec![0; start.len()];
        copy_box(&src.data, &src.shape, &zeros, &mut dst.data, &dst.shape, &start, &sizes);
        Ok(())
    }

    /// Runs the kernel body at grid point `p`: the grid arguments, a ref per
    /// operand (its window, or the whole array), the scratch refs.
    fn call_body(&self, machine: &mut Machine, bufs: &Buffers, p: &[i64]) -> Result<()> {
        let mut kargs = self.grid_args(p);
        for k in 0..self.sig.nops {
            let (b, shape) = match bufs.windows[k] {
                Some(w) => (w, self.operands[k].ref_shape.clone()),
                None => (bufs.arrays[k], machine.mem.buffers[bufs.arrays[k]].shape.clone()),
            };
            kargs.push(Rc::new(Value::Ref(RefView { buffer: b, offset: 0, strides: row_major_strides(&shape), shape })));
        }
        kargs.extend(bufs.scratch_refs.iter().map(|r| Rc::new(Value::Ref(r.clone()))));
        machine.call(self.kernel.entry, kargs)?;
        Ok(())
    }

    /// On a chip whose `parallel` axes are split across TensorCores
    /// (megacore), two grid points that differ on a parallel axis must not
    /// write the same output block: the cores would race on it.
    fn check_parallel_writes(&self, writers: &mut HashMap<Vec<i64>, Vec<i64>>, o: &Operand, blk: &[i64], p: &[i64]) -> Result<()> {
        let first = writers.entry(blk.to_vec()).or_insert_with(|| p.to_vec());
        let parallel = |d: usize| {
            matches!(self.kernel.dimension_semantics.get(d), Some(DimensionSemantics::Parallel | DimensionSemantics::CoreParallel))
        };
        if let Some(d) = (0..p.len()).find(|&d| parallel(d) && first[d] != p[d]) {
            return Err(err(
                self.kernel,
                format!(
                    "{} block {} is written at grid points {} and {}, which differ on parallel axis {d}: on {} the parallel axes are split \
                     across its {} TensorCores, which would race on the block (make axis {d} `arbitrary`, or give each step its own block)",
                    o.name,
                    point_str(blk),
                    point_str(first),
                    point_str(p),
                    self.generation.name,
                    self.generation.cores
                ),
            ));
        }
        Ok(())
    }

    /// Pallas' revisit check for output `o` at grid point `p`: block `blk`,
    /// if not the block of the step before (`prev`), must not have been
    /// visited yet. Records the visit in `visited`.
    fn check_revisit(
        &self,
        visited: &mut HashMap<Vec<i64>, Visits>,
        o: &Operand,
        prev: Option<&[i64]>,
        blk: &[i64],
        p: &[i64],
    ) -> Result<()> {
        if prev != Some(blk)
            && let Some((first, last)) = visited.get(blk)
        {
            return Err(err(
                self.kernel,
                format!(
                    "{} block {} is revisited at grid point {} after other blocks were written; it was visited at grid points {} through {}. \
                     An output block must be visited in consecutive steps (make the axes that revisit it the innermost, `arbitrary` ones)",
                    o.name,
                    point_str(blk),
                    point_str(p),
                    point_str(first),
                    point_str(last)
                ),
            ));
        }
        visited.entry(blk.to_vec()).and_modify(|e| e.1 = p.to_vec()).or_insert((p.to_vec(), p.to_vec()));
        Ok(())
    }

    /// The outputs, unpadded, encoded as `out_specs` say.
    fn outputs(&self, machine: &Machine, bufs: &Buffers, out_specs: &[TensorSpec]) -> Result<Vec<HostArray>> {
        let nin = self.sig.nin;
        let mut outs = Vec::new();
        for k in nin..self.sig.nops {
            let b = &machine.mem.buffers[bufs.arrays[k]];
            let shape = &bufs.logical_shapes[k];
            let n = checked_count(shape).map_err(|m| err(self.kernel, m))?;
            let mut data = uninitialized_elems(self.operands[k].element, n);
            let zeros = vec![0; shape.len()];
            copy_box(&b.data, &b.shape, &zeros, &mut data, shape, &zeros, shape);
            let spec = &out_specs[k - nin];
            outs.push(HostArray {
                element_type: spec.element_type,
                shape: spec.shape.clone(),
                bytes: encode(&data, self.operands[k].element, spec.element_type).into(),
            });
        }
        Ok(outs)
    }
}

/// The shape of operand `o`'s array (`shape`) padded to whole blocks; a
/// whole operand must have the ref's shape.
fn padded_shape(kernel: &TpuKernel, o: &Operand, shape: &[i64]) -> Result<Vec<i64>> {
    Ok(match &o.window {
        Some(w) => {
            if shape.len() != o.ref_shape.len() {
                return Err(err(
                    kernel,
                    format!("{} has rank {}, its blocks {:?} rank {}", o.name, shape.len(), o.ref_shape, o.ref_shape.len()),
                ));
            }
            if w.element {
                // `pl.Element` windows start anywhere: the array is not
                // padded; a window reaching past its end reads uninitialized
                // values there and writes nothing there.
                return Ok(shape.to_vec());
            }
            shape.iter().zip(&o.ref_shape).map(|(&n, &b)| if b > 0 { ((n + b - 1) / b).max(0) * b } else { n }).collect()
        }
        None => {
            if shape != o.ref_shape {
                return Err(err(kernel, format!("{} is {:?}; the kernel takes it whole as {:?}", o.name, shape, o.ref_shape)));
            }
            shape.to_vec()
        }
    })
}

/// At exit every started DMA must have been waited for and every semaphore
/// must be zero.
fn check_exit(kernel: &TpuKernel, machine: &Machine) -> Result<()> {
    let unfinished = machine.mem.unfinished_dmas();
    if !unfinished.is_empty() {
        return Err(err(kernel, format!("at kernel exit {} never waited for", unfinished.join(", "))));
    }
    let nonzero = machine.mem.nonzero_semaphores();
    if let Some((name, i, c)) = nonzero.first() {
        return Err(err(kernel, format!("semaphore {i} of `{name}` is {c} at kernel exit (every signal must be waited for)")));
    }
    Ok(())
}

/// The first and last grid points that visited an output block.
type Visits = (Vec<i64>, Vec<i64>);

/// Two distinct buffers, mutably.
fn two(bufs: &mut [Buffer], a: usize, b: usize) -> (&mut Buffer, &mut Buffer) {
    if a < b {
        let (x, y) = bufs.split_at_mut(b);
        (&mut x[a], &mut y[0])
    } else {
        let (x, y) = bufs.split_at_mut(a);
        (&mut y[0], &mut x[b])
    }
}
