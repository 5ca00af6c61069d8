//! `floors-sweep`: the mutation sweep behind `scripts/fuzz.sh`.

use std::{path::PathBuf, process::ExitCode, time::Duration};

use floors_sweep::{Class, Config};

const USAGE: &str = "usage: floors-sweep --floors BIN [--floors-run BIN] [--corpus DIR] [--seed S] [--count N] [--start I] [--out DIR]
                    [--jobs J] [--timeout SECS] [--mem-limit-mb MB] [--max-depth D] [--minimize] [--quiet]
  Mutates the corpus programs (public + bench *.stablehlo.mlir), runs each mutant through
  `floors compile --emit llvm` (1 in 8 also --emit fused, 1 in 8 `floors run` with its .npy inputs,
  1 in 16 a mutated artifact through floors-run) and prints counts per class. Crashes, timeouts,
  unlocated errors and usage errors are kept under OUT/<class>/ with info.txt and repro.sh.
  Exit 1 if any crash or timeout was found.";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut floors = None;
    let mut floors_run = None;
    let mut corpus = PathBuf::from("../shared/corpus");
    let mut out = PathBuf::from("target/fuzz-sweep");
    let (mut seed, mut count, mut start, mut jobs, mut timeout, mut mem, mut max_depth) =
        (1u64, 1000usize, 0usize, None, 20u64, 8192u64, None);
    let (mut minimize, mut quiet) = (false, false);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| die(&format!("{a} needs a value")));
        match a.as_str() {
            "--floors" => floors = Some(PathBuf::from(val())),
            "--floors-run" => floors_run = Some(PathBuf::from(val())),
            "--corpus" => corpus = PathBuf::from(val()),
            "--out" => out = PathBuf::from(val()),
            "--seed" => seed = num(&val()),
            "--count" => count = num(&val()) as usize,
            "--start" => start = num(&val()) as usize,
            "--jobs" => jobs = Some(num(&val()) as usize),
            "--timeout" => timeout = num(&val()),
            "--mem-limit-mb" => mem = num(&val()),
            "--max-depth" => max_depth = Some(num(&val()) as usize),
            "--minimize" => minimize = true,
            "--quiet" => quiet = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => die(&format!("unknown argument {a}")),
        }
    }
    let Some(floors) = floors else { die("--floors BIN is required") };
    // Absolute paths, so the kept cases' repro.sh run from anywhere.
    let _ = std::fs::create_dir_all(&out);
    let out = std::fs::canonicalize(&out).unwrap_or(out);
    let floors = std::fs::canonicalize(&floors).unwrap_or(floors);
    let floors_run = floors_run.map(|p| std::fs::canonicalize(&p).unwrap_or(p));
    let mut cfg = Config::new(floors, &corpus, out).unwrap_or_else(|e| die(&format!("corpus {}: {e}", corpus.display())));
    if floors_run.is_some() {
        cfg.floors_run = floors_run.filter(|p| p.exists());
    }
    cfg.seed = seed;
    cfg.count = count;
    cfg.start = start;
    if let Some(j) = jobs {
        cfg.jobs = j.max(1);
    }
    cfg.timeout = Duration::from_secs(timeout);
    cfg.mem_limit_mb = mem;
    if let Some(d) = max_depth {
        cfg.mutate.depths.retain(|&x| x <= d);
        for extra in [10_000, 60_000] {
            if extra <= d {
                cfg.mutate.depths.push(extra);
            }
        }
        if cfg.mutate.depths.is_empty() {
            cfg.mutate.depths.push(d.max(1));
        }
    }
    cfg.minimize = minimize;
    cfg.progress = !quiet;
    eprintln!(
        "floors-sweep: seed {seed}, mutants {start}..{}, {} jobs, timeout {timeout} s, {} corpus programs, floors-run: {}; results in {}",
        start + count,
        cfg.jobs,
        cfg.seeds.len(),
        cfg.floors_run.as_ref().map_or("none".into(), |p| p.display().to_string()),
        cfg.out.display()
    );
    let report = floors_sweep::run(&cfg).unwrap_or_else(|e| die(&format!("sweep: {e}")));
    println!("{}", report.table());
    let findings = report.findings();
    if !findings.is_empty() {
        println!("findings (kept under {}):\n{findings}", cfg.out.display());
    }
    println!("summary: {}", cfg.out.join("summary.txt").display());
    if report.count(Class::Crash) + report.count(Class::Timeout) > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

fn num(s: &str) -> u64 {
    s.parse().unwrap_or_else(|_| die(&format!("not a number: {s}")))
}

fn die(msg: &str) -> ! {
    eprintln!("floors-sweep: {msg}\n{USAGE}");
    std::process::exit(2)
}
