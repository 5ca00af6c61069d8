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

/// The deepest nesting of brackets (`{ ( [ <`: regions, operand lists,
/// attributes and types) floors reads. MLIR's parser, verifier and printer
/// recurse once or more per level; compiles run on a stack sized for this
/// many levels ([`with_big_stack`]). JAX programs nest a few dozen deep.
pub const MAX_NESTING: usize = 1024;

/// The first place `text` nests deeper than [`MAX_NESTING`], as a located
/// error. Comments and string literals are skipped; `->` is not a bracket.
pub fn check_nesting(name: &str, text: &str) -> Result<()> {
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // A string literal, with backslash escapes.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'-' if bytes.get(i + 1) == Some(&b'>') => i += 1,
            // MLIR 22's parser crashes on a dense array of `index` (found by
            // fuzzing; mlir-opt segfaults too): refuse it first.
            b'a' if bytes[i..].starts_with(b"array<")
                && bytes[i + 6..].iter().skip_while(|b| b.is_ascii_whitespace()).take(5).eq(b"index".iter()) =>
            {
                let (line, column) = line_col(bytes, i);
                return Err(Error::BadSource {
                    path: name.into(),
                    line,
                    column,
                    message: "`array<index: ...>` is not a valid dense array (its elements must be integers or floats of a fixed width)"
                        .into(),
                });
            }
            b'{' | b'(' | b'[' | b'<' => {
                depth += 1;
                if depth > MAX_NESTING {
                    let (line, column) = line_col(bytes, i);
                    return Err(Error::BadSource {
                        path: name.into(),
                        line,
                        column,
                        message: format!(
                            "nesting deeper than {MAX_NESTING} levels (regions, operand lists, attributes or types); floors refuses it before MLIR's recursive parser sees it"
                        ),
                    });
                }
            }
            b'}' | b')' | b']' | b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Stack for compiling: MLIR and floors recurse per nesting level, and a
/// [`MAX_NESTING`]-deep program needs more than a thread's default stack.
pub const COMPILE_STACK_BYTES: usize = 256 << 20;

/// Runs `f` on a stack of [`COMPILE_STACK_BYTES`] (a fresh segment on this
/// thread, so MLIR objects stay on the thread that made them).
pub fn with_big_stack<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(COMPILE_STACK_BYTES / 2, COMPILE_STACK_BYTES, f)
}

/// Reads and checks a source file.
pub fn read_source(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io { path: path.into(), source })?;
    check_text(&path.display().to_string(), &bytes)
}

/// Parses `text` as a module; locations carry `name` as their file.
pub fn parse_module<'c>(context: &'c Context, name: &str, text: &str) -> Result<Module<'c>> {
    let checked = check_text(name, text.as_bytes())?;
    check_nesting(name, &checked)?;
    with_big_stack(|| parse_checked(context, name, checked))
}

fn parse_checked<'c>(context: &'c Context, name: &str, checked: String) -> Result<Module<'c>> {
    let source = CString::new(checked).expect("checked for NUL above");
    let source_name = CString::new(name.replace('\0', "?")).expect("no NUL");
    let capture = Capture::new(context);
    // SAFETY: `context` is live (borrowed); `source` and `source_name` are `CString`s alive across the call, each
    // passed with its length, and the parser copies what it keeps (locations intern the name).
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
    // SAFETY: `op` is non-null (checked above): a freshly parsed, detached top-level op that nothing else owns, so
    // the `Operation` takes ownership.
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
