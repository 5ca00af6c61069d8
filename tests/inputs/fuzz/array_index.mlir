// Found by the mutation sweep (seed 20251, mutant 10705: `slice_sizes = array<i64: 1, 6>` -> `array<index: 1, 6>`).
// MLIR 22's parser segfaults on a dense array of `index` (Parser::parseDenseArrayAttr -> getIntOrFloatBitWidth).
module attributes {a = array<index: 1, 6>} {
}
