/* What MLIR's C API cannot do and the Rust pass layer needs: register a pass
 * or a named pipeline in MLIR's global registry, and observe a pass manager
 * after every pass (for dumps and snapshots). */
#ifndef FLOORS_PASS_CAPI_H
#define FLOORS_PASS_CAPI_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Registers a pass by its argument. `create` is called once now (MLIR reads
 * the argument and description) and again for every pipeline that names it. */
void floorsRegisterPass(MlirPass (*create)(void));

/* Registers a named pipeline whose body is a textual pass list such as
 * "floors-hlo-inline,canonicalize,cse". Returns false (and registers nothing)
 * if the body does not parse against the registry as it is now. */
bool floorsRegisterPassPipeline(MlirStringRef argument, MlirStringRef description,
                                MlirStringRef pipeline);

/* Callbacks of a pass made by floorsCreatePassWithOptions; `user` is the
 * pass's own state. */
typedef struct FloorsOptionPassCallbacks {
  /* Frees `user`. */
  void (*destruct)(void *user);
  /* A copy of `user` for a clone of the pass. */
  void *(*clone)(void *user);
  /* Runs the pass on `op`; `values[i]` is the value of option i ("" when the
   * pipeline did not give it). Returns false on failure, after emitting an
   * error diagnostic. */
  bool (*run)(void *user, MlirOperation op, intptr_t numOptions,
              const MlirStringRef *values);
} FloorsOptionPassCallbacks;

/* A pass like mlirCreateExternalPass's, plus string options, so a pipeline
 * can say `argument{name=value ...}` (the C API's external passes take no
 * options). `opName` ("" = any op), the option names and descriptions must
 * outlive the pass (static strings); the other strings are copied. */
MlirPass floorsCreatePassWithOptions(
    MlirTypeID passID, MlirStringRef name, MlirStringRef argument,
    MlirStringRef description, MlirStringRef opName,
    intptr_t nDependentDialects, MlirDialectHandle *dependentDialects,
    intptr_t numOptions, const MlirStringRef *optionNames,
    const MlirStringRef *optionDescriptions,
    FloorsOptionPassCallbacks callbacks, void *user);

/* Called after each pass with the pass argument (or name if it has none)
 * and the outermost op that encloses the op the pass ran on. */
typedef void (*FloorsAfterPassCallback)(void *user, MlirStringRef passArgument,
                                        MlirOperation root);

/* Adds an instrumentation that calls `callback` after every successful pass
 * run by `pm` (including passes of nested pass managers). */
void floorsPassManagerAddAfterPassCallback(MlirPassManager pm,
                                           FloorsAfterPassCallback callback,
                                           void *user);

/* Called before each pass with the pass argument (or name if it has none). */
typedef void (*FloorsBeforePassCallback)(void *user, MlirStringRef passArgument);

/* Adds an instrumentation that calls `callback` before every pass run by `pm`
 * (including passes of nested pass managers and the adaptors that run them),
 * so an observer can time each pass: every before is matched by an after,
 * or by nothing when the pass fails. */
void floorsPassManagerAddBeforePassCallback(MlirPassManager pm,
                                            FloorsBeforePassCallback callback,
                                            void *user);

/* Emits a remark at `location` (a fallback the compiler took, for -v and
 * mlir-opt users); the C API can only emit errors. */
void floorsEmitRemark(MlirLocation location, MlirStringRef message);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_PASS_CAPI_H */
