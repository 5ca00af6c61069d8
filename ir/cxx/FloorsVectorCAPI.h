/*===- FloorsVectorCAPI.h - what MLIR's C API lacks for the vector dialect -===*\
|*                                                                            *|
|* The keyword of a #vector.kind<...> attribute (the combining kind of       *|
|* vector.multi_reduction / vector.reduction), "" for any other attribute.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FLOORS_CXX_FLOORSVECTORCAPI_H
#define FLOORS_CXX_FLOORSVECTORCAPI_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MlirStringRef floorsVectorCombiningKind(MlirAttribute attr);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_CXX_FLOORSVECTORCAPI_H */
