//! From a parsed Mosaic kernel module (`tpu` dialect + func/arith/math/
//! vector/memref/scf, as `NAME.mosaic.mlir` holds it) to the runtime's data
//! form [`TpuKernel`], which `floors_runtime::tpu` interprets.
//!
//! Everything is read through op names, operand lists (with
//! `operandSegmentSizes` where ops have optional operands) and typed
//! attribute accessors of MLIR's C API; the `tpu` dialect's own attributes
//! through `dialects/tpu/TpuCAPI.h`, the `#vector.kind` combiner through
//! `ir/cxx/FloorsVectorCAPI.h`.
//! An op the interpreter does not know is an error at the op's location.

use std::collections::HashMap;

use floors_runtime::tpu::kernel::*;
use mlir_sys::*;

use floors_ir::{
    capi,
    error::{Error, Result},
    ir::raw,
};

/// The pipeline attributes that make a `func.func` a Mosaic kernel.
const KERNEL_ATTRS: [&str; 3] = ["window_params", "iteration_bounds", "dimension_semantics"];

fn err(op: MlirOperation, message: impl std::fmt::Display) -> Error {
    Error::At { location: raw::location_string(op), message: message.to_string() }
}

/// The top-level `func.func`s of `module` (a builtin.module op).
fn functions(module: MlirOperation) -> Vec<MlirOperation> {
    raw::region_blocks(module).into_iter().flat_map(raw::block_ops).filter(|&op| raw::name(op) == "func.func").collect()
}

/// Whether `module` is a Mosaic kernel module: a top-level function carries
/// `window_params`, `iteration_bounds` or `dimension_semantics`.
pub fn is_mosaic_kernel_module(module: MlirOperation) -> bool {
    functions(module).into_iter().any(|f| KERNEL_ATTRS.iter().any(|a| raw::attr(f, a).is_some()))
}

fn string_ref(s: MlirStringRef) -> String {
    raw::string(s)
}

/// Integers of a DenseI32/I64 array, an int elements attr or an array of
/// IntegerAttrs.
fn ints_of(a: MlirAttribute) -> Option<Vec<i64>> {
    // SAFETY: `a` is a live attribute; each array getter runs only after the `IsA` check of that array kind, with `i`
    // below the element count just read.
    unsafe {
        if mlirAttributeIsADenseI32Array(a) {
            let n = mlirDenseArrayGetNumElements(a);
            return Some((0..n).map(|i| mlirDenseI32ArrayGetElement(a, i) as i64).collect());
        }
        if mlirAttributeIsADenseBoolArray(a) {
            let n = mlirDenseArrayGetNumElements(a);
            return Some((0..n).map(|i| mlirDenseBoolArrayGetElement(a, i) as i64).collect());
        }
    }
    raw::i64s_of(a)
}

fn bool_attr(op: MlirOperation, name: &str) -> bool {
    // SAFETY: `a` is the non-null attribute `name` of the live op `op`; its value is read only once it is known to be a
    // BoolAttr.
    raw::attr(op, name).is_some_and(|a| unsafe { mlirAttributeIsABool(a) && mlirBoolAttrGetValue(a) })
}

fn scalar_type(t: MlirType) -> Option<ScalarType> {
    // SAFETY: `t` is a live type; the width is read only of an integer type.
    unsafe {
        Some(if mlirTypeIsAIndex(t) {
            ScalarType::Index
        } else if mlirTypeIsAF32(t) {
            ScalarType::F32
        } else if mlirTypeIsABF16(t) {
            ScalarType::Bf16
        } else if mlirTypeIsAF16(t) {
            ScalarType::F16
        } else if mlirTypeIsAF64(t) {
            ScalarType::F64
        } else if mlirTypeIsAInteger(t) {
            match mlirIntegerTypeGetWidth(t) {
                1 => ScalarType::I1,
                8 => ScalarType::I8,
                16 => ScalarType::I16,
                32 => ScalarType::I32,
                64 => ScalarType::I64,
                _ => return None,
            }
        } else {
            return None;
        })
    }
}

fn memory_space(a: MlirAttribute) -> Option<MemorySpace> {
    if a.ptr.is_null() {
        return Some(MemorySpace::Vmem);
    }
    // SAFETY: `a` is a live, non-null attribute (checked above); the C side returns "" for anything but a
    // #tpu.memory_space, and the keywords it returns are static strings.
    Some(match string_ref(unsafe { capi::floorsTpuMemorySpaceName(a) }).as_str() {
        "any" => MemorySpace::Any,
        "vmem" => MemorySpace::Vmem,
        "smem" => MemorySpace::Smem,
        "hbm" => MemorySpace::Hbm,
        "cmem" => MemorySpace::Cmem,
        "semaphore_mem" => MemorySpace::SemaphoreMem,
        "vmem_shared" => MemorySpace::VmemShared,
        "host" => MemorySpace::Host,
        _ => return None,
    })
}

/// The data form of an MLIR type, or a message saying why not.
fn convert_type(t: MlirType) -> std::result::Result<Type, String> {
    let text = || raw::type_text(t);
    if let Some(s) = scalar_type(t) {
        return Ok(Type::Scalar(s));
    }
    // SAFETY: `t` is a live type; the C side returns 0 for anything but a semaphore type.
    match unsafe { capi::floorsTpuSemaphoreKind(t) } {
        1 => return Ok(Type::Semaphore { dma: false }),
        2 => return Ok(Type::Semaphore { dma: true }),
        _ => {}
    }
    // SAFETY: `t` is a live type; the shaped-type getters run only on a vector or a memref (checked first), with `d`
    // below its rank; `mlirVectorTypeIsScalable` only on a vector, the memref getters only on a memref, and the
    // layout's map only after the null and `IsAAffineMap` checks.
    unsafe {
        if mlirTypeIsAVector(t) || mlirTypeIsAMemRef(t) {
            let rank = mlirShapedTypeGetRank(t);
            let mut shape = Vec::new();
            for d in 0..rank as isize {
                if mlirShapedTypeIsDynamicDim(t, d) {
                    return Err(format!("{} has a dynamic dimension", text()));
                }
                shape.push(mlirShapedTypeGetDimSize(t, d));
            }
            let e = mlirShapedTypeGetElementType(t);
            if mlirTypeIsAVector(t) {
                if mlirVectorTypeIsScalable(t) {
                    return Err(format!("{} is scalable", text()));
                }
                let element = scalar_type(e).ok_or_else(|| format!("{}: unsupported element type", text()))?;
                return Ok(Type::Vector { shape, element });
            }
            let element = match capi::floorsTpuSemaphoreKind(e) {
                1 => MemElement::Semaphore,
                2 => MemElement::DmaSemaphore,
                _ => MemElement::Scalar(scalar_type(e).ok_or_else(|| format!("{}: unsupported element type", text()))?),
            };
            let layout = mlirMemRefTypeGetLayout(t);
            if !layout.ptr.is_null() && mlirAttributeIsAAffineMap(layout) && !mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(layout)) {
                return Err(format!("{}: only the identity layout is supported", text()));
            }
            let space = memory_space(mlirMemRefTypeGetMemorySpace(t)).ok_or_else(|| format!("{}: unknown memory space", text()))?;
            return Ok(Type::MemRef { shape, element, memory_space: space });
        }
    }
    Err(format!("unsupported type {}", text()))
}

fn combining_kind(op: MlirOperation, elem: Option<ScalarType>) -> Result<CombiningKind> {
    let a = raw::attr(op, "kind").ok_or_else(|| err(op, format!("`{}` has no `kind`", raw::name(op))))?;
    let float = elem.is_some_and(|e| e.is_float());
    // SAFETY: `a` is the non-null `kind` attribute of the live op `op`; the C side returns "" for anything but a
    // #vector.kind, and the keywords are static strings.
    let k = string_ref(unsafe { capi::floorsVectorCombiningKind(a) });
    let kind = if k.is_empty() {
        // tpu.all_reduce: #tpu.reduction_kind<sum|max|min|...>.
        // SAFETY: as above; "" for anything but a #tpu.reduction_kind.
        match string_ref(unsafe { capi::floorsTpuReductionKindName(a) }).as_str() {
            "sum" => CombiningKind::Add,
            "max" if float => CombiningKind::MaximumF,
            "max" => CombiningKind::MaxSI,
            "min" if float => CombiningKind::MinimumF,
            "min" => CombiningKind::MinSI,
            other => return Err(err(op, format!("`{}`: reduction kind `{other}` is not supported by the interpreter", raw::name(op)))),
        }
    } else {
        match k.as_str() {
            "add" => CombiningKind::Add,
            "mul" => CombiningKind::Mul,
            "minui" => CombiningKind::MinUI,
            "minsi" => CombiningKind::MinSI,
            "minnumf" => CombiningKind::MinNumF,
            "maxui" => CombiningKind::MaxUI,
            "maxsi" => CombiningKind::MaxSI,
            "maxnumf" => CombiningKind::MaxNumF,
            "and" => CombiningKind::And,
            "or" => CombiningKind::Or,
            "xor" => CombiningKind::Xor,
            "minimumf" => CombiningKind::MinimumF,
            "maximumf" => CombiningKind::MaximumF,
            other => return Err(err(op, format!("unknown combining kind `{other}`"))),
        }
    };
    Ok(kind)
}

fn binary_op(name: &str) -> Option<BinaryOp> {
    use BinaryOp::*;
    Some(match name {
        "arith.addi" => AddI,
        "arith.subi" => SubI,
        "arith.muli" => MulI,
        "arith.divsi" => DivSI,
        "arith.divui" => DivUI,
        "arith.remsi" => RemSI,
        "arith.remui" => RemUI,
        "arith.floordivsi" => FloorDivSI,
        "arith.ceildivsi" => CeilDivSI,
        "arith.ceildivui" => CeilDivUI,
        "arith.andi" => AndI,
        "arith.ori" => OrI,
        "arith.xori" => XOrI,
        "arith.shli" => ShLI,
        "arith.shrsi" => ShRSI,
        "arith.shrui" => ShRUI,
        "arith.maxsi" => MaxSI,
        "arith.minsi" => MinSI,
        "arith.maxui" => MaxUI,
        "arith.minui" => MinUI,
        "arith.addf" => AddF,
        "arith.subf" => SubF,
        "arith.mulf" => MulF,
        "arith.divf" => DivF,
        "arith.remf" => RemF,
        "arith.maximumf" => MaximumF,
        "arith.minimumf" => MinimumF,
        "arith.maxnumf" => MaxNumF,
        "arith.minnumf" => MinNumF,
        "math.powf" => PowF,
        "math.atan2" => Atan2,
        "math.copysign" => CopySign,
        _ => return None,
    })
}

fn unary_op(name: &str) -> Option<UnaryOp> {
    use UnaryOp::*;
    Some(match name {
        "arith.negf" => NegF,
        "math.absf" => AbsF,
        "math.absi" => AbsI,
        "math.exp" => Exp,
        "math.exp2" => Exp2,
        "math.expm1" => ExpM1,
        "math.log" => Log,
        "math.log2" => Log2,
        "math.log10" => Log10,
        "math.log1p" => Log1p,
        "math.tanh" => Tanh,
        "math.sqrt" => Sqrt,
        "math.rsqrt" => Rsqrt,
        "math.erf" => Erf,
        "math.sin" => Sin,
        "math.cos" => Cos,
        "math.tan" => Tan,
        "math.atan" => Atan,
        "math.floor" => Floor,
        "math.ceil" => Ceil,
        "math.round" => Round,
        "math.roundeven" => RoundEven,
        "math.trunc" => Trunc,
        "math.ctlz" => CountLeadingZeros,
        "math.cttz" => CountTrailingZeros,
        "math.ctpop" => PopCount,
        "tpu.reciprocal" => Reciprocal,
        _ => return None,
    })
}

fn cast_op(name: &str) -> Option<CastOp> {
    use CastOp::*;
    Some(match name {
        "arith.extui" => ExtUI,
        "arith.extsi" => ExtSI,
        "arith.trunci" => TruncI,
        "arith.sitofp" | "tpu.sitofp" => SIToFP,
        "arith.uitofp" | "tpu.uitofp" => UIToFP,
        "arith.fptosi" | "tpu.fptosi" => FPToSI,
        "arith.fptoui" | "tpu.fptoui" => FPToUI,
        "arith.extf" | "tpu.extf" => ExtF,
        "arith.truncf" | "tpu.truncf" => TruncF,
        "arith.index_cast" => IndexCast,
        "arith.index_castui" => IndexCastUI,
        "arith.bitcast" => Bitcast,
        _ => return None,
    })
}

fn cmpi_predicate(v: i64) -> Option<CmpIPredicate> {
    use CmpIPredicate::*;
    [Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge].get(usize::try_from(v).ok()?).copied()
}

fn cmpf_predicate(v: i64) -> Option<CmpFPredicate> {
    use CmpFPredicate::*;
    [False, Oeq, Ogt, Oge, Olt, Ole, One, Ord, Ueq, Ugt, Uge, Ult, Ule, Une, Uno, True].get(usize::try_from(v).ok()?).copied()
}

/// Reads a constant's `value` attribute.
fn constant(op: MlirOperation, ty: &Type) -> Result<Constant> {
    let a = raw::attr(op, "value").ok_or_else(|| err(op, "`arith.constant` has no value"))?;
    let elem = ty.element().ok_or_else(|| err(op, format!("constant of type {}", ty.describe())))?;
    // SAFETY: `a` is the non-null `value` of the live op `op`; every getter runs after the `IsA` check of its kind,
    // with `i` below the element count read. The typed element getters and the raw 16-bit read go by `elem`, the
    // element type of the op's result type `ty`, which arith.constant's verifier makes the attribute's type too.
    unsafe {
        if mlirAttributeIsAInteger(a) {
            return Ok(Constant::Int(mlirIntegerAttrGetValueInt(a)));
        }
        if mlirAttributeIsABool(a) {
            return Ok(Constant::Int(if mlirBoolAttrGetValue(a) { -1 } else { 0 }));
        }
        if mlirAttributeIsAFloat(a) {
            return Ok(Constant::Float(mlirFloatAttrGetValueDouble(a)));
        }
        if mlirAttributeIsADenseElements(a) {
            if mlirDenseElementsAttrIsSplat(a) {
                let s = mlirDenseElementsAttrGetSplatValue(a);
                if mlirAttributeIsAInteger(s) {
                    return Ok(Constant::Int(if elem == ScalarType::I1 {
                        -(mlirIntegerAttrGetValueInt(s) & 1)
                    } else {
                        mlirIntegerAttrGetValueInt(s)
                    }));
                }
                if mlirAttributeIsAFloat(s) {
                    return Ok(Constant::Float(mlirFloatAttrGetValueDouble(s)));
                }
            }
            let n = mlirElementsAttrGetNumElements(a);
            if n > floors_runtime::tpu::interp::MAX_ELEMENTS as i64 {
                return Err(err(op, "constant too large"));
            }
            let n = n as isize;
            return Ok(match elem {
                ScalarType::I1 => Constant::Ints((0..n).map(|i| if mlirDenseElementsAttrGetBoolValue(a, i) { -1 } else { 0 }).collect()),
                ScalarType::I8 => Constant::Ints((0..n).map(|i| mlirDenseElementsAttrGetInt8Value(a, i) as i64).collect()),
                ScalarType::I16 => Constant::Ints((0..n).map(|i| mlirDenseElementsAttrGetInt16Value(a, i) as i64).collect()),
                ScalarType::I32 => Constant::Ints((0..n).map(|i| mlirDenseElementsAttrGetInt32Value(a, i) as i64).collect()),
                ScalarType::I64 => Constant::Ints((0..n).map(|i| mlirDenseElementsAttrGetInt64Value(a, i)).collect()),
                ScalarType::Index => Constant::Ints((0..n).map(|i| mlirDenseElementsAttrGetIndexValue(a, i) as i64).collect()),
                ScalarType::F32 => Constant::Floats((0..n).map(|i| mlirDenseElementsAttrGetFloatValue(a, i) as f64).collect()),
                ScalarType::F64 => Constant::Floats((0..n).map(|i| mlirDenseElementsAttrGetDoubleValue(a, i)).collect()),
                ScalarType::F16 | ScalarType::Bf16 => {
                    let p = mlirDenseElementsAttrGetRawData(a) as *const u16;
                    if p.is_null() {
                        return Err(err(op, "constant without data"));
                    }
                    let bits = std::slice::from_raw_parts(p, n as usize);
                    Constant::Floats(
                        bits.iter()
                            .map(
                                |&b| {
                                    if elem == ScalarType::F16 {
                                        half::f16::from_bits(b).to_f64()
                                    } else {
                                        half::bf16::from_bits(b).to_f64()
                                    }
                                },
                            )
                            .collect(),
                    )
                }
            });
        }
    }
    Err(err(op, format!("unsupported constant {}", raw::attr_text(a))))
}

/// Builds one function's data form.
struct FuncBuilder<'a> {
    ids: HashMap<*const std::ffi::c_void, ValueId>,
    next: ValueId,
    symbols: &'a HashMap<String, FuncId>,
}

impl FuncBuilder<'_> {
    fn fresh(&mut self, v: MlirValue) -> ValueId {
        let id = self.next;
        self.next += 1;
        self.ids.insert(v.ptr, id);
        id
    }

    fn id(&self, op: MlirOperation, v: MlirValue) -> Result<ValueId> {
        self.ids.get(&v.ptr).copied().ok_or_else(|| err(op, format!("`{}` uses a value defined outside its function", raw::name(op))))
    }

    fn ids(&self, op: MlirOperation, vs: &[MlirValue]) -> Result<Vec<ValueId>> {
        vs.iter().map(|&v| self.id(op, v)).collect()
    }

    fn block(&mut self, owner: MlirOperation, b: MlirBlock) -> Result<Block> {
        let mut args = Vec::new();
        // SAFETY: `b` is a live block of the function being read.
        let n = unsafe { mlirBlockGetNumArguments(b) };
        for i in 0..n {
            // SAFETY: `i` is below the argument count read above.
            let v = unsafe { mlirBlockGetArgument(b, i) };
            // SAFETY: `v` is a live block argument; only its type is read.
            let t = convert_type(unsafe { mlirValueGetType(v) }).map_err(|m| err(owner, m))?;
            args.push((self.fresh(v), t));
        }
        let mut ops = Vec::new();
        for op in raw::block_ops(b) {
            ops.push(self.op(op)?);
        }
        Ok(Block { args, ops })
    }

    /// The single block of region `i` of `op`; None for an empty region.
    fn region(&mut self, op: MlirOperation, i: isize) -> Result<Option<Block>> {
        // SAFETY: `op` is a live op and `i` one of its regions: the callers ask for region 0 of scf.for and tpu.region
        // and regions 0 and 1 of scf.if and scf.while, which those ops have.
        let r = unsafe { mlirOperationGetRegion(op, i) };
        // SAFETY: `r` is a live region of `op`.
        let first = unsafe { mlirRegionGetFirstBlock(r) };
        if first.ptr.is_null() {
            return Ok(None);
        }
        // SAFETY: `first` is a live block, non-null (checked above).
        if !unsafe { mlirBlockGetNextInRegion(first) }.ptr.is_null() {
            return Err(err(op, format!("`{}` has a region with several blocks", raw::name(op))));
        }
        self.block(op, first).map(Some)
    }

    /// The data form of `op`: its operands and result types, then its kind
    /// from the function of its family (`elementwise_kind`, `vector_kind`,
    /// `memory_kind`, `dma_kind`, `control_kind`).
    fn op(&mut self, op: MlirOperation) -> Result<Op> {
        let name = raw::name(op);
        let operands = raw::operands(op);
        let o = self.ids(op, &operands)?;
        let result_types: Vec<Type> = raw::results(op)
            .iter()
            // SAFETY: `v` is a result of the live op `op`; only its type is read.
            .map(|&v| convert_type(unsafe { mlirValueGetType(v) }))
            .collect::<std::result::Result<_, _>>()
            .map_err(|m| err(op, m))?;
        let nres = raw::results(op).len();
        let p = OpParts { op, name, o, result_types, nres };
        let kind = if let Some(k) = elementwise_kind(&p)? {
            k
        } else if let Some(k) = vector_kind(&p)? {
            k
        } else if let Some(k) = memory_kind(&p)? {
            k
        } else if let Some(k) = dma_kind(&p)? {
            k
        } else if let Some(k) = self.control_kind(&p)? {
            k
        } else {
            return Err(err(op, format!("`{}` is not supported by the TPU interpreter", p.name)));
        };
        let OpParts { name, result_types, .. } = p;
        let results = raw::results(op).into_iter().zip(result_types).map(|(v, t)| (self.fresh(v), t)).collect();
        Ok(Op { name, location: raw::location_string(op), kind, results })
    }

    /// `scf` control flow, `func.return` / `func.call`, and the ops that
    /// have no effect in the interpreter; `None` for any other op.
    fn control_kind(&mut self, p: &OpParts) -> Result<Option<OpKind>> {
        let (op, name, o) = (p.op, p.name.as_str(), &p.o);
        Ok(Some(match name {
            "scf.for" => {
                p.need(3)?;
                let body = self.region(op, 0)?.ok_or_else(|| err(op, "scf.for without a body"))?;
                OpKind::For { lower: o[0], upper: o[1], step: o[2], inits: o[3..].to_vec(), body }
            }
            "scf.if" => {
                p.need(1)?;
                let then_block = self.region(op, 0)?.ok_or_else(|| err(op, "scf.if without a then region"))?;
                let else_block = self.region(op, 1)?;
                OpKind::If { condition: o[0], then_block, else_block }
            }
            "scf.while" => {
                let before = self.region(op, 0)?.ok_or_else(|| err(op, "scf.while without a before region"))?;
                let after = self.region(op, 1)?.ok_or_else(|| err(op, "scf.while without an after region"))?;
                OpKind::While { inits: o.clone(), before, after }
            }
            "tpu.region" => {
                let body = self.region(op, 0)?.ok_or_else(|| err(op, "tpu.region without a body"))?;
                OpKind::Region { body }
            }
            "scf.yield" | "tpu.yield" => OpKind::Yield { values: o.clone() },
            "scf.condition" => {
                p.need(1)?;
                OpKind::Condition { condition: o[0], args: o[1..].to_vec() }
            }
            "func.return" => OpKind::Return { values: o.clone() },
            "func.call" => {
                let callee = raw::attr(op, "callee")
                    // SAFETY: `a` is the non-null `callee` of the live op `op`; this only reads its kind.
                    .filter(|&a| unsafe { mlirAttributeIsAFlatSymbolRef(a) })
                    // SAFETY: `a` was checked to be a FlatSymbolRefAttr just above.
                    .map(|a| string_ref(unsafe { mlirFlatSymbolRefAttrGetValue(a) }))
                    .ok_or_else(|| err(op, "func.call without a callee"))?;
                let f =
                    *self.symbols.get(&callee).ok_or_else(|| err(op, format!("calls @{callee}, which is not a function of the module")))?;
                OpKind::Call { callee: f, args: o.clone() }
            }
            "tpu.assume_multiple"
            | "tpu.assume_layout"
            | "tpu.trace_start"
            | "tpu.trace_stop"
            | "tpu.delay"
            | "tpu.log"
            | "tpu.trace_value" => {
                if p.nres > o.len() {
                    return Err(err(op, format!("`{name}` has more results than operands")));
                }
                OpKind::Nop { operands: o.clone() }
            }
            _ => return Ok(None),
        }))
    }
}

/// One op being read: its name, operand ids and result types.
struct OpParts {
    op: MlirOperation,
    name: String,
    o: Vec<ValueId>,
    result_types: Vec<Type>,
    nres: usize,
}

impl OpParts {
    /// At least `k` operands.
    fn need(&self, k: usize) -> Result<()> {
        if self.o.len() < k {
            Err(err(self.op, format!("`{}` has {} operands, expected at least {k}", self.name, self.o.len())))
        } else {
            Ok(())
        }
    }

    /// Operand groups of ops with optional/variadic operands.
    fn segments(&self, expected: usize) -> Result<Vec<Vec<ValueId>>> {
        let (op, name, o) = (self.op, &self.name, &self.o);
        let sizes = raw::attr(op, "operandSegmentSizes")
            .and_then(ints_of)
            .ok_or_else(|| err(op, format!("`{name}` has no operandSegmentSizes")))?;
        if sizes.len() != expected || sizes.iter().any(|&s| s < 0) || sizes.iter().sum::<i64>() as usize != o.len() {
            return Err(err(op, format!("`{name}`: operandSegmentSizes {sizes:?} do not match its {} operands", o.len())));
        }
        let mut out = Vec::new();
        let mut at = 0;
        for s in sizes {
            out.push(o[at..at + s as usize].to_vec());
            at += s as usize;
        }
        Ok(out)
    }

    fn unsupported(&self, what: &str) -> Error {
        err(self.op, format!("`{}`: {what} is not supported by the TPU interpreter", self.name))
    }

    /// The element type of the first result.
    fn elem0(&self) -> Option<ScalarType> {
        self.result_types.first().and_then(|t| t.element())
    }
}

/// `arith` and `math` ops: constants, comparisons, `select`, `fma`, binary
/// and unary arithmetic, casts; `None` for any other op.
fn elementwise_kind(p: &OpParts) -> Result<Option<OpKind>> {
    let (op, name, o) = (p.op, p.name.as_str(), &p.o);
    Ok(Some(match name {
        "arith.constant" => {
            let t = p.result_types.first().ok_or_else(|| err(op, "constant without a result"))?;
            OpKind::Constant(constant(op, t)?)
        }
        "arith.cmpi" => {
            p.need(2)?;
            let predicate = raw::int_attr(op, "predicate").and_then(cmpi_predicate).ok_or_else(|| err(op, "bad cmpi predicate"))?;
            OpKind::CmpI { predicate, lhs: o[0], rhs: o[1] }
        }
        "arith.cmpf" => {
            p.need(2)?;
            let predicate = raw::int_attr(op, "predicate").and_then(cmpf_predicate).ok_or_else(|| err(op, "bad cmpf predicate"))?;
            OpKind::CmpF { predicate, lhs: o[0], rhs: o[1] }
        }
        "arith.select" => {
            p.need(3)?;
            OpKind::Select { condition: o[0], true_value: o[1], false_value: o[2] }
        }
        "math.fma" => {
            p.need(3)?;
            OpKind::Fma { a: o[0], b: o[1], c: o[2] }
        }
        n if binary_op(n).is_some() => {
            p.need(2)?;
            OpKind::Binary { op: binary_op(n).unwrap_or(BinaryOp::AddI), lhs: o[0], rhs: o[1] }
        }
        n if unary_op(n).is_some() => {
            p.need(1)?;
            OpKind::Unary { op: unary_op(n).unwrap_or(UnaryOp::NegF), operand: o[0] }
        }
        n if cast_op(n).is_some() => {
            p.need(1)?;
            OpKind::Cast { op: cast_op(n).unwrap_or(CastOp::Bitcast), operand: o[0] }
        }
        _ => return Ok(None),
    }))
}

/// Vector value ops: broadcasts, reshapes, reductions, transposes, extracts
/// and inserts, `iota`, `tpu.matmul`, `tpu.all_reduce`; `None` for any other
/// op.
fn vector_kind(p: &OpParts) -> Result<Option<OpKind>> {
    let (op, name, o) = (p.op, p.name.as_str(), &p.o);
    Ok(Some(match name {
        "vector.broadcast" | "vector.splat" => {
            p.need(1)?;
            OpKind::Broadcast { source: o[0] }
        }
        "vector.shape_cast" | "tpu.reshape" => {
            p.need(1)?;
            OpKind::ShapeCast { source: o[0] }
        }
        "vector.multi_reduction" => {
            p.need(2)?;
            let dims = raw::attr(op, "reduction_dims").and_then(ints_of).ok_or_else(|| err(op, "no reduction_dims"))?;
            OpKind::MultiReduction { kind: combining_kind(op, p.elem0())?, source: o[0], acc: o[1], dims }
        }
        "vector.reduction" => {
            p.need(1)?;
            OpKind::Reduction { kind: combining_kind(op, p.elem0())?, vector: o[0], acc: o.get(1).copied() }
        }
        "vector.transpose" | "tpu.transpose" => {
            p.need(1)?;
            let permutation = raw::attr(op, "permutation").and_then(ints_of).ok_or_else(|| err(op, "no permutation"))?;
            OpKind::Transpose { vector: o[0], permutation }
        }
        "vector.extract" => {
            p.need(1)?;
            let pos = raw::attr(op, "static_position").and_then(ints_of).ok_or_else(|| err(op, "no static_position"))?;
            OpKind::Extract { vector: o[0], position: dynamic_positions(&pos), dynamic: o[1..].to_vec() }
        }
        "vector.insert" => {
            p.need(2)?;
            let pos = raw::attr(op, "static_position").and_then(ints_of).ok_or_else(|| err(op, "no static_position"))?;
            OpKind::Insert { value: o[0], dest: o[1], position: dynamic_positions(&pos), dynamic: o[2..].to_vec() }
        }
        "vector.extract_strided_slice" => {
            p.need(1)?;
            let get = |n: &str| raw::attr(op, n).and_then(ints_of).ok_or_else(|| err(op, format!("no {n}")));
            OpKind::ExtractStridedSlice { vector: o[0], offsets: get("offsets")?, sizes: get("sizes")?, strides: get("strides")? }
        }
        "vector.insert_strided_slice" => {
            p.need(2)?;
            let get = |n: &str| raw::attr(op, n).and_then(ints_of).ok_or_else(|| err(op, format!("no {n}")));
            OpKind::InsertStridedSlice { value: o[0], dest: o[1], offsets: get("offsets")?, strides: get("strides")? }
        }
        "tpu.iota" => {
            let dims = raw::attr(op, "dimensions").and_then(ints_of).unwrap_or_default();
            OpKind::Iota { dimensions: dims }
        }
        "vector.step" => OpKind::Iota { dimensions: vec![0] },
        "tpu.dynamic_rotate" => {
            p.need(2)?;
            let dimension = raw::int_attr(op, "dimension").ok_or_else(|| err(op, "no dimension"))?;
            let stride = match (raw::int_attr(op, "stride"), raw::int_attr(op, "stride_dimension")) {
                (Some(s), Some(d)) => Some((s, d)),
                (None, None) => None,
                _ => return Err(err(op, "`tpu.dynamic_rotate` needs both stride and stride_dimension, or neither")),
            };
            OpKind::DynamicRotate { value: o[0], amount: o[1], dimension, stride }
        }
        "tpu.reduce_index" => {
            p.need(1)?;
            let axis = raw::int_attr(op, "axis").ok_or_else(|| err(op, "no axis"))?;
            let a = raw::attr(op, "kind").ok_or_else(|| err(op, "no kind"))?;
            // SAFETY: `a` is the non-null `kind` of the live op `op`; the C side returns "" for anything but a
            // #tpu.reduction_kind.
            let arg_max = match string_ref(unsafe { capi::floorsTpuReductionKindName(a) }).as_str() {
                "arg_max" => true,
                "arg_min" => false,
                other => return Err(p.unsupported(&format!("reduction kind `{other}`"))),
            };
            OpKind::ReduceIndex { input: o[0], axis, arg_max }
        }
        "tpu.dynamic_gather" => {
            p.need(2)?;
            let dims = raw::attr(op, "dimensions").and_then(ints_of).unwrap_or_default();
            let [dimension] = dims[..] else {
                return Err(p.unsupported(&format!("a gather along {} dimensions", dims.len())));
            };
            OpKind::DynamicGather { source: o[0], indices: o[1], dimension }
        }
        "tpu.iteration_bound" => OpKind::IterationBound { dim: raw::int_attr(op, "dim").ok_or_else(|| err(op, "no dim"))? },
        "tpu.concatenate" => {
            p.need(1)?;
            let dimension = raw::int_attr(op, "dimension").ok_or_else(|| err(op, "no dimension"))?;
            OpKind::Concatenate { sources: o.clone(), dimension }
        }
        "tpu.repeat" => {
            p.need(1)?;
            let dimension = raw::int_attr(op, "dimension").ok_or_else(|| err(op, "no dimension"))?;
            let times = raw::int_attr(op, "times").filter(|&t| (1..=1 << 16).contains(&t)).ok_or_else(|| err(op, "times out of range"))?;
            OpKind::Concatenate { sources: vec![o[0]; times as usize], dimension }
        }
        "tpu.bitcast" => {
            p.need(1)?;
            OpKind::VectorBitcast { source: o[0] }
        }
        "tpu.matmul" => {
            p.need(3)?;
            let dn = dot_dimension_numbers(op)?;
            OpKind::Matmul {
                lhs: o[0],
                rhs: o[1],
                acc: o[2],
                dimension_numbers: dn,
                transpose_lhs: bool_attr(op, "transpose_lhs"),
                transpose_rhs: bool_attr(op, "transpose_rhs"),
            }
        }
        "tpu.all_reduce" => {
            p.need(1)?;
            let dim = raw::int_attr(op, "dim").ok_or_else(|| err(op, "no dim"))?;
            OpKind::AllReduce { input: o[0], dim, kind: combining_kind(op, p.elem0())? }
        }
        _ => return Ok(None),
    }))
}

/// `tpu.matmul`'s `dimension_numbers`, if it has them.
fn dot_dimension_numbers(op: MlirOperation) -> Result<Option<DotDimensionNumbers>> {
    match raw::attr(op, "dimension_numbers") {
        // SAFETY: `a` is the non-null `dimension_numbers` of the live op `op`; this only reads its kind.
        Some(a) if unsafe { capi::floorsTpuAttributeIsADotDimensionNumbers(a) } => {
            let arr = |w: i32| -> Vec<i64> {
                // SAFETY: `a` is a #tpu.dot_dimension_numbers (checked above); the C side returns 0 for a list index
                // out of range.
                let n = unsafe { capi::floorsTpuDotDimensionNumbersSize(a, w) };
                // SAFETY: as above; `i` is below the list's size, and the C side returns 0 for an index out of range
                // anyway.
                (0..n).map(|i| unsafe { capi::floorsTpuDotDimensionNumbersElem(a, w, i) }).collect()
            };
            let order = arr(4);
            if order.len() % 2 != 0 {
                return Err(err(op, "output_dim_order has an odd length"));
            }
            Ok(Some(DotDimensionNumbers {
                lhs_contracting_dims: arr(0),
                rhs_contracting_dims: arr(1),
                lhs_non_contracting_dims: arr(2),
                rhs_non_contracting_dims: arr(3),
                output_dim_order: order.chunks(2).map(|c| (c[0], c[1])).collect(),
                lhs_batch_dims: arr(5),
                rhs_batch_dims: arr(6),
            }))
        }
        Some(a) => Err(err(op, format!("dimension_numbers is not a #tpu.dot_dimension_numbers: {}", raw::attr_text(a)))),
        None => Ok(None),
    }
}

/// Loads and stores (`vector`, `tpu`, `memref`) and memref views; `None`
/// for any other op.
fn memory_kind(p: &OpParts) -> Result<Option<OpKind>> {
    let (op, name, o) = (p.op, p.name.as_str(), &p.o);
    Ok(Some(match name {
        "vector.load" => {
            p.need(1)?;
            OpKind::VectorLoad { base: o[0], indices: o[1..].to_vec(), mask: None, strides: vec![] }
        }
        "vector.store" => {
            p.need(2)?;
            OpKind::VectorStore { value: o[0], base: o[1], indices: o[2..].to_vec(), mask: None, strides: vec![], add: false }
        }
        "tpu.vector_load" => {
            let s = p.segments(3)?;
            let strides = raw::attr(op, "strides").and_then(ints_of).unwrap_or_default();
            OpKind::VectorLoad { base: one(op, &s[0])?, indices: s[1].clone(), mask: s[2].first().copied(), strides }
        }
        "tpu.vector_store" => {
            let s = p.segments(4)?;
            let strides = raw::attr(op, "strides").and_then(ints_of).unwrap_or_default();
            OpKind::VectorStore {
                value: one(op, &s[0])?,
                base: one(op, &s[1])?,
                indices: s[2].clone(),
                mask: s[3].first().copied(),
                strides,
                add: bool_attr(op, "add"),
            }
        }
        "tpu.strided_load" => {
            p.need(1)?;
            let strides = raw::attr(op, "strides").and_then(ints_of).unwrap_or_default();
            OpKind::VectorLoad { base: o[0], indices: o[1..].to_vec(), mask: None, strides }
        }
        "tpu.strided_store" => {
            p.need(2)?;
            let strides = raw::attr(op, "strides").and_then(ints_of).unwrap_or_default();
            OpKind::VectorStore { value: o[0], base: o[1], indices: o[2..].to_vec(), mask: None, strides, add: false }
        }
        "memref.load" => {
            p.need(1)?;
            OpKind::MemRefLoad { base: o[0], indices: o[1..].to_vec() }
        }
        "memref.store" => {
            p.need(2)?;
            OpKind::MemRefStore { value: o[0], base: o[1], indices: o[2..].to_vec() }
        }
        "tpu.memref_slice" => {
            let s = p.segments(3)?;
            if !s[2].is_empty() {
                return Err(p.unsupported("a slice with dynamic sizes"));
            }
            OpKind::MemRefSlice { base: one(op, &s[0])?, base_indices: s[1].clone() }
        }
        "memref.alloca" | "tpu.sem_alloc" => {
            if !o.is_empty() {
                return Err(p.unsupported("an allocation with dynamic sizes"));
            }
            OpKind::Alloca
        }
        "tpu.memref_squeeze" => {
            p.need(1)?;
            OpKind::MemRefSqueeze { input: o[0] }
        }
        "tpu.memref_reshape" | "tpu.erase_memref_layout" => {
            p.need(1)?;
            OpKind::MemRefReshape { input: o[0] }
        }
        _ => return Ok(None),
    }))
}

/// DMAs and semaphores on this core; `None` for any other op.
fn dma_kind(p: &OpParts) -> Result<Option<OpKind>> {
    let (op, name, o) = (p.op, p.name.as_str(), &p.o);
    Ok(Some(match name {
        "tpu.enqueue_dma" => {
            let s = p.segments(7)?;
            if s[4..].iter().any(|g| !g.is_empty()) {
                return Err(p.unsupported("a DMA to another device or core"));
            }
            let target_semaphore = s[3].first().copied().ok_or_else(|| p.unsupported("a DMA without a target semaphore"))?;
            OpKind::EnqueueDma {
                source: one(op, &s[0])?,
                source_semaphore: s[1].first().copied(),
                target: one(op, &s[2])?,
                target_semaphore,
            }
        }
        "tpu.wait_dma2" => {
            let s = p.segments(5)?;
            if s[3..].iter().any(|g| !g.is_empty()) {
                return Err(p.unsupported("waiting on another device or core"));
            }
            OpKind::WaitDma { semaphore: one(op, &s[0])?, src: one(op, &s[1])?, dst: one(op, &s[2])? }
        }
        "tpu.sem_signal" => {
            let s = p.segments(5)?;
            if s[2..].iter().any(|g| !g.is_empty()) {
                return Err(p.unsupported("signalling another device or core"));
            }
            OpKind::SemSignal { semaphore: one(op, &s[0])?, amount: one(op, &s[1])? }
        }
        "tpu.sem_wait" => {
            p.need(2)?;
            OpKind::SemWait { semaphore: o[0], amount: o[1] }
        }
        "tpu.sem_read" => {
            p.need(1)?;
            OpKind::SemRead { semaphore: o[0] }
        }
        _ => return Ok(None),
    }))
}

fn one(op: MlirOperation, group: &[ValueId]) -> Result<ValueId> {
    match group {
        [v] => Ok(*v),
        _ => Err(err(op, format!("`{}`: expected one operand in a group, found {}", raw::name(op), group.len()))),
    }
}

/// `vector.extract/insert` positions: `i64::MIN` (MLIR's kDynamic) marks a
/// dynamic one.
fn dynamic_positions(pos: &[i64]) -> Vec<Option<i64>> {
    pos.iter().map(|&p| (p != i64::MIN).then_some(p)).collect()
}

/// The function's result types (from `function_type`).
fn func_results(f: MlirOperation) -> Result<Vec<Type>> {
    let a = raw::attr(f, "function_type").ok_or_else(|| err(f, "func.func without function_type"))?;
    // SAFETY: `a` is the non-null `function_type` of `f`, a live func.func; it is read as a type only once it is a
    // TypeAttr, and that type is a FunctionType (func.func's verifier requires it); `i` stays below its result count.
    unsafe {
        if !mlirAttributeIsAType(a) {
            return Err(err(f, "function_type is not a type"));
        }
        let t = mlirTypeAttrGetValue(a);
        let n = mlirFunctionTypeGetNumResults(t);
        (0..n).map(|i| convert_type(mlirFunctionTypeGetResult(t, i)).map_err(|m| err(f, m))).collect()
    }
}

fn sym_name(f: MlirOperation) -> String {
    // SAFETY: `a` is the non-null `sym_name` of the live func.func `f`: a StringAttr by the symbol verifier.
    raw::attr(f, "sym_name").map(|a| string_ref(unsafe { mlirStringAttrGetValue(a) })).unwrap_or_default()
}

/// The data form of a Mosaic kernel module: its functions, and the kernel's
/// pipeline attributes. The kernel is the one top-level function with
/// `window_params`, `iteration_bounds` or `dimension_semantics`.
pub fn import_kernel(module: MlirOperation) -> Result<TpuKernel> {
    let funcs = functions(module);
    let symbols: HashMap<String, FuncId> = funcs.iter().enumerate().map(|(i, &f)| (sym_name(f), i)).collect();
    let kernels: Vec<usize> = (0..funcs.len()).filter(|&i| KERNEL_ATTRS.iter().any(|a| raw::attr(funcs[i], a).is_some())).collect();
    let entry = match kernels.as_slice() {
        [k] => *k,
        [] => return Err(err(module, "no Mosaic kernel: no function has window_params, iteration_bounds or dimension_semantics")),
        _ => {
            let names: Vec<String> = kernels.iter().map(|&k| format!("@{}", sym_name(funcs[k]))).collect();
            return Err(err(module, format!("several Mosaic kernels in one module: {}", names.join(", "))));
        }
    };
    let mut functions = Vec::new();
    for &f in &funcs {
        let blocks = raw::region_blocks(f);
        let [body] = blocks.as_slice() else {
            return Err(err(f, format!("@{} must have one block ({} found)", sym_name(f), blocks.len())));
        };
        let mut b = FuncBuilder { ids: HashMap::new(), next: 0, symbols: &symbols };
        let block = b.block(f, *body)?;
        functions.push(Function {
            name: sym_name(f),
            location: raw::location_string(f),
            results: func_results(f)?,
            body: block,
            num_values: b.next,
        });
    }
    let k = funcs[entry];
    let iteration_bounds = match raw::attr(k, "iteration_bounds") {
        Some(a) => ints_of(a).ok_or_else(|| err(k, "iteration_bounds is not an integer array"))?,
        None => vec![],
    };
    let dimension_semantics = match raw::attr(k, "dimension_semantics") {
        // SAFETY: `a` is the non-null `dimension_semantics` of the live kernel function `k`; it is counted only once it
        // is known to be an ArrayAttr.
        Some(a) if unsafe { mlirAttributeIsAArray(a) } => (0..unsafe { mlirArrayAttrGetNumElements(a) })
            .map(|i| {
                // SAFETY: `i` is below the array's element count.
                let e = unsafe { mlirArrayAttrGetElement(a, i) };
                // SAFETY: `e` is a live attribute; the C side returns "" for anything but a #tpu.dimension_semantics.
                match string_ref(unsafe { capi::floorsTpuDimensionSemanticsName(e) }).as_str() {
                    "parallel" => Ok(DimensionSemantics::Parallel),
                    "arbitrary" => Ok(DimensionSemantics::Arbitrary),
                    "core_parallel" => Ok(DimensionSemantics::CoreParallel),
                    "subcore_parallel" => Ok(DimensionSemantics::SubcoreParallel),
                    _ => Err(err(k, format!("dimension_semantics[{i}] is not a #tpu.dimension_semantics"))),
                }
            })
            .collect::<Result<_>>()?,
        Some(_) => return Err(err(k, "dimension_semantics is not an array")),
        None => vec![],
    };
    let window_params = match raw::attr(k, "window_params") {
        // SAFETY: as for `dimension_semantics`: `a` is the non-null `window_params` of `k`, counted only as an
        // ArrayAttr.
        Some(a) if unsafe { mlirAttributeIsAArray(a) } => (0..unsafe { mlirArrayAttrGetNumElements(a) })
            .map(|i| {
                // SAFETY: `i` is below the array's element count.
                let d = unsafe { mlirArrayAttrGetElement(a, i) };
                // SAFETY: `d` is a live element of the array; this only reads its kind.
                if !unsafe { mlirAttributeIsADictionary(d) } {
                    return Err(err(k, format!("window_params[{i}] is not a dictionary")));
                }
                let get = |n: &str| {
                    // SAFETY: `d` was checked to be a DictionaryAttr above; `n` is a Rust string that outlives the
                    // call.
                    let v = unsafe { mlirDictionaryAttrGetElementByName(d, raw::sref(n)) };
                    (!v.ptr.is_null()).then_some(v)
                };
                let transform_indices = match get("transform_indices") {
                    // SAFETY: `t` is a non-null entry of the dictionary `d`; this only reads its kind.
                    Some(t) if unsafe { mlirAttributeIsAFlatSymbolRef(t) } => {
                        // SAFETY: `t` was checked to be a FlatSymbolRefAttr just above.
                        let name = string_ref(unsafe { mlirFlatSymbolRefAttrGetValue(t) });
                        Some(*symbols.get(&name).ok_or_else(|| err(k, format!("window_params[{i}]: no function @{name}")))?)
                    }
                    Some(_) => return Err(err(k, format!("window_params[{i}]: transform_indices is not a symbol"))),
                    None => None,
                };
                let window_bounds = match get("window_bounds") {
                    Some(w) => {
                        Some(ints_of(w).ok_or_else(|| err(k, format!("window_params[{i}]: window_bounds is not an integer array")))?)
                    }
                    None => None,
                };
                let single_buffered =
                    // SAFETY: `p` is a non-null entry of `d`; the C side returns "" for anything but a
                    // #tpu.pipeline_mode.
                    get("pipeline_mode").is_some_and(|p| string_ref(unsafe { capi::floorsTpuPipelineModeName(p) }) == "synchronous");
                let element_window = match get("window_kind") {
                    // SAFETY: `w` is a non-null entry of `d`; this only reads its kind.
                    Some(w) if unsafe { capi::floorsTpuAttributeIsAElementWindow(w) } => {
                        let list = |which: i32| -> Vec<i64> {
                            // SAFETY: `w` is a #tpu.element_window (checked above); the C side returns 0 for an index
                            // out of range.
                            let n = unsafe { capi::floorsTpuElementWindowSize(w, which) };
                            // SAFETY: as above, `i` below the list's size.
                            (0..n).map(|i| unsafe { capi::floorsTpuElementWindowElem(w, which, i) }).collect()
                        };
                        Some(ElementWindow { pad_low: list(0), pad_high: list(1) })
                    }
                    Some(w) => {
                        return Err(err(k, format!("window_params[{i}]: window_kind {} is not a #tpu.element_window", raw::attr_text(w))));
                    }
                    None => None,
                };
                Ok(WindowParam { transform_indices, window_bounds, single_buffered, element_window })
            })
            .collect::<Result<_>>()?,
        Some(_) => return Err(err(k, "window_params is not an array")),
        None => vec![],
    };
    let count = |n: &str| -> Result<usize> {
        match raw::int_attr(k, n) {
            Some(v) if v >= 0 => Ok(v as usize),
            Some(v) => Err(err(k, format!("{n} = {v}"))),
            None => Ok(0),
        }
    };
    let (input_output_aliases, vmem_limit_bytes) = call_parameters(module)?;
    Ok(TpuKernel {
        functions,
        entry,
        iteration_bounds,
        dimension_semantics,
        window_params,
        scalar_prefetch: count("scalar_prefetch")?,
        scratch_operands: count("scratch_operands")?,
        input_output_aliases,
        vmem_limit_bytes,
    })
}

/// (operand, output) index pairs of `input_output_aliases`.
type Aliases = Vec<(usize, usize)>;

/// The `pallas_call` parameters a kernel module carries besides its body
/// (set by [`crate::handoff::import_pallas_calls`] from the custom call, or by
/// the emitter for an in-place update):
/// `floors.input_output_aliases` (pairs operand, output) and
/// `floors.vmem_limit_bytes`.
fn call_parameters(module: MlirOperation) -> Result<(Aliases, Option<u64>)> {
    let aliases = match raw::attr(module, floors_ir::contract::TPU_ALIASES_ATTR) {
        Some(a) => {
            let v = ints_of(a).filter(|v| v.len() % 2 == 0 && v.iter().all(|&x| x >= 0)).ok_or_else(|| {
                err(module, format!("{} is not an array of (operand, output) index pairs", floors_ir::contract::TPU_ALIASES_ATTR))
            })?;
            v.chunks(2).map(|c| (c[0] as usize, c[1] as usize)).collect()
        }
        None => vec![],
    };
    let limit = match raw::attr(module, floors_ir::contract::TPU_VMEM_LIMIT_ATTR) {
        Some(_) => Some(
            raw::int_attr(module, floors_ir::contract::TPU_VMEM_LIMIT_ATTR)
                .filter(|&v| v > 0)
                .ok_or_else(|| err(module, format!("{} is not a positive integer", floors_ir::contract::TPU_VMEM_LIMIT_ATTR)))?
                as u64,
        ),
        None => None,
    };
    Ok((aliases, limit))
}

/// `floors run --target tpu KERNEL.mosaic.mlir --input ... --output-dir DIR`:
/// parses `program` in floors' context; a Mosaic kernel module runs in the
/// runtime's interpreter (`out0.npy`, ... in `output_dir`) and gives
/// Ok(true). Anything else (StableHLO) gives Ok(false): the TPU floor
/// compiles and runs it as a program.
pub fn run_kernel_file(
    program: &std::path::Path,
    inputs: &[std::path::PathBuf],
    output_dir: &std::path::Path,
    options: &floors_runtime::tpu::TpuRunOptions,
) -> Result<bool> {
    let text = floors_ir::source::read_source(program)?;
    let context = floors_ir::context::create_context();
    let module = floors_ir::source::parse_module(&context, &program.display().to_string(), &text)?;
    let op = melior::ir::operation::OperationLike::to_raw(&module.as_operation());
    if !is_mosaic_kernel_module(op) {
        return Ok(false);
    }
    let arrays = inputs.iter().map(|p| floors_runtime::npy::read(p)).collect::<std::result::Result<Vec<_>, _>>()?;
    let kernel = floors_ir::source::with_big_stack(|| import_kernel(op))?;
    let outputs = floors_runtime::tpu::run_kernel(&kernel, &arrays, options)?;
    floors_runtime::write_outputs(output_dir, &outputs)?;
    Ok(true)
}
