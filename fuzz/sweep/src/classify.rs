//! Running one command under limits, and classifying its outcome.

use std::{
    fs,
    io::Read,
    os::unix::process::{CommandExt, ExitStatusExt},
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

/// What ran on a mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    /// `floors compile P --emit llvm`
    Llvm,
    /// `floors compile P --emit fused`
    Fused,
    /// `floors run P --input ...`
    Run,
    /// `floors-run A.floors --input ...` on a mutated artifact
    Artifact,
}

pub const MODES: [Mode; 4] = [Mode::Llvm, Mode::Fused, Mode::Run, Mode::Artifact];

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Llvm => "llvm",
            Mode::Fused => "fused",
            Mode::Run => "run",
            Mode::Artifact => "artifact",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Ok,
    Located,
    Usage,
    Unlocated,
    Crash,
    Timeout,
    /// Past the timeout while executing (kernels loaded, CPU busy): a
    /// mutated program whose loop runs long, not a hang of floors.
    LongRun,
}

pub const CLASSES: [Class; 7] = [Class::Ok, Class::Located, Class::Usage, Class::Unlocated, Class::Crash, Class::Timeout, Class::LongRun];

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Ok => "ok",
            Class::Located => "located",
            Class::Usage => "usage",
            Class::Unlocated => "unlocated",
            Class::Crash => "crash",
            Class::Timeout => "timeout",
            Class::LongRun => "long-run",
        }
    }

    /// Outcomes worth keeping as files.
    pub fn kept(self) -> bool {
        matches!(self, Class::Usage | Class::Unlocated | Class::Crash | Class::Timeout | Class::LongRun)
    }
}

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
    /// Killed at the timeout; whether the kernels were loaded (executing)
    /// and whether it was using CPU then.
    Timeout {
        executing: bool,
        busy: bool,
    },
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exit::Code(c) => write!(f, "exit {c}"),
            Exit::Signal(s) => write!(f, "signal {s}"),
            Exit::Timeout { executing, busy } => write!(
                f,
                "timeout ({}, {})",
                if *executing { "executing" } else { "compiling or loading" },
                if *busy { "busy" } else { "idle" }
            ),
        }
    }
}

/// What a crash prints: panics, stack overflows, aborts in MLIR/LLVM,
/// sanitizer reports, allocation failures.
const CRASH_MARKERS: &[&str] = &[
    "panicked",
    "has overflowed its stack",
    "LLVM ERROR",
    "Assertion `",
    "Assertion failed",
    "UNREACHABLE executed",
    "Stack dump:",
    "PLEASE submit a bug report",
    "AddressSanitizer",
    "LeakSanitizer",
    "fatal runtime error",
    "memory allocation of",
    "Segmentation fault",
    "terminate called",
    "double free",
    "free(): invalid",
    "corrupted size",
];

/// Replaces digit runs by `N` and known paths by `<file>`; cut to 200 chars.
pub fn normalize(line: &str, paths: &[String]) -> String {
    let mut l = line.to_string();
    for p in paths {
        if !p.is_empty() {
            l = l.replace(p.as_str(), "<file>");
        }
    }
    let mut out = String::new();
    let mut prev_digit = false;
    for c in l.chars() {
        if c.is_ascii_digit() {
            if !prev_digit {
                out.push('N');
            }
            prev_digit = true;
        } else {
            out.push(c);
            prev_digit = false;
        }
    }
    out.chars().take(200).collect()
}

/// The part of an error line before `error:` when the line is a diagnostic
/// (`error:` at its start or after `: `), else None.
fn error_prefix(line: &str) -> Option<&str> {
    let i = line.find("error:")?;
    let prefix = &line[..i];
    if prefix.is_empty() {
        return Some("");
    }
    prefix.strip_suffix(": ")
}

/// `file:line:col` with a real file.
fn is_file_line_col(loc: &str) -> bool {
    let mut parts = loc.rsplitn(3, ':');
    let (Some(col), Some(line), Some(file)) = (parts.next(), parts.next(), parts.next()) else { return false };
    let num = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    num(col) && num(line) && !file.is_empty() && !file.contains("<unknown>") && !file.contains("loc(")
}

/// Classifies one run from its exit and stderr. `paths` are the files the
/// run was given (program, inputs, artifact): an error line that names one
/// of them is located, as is one that starts with `file:line:col:`.
pub fn classify(exit: Exit, stderr: &str, paths: &[String]) -> (Class, String) {
    // A killed run's stderr is cut short: it is a timeout whatever it says.
    if !matches!(exit, Exit::Timeout { .. })
        && let Some(line) = stderr.lines().find(|l| CRASH_MARKERS.iter().any(|m| l.contains(m)))
    {
        return (Class::Crash, format!("{exit}: {}", normalize(line.trim(), paths)));
    }
    match exit {
        Exit::Signal(s) => {
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
            (Class::Crash, format!("signal {s}: {}", normalize(last.trim(), paths)))
        }
        Exit::Code(0) => (Class::Ok, String::new()),
        Exit::Code(2) => {
            let first = stderr.lines().next().unwrap_or("");
            (Class::Usage, normalize(first, paths))
        }
        Exit::Code(1) => {
            let mut any = false;
            for line in stderr.lines() {
                let Some(prefix) = error_prefix(line) else { continue };
                any = true;
                let names_file = paths.iter().any(|p| !p.is_empty() && line.contains(p.as_str()));
                if !(is_file_line_col(prefix) || names_file) {
                    return (Class::Unlocated, normalize(line, paths));
                }
            }
            if any {
                (Class::Located, String::new())
            } else {
                let first = stderr.lines().next().unwrap_or("");
                (Class::Unlocated, format!("exit 1 without an error line: {}", normalize(first, paths)))
            }
        }
        Exit::Code(c) => {
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
            (Class::Crash, format!("exit {c}: {}", normalize(last.trim(), paths)))
        }
        Exit::Timeout { executing, busy } => {
            if executing && busy {
                (Class::LongRun, exit.to_string())
            } else {
                (Class::Timeout, exit.to_string())
            }
        }
    }
}

/// Runs `argv` with a timeout and an address-space limit, stdin closed,
/// stdout discarded, stderr (first 1 MiB) returned; on timeout the whole
/// process group is killed.
pub fn run_limited(argv: &[String], timeout: Duration, mem_limit_mb: u64, stderr_file: &Path) -> (Exit, String, Duration) {
    let mut cmd = if mem_limit_mb > 0 {
        let mut c = Command::new("/bin/sh");
        c.arg("-c").arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", mem_limit_mb * 1024)).args(argv);
        c
    } else {
        let mut c = Command::new(&argv[0]);
        c.args(&argv[1..]);
        c
    };
    cmd.env_remove("FLOORS_FLAGS").env_remove("RUST_LOG").env("RUST_BACKTRACE", "1");
    cmd.process_group(0);
    let err = match fs::File::create(stderr_file) {
        Ok(f) => f,
        Err(e) => return (Exit::Code(-1), format!("cannot create {}: {e}", stderr_file.display()), Duration::ZERO),
    };
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(err);
    let start = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return (Exit::Code(-1), format!("cannot start {}: {e}", argv[0]), Duration::ZERO),
    };
    let exit = loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                break match (status.code(), status.signal()) {
                    (Some(c), _) => Exit::Code(c),
                    (None, Some(s)) => Exit::Signal(s),
                    _ => Exit::Code(-1),
                };
            }
            Ok(None) if start.elapsed() > timeout => {
                let (executing, busy) = probe(child.id());
                let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).status();
                let _ = child.kill();
                let _ = child.wait();
                break Exit::Timeout { executing, busy };
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(if start.elapsed() < Duration::from_secs(1) { 5 } else { 50 })),
            Err(_) => break Exit::Code(-1),
        }
    };
    let elapsed = start.elapsed();
    let mut stderr = String::new();
    if let Ok(f) = fs::File::open(stderr_file) {
        let mut buf = Vec::new();
        let _ = f.take(1 << 20).read_to_end(&mut buf);
        stderr = String::from_utf8_lossy(&buf).into_owned();
    }
    (exit, stderr, elapsed)
}

/// Whether process `pid` has floors' kernel library mapped (the program
/// is compiled and loaded: it is executing) and whether it uses CPU.
fn probe(pid: u32) -> (bool, bool) {
    let executing = fs::read_to_string(format!("/proc/{pid}/maps")).is_ok_and(|m| m.contains("memfd:floors-kernels"));
    let cpu = || -> u64 {
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // Fields after the `(comm)`: state is the 1st, utime the 12th, stime the 13th.
        let rest = stat.rsplit_once(')').map_or("", |x| x.1);
        let f: Vec<&str> = rest.split_whitespace().collect();
        f.get(11).and_then(|x| x.parse().ok()).unwrap_or(0u64) + f.get(12).and_then(|x| x.parse().ok()).unwrap_or(0u64)
    };
    let before = cpu();
    std::thread::sleep(Duration::from_millis(300));
    (executing, cpu() > before)
}
