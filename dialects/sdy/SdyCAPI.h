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

/* Whether `attr` is an #sdy attribute (a sharding, a per-value sharding, ...
 * kept as its text). */
MLIR_CAPI_EXPORTED bool floorsSdyAttributeIsAVerbatim(MlirAttribute attr);

/* The text after `#sdy.` of such an attribute (`sharding<@mesh, [{"x"}]>`);
 * it lives as long as the attribute's context. */
MLIR_CAPI_EXPORTED MlirStringRef floorsSdyVerbatimGetSpec(MlirAttribute attr);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_DIALECTS_SDY_SDYCAPI_H */
