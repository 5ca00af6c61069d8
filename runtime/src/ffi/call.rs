//! One custom-call site: its handler, its attributes encoded once, its
//! buffers' dtypes and dims, and the state its instantiate stage made. The
//! custom-call thunk runs it: prepare and initialize (when the handler has
//! them) then execute, each with an `XLA_FFI_CallFrame` over this
//! execution's buffers.
//!
//! Stages: instantiate runs once, when the executable is built (its frame's
//! buffers have dtypes and dims but no data); prepare, initialize and
//! execute run on every execution of the call, in that order. A state set in
//! instantiate lives as long as the executable; one set in prepare or
//! initialize lives until that execution's execute returns. States are
//! deleted with their type's deleter.

use std::ffi::{c_int, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use super::api::{self, ExecutionContext, FutureObject, InstanceState, UserData, take_error};
use super::attrs::{Attrs, DataType, EncodedAttrs};
use super::binding::{CallFrame, FfiError, Stage, panic_message};
use super::c_api::*;
use super::registry::{Handler, HandlerKind};
use crate::npy::TensorSpec;

/// What the compiler knows of one custom call besides its buffer slices:
/// part of the host program (`ThunkSpec::CustomCall`), so of the artifact.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CustomCallInfo {
    /// Dtype and dims of each operand, then of each result.
    pub input_types: Vec<TensorSpec>,
    pub output_types: Vec<TensorSpec>,
    /// The typed FFI attributes, sorted by name.
    pub attributes: Attrs,
    /// `has_side_effect`: kept in program order with every other such call.
    pub has_side_effect: bool,
    /// `(output, input)` pairs (`output_operand_aliases`): the output is the
    /// input's buffer, which starts out holding the input.
    pub aliases: Vec<(usize, usize)>,
    /// `file:line:col` of the call in the source program (errors name it).
    pub location: String,
}

struct Shape {
    dtype: c_int,
    dims: Box<[i64]>,
}

/// A custom call ready to run (see the module docs).
pub struct CallSite {
    target: String,
    handler: Arc<Handler>,
    attrs: EncodedAttrs,
    attrs_text: String,
    args: Vec<Shape>,
    rets: Vec<Shape>,
    arg_types: Box<[c_int]>,
    ret_types: Box<[c_int]>,
    instance: InstanceState,
    user_data: Arc<UserData>,
}

impl CallSite {
    /// Encodes the attributes and runs the instantiate stage.
    pub fn new(
        target: &str,
        handler: Arc<Handler>,
        operands: &[TensorSpec],
        results: &[TensorSpec],
        attrs: &Attrs,
        user_data: Arc<UserData>,
    ) -> Result<Self, String> {
        let encoded = EncodedAttrs::encode(attrs).map_err(|e| format!("bad attributes: {e}"))?;
        let shape = |t: &TensorSpec| Shape {
            dtype: DataType::of_element_type(t.element_type).code(),
            dims: t.shape.iter().map(|&d| d as i64).collect(),
        };
        let site = Self {
            target: target.to_string(),
            handler,
            attrs: encoded,
            attrs_text: if attrs.is_empty() { String::new() } else { attrs.to_string() },
            args: operands.iter().map(shape).collect(),
            rets: results.iter().map(shape).collect(),
            arg_types: vec![XLA_FFI_ArgType_BUFFER; operands.len()].into(),
            ret_types: vec![XLA_FFI_RetType_BUFFER; results.len()].into(),
            instance: InstanceState::default(),
            user_data,
        };
        if site.handler.has_stage(Stage::Instantiate) {
            let ctx = ExecutionContext::new(&site.instance, None, &site.user_data);
            let none_a = vec![std::ptr::null_mut(); site.args.len()];
            let none_r = vec![std::ptr::null_mut(); site.rets.len()];
            site.call(Stage::Instantiate, &ctx, &none_a, &none_r).map_err(|e| format!("in the instantiate stage: {e}"))?;
        }
        Ok(site)
    }

    pub fn target(&self) -> &str {
        &self.target
    }

    pub fn handler(&self) -> &Handler {
        &self.handler
    }

    /// The attributes as MLIR prints them (empty when there are none).
    pub fn attrs_text(&self) -> &str {
        &self.attrs_text
    }

    /// Runs prepare, initialize (when present) and execute over these buffers.
    pub fn run(&self, args: &[*mut u8], rets: &[*mut u8], pool: Option<&rayon::ThreadPool>) -> Result<(), String> {
        self.run_on(args, rets, pool, std::ptr::null_mut())
    }

    /// [`CallSite::run`] on a GPU stream (a `CUstream`, what the handler's
    /// `XLA_FFI_Stream_Get` returns); the buffers are device addresses.
    pub fn run_on(&self, args: &[*mut u8], rets: &[*mut u8], pool: Option<&rayon::ThreadPool>, stream: *mut c_void) -> Result<(), String> {
        let ctx = ExecutionContext::new(&self.instance, pool, &self.user_data).with_stream(stream);
        for stage in [Stage::Prepare, Stage::Initialize] {
            if self.handler.has_stage(stage) {
                self.call(stage, &ctx, args, rets).map_err(|e| format!("in the {stage} stage: {e}"))?;
            }
        }
        self.call(Stage::Execute, &ctx, args, rets)
    }

    fn call(&self, stage: Stage, ctx: &ExecutionContext, args: &[*mut u8], rets: &[*mut u8]) -> Result<(), String> {
        if args.len() != self.args.len() || rets.len() != self.rets.len() {
            return Err(format!(
                "{} buffers and {} results given, the call has {} and {}",
                args.len(),
                rets.len(),
                self.args.len(),
                self.rets.len()
            ));
        }
        let buffer = |s: &Shape, data: *mut u8| XLA_FFI_Buffer {
            struct_size: XLA_FFI_Buffer_STRUCT_SIZE,
            extension_start: std::ptr::null_mut(),
            dtype: s.dtype,
            data: data.cast(),
            rank: s.dims.len() as i64,
            dims: s.dims.as_ptr() as *mut i64,
        };
        let mut arg_bufs: Vec<XLA_FFI_Buffer> = self.args.iter().zip(args).map(|(s, &d)| buffer(s, d)).collect();
        let mut ret_bufs: Vec<XLA_FFI_Buffer> = self.rets.iter().zip(rets).map(|(s, &d)| buffer(s, d)).collect();
        let mut arg_ptrs: Vec<*mut c_void> = arg_bufs.iter_mut().map(|b| (b as *mut XLA_FFI_Buffer).cast()).collect();
        let mut ret_ptrs: Vec<*mut c_void> = ret_bufs.iter_mut().map(|b| (b as *mut XLA_FFI_Buffer).cast()).collect();
        let mut frame = XLA_FFI_CallFrame {
            struct_size: XLA_FFI_CallFrame_STRUCT_SIZE,
            extension_start: std::ptr::null_mut(),
            api: api::api(),
            ctx: ctx.as_raw(),
            stage: stage.code(),
            args: XLA_FFI_Args {
                struct_size: XLA_FFI_Args_STRUCT_SIZE,
                extension_start: std::ptr::null_mut(),
                size: self.args.len() as i64,
                types: self.arg_types.as_ptr() as *mut c_int,
                args: arg_ptrs.as_mut_ptr(),
            },
            rets: XLA_FFI_Rets {
                struct_size: XLA_FFI_Rets_STRUCT_SIZE,
                extension_start: std::ptr::null_mut(),
                size: self.rets.len() as i64,
                types: self.ret_types.as_ptr() as *mut c_int,
                rets: ret_ptrs.as_mut_ptr(),
            },
            attrs: self.attrs.raw(),
            future: std::ptr::null_mut(),
        };
        match &self.handler.kind {
            HandlerKind::C { bundle, .. } => {
                let f = match stage {
                    Stage::Instantiate => bundle.instantiate,
                    Stage::Prepare => bundle.prepare,
                    Stage::Initialize => bundle.initialize,
                    Stage::Execute => bundle.execute,
                };
                let Some(f) = f else { return Ok(()) };
                // SAFETY: a checked handler; the frame and everything it
                // points to outlive the call.
                let err = unsafe { super::registry::call_guarded(f, &mut frame) }?;
                if let Some((code, message)) = unsafe { take_error(err) } {
                    return Err(with_code(code, message));
                }
                if !frame.future.is_null() {
                    // Asynchronous result: completed synchronously here.
                    return unsafe { FutureObject::wait(frame.future) }.map_err(|(code, message)| with_code(code, message));
                }
                Ok(())
            }
            HandlerKind::Rust(r) => {
                // SAFETY: the frame is valid for this call and viewed once.
                let view = unsafe { CallFrame::from_raw(&frame) }.map_err(|e| e.to_string())?;
                let result = catch_unwind(AssertUnwindSafe(|| -> Result<(), FfiError> {
                    match stage {
                        Stage::Instantiate => {
                            let Some(inst) = &r.instantiate else { return Ok(()) };
                            if let Some(state) = inst(&view)? {
                                let _ = ctx.instance.rust_state.set(state);
                            }
                            Ok(())
                        }
                        Stage::Execute => (r.execute)(&view),
                        _ => Ok(()),
                    }
                }));
                match result {
                    Ok(r) => r.map_err(|e| with_code(e.code, e.message)),
                    Err(p) => Err(format!("panicked: {}", panic_message(&*p))),
                }
            }
        }
    }
}

/// A handler's error message, with its code when that says more than the message.
fn with_code(code: XLA_FFI_Error_Code, message: String) -> String {
    match code {
        XLA_FFI_Error_Code_INVALID_ARGUMENT | XLA_FFI_Error_Code_UNKNOWN | XLA_FFI_Error_Code_INTERNAL => message,
        c => format!("{message} ({})", api::error_code_name(c)),
    }
}
