//===- StablehloEnums.td - stablehlo enums -------------------*- tablegen -*-===//
//
// Enums of the spec. Each EnumAttr prints as `#stablehlo<name VALUE>` in
// attribute position and as bare `VALUE` inside an op's custom syntax.
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_STABLEHLO_ENUMS
#define FLOORS_STABLEHLO_ENUMS

include "StablehloBase.td"

def Stablehlo_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "comparison direction of stablehlo.compare", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::stablehlo";
}
def Stablehlo_ComparisonDirectionAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_ComparisonDirection, "comparison_direction">;

def Stablehlo_ComparisonType : I32EnumAttr<"ComparisonType",
    "comparison type of stablehlo.compare", [
      I32EnumAttrCase<"NOTYPE", 0>, I32EnumAttrCase<"FLOAT", 1>,
      I32EnumAttrCase<"TOTALORDER", 2>, I32EnumAttrCase<"SIGNED", 3>,
      I32EnumAttrCase<"UNSIGNED", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::stablehlo";
}
def Stablehlo_ComparisonTypeAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_ComparisonType, "comparison_type">;

def Stablehlo_Precision : I32EnumAttr<"Precision",
    "precision of a dot or convolution operand", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGH", 1>,
      I32EnumAttrCase<"HIGHEST", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::stablehlo";
}
def Stablehlo_PrecisionAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_Precision, "precision">;
def Stablehlo_PrecisionConfigAttr
    : TypedArrayAttrBase<Stablehlo_PrecisionAttr, "precision config">;

// The accuracy an op's result is asked for (`lax.exp(x, accuracy=...)`):
// `#stablehlo.result_accuracy_mode<TOLERANCE>` inside a result_accuracy.
def Stablehlo_ResultAccuracyMode : I32EnumAttr<"ResultAccuracyMode",
    "accuracy mode of a transcendental op's result", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGHEST", 1>,
      I32EnumAttrCase<"TOLERANCE", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::stablehlo";
}
def Stablehlo_ResultAccuracyModeAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_ResultAccuracyMode, "result_accuracy_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

def Stablehlo_RngAlgorithm : I32EnumAttr<"RngAlgorithm",
    "algorithm of stablehlo.rng_bit_generator", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"THREE_FRY", 1>,
      I32EnumAttrCase<"PHILOX", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::stablehlo";
}
def Stablehlo_RngAlgorithmAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_RngAlgorithm, "rng_algorithm">;

// `transpose_a` of stablehlo.triangular_solve: `#stablehlo<transpose NO_TRANSPOSE>`.
def Stablehlo_Transpose : I32EnumAttr<"Transpose",
    "how stablehlo.triangular_solve uses its matrix a", [
      I32EnumAttrCase<"TRANSPOSE_INVALID", 0>, I32EnumAttrCase<"NO_TRANSPOSE", 1>,
      I32EnumAttrCase<"TRANSPOSE", 2>, I32EnumAttrCase<"ADJOINT", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::stablehlo";
}
def Stablehlo_TransposeAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_Transpose, "transpose">;

// `type` of stablehlo.fft: `type =  FFT` in the op, `#stablehlo<fft_type FFT>` alone.
def Stablehlo_FftType : I32EnumAttr<"FftType",
    "kind of fast Fourier transform", [
      I32EnumAttrCase<"FFT", 0>, I32EnumAttrCase<"IFFT", 1>,
      I32EnumAttrCase<"RFFT", 2>, I32EnumAttrCase<"IRFFT", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::stablehlo";
}
def Stablehlo_FftTypeAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_FftType, "fft_type">;

// `distribution` of stablehlo.rng: `#stablehlo<rng_distribution UNIFORM>`.
def Stablehlo_RngDistribution : I32EnumAttr<"RngDistribution",
    "distribution of stablehlo.rng", [
      I32EnumAttrCase<"UNIFORM", 1>, I32EnumAttrCase<"NORMAL", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::stablehlo";
}
def Stablehlo_RngDistributionAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_RngDistribution, "rng_distribution">;

// Stored as a plain i32 (JAX prints `api_version = 2 : i32`).
def Stablehlo_CustomCallApiVersionAttr : I32EnumAttr<"CustomCallApiVersion",
    "custom call API version", [
      I32EnumAttrCase<"API_VERSION_UNSPECIFIED", 0>,
      I32EnumAttrCase<"API_VERSION_ORIGINAL", 1>,
      I32EnumAttrCase<"API_VERSION_STATUS_RETURNING", 2>,
      I32EnumAttrCase<"API_VERSION_STATUS_RETURNING_UNIFIED", 3>,
      I32EnumAttrCase<"API_VERSION_TYPED_FFI", 4>]> {
  let cppNamespace = "::floors::stablehlo";
}

#endif // FLOORS_STABLEHLO_ENUMS
