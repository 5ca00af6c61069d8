#include "FloorsMathCAPI.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace {

/// Marks a vector sin/cos kept as libm calls (the rare huge-argument branch),
/// so that the rewrite does not take it again.
constexpr llvm::StringLiteral kLibm = "floors.libm";

/// Elementwise f64/i64/f32 arithmetic on vectors shaped like the op's result
/// (or on scalars, when the op's result is one). f32 lanes are computed in
/// f64: the argument reduction and polynomials then carry ~2^-45 relative
/// error, so rounding to f32 at the end is within ~0.5 ulp (measured by
/// scripts/math_accuracy.py).
struct Lanes {
  ImplicitLocOpBuilder &b;
  VectorType shape; // null for scalars
  Type f32, f64, i64, i32;
  Lanes(ImplicitLocOpBuilder &b, Type like)
      : b(b), shape(llvm::dyn_cast<VectorType>(like)), f32(as(b.getF32Type())), f64(as(b.getF64Type())),
        i64(as(b.getI64Type())), i32(as(b.getI32Type())) {}

  Type as(Type element) { return shape ? Type(shape.clone(element)) : element; }
  Value constant(Type t, TypedAttr scalar) {
    if (shape)
      return arith::ConstantOp::create(b, DenseElementsAttr::get(llvm::cast<ShapedType>(t), scalar));
    return arith::ConstantOp::create(b, scalar);
  }
  Value d(double v) { return constant(f64, b.getF64FloatAttr(v)); }
  Value s(float v) { return constant(f32, b.getF32FloatAttr(v)); }
  Value l(int64_t v) { return constant(i64, b.getI64IntegerAttr(v)); }
  Value w(int32_t v) { return constant(i32, b.getI32IntegerAttr(v)); }

  Value add(Value x, Value y) { return arith::AddFOp::create(b, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, x); }
  Value abs(Value x) { return math::AbsFOp::create(b, x); }
  Value floor(Value x) { return math::FloorOp::create(b, x); }
  Value fma(Value x, Value y, Value z) { return math::FmaOp::create(b, x, y, z); }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) { return arith::CmpFOp::create(b, p, x, y); }
  Value cmpi(arith::CmpIPredicate p, Value x, Value y) { return arith::CmpIOp::create(b, p, x, y); }
  Value sel(Value c, Value t, Value f) { return arith::SelectOp::create(b, c, t, f); }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, x, y); }
  Value either(Value x, Value y) { return arith::OrIOp::create(b, x, y); }
  Value widen(Value x) { return arith::ExtFOp::create(b, f64, x); }
  Value narrow(Value x) { return arith::TruncFOp::create(b, f32, x); }
  Value bits(Value x) { return arith::BitcastOp::create(b, i64, x); }
  Value real(Value x) { return arith::BitcastOp::create(b, f64, x); }

  /// 2^k for integer k (i64 lanes) in [−1022, 1023], built in the exponent bits.
  Value pow2(Value k) {
    return real(arith::ShLIOp::create(b, arith::AddIOp::create(b, k, l(1023)), l(52)));
  }
  /// A positive normal f64 x as 2^e·m: the unbiased exponent e (i64 lanes)
  /// and m in [1, 2), from the bits.
  std::pair<Value, Value> split(Value x) {
    Value xb = bits(x);
    Value e = arith::SubIOp::create(b, arith::ShRUIOp::create(b, xb, l(52)), l(1023));
    Value m = real(arith::OrIOp::create(b, arith::AndIOp::create(b, xb, l(0x000FFFFFFFFFFFFFLL)),
                                        l(0x3FF0000000000000LL)));
    return {e, m};
  }
  /// `split` for any positive finite x, subnormals scaled by 2^54 first: the
  /// exponent as f64 lanes (scaling undone) and m.
  std::pair<Value, Value> splitAny(Value x) {
    Value sub = cmp(arith::CmpFPredicate::OLT, x, d(0x1p-1022));
    auto [e, m] = split(sel(sub, mul(x, d(0x1p54)), x));
    return {add(arith::SIToFPOp::create(b, f64, e), sel(sub, d(-54.0), d(0.0))), m};
  }

  /// Horner's rule, coefficients from the highest degree down.
  Value poly(Value x, llvm::ArrayRef<double> coeffs) {
    Value r = d(coeffs.front());
    for (double c : coeffs.drop_front())
      r = fma(r, x, d(c));
    return r;
  }
};

/// `t` as a fixed-length vector of f32 or f64 (which `f64` tells), the
/// types the f32-and-f64 vector forms take; null otherwise.
VectorType f32OrF64Vector(Type t, bool &f64) {
  auto vt = llvm::dyn_cast<VectorType>(t);
  if (!vt || vt.isScalable())
    return {};
  f64 = vt.getElementType().isF64();
  return f64 || vt.getElementType().isF32() ? vt : VectorType();
}

/// `t` as the type an f32/f64 form takes: a fixed-length vector of f32 or
/// f64, or (when `scalars`, the GPU floor's kernels) a scalar one; null
/// otherwise. `f64` tells which.
Type f32OrF64(Type t, bool &f64, bool scalars) {
  if (VectorType vt = f32OrF64Vector(t, f64))
    return vt;
  if (!scalars || !(t.isF32() || t.isF64()))
    return {};
  f64 = t.isF64();
  return t;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kLn2 = 0x1.62e42fefa39efp-1;

/// x^y for f32 lanes, with C99 powf's special cases. log2|x| and 2^t are
/// computed in f64: |x| = m·2^e with m in [√½, √2), log2 m = (2/ln 2)·atanh(s)
/// with s = (m−1)/(m+1), |s| ≤ 0.1716, to s^15 (relative error < 1e-12);
/// t = y·log2|x| = n + f with |f| ≤ ½, 2^f as its Taylor series to degree 11
/// (< 1e-13). Every finite f32 result needs |t| < 150, where the error in t is
/// below 1e-9 ulp of the result; t is clamped to ±200 first (2^±200 still
/// rounds to f32's inf and 0), and NaN-free so the integer conversion is
/// defined.
struct VectorPowF : OpRewritePattern<math::PowFOp> {
  bool scalars;
  VectorPowF(MLIRContext *ctx, bool scalars = false) : OpRewritePattern(ctx), scalars(scalars) {}
  LogicalResult matchAndRewrite(math::PowFOp op, PatternRewriter &rw) const override {
    bool f64 = false;
    Type vt = f32OrF64(op.getType(), f64, scalars);
    if (!vt || f64)
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, vt);
    using P = arith::CmpFPredicate;
    Value x32 = op.getLhs(), y32 = op.getRhs();

    Value ax = v.abs(v.widen(x32));
    // f32 lanes are normal in f64: no subnormal scaling needed.
    auto [e, m] = v.split(ax);
    Value high = v.cmp(P::OGT, m, v.d(M_SQRT2));
    m = v.sel(high, v.mul(m, v.d(0.5)), m);
    Value ef = v.add(arith::SIToFPOp::create(b, v.f64, e), v.sel(high, v.d(1.0), v.d(0.0)));
    Value s = v.div(v.sub(m, v.d(1.0)), v.add(m, v.d(1.0)));
    llvm::SmallVector<double> atanh;
    for (int k = 15; k >= 1; k -= 2)
      atanh.push_back(2.0 / (kLn2 * k));
    Value log2x = v.add(ef, v.mul(s, v.poly(v.mul(s, s), atanh)));
    log2x = v.sel(v.cmp(P::OEQ, ax, v.d(0.0)), v.d(-kInf), log2x);
    log2x = v.sel(v.cmp(P::OEQ, ax, v.d(kInf)), v.d(kInf), log2x);

    Value t = v.mul(v.widen(y32), log2x);
    Value tc = arith::MinimumFOp::create(b, arith::MaximumFOp::create(b, t, v.d(-200.0)), v.d(200.0));
    tc = v.sel(v.cmp(P::UNO, tc, tc), v.d(0.0), tc);
    Value n = math::RoundEvenOp::create(b, tc);
    Value f = v.sub(tc, n);
    llvm::SmallVector<double> exp2(12);
    double c = 1.0;
    for (int k = 0; k < 12; ++k) {
      exp2[11 - k] = c;
      c *= kLn2 / (k + 1);
    }
    Value scale = v.pow2(arith::FPToSIOp::create(b, v.i64, n));
    Value r = v.narrow(v.mul(v.poly(f, exp2), scale));

    // C99 powf's special cases, in the order that lets later ones win.
    Value yHalf = v.mul(y32, v.s(0.5f));
    Value yOdd = v.cmp(P::OEQ, v.sub(yHalf, v.floor(yHalf)), v.s(0.5f));
    Value yNotInt = v.cmp(P::UNE, v.floor(y32), y32);
    Value xSign = v.cmpi(arith::CmpIPredicate::slt, arith::BitcastOp::create(b, v.i32, x32), v.w(0));
    r = v.sel(v.both(xSign, yOdd), v.neg(r), r);
    Value xNegFinite = v.both(v.cmp(P::OLT, x32, v.s(0.0f)), v.cmp(P::OGT, x32, v.s(-INFINITY)));
    Value nan = v.s(NAN);
    r = v.sel(v.both(xNegFinite, yNotInt), nan, r);
    r = v.sel(v.cmp(P::UNO, x32, y32), nan, r);
    Value one = v.either(v.cmp(P::OEQ, y32, v.s(0.0f)), v.cmp(P::OEQ, x32, v.s(1.0f)));
    one = v.either(one, v.both(v.cmp(P::OEQ, x32, v.s(-1.0f)), v.cmp(P::OEQ, v.abs(y32), v.s(INFINITY))));
    r = v.sel(one, v.s(1.0f), r);
    rw.replaceOp(op, r);
    return success();
  }
};

/// Replaces `op` by `scf.if any(rare) { op, marked floors.libm } else
/// { fast(builder, lanes) }`: the vector forms with a libm fallback for the
/// vectors that hold a rare lane (vector math libraries do the same).
template <typename Fast>
void replaceWithLibmBranch(PatternRewriter &rw, ImplicitLocOpBuilder &b, Operation *op, VectorType vt, Value rare,
                           Fast fast) {
  if (vt.getRank() != 1)
    rare = vector::ShapeCastOp::create(b, VectorType::get({vt.getNumElements()}, b.getI1Type()), rare);
  Value anyRare = vector::ReductionOp::create(b, vector::CombiningKind::OR, rare);
  auto branch = scf::IfOp::create(
      b, anyRare,
      [&](OpBuilder &tb, Location loc) {
        Operation *libm = tb.clone(*op);
        libm->setAttr(kLibm, tb.getUnitAttr());
        scf::YieldOp::create(tb, loc, libm->getResult(0));
      },
      [&](OpBuilder &eb, Location loc) {
        ImplicitLocOpBuilder ib(loc, eb);
        Lanes u(ib, vt);
        scf::YieldOp::create(eb, loc, fast(ib, u));
      });
  rw.replaceOp(op, branch.getResults());
}

enum class Trig { Sin, Cos, Tan };

template <Trig> struct TrigOp;
template <> struct TrigOp<Trig::Sin> {
  using type = math::SinOp;
};
template <> struct TrigOp<Trig::Cos> {
  using type = math::CosOp;
};
template <> struct TrigOp<Trig::Tan> {
  using type = math::TanOp;
};

/// f64 x (|x| < 2^28) as r + k·π/2: k = round(x·2/π), r = x − k·π/2 with
/// π/2 as three doubles (53 + 53 + 53 bits) subtracted by fma: the first
/// step is exact (x − k·P1 is a multiple of 2^-53 below 1), the second
/// rounds once relative to r, so r keeps ~2^-53 relative accuracy even next
/// to a multiple of π/2. Returns r and k as i64 lanes.
std::pair<Value, Value> reduceHalfPi(ImplicitLocOpBuilder &ib, Lanes &u, Value x) {
  Value k = math::RoundEvenOp::create(ib, u.mul(x, u.d(0x1.45f306dc9c883p-1)));
  Value r = u.fma(u.neg(k), u.d(0x1.921fb54442d18p+0), x);
  r = u.fma(u.neg(k), u.d(0x1.1a62633145c07p-54), r);
  r = u.fma(u.neg(k), u.d(-0x1.f1976b7ed8fbcp-110), r);
  return {r, arith::FPToSIOp::create(ib, u.i64, k)};
}

/// sin, cos or tan of r + q·π/2 (|r| ≤ π/4, q in i64 lanes): the Taylor
/// series of sin r and cos r (to r^13/r^14 for f32 results, < 2e-14; to
/// r^19/r^20 for f64, < 2e-22), picked and signed by q mod 4 (tan: sin r/cos r
/// or −cos r/sin r by q's parity).
Value trigOfReduced(ImplicitLocOpBuilder &ib, Lanes &u, Value r, Value q, Trig fn, bool f64) {
  Value z = u.mul(r, r);
  auto fact = [](int n) {
    double f = 1.0;
    for (int i = 2; i <= n; ++i)
      f *= i;
    return f;
  };
  int top = f64 ? 19 : 13;
  llvm::SmallVector<double> sinC, cosC;
  for (int n = top; n >= 3; n -= 2)
    sinC.push_back((n % 4 == 1 ? 1.0 : -1.0) / fact(n));
  for (int n = top + 1; n >= 0; n -= 2)
    cosC.push_back((n % 4 == 0 ? 1.0 : -1.0) / fact(n));
  Value sinR = u.fma(u.mul(r, z), u.poly(z, sinC), r);
  Value cosR = u.poly(z, cosC);
  auto bit = [&](int64_t m) { return u.cmpi(arith::CmpIPredicate::ne, arith::AndIOp::create(ib, q, u.l(m)), u.l(0)); };
  if (fn == Trig::Tan)
    return u.sel(bit(1), u.neg(u.div(cosR, sinR)), u.div(sinR, cosR));
  // sin(x) by quadrant q mod 4: sin r, cos r, −sin r, −cos r; cos(x) =
  // sin(x + π/2): the same with q + 1.
  if (fn == Trig::Cos)
    q = arith::AddIOp::create(ib, q, u.l(1));
  Value y = u.sel(bit(1), cosR, sinR);
  return u.sel(bit(2), u.neg(y), y);
}

/// sin, cos or tan of f32 lanes (computed in f64) or f64 lanes with
/// |x| < 2^28: k = round(x·2/π), r = x − k·π/2 with π/2 as three doubles
/// (53 + 53 + 53 bits) subtracted by fma: the first step is exact (x − k·P1
/// is a multiple of 2^-53 below 1), the second rounds once relative to r, so
/// r keeps ~2^-53 relative accuracy even next to a multiple of π/2. Then the
/// Taylor series of sin r and cos r on |r| ≤ π/4 (to r^13/r^14 for f32
/// results, < 2e-14; to r^19/r^20 for f64, < 2e-22), picked and signed by
/// k mod 4 (tan: sin r/cos r or −cos r/sin r by k's parity). A vector with
/// any lane ≥ 2^28, inf or NaN takes libm lane by lane instead (a Payne–Hanek
/// reduction, as vector math libraries do for their rare lanes).
template <typename Op, Trig kFn>
struct VectorTrig : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op, PatternRewriter &rw) const override {
    bool f64 = false;
    VectorType vt = f32OrF64Vector(op.getType(), f64);
    if (!vt || op->hasAttr(kLibm))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, vt);
    using P = arith::CmpFPredicate;
    Value in = op.getOperand();
    Value rare = v.cmp(P::UGE, v.abs(in), f64 ? v.d(0x1p28) : v.s(0x1p28f));
    replaceWithLibmBranch(rw, b, op, vt, rare, [&](ImplicitLocOpBuilder &ib, Lanes &u) {
      Value x = f64 ? in : u.widen(in);
      auto [r, q] = reduceHalfPi(ib, u, x);
      Value y = trigOfReduced(ib, u, r, q, kFn, f64);
      if (kFn != Trig::Cos) // the reduction loses −0's sign
        y = u.sel(u.cmp(P::OEQ, x, u.d(0.0)), x, y);
      return f64 ? y : u.narrow(y);
    });
    return success();
  }
};

/// sin, cos or tan of scalar f32 (the GPU floor's kernels: no libm there),
/// in f64: |x| < 2^28 reduced as VectorTrig does; larger finite |x| by
/// Payne–Hanek, as ARM's optimized-routines `reduce_large` (sincosf.h): the
/// 24-bit mantissa times a 96-bit window of 2/π from a 192-bit table (a
/// 32 × 96 → 128-bit product in integer lanes keeps the exact 2.62-bit
/// fixed-point fraction), giving the quadrant and r in [−π/4, π/4] to 2^-33
/// relative — enough for an f32 result. Both reductions run and the lane's
/// selects one (no branch); inf and NaN give NaN, ±0 (sin, tan) itself.
template <Trig kFn> struct ScalarTrigF32 : OpRewritePattern<typename TrigOp<kFn>::type> {
  using Op = typename TrigOp<kFn>::type;
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op, PatternRewriter &rw) const override {
    if (!op.getType().isF32())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, op.getType());
    using P = arith::CmpFPredicate;
    using I = arith::CmpIPredicate;
    Value in = op.getOperand();
    Value x = v.widen(in);
    Value ax = v.abs(x);
    Value small = v.cmp(P::OLT, ax, v.d(0x1p28));
    auto [rSmall, qSmall] = reduceHalfPi(b, v, v.sel(small, ax, v.d(0.0)));
    // Payne–Hanek on |x|'s bits.
    static const uint32_t kInvPio4[24] = {
        0xa2,       0xa2f9,     0xa2f983,   0xa2f9836e, 0xf9836e4e, 0x836e4e44, 0x6e4e4415, 0x4e441529,
        0x441529fc, 0x1529fc27, 0x29fc2757, 0xfc2757d1, 0x2757d1f5, 0x57d1f534, 0xd1f534dd, 0xf534ddc0,
        0x34ddc0db, 0xddc0db62, 0xc0db6295, 0xdb629599, 0x6295993c, 0x95993c43, 0x993c4390, 0x3c439041};
    Value xi = arith::ExtUIOp::create(b, v.i64, arith::BitcastOp::create(b, v.i32, in));
    xi = arith::AndIOp::create(b, xi, v.l(0x7fffffff));
    auto shr = [&](Value a, int64_t n) { return arith::ShRUIOp::create(b, a, v.l(n)); };
    auto andi = [&](Value a, int64_t m) { return arith::AndIOp::create(b, a, v.l(m)); };
    Value idx = andi(shr(xi, 26), 15);
    Value shift = andi(shr(xi, 23), 7);
    Value m = arith::ShLIOp::create(b, arith::OrIOp::create(b, andi(xi, 0xffffff), v.l(0x800000)), shift);
    auto word = [&](int off) {
      Value t = v.l(kInvPio4[off]);
      for (int i = 1; i < 16; ++i)
        t = v.sel(v.cmpi(I::eq, idx, v.l(i)), v.l(kInvPio4[i + off]), t);
      return t;
    };
    Value res0 = andi(arith::MulIOp::create(b, m, word(0)), 0xffffffffLL);
    Value res1 = arith::MulIOp::create(b, m, word(4));
    Value res2 = arith::MulIOp::create(b, m, word(8));
    res0 = arith::OrIOp::create(b, shr(res2, 32), arith::ShLIOp::create(b, res0, v.l(32)));
    res0 = arith::AddIOp::create(b, res0, res1);
    Value n = shr(arith::AddIOp::create(b, res0, v.l(1LL << 61)), 62);
    res0 = arith::SubIOp::create(b, res0, arith::ShLIOp::create(b, n, v.l(62)));
    Value rLarge = v.mul(arith::SIToFPOp::create(b, v.f64, res0), v.d(0x1.921fb54442d18p-62));
    Value r = v.sel(small, rSmall, rLarge);
    Value q = v.sel(small, qSmall, n);
    Value y = trigOfReduced(b, v, r, q, kFn, false);
    if (kFn != Trig::Cos) {
      // sin and tan are odd (the reduction took |x|); ±0 keeps its sign.
      y = v.sel(v.cmp(P::OLT, x, v.d(0.0)), v.neg(y), y);
      y = v.sel(v.cmp(P::OEQ, x, v.d(0.0)), x, y);
    }
    y = v.sel(v.cmp(P::OLT, ax, v.d(kInf)), y, v.d(NAN));
    rw.replaceOp(op, v.narrow(y));
    return success();
  }
};

/// exp on f64 lanes (upstream approximates f32 only; LLVM would call libm
/// per lane): k = round(x·log2 e), r = x − k·ln 2 with fdlibm's two-part
/// ln 2 (the high part 32 bits, so k·hi is exact), e^r as its Taylor series
/// to degree 13 (|r| ≤ 0.347: truncation below 4e-18), times 2^k as two
/// powers of two built in the exponent bits, so a subnormal result rounds
/// once. x is clamped to [−746, 710] first (exp is already 0 and inf there;
/// the integer conversion stays defined); NaN lanes return x.
struct VectorExpF64 : OpRewritePattern<math::ExpOp> {
  bool scalars;
  VectorExpF64(MLIRContext *ctx, PatternBenefit benefit, bool scalars = false)
      : OpRewritePattern(ctx, benefit), scalars(scalars) {}
  LogicalResult matchAndRewrite(math::ExpOp op, PatternRewriter &rw) const override {
    bool f64 = false;
    Type vt = f32OrF64(op.getType(), f64, scalars);
    if (!vt || !f64)
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, vt);
    Value x = op.getOperand();
    Value xc = arith::MinNumFOp::create(b, arith::MaxNumFOp::create(b, x, v.d(-746.0)), v.d(710.0));
    Value k = math::RoundEvenOp::create(b, v.mul(xc, v.d(M_LOG2E)));
    Value r = v.fma(v.neg(k), v.d(0x1.62e42feep-1), xc);
    r = v.fma(v.neg(k), v.d(0x1.a39ef35793c76p-33), r);
    llvm::SmallVector<double> taylor(14);
    double c = 1.0;
    for (int n = 0; n < 14; ++n) {
      taylor[13 - n] = c;
      c /= n + 1;
    }
    Value p = v.poly(r, taylor);
    Value ki = arith::FPToSIOp::create(b, v.i64, k);
    Value k1 = arith::ShRSIOp::create(b, ki, v.l(1));
    Value k2 = arith::SubIOp::create(b, ki, k1);
    Value y = v.mul(v.mul(p, v.pow2(k1)), v.pow2(k2));
    rw.replaceOp(op, v.sel(v.cmp(arith::CmpFPredicate::UNO, x, x), x, y));
    return success();
  }
};

/// log of positive finite f64 lanes, fdlibm's scheme: x = 2^k·m with m in
/// [√½, √2) (subnormals scaled by 2^54 first), f = m − 1, s = f/(2 + f),
/// log m = f − f²/2 + s·(f²/2 + R(s²)) with R the atanh series 2/3·z + … to
/// z^12 (|s| ≤ 0.172: truncation < 4e-20), plus k·ln 2 in fdlibm's two parts.
/// Zero, negative, inf and NaN lanes are the caller's.
Value logPositiveF64(Lanes &v, Value x) {
  using P = arith::CmpFPredicate;
  auto [e, m] = v.splitAny(x);
  Value high = v.cmp(P::OGT, m, v.d(M_SQRT2));
  m = v.sel(high, v.mul(m, v.d(0.5)), m);
  Value k = v.add(e, v.sel(high, v.d(1.0), v.d(0.0)));
  Value f = v.sub(m, v.d(1.0));
  Value s = v.div(f, v.add(f, v.d(2.0)));
  Value z = v.mul(s, s);
  llvm::SmallVector<double> atanh;
  for (int n = 12; n >= 1; --n)
    atanh.push_back(2.0 / (2 * n + 1));
  Value r = v.mul(z, v.poly(z, atanh));
  Value hfsq = v.mul(v.d(0.5), v.mul(f, f));
  Value lo = v.fma(s, v.add(hfsq, r), v.mul(k, v.d(0x1.a39ef35793c76p-33)));
  return v.fma(k, v.d(0x1.62e42feep-1), v.sub(f, v.sub(hfsq, lo)));
}

/// log and log1p on f64 vectors (upstream approximates f32 only; LLVM would
/// call libm per lane). log1p(x) = log(u) + (x − (u − 1))/u with u = 1 + x:
/// the quotient puts back what rounding u lost. Within 1 ulp of glibc.
template <typename Op, bool kPlusOne>
struct VectorLogF64 : OpRewritePattern<Op> {
  bool scalars;
  VectorLogF64(MLIRContext *ctx, PatternBenefit benefit, bool scalars = false)
      : OpRewritePattern<Op>(ctx, benefit), scalars(scalars) {}
  LogicalResult matchAndRewrite(Op op, PatternRewriter &rw) const override {
    bool f64 = false;
    Type vt = f32OrF64(op.getType(), f64, scalars);
    if (!vt || !f64)
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, vt);
    using P = arith::CmpFPredicate;
    Value x = op.getOperand();
    Value u = kPlusOne ? v.add(x, v.d(1.0)) : x;
    Value y = logPositiveF64(v, u);
    if (kPlusOne) {
      Value fix = v.div(v.sub(x, v.sub(u, v.d(1.0))), u);
      y = v.add(y, fix);
      // |x| < 2^-54: u rounds to 1 and log1p(x) is x, −0 included.
      y = v.sel(v.cmp(P::OEQ, u, v.d(1.0)), x, y);
    }
    y = v.sel(v.cmp(P::OEQ, u, v.d(0.0)), v.d(-kInf), y);
    y = v.sel(v.cmp(P::OLT, u, v.d(0.0)), v.d(NAN), y);
    y = v.sel(v.cmp(P::OEQ, u, v.d(kInf)), u, y);
    rw.replaceOp(op, v.sel(v.cmp(P::UNO, x, x), x, y));
    return success();
  }
};

/// expm1 of f64 lanes clamped to [−40, 710] (−1 and inf beyond): k =
/// round(x·log2 e), but 0 for |x| < 0.75 (where 2^k times r's rounding
/// error would be ~1 ulp of the result), r = x − k·ln 2 (two parts; r = x
/// when k = 0), expm1 r as r + r²·(Taylor series from 1/2 to 1/18!)
/// (|r| ≤ 0.75: < 1e-19 relative), then 2^k·(p + 1) − 1 as
/// 2·fma(2^(k−1), p, 2^(k−1) − ½): one rounding, and 2^(k−1) stays normal
/// and finite for every k in range.
Value expm1ClampedF64(Lanes &v, Value x) {
  auto &b = v.b;
  Value xc = arith::MinNumFOp::create(b, arith::MaxNumFOp::create(b, x, v.d(-40.0)), v.d(710.0));
  Value k = math::RoundEvenOp::create(b, v.mul(xc, v.d(M_LOG2E)));
  k = v.sel(v.cmp(arith::CmpFPredicate::OLT, v.abs(xc), v.d(0.75)), v.d(0.0), k);
  Value r = v.fma(v.neg(k), v.d(0x1.62e42feep-1), xc);
  r = v.fma(v.neg(k), v.d(0x1.a39ef35793c76p-33), r);
  llvm::SmallVector<double> taylor;
  double c = 1.0;
  for (int n = 1; n <= 18; ++n) {
    c /= n;
    if (n >= 2)
      taylor.insert(taylor.begin(), c);
  }
  Value p = v.fma(v.mul(r, r), v.poly(r, taylor), r);
  Value ki = arith::FPToSIOp::create(b, v.i64, k);
  Value half = v.pow2(arith::SubIOp::create(b, ki, v.l(1)));
  Value y = v.mul(v.d(2.0), v.fma(half, p, v.sub(half, v.d(0.5))));
  // k = 0: p itself (halving and doubling a subnormal p would round it).
  return v.sel(v.cmp(arith::CmpFPredicate::OEQ, k, v.d(0.0)), p, y);
}

/// expm1 on f64 vectors and scalars (LLVM's own lowering of a scalar one is
/// exp(x) − 1, which cancels near 0); ±0 and NaN lanes return x.
struct ExpM1F64 : OpRewritePattern<math::ExpM1Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ExpM1Op op, PatternRewriter &rw) const override {
    if (!mlir::getElementTypeOrSelf(op.getType()).isF64())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, op.getType());
    using P = arith::CmpFPredicate;
    Value x = op.getOperand();
    Value y = expm1ClampedF64(v, x);
    rw.replaceOp(op, v.sel(v.either(v.cmp(P::UNO, x, x), v.cmp(P::OEQ, x, v.d(0.0))), x, y));
    return success();
  }
};

/// tanh on f64 vectors, glibc's scheme: with a = |x| clamped to 40 (tanh is
/// 1 there in f64), tanh a = −t/(t + 2) with t = expm1(−2a) below 1 and
/// 1 − 2/(t + 2) with t = expm1(2a) from 1 on (one expm1 of the selected
/// argument); the sign copied from x (±0 kept); NaN lanes return x.
struct VectorTanhF64 : OpRewritePattern<math::TanhOp> {
  bool scalars;
  VectorTanhF64(MLIRContext *ctx, PatternBenefit benefit, bool scalars = false)
      : OpRewritePattern(ctx, benefit), scalars(scalars) {}
  LogicalResult matchAndRewrite(math::TanhOp op, PatternRewriter &rw) const override {
    bool f64 = false;
    Type vt = f32OrF64(op.getType(), f64, scalars);
    if (!vt || !f64)
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, vt);
    Value x = op.getOperand();
    Value a = arith::MinNumFOp::create(b, v.abs(x), v.d(40.0));
    Value small = v.cmp(arith::CmpFPredicate::OLT, a, v.d(1.0));
    Value twoA = v.add(a, a);
    Value t = expm1ClampedF64(v, v.sel(small, v.neg(twoA), twoA));
    Value t2 = v.add(t, v.d(2.0));
    Value y = v.sel(small, v.div(v.neg(t), t2), v.sub(v.d(1.0), v.div(v.d(2.0), t2)));
    y = math::CopySignOp::create(b, y, x);
    rw.replaceOp(op, v.sel(v.cmp(arith::CmpFPredicate::UNO, x, x), x, y));
    return success();
  }
};

/// atan2 of f32 lanes (computed in f64) or f64 lanes: t = min(|x|, |y|) /
/// max(|x|, |y|) in [0, 1]; above tan(π/8), atan t = π/4 + atan((t − 1)/(t + 1)),
/// so the Taylor series of atan runs on |u| ≤ 0.4143 (to u^23 for f32
/// results, < 3e-11 relative; to u^45 for f64, < 2e-18); then π/2 − a when
/// |y| > |x|, π − a when x is negative (−0 included), the sign of y. The
/// special cases follow from t = 0 when both are 0 and t = 1 when both are
/// infinite (atan2(±0, −0) = ±π, atan2(±inf, −inf) = ±3π/4, …); NaN in
/// either lane gives NaN.
struct VectorAtan2 : OpRewritePattern<math::Atan2Op> {
  bool scalars;
  VectorAtan2(MLIRContext *ctx, bool scalars = false) : OpRewritePattern(ctx), scalars(scalars) {}
  LogicalResult matchAndRewrite(math::Atan2Op op, PatternRewriter &rw) const override {
    bool f64 = false;
    Type vt = f32OrF64(op.getType(), f64, scalars);
    if (!vt)
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, vt);
    using P = arith::CmpFPredicate;
    Value y = f64 ? op.getLhs() : v.widen(op.getLhs());
    Value x = f64 ? op.getRhs() : v.widen(op.getRhs());
    Value ay = v.abs(y), ax = v.abs(x);
    Value mn = arith::MinimumFOp::create(b, ax, ay), mx = arith::MaximumFOp::create(b, ax, ay);
    Value t = v.div(mn, mx);
    t = v.sel(v.cmp(P::OEQ, mn, v.d(kInf)), v.d(1.0), t);
    t = v.sel(v.cmp(P::OEQ, mx, v.d(0.0)), v.d(0.0), t);
    Value high = v.cmp(P::OGT, t, v.d(0x1.a827999fcef32p-2)); // tan(π/8)
    // (t − 1)/(t + 1) from mn and mx themselves: one rounding fewer.
    Value u = v.sel(high, v.div(v.sub(mn, mx), v.add(mn, mx)), t);
    u = v.sel(v.cmp(P::OEQ, mn, v.d(kInf)), v.d(0.0), u);
    llvm::SmallVector<double> series;
    for (int n = f64 ? 45 : 23; n >= 3; n -= 2)
      series.push_back((n % 4 == 1 ? 1.0 : -1.0) / n);
    Value a = v.fma(v.mul(u, v.mul(u, u)), v.poly(v.mul(u, u), series), u);
    // π/4, π/2 and π as a double plus the rest, the rest added first.
    auto plus = [&](Value c, double hi, double lo, Value r, Value otherwise) {
      return v.sel(c, v.add(v.d(hi), v.add(r, v.d(lo))), otherwise);
    };
    a = plus(high, 0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55, a, a);
    a = plus(v.cmp(P::OGT, ay, ax), 0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54, v.neg(a), a);
    Value xNeg = v.cmpi(arith::CmpIPredicate::slt, v.bits(x), v.l(0));
    a = plus(xNeg, 0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53, v.neg(a), a);
    a = math::CopySignOp::create(b, a, y);
    a = v.sel(v.cmp(P::UNO, x, y), v.d(NAN), a);
    rw.replaceOp(op, f64 ? a : v.narrow(a));
    return success();
  }
};

/// cbrt of f32 lanes (computed in f64) or f64 lanes: |x| = 2^(3q)·w with w
/// = m·2^r in [1, 8) (m in [1, 2) from the bits, r in {0, 1, 2}; subnormals
/// scaled by 2^54 first), a cubic fit of ∛w (1.8% off), then Halley's
/// iteration y·(y³ + 2w)/(2y³ + w) twice (it triples the correct bits:
/// ~1e-16), for f64 a last Newton step on a nearly exact residual;
/// ∛|x| = y·2^q. ±0, ±inf and NaN return x.
struct VectorCbrt : OpRewritePattern<math::CbrtOp> {
  bool scalars;
  VectorCbrt(MLIRContext *ctx, bool scalars = false) : OpRewritePattern(ctx), scalars(scalars) {}
  LogicalResult matchAndRewrite(math::CbrtOp op, PatternRewriter &rw) const override {
    bool f64 = false;
    Type vt = f32OrF64(op.getType(), f64, scalars);
    if (!vt)
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, vt);
    using P = arith::CmpFPredicate;
    Value x = f64 ? op.getOperand() : v.widen(op.getOperand());
    Value a = v.abs(x);
    auto [e, m] = v.splitAny(a);
    Value q = v.floor(v.mul(e, v.d(1.0 / 3.0)));
    Value r = v.sub(e, v.mul(q, v.d(3.0)));
    // e/3 rounded to the nearest double can floor one too low for e ≡ 0 mod 3.
    Value over = v.cmp(P::OGE, r, v.d(3.0));
    q = v.sel(over, v.add(q, v.d(1.0)), q);
    r = v.sel(over, v.sub(r, v.d(3.0)), r);
    Value w = v.mul(m, v.sel(v.cmp(P::OEQ, r, v.d(0.0)), v.d(1.0), v.sel(v.cmp(P::OEQ, r, v.d(1.0)), v.d(2.0), v.d(4.0))));
    Value y = v.poly(w, {0x1.c13d6d5b294efp-10, -0x1.1c7895c8e247fp-5, 0x1.50c9e98b5ba6ap-2, 0x1.716458ec93eb8p-1});
    for (int i = 0; i < 2; ++i) {
      Value y3 = v.mul(y, v.mul(y, y));
      y = v.mul(y, v.div(v.add(y3, v.add(w, w)), v.add(v.add(y3, y3), w)));
    }
    if (f64) {
      // One Newton step y − (y³ − w)/(3y²) with y³ − w nearly exact (y² as
      // hi + lo by fma): the correction is ~1e-16·y, so its own rounding is
      // negligible and y keeps within ~0.5 ulp.
      Value hi = v.mul(y, y);
      Value lo = v.fma(y, y, v.neg(hi));
      Value d = v.fma(lo, y, v.fma(hi, y, v.neg(w)));
      y = v.sub(y, v.div(d, v.mul(v.d(3.0), hi)));
    }
    y = math::CopySignOp::create(b, v.mul(y, v.pow2(arith::FPToSIOp::create(b, v.i64, q))), x);
    Value keep = v.either(v.cmp(P::OEQ, a, v.d(0.0)), v.cmp(P::UEQ, a, v.d(kInf)));
    y = v.sel(keep, x, y);
    rw.replaceOp(op, f64 ? y : v.narrow(y));
    return success();
  }
};

/// fmod of f32 lanes (`arith.remf`; LLVM would call fmodf per lane),
/// exactly: in f64, n = trunc(x/y) is the true quotient's integer part
/// whenever |x/y| < 2^29 (for f32 operands x/y is at least 2^-24 from the
/// next integer, far more than the division's rounding), n·y then has at
/// most 53 bits and x − n·y is exact (fma), with x's sign (−0 for a zero
/// result of a negative x). A vector with a lane of |x/y| ≥ 2^29, y = 0,
/// y = ±inf, an inf or a NaN takes fmodf lane by lane instead.
struct VectorRemF32 : OpRewritePattern<arith::RemFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::RemFOp op, PatternRewriter &rw) const override {
    auto vt = llvm::dyn_cast<VectorType>(op.getType());
    if (!vt || vt.isScalable() || !vt.getElementType().isF32() || op->hasAttr(kLibm))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, vt);
    using P = arith::CmpFPredicate;
    Value x = v.widen(op.getLhs()), y = v.widen(op.getRhs());
    Value q = v.div(x, y);
    Value rare = v.either(v.cmp(P::UGE, v.abs(q), v.d(0x1p29)), v.cmp(P::OEQ, v.abs(y), v.d(kInf)));
    replaceWithLibmBranch(rw, b, op, vt, rare, [&](ImplicitLocOpBuilder &ib, Lanes &u) {
      Value n = math::TruncOp::create(ib, q);
      return u.narrow(math::CopySignOp::create(ib, u.fma(u.neg(n), y, x), x));
    });
    return success();
  }
};

/// fmod of a scalar f32 (the GPU floor's kernels: no libm, no libdevice),
/// exactly, in f64 (every f32 is a normal f64): when |x/y| < 2^29 as
/// VectorRemF32 does (n = trunc(x/y) is the true quotient's integer part,
/// x − n·y exact by fma); otherwise a loop of exact steps on r = |x|,
/// a = |y|: while r ≥ a, t = a·2^(e(r) − e(a)) built in the exponent bits,
/// halved when it exceeds r, and r − t (exact: t ≤ r < 2t, Sterbenz) — at
/// most 277 steps. The result takes x's sign; y = ±0, x = ±inf or a NaN
/// give NaN, y = ±inf gives x.
struct ScalarRemF32 : OpRewritePattern<arith::RemFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::RemFOp op, PatternRewriter &rw) const override {
    if (!op.getType().isF32())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, op.getType());
    using P = arith::CmpFPredicate;
    Value x = v.widen(op.getLhs()), y = v.widen(op.getRhs());
    Value ax = v.abs(x), ay = v.abs(y);
    Value q = v.div(x, y);
    Value fast = v.cmp(P::OLT, v.abs(q), v.d(0x1p29)); // false for inf and NaN quotients
    Value rFast = v.abs(v.fma(v.neg(math::TruncOp::create(b, q)), y, x));
    // The loop runs only for a finite |x/y| ≥ 2^29 (its start is 0 otherwise).
    Value loop = v.both(v.cmp(P::OLT, ax, v.d(kInf)), v.both(v.cmp(P::OGT, ay, v.d(0.0)), v.cmp(P::OLT, ay, v.d(kInf))));
    Value start = v.sel(v.both(loop, v.cmp(P::UGE, v.abs(q), v.d(0x1p29))), ax, v.d(0.0));
    auto exponent = [](Lanes &u, Value a) {
      return arith::AndIOp::create(u.b, arith::ShRUIOp::create(u.b, u.bits(a), u.l(52)), u.l(0x7ff));
    };
    auto w = scf::WhileOp::create(
        b, TypeRange{v.f64}, ValueRange{start},
        [&](OpBuilder &ob, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, ob);
          Lanes u(ib, v.f64);
          scf::ConditionOp::create(ib, u.both(u.cmp(P::OGE, args[0], ay), u.cmp(P::OGT, args[0], u.d(0.0))), args);
        },
        [&](OpBuilder &ob, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, ob);
          Lanes u(ib, v.f64);
          Value r = args[0];
          Value k = arith::SubIOp::create(ib, exponent(u, r), exponent(u, ay));
          Value t = u.real(arith::AddIOp::create(ib, u.bits(ay), arith::ShLIOp::create(ib, k, u.l(52))));
          t = u.sel(u.cmp(P::OGT, t, r), u.mul(t, u.d(0.5)), t);
          scf::YieldOp::create(ib, ValueRange{u.sub(r, t)});
        });
    Value r = v.sel(fast, rFast, w.getResult(0));
    r = math::CopySignOp::create(b, r, x);
    // y = ±inf with a finite x: x itself; y = 0, x = ±inf or a NaN: NaN.
    r = v.sel(v.both(v.cmp(P::OEQ, ay, v.d(kInf)), v.cmp(P::OLT, ax, v.d(kInf))), x, r);
    Value bad = v.either(v.cmp(P::UEQ, ay, v.d(0.0)), v.either(v.cmp(P::UEQ, ax, v.d(kInf)), v.cmp(P::UNO, x, y)));
    r = v.sel(bad, v.d(NAN), r);
    rw.replaceOp(op, v.narrow(r));
    return success();
  }
};

/// fmod of a scalar f64 (the GPU floor: no libm, no libdevice), exactly, on
/// the bits as musl's fmod does: both significands normalized (a
/// subnormal's by its leading zeros), then long division one quotient bit
/// per step for e(x) − e(y) steps (at most 2046), the remainder
/// renormalized and scaled back (a subnormal result shifted right). The
/// result takes x's sign; |x| < |y| gives x, |x| = |y| a signed zero,
/// y = ±0, x = ±inf or a NaN NaN, y = ±inf x.
struct ScalarRemF64 : OpRewritePattern<arith::RemFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::RemFOp op, PatternRewriter &rw) const override {
    if (!op.getType().isF64())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Lanes v(b, op.getType());
    using P = arith::CmpFPredicate;
    using I = arith::CmpIPredicate;
    Value x = op.getLhs(), y = op.getRhs();
    Value ux = v.bits(x), uy = v.bits(y);
    auto shr = [&](Value a, int64_t n) { return arith::ShRUIOp::create(b, a, v.l(n)); };
    auto andi = [&](Value a, int64_t m) { return arith::AndIOp::create(b, a, v.l(m)); };
    auto subi = [&](Value a, Value c) { return arith::SubIOp::create(b, a, c); };
    constexpr int64_t kHidden = int64_t(1) << 52;
    Value ex = andi(shr(ux, 52), 0x7ff), ey = andi(shr(uy, 52), 0x7ff);
    Value ax2 = arith::ShLIOp::create(b, ux, v.l(1)), ay2 = arith::ShLIOp::create(b, uy, v.l(1));
    // The long division runs only for finite x, finite nonzero y, |x| > |y|.
    Value ax = v.abs(x), ay = v.abs(y);
    Value run = v.both(v.both(v.cmp(P::OLT, ax, v.d(kInf)), v.cmp(P::OLT, ay, v.d(kInf))),
                       v.both(v.cmp(P::OGT, ay, v.d(0.0)), v.cmpi(I::ugt, ax2, ay2)));
    // A significand with bit 52 set and its exponent (subnormals normalized).
    auto norm = [&](Value u, Value e) -> std::pair<Value, Value> {
      Value m = andi(u, kHidden - 1);
      Value sub = v.cmpi(I::eq, e, v.l(0));
      Value sh = subi(math::CountLeadingZerosOp::create(b, v.sel(sub, m, v.l(1))), v.l(11));
      Value mSub = arith::ShLIOp::create(b, m, v.sel(sub, sh, v.l(0)));
      Value eSub = subi(v.l(1), sh);
      return {v.sel(sub, mSub, arith::OrIOp::create(b, m, v.l(kHidden))), v.sel(sub, eSub, e)};
    };
    auto [mx0, ex0] = norm(ux, ex);
    auto [my, ey0] = norm(uy, ey);
    // Steps: ex − ey when running, none otherwise.
    Value steps = v.sel(run, subi(ex0, ey0), v.l(0));
    auto w = scf::WhileOp::create(
        b, TypeRange{v.i64, v.i64}, ValueRange{mx0, steps},
        [&](OpBuilder &ob, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, ob);
          Lanes u(ib, v.f64);
          scf::ConditionOp::create(ib, u.cmpi(I::sgt, args[1], u.l(0)), args);
        },
        [&](OpBuilder &ob, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, ob);
          Lanes u(ib, v.f64);
          Value i = arith::SubIOp::create(ib, args[0], my);
          Value m = u.sel(u.cmpi(I::sge, i, u.l(0)), i, args[0]);
          m = arith::ShLIOp::create(ib, m, u.l(1));
          scf::YieldOp::create(ib, ValueRange{m, arith::SubIOp::create(ib, args[1], u.l(1))});
        });
    Value mx = w.getResult(0);
    Value i = subi(mx, my);
    mx = v.sel(v.cmpi(I::sge, i, v.l(0)), i, mx);
    Value zero = v.cmpi(I::eq, mx, v.l(0));
    // Renormalize (bit 52 set) and scale back from ey's exponent.
    Value sh = subi(math::CountLeadingZerosOp::create(b, v.sel(zero, v.l(kHidden), mx)), v.l(11));
    mx = arith::ShLIOp::create(b, mx, sh);
    Value e = subi(ey0, sh);
    Value normal = arith::OrIOp::create(b, subi(mx, v.l(kHidden)), arith::ShLIOp::create(b, e, v.l(52)));
    Value shift = v.sel(v.cmpi(I::sgt, e, v.l(0)), v.l(0), subi(v.l(1), e));
    shift = v.sel(v.cmpi(I::sgt, shift, v.l(63)), v.l(63), shift);
    Value subnormal = arith::ShRUIOp::create(b, mx, shift);
    Value mag = v.sel(v.cmpi(I::sgt, e, v.l(0)), normal, subnormal);
    Value r = math::CopySignOp::create(b, v.real(v.sel(zero, v.l(0), mag)), x);
    // |x| < |y| (or y = ±inf with a finite x): x; |x| = |y|: a signed zero.
    r = v.sel(v.cmpi(I::ult, ax2, ay2), x, r);
    r = v.sel(v.cmpi(I::eq, ax2, ay2), math::CopySignOp::create(b, v.d(0.0), x), r);
    Value bad = v.either(v.cmp(P::UEQ, ay, v.d(0.0)), v.either(v.cmp(P::UEQ, ax, v.d(kInf)), v.cmp(P::UNO, x, y)));
    r = v.sel(bad, v.d(NAN), r);
    rw.replaceOp(op, r);
    return success();
  }
};

// An n-D vector integer op that MathToLLVM only converts as 1-D (absi,
// ctlz, cttz: its pattern needs an LLVM-compatible operand, which an n-D
// vector is not before the vector conversion) computed on the flattened
// vector; the casts of unit dims cost nothing once lowered.
template <typename Op> struct FlattenNdVector : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op, PatternRewriter &rw) const override {
    auto vt = dyn_cast<VectorType>(op.getType());
    if (!vt || vt.getRank() < 2 || vt.isScalable())
      return failure();
    auto flat = VectorType::get({vt.getNumElements()}, vt.getElementType());
    Value x = vector::ShapeCastOp::create(rw, op.getLoc(), flat, op.getOperand());
    Value y = Op::create(rw, op.getLoc(), x);
    rw.replaceOpWithNewOp<vector::ShapeCastOp>(op, vt, y);
    return success();
  }
};

} // namespace

bool floorsApproximateMathOps(MlirOperation *ops, intptr_t numOps, MlirStringRef names) {
  if (numOps == 0)
    return true;
  llvm::SmallVector<llvm::StringRef> enabled;
  unwrap(names).split(enabled, ',', -1, false);
  llvm::SmallVector<Operation *> targets;
  for (intptr_t i = 0; i < numOps; ++i)
    targets.push_back(unwrap(ops[i]));
  MLIRContext *ctx = targets.front()->getContext();
  RewritePatternSet patterns(ctx);
  populateMathPolynomialApproximationPatterns(patterns, [&](llvm::StringRef name) {
    name.consume_front("math.");
    return llvm::is_contained(enabled, name);
  });
  // floors' own f32 vector forms, asked for by "floors.<op>" (upstream's
  // sin/cos are off by millions of ulp at |x| ≈ 58, its powf by 115 ulp).
  if (llvm::is_contained(enabled, "floors.powf"))
    patterns.add<VectorPowF>(ctx);
  if (llvm::is_contained(enabled, "floors.sin"))
    patterns.add<VectorTrig<math::SinOp, Trig::Sin>>(ctx);
  if (llvm::is_contained(enabled, "floors.cos"))
    patterns.add<VectorTrig<math::CosOp, Trig::Cos>>(ctx);
  if (llvm::is_contained(enabled, "floors.tan"))
    patterns.add<VectorTrig<math::TanOp, Trig::Tan>>(ctx);
  if (llvm::is_contained(enabled, "floors.atan2"))
    patterns.add<VectorAtan2>(ctx);
  if (llvm::is_contained(enabled, "floors.cbrt"))
    patterns.add<VectorCbrt>(ctx);
  // The GPU floor's scalar f32 forms (kernels have no libm): "floors.scalar.<op>".
  if (llvm::is_contained(enabled, "floors.scalar.powf"))
    patterns.add<VectorPowF>(ctx, true);
  if (llvm::is_contained(enabled, "floors.scalar.atan2"))
    patterns.add<VectorAtan2>(ctx, true);
  if (llvm::is_contained(enabled, "floors.scalar.cbrt"))
    patterns.add<VectorCbrt>(ctx, true);
  if (llvm::is_contained(enabled, "floors.scalar.sin"))
    patterns.add<ScalarTrigF32<Trig::Sin>>(ctx);
  if (llvm::is_contained(enabled, "floors.scalar.cos"))
    patterns.add<ScalarTrigF32<Trig::Cos>>(ctx);
  if (llvm::is_contained(enabled, "floors.scalar.tan"))
    patterns.add<ScalarTrigF32<Trig::Tan>>(ctx);
  if (llvm::is_contained(enabled, "floors.remf"))
    patterns.add<VectorRemF32>(ctx);
  if (llvm::is_contained(enabled, "floors.scalar.remf"))
    patterns.add<ScalarRemF32, ScalarRemF64>(ctx);
  // f64 forms. They win over upstream's type-generic rewrites (expm1 as
  // Kahan's u − 1 times x/log u, 2 ulp), hence the higher benefit.
  PatternBenefit first(2);
  // The GPU floor's scalar f64 forms ("floors.scalar.<f>64").
  if (llvm::is_contained(enabled, "floors.scalar.exp64"))
    patterns.add<VectorExpF64>(ctx, first, true);
  if (llvm::is_contained(enabled, "floors.scalar.tanh64"))
    patterns.add<VectorTanhF64>(ctx, first, true);
  if (llvm::is_contained(enabled, "floors.scalar.log64"))
    patterns.add<VectorLogF64<math::LogOp, false>>(ctx, first, true);
  if (llvm::is_contained(enabled, "floors.scalar.log1p64"))
    patterns.add<VectorLogF64<math::Log1pOp, true>>(ctx, first, true);
  if (llvm::is_contained(enabled, "floors.exp64"))
    patterns.add<VectorExpF64>(ctx, first);
  if (llvm::is_contained(enabled, "floors.expm1_64"))
    patterns.add<ExpM1F64>(ctx, first);
  if (llvm::is_contained(enabled, "floors.tanh64"))
    patterns.add<VectorTanhF64>(ctx, first);
  if (llvm::is_contained(enabled, "floors.log64"))
    patterns.add<VectorLogF64<math::LogOp, false>>(ctx, first);
  if (llvm::is_contained(enabled, "floors.log1p64"))
    patterns.add<VectorLogF64<math::Log1pOp, true>>(ctx, first);
  if (llvm::is_contained(enabled, "floors.flatten"))
    patterns.add<FlattenNdVector<math::AbsIOp>, FlattenNdVector<math::CountLeadingZerosOp>,
                 FlattenNdVector<math::CountTrailingZerosOp>>(ctx);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  return succeeded(applyOpPatternsGreedily(targets, std::move(patterns), config));
}
