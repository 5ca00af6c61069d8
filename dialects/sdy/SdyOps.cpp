//===- SdyOps.cpp - floors' reading of the sdy dialect ---------------------===//
//
// Meshes and shardings are kept as their text: a balanced `<...>` group is
// read token by token (strings, symbols, integers, keywords, punctuation,
// nested brackets) and written back in a canonical spacing. Nothing here
// interprets a sharding; `floors-hlo-drop-one-device-shardings` reads the
// device count of a mesh from its text.
//
//===----------------------------------------------------------------------===//

#include "sdy/SdyDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using namespace floors::sdy;

#include "sdy/SdyDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "sdy/SdyAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "sdy/SdyTypes.cpp.inc"

void SdyDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "sdy/SdyOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "sdy/SdyAttrs.cpp.inc"
      >();
}

namespace {

/// Deepest nesting of brackets a mesh or sharding may have (a sharding per
/// value is four levels deep): deeper input is refused, not recursed into.
constexpr size_t kMaxDepth = 64;

/// Reads the rest of a bracketed group whose opening `<` was just read, up
/// to its matching `>`, appending its text (`>` included) to `os`.
ParseResult parseGroupRest(AsmParser &p, llvm::raw_ostream &os) {
  SmallVector<char> closers{'>'};
  while (!closers.empty()) {
    char close = closers.back();
    bool closed = (close == '>' && succeeded(p.parseOptionalGreater())) ||
                  (close == ']' && succeeded(p.parseOptionalRSquare())) ||
                  (close == '}' && succeeded(p.parseOptionalRBrace())) ||
                  (close == ')' && succeeded(p.parseOptionalRParen()));
    if (closed) {
      os << close;
      closers.pop_back();
      continue;
    }
    char open = 0;
    if (succeeded(p.parseOptionalLess()))
      open = '>';
    else if (succeeded(p.parseOptionalLSquare()))
      open = ']';
    else if (succeeded(p.parseOptionalLBrace()))
      open = '}';
    else if (succeeded(p.parseOptionalLParen()))
      open = ')';
    if (open) {
      if (closers.size() >= kMaxDepth)
        return p.emitError(p.getCurrentLocation(),
                           "sdy attribute nested deeper than ")
               << kMaxDepth << " brackets";
      os << (open == '>' ? '<' : open == ']' ? '[' : open == '}' ? '{' : '(');
      closers.push_back(open);
      continue;
    }
    if (succeeded(p.parseOptionalComma())) {
      os << ", ";
      continue;
    }
    if (succeeded(p.parseOptionalEqual())) {
      os << '=';
      continue;
    }
    if (succeeded(p.parseOptionalColon())) {
      os << ':';
      continue;
    }
    if (succeeded(p.parseOptionalQuestion())) {
      os << '?';
      continue;
    }
    std::string s;
    if (succeeded(p.parseOptionalString(&s))) {
      os << '"';
      llvm::printEscapedString(s, os);
      os << '"';
      continue;
    }
    StringAttr sym;
    if (succeeded(p.parseOptionalSymbolName(sym))) {
      os << '@' << sym.getValue();
      continue;
    }
    int64_t i = 0;
    OptionalParseResult num = p.parseOptionalInteger(i);
    if (num.has_value()) {
      if (failed(*num))
        return failure();
      os << i;
      continue;
    }
    StringRef kw;
    if (succeeded(p.parseOptionalKeyword(&kw))) {
      os << kw;
      continue;
    }
    return p.emitError(p.getCurrentLocation(),
                       "unexpected token in an sdy mesh or sharding");
  }
  return success();
}

/// Reads a bracketed group starting with `<` and appends its text to `out`.
ParseResult parseBalanced(AsmParser &p, std::string &out) {
  if (p.parseLess())
    return failure();
  llvm::raw_string_ostream os(out);
  os << '<';
  return parseGroupRest(p, os);
}

} // namespace

//===----------------------------------------------------------------------===//
// Attributes: #sdy.<mnemonic><...>, kept verbatim.
//===----------------------------------------------------------------------===//

Attribute SdyDialect::parseAttribute(DialectAsmParser &parser,
                                     Type type) const {
  StringRef spec = parser.getFullSymbolSpec();
  StringRef mnemonic;
  if (parser.parseKeyword(&mnemonic))
    return {};
  // The group is read for its tokens; the text kept is the spec as written.
  std::string ignored;
  llvm::raw_string_ostream os(ignored);
  if (succeeded(parser.parseOptionalLess()) &&
      failed(parseGroupRest(parser, os)))
    return {};
  return VerbatimAttr::get(getContext(), spec);
}

// The dialect parses and prints every #sdy attribute itself (above and
// below); these are the attribute class's own hooks, which ODS requires.
Attribute VerbatimAttr::parse(AsmParser &parser, Type) {
  parser.emitError(parser.getCurrentLocation(),
                   "#sdy attributes are read by the sdy dialect");
  return {};
}

void VerbatimAttr::print(AsmPrinter &printer) const { printer << getSpec(); }

void SdyDialect::printAttribute(Attribute attr,
                                DialectAsmPrinter &printer) const {
  if (auto v = llvm::dyn_cast<VerbatimAttr>(attr))
    printer << v.getSpec();
}

//===----------------------------------------------------------------------===//
// sdy.mesh @name = <...> {attrs}
//===----------------------------------------------------------------------===//

ParseResult MeshOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  std::string mesh;
  if (parser.parseSymbolName(name) || parser.parseEqual() ||
      parseBalanced(parser, mesh) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  Builder b(parser.getContext());
  result.addAttribute("sym_name", name);
  result.addAttribute("mesh", b.getStringAttr(mesh));
  return success();
}

void MeshOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  p << " = " << getMesh();
  p.printOptionalAttrDict((*this)->getAttrs(), {"sym_name", "mesh"});
}

//===----------------------------------------------------------------------===//
// %r = sdy.sharding_constraint %x <...> {attrs} : type
//===----------------------------------------------------------------------===//

ParseResult ShardingConstraintOp::parse(OpAsmParser &parser,
                                        OperationState &result) {
  OpAsmParser::UnresolvedOperand input;
  std::string sharding;
  Type type;
  if (parser.parseOperand(input) || parseBalanced(parser, sharding) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperand(input, type, result.operands))
    return failure();
  result.addAttribute("sharding",
                      Builder(parser.getContext()).getStringAttr(sharding));
  result.addTypes(type);
  return success();
}

void ShardingConstraintOp::print(OpAsmPrinter &p) {
  p << ' ' << getInput() << ' ' << getSharding();
  p.printOptionalAttrDict((*this)->getAttrs(), {"sharding"});
  p << " : " << getInput().getType();
}

LogicalResult ShardingConstraintOp::verify() {
  if (getInput().getType() != getResult().getType())
    return emitOpError("result type ")
           << getResult().getType() << " differs from the operand's "
           << getInput().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// sdy.manual_computation(%x, ...) in_shardings=[<...>, ...]
//     out_shardings=[<...>, ...] manual_axes={"a", ...} (%l: T, ...) {
//   body
// } : (T, ...) -> (T, ...)
//===----------------------------------------------------------------------===//

namespace {

/// `keyword=[<...>, <...>]`: a list of shardings, each kept as its text.
ParseResult parseShardingList(OpAsmParser &p, StringRef keyword,
                              SmallVectorImpl<Attribute> &out) {
  if (p.parseKeyword(keyword) || p.parseEqual() || p.parseLSquare())
    return failure();
  if (succeeded(p.parseOptionalRSquare()))
    return success();
  do {
    std::string text;
    if (parseBalanced(p, text))
      return failure();
    out.push_back(StringAttr::get(p.getContext(), text));
  } while (succeeded(p.parseOptionalComma()));
  return p.parseRSquare();
}

void printShardingList(OpAsmPrinter &p, StringRef keyword, ArrayAttr list) {
  p << keyword << "=[";
  llvm::interleaveComma(list, p, [&](Attribute a) {
    p << llvm::cast<StringAttr>(a).getValue();
  });
  p << ']';
}

} // namespace

ParseResult ManualComputationOp::parse(OpAsmParser &parser,
                                       OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Attribute> ins, outs, axes;
  if (parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren) ||
      parseShardingList(parser, "in_shardings", ins) ||
      parseShardingList(parser, "out_shardings", outs) ||
      parser.parseKeyword("manual_axes") || parser.parseEqual() ||
      parser.parseLBrace())
    return failure();
  if (failed(parser.parseOptionalRBrace())) {
    do {
      std::string axis;
      if (parser.parseString(&axis))
        return failure();
      axes.push_back(StringAttr::get(parser.getContext(), axis));
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRBrace())
      return failure();
  }
  SmallVector<OpAsmParser::Argument> args;
  Region *body = result.addRegion();
  FunctionType type;
  llvm::SMLoc typeLoc;
  if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseRegion(*body, args) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColon() || parser.getCurrentLocation(&typeLoc) ||
      parser.parseType(type) ||
      parser.resolveOperands(operands, type.getInputs(), typeLoc,
                             result.operands))
    return failure();
  Builder b(parser.getContext());
  result.addAttribute("in_shardings", b.getArrayAttr(ins));
  result.addAttribute("out_shardings", b.getArrayAttr(outs));
  result.addAttribute("manual_axes", b.getArrayAttr(axes));
  result.addTypes(type.getResults());
  return success();
}

void ManualComputationOp::print(OpAsmPrinter &p) {
  p << '(' << getTensors() << ") ";
  printShardingList(p, "in_shardings", getInShardings());
  p << ' ';
  printShardingList(p, "out_shardings", getOutShardings());
  p << " manual_axes={";
  llvm::interleaveComma(getManualAxes(), p, [&](Attribute a) {
    p << '"' << llvm::cast<StringAttr>(a).getValue() << '"';
  });
  p << "} (";
  llvm::interleaveComma(getBody().getArguments(), p,
                        [&](BlockArgument a) { p.printRegionArgument(a); });
  p << ") ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  p.printOptionalAttrDict(
      (*this)->getAttrs(), {"in_shardings", "out_shardings", "manual_axes"});
  p << " : ";
  p.printFunctionalType(getTensors().getTypes(), getResults().getTypes());
}

LogicalResult ManualComputationOp::verify() {
  if (getInShardings().size() != getTensors().size())
    return emitOpError("has ")
           << getTensors().size() << " operands but "
           << getInShardings().size() << " in_shardings";
  if (getOutShardings().size() != getResults().size())
    return emitOpError("has ")
           << getResults().size() << " results but "
           << getOutShardings().size() << " out_shardings";
  Block &block = getBody().front();
  if (block.getNumArguments() != getTensors().size())
    return emitOpError("body takes ")
           << block.getNumArguments() << " arguments for "
           << getTensors().size() << " operands";
  auto ret = llvm::dyn_cast<ReturnOp>(block.getTerminator());
  if (!ret)
    return emitOpError("body must end in sdy.return");
  if (ret.getResults().size() != getResults().size())
    return emitOpError("body returns ")
           << ret.getResults().size() << " values for "
           << getResults().size() << " results";
  for (auto [local, global] :
       llvm::zip(block.getArgumentTypes(), getTensors().getTypes())) {
    auto l = llvm::dyn_cast<RankedTensorType>(local);
    auto g = llvm::dyn_cast<RankedTensorType>(global);
    if (!l || !g || l.getRank() != g.getRank() ||
        l.getElementType() != g.getElementType())
      return emitOpError("local operand type ")
             << local << " does not match its global type " << global
             << " in rank and element type";
  }
  for (auto [local, global] :
       llvm::zip(ret.getResults().getTypes(), getResults().getTypes())) {
    auto l = llvm::dyn_cast<RankedTensorType>(local);
    auto g = llvm::dyn_cast<RankedTensorType>(global);
    if (!l || !g || l.getRank() != g.getRank() ||
        l.getElementType() != g.getElementType())
      return emitOpError("local result type ")
             << local << " does not match its global type " << global
             << " in rank and element type";
  }
  return success();
}

#define GET_OP_CLASSES
#include "sdy/SdyOps.cpp.inc"
