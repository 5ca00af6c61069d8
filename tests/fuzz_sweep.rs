//! A short, fixed-seed mutation sweep of the CLI over the corpus (the sweep
//! of `scripts/fuzz.sh`, `fuzz/sweep/`): a few hundred mutated programs
//! through `floors compile --emit llvm` (some also `--emit fused`, `floors
//! run` with their inputs, mutated inputs, mutated artifacts through
//! `floors-run`). No run may crash (signal, panic, abort, exit code other
//! than 0/1/2) or time out. Unlocated errors are printed (and kept under
//! the target dir's tmp) but do not fail the test.
//!
//! `FLOORS_FUZZ_COUNT`, `FLOORS_FUZZ_SEED` and `FLOORS_FUZZ_TIMEOUT` (seconds)
//! override the defaults.

#[path = "../fuzz/sweep/src/lib.rs"]
mod sweep;

use std::{path::Path, time::Duration};

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn fixed_seed_sweep_has_no_crash_or_timeout() {
    let floors = Path::new(env!("CARGO_BIN_EXE_floors")).to_path_buf();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_sweep");
    let _ = std::fs::remove_dir_all(&out);
    let mut cfg = sweep::Config::new(floors, &corpus, out.clone()).expect("corpus");
    cfg.seed = env_num("FLOORS_FUZZ_SEED", 14);
    cfg.count = env_num("FLOORS_FUZZ_COUNT", 300) as usize;
    cfg.timeout = Duration::from_secs(env_num("FLOORS_FUZZ_TIMEOUT", 20));
    cfg.jobs = 2;
    let report = sweep::run(&cfg).expect("sweep");
    println!("fixed-seed sweep (seed {}, {} mutants):\n{}", cfg.seed, cfg.count, report.table());
    let findings = report.findings();
    if !findings.is_empty() {
        println!("findings (kept under {}):\n{findings}", out.display());
    }
    let (crashes, timeouts) = (report.count(sweep::Class::Crash), report.count(sweep::Class::Timeout));
    assert!(
        crashes == 0 && timeouts == 0,
        "{crashes} crashes and {timeouts} timeouts in the fixed-seed sweep; cases under {}:\n{findings}",
        out.display()
    );
    assert!(
        report.count(sweep::Class::Ok) > 0 && report.count(sweep::Class::Located) > 0,
        "a sweep that never succeeds or never fails tests nothing"
    );
}
