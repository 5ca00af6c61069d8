//===- TpuBase.td - tpu dialect: dialect, enums, attributes, types -*- tablegen -*-===//
//
// Mosaic's `tpu` dialect as jaxlib 0.10.2 defines it: the same mnemonics,
// enum spellings, parameters and printed forms, so text and bytecode that
// Pallas writes parse here and what floors writes parses in jaxlib. The
// reference is /work/shared/corpus/mosaic/tpu_dialect.json plus jaxlib's
// printer (python/tests/test_tpu_oracle.py checks floors' text against it).
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_TPU_BASE_TD
#define FLOORS_TPU_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

def Tpu_Dialect : Dialect {
  let name = "tpu";
  let cppNamespace = "::floors::tpu";
  let summary = "Mosaic's TPU kernel dialect (jaxlib 0.10.2)";
  let description = [{
    The kernel language Pallas emits for TPUs: vector and memref ops on the
    TensorCore's registers and memories (VMEM, SMEM, HBM, semaphores), DMAs
    and semaphores, the MXU matmul. A kernel is a func.func whose body mixes
    these ops with arith/math/vector/memref/scf.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let usePropertiesForAttributes = 1;
  let extraClassDeclaration = [{
    /// The discardable attribute naming a kernel's core type.
    static ::llvm::StringRef coreTypeAttrName() { return "tpu.core_type"; }
  }];
}

class Tpu_Attr<string name, string mnemonic_, list<Trait> traits = []>
    : AttrDef<Tpu_Dialect, name, traits> {
  let mnemonic = mnemonic_;
}

class Tpu_Type<string name, string mnemonic_, list<Trait> traits = []>
    : TypeDef<Tpu_Dialect, name, traits> {
  let mnemonic = mnemonic_;
}

// An enum printed `#tpu.<mnemonic><value>`.
class Tpu_EnumAttr<EnumAttrInfo info, string mnemonic_>
    : EnumAttr<Tpu_Dialect, info, mnemonic_> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Enums (numbering as jaxlib's, so bytecode that stores them agrees)
//===----------------------------------------------------------------------===//

def Tpu_CoreType : I32EnumAttr<"CoreType", "kind of TPU core", [
    I32EnumAttrCase<"kTc", 0, "tc">,
    I32EnumAttrCase<"kScScalarSubcore", 1, "sc_scalar_subcore">,
    I32EnumAttrCase<"kScVectorSubcore", 2, "sc_vector_subcore">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::tpu";
}
def Tpu_CoreTypeAttr : Tpu_EnumAttr<Tpu_CoreType, "core_type">;

def Tpu_PipelineMode : I32EnumAttr<"PipelineMode", "window pipelining", [
    I32EnumAttrCase<"kSynchronous", 1, "synchronous">,
    I32EnumAttrCase<"kDoubleBuffered", 2, "double_buffered">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::tpu";
}
def Tpu_PipelineModeAttr : Tpu_EnumAttr<Tpu_PipelineMode, "pipeline_mode">;

def Tpu_RevisitMode : I32EnumAttr<"RevisitMode", "block revisiting", [
    I32EnumAttrCase<"kImmediate", 0, "immediate">,
    I32EnumAttrCase<"kAny", 1, "any">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::tpu";
}
def Tpu_RevisitModeAttr : Tpu_EnumAttr<Tpu_RevisitMode, "revisit_mode">;

def Tpu_DimensionSemantics : I32EnumAttr<"DimensionSemantics",
    "how a grid dimension may be scheduled", [
    I32EnumAttrCase<"kParallel", 0, "parallel">,
    I32EnumAttrCase<"kArbitrary", 1, "arbitrary">,
    I32EnumAttrCase<"kCoreParallel", 2, "core_parallel">,
    I32EnumAttrCase<"kSubcoreParallel", 3, "subcore_parallel">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::tpu";
}
def Tpu_DimensionSemanticsAttr
    : Tpu_EnumAttr<Tpu_DimensionSemantics, "dimension_semantics">;

def Tpu_ContractPrecision : I32EnumAttr<"ContractPrecision",
    "matmul precision", [
    I32EnumAttrCase<"kBF16", 0, "bf16">,
    I32EnumAttrCase<"kFP32", 1, "fp32">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::tpu";
}
def Tpu_ContractPrecisionAttr
    : Tpu_EnumAttr<Tpu_ContractPrecision, "contract_precision">;

def Tpu_PackFormat : I32EnumAttr<"PackFormat", "sub-element packing", [
    I32EnumAttrCase<"kCompressed", 0, "compressed">,
    I32EnumAttrCase<"kInterleaved", 1, "interleaved">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::tpu";
}
def Tpu_PackFormatAttr : Tpu_EnumAttr<Tpu_PackFormat, "pack_format">;

def Tpu_ReductionKind : I32EnumAttr<"ReductionKind", "reduction", [
    I32EnumAttrCase<"kSum", 0, "sum">,
    I32EnumAttrCase<"kMax", 1, "max">,
    I32EnumAttrCase<"kMin", 2, "min">,
    I32EnumAttrCase<"kArgMax", 3, "arg_max">,
    I32EnumAttrCase<"kArgMin", 4, "arg_min">,
    I32EnumAttrCase<"kFindFirstSet", 5, "find_first_set">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::tpu";
}
def Tpu_ReductionKindAttr : Tpu_EnumAttr<Tpu_ReductionKind, "reduction_kind">;

def Tpu_RoundingMode : I32EnumAttr<"RoundingMode", "float rounding", [
    I32EnumAttrCase<"kTowardsZero", 0, "towards_zero">,
    I32EnumAttrCase<"kToNearestEven", 1, "to_nearest_even">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::tpu";
}
def Tpu_RoundingModeAttr : Tpu_EnumAttr<Tpu_RoundingMode, "rounding_mode">;

// No attribute of its own (layouts use it); kept for the C API's numbering.
def Tpu_VectorLayoutDim : I32EnumAttr<"VectorLayoutDim", "layout dimension", [
    I32EnumAttrCase<"kTiled", 0, "tiled">,
    I32EnumAttrCase<"kLanes", 1, "lanes">,
    I32EnumAttrCase<"kSublanes", 2, "sublanes">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::tpu";
}

def Tpu_MemorySpace : I32EnumAttr<"MemorySpace", "TPU memory", [
    I32EnumAttrCase<"kAny", 4294967295, "any">,
    I32EnumAttrCase<"kVmem", 0, "vmem">,
    I32EnumAttrCase<"kSmem", 1, "smem">,
    I32EnumAttrCase<"kHbm", 2, "hbm">,
    I32EnumAttrCase<"kCmem", 3, "cmem">,
    I32EnumAttrCase<"kSemaphoreMem", 4, "semaphore_mem">,
    I32EnumAttrCase<"kVmemShared", 5, "vmem_shared">,
    I32EnumAttrCase<"kHost", 6, "host">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::tpu";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// #tpu.memory_space<vmem> or #tpu.memory_space<vmem, sc_vector_subcore>.
def Tpu_MemorySpaceAttr : Tpu_Attr<"MemorySpace", "memory_space"> {
  let summary = "the memory a memref lives in (a memref memory space)";
  let parameters = (ins
    "::floors::tpu::MemorySpace":$value,
    OptionalParameter<"::std::optional<::floors::tpu::CoreType>">:$core_type
  );
  let assemblyFormat = "`<` $value (`,` $core_type^)? `>`";
  let builders = [
    AttrBuilder<(ins "::floors::tpu::MemorySpace":$value), [{
      return $_get($_ctxt, value, ::std::nullopt);
    }]>
  ];
}

// #tpu.element_window<[pad_low...], [pad_high...]>
def Tpu_ElementWindowAttr : Tpu_Attr<"ElementWindow", "element_window"> {
  let summary = "padding of a window, in elements";
  let parameters = (ins
    ArrayRefParameter<"int64_t", "">:$pad_low,
    ArrayRefParameter<"int64_t", "">:$pad_high
  );
  let assemblyFormat = "`<` `[` $pad_low `]` `,` `[` $pad_high `]` `>`";
}

// #tpu.dot_dimension_numbers<[lhs_c], [rhs_c], [lhs_nc], [rhs_nc],
//                            [output order pairs], [lhs_batch], [rhs_batch]>
def Tpu_DotDimensionNumbersAttr
    : Tpu_Attr<"DotDimensionNumbers", "dot_dimension_numbers"> {
  let summary = "which dimensions of tpu.matmul contract, and the output order";
  let parameters = (ins
    ArrayRefParameter<"int64_t", "">:$lhs_contracting_dims,
    ArrayRefParameter<"int64_t", "">:$rhs_contracting_dims,
    OptionalArrayRefParameter<"int64_t", "">:$lhs_non_contracting_dims,
    OptionalArrayRefParameter<"int64_t", "">:$rhs_non_contracting_dims,
    // Pairs (operand, dim): operand 0 is lhs, 1 is rhs.
    ArrayRefParameter<"int64_t", "">:$output_dim_order,
    OptionalArrayRefParameter<"int64_t", "">:$lhs_batch_dims,
    OptionalArrayRefParameter<"int64_t", "">:$rhs_batch_dims
  );
  let assemblyFormat =
      "`<` `[` $lhs_contracting_dims `]` `,` `[` $rhs_contracting_dims `]` `,` "
      "`[` (`]`):($lhs_non_contracting_dims^ `]`)? `,` "
      "`[` (`]`):($rhs_non_contracting_dims^ `]`)? `,` "
      "`[` $output_dim_order `]` `,` "
      "`[` (`]`):($lhs_batch_dims^ `]`)? `,` "
      "`[` (`]`):($rhs_batch_dims^ `]`)? `>`";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Tpu_SemaphoreType
    : Tpu_Type<"Semaphore", "semaphore", [MemRefElementTypeInterface]> {
  let summary = "semaphore";
  let description = "A counting semaphore: the element of a semaphore_mem memref.";
}
def Tpu_DMASemaphoreType
    : Tpu_Type<"DMASemaphore", "dma_semaphore", [MemRefElementTypeInterface]> {
  let summary = "DMA semaphore";
  let description = "A DMA completion semaphore: the element of a semaphore_mem memref.";
}
def Tpu_AnySemaphore : AnyTypeOf<[Tpu_SemaphoreType, Tpu_DMASemaphoreType]>;

def Tpu_Float8EXMYType : Tpu_Type<"Float8EXMY", "float8_exmy",
    [DeclareTypeInterfaceMethods<FloatTypeInterface, ["getFloatSemantics"]>]> {
  let summary = "an EXMY float stored in 8 bits (meaningful bits at the LSB)";
  let parameters = (ins
    TypeParameter<"::mlir::FloatType", "underlying EXMY type">:$underlying_type
  );
  let assemblyFormat = "`<` $underlying_type `>`";
}

//===----------------------------------------------------------------------===//
// Type constraints and the op base class
//===----------------------------------------------------------------------===//

def Tpu_Vreg : Type<IsVectorOfNonZeroRankTypePred, "native-sized vreg",
                    "::mlir::VectorType">;
def Tpu_Vmask : VectorOfRankAndType<[2, 3], [I1]>;
def Tpu_FloatLike : AnyTypeOf<[AnyFloat, VectorOfAnyRankOf<[AnyFloat]>]>;
def Tpu_SignlessIntegerLike
    : AnyTypeOf<[AnySignlessInteger, VectorOfAnyRankOf<[AnySignlessInteger]>]>;
def Tpu_SemaphoreRef : MemRefOf<[Tpu_SemaphoreType]>;
def Tpu_DMASemaphoreRef : MemRefOf<[Tpu_DMASemaphoreType]>;
def Tpu_AnySemaphoreRef : MemRefOf<[Tpu_AnySemaphore]>;

def Tpu_MemWrite : MemoryEffects<[MemWrite<DefaultResource>]>;
def Tpu_MemRead : MemoryEffects<[MemRead<DefaultResource>]>;

class Tpu_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tpu_Dialect, mnemonic, traits>;

#endif // FLOORS_TPU_BASE_TD
