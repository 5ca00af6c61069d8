//! Reading and parsing programs. Text is checked before it reaches MLIR: the C
//! API reads past a buffer that is not NUL-terminated, and melior panics on an
//! interior NUL, so both are turned into located errors here.

use std::{ffi::CString, path::Path};

use melior::{
    Context,
    ir::{BlockLike, Module, operation::OperationLike},
};
use mlir_sys::{MlirStringRef, mlirOperationCreateParse};

use crate::{
    diagnostics::{Capture, Diag, Severity, SourcePos},
    error::{Error, Result},
};

fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

/// Checks that `bytes` is text MLIR can safely read.
pub fn check_text(name: &str, bytes: &[u8]) -> Result<String> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let (line, column) = line_col(bytes, e.valid_up_to());
            return Err(Error::BadSource { path: name.into(), line, column, message: "input is not valid UTF-8".into() });
        }
    };
    if let Some(off) = text.bytes().position(|b| b == 0) {
        let (line, column) = line_col(bytes, off);
        return Err(Error::BadSource { path: name.into(), line, column, message: "NUL byte in input".into() });
    }
    Ok(text.to_string())
}

/// Reads and checks a source file.
pub fn read_source(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io { path: path.into(), source })?;
    check_text(&path.display().to_string(), &bytes)
}

/// Parses `text` as a module; locations carry `name` as their file.
pub fn parse_module<'c>(context: &'c Context, name: &str, text: &str) -> Result<Module<'c>> {
    let checked = check_text(name, text.as_bytes())?;
    let source = CString::new(checked).expect("checked for NUL above");
    let source_name = CString::new(name.replace('\0', "?")).expect("no NUL");
    let capture = Capture::new(context);
    let op = unsafe {
        mlirOperationCreateParse(
            context.to_raw(),
            MlirStringRef { data: source.as_ptr(), length: source.as_bytes().len() },
            MlirStringRef { data: source_name.as_ptr(), length: source_name.as_bytes().len() },
        )
    };
    let diags = capture.take();
    if op.ptr.is_null() {
        let mut d = diags;
        if !d.has_errors() {
            d.0.push(Diag {
                severity: Severity::Error,
                pos: Some(SourcePos { file: name.into(), line: 1, column: 1 }),
                message: "cannot parse the input as an MLIR module".into(),
                notes: vec![],
            });
        }
        return Err(Error::Diagnostics(d));
    }
    let operation = unsafe { melior::ir::Operation::from_raw(op) };
    let module = if operation.name().as_string_ref().as_str().ok() == Some("builtin.module") {
        Module::from_operation(operation).expect("checked to be a module")
    } else {
        // Like mlir-opt: top-level ops without a module get an implicit one.
        let module = Module::new(operation.location());
        module.body().append_operation(operation);
        module
    };
    // The parser verifies; make it explicit so nothing unverified reaches a pass.
    let capture = Capture::new(context);
    if !module.as_operation().verify() {
        return Err(Error::Diagnostics(capture.take()));
    }
    Ok(module)
}
