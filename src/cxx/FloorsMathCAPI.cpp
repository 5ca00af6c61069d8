#include "FloorsMathCAPI.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

using namespace mlir;

bool floorsApproximateMathOps(MlirOperation *ops, intptr_t numOps, MlirStringRef names) {
  if (numOps == 0)
    return true;
  llvm::SmallVector<llvm::StringRef> enabled;
  unwrap(names).split(enabled, ',', -1, false);
  llvm::SmallVector<Operation *> targets;
  for (intptr_t i = 0; i < numOps; ++i)
    targets.push_back(unwrap(ops[i]));
  MLIRContext *ctx = targets.front()->getContext();
  RewritePatternSet patterns(ctx);
  populateMathPolynomialApproximationPatterns(
      patterns, [&](llvm::StringRef name) {
        name.consume_front("math.");
        return llvm::is_contained(enabled, name);
      });
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  return succeeded(applyOpPatternsGreedily(targets, std::move(patterns), config));
}
