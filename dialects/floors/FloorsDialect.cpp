//===- FloorsDialect.cpp - floors.fusion syntax and verifier -------------===//
//
// Custom syntax, so a fused module reads like the program it came from:
//   %r = floors.fusion loop hero "stablehlo.add"
//          (%a = %arg0 : tensor<8xf32>, %b = %arg1 : tensor<8xf32>) -> tensor<8xf32> {
//     ...
//     floors.yield %v : tensor<8xf32>
//   }
// After floors-linalg-lower-stablehlo the body computes on signless integers
// while the operands keep the program's unsigned types; a body argument whose
// type differs from its operand's is printed `%a = %arg0 : tensor<8xui32> as
// tensor<8xi32>`.
//
//===----------------------------------------------------------------------===//

#include "floors/FloorsDialect.h"

#include "mlir/IR/Builders.h"
#include <limits>
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace floors::fusion;

#include "floors/FloorsDialect.cpp.inc"
#include "floors/FloorsEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "floors/FloorsAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "floors/FloorsOps.cpp.inc"

void FloorsDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "floors/FloorsAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "floors/FloorsOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// FusionOp
//===----------------------------------------------------------------------===//

ParseResult FusionOp::parse(OpAsmParser &parser, OperationState &result) {
  // kind keyword
  StringRef kindName;
  SMLoc kindLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&kindName))
    return failure();
  std::optional<FusionKind> kind = symbolizeFusionKind(kindName);
  if (!kind)
    return parser.emitError(kindLoc)
           << "unknown fusion kind '" << kindName
           << "' (expected loop, reduction, transpose, concatenate, "
              "input_slices, scatter, gemm, convolution or custom)";
  result.addAttribute(getKindAttrName(result.name),
                      FusionKindAttr::get(parser.getContext(), *kind));

  if (succeeded(parser.parseOptionalKeyword("hero"))) {
    std::string hero;
    if (parser.parseString(&hero))
      return failure();
    result.addAttribute(getHeroAttrName(result.name),
                        parser.getBuilder().getStringAttr(hero));
  }

  // (%arg = %operand : type, ...)
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> operandTypes;
  if (parser.parseLParen())
    return failure();
  if (failed(parser.parseOptionalRParen())) {
    do {
      OpAsmParser::Argument arg;
      OpAsmParser::UnresolvedOperand operand;
      Type type;
      if (parser.parseArgument(arg) || parser.parseEqual() ||
          parser.parseOperand(operand) || parser.parseColonType(type))
        return failure();
      arg.type = type;
      if (succeeded(parser.parseOptionalKeyword("as")) &&
          parser.parseType(arg.type))
        return failure();
      args.push_back(arg);
      operands.push_back(operand);
      operandTypes.push_back(type);
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRParen())
      return failure();
  }
  if (parser.resolveOperands(operands, operandTypes, parser.getCurrentLocation(),
                             result.operands))
    return failure();

  SmallVector<Type> resultTypes;
  if (parser.parseArrow())
    return failure();
  if (succeeded(parser.parseOptionalLParen())) {
    if (failed(parser.parseOptionalRParen()) &&
        (parser.parseTypeList(resultTypes) || parser.parseRParen()))
      return failure();
  } else {
    Type t;
    if (parser.parseType(t))
      return failure();
    resultTypes.push_back(t);
  }
  result.addTypes(resultTypes);

  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args, /*enableNameShadowing=*/false))
    return failure();
  return success();
}

void FusionOp::print(OpAsmPrinter &p) {
  p << ' ' << stringifyFusionKind(getKind());
  if (auto hero = getHeroAttr())
    p << " hero " << hero;
  p << " (";
  Block &block = getBody().front();
  for (auto [i, operand] : llvm::enumerate(getInputs())) {
    if (i)
      p << ", ";
    p.printRegionArgument(block.getArgument(i), /*argAttrs=*/{},
                          /*omitType=*/true);
    p << " = " << operand << " : " << operand.getType();
    if (block.getArgument(i).getType() != operand.getType())
      p << " as " << block.getArgument(i).getType();
  }
  p << ") -> ";
  if (getNumResults() == 1 &&
      !llvm::isa<FunctionType>(getResult(0).getType()))
    p << getResult(0).getType();
  else {
    p << '(';
    llvm::interleaveComma(getResultTypes(), p);
    p << ')';
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getKindAttrName(), getHeroAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

/// `t` with every unsigned integer (also as a tensor's element type) made
/// signless: the storage type the lowered body computes on.
static Type storageType(Type t) {
  if (auto i = llvm::dyn_cast<IntegerType>(t))
    return i.isUnsigned() ? IntegerType::get(t.getContext(), i.getWidth()) : t;
  if (auto r = llvm::dyn_cast<RankedTensorType>(t))
    return RankedTensorType::get(r.getShape(), storageType(r.getElementType()),
                                 r.getEncoding());
  if (auto u = llvm::dyn_cast<UnrankedTensorType>(t))
    return UnrankedTensorType::get(storageType(u.getElementType()));
  return t;
}

/// Equal, or equal once unsigned integers are signless (a lowered body).
static bool sameStorage(Type a, Type b) {
  return a == b || storageType(a) == storageType(b);
}

LogicalResult FusionOp::verify() {
  if (auto hero = getHeroAttr())
    if (hero.getValue().empty())
      return emitOpError("hero must name an op, got an empty string");
  return success();
}

LogicalResult FusionOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("body has ")
           << block.getNumArguments() << " arguments but the fusion has "
           << getInputs().size() << " operands; they must correspond one to one";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(block.getArguments(), getInputs()))) {
    auto [arg, operand] = pair;
    if (!sameStorage(arg.getType(), operand.getType()))
      return emitOpError("body argument #")
             << i << " has type " << arg.getType() << " but operand #" << i
             << " has type " << operand.getType();
  }
  auto yield = llvm::dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return emitOpError("body must end with floors.yield");
  if (yield.getValues().size() != getNumResults())
    return yield.emitOpError("yields ")
           << yield.getValues().size() << " values but the enclosing fusion has "
           << getNumResults() << " results";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(yield.getValues().getTypes(), getResultTypes()))) {
    auto [yt, rt] = pair;
    if (!sameStorage(yt, rt))
      return yield.emitOpError("value #")
             << i << " has type " << yt << " but fusion result #" << i
             << " has type " << rt;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CpuTargetAttr and the `floors.target` module attribute
//===----------------------------------------------------------------------===//

LogicalResult
CpuTargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringRef triple, StringRef cpu, StringRef features,
                      unsigned vectorBits) {
  if (triple.empty())
    return emitError() << "#floors.cpu_target needs a target triple";
  if (cpu.empty())
    return emitError() << "#floors.cpu_target needs a CPU name";
  if (cpu == "host")
    return emitError()
           << "#floors.cpu_target cannot name the CPU 'host': the driver "
              "resolves the host to a CPU name before compiling";
  if (vectorBits != 128 && vectorBits != 256 && vectorBits != 512)
    return emitError() << "#floors.cpu_target vector_bits must be 128, 256 "
                          "or 512, got "
                       << vectorBits;
  return success();
}

LogicalResult
TpuTargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringRef chip, uint64_t vmemLimitBytes,
                      uint64_t vmemBytes, unsigned mxu) {
  if (chip.empty())
    return emitError() << "#floors.tpu_target needs a chip (v5e, v5p, v6e)";
  if (vmemBytes == 0 || vmemLimitBytes == 0 || vmemLimitBytes > vmemBytes)
    return emitError() << "#floors.tpu_target needs 0 < vmem_limit_bytes <= "
                          "vmem_bytes, got "
                       << vmemLimitBytes << " and " << vmemBytes;
  if (mxu != 128 && mxu != 256)
    return emitError() << "#floors.tpu_target mxu must be 128 or 256, got "
                       << mxu;
  return success();
}

LogicalResult GpuTargetAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef chip,
    unsigned smCount, unsigned warpSize, unsigned maxThreadsPerBlock,
    unsigned maxThreadsPerSm, uint64_t sharedMemoryPerBlock,
    uint64_t sharedMemoryPerBlockOptin, uint64_t sharedMemoryPerSm,
    unsigned registersPerBlock, unsigned registersPerThread,
    uint64_t l2CacheBytes, unsigned clockKhz, uint64_t memoryBandwidth) {
  if (chip != "sm_80" && chip != "sm_90" && chip != "sm_90a")
    return emitError() << "#floors.gpu_target chip must be sm_80, sm_90 or "
                          "sm_90a, got '"
                       << chip << "'";
  if (smCount == 0 || warpSize != 32 || maxThreadsPerBlock == 0 ||
      maxThreadsPerBlock > maxThreadsPerSm || maxThreadsPerBlock % 32 != 0)
    return emitError() << "#floors.gpu_target needs sm_count > 0, warp_size "
                          "32 and 0 < max_threads_per_block (a multiple of "
                          "32) <= max_threads_per_sm";
  if (sharedMemoryPerBlock == 0 ||
      sharedMemoryPerBlock > sharedMemoryPerBlockOptin ||
      sharedMemoryPerBlockOptin > sharedMemoryPerSm)
    return emitError() << "#floors.gpu_target needs 0 < "
                          "shared_memory_per_block <= "
                          "shared_memory_per_block_optin <= "
                          "shared_memory_per_sm";
  if (registersPerBlock == 0 || registersPerThread == 0)
    return emitError() << "#floors.gpu_target needs registers";
  return success();
}

LogicalResult
GpuEmitterAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       StringRef kind, StringRef reason,
                       DenseI64ArrayAttr block, DenseI64ArrayAttr grid) {
  static const char *const kinds[] = {"loop",         "reduction",
                                      "transpose",    "concatenate",
                                      "input_slices", "scatter",
                                      "gemm",         "cublas"};
  if (llvm::none_of(kinds, [&](const char *k) { return kind == k; }))
    return emitError() << "#floors.gpu_emitter: unknown emitter kind '"
                       << kind << "'";
  // A library call (cublas) launches nothing of floors': no dimensions.
  int64_t least = kind == "cublas" ? 0 : 1;
  for (auto [name, dims] : {std::pair<const char *, DenseI64ArrayAttr>{
                                "block", block},
                            {"grid", grid}}) {
    if (!dims || dims.size() != 3 ||
        llvm::any_of(dims.asArrayRef(),
                     [&](int64_t d) { return d < least; }))
      return emitError() << "#floors.gpu_emitter: " << name
                         << " must be three dimensions of at least " << least;
  }
  return success();
}

// Three dimensions, each at least `least`.
static bool isDims3(DenseI64ArrayAttr dims, int64_t least) {
  return dims && dims.size() == 3 &&
         llvm::all_of(dims.asArrayRef(),
                      [&](int64_t d) { return d >= least; });
}

LogicalResult
TpuPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                    StringRef strategy, DenseI64ArrayAttr grid,
                    DenseI64ArrayAttr block) {
  int64_t axes;
  if (strategy == "rows")
    axes = 1;
  else if (strategy == "matmul")
    axes = 3;
  else if (strategy == "whole")
    axes = 0;
  else
    return emitError() << "#floors.tpu_plan: unknown strategy '" << strategy
                       << "' (rows, matmul or whole)";
  if (!grid || !block || (int64_t)grid.size() != axes ||
      (int64_t)block.size() != axes)
    return emitError() << "#floors.tpu_plan: a '" << strategy
                       << "' plan has " << axes << " grid and block axes";
  for (auto dims : {grid, block})
    if (llvm::any_of(dims.asArrayRef(), [](int64_t d) { return d < 1; }))
      return emitError()
             << "#floors.tpu_plan: grid and block sizes must be at least 1";
  return success();
}

LogicalResult LibraryCallAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef call,
    uint64_t batch, uint64_t m, uint64_t n, uint64_t k, BoolAttr transposeLhs,
    BoolAttr transposeRhs, uint64_t lhsBatchStride, uint64_t rhsBatchStride) {
  if (call != "gemm")
    return emitError() << "#floors.library_call: unknown call '" << call
                       << "' (gemm is the one the runtime has)";
  if (!transposeLhs || !transposeRhs)
    return emitError() << "#floors.library_call: transposes must be booleans";
  // Batches of an operand may share one matrix (stride 0) but not overlap.
  auto fits = [&](uint64_t stride, uint64_t rows, uint64_t cols) {
    return batch <= 1 || stride == 0 ||
           (rows != 0 && cols > std::numeric_limits<uint64_t>::max() / rows) ||
           stride >= rows * cols;
  };
  if (!fits(lhsBatchStride, m, k))
    return emitError() << "#floors.library_call: lhs_batch_stride "
                       << lhsBatchStride << " is neither 0 nor at least m*k";
  if (!fits(rhsBatchStride, k, n))
    return emitError() << "#floors.library_call: rhs_batch_stride "
                       << rhsBatchStride << " is neither 0 nor at least k*n";
  return success();
}

LogicalResult
LaunchArgAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringRef kind, uint64_t index) {
  if (kind != "in" && kind != "out" && kind != "tmp")
    return emitError() << "#floors.launch_arg: kind '" << kind
                       << "' is not in, out or tmp";
  return success();
}

LogicalResult
GpuLaunchAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringRef module, StringRef entry,
                      DenseI64ArrayAttr grid, DenseI64ArrayAttr block,
                      ArrayAttr args) {
  if (module.empty() || entry.empty())
    return emitError() << "#floors.gpu_launch: needs a module and an entry";
  if (!isDims3(grid, 1) || !isDims3(block, 1))
    return emitError() << "#floors.gpu_launch: grid and block must be three "
                          "dimensions of at least 1";
  if (!args || !llvm::all_of(args, llvm::IsaPred<LaunchArgAttr>))
    return emitError()
           << "#floors.gpu_launch: args must be #floors.launch_arg";
  return success();
}

LogicalResult
GpuKernelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringRef fusion, DenseI64ArrayAttr temps,
                      ArrayAttr launches) {
  if (!temps || llvm::any_of(temps.asArrayRef(),
                             [](int64_t b) { return b < 0; }))
    return emitError() << "#floors.gpu_kernel: temps are byte sizes (>= 0)";
  if (!launches || !llvm::all_of(launches, llvm::IsaPred<GpuLaunchAttr>))
    return emitError()
           << "#floors.gpu_kernel: launches must be #floors.gpu_launch";
  for (auto launch : launches.getAsRange<GpuLaunchAttr>())
    for (auto arg : launch.getArgs().getAsRange<LaunchArgAttr>())
      if (arg.getKind() == "tmp" && arg.getIndex() >= temps.size())
        return emitError() << "#floors.gpu_kernel: launch argument tmp "
                           << arg.getIndex() << " of '" << fusion
                           << "' names no temporary (it has " << temps.size()
                           << ")";
  return success();
}

LogicalResult
CpuScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        StringRef kind, DenseI64ArrayAttr tile,
                        DenseI64ArrayAttr inner, uint64_t k, BoolAttr peel,
                        DenseI64ArrayAttr rows) {
  if (!tile || !inner || !rows || !peel)
    return emitError() << "#floors.cpu_schedule: missing parameters";
  for (auto sizes : {tile, inner, rows})
    if (llvm::any_of(sizes.asArrayRef(), [](int64_t s) { return s < 0; }))
      return emitError() << "#floors.cpu_schedule: tile sizes must be >= 0";
  if (kind == "matmul" || kind == "row_reduction") {
    if (inner.size() != tile.size())
      return emitError() << "#floors.cpu_schedule: a '" << kind
                         << "' schedule has as many inner sizes as tile "
                            "sizes";
    if (kind == "matmul" && k >= tile.size())
      return emitError() << "#floors.cpu_schedule: k = " << k
                         << " names no loop of the " << tile.size();
  } else if (kind == "elementwise" || kind == "conv") {
    if (!inner.empty())
      return emitError() << "#floors.cpu_schedule: a '" << kind
                         << "' schedule has no inner tile";
  } else {
    return emitError() << "#floors.cpu_schedule: unknown kind '" << kind
                       << "' (matmul, elementwise, row_reduction or conv)";
  }
  if (peel.getValue() && kind != "elementwise" && kind != "conv")
    return emitError()
           << "#floors.cpu_schedule: only elementwise and conv schedules peel";
  if (peel.getValue() && kind == "conv" &&
      (k >= tile.size() || tile[k] < 2))
    return emitError() << "#floors.cpu_schedule: a peeled 'conv' schedule "
                          "names in k a loop of its "
                       << tile.size() << " tiled by more than 1";
  if (!rows.empty() && (kind != "elementwise" || rows.size() != tile.size()))
    return emitError() << "#floors.cpu_schedule: rows (a row fusion) are "
                          "one size per loop of an elementwise root";
  return success();
}

LogicalResult FloorsDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() == "floors.gpu_emitter") {
    if (!llvm::isa<FusionOp>(op))
      return op->emitError()
             << "'floors.gpu_emitter' must be on a floors.fusion";
    if (!llvm::isa<GpuEmitterAttr>(attr.getValue()))
      return op->emitError()
             << "'floors.gpu_emitter' must be a #floors.gpu_emitter, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == "floors.tpu_plan") {
    if (!llvm::isa<TpuPlanAttr>(attr.getValue()))
      return op->emitError()
             << "'floors.tpu_plan' must be a #floors.tpu_plan, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == "floors.cpu_schedule") {
    if (!llvm::isa<CpuScheduleAttr>(attr.getValue()))
      return op->emitError()
             << "'floors.cpu_schedule' must be a #floors.cpu_schedule, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == "floors.library_call") {
    if (!llvm::isa<LibraryCallAttr>(attr.getValue()))
      return op->emitError()
             << "'floors.library_call' must be a #floors.library_call, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == "floors.gpu_kernels") {
    auto array = llvm::dyn_cast<ArrayAttr>(attr.getValue());
    if (!array || !llvm::all_of(array, llvm::IsaPred<GpuKernelAttr>))
      return op->emitError() << "'floors.gpu_kernels' must be an array of "
                                "#floors.gpu_kernel, got "
                             << attr.getValue();
    return success();
  }
  if (attr.getName() != "floors.target")
    return success();
  if (!llvm::isa<ModuleOp>(op))
    return op->emitError() << "'floors.target' must be on a builtin.module";
  if (!llvm::isa<CpuTargetAttr, TpuTargetAttr, GpuTargetAttr>(
          attr.getValue()))
    return op->emitError()
           << "'floors.target' must be a #floors.cpu_target, a "
              "#floors.tpu_target or a #floors.gpu_target, got "
           << attr.getValue();
  return success();
}
