/* Upstream's polynomial approximations of math functions (the patterns behind
 * mlir-opt's test-math-polynomial-approximation, which is not a registered
 * pass), applied to chosen ops: floors-cpu-tile-and-vectorize uses them on
 * the vectorized exp/tanh/log/... so that they stay vectors down to LLVM.
 * powf, sin, cos, tan, atan2 and cbrt on f32 vectors get floors' own forms
 * instead (f64 lanes, rounded once; sin/cos/tan with a libm branch for lanes
 * of 2^28 or more), and exp, expm1, tanh, log, log1p, sin, cos, tan, atan2
 * and cbrt on f64 vectors floors' f64 forms (upstream's are f32 only), and
 * f32 vector arith.remf an exact fmod ("floors.remf"). */
#ifndef FLOORS_MATH_CAPI_H
#define FLOORS_MATH_CAPI_H

#include "mlir-c/IR.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rewrites `ops` (math ops; others are left alone) into polynomial
 * approximations, for the math ops named in `names` (comma-separated op names
 * without the dialect, e.g. "exp,tanh"; "floors.powf", "floors.sin", "floors.cos", "floors.tan", "floors.atan2",
 * "floors.cbrt" ask for floors' f32 (and, but for powf, f64) vector forms, "floors.exp64", "floors.expm1_64",
 * "floors.tanh64", "floors.log64", "floors.log1p64" floors' f64 forms; "floors.flatten"
 * computes n-D vector absi/ctlz/cttz on
 * 1-D vectors, the only ones convert-math-to-llvm takes). Returns false if
 * the rewrite failed. */
bool floorsApproximateMathOps(MlirOperation *ops, intptr_t numOps, MlirStringRef names);

#ifdef __cplusplus
}
#endif

#endif
