//===- SdyOps.td - the sdy (Shardy) dialect, as floors reads it -*- tablegen -*-===//
//
// The part of Shardy's `sdy` dialect that JAX 0.10.2 prints into
// `jax.jit(f).lower(...).as_text()`: meshes, shardings on arguments, results
// and ops, and sharding constraints. floors keeps the texts of meshes and
// shardings as written (`#sdy.sharding<...>` and the like are
// `#sdy` attributes holding their spec verbatim) and reads only what it needs
// (the device count of a mesh); `floors-hlo-drop-one-device-shardings`
// removes them from programs for one device. Written from the textual forms
// of the Shardy documentation and JAX's output.
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_SDY_OPS_TD
#define FLOORS_SDY_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Sdy_Dialect : Dialect {
  let name = "sdy";
  let cppNamespace = "::floors::sdy";
  let summary = "Shardy's meshes and shardings, kept as written";
  let description = [{
    `sdy.mesh @name = <axes[, device_ids=[...]]>`, `sdy.sharding_constraint`,
    and every `#sdy.<mnemonic><...>` attribute (a sharding, a per-value
    sharding, a sharding rule), stored as its text.
  }];
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser, ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr, ::mlir::DialectAsmPrinter &printer) const override;
  }];
}

// `#sdy.sharding<@mesh, [{"x"}, {}]>`, `#sdy.sharding_per_value<[...]>`, ...:
// the text after `#sdy.`, mnemonic included.
def Sdy_VerbatimAttr : AttrDef<Sdy_Dialect, "Verbatim"> {
  let summary = "an sdy attribute, kept as its text";
  // Not spelled in the IR: the dialect parses and prints it (`#sdy.sharding<...>`).
  let mnemonic = "verbatim";
  let hasCustomAssemblyFormat = 1;
  let parameters = (ins StringRefParameter<"the attribute's text after `#sdy.`">:$spec);
}

class Sdy_Op<string mnemonic, list<Trait> traits = []> : Op<Sdy_Dialect, mnemonic, traits>;

//   sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = ...}
//   sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
def Sdy_MeshOp : Sdy_Op<"mesh"> {
  let summary = "a named mesh of devices";
  let arguments = (ins StrAttr:$sym_name, StrAttr:$mesh);
  let hasCustomAssemblyFormat = 1;
}

//   %r = sdy.sharding_constraint %x <@mesh, [{"x"}]> : tensor<8xf32>
def Sdy_ShardingConstraintOp : Sdy_Op<"sharding_constraint"> {
  let summary = "a value with the sharding it must have here";
  let arguments = (ins AnyType:$input, StrAttr:$sharding);
  let results = (outs AnyType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // FLOORS_SDY_OPS_TD
