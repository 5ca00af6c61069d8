//! A SIMT simulator for PTX: runs the kernels of a floors GPU artifact on
//! the host with CUDA's execution model, so the GPU floor is checked on
//! numbers where no GPU is lent.
//!
//! - [`parse`]: PTX text to a [`Module`] (registers, variables and labels
//!   resolved once).
//! - [`GlobalMemory`]: the device's global memory: allocations with gaps
//!   between them, a shadow of which bytes were ever written
//!   (`initcheck`), host uploads and downloads, device copies and fills.
//! - [`launch`]: one kernel launch: blocks of the grid in parallel on the
//!   host threads (rayon), each block's warps of 32 lanes in lockstep
//!   (active masks; a diverged warp runs the lanes at its lowest program
//!   counter first, so lanes meet again where the paths join), `bar.sync`
//!   across the block's warps, `.sync` warp instructions waiting for every
//!   lane their member mask names. Every instruction is implemented from
//!   the PTX ISA (the section is named next to its code in `exec.rs`).
//! - Checks ([`Checks`]): `memcheck` (every global access inside one buffer
//!   the launch was given, natural alignment, shared/local bounds),
//!   `racecheck` (shared-memory RAW/WAR/WAW hazards between two threads
//!   with no barrier between), `initcheck` (reads of global or shared bytes
//!   never written), `synccheck` (a barrier some threads of the block never
//!   reach, a `.sync` instruction some lanes of its mask never reach).
//!   Each error names the kernel, block, thread, PTX line and instruction.
//! - [`LaunchStats`]: thread and warp instructions by class, global memory
//!   traffic in 32-byte sectors, floating-point and tensor-core operations.

mod exec;
pub mod ir;
mod memory;
mod numeric;
mod parse;
mod tensor;

pub use exec::{CLASSES, LaunchParams, LaunchStats, launch};
pub use ir::Module;
pub use memory::{GlobalMemory, LOCAL_WINDOW, SHARED_WINDOW};
pub use parse::parse;

/// Which checks a launch makes (all on by default: tests run with them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checks {
    pub memcheck: bool,
    pub racecheck: bool,
    pub initcheck: bool,
    pub synccheck: bool,
}

impl Default for Checks {
    fn default() -> Self {
        Self::ALL
    }
}

impl Checks {
    pub const ALL: Checks = Checks { memcheck: true, racecheck: true, initcheck: true, synccheck: true };
    pub const NONE: Checks = Checks { memcheck: false, racecheck: false, initcheck: false, synccheck: false };

    /// `memcheck,racecheck,...`, `all` or `none`.
    pub fn parse(text: &str) -> Result<Checks, String> {
        let mut c = Checks::NONE;
        for w in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match w {
                "all" => c = Checks::ALL,
                "none" => c = Checks::NONE,
                "memcheck" => c.memcheck = true,
                "racecheck" => c.racecheck = true,
                "initcheck" => c.initcheck = true,
                "synccheck" => c.synccheck = true,
                other => {
                    return Err(format!("unknown check `{other}` (memcheck, racecheck, initcheck, synccheck, all, none)"));
                }
            }
        }
        Ok(c)
    }
}

/// What a check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    Memcheck,
    Racecheck,
    Initcheck,
    Synccheck,
}

impl std::fmt::Display for CheckKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CheckKind::Memcheck => "memcheck",
            CheckKind::Racecheck => "racecheck",
            CheckKind::Initcheck => "initcheck",
            CheckKind::Synccheck => "synccheck",
        })
    }
}

/// Where in a launch something happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub kernel: String,
    /// The `.entry` (when it is not named like the kernel).
    pub entry: String,
    pub block: [u32; 3],
    pub thread: [u32; 3],
    pub line: u32,
    pub instruction: String,
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "kernel `{}`{} block ({},{},{}) thread ({},{},{}), PTX line {}: `{}`",
            self.kernel,
            if self.entry.is_empty() || self.entry == self.kernel { String::new() } else { format!(" entry `{}`", self.entry) },
            self.block[0],
            self.block[1],
            self.block[2],
            self.thread[0],
            self.thread[1],
            self.thread[2],
            self.line,
            self.instruction
        )
    }
}

/// The simulator's one error type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    #[error("PTX line {line}: {message}")]
    Parse { line: u32, message: String },
    /// A check failed.
    #[error("{kind}: {message} at {site}")]
    Check { kind: CheckKind, site: Box<Site>, message: String },
    /// A fault a GPU would raise whatever the checks (an address outside
    /// every allocation, a misaligned access, `trap`).
    #[error("{message} at {site}")]
    Fault { site: Box<Site>, message: String },
    /// A launch that cannot be made as asked (no such entry, a bad grid, too
    /// much shared memory, wrong parameter bytes).
    #[error("{0}")]
    Launch(String),
    /// A host-side memory operation outside the allocations.
    #[error("{0}")]
    Memory(String),
}

pub type SimResult<T> = Result<T, SimError>;
