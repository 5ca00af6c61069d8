//! A Mosaic kernel module as data: what `floors::tpu_import` reads out of a
//! parsed `tpu`-dialect module and what [`super::interp`] runs. No MLIR here.
//!
//! The form is SSA like the IR it comes from: every value has a [`ValueId`]
//! (unique within its function), blocks have typed arguments, and each op
//! names its operands by id and carries the attributes it needs as typed
//! fields. Structured control flow (`scf.for/if/while`) keeps its regions as
//! nested [`Block`]s. Every op keeps its source location (`file:line:col`, or
//! empty) so run-time errors can point at it.

use serde::{Deserialize, Serialize};

/// A value's id, unique within its [`Function`].
pub type ValueId = u32;
/// An index into [`TpuKernel::functions`].
pub type FuncId = usize;

/// Element types of scalars, vectors and memrefs. Integers are signless, as
/// in MLIR's arith: each op says how it reads them (`divsi` vs `divui`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScalarType {
    I1,
    I8,
    I16,
    I32,
    I64,
    /// MLIR's `index` (64-bit here).
    Index,
    F16,
    Bf16,
    F32,
    F64,
}

impl ScalarType {
    pub fn is_float(self) -> bool {
        matches!(self, ScalarType::F16 | ScalarType::Bf16 | ScalarType::F32 | ScalarType::F64)
    }

    /// Bits of the type (index: 64).
    pub fn bits(self) -> u32 {
        match self {
            ScalarType::I1 => 1,
            ScalarType::I8 => 8,
            ScalarType::I16 | ScalarType::F16 | ScalarType::Bf16 => 16,
            ScalarType::I32 | ScalarType::F32 => 32,
            ScalarType::I64 | ScalarType::Index | ScalarType::F64 => 64,
        }
    }

    /// Bytes one element takes in memory (i1: one byte).
    pub fn bytes(self) -> u64 {
        (self.bits() as u64).div_ceil(8)
    }

    pub fn name(self) -> &'static str {
        match self {
            ScalarType::I1 => "i1",
            ScalarType::I8 => "i8",
            ScalarType::I16 => "i16",
            ScalarType::I32 => "i32",
            ScalarType::I64 => "i64",
            ScalarType::Index => "index",
            ScalarType::F16 => "f16",
            ScalarType::Bf16 => "bf16",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
        }
    }
}

/// `#tpu.memory_space<...>`; a memref without one is in VMEM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MemorySpace {
    Any,
    Vmem,
    Smem,
    Hbm,
    Cmem,
    SemaphoreMem,
    VmemShared,
    Host,
}

impl MemorySpace {
    pub fn name(self) -> &'static str {
        match self {
            MemorySpace::Any => "any",
            MemorySpace::Vmem => "vmem",
            MemorySpace::Smem => "smem",
            MemorySpace::Hbm => "hbm",
            MemorySpace::Cmem => "cmem",
            MemorySpace::SemaphoreMem => "semaphore_mem",
            MemorySpace::VmemShared => "vmem_shared",
            MemorySpace::Host => "host",
        }
    }
}

/// What a memref holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MemElement {
    Scalar(ScalarType),
    /// `!tpu.semaphore`: a counting semaphore.
    Semaphore,
    /// `!tpu.dma_semaphore`: counts the bytes DMAs have delivered.
    DmaSemaphore,
}

impl MemElement {
    pub fn name(self) -> &'static str {
        match self {
            MemElement::Scalar(s) => s.name(),
            MemElement::Semaphore => "!tpu.semaphore",
            MemElement::DmaSemaphore => "!tpu.dma_semaphore",
        }
    }
}

/// The static type of a value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Type {
    Scalar(ScalarType),
    Vector {
        shape: Vec<i64>,
        element: ScalarType,
    },
    /// A memref with a static shape and the identity (row-major) layout.
    MemRef {
        shape: Vec<i64>,
        element: MemElement,
        memory_space: MemorySpace,
    },
    /// A bare `!tpu.semaphore` / `!tpu.dma_semaphore` value.
    Semaphore {
        dma: bool,
    },
}

impl Type {
    pub fn describe(&self) -> String {
        let dims = |s: &[i64]| s.iter().map(|d| format!("{d}x")).collect::<String>();
        match self {
            Type::Scalar(s) => s.name().to_string(),
            Type::Vector { shape, element } => format!("vector<{}{}>", dims(shape), element.name()),
            Type::MemRef { shape, element, memory_space } => {
                format!("memref<{}{}, #tpu.memory_space<{}>>", dims(shape), element.name(), memory_space.name())
            }
            Type::Semaphore { dma: true } => "!tpu.dma_semaphore".into(),
            Type::Semaphore { dma: false } => "!tpu.semaphore".into(),
        }
    }

    /// Element type of a scalar or vector.
    pub fn element(&self) -> Option<ScalarType> {
        match self {
            Type::Scalar(s) | Type::Vector { element: s, .. } => Some(*s),
            _ => None,
        }
    }
}

/// `#tpu.dimension_semantics<...>` of one grid axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DimensionSemantics {
    Parallel,
    Arbitrary,
    CoreParallel,
    SubcoreParallel,
}

/// One entry of the kernel's `window_params`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowParam {
    /// The index map (`transform_indices = @transform_i`); None for `{}`.
    pub transform_indices: Option<FuncId>,
    /// The block shape (`window_bounds`); None for `{}` (whole array).
    pub window_bounds: Option<Vec<i64>>,
    /// `pipeline_mode = #tpu.pipeline_mode<synchronous>` means one buffer
    /// instead of two (counted by the VMEM budget).
    pub single_buffered: bool,
    /// `window_kind = #tpu.element_window<[low], [high]>` (`pl.Element`):
    /// the index map returns element offsets, not block indices; the
    /// padding per dimension. None for blocked windows.
    #[serde(default)]
    pub element_window: Option<ElementWindow>,
}

/// A `pl.Element` window's padding (`#tpu.element_window<[low], [high]>`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElementWindow {
    pub pad_low: Vec<i64>,
    pub pad_high: Vec<i64>,
}

/// A constant's payload: one value (a scalar, or a splat over the result
/// vector's shape) or every element, row-major.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Constant {
    Int(i64),
    Float(f64),
    Ints(Vec<i64>),
    Floats(Vec<f64>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BinaryOp {
    AddI,
    SubI,
    MulI,
    DivSI,
    DivUI,
    RemSI,
    RemUI,
    FloorDivSI,
    CeilDivSI,
    CeilDivUI,
    AndI,
    OrI,
    XOrI,
    ShLI,
    ShRSI,
    ShRUI,
    MaxSI,
    MinSI,
    MaxUI,
    MinUI,
    AddF,
    SubF,
    MulF,
    DivF,
    RemF,
    /// `arith.maximumf` (NaN wins).
    MaximumF,
    MinimumF,
    /// `arith.maxnumf` (a number wins over NaN).
    MaxNumF,
    MinNumF,
    PowF,
    Atan2,
    CopySign,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnaryOp {
    NegF,
    AbsF,
    AbsI,
    Exp,
    Exp2,
    ExpM1,
    Log,
    Log2,
    Log10,
    Log1p,
    Tanh,
    Sqrt,
    Rsqrt,
    Erf,
    Sin,
    Cos,
    Tan,
    Atan,
    Floor,
    Ceil,
    Round,
    RoundEven,
    Trunc,
    /// `tpu.reciprocal` (exact here, also when `approx`).
    Reciprocal,
    /// `math.ctlz`, `math.cttz`, `math.ctpop`.
    CountLeadingZeros,
    CountTrailingZeros,
    PopCount,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CastOp {
    ExtUI,
    ExtSI,
    TruncI,
    SIToFP,
    UIToFP,
    /// Toward zero, saturating at the type's range (NaN → 0), as XLA does.
    FPToSI,
    FPToUI,
    ExtF,
    TruncF,
    IndexCast,
    IndexCastUI,
    Bitcast,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CmpIPredicate {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CmpFPredicate {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

/// A reduction's combiner (`vector.multi_reduction <add>`, `tpu.all_reduce`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CombiningKind {
    Add,
    Mul,
    MinUI,
    MinSI,
    MinNumF,
    MaxUI,
    MaxSI,
    MaxNumF,
    And,
    Or,
    Xor,
    MinimumF,
    MaximumF,
}

/// `#tpu.dot_dimension_numbers<lhs_contracting, rhs_contracting,
/// lhs_non_contracting, rhs_non_contracting, output_dim_order, lhs_batch,
/// rhs_batch>`; `output_dim_order` is (operand: 0 lhs / 1 rhs, dim) per
/// output dimension.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DotDimensionNumbers {
    pub lhs_contracting_dims: Vec<i64>,
    pub rhs_contracting_dims: Vec<i64>,
    pub lhs_non_contracting_dims: Vec<i64>,
    pub rhs_non_contracting_dims: Vec<i64>,
    pub output_dim_order: Vec<(i64, i64)>,
    pub lhs_batch_dims: Vec<i64>,
    pub rhs_batch_dims: Vec<i64>,
}

/// What an op does, with its operands (value ids) and attributes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum OpKind {
    // ---- arith / math
    /// `arith.constant`; the result type gives the shape.
    Constant(Constant),
    Binary {
        op: BinaryOp,
        lhs: ValueId,
        rhs: ValueId,
    },
    Unary {
        op: UnaryOp,
        operand: ValueId,
    },
    /// `math.fma`: a * b + c.
    Fma {
        a: ValueId,
        b: ValueId,
        c: ValueId,
    },
    CmpI {
        predicate: CmpIPredicate,
        lhs: ValueId,
        rhs: ValueId,
    },
    CmpF {
        predicate: CmpFPredicate,
        lhs: ValueId,
        rhs: ValueId,
    },
    /// `arith.select` (scalar or elementwise condition).
    Select {
        condition: ValueId,
        true_value: ValueId,
        false_value: ValueId,
    },
    Cast {
        op: CastOp,
        operand: ValueId,
    },

    // ---- vector
    /// `vector.load` / `tpu.vector_load` / `tpu.strided_load` (optional
    /// mask: masked-off elements read 0; `strides` per dim, empty = 1s).
    VectorLoad {
        base: ValueId,
        indices: Vec<ValueId>,
        mask: Option<ValueId>,
        strides: Vec<i64>,
    },
    /// `vector.store` / `tpu.vector_store` / `tpu.strided_store` (optional
    /// mask; `add` accumulates into memory).
    VectorStore {
        value: ValueId,
        base: ValueId,
        indices: Vec<ValueId>,
        mask: Option<ValueId>,
        strides: Vec<i64>,
        add: bool,
    },
    /// `vector.broadcast` (scalar or lower-rank / size-1 dims) and `vector.splat`.
    Broadcast {
        source: ValueId,
    },
    /// `vector.shape_cast`, `tpu.reshape`: same elements, new shape.
    ShapeCast {
        source: ValueId,
    },
    /// `vector.multi_reduction <kind>, %src, %acc [dims]`.
    MultiReduction {
        kind: CombiningKind,
        source: ValueId,
        acc: ValueId,
        dims: Vec<i64>,
    },
    /// `vector.reduction <kind>, %v [, %acc]` to a scalar.
    Reduction {
        kind: CombiningKind,
        vector: ValueId,
        acc: Option<ValueId>,
    },
    /// `vector.transpose` / `tpu.transpose`.
    Transpose {
        vector: ValueId,
        permutation: Vec<i64>,
    },
    /// `vector.extract %v[pos]` (static positions; `None` entries are dynamic,
    /// taken in order from `dynamic`).
    Extract {
        vector: ValueId,
        position: Vec<Option<i64>>,
        dynamic: Vec<ValueId>,
    },
    /// `vector.insert %value, %dest[pos]`.
    Insert {
        value: ValueId,
        dest: ValueId,
        position: Vec<Option<i64>>,
        dynamic: Vec<ValueId>,
    },
    ExtractStridedSlice {
        vector: ValueId,
        offsets: Vec<i64>,
        sizes: Vec<i64>,
        strides: Vec<i64>,
    },
    /// `vector.insert_strided_slice %value, %dest {offsets, strides}`: `dest`
    /// with the trailing-aligned block at `offsets` replaced by `value`.
    InsertStridedSlice {
        value: ValueId,
        dest: ValueId,
        offsets: Vec<i64>,
        strides: Vec<i64>,
    },
    /// `tpu.dynamic_rotate %v by %amount dim d` (`pltpu.roll`): element i
    /// of the result along `dimension` is element (i - amount) mod n of
    /// `value`; with `stride` s along `stride_dimension`, slice j along it
    /// rotates by amount + j·s.
    DynamicRotate {
        value: ValueId,
        amount: ValueId,
        dimension: i64,
        stride: Option<(i64, i64)>,
    },
    /// `tpu.reduce_index {axis, kind = arg_max|arg_min}`: the index of the
    /// first largest (smallest) element along `axis`, NaN counting as the
    /// largest and smallest (`jnp.argmax`/`argmin`); i32, `axis` removed.
    ReduceIndex {
        input: ValueId,
        axis: i64,
        arg_max: bool,
    },
    /// `tpu.dynamic_gather %source[%indices] in [d]` (`jnp.take_along_axis`
    /// in a kernel): result[i] = source[i with its coordinate along `d`
    /// replaced by indices[i]].
    DynamicGather {
        source: ValueId,
        indices: ValueId,
        dimension: i64,
    },
    /// `tpu.iteration_bound {dim}`: the grid's size along `dim`.
    IterationBound {
        dim: i64,
    },
    /// `tpu.concatenate %a, %b, ... in d`.
    Concatenate {
        sources: Vec<ValueId>,
        dimension: i64,
    },
    /// `tpu.bitcast` / `arith.bitcast` of a vector to another element
    /// width: the bits reinterpreted, the second-minor dimension scaled by
    /// the width ratio (Mosaic's rule: 32-bit rows pack 32/bits values).
    VectorBitcast {
        source: ValueId,
    },
    /// `tpu.iota {dimensions}` / `vector.step`: the index along the dims.
    Iota {
        dimensions: Vec<i64>,
    },
    /// `tpu.matmul %lhs, %rhs, %acc`: acc + lhs·rhs.
    Matmul {
        lhs: ValueId,
        rhs: ValueId,
        acc: ValueId,
        dimension_numbers: Option<DotDimensionNumbers>,
        transpose_lhs: bool,
        transpose_rhs: bool,
    },
    /// `tpu.all_reduce {dim, kind}`: reduce along `dim`, broadcast back.
    AllReduce {
        input: ValueId,
        dim: i64,
        kind: CombiningKind,
    },

    // ---- memref
    /// `memref.load` (and `tpu.sem_read` reads through [`OpKind::SemRead`]).
    MemRefLoad {
        base: ValueId,
        indices: Vec<ValueId>,
    },
    MemRefStore {
        value: ValueId,
        base: ValueId,
        indices: Vec<ValueId>,
    },
    /// `tpu.memref_slice %ref[base_idx]`: the result type gives the sizes.
    MemRefSlice {
        base: ValueId,
        base_indices: Vec<ValueId>,
    },
    /// `tpu.memref_squeeze`: drops size-1 dims (the result type says which).
    MemRefSqueeze {
        input: ValueId,
    },
    /// `tpu.memref_reshape`, `tpu.erase_memref_layout`, `tpu.reinterpret_cast`
    /// on contiguous refs: same buffer, the result type's shape.
    MemRefReshape {
        input: ValueId,
    },
    /// `memref.alloca` (VMEM/SMEM, `pl.run_scoped`) and `tpu.sem_alloc`:
    /// a fresh buffer of the result type, uninitialized (semaphores zero),
    /// freed when the enclosing `tpu.region` ends.
    Alloca,

    // ---- DMA and semaphores
    EnqueueDma {
        source: ValueId,
        target: ValueId,
        source_semaphore: Option<ValueId>,
        target_semaphore: ValueId,
    },
    /// `tpu.wait_dma2 semaphore(..) src(..) dst(..)`.
    WaitDma {
        semaphore: ValueId,
        src: ValueId,
        dst: ValueId,
    },
    SemSignal {
        semaphore: ValueId,
        amount: ValueId,
    },
    SemWait {
        semaphore: ValueId,
        amount: ValueId,
    },
    SemRead {
        semaphore: ValueId,
    },

    // ---- control flow
    /// `scf.for %iv = %lb to %ub step %s iter_args(...)`: `body`'s arguments
    /// are the induction variable then the carried values.
    For {
        lower: ValueId,
        upper: ValueId,
        step: ValueId,
        inits: Vec<ValueId>,
        #[serde(deserialize_with = "nested")]
        body: Block,
    },
    /// `tpu.region`: a scope (`pl.run_scoped`); buffers allocated in it
    /// live until it ends.
    Region {
        #[serde(deserialize_with = "nested")]
        body: Block,
    },
    If {
        condition: ValueId,
        #[serde(deserialize_with = "nested")]
        then_block: Block,
        #[serde(deserialize_with = "nested")]
        else_block: Option<Block>,
    },
    /// `scf.while`: `before` ends in `scf.condition`, `after` in `scf.yield`.
    While {
        inits: Vec<ValueId>,
        #[serde(deserialize_with = "nested")]
        before: Block,
        #[serde(deserialize_with = "nested")]
        after: Block,
    },
    /// `scf.yield`.
    Yield {
        values: Vec<ValueId>,
    },
    /// `scf.condition(%c) %args`.
    Condition {
        condition: ValueId,
        args: Vec<ValueId>,
    },
    /// `func.call`.
    Call {
        callee: FuncId,
        args: Vec<ValueId>,
    },
    /// `func.return`.
    Return {
        values: Vec<ValueId>,
    },
    /// Ops with no effect in an interpreter (`tpu.assume_multiple` passes its
    /// operand through; `tpu.trace_start/stop`, `tpu.delay`, `tpu.log`, ...
    /// have no results). Results, if any, are the operands, in order.
    Nop {
        operands: Vec<ValueId>,
    },
}

thread_local! {
    static DECODE_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Deserializes a nested region, counting levels on this thread, so a
/// crafted artifact cannot overflow the stack: deeper than
/// [`super::interp::MAX_NESTING`] is a decoding error (the interpreter
/// refuses the same depth).
fn nested<'de, D, T>(d: D) -> std::result::Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    let depth = DECODE_DEPTH.with(|c| c.get()) + 1;
    if depth > super::interp::MAX_NESTING {
        return Err(serde::de::Error::custom(format!("Mosaic kernel regions nested deeper than {} levels", super::interp::MAX_NESTING)));
    }
    DECODE_DEPTH.with(|c| c.set(depth));
    let r = T::deserialize(d);
    DECODE_DEPTH.with(|c| c.set(depth - 1));
    r
}

/// One operation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Op {
    /// The MLIR op name (`vector.load`), for messages.
    pub name: String,
    /// `file:line:col`, or empty.
    pub location: String,
    pub kind: OpKind,
    pub results: Vec<(ValueId, Type)>,
}

/// A block: typed arguments and ops, the last one its terminator (if any;
/// an `scf.if` without results may omit its `scf.yield`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub args: Vec<(ValueId, Type)>,
    pub ops: Vec<Op>,
}

/// A `func.func`: the kernel or one of its index maps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Function {
    pub name: String,
    pub location: String,
    pub results: Vec<Type>,
    pub body: Block,
    /// One past the largest value id used (the size of a value table).
    pub num_values: u32,
}

impl Function {
    pub fn arg_types(&self) -> impl Iterator<Item = &Type> {
        self.body.args.iter().map(|(_, t)| t)
    }
}

/// A Mosaic kernel module: its functions and the kernel's pipeline
/// attributes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TpuKernel {
    pub functions: Vec<Function>,
    /// The kernel (the function carrying the pipeline attributes).
    pub entry: FuncId,
    /// `iteration_bounds`; empty for a grid-less kernel (one invocation).
    pub iteration_bounds: Vec<i64>,
    /// `dimension_semantics`, one per grid axis (or empty).
    pub dimension_semantics: Vec<DimensionSemantics>,
    /// `window_params`, one per input/output operand; empty when the kernel
    /// has none (every operand is then whole).
    pub window_params: Vec<WindowParam>,
    /// `scalar_prefetch`.
    pub scalar_prefetch: usize,
    /// `scratch_operands`.
    pub scratch_operands: usize,
    /// The `pallas_call`'s `input_output_aliases` (the custom call's
    /// `output_operand_aliases`): (operand index of the call, counting the
    /// scalar-prefetch operands; output index). An aliased output starts as
    /// its operand: blocks the grid does not write keep the input.
    #[serde(default)]
    pub input_output_aliases: Vec<(usize, usize)>,
    /// The kernel's own scoped VMEM limit (`vmem_limit_bytes`, handed off
    /// as `scoped_memory_configs`); None: the generation's default.
    #[serde(default)]
    pub vmem_limit_bytes: Option<u64>,
}

impl TpuKernel {
    /// The kernel function (None if `entry` is out of range).
    pub fn kernel(&self) -> Option<&Function> {
        self.functions.get(self.entry)
    }

    pub fn name(&self) -> &str {
        self.kernel().map_or("<no kernel>", |f| f.name.as_str())
    }
}
