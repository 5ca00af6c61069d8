//! The one error type of floors.

use std::path::PathBuf;

use crate::diagnostics::Diagnostics;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Located diagnostics from MLIR (parser, verifier, a pass).
    #[error("{0}")]
    Diagnostics(Diagnostics),
    #[error("{}: error: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: error: {message}")]
    BadSource { path: String, line: usize, column: usize, message: String },
    #[error("error: invalid pass regex `{pattern}`: {message}")]
    BadRegex { pattern: String, message: String },
    #[error("error: FLOORS_FLAGS: {0}")]
    BadFlags(String),
    #[error("error: pass pipeline `{pipeline}`: {message}")]
    Pipeline { pipeline: String, message: String },
    #[error("error: {0}")]
    Unsupported(String),
    /// A target the compiler cannot compile for (an unknown CPU name).
    #[error("error: {0}")]
    BadTarget(String),
    /// Something at an op of the program (`file:line:col`), found outside MLIR
    /// (building the thunks of the host program).
    #[error("{location}: error: {message}")]
    At { location: String, message: String },
    /// From the runtime crate: inputs, artifacts, kernel loading, runs.
    #[error(transparent)]
    Runtime(#[from] floors_runtime::Error),
}

pub type Result<T> = std::result::Result<T, Error>;
