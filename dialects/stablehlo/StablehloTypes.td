//===- StablehloTypes.td - stablehlo types -------------------*- tablegen -*-===//

#ifndef FLOORS_STABLEHLO_TYPES
#define FLOORS_STABLEHLO_TYPES

include "StablehloBase.td"

// `!stablehlo.token`: orders side effects (custom_call, optimization_barrier).
def Stablehlo_TokenType : TypeDef<Stablehlo_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "token: orders side-effecting ops";
}

// `!stablehlo.future<tensor<8x8xf32>, ...>`: the results of an async_start,
// read by async_done.
def Stablehlo_FutureType : TypeDef<Stablehlo_Dialect, "Future"> {
  let mnemonic = "future";
  let summary = "the pending results of stablehlo.async_start";
  let parameters = (ins ArrayRefParameter<"::mlir::Type">:$types);
  let assemblyFormat = "`<` $types `>`";
}

#endif // FLOORS_STABLEHLO_TYPES
