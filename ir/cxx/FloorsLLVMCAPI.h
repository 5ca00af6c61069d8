/*===- FloorsLLVMCAPI.h - what MLIR's C API lacks for LLVM dialect types --===*\
|*                                                                            *|
|* Whether a type is an !llvm.array and its length (the C API builds arrays  *|
|* and reads their element type only). Also brings in the x86vector dialect *|
|* handle, which mlir-sys does not bind.                                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FLOORS_CXX_FLOORSLLVMCAPI_H
#define FLOORS_CXX_FLOORSLLVMCAPI_H

#include "mlir-c/Dialect/X86Vector.h"
#include "mlir-c/IR.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

bool floorsTypeIsALLVMArray(MlirType type);

/* The number of elements of an !llvm.array; 0 for any other type. */
unsigned floorsLLVMArrayTypeGetNumElements(MlirType type);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_CXX_FLOORSLLVMCAPI_H */
