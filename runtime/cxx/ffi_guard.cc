// Calls an XLA FFI handler behind a C++ `catch`: a handler compiled as C++
// (jaxlib's LAPACK kernels, a user's jax.ffi library) that lets an exception
// escape must not unwind into Rust, which would abort the process ("Rust
// cannot catch foreign exceptions"). The exception becomes the call's error.

#include <cstddef>
#include <cstring>
#include <exception>

extern "C" {

typedef void *(*floors_ffi_handler)(void *frame);

static void floors_copy(char *what, size_t len, const char *msg) {
  if (what == nullptr || len == 0) return;
  std::strncpy(what, msg, len - 1);
  what[len - 1] = '\0';
}

// Returns the handler's result (an XLA_FFI_Error*, null on success); when the
// handler throws, returns null with *threw = 1 and the exception's message in
// `what` (NUL-terminated, at most `len` bytes).
void *floors_ffi_guarded_call(floors_ffi_handler handler, void *frame, int *threw, char *what, size_t len) {
  *threw = 0;
  try {
    return handler(frame);
  } catch (const std::exception &e) {
    *threw = 1;
    floors_copy(what, len, e.what());
  } catch (...) {
    *threw = 1;
    floors_copy(what, len, "a C++ exception of an unknown type");
  }
  return nullptr;
}
}
