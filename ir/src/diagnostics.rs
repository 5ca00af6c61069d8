//! MLIR diagnostics, captured instead of printed, shown as
//! `file:line:col: error: message` the way compilers users know print them.

use std::{
    fmt,
    sync::{Arc, Mutex},
};

use melior::{
    Context,
    diagnostic::{Diagnostic, DiagnosticSeverity},
    ir::Location,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        })
    }
}

/// A source position: the innermost file/line/col a location resolves to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourcePos {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Debug)]
pub struct Diag {
    pub severity: Severity,
    pub pos: Option<SourcePos>,
    pub message: String,
    pub notes: Vec<Diag>,
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.pos {
            Some(p) => write!(f, "{}:{}:{}: {}: {}", p.file, p.line, p.column, self.severity, self.message)?,
            None => write!(f, "<unknown>: {}: {}", self.severity, self.message)?,
        }
        for n in &self.notes {
            write!(f, "\n{n}")?;
        }
        Ok(())
    }
}

/// Everything MLIR reported during one step.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics(pub Vec<Diag>);

impl Diagnostics {
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|d| d.severity == Severity::Error)
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// Resolves a location to the first file:line:col inside it (through names,
/// call sites and fused locations).
pub fn source_pos(loc: Location<'_>) -> Option<SourcePos> {
    if loc.is_file_line_col_range() {
        let file = loc.file_line_col_range_filename();
        return Some(SourcePos {
            file: file.as_string_ref().as_str().unwrap_or("<non-utf8>").to_string(),
            line: loc.file_line_col_range_start_line(),
            column: loc.file_line_col_range_start_column(),
        });
    }
    if loc.is_name() {
        return source_pos(loc.name_child_location());
    }
    // The innermost frame: the op's own line (in an inlined helper, JAX's
    // innermost user frame); the caller only when the callee has no file.
    if loc.is_call_site() {
        return source_pos(loc.call_site_callee()).or_else(|| source_pos(loc.call_site_caller()));
    }
    if loc.is_fused() {
        return (0..loc.fused_num_locations()).find_map(|i| source_pos(loc.fused_location(i)));
    }
    None
}

fn convert(d: &Diagnostic<'_>) -> Diag {
    let severity = match d.severity() {
        DiagnosticSeverity::Error => Severity::Error,
        DiagnosticSeverity::Warning => Severity::Warning,
        DiagnosticSeverity::Note => Severity::Note,
        DiagnosticSeverity::Remark => Severity::Remark,
    };
    // MLIR's verifier attaches the whole failing op as a note; the location
    // already points at it, so the dump is noise for users.
    let notes = (0..d.note_count())
        .filter_map(|i| d.note(i).ok())
        .map(|n| convert(&n))
        .filter(|n| !n.message.starts_with("see current operation"))
        .collect();
    Diag { severity, pos: source_pos(d.location()), message: d.to_string(), notes }
}

/// Captures every diagnostic of a context while alive; detaches on drop.
pub struct Capture<'c> {
    context: &'c Context,
    id: Option<melior::diagnostic::DiagnosticHandlerId>,
    sink: Arc<Mutex<Vec<Diag>>>,
}

impl<'c> Capture<'c> {
    pub fn new(context: &'c Context) -> Self {
        let sink = Arc::new(Mutex::new(Vec::new()));
        let s = sink.clone();
        let id = context.attach_diagnostic_handler(move |d| {
            let diag = convert(&d);
            // Remarks say which fallback a pass took (`-v` shows them);
            // errors and warnings reach the user through the result.
            if diag.severity == Severity::Remark {
                tracing::info!(target: "floors::mlir", "{diag}");
            } else {
                tracing::debug!(target: "floors::mlir", "{diag}");
            }
            if let Ok(mut v) = s.lock() {
                v.push(diag);
            }
            true
        });
        Self { context, id: Some(id), sink }
    }

    /// Takes what was reported so far.
    pub fn take(&self) -> Diagnostics {
        Diagnostics(std::mem::take(&mut *self.sink.lock().unwrap_or_else(|e| e.into_inner())))
    }
}

impl Drop for Capture<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.context.detach_diagnostic_handler(id);
        }
    }
}
