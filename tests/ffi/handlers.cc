// XLA FFI custom-call handlers written against jaxlib 0.10.2's own headers
// (`jax.ffi.include_dir()`: xla/ffi/api/ffi.h), as a JAX user writes them.
// tests/ffi_jax.rs builds this into a shared library with clang++ and runs
// the same library under XLA:CPU (jax.ffi.register_ffi_target) and under
// floors (`floors run --ffi-lib`, the Rust API), comparing the outputs.
//
//   RmsNorm                       rms_norm: y = x / sqrt(mean(x^2, last dim) + eps); attribute eps : f32
//   CounterInstantiate/Execute    counter: state made in the instantiate stage from
//                                 attribute start : i32; y = x + count, then count += 1
//   CounterStateTypeId/TypeInfo   the state's type, exported as XLA_FFI_DECLARE_TYPE_*_SYMBOL says
//   AffineArgmax                  affine_argmax: two results, y = x * scale + shift (f32) and the
//                                 argmax of each row (s32); attributes scale : f32, shift : i64
//   ScaleInPlace                  scale_in_place: y = x * factor in place; the result must alias
//                                 the operand (jax.ffi.ffi_call(..., input_output_aliases={0: 0}))
//   FromTheFuture                 claims FFI API version (major + 1).0: must be refused

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "xla/ffi/api/c_api.h"
#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

// --- rms_norm -------------------------------------------------------------

static ffi::Error RmsNormImpl(float eps, ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  auto dims = x.dimensions();
  if (dims.size() == 0) {
    return ffi::Error::InvalidArgument("rms_norm: the input must be an array");
  }
  const int64_t n = dims.back();
  const int64_t total = static_cast<int64_t>(x.element_count());
  const float* in = x.typed_data();
  float* out = y->typed_data();
  for (int64_t row = 0; row < total; row += n) {
    float sum = 0.0f;
    for (int64_t i = 0; i < n; ++i) sum += in[row + i] * in[row + i];
    const float scale = 1.0f / std::sqrt(sum / static_cast<float>(n) + eps);
    for (int64_t i = 0; i < n; ++i) out[row + i] = in[row + i] * scale;
  }
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(RmsNorm, RmsNormImpl,
                              ffi::Ffi::Bind()
                                  .Attr<float>("eps")
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>());

// --- counter: per-call-site state from the instantiate stage ---------------

struct CounterState {
  static ffi::TypeId id;
  explicit CounterState(int32_t start) : count(start) {}
  int32_t count;
};
ffi::TypeId CounterState::id = {};

static ffi::ErrorOr<std::unique_ptr<CounterState>> CounterInstantiateImpl(int32_t start) {
  return std::make_unique<CounterState>(start);
}

static ffi::Error CounterExecuteImpl(CounterState* state, ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  const size_t n = x.element_count();
  for (size_t i = 0; i < n; ++i) y->typed_data()[i] = x.typed_data()[i] + static_cast<float>(state->count);
  state->count += 1;
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(CounterInstantiate, CounterInstantiateImpl,
                              ffi::Ffi::BindInstantiate().Attr<int32_t>("start"));
XLA_FFI_DEFINE_HANDLER_SYMBOL(CounterExecute, CounterExecuteImpl,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::State<CounterState>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>());

XLA_FFI_DECLARE_TYPE_ID_SYMBOL(CounterStateTypeId);
XLA_FFI_DECLARE_TYPE_INFO_SYMBOL(CounterStateTypeInfo);

extern "C" XLA_FFI_TypeId* CounterStateTypeId() { return &CounterState::id; }

extern "C" const XLA_FFI_TypeInfo* CounterStateTypeInfo() {
  static const XLA_FFI_TypeInfo info = ffi::MakeTypeInfo<CounterState>();
  return &info;
}

// --- affine_argmax: two results of two dtypes --------------------------------

static ffi::Error AffineArgmaxImpl(float scale, int64_t shift, ffi::Buffer<ffi::F32> x,
                                   ffi::ResultBuffer<ffi::F32> y, ffi::ResultBuffer<ffi::S32> argmax) {
  auto dims = x.dimensions();
  if (dims.size() == 0) {
    return ffi::Error::InvalidArgument("affine_argmax: the input must be an array");
  }
  const int64_t n = dims.back();
  const int64_t total = static_cast<int64_t>(x.element_count());
  if (static_cast<int64_t>(argmax->element_count()) * n != total) {
    return ffi::Error::InvalidArgument("affine_argmax: the second result must have one entry per row");
  }
  const float* in = x.typed_data();
  for (int64_t row = 0, r = 0; row < total; row += n, ++r) {
    int32_t best = 0;
    for (int64_t i = 0; i < n; ++i) {
      y->typed_data()[row + i] = in[row + i] * scale + static_cast<float>(shift);
      if (in[row + i] > in[row + best]) best = static_cast<int32_t>(i);
    }
    argmax->typed_data()[r] = best;
  }
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(AffineArgmax, AffineArgmaxImpl,
                              ffi::Ffi::Bind()
                                  .Attr<float>("scale")
                                  .Attr<int64_t>("shift")
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::S32>>());

// --- scale_in_place: the result aliases the operand (input_output_aliases) ----

static ffi::Error ScaleInPlaceImpl(float factor, ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  if (x.untyped_data() != y->untyped_data()) {
    return ffi::Error::InvalidArgument("scale_in_place: the result must alias the operand");
  }
  const size_t n = x.element_count();
  for (size_t i = 0; i < n; ++i) y->typed_data()[i] *= factor;
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(ScaleInPlace, ScaleInPlaceImpl,
                              ffi::Ffi::Bind()
                                  .Attr<float>("factor")
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>());

// --- a handler built for a newer major version --------------------------------

extern "C" XLA_FFI_Error* FromTheFuture(XLA_FFI_CallFrame* frame) {
  if (frame->extension_start != nullptr && frame->extension_start->type == XLA_FFI_Extension_Metadata) {
    auto* ext = reinterpret_cast<XLA_FFI_Metadata_Extension*>(frame->extension_start);
    ext->metadata->api_version.major_version = XLA_FFI_API_MAJOR + 1;
    ext->metadata->api_version.minor_version = 0;
  }
  return nullptr;
}

// A handler that lets a C++ exception escape (as a kernel calling a library
// that throws may): floors reports it as the call's error, never an abort.
static ffi::Error ThrowsImpl(float eps, ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  throw std::runtime_error("thrown from the handler");
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(Throws, ThrowsImpl,
                              ffi::Ffi::Bind().Attr<float>("eps").Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>());
