//===- FloorsPassCAPI.cpp - pass registry and instrumentation shims ------===//
#include "FloorsPassCAPI.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

void floorsRegisterPass(MlirPass (*create)(void)) {
  mlir::registerPass(
      [create]() { return std::unique_ptr<mlir::Pass>(unwrap(create())); });
}

bool floorsRegisterPassPipeline(MlirStringRef argument,
                                MlirStringRef description,
                                MlirStringRef pipeline) {
  std::string body(pipeline.data, pipeline.length);
  // Check once up front so a typo fails at registration, not at first use.
  {
    mlir::OpPassManager probe("builtin.module");
    std::string err;
    llvm::raw_string_ostream os(err);
    if (mlir::failed(mlir::parsePassPipeline(body, probe, os)))
      return false;
  }
  // PassPipelineRegistration copies the strings it is given.
  mlir::PassPipelineRegistration<>(
      llvm::StringRef(argument.data, argument.length),
      llvm::StringRef(description.data, description.length),
      [body](mlir::OpPassManager &pm) {
        (void)mlir::parsePassPipeline(body, pm, llvm::errs());
      });
  return true;
}

namespace {
class AfterPassInstrumentation : public mlir::PassInstrumentation {
public:
  AfterPassInstrumentation(FloorsAfterPassCallback cb, void *user)
      : cb(cb), user(user) {}

  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    mlir::Operation *root = op;
    while (mlir::Operation *parent = root->getParentOp())
      root = parent;
    llvm::StringRef arg = pass->getArgument();
    if (arg.empty())
      arg = pass->getName();
    cb(user, MlirStringRef{arg.data(), arg.size()}, wrap(root));
  }

private:
  FloorsAfterPassCallback cb;
  void *user;
};
} // namespace

void floorsPassManagerAddAfterPassCallback(MlirPassManager pm,
                                           FloorsAfterPassCallback callback,
                                           void *user) {
  unwrap(pm)->addInstrumentation(
      std::make_unique<AfterPassInstrumentation>(callback, user));
}
