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
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

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

//   %r:2 = sdy.manual_computation(%a, %b)
//       in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>]
//       out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>]
//       manual_axes={"x"} (%la: tensor<2x4xf32>, %lb: tensor<2x4xf32>) {
//     ...
//     sdy.return %u, %v : tensor<1x4xf32>, tensor<2x4xf32>
//   } : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<1x4xf32>, tensor<8x4xf32>)
// What `shard_map` lowers to: the body is the per-device program over the
// local shards of the operands (global types outside, local types of the
// block arguments inside); each in/out sharding is kept as its text.
def Sdy_ManualComputationOp : Sdy_Op<"manual_computation",
    [IsolatedFromAbove, RecursiveMemoryEffects, SingleBlock]> {
  let summary = "a per-device body over local shards (shard_map)";
  let arguments = (ins Variadic<AnyType>:$tensors, StrArrayAttr:$in_shardings,
                   StrArrayAttr:$out_shardings, StrArrayAttr:$manual_axes);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//   sdy.return %u, %v : tensor<1x4xf32>, tensor<2x4xf32>
def Sdy_ReturnOp : Sdy_Op<"return",
    [Pure, Terminator, HasParent<"ManualComputationOp">]> {
  let summary = "the local results of a manual computation's body";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

#endif // FLOORS_SDY_OPS_TD
