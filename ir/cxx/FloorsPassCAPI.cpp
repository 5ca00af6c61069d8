//===- FloorsPassCAPI.cpp - pass registry and instrumentation shims ------===//
#include "FloorsPassCAPI.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
/// MLIR's ExternalPass (what mlirCreateExternalPass makes) with string
/// options: each option is a `Pass::Option<std::string>`, so the registry
/// parses `{name=value}`, clones copy the values and the pass prints back.
class FloorsOptionPass : public mlir::Pass {
public:
  using Spec = std::pair<llvm::StringRef, llvm::StringRef>;

  FloorsOptionPass(mlir::TypeID passID, std::string name, std::string argument,
                   std::string description,
                   std::optional<llvm::StringRef> opName,
                   std::vector<MlirDialectHandle> dialects,
                   std::vector<Spec> specs, FloorsOptionPassCallbacks callbacks,
                   void *user)
      : mlir::Pass(passID, opName), name(std::move(name)),
        argument(std::move(argument)), description(std::move(description)),
        dialects(std::move(dialects)), specs(std::move(specs)),
        callbacks(callbacks), user(user) {
    for (const Spec &spec : this->specs)
      options.push_back(std::make_unique<Option<std::string>>(
          *this, spec.first, llvm::cl::desc(spec.second),
          llvm::cl::init(std::string())));
  }

  ~FloorsOptionPass() override { callbacks.destruct(user); }

  llvm::StringRef getName() const override { return name; }
  llvm::StringRef getArgument() const override { return argument; }
  llvm::StringRef getDescription() const override { return description; }

  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    for (MlirDialectHandle h : dialects)
      mlirDialectHandleInsertDialect(h, wrap(&registry));
  }

  bool canScheduleOn(mlir::RegisteredOperationName) const override {
    return true;
  }

  void runOnOperation() override {
    std::vector<MlirStringRef> values;
    values.reserve(options.size());
    for (const auto &option : options) {
      const std::string &v = option->getValue();
      values.push_back(MlirStringRef{v.data(), v.size()});
    }
    if (!callbacks.run(user, wrap(getOperation()),
                       static_cast<intptr_t>(values.size()), values.data()))
      signalPassFailure();
  }

  std::unique_ptr<mlir::Pass> clonePass() const override {
    return std::make_unique<FloorsOptionPass>(
        getTypeID(), name, argument, description, getOpName(), dialects,
        specs, callbacks, callbacks.clone(user));
  }

private:
  std::string name, argument, description;
  std::vector<MlirDialectHandle> dialects;
  std::vector<Spec> specs;
  std::vector<std::unique_ptr<Option<std::string>>> options;
  FloorsOptionPassCallbacks callbacks;
  void *user;
};

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

class BeforePassInstrumentation : public mlir::PassInstrumentation {
public:
  BeforePassInstrumentation(FloorsBeforePassCallback cb, void *user)
      : cb(cb), user(user) {}

  void runBeforePass(mlir::Pass *pass, mlir::Operation *) override {
    llvm::StringRef arg = pass->getArgument();
    if (arg.empty())
      arg = pass->getName();
    cb(user, MlirStringRef{arg.data(), arg.size()});
  }

private:
  FloorsBeforePassCallback cb;
  void *user;
};
} // namespace

MlirPass floorsCreatePassWithOptions(
    MlirTypeID passID, MlirStringRef name, MlirStringRef argument,
    MlirStringRef description, MlirStringRef opName,
    intptr_t nDependentDialects, MlirDialectHandle *dependentDialects,
    intptr_t numOptions, const MlirStringRef *optionNames,
    const MlirStringRef *optionDescriptions,
    FloorsOptionPassCallbacks callbacks, void *user) {
  std::optional<llvm::StringRef> anchor;
  if (opName.length)
    anchor = unwrap(opName);
  std::vector<MlirDialectHandle> dialects(
      dependentDialects, dependentDialects + nDependentDialects);
  std::vector<FloorsOptionPass::Spec> specs;
  for (intptr_t i = 0; i < numOptions; ++i)
    specs.emplace_back(unwrap(optionNames[i]), unwrap(optionDescriptions[i]));
  return wrap(static_cast<mlir::Pass *>(new FloorsOptionPass(
      unwrap(passID), unwrap(name).str(), unwrap(argument).str(),
      unwrap(description).str(), anchor, std::move(dialects),
      std::move(specs), callbacks, user)));
}

void floorsPassManagerAddAfterPassCallback(MlirPassManager pm,
                                           FloorsAfterPassCallback callback,
                                           void *user) {
  unwrap(pm)->addInstrumentation(
      std::make_unique<AfterPassInstrumentation>(callback, user));
}

void floorsPassManagerAddBeforePassCallback(MlirPassManager pm,
                                            FloorsBeforePassCallback callback,
                                            void *user) {
  unwrap(pm)->addInstrumentation(
      std::make_unique<BeforePassInstrumentation>(callback, user));
}

void floorsEmitRemark(MlirLocation location, MlirStringRef message) {
  mlir::emitRemark(unwrap(location))
      << llvm::StringRef(message.data, message.length);
}
