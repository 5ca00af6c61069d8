//===- StablehloTypes.td - stablehlo types -------------------*- tablegen -*-===//

#ifndef FLOORS_STABLEHLO_TYPES
#define FLOORS_STABLEHLO_TYPES

include "StablehloBase.td"

// `!stablehlo.token`: orders side effects (custom_call, optimization_barrier).
def Stablehlo_TokenType : TypeDef<Stablehlo_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "token: orders side-effecting ops";
}

#endif // FLOORS_STABLEHLO_TYPES
