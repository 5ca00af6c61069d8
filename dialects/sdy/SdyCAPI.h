/*===- SdyCAPI.h - C API of floors' sdy dialect ---------------------*- C -*-===*\
|*                                                                            *|
|* Plain C (bindgen reads it): the registration handle.                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FLOORS_DIALECTS_SDY_SDYCAPI_H
#define FLOORS_DIALECTS_SDY_SDYCAPI_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__sdy__() */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Sdy, sdy);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_DIALECTS_SDY_SDYCAPI_H */
