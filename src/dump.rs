//! Dumps on demand, like XLA's `--xla_dump_to` / `--xla_dump_hlo_pass_re`,
//! but fewer and diffable: one folder per module, the input first, then one
//! file per matching pass, named `NNNN.<pass-argument>.mlir` where NNNN is the
//! pass's position in the run (so `ls` sorts them and neighbours diff cleanly).
//! With `--dump-html`, also a browsable index (see [`html`]): every pass in
//! order with its time, whether it changed the IR, and a page per dumped pass
//! with its diff against the IR before it.

pub mod html;

use std::{
    ffi::c_void,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use floors_runtime::trace::{PASSES_TRACK, Trace};

use melior::ir::OperationRef;
use mlir_sys::{MlirOperation, MlirStringRef};
use regex::Regex;

use crate::error::{Error, Result};

/// Where and what to dump.
#[derive(Clone, Debug)]
pub struct DumpOptions {
    pub dir: PathBuf,
    /// Only passes whose argument matches are written; `None` writes all.
    pub pass_re: Option<Regex>,
    /// Also write `index.html` files and a page per dumped pass (`--dump-html`).
    pub html: bool,
}

impl DumpOptions {
    pub fn new(dir: impl Into<PathBuf>, pass_re: Option<&str>) -> Result<Self> {
        let pass_re =
            pass_re.map(|p| Regex::new(p).map_err(|e| Error::BadRegex { pattern: p.into(), message: e.to_string() })).transpose()?;
        Ok(Self { dir: dir.into(), pass_re, html: false })
    }

    /// The same options, with the HTML index on or off.
    pub fn with_html(self, html: bool) -> Self {
        Self { html, ..self }
    }

    /// Reads `--dump-to=DIR`, `--dump-pass-re=REGEX` (also `--flag VALUE`)
    /// and `--dump-html` from a FLOORS_FLAGS-style string. An unknown flag is
    /// an error, not ignored.
    pub fn from_flags(flags: &str) -> Result<Option<Self>> {
        let mut dir = None;
        let mut re = None;
        let mut html = false;
        let mut words = flags.split_whitespace();
        while let Some(w) = words.next() {
            if w == "--dump-html" {
                html = true;
                continue;
            }
            let (key, value) = match w.split_once('=') {
                Some((k, v)) => (k, Some(v.to_string())),
                None => (w, None),
            };
            let mut value = || -> Result<String> {
                match &value {
                    Some(v) => Ok(v.clone()),
                    None => words.next().map(str::to_string).ok_or_else(|| Error::BadFlags(format!("{key} needs a value"))),
                }
            };
            match key {
                "--dump-to" => dir = Some(value()?),
                "--dump-pass-re" => re = Some(value()?),
                other => {
                    return Err(Error::BadFlags(format!(
                        "unknown flag `{other}` (known: --dump-to=DIR, --dump-pass-re=REGEX, --dump-html)"
                    )));
                }
            }
        }
        match (dir, re) {
            (Some(d), re) => Ok(Some(Self::new(d, re.as_deref())?.with_html(html))),
            (None, Some(_)) => Err(Error::BadFlags("--dump-pass-re needs --dump-to".into())),
            (None, None) if html => Err(Error::BadFlags("--dump-html needs --dump-to".into())),
            (None, None) => Ok(None),
        }
    }
}

/// One step of a traced pipeline run: the pass and the IR after it.
#[derive(Clone, Debug)]
pub struct Step {
    pub ordinal: usize,
    pub pass: String,
    pub ir: String,
}

/// Turns a module name into a folder name that is safe on any filesystem.
pub fn sanitize(name: &str) -> String {
    let s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' { c } else { '_' }).collect();
    if s.is_empty() { "module".into() } else { s }
}

/// Writes the dump files of one module.
pub struct Dumper {
    dir: PathBuf,
    pass_re: Option<Regex>,
    html: bool,
}

impl Dumper {
    pub fn create(options: &DumpOptions, module_name: &str) -> Result<Self> {
        let dir = options.dir.join(sanitize(module_name));
        std::fs::create_dir_all(&dir).map_err(|source| Error::Io { path: dir.clone(), source })?;
        // A stale file from an earlier run would sit between ours and mislead
        // `ls` (and the index would link a page of another run).
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                if e.path().extension().is_some_and(|x| x == "mlir" || x == "html") {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        Ok(Self { dir, pass_re: options.pass_re.clone(), html: options.html })
    }

    pub fn wants(&self, pass: &str) -> bool {
        self.pass_re.as_ref().is_none_or(|re| re.is_match(pass))
    }

    /// Whether the HTML index is asked for.
    pub fn html(&self) -> bool {
        self.html
    }

    /// The file name the IR after pass `ordinal` is dumped to.
    pub fn file_name(ordinal: usize, pass: &str) -> String {
        format!("{ordinal:04}.{}.mlir", sanitize(pass))
    }

    pub fn write(&self, ordinal: usize, pass: &str, ir: &str) -> Result<()> {
        let path = self.dir.join(Self::file_name(ordinal, pass));
        std::fs::write(&path, ir).map_err(|source| Error::Io { path, source })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// What a pass manager tells an observer: a pass is about to run, a pass
/// ran (with the outermost op, to print). Passes nest (a pass manager on
/// functions is itself a pass), so befores and afters nest; a pass that
/// fails gets no after.
pub trait PassObserver {
    fn before_pass(&mut self, _pass: &str) {}
    fn after_pass(&mut self, pass: &str, root: OperationRef<'_, '_>);
}

impl<F: FnMut(&str, OperationRef<'_, '_>)> PassObserver for F {
    fn after_pass(&mut self, pass: &str, root: OperationRef<'_, '_>) {
        self(pass, root)
    }
}

/// The observer a pass manager calls (a closure after every pass, or any
/// [`PassObserver`]).
pub type AfterPass<'o> = dyn PassObserver + 'o;

fn pass_name(arg: MlirStringRef) -> String {
    // SAFETY: `arg` is the pass's argument, or its name when that is empty (MLIR's passes always have one of the
    // two), so `arg.data` is non-null and points at `arg.length` bytes the pass owns for the callback.
    let bytes = unsafe { std::slice::from_raw_parts(arg.data as *const u8, arg.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

pub(crate) extern "C" fn after_pass_trampoline(user: *mut c_void, arg: MlirStringRef, root: MlirOperation) {
    // SAFETY: `user` is the `&mut AfterPass` slot that `run_observed` registered with this pass manager; the slot
    // outlives the pass manager (dropped first), and with multithreading off the callbacks run on that thread while
    // nothing else uses the observer.
    let observer = unsafe { &mut *(user as *mut &mut AfterPass<'_>) };
    let name = pass_name(arg);
    // SAFETY: `root` is the live outermost op MLIR passes after a successful pass, borrowed for this callback only.
    let op = unsafe { OperationRef::from_raw(root) };
    // Unwinding into the C++ pass manager would abort the process; an
    // observer that panics loses its output, and says so.
    if let Err(panic) = crate::pass::catching_panics(|| observer.after_pass(&name, op)) {
        tracing::error!("observer after pass {name} panicked: {panic}");
    }
}

pub(crate) extern "C" fn before_pass_trampoline(user: *mut c_void, arg: MlirStringRef) {
    // SAFETY: `user` is the `&mut AfterPass` slot that `run_observed` registered with this pass manager; the slot
    // outlives the pass manager (dropped first), and with multithreading off the callbacks run on that thread while
    // nothing else uses the observer.
    let observer = unsafe { &mut *(user as *mut &mut AfterPass<'_>) };
    let name = pass_name(arg);
    if let Err(panic) = crate::pass::catching_panics(|| observer.before_pass(&name)) {
        tracing::error!("observer before pass {name} panicked: {panic}");
    }
}

/// What a pass did to the IR, as the HTML index shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Lines added and removed (a line diff against the IR before the pass).
    Changed {
        added: usize,
        removed: usize,
    },
    Unchanged,
    /// The pass failed (the pipeline stopped there).
    Failed,
    /// Not compared (no `--dump-html`).
    NotCompared,
}

/// One pass of a pipeline run: what the HTML index lists.
#[derive(Clone, Debug)]
pub struct PassRecord {
    /// Position in the run (the `NNNN` of the dump file), in finishing order.
    pub ordinal: usize,
    pub pass: String,
    /// How many pass managers enclose it (0: the top pipeline's passes).
    pub depth: usize,
    /// The pass alone: its run and verification, not the observers' printing.
    pub duration: Duration,
    pub change: Change,
    /// The dumped IR file (`NNNN.<pass>.mlir`), when the pass was dumped.
    pub file: Option<String>,
    /// The pass's HTML page (`NNNN.<pass>.html`), with `--dump-html`.
    pub page: Option<String>,
}

/// The observer of a pipeline run that dumps and times: writes the IR of
/// every pass the dumper wants, with `--dump-html` compares each pass's IR
/// with the one before and writes the pages and the index, and puts every
/// pass as a slice on the trace's `compile passes` track.
pub struct PipelineObserver<'a> {
    dumper: Option<&'a Dumper>,
    trace: Option<&'a Trace>,
    /// Open passes: name, start, observer overhead so far when it started.
    stack: Vec<(String, Instant, Duration)>,
    /// Time spent printing and writing, taken out of the passes' times.
    overhead: Duration,
    ordinal: usize,
    /// The IR after the last pass (with `--dump-html`).
    previous: Option<String>,
    records: Vec<PassRecord>,
    failure: Option<Error>,
}

impl<'a> PipelineObserver<'a> {
    /// Starts observing; writes the input (`0000.input.mlir`) when dumping.
    pub fn new(dumper: Option<&'a Dumper>, trace: Option<&'a Trace>, input: OperationRef<'_, '_>) -> Result<Self> {
        let mut previous = None;
        if let Some(d) = dumper {
            let ir = crate::ir::print_op(&input);
            d.write(0, "input", &ir)?;
            if d.html() {
                previous = Some(ir);
            }
        }
        Ok(Self { dumper, trace, stack: Vec::new(), overhead: Duration::ZERO, ordinal: 0, previous, records: Vec::new(), failure: None })
    }

    fn dump(&mut self, record: &mut PassRecord, root: OperationRef<'_, '_>) -> Result<()> {
        let Some(d) = self.dumper else { return Ok(()) };
        let wanted = d.wants(&record.pass);
        if !wanted && !d.html() {
            return Ok(());
        }
        let ir = crate::ir::print_op(&root);
        if wanted {
            d.write(record.ordinal, &record.pass, &ir)?;
            record.file = Some(Dumper::file_name(record.ordinal, &record.pass));
        }
        if d.html() {
            let before = self.previous.take().unwrap_or_default();
            let (change, diff) = html::diff(&before, &ir, wanted);
            record.change = change;
            if wanted {
                record.page = Some(format!("{:04}.{}.html", record.ordinal, sanitize(&record.pass)));
                html::write_pass_page(d.dir(), record, diff.as_deref(), &ir)?;
            }
            self.previous = Some(ir);
        }
        Ok(())
    }

    /// Ends the run: a pass still open failed (the innermost; the pass
    /// managers around it are closed with it). With `--dump-html`, writes the
    /// index. The records, and the first error writing the dump.
    pub fn finish(mut self, pipeline: &str, module_name: &str) -> (Vec<PassRecord>, Option<Error>) {
        let now = Instant::now();
        while let Some((pass, start, overhead_then)) = self.stack.pop() {
            self.ordinal += 1;
            let duration = now.duration_since(start).saturating_sub(self.overhead - overhead_then);
            let depth = self.stack.len();
            if let Some(t) = self.trace {
                t.slice_on(PASSES_TRACK, "pass", format!("{pass} (failed)"), start, now, Vec::new());
            }
            self.records.push(PassRecord { ordinal: self.ordinal, pass, depth, duration, change: Change::Failed, file: None, page: None });
        }
        if let Some(d) = self.dumper
            && d.html()
            && self.failure.is_none()
            && let Err(e) = html::write_module_index(d.dir(), module_name, pipeline, &Dumper::file_name(0, "input"), &self.records)
        {
            self.failure = Some(e);
        }
        (self.records, self.failure)
    }
}

impl PassObserver for PipelineObserver<'_> {
    fn before_pass(&mut self, pass: &str) {
        self.stack.push((pass.to_string(), Instant::now(), self.overhead));
    }

    fn after_pass(&mut self, pass: &str, root: OperationRef<'_, '_>) {
        let now = Instant::now();
        let (start, overhead_then) = match self.stack.pop() {
            Some((_, start, o)) => (start, o),
            None => (now, self.overhead),
        };
        self.ordinal += 1;
        let mut record = PassRecord {
            ordinal: self.ordinal,
            pass: pass.to_string(),
            depth: self.stack.len(),
            duration: now.duration_since(start).saturating_sub(self.overhead - overhead_then),
            change: Change::NotCompared,
            file: None,
            page: None,
        };
        if let Some(t) = self.trace {
            use floors_runtime::TraceArg;
            t.slice_on(PASSES_TRACK, "pass", pass, start, now, vec![("ordinal", TraceArg::Int(self.ordinal as u64))]);
        }
        if self.failure.is_none()
            && let Err(e) = self.dump(&mut record, root)
        {
            self.failure = Some(e);
        }
        self.records.push(record);
        self.overhead += now.elapsed();
    }
}
