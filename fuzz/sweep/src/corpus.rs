//! The corpus programs a sweep mutates, with their `.npy` inputs.

use std::{
    fs, io,
    path::{Path, PathBuf},
};

/// One corpus program and the `.npy` inputs it runs with (public programs).
#[derive(Clone, Debug)]
pub struct Seed {
    /// File stem without `.stablehlo.mlir` (`mlp`, `bench-matmul`).
    pub name: String,
    pub text: String,
    pub inputs: Vec<PathBuf>,
}

/// Every `*.stablehlo.mlir` under `corpus/public` and `corpus/bench`, in a
/// fixed order; public programs with their `NAME.inK.npy` inputs.
pub fn load_corpus(corpus: &Path) -> io::Result<Vec<Seed>> {
    let mut seeds = Vec::new();
    for (sub, prefix) in [("public", ""), ("bench", "bench-")] {
        let dir = corpus.join(sub);
        let mut files: Vec<PathBuf> = fs::read_dir(&dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".stablehlo.mlir"))
            .collect();
        files.sort();
        for f in files {
            let file_name = f.file_name().unwrap_or_default().to_string_lossy().into_owned();
            let stem = file_name.trim_end_matches(".stablehlo.mlir").to_string();
            let mut inputs = Vec::new();
            if sub == "public" {
                for k in 0.. {
                    let p = dir.join(format!("{stem}.in{k}.npy"));
                    if !p.exists() {
                        break;
                    }
                    inputs.push(p);
                }
            }
            seeds.push(Seed { name: format!("{prefix}{stem}"), text: fs::read_to_string(&f)?, inputs });
        }
    }
    if seeds.is_empty() {
        return Err(io::Error::new(io::ErrorKind::NotFound, format!("no *.stablehlo.mlir under {}", corpus.display())));
    }
    Ok(seeds)
}
