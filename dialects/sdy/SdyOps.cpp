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

#define GET_OP_CLASSES
#include "sdy/SdyOps.cpp.inc"
