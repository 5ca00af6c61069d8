//! Dumps on demand, like XLA's `--xla_dump_to` / `--xla_dump_hlo_pass_re`,
//! but fewer and diffable: one folder per module, the input first, then one
//! file per matching pass, named `NNNN.<pass-argument>.mlir` where NNNN is the
//! pass's position in the run (so `ls` sorts them and neighbours diff cleanly).

use std::{
    ffi::c_void,
    path::{Path, PathBuf},
};

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
}

impl DumpOptions {
    pub fn new(dir: impl Into<PathBuf>, pass_re: Option<&str>) -> Result<Self> {
        let pass_re =
            pass_re.map(|p| Regex::new(p).map_err(|e| Error::BadRegex { pattern: p.into(), message: e.to_string() })).transpose()?;
        Ok(Self { dir: dir.into(), pass_re })
    }

    /// Reads `--dump-to=DIR` and `--dump-pass-re=REGEX` (also `--flag VALUE`)
    /// from a FLOORS_FLAGS-style string. An unknown flag is an error, not ignored.
    pub fn from_flags(flags: &str) -> Result<Option<Self>> {
        let mut dir = None;
        let mut re = None;
        let mut words = flags.split_whitespace();
        while let Some(w) = words.next() {
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
                    return Err(Error::BadFlags(format!("unknown flag `{other}` (known: --dump-to=DIR, --dump-pass-re=REGEX)")));
                }
            }
        }
        match (dir, re) {
            (Some(d), re) => Ok(Some(Self::new(d, re.as_deref())?)),
            (None, Some(_)) => Err(Error::BadFlags("--dump-pass-re needs --dump-to".into())),
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
}

impl Dumper {
    pub fn create(options: &DumpOptions, module_name: &str) -> Result<Self> {
        let dir = options.dir.join(sanitize(module_name));
        std::fs::create_dir_all(&dir).map_err(|source| Error::Io { path: dir.clone(), source })?;
        // A stale file from an earlier run would sit between ours and mislead `ls`.
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                if e.path().extension().is_some_and(|x| x == "mlir") {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        Ok(Self { dir, pass_re: options.pass_re.clone() })
    }

    pub fn wants(&self, pass: &str) -> bool {
        self.pass_re.as_ref().is_none_or(|re| re.is_match(pass))
    }

    pub fn write(&self, ordinal: usize, pass: &str, ir: &str) -> Result<()> {
        let path = self.dir.join(format!("{ordinal:04}.{}.mlir", sanitize(pass)));
        std::fs::write(&path, ir).map_err(|source| Error::Io { path, source })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// The observer a pass manager calls after every pass.
pub type AfterPass<'o> = dyn FnMut(&str, OperationRef<'_, '_>) + 'o;

pub(crate) extern "C" fn after_pass_trampoline(user: *mut c_void, arg: MlirStringRef, root: MlirOperation) {
    let observer = unsafe { &mut *(user as *mut &mut AfterPass<'_>) };
    let bytes = unsafe { std::slice::from_raw_parts(arg.data as *const u8, arg.length) };
    let name = String::from_utf8_lossy(bytes);
    let op = unsafe { OperationRef::from_raw(root) };
    // Unwinding into the C++ pass manager would abort the process; an
    // observer that panics loses its output, and says so.
    if let Err(panic) = crate::pass::catching_panics(|| observer(&name, op)) {
        tracing::error!("observer after pass {name} panicked: {panic}");
    }
}
