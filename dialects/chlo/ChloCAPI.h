/*===- ChloCAPI.h - C API of the chlo dialect ----------------------*- C -*-===*\
|*                                                                            *|
|* Plain C (bindgen reads it). Registration handle plus the getters the       *|
|* chlo -> stablehlo legalization needs. Getters that take an MlirOperation   *|
|* check the op's name and return a sentinel (documented per function) when   *|
|* it is not the expected op, so a wrong call never crashes.                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FLOORS_DIALECTS_CHLO_CHLOCAPI_H
#define FLOORS_DIALECTS_CHLO_CHLOCAPI_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__chlo__() */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Chlo, chlo);

/* Values of #chlo<comparison_direction ...> (same numbering as the C++ enum
 * floors::chlo::ComparisonDirection and as StableHLO's). */
enum FloorsChloComparisonDirection {
  FLOORS_CHLO_COMPARISON_DIRECTION_EQ = 0,
  FLOORS_CHLO_COMPARISON_DIRECTION_NE = 1,
  FLOORS_CHLO_COMPARISON_DIRECTION_GE = 2,
  FLOORS_CHLO_COMPARISON_DIRECTION_GT = 3,
  FLOORS_CHLO_COMPARISON_DIRECTION_LE = 4,
  FLOORS_CHLO_COMPARISON_DIRECTION_LT = 5
};

/* Values of #chlo<comparison_type ...>. */
enum FloorsChloComparisonType {
  FLOORS_CHLO_COMPARISON_TYPE_NOTYPE = 0,
  FLOORS_CHLO_COMPARISON_TYPE_FLOAT = 1,
  FLOORS_CHLO_COMPARISON_TYPE_TOTALORDER = 2,
  FLOORS_CHLO_COMPARISON_TYPE_SIGNED = 3,
  FLOORS_CHLO_COMPARISON_TYPE_UNSIGNED = 4
};

/* ---- ops ---------------------------------------------------------------- */

/* k of a chlo.top_k; -1 if `op` is not a chlo.top_k. */
int64_t floorsChloTopKGetK(MlirOperation op);

/* comparison_direction of a chlo.broadcast_compare as a
 * FloorsChloComparisonDirection; -1 if `op` is not a chlo.broadcast_compare. */
int32_t floorsChloBroadcastCompareGetComparisonDirection(MlirOperation op);

/* Whether a chlo.broadcast_compare carries a compare_type attribute (false
 * for other ops). */
bool floorsChloBroadcastCompareHasCompareType(MlirOperation op);

/* compare_type of a chlo.broadcast_compare as a FloorsChloComparisonType;
 * NOTYPE (0) when the attribute is absent; -1 if `op` is not a
 * chlo.broadcast_compare. */
int32_t floorsChloBroadcastCompareGetCompareType(MlirOperation op);

/* Whether `op` is one of the chlo.broadcast_* binary ops that take an
 * optional broadcast_dimensions (all broadcast_* except broadcast_select). */
bool floorsChloIsBroadcastBinaryOp(MlirOperation op);

/* broadcast_dimensions of a chlo.broadcast_* op. Returns the number of
 * entries and copies min(count, capacity) of them to `out` (which may be
 * NULL when capacity is 0); returns -1 when the attribute is absent or `op`
 * is not a broadcast binary op (numpy-style broadcasting then applies). */
intptr_t floorsChloGetBroadcastDimensions(MlirOperation op, int64_t *out,
                                          intptr_t capacity);

/* value attribute of a chlo.constant_like (a scalar TypedAttr) or of a
 * chlo.constant (an ElementsAttr); a null attribute for other ops. */
MlirAttribute floorsChloConstantGetValue(MlirOperation op);

/* ---- attributes --------------------------------------------------------- */

/* #chlo<comparison_direction X> for a FloorsChloComparisonDirection; a null
 * attribute if `value` is out of range. */
MlirAttribute floorsChloComparisonDirectionAttrGet(MlirContext ctx,
                                                   int32_t value);
bool floorsChloAttributeIsAComparisonDirection(MlirAttribute attr);
/* -1 if `attr` is not a #chlo<comparison_direction>. */
int32_t floorsChloComparisonDirectionAttrGetValue(MlirAttribute attr);

/* #chlo<comparison_type X> for a FloorsChloComparisonType; a null attribute
 * if `value` is out of range. */
MlirAttribute floorsChloComparisonTypeAttrGet(MlirContext ctx, int32_t value);
bool floorsChloAttributeIsAComparisonType(MlirAttribute attr);
/* -1 if `attr` is not a #chlo<comparison_type>. */
int32_t floorsChloComparisonTypeAttrGetValue(MlirAttribute attr);

/* "EQ", "NE", ... for a FloorsChloComparisonDirection (the keyword StableHLO
 * also uses); NULL if out of range. Static storage, NUL-terminated. */
const char *floorsChloComparisonDirectionName(int32_t value);
/* "NOTYPE", "FLOAT", ... for a FloorsChloComparisonType; NULL if out of
 * range. */
const char *floorsChloComparisonTypeName(int32_t value);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_DIALECTS_CHLO_CHLOCAPI_H */
