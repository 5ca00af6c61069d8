//===- TpuOps.td - tpu dialect ops -------------------------*- tablegen -*-===//
//
// Every op of jaxlib 0.10.2's `tpu` dialect (88, see tpu_dialect.json):
// the same names, operand order, attributes (with the same defaults) and
// printed syntax as jaxlib, because both the text and the wire form
// (`stable_mosaic.tpu.*` with every attribute spelled out) must agree with it.
// Verifiers live in TpuOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_TPU_OPS_TD
#define FLOORS_TPU_OPS_TD

include "TpuBase.td"

//===----------------------------------------------------------------------===//
// Reductions, scans, sort
//===----------------------------------------------------------------------===//

def Tpu_AllReduceOp : Tpu_Op<"all_reduce", [Pure]> {
  let summary = "reduces along `dim` and broadcasts the result back";
  let arguments = (ins AnyVectorOfNonZeroRank:$input, I64Attr:$dim,
                       Tpu_ReductionKindAttr:$kind);
  let results = (outs AnyVectorOfNonZeroRank:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

def Tpu_ReduceIndexOp : Tpu_Op<"reduce_index", [Pure]> {
  let summary = "arg_max/arg_min along an axis";
  let arguments = (ins AnyVectorOfNonZeroRank:$input, I32Attr:$axis,
                       Tpu_ReductionKindAttr:$kind);
  let results = (outs VectorOfNonZeroRankOf<[I32]>:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

def Tpu_ScanOp : Tpu_Op<"scan"> {
  let summary = "inclusive scan of a vector, optionally masked";
  let arguments = (ins
    VectorOfNonZeroRankOf<[I1, I16, I32, BF16, F32]>:$input,
    Tpu_ReductionKindAttr:$kind,
    Optional<VectorOfNonZeroRankOf<[I1]>>:$mask
  );
  let results = (outs VectorOfNonZeroRankOf<[I16, I32, BF16, F32]>:$output);
  let assemblyFormat = [{
    $kind `,` $input (`masked` $mask^)? attr-dict `:` type($input) `,` type($mask) `->` type($output)
  }];
  let hasVerifier = 1;
}

def Tpu_SortOp : Tpu_Op<"sort", [Pure]> {
  let summary = "stable key/value sort";
  let arguments = (ins
    VectorOfNonZeroRankOf<[I32, F32]>:$keys,
    VectorOfNonZeroRankOf<[I32, F32]>:$values,
    Optional<VectorOfNonZeroRankOf<[I1]>>:$mask,
    DefaultValuedAttr<BoolAttr, "false">:$descending
  );
  let results = (outs
    VectorOfNonZeroRankOf<[I1]>:$output_mask,
    VectorOfNonZeroRankOf<[I32, F32]>:$sorted_keys,
    VectorOfNonZeroRankOf<[I32, F32]>:$sorted_values
  );
  let assemblyFormat = [{
    $keys `,` $values (`masked` $mask^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

def Tpu_StoreOp : Tpu_Op<"store", [Tpu_MemWrite, AttrSizedOperandSegments]> {
  let summary = "vreg store with a sublane mask and stride";
  let arguments = (ins
    Tpu_Vreg:$valueToStore,
    AnyMemRef:$base,
    Variadic<Index>:$indices,
    DenseBoolArrayAttr:$sublane_mask,
    Optional<AnyType>:$mask,
    DefaultValuedAttr<I32Attr, "1">:$sublane_stride,
    DefaultValuedAttr<BoolAttr, "false">:$add
  );
  let assemblyFormat = [{
    $base `[` $indices `]` `,` $valueToStore (`masked` $mask^)? `sublanes` $sublane_mask (`sublane_stride` $sublane_stride^)? attr-dict `:` type($base) `,` type($valueToStore) `,` type($mask)
  }];
  let hasVerifier = 1;
}

def Tpu_LoadOp : Tpu_Op<"load", [Tpu_MemRead]> {
  let summary = "vreg load with a sublane mask and stride";
  let arguments = (ins
    AnyMemRef:$base,
    Variadic<Index>:$indices,
    DenseBoolArrayAttr:$sublane_mask,
    DefaultValuedAttr<I32Attr, "1">:$sublane_stride
  );
  let results = (outs Tpu_Vreg:$result);
  let assemblyFormat = [{
    $base `[` $indices `]` `sublanes` $sublane_mask (`sublane_stride` $sublane_stride^)? attr-dict `:` type($base) `,` type($result)
  }];
  let hasVerifier = 1;
}

def Tpu_VectorStoreOp
    : Tpu_Op<"vector_store", [Tpu_MemWrite, AttrSizedOperandSegments]> {
  let summary = "stores a vector at `base[indices]`, optionally masked or accumulating";
  let arguments = (ins
    AnyVectorOfNonZeroRank:$valueToStore,
    AnyMemRef:$base,
    Variadic<Index>:$indices,
    DenseI32ArrayAttr:$strides,
    Optional<AnyVectorOfNonZeroRank>:$mask,
    DefaultValuedAttr<BoolAttr, "false">:$add
  );
  let assemblyFormat = [{
    $base `[` $indices `]` `,` $valueToStore (`masked` $mask^)? attr-dict `:` type($base) `,` type($valueToStore) `,` type($mask)
  }];
  let hasVerifier = 1;
}

def Tpu_VectorLoadOp
    : Tpu_Op<"vector_load", [Tpu_MemRead, AttrSizedOperandSegments]> {
  let summary = "loads a vector from `base[indices]`, optionally masked";
  let arguments = (ins
    AnyMemRef:$base,
    Variadic<Index>:$indices,
    DenseI32ArrayAttr:$strides,
    Optional<AnyVectorOfNonZeroRank>:$mask
  );
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = [{
    $base `[` $indices `]` (`masked` $mask^)? attr-dict `:` type($base) `,` type($result) `,` type($mask)
  }];
  let hasVerifier = 1;
}

def Tpu_StridedLoadOp : Tpu_Op<"strided_load", [Tpu_MemRead]> {
  let summary = "loads a vector with a stride per dimension";
  let arguments = (ins AnyMemRef:$base, Variadic<Index>:$indices,
                       DenseI32ArrayAttr:$strides);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = [{
    $base `[` $indices `]` attr-dict `:` type($base) `,` type($result)
  }];
  let hasVerifier = 1;
}

def Tpu_StridedStoreOp : Tpu_Op<"strided_store", [Tpu_MemWrite]> {
  let summary = "stores a vector with a stride per dimension";
  let arguments = (ins AnyVectorOfNonZeroRank:$valueToStore, AnyMemRef:$base,
                       Variadic<Index>:$indices, DenseI32ArrayAttr:$strides);
  let assemblyFormat = [{
    $base `[` $indices `]` `,` $valueToStore attr-dict `:` type($base) `,` type($valueToStore)
  }];
  let hasVerifier = 1;
}

def Tpu_ShuffledLoadOp : Tpu_Op<"shuffled_load", [Tpu_MemRead]> {
  let summary = "vreg load with per-sublane offsets";
  let arguments = (ins AnyMemRef:$base, Variadic<Index>:$indices,
                       DenseBoolArrayAttr:$sublane_mask,
                       DenseI32ArrayAttr:$sublane_offsets);
  let results = (outs Tpu_Vreg:$result);
  let assemblyFormat = [{
    $base `[` $indices `]` attr-dict `:` type($base) `,` type($result)
  }];
  let hasVerifier = 1;
}

def Tpu_ShuffledStoreOp : Tpu_Op<"shuffled_store", [Tpu_MemWrite]> {
  let summary = "vreg store with per-sublane offsets";
  let arguments = (ins Tpu_Vreg:$valueToStore, AnyMemRef:$base,
                       Variadic<Index>:$indices,
                       DenseBoolArrayAttr:$sublane_mask,
                       DenseI32ArrayAttr:$sublane_offsets);
  let assemblyFormat = [{
    $base `[` $indices `]` `,` $valueToStore attr-dict `:` type($base) `,` type($valueToStore)
  }];
  let hasVerifier = 1;
}

def Tpu_VectorLoadIdxOp
    : Tpu_Op<"vector_load_idx", [Tpu_MemRead, AttrSizedOperandSegments]> {
  let summary = "gathers elements at per-element indices";
  let arguments = (ins
    MemRefOf<[I32, F32]>:$base,
    Variadic<VectorOfNonZeroRankOf<[I32]>>:$indices,
    Optional<VectorOfNonZeroRankOf<[I1]>>:$mask
  );
  let results = (outs VectorOfNonZeroRankOf<[I32, F32]>:$value);
  let assemblyFormat = [{
    $base `[` $indices `]` (`masked` $mask^)? attr-dict `:` type($base) `[` type($indices) `]` `,` type($value) `,` type($mask)
  }];
  let hasVerifier = 1;
}

def Tpu_VectorStoreIdxOp
    : Tpu_Op<"vector_store_idx", [Tpu_MemWrite, AttrSizedOperandSegments]> {
  let summary = "scatters elements to per-element indices";
  let arguments = (ins
    VectorOfNonZeroRankOf<[I32, F32]>:$valueToStore,
    MemRefOf<[I32, F32]>:$base,
    Variadic<VectorOfNonZeroRankOf<[I32]>>:$indices,
    Optional<VectorOfNonZeroRankOf<[I1]>>:$mask,
    DefaultValuedAttr<BoolAttr, "false">:$add
  );
  let assemblyFormat = [{
    $base `[` $indices `]` `,` $valueToStore (`masked` $mask^)? attr-dict `:` type($base) `[` type($indices) `]` `,` type($valueToStore) `,` type($mask)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Vector shuffles, layout, conversions
//===----------------------------------------------------------------------===//

def Tpu_DynamicRotateOp
    : Tpu_Op<"dynamic_rotate", [Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "rotates along a dimension by a run-time amount";
  let arguments = (ins
    AnyVectorOfNonZeroRank:$value,
    I32:$amount,
    SI32Attr:$dimension,
    OptionalAttr<SI32Attr>:$stride,
    OptionalAttr<SI32Attr>:$stride_dimension
  );
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = [{
    $value `by` $amount `dim` $dimension attr-dict `:` type($value) `,` type($amount) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tpu_ScanCountOp
    : Tpu_Op<"scan_count", [Pure, SameOperandsAndResultShape]> {
  let summary = "running count of duplicate values";
  let arguments = (ins VectorOfNonZeroRankOf<[I1]>:$in_mask,
                       AnyVectorOfNonZeroRank:$values);
  let results = (outs VectorOfNonZeroRankOf<[I1]>:$out_mask,
                      VectorOfNonZeroRankOf<[I32]>:$counts);
  let assemblyFormat = [{
    `mask` `(` $in_mask `:` type($in_mask) `)`
    `value` `(` $values `:` type($values) `)`
    attr-dict `:` type(results)
  }];
}

def Tpu_IotaOp : Tpu_Op<"iota", [Pure]> {
  let summary = "0, 1, 2, ... along the collapsed `dimensions`";
  let arguments = (ins DenseI32ArrayAttr:$dimensions);
  let results = (outs VectorOfNonZeroRankOf<[AnyInteger, Index]>:$output);
  let assemblyFormat = "attr-dict `:` type($output)";
  let hasVerifier = 1;
}

def Tpu_ReshapeOp : Tpu_Op<"reshape", [Pure]> {
  let summary = "vector reshape (same element count)";
  let arguments = (ins AnyVectorOfNonZeroRank:$source);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def Tpu_RepeatOp : Tpu_Op<"repeat", [Pure]> {
  let summary = "concatenates `times` copies along `dimension`";
  let arguments = (ins AnyVectorOfNonZeroRank:$source, I32Attr:$dimension,
                       I32Attr:$times);
  let results = (outs AnyVectorOfNonZeroRank:$output);
  let assemblyFormat = [{
    $source `,` $dimension `x` $times attr-dict `:` type($source) `->` type($output)
  }];
  let hasVerifier = 1;
}

def Tpu_BroadcastInSublanesOp : Tpu_Op<"broadcast_in_sublanes", [Pure]> {
  let summary = "sublane i takes the value of lane `lane + i`";
  let arguments = (ins Tpu_Vreg:$source, I32Attr:$lane);
  let results = (outs AnyVectorOfNonZeroRank:$output);
  let assemblyFormat = [{
    $source `,` $lane attr-dict `:` type($source) `->` type($output)
  }];
}

def Tpu_UnpackSubelementsOp : Tpu_Op<"unpack_subelements", [Pure]> {
  let summary = "extracts packed sub-elements at `index`";
  let arguments = (ins
    AnyVectorOfNonZeroRank:$source,
    I32Attr:$index,
    Tpu_PackFormatAttr:$pack_format,
    DefaultValuedAttr<BoolAttr, "true">:$integer_extended,
    DefaultValuedAttr<BoolAttr, "false">:$unsigned_integers
  );
  let results = (outs AnyVectorOfNonZeroRank:$output);
  let assemblyFormat = "$source `,` $index attr-dict `:` type($source) `->` type($output)";
}

def Tpu_PackSubelementsOp
    : Tpu_Op<"pack_subelements", [Pure, SameTypeOperands]> {
  let summary = "packs narrower elements of several vregs into one";
  let arguments = (ins
    Variadic<Tpu_Vreg>:$sources,
    DenseI32ArrayAttr:$positions,
    Tpu_PackFormatAttr:$pack_format,
    DefaultValuedOptionalAttr<BoolAttr, "false">:$unsigned_integers
  );
  let results = (outs Tpu_Vreg:$output);
  let assemblyFormat = "$sources attr-dict `:` type($sources) `->` type($output)";
  let hasVerifier = 1;
}

def Tpu_PackElementwiseOp : Tpu_Op<"pack_elementwise",
    [Pure, SameTypeOperands, ElementwiseMappable]> {
  let summary = "packs sources elementwise into `target_type` bits";
  let arguments = (ins
    Variadic<VectorOfNonZeroRankOf<[F32, AnyInteger]>>:$sources,
    TypeAttr:$target_type
  );
  let results = (outs VectorOfNonZeroRankOf<[AnyInteger]>:$output);
  let assemblyFormat = "$sources attr-dict `:` type($sources) `->` type($output)";
}

def Tpu_UnpackElementwiseOp
    : Tpu_Op<"unpack_elementwise", [Pure, ElementwiseMappable]> {
  let summary = "unpacks the `index`-th `source_type` value of each word";
  let arguments = (ins
    VectorOfNonZeroRankOf<[AnyInteger]>:$source,
    TypeAttr:$source_type,
    I32Attr:$index
  );
  let results = (outs VectorOfNonZeroRankOf<[F32, AnyInteger]>:$output);
  let assemblyFormat = "$source `,` $index attr-dict `:` type($source) `->` type($output)";
}

def Tpu_RelayoutOp : Tpu_Op<"relayout", [Pure, SameOperandsAndResultType]> {
  let summary = "changes the layout of a vector (value unchanged)";
  let arguments = (ins AnyVectorOfAnyRank:$input);
  let results = (outs AnyVectorOfAnyRank:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
}

def Tpu_PackMaskOp : Tpu_Op<"pack_vmsk", [Pure, SameTypeOperands]> {
  let summary = "packs several vmasks into one";
  let arguments = (ins Variadic<Tpu_Vmask>:$sources,
                       DenseI32ArrayAttr:$positions);
  let results = (outs Tpu_Vmask:$output);
  let assemblyFormat = "$sources attr-dict `:` type($sources) `->` type($output)";
}

def Tpu_GatherOp : Tpu_Op<"gather", [Pure]> {
  let summary = "static gather along `dimension`";
  let arguments = (ins AnyVectorOfNonZeroRank:$source,
                       DenseI32ArrayAttr:$indices, I32Attr:$dimension);
  let results = (outs AnyVectorOfNonZeroRank:$output);
  let assemblyFormat = [{
    $source `[` $indices `]` `in` $dimension attr-dict `:` type($source) `->` type($output)
  }];
}

def Tpu_DynamicGatherOp : Tpu_Op<"dynamic_gather", [Pure,
    AllShapesMatch<["indices", "output"]>,
    AllElementTypesMatch<["source", "output"]>]> {
  let summary = "gather by run-time indices over collapsed `dimensions`";
  let arguments = (ins
    AnyVectorOfNonZeroRank:$source,
    VectorOfNonZeroRankOf<[AnyInteger]>:$indices,
    DenseI32ArrayAttr:$dimensions
  );
  let results = (outs AnyVectorOfNonZeroRank:$output);
  let assemblyFormat = [{
    $source `[` $indices `]` `in` $dimensions attr-dict `:` type($source) `,` type($indices) `->` type($output)
  }];
  let hasVerifier = 1;
}

def Tpu_FPToSIOp : Tpu_Op<"fptosi", [Pure, ElementwiseMappable]> {
  let arguments = (ins Tpu_FloatLike:$in, Tpu_RoundingModeAttr:$rounding_mode);
  let results = (outs Tpu_SignlessIntegerLike:$output);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($output)";
}

def Tpu_FPToUIOp : Tpu_Op<"fptoui", [Pure, ElementwiseMappable]> {
  let arguments = (ins Tpu_FloatLike:$in, Tpu_RoundingModeAttr:$rounding_mode);
  let results = (outs Tpu_SignlessIntegerLike:$output);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($output)";
}

def Tpu_SIToFPOp : Tpu_Op<"sitofp", [Pure, ElementwiseMappable]> {
  let arguments = (ins Tpu_SignlessIntegerLike:$in,
                       Tpu_RoundingModeAttr:$rounding_mode);
  let results = (outs Tpu_FloatLike:$output);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($output)";
}

def Tpu_UIToFPOp : Tpu_Op<"uitofp", [Pure, ElementwiseMappable]> {
  let arguments = (ins Tpu_SignlessIntegerLike:$in,
                       Tpu_RoundingModeAttr:$rounding_mode);
  let results = (outs Tpu_FloatLike:$output);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($output)";
}

def Tpu_ExtFOp : Tpu_Op<"extf", [Pure, ElementwiseMappable]> {
  let arguments = (ins Tpu_FloatLike:$in);
  let results = (outs Tpu_FloatLike:$out);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($out)";
}

def Tpu_TruncFOp : Tpu_Op<"truncf", [Pure, ElementwiseMappable]> {
  let arguments = (ins Tpu_FloatLike:$in, Tpu_RoundingModeAttr:$rounding_mode);
  let results = (outs Tpu_FloatLike:$out);
  let assemblyFormat = "$in attr-dict `:` type($in) `->` type($out)";
}

//===----------------------------------------------------------------------===//
// Matmul and the MXU
//===----------------------------------------------------------------------===//

def Tpu_MatmulOp : Tpu_Op<"matmul", [Pure]> {
  let summary = "acc + lhs · rhs on the MXU";
  let arguments = (ins
    AnyVectorOfNonZeroRank:$lhs,
    AnyVectorOfNonZeroRank:$rhs,
    AnyVectorOfNonZeroRank:$acc,
    DefaultValuedAttr<BoolAttr, "false">:$transpose_lhs,
    DefaultValuedAttr<BoolAttr, "false">:$transpose_rhs,
    OptionalAttr<Tpu_ContractPrecisionAttr>:$precision,
    OptionalAttr<Tpu_DotDimensionNumbersAttr>:$dimension_numbers,
    BoolAttr:$transpose_lhs_hint
  );
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tpu_MatmulPushRhsOp : Tpu_Op<"matmul_push_rhs"> {
  let arguments = (ins
    AnyVectorOfNonZeroRank:$rhs,
    I32Attr:$mxu_index,
    DefaultValuedAttr<I32Attr, "0">:$staging_register,
    DefaultValuedAttr<BoolAttr, "false">:$transpose
  );
  let assemblyFormat = "$rhs attr-dict `:` type($rhs)";
}

def Tpu_MatmulAccLhsOp : Tpu_Op<"matmul_acc_lhs"> {
  let arguments = (ins
    I32Attr:$acc,
    AnyVectorOfNonZeroRank:$lhs,
    I32Attr:$mxu_index,
    OptionalAttr<I32Attr>:$load_staged_rhs
  );
  let assemblyFormat = "$acc `,` $lhs attr-dict `:` type($lhs)";
}

def Tpu_MatmulPopOp : Tpu_Op<"matmul_pop"> {
  let arguments = (ins I32Attr:$acc, I32Attr:$mxu_index);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = "$acc attr-dict `:` type($result)";
}

def Tpu_ConcatenateOp : Tpu_Op<"concatenate", [Pure]> {
  let summary = "concatenation along `dimension`";
  let arguments = (ins Variadic<AnyVectorOfNonZeroRank>:$sources,
                       I32Attr:$dimension);
  let results = (outs AnyVectorOfNonZeroRank:$output);
  let assemblyFormat = [{
    $sources `in` $dimension attr-dict `:` type($sources) `->` type($output)
  }];
  let hasVerifier = 1;
}

def Tpu_BitcastOp : Tpu_Op<"bitcast", [Pure]> {
  let summary = "reinterprets the bits; the second-minor dim scales with the bitwidth";
  let arguments = (ins AnyVectorOfNonZeroRank:$input);
  let results = (outs AnyVectorOfNonZeroRank:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

def Tpu_BitcastVregOp : Tpu_Op<"bitcast_vreg", [Pure]> {
  let arguments = (ins Tpu_Vreg:$input);
  let results = (outs Tpu_Vreg:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
}

def Tpu_WeirdOp : Tpu_Op<"weird", [Pure, ElementwiseMappable]> {
  let summary = "true for NaN and infinities";
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

def Tpu_ReciprocalOp : Tpu_Op<"reciprocal",
    [Pure, SameOperandsAndResultType, ElementwiseMappable]> {
  let arguments = (ins
    AnyVectorOfNonZeroRank:$input,
    DefaultValuedAttr<BoolAttr, "false">:$approx,
    DefaultValuedAttr<BoolAttr, "true">:$full_range
  );
  let results = (outs AnyVectorOfNonZeroRank:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
}

def Tpu_StochasticConvertOp
    : Tpu_Op<"stochastic_convert", [Pure, SameOperandsAndResultShape]> {
  let arguments = (ins VectorOfNonZeroRankOf<[F32]>:$input,
                       VectorOfNonZeroRankOf<[I32]>:$random);
  let results = (outs AnyVectorOfNonZeroRank:$output);
  let assemblyFormat = [{
    $input `,` $random attr-dict `:` type($input) `,` type($random) `->` type($output)
  }];
}

def Tpu_StochasticConvertElementwiseOp
    : Tpu_Op<"stochastic_convert_elementwise", [Pure, ElementwiseMappable]> {
  let arguments = (ins VectorOfNonZeroRankOf<[F32]>:$input,
                       VectorOfNonZeroRankOf<[I32]>:$random,
                       TypeAttr:$dst_type);
  let results = (outs VectorOfNonZeroRankOf<[I32]>:$output);
  let assemblyFormat = [{
    $input `,` $random attr-dict `:` type($input) `,` type($random) `->` type($output)
  }];
}

def Tpu_RollVectorsOp : Tpu_Op<"roll_vectors", [Pure]> {
  let arguments = (ins Variadic<AnyVectorOfAnyRank>:$input);
  let results = (outs AnyVectorOfAnyRank:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
}

def Tpu_UnrollVectorsOp : Tpu_Op<"unroll_vectors", [Pure]> {
  let arguments = (ins AnyVectorOfAnyRank:$input);
  let results = (outs Variadic<AnyVectorOfAnyRank>:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
}

def Tpu_CreateMaskOp
    : Tpu_Op<"create_mask", [Pure, SameVariadicOperandSize]> {
  let summary = "mask of the box [low, high)";
  let arguments = (ins Variadic<Index>:$low, Variadic<Index>:$high);
  let results = (outs AnyType:$output);
  let assemblyFormat = "`[` $low `]` `[` $high `]` attr-dict `:` type($output)";
}

def Tpu_CreateSubelementMaskOp : Tpu_Op<"create_subelement_mask", [Pure]> {
  let arguments = (ins I32Attr:$from, I32Attr:$to);
  let results = (outs AnyType:$output);
  let assemblyFormat = "$from `,` $to attr-dict `:` type($output)";
}

def Tpu_AssumeMultipleOp
    : Tpu_Op<"assume_multiple", [Pure, SameOperandsAndResultType]> {
  let summary = "asserts that `value` is a multiple of `multiple`";
  let arguments = (ins AnyTypeOf<[Index, AnyInteger]>:$value,
                       I32Attr:$multiple);
  let results = (outs AnyTypeOf<[Index, AnyInteger]>:$result);
  let assemblyFormat = "$value `,` $multiple attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memref views
//===----------------------------------------------------------------------===//

def Tpu_MemRefSliceOp
    : Tpu_Op<"memref_slice", [Pure, AttrSizedOperandSegments]> {
  let summary = "a window of a memref at `base_idx` (the result type gives its shape)";
  let arguments = (ins AnyMemRef:$mem_ref, Variadic<I32>:$base_idx,
                       Variadic<I32>:$dynamic_sizes);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = [{
    $mem_ref `[` $base_idx `]` (`<` $dynamic_sizes^ `>`)? attr-dict `:` type($mem_ref) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tpu_MemRefSqueezeOp : Tpu_Op<"memref_squeeze", [Pure]> {
  let summary = "drops unit dimensions of a memref";
  let arguments = (ins AnyMemRef:$input);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tpu_MemRefReshapeOp : Tpu_Op<"memref_reshape", [Pure]> {
  let arguments = (ins AnyMemRef:$input);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tpu_MemRefBitcastOp : Tpu_Op<"memref_bitcast", [Pure]> {
  let arguments = (ins AnyMemRef:$input);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tpu_ReinterpretCastOp
    : Tpu_Op<"reinterpret_cast", [Pure, AttrSizedOperandSegments]> {
  let arguments = (ins AnyMemRef:$input, Optional<I32>:$dynamic_offset,
                       Variadic<I32>:$dynamic_sizes);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = [{
    $input ($dynamic_offset^)? (`<` $dynamic_sizes^ `>`)? attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tpu_AssumeLayoutOp : Tpu_Op<"assume_layout", [Pure]> {
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Tpu_EraseLayoutOp : Tpu_Op<"erase_memref_layout", [Pure]> {
  let arguments = (ins AnyMemRef:$operand);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Ids, semaphores, DMAs
//===----------------------------------------------------------------------===//

def Tpu_DeviceIdOp : Tpu_Op<"device_id", [Pure]> {
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tpu_CoreIdOp : Tpu_Op<"core_id", [Pure]> {
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tpu_SubcoreIdOp : Tpu_Op<"subcore_id", [Pure]> {
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tpu_SemaphoreReadOp : Tpu_Op<"sem_read"> {
  let arguments = (ins Tpu_AnySemaphoreRef:$semaphore);
  let results = (outs I32:$result);
  let assemblyFormat = "$semaphore attr-dict `:` type($semaphore) `->` type($result)";
  let hasVerifier = 1;
}

def Tpu_SemaphoreWaitOp : Tpu_Op<"sem_wait"> {
  let arguments = (ins Tpu_SemaphoreRef:$semaphore, I32:$amount);
  let assemblyFormat = "$semaphore `,` $amount attr-dict `:` type($semaphore)";
  let hasVerifier = 1;
}

def Tpu_AllocaSemaphoreOp : Tpu_Op<"sem_alloc"> {
  let results = (outs Tpu_AnySemaphoreRef:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tpu_GetBarrierSemaphoreOp : Tpu_Op<"sem_barrier"> {
  let results = (outs Tpu_SemaphoreRef:$semaphore);
  let assemblyFormat = "attr-dict `:` type($semaphore)";
  let hasVerifier = 1;
}

def Tpu_SemaphoreSignalOp
    : Tpu_Op<"sem_signal", [AttrSizedOperandSegments]> {
  let summary = "adds `amount` to a semaphore, here or on another device/core";
  let arguments = (ins
    Tpu_SemaphoreRef:$semaphore,
    I32:$amount,
    Optional<I32>:$device_id,
    Optional<I32>:$core_id,
    Optional<I32>:$subcore_id
  );
  let assemblyFormat = [{
    $semaphore `,` $amount (`device_id` $device_id^)? (`core_id` $core_id^)? (`subcore_id` $subcore_id^)? attr-dict `:` type($semaphore)
  }];
  let hasVerifier = 1;
}

def Tpu_BarrierOp : Tpu_Op<"barrier"> {
  let arguments = (ins Index:$barrier_id);
  let assemblyFormat = "`barrier_id` `(` $barrier_id `)` attr-dict";
}

def Tpu_EnqueueDMAOp : Tpu_Op<"enqueue_dma", [AttrSizedOperandSegments]> {
  let summary = "starts a copy source → target; target_semaphore counts its completion";
  let arguments = (ins
    AnyMemRef:$source,
    Optional<Tpu_AnySemaphoreRef>:$source_semaphore,
    AnyMemRef:$target,
    Optional<Tpu_AnySemaphoreRef>:$target_semaphore,
    Optional<I32>:$device_id,
    Optional<I32>:$core_id,
    Optional<I32>:$subcore_id,
    DefaultValuedAttr<I32Attr, "0">:$priority,
    DefaultValuedAttr<BoolAttr, "false">:$strict_ordering
  );
  let assemblyFormat = [{
    `source` `(` $source `:` type($source) `)`
    `target` `(` $target `:` type($target) `)`
    (`source_semaphore` `(` $source_semaphore^ `:` type($source_semaphore) `)`)?
    (`target_semaphore` `(` $target_semaphore^ `:` type($target_semaphore) `)`)?
    (`device_id` `(` $device_id^ `)`)?
    (`core_id` `(` $core_id^ `)`)?
    (`subcore_id` `(` $subcore_id^ `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def Tpu_EnqueueIndirectDMAOp : Tpu_Op<"enqueue_indirect_dma"> {
  let arguments = (ins
    AnyMemRef:$source,
    AnyMemRef:$target,
    AnyTypeOf<[MemRefOf<[I32]>, VectorOfRankAndType<[1], [I32]>]>:$offsets,
    Tpu_DMASemaphoreRef:$semaphore,
    Optional<I32>:$offset_filter,
    DefaultValuedAttr<BoolAttr, "false">:$add
  );
  let assemblyFormat = [{
    `source` `(` $source `:` type($source) `)`
    `target` `(` $target `:` type($target) `)`
    `offsets` `(` $offsets `:` type($offsets) `)`
    (`offset_filter` `(` $offset_filter^ `)`)?
    `semaphore` `(` $semaphore `:` type($semaphore) `)`
    attr-dict
  }];
  let hasVerifier = 1;
}

def Tpu_WaitDMA2Op : Tpu_Op<"wait_dma2", [AttrSizedOperandSegments]> {
  let summary = "waits until the DMA src → dst signalled `semaphore`";
  let arguments = (ins
    Tpu_DMASemaphoreRef:$semaphore,
    AnyMemRef:$src,
    AnyMemRef:$dst,
    Optional<I32>:$device_id,
    Optional<I32>:$core_id,
    DefaultValuedAttr<BoolAttr, "false">:$strict_ordering
  );
  let assemblyFormat = [{
    `semaphore` `(` $semaphore `:` type($semaphore) `)`
    `src` `(` $src `:` type($src) `)`
    `dst` `(` $dst `:` type($dst) `)`
    (`device_id` `(` $device_id^ `)`)?
    (`core_id` `(` $core_id^ `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def Tpu_WaitDMAOp : Tpu_Op<"wait_dma", [AttrSizedOperandSegments]> {
  let arguments = (ins
    AnyMemRef:$source,
    Optional<Tpu_AnySemaphoreRef>:$source_semaphore,
    AnyMemRef:$target,
    Optional<Tpu_AnySemaphoreRef>:$target_semaphore,
    Optional<I32>:$device_id,
    Optional<I32>:$core_id,
    Optional<I32>:$subcore_id,
    DefaultValuedAttr<I32Attr, "0">:$priority,
    DefaultValuedAttr<BoolAttr, "false">:$strict_ordering,
    BoolAttr:$wait_target
  );
  let assemblyFormat = [{
    `source` `(` $source `:` type($source) `)`
    `target` `(` $target `:` type($target) `)`
    (`source_semaphore` `(` $source_semaphore^ `:` type($source_semaphore) `)`)?
    (`target_semaphore` `(` $target_semaphore^ `:` type($target_semaphore) `)`)?
    (`device_id` `(` $device_id^ `)`)?
    (`core_id` `(` $core_id^ `)`)?
    (`subcore_id` `(` $subcore_id^ `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def Tpu_WaitIndirectDMAOp : Tpu_Op<"wait_indirect_dma"> {
  let arguments = (ins Tpu_DMASemaphoreRef:$semaphore, AnyMemRef:$src,
                       AnyMemRef:$dst);
  let assemblyFormat = [{
    `semaphore` `(` $semaphore `:` type($semaphore) `)`
    `src` `(` $src `:` type($src) `)`
    `dst` `(` $dst `:` type($dst) `)`
    attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Regions, tracing, misc
//===----------------------------------------------------------------------===//

def Tpu_RegionOp : Tpu_Op<"region", [RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"::floors::tpu::YieldOp">]> {
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region AnyRegion:$region);
  let hasVerifier = 1;
}

def Tpu_TraceOp : Tpu_Op<"trace", [RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"::floors::tpu::YieldOp">]> {
  let arguments = (ins StrAttr:$message, I32Attr:$level);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region AnyRegion:$region);
}

def Tpu_TraceStartOp : Tpu_Op<"trace_start"> {
  let arguments = (ins StrAttr:$message, I32Attr:$level);
}

def Tpu_TraceStopOp : Tpu_Op<"trace_stop">;

def Tpu_TraceValueOp : Tpu_Op<"trace_value"> {
  let arguments = (ins AnyTypeOf<[I32, F32]>:$value, StrAttr:$label);
  let assemblyFormat = "$value `,` $label attr-dict `:` type($value)";
}

def Tpu_YieldOp : Tpu_Op<"yield", [Pure, ReturnLike, Terminator]> {
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

def Tpu_DelayOp : Tpu_Op<"delay"> {
  let arguments = (ins I32:$nanos);
  let assemblyFormat = "$nanos attr-dict";
}

def Tpu_MaskCastOp : Tpu_Op<"mask_cast", [Pure]> {
  let arguments = (ins VectorOfNonZeroRankOf<[I1]>:$input);
  let results = (outs VectorOfNonZeroRankOf<[I1]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Tpu_GetIterationBoundOp : Tpu_Op<"iteration_bound"> {
  let arguments = (ins I32Attr:$dim);
  let results = (outs I32:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
}

def Tpu_GetInternalScratchOp : Tpu_Op<"internal_scratch"> {
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tpu_PRNGSeed32Op : Tpu_Op<"prng_set_seed_32"> {
  let arguments = (ins Variadic<I32>:$seeds);
}

def Tpu_PRNGRandomBitsOp : Tpu_Op<"prng_random_bits"> {
  let results = (outs AnyVectorOfNonZeroRank:$output);
}

def Tpu_SublaneShuffleOp
    : Tpu_Op<"sublane_shuffle", [SameOperandsAndResultType]> {
  let arguments = (ins Tpu_Vreg:$lhs, Tpu_Vreg:$rhs,
                       DenseI32ArrayAttr:$pattern);
  let results = (outs Tpu_Vreg:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $pattern attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tpu_TransposeOp : Tpu_Op<"transpose", [Pure]> {
  let arguments = (ins AnyVectorOfAnyRank:$vector,
                       DenseI64ArrayAttr:$permutation);
  let results = (outs AnyVectorOfAnyRank:$result);
  let assemblyFormat = [{
    $vector `,` $permutation attr-dict `:` type($vector) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tpu_LogOp : Tpu_Op<"log"> {
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$tag,
                       DefaultValuedAttr<BoolAttr, "false">:$formatted);
  let assemblyFormat = "$tag attr-dict (`:` `[` $inputs^ `]` `:` type($inputs))?";
}

def Tpu_LogBufferOp : Tpu_Op<"log_buffer"> {
  let arguments = (ins AnyMemRef:$input, DenseI64ArrayAttr:$shape,
                       StrAttr:$tag);
  let assemblyFormat = "$tag attr-dict `:` $input `:` type($input)";
}

def Tpu_FetchAndAddSyncOp : Tpu_Op<"fetch_and_add_sync",
    [Tpu_MemRead, Tpu_MemWrite]> {
  let summary = "atomic fetch-and-add on an SMEM element of another core";
  let arguments = (ins MemRefOf<[I32]>:$base, Variadic<I32>:$indices,
                       I32:$value, I32:$core_id);
  let results = (outs I32:$result);
  let assemblyFormat = [{
    $base `[` $indices `]` `,` $value `,` $core_id attr-dict `:` type($base) `,` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // FLOORS_TPU_OPS_TD
