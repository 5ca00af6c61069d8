//! The sweep: mutants, the runs on them, the report, minimization.

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    fs, io,
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicUsize, Ordering},
        mpsc,
    },
    time::{Duration, Instant},
};

use super::*;

#[derive(Clone, Debug)]
pub struct Config {
    pub floors: PathBuf,
    /// `floors-run`; without it no artifact runs.
    pub floors_run: Option<PathBuf>,
    pub seeds: Vec<Seed>,
    pub seed: u64,
    /// Mutants `start .. start + count`.
    pub start: usize,
    pub count: usize,
    pub out: PathBuf,
    pub jobs: usize,
    pub timeout: Duration,
    /// Address-space limit of every run (0: none).
    pub mem_limit_mb: u64,
    pub mutate: MutateOptions,
    /// One in `fused_every` mutants also runs `--emit fused`; likewise run, artifact.
    pub fused_every: u64,
    pub run_every: u64,
    pub artifact_every: u64,
    /// Print progress lines to stderr.
    pub progress: bool,
    /// Minimize one case per crash/unlocated signature.
    pub minimize: bool,
}

impl Config {
    pub fn new(floors: PathBuf, corpus: &Path, out: PathBuf) -> io::Result<Self> {
        let floors_run = Some(floors.with_file_name("floors-run")).filter(|p| p.exists());
        Ok(Config {
            floors,
            floors_run,
            seeds: load_corpus(corpus)?,
            seed: 1,
            start: 0,
            count: 300,
            out,
            jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
            timeout: Duration::from_secs(20),
            mem_limit_mb: 8192,
            mutate: MutateOptions::default(),
            fused_every: 8,
            run_every: 8,
            artifact_every: 16,
            progress: false,
            minimize: false,
        })
    }
}

/// A mutant: its program text, and what runs on it.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub index: usize,
    pub seed: usize,
    pub text: Vec<u8>,
    pub ops: Vec<String>,
    /// (mode, inputs to use for run modes, description of input/artifact mutation)
    pub runs: Vec<(Mode, Option<Vec<Input>>, Option<String>)>,
    /// For artifact runs: the rng state that mutates the artifact.
    pub artifact_rng: Rng,
}

pub fn make_mutant(cfg: &Config, index: usize) -> Mutant {
    let mut rng = Rng::for_mutant(cfg.seed, index, 0);
    let seed = rng.below(cfg.seeds.len());
    let s = &cfg.seeds[seed];
    let mut text = s.text.clone().into_bytes();
    let n = 1 + rng.weighted(&[60, 25, 15]);
    let ops = (0..n).map(|_| mutate_once(&mut rng, &mut text, &cfg.seeds, &cfg.mutate)).collect();
    // Which modes run: a separate stream, so they do not change the mutation.
    let mut mrng = Rng::for_mutant(cfg.seed, index, 1);
    let mut runs = vec![(Mode::Llvm, None, None)];
    if mrng.chance(1, cfg.fused_every) {
        runs.push((Mode::Fused, None, None));
    }
    let has_inputs = !s.inputs.is_empty();
    if has_inputs && mrng.chance(1, cfg.run_every) {
        if mrng.chance(1, 3) {
            let (inputs, what) = mutate_inputs(&mut mrng, &s.inputs);
            runs.push((Mode::Run, Some(inputs), Some(what)));
        } else {
            runs.push((Mode::Run, None, None));
        }
    }
    if has_inputs && cfg.floors_run.is_some() && mrng.chance(1, cfg.artifact_every) {
        runs.push((Mode::Artifact, None, None));
    }
    Mutant { index, seed, text, ops, runs, artifact_rng: Rng::for_mutant(cfg.seed, index, 2) }
}

/// One run's outcome.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub index: usize,
    pub seed: String,
    pub mode: Mode,
    pub class: Class,
    pub signature: String,
    pub exit: Exit,
    pub millis: u128,
    /// The mutations (`; `-separated, each cut to 100 chars), or the input/artifact mutation.
    pub ops: String,
    /// The kept case's directory (crash, unlocated, usage, timeout).
    pub case: Option<PathBuf>,
}

/// Artifacts of the unmutated corpus programs, compiled once per sweep.
struct ArtifactCache {
    slots: Vec<OnceLock<Option<Vec<u8>>>>,
}

struct Ctx<'a> {
    cfg: &'a Config,
    artifacts: ArtifactCache,
    work: PathBuf,
}

impl Ctx<'_> {
    fn artifact(&self, seed: usize) -> Option<&Vec<u8>> {
        self.artifacts.slots[seed]
            .get_or_init(|| {
                let s = &self.cfg.seeds[seed];
                let dir = self.work.join("artifacts");
                let _ = fs::create_dir_all(&dir);
                let src = dir.join(format!("{}.stablehlo.mlir", s.name));
                let dst = dir.join(format!("{}.floors", s.name));
                fs::write(&src, &s.text).ok()?;
                let argv = vec![
                    self.cfg.floors.display().to_string(),
                    "compile".into(),
                    src.display().to_string(),
                    "-o".into(),
                    dst.display().to_string(),
                ];
                let (exit, _, _) =
                    run_limited(&argv, Duration::from_secs(120), self.cfg.mem_limit_mb, &dir.join(format!("{}.err", s.name)));
                if exit != Exit::Code(0) {
                    return None;
                }
                fs::read(&dst).ok()
            })
            .as_ref()
    }
}

fn write_input(dir: &Path, program: &str, k: usize, input: &Input) -> String {
    match input {
        Input::File(p) => p.display().to_string(),
        Input::Path(p) => p.clone(),
        Input::Program => program.to_string(),
        Input::Bytes(b) => {
            let p = dir.join(format!("in{k}.npy"));
            let _ = fs::write(&p, b);
            p.display().to_string()
        }
    }
}

fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-=+:,".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Everything one mode's run needs: its files in `dir` and its argv.
struct Prepared {
    dir: PathBuf,
    argv: Vec<String>,
    paths: Vec<String>,
    extra: Option<String>,
}

fn prepare(ctx: &Ctx<'_>, m: &Mutant, mode: Mode, inputs: &Option<Vec<Input>>, extra: &Option<String>, text: &[u8]) -> Option<Prepared> {
    let cfg = ctx.cfg;
    let s = &cfg.seeds[m.seed];
    let dir = ctx.work.join(format!("m{}-{}", m.index, mode.name()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).ok()?;
    let program = dir.join(format!("{}-m{}.mlir", s.name, m.index));
    let floors = cfg.floors.display().to_string();
    let out_dir = dir.join("out").display().to_string();
    let mut paths = vec![program.display().to_string()];
    let mut extra = extra.clone();
    let argv = match mode {
        Mode::Llvm | Mode::Fused => {
            fs::write(&program, text).ok()?;
            let emit = if mode == Mode::Llvm { "llvm" } else { "fused" };
            vec![floors, "compile".into(), paths[0].clone(), "--emit".into(), emit.into(), "-o".into(), "/dev/null".into()]
        }
        Mode::Run => {
            let (text, inputs): (&[u8], Vec<Input>) = match inputs {
                // Mutated inputs go with the unmutated program.
                Some(inputs) => (s.text.as_bytes(), inputs.clone()),
                None => (text, s.inputs.iter().cloned().map(Input::File).collect()),
            };
            fs::write(&program, text).ok()?;
            let mut argv = vec![floors, "run".into(), paths[0].clone()];
            for (k, i) in inputs.iter().enumerate() {
                let p = write_input(&dir, &paths[0], k, i);
                paths.push(p.clone());
                argv.push("--input".into());
                argv.push(p);
            }
            argv.push("--output-dir".into());
            argv.push(out_dir);
            argv
        }
        Mode::Artifact => {
            let original = ctx.artifact(m.seed)?.clone();
            let mut rng = m.artifact_rng.clone();
            let (bytes, what) = mutate_artifact(&mut rng, original);
            extra = Some(what);
            let art = dir.join(format!("{}-m{}.floors", s.name, m.index));
            fs::write(&art, bytes).ok()?;
            paths = vec![art.display().to_string()];
            let mut argv = vec![cfg.floors_run.as_ref()?.display().to_string(), paths[0].clone()];
            for p in &s.inputs {
                paths.push(p.display().to_string());
                argv.push("--input".into());
                argv.push(p.display().to_string());
            }
            argv.push("--output-dir".into());
            argv.push(out_dir);
            argv
        }
    };
    Some(Prepared { dir, argv, paths, extra })
}

/// Runs mode `mode` of mutant `m` on `text` and classifies it; keeps the case
/// when `keep`.
fn run_one(ctx: &Ctx<'_>, m: &Mutant, mode: Mode, inputs: &Option<Vec<Input>>, extra: &Option<String>, keep: bool) -> Option<Outcome> {
    let cfg = ctx.cfg;
    let p = prepare(ctx, m, mode, inputs, extra, &m.text)?;
    let (exit, stderr, elapsed) = run_limited(&p.argv, cfg.timeout, cfg.mem_limit_mb, &p.dir.join("stderr.txt"));
    let (class, signature) = classify(exit, &stderr, &p.paths);
    let mut case = None;
    if keep && class.kept() {
        let dest = cfg.out.join(class.name()).join(format!("m{}-{}", m.index, mode.name()));
        let _ = fs::remove_dir_all(&dest);
        let _ = fs::create_dir_all(dest.parent().unwrap_or(&cfg.out));
        let _ = fs::remove_dir_all(p.dir.join("out"));
        if fs::rename(&p.dir, &dest).is_ok() {
            // Paths in the reproducer and messages point into the case dir.
            let from = p.dir.display().to_string();
            let to = dest.display().to_string();
            let argv: Vec<String> = p.argv.iter().map(|a| a.replace(&from, &to)).collect();
            let mut info = String::new();
            let _ = writeln!(info, "seed {} mutant {} of {} ({mode:?})", cfg.seed, m.index, cfg.seeds[m.seed].name);
            let _ = writeln!(info, "class: {}\nsignature: {signature}\n{exit} after {} ms", class.name(), elapsed.as_millis());
            if let Some(x) = &p.extra {
                // Mutated inputs or artifact: the program itself is the corpus one.
                let _ = writeln!(info, "program: unmutated\ninputs/artifact: {x}");
            } else {
                for op in &m.ops {
                    let _ = writeln!(info, "mutation: {op}");
                }
            }
            let _ = writeln!(info, "command: {}", argv.iter().map(|a| shell_quote(a)).collect::<Vec<_>>().join(" "));
            let _ = fs::write(dest.join("info.txt"), info);
            let script = format!(
                "#!/bin/sh\n# Reproduces this case (FLOORS / FLOORS_RUN override the binaries).\n{}\n",
                argv.iter()
                    .enumerate()
                    .map(|(i, a)| match (i, mode) {
                        (0, Mode::Artifact) => "\"${FLOORS_RUN:-".to_string() + a + "}\"",
                        (0, _) => "\"${FLOORS:-".to_string() + a + "}\"",
                        _ => shell_quote(a),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            let _ = fs::write(dest.join("repro.sh"), script);
            case = Some(dest);
        }
    } else {
        let _ = fs::remove_dir_all(&p.dir);
    }
    Some(Outcome {
        index: m.index,
        seed: cfg.seeds[m.seed].name.clone(),
        mode,
        class,
        signature,
        exit,
        millis: elapsed.as_millis(),
        ops: match &p.extra {
            Some(x) => format!("unmutated program; {x}"),
            None => m.ops.iter().map(|o| o.chars().take(100).collect::<String>()).collect::<Vec<_>>().join("; "),
        },
        case,
    })
}

/// How often a (class, signature) was seen, its first kept case, and that
/// case minimized.
pub type Finding = (usize, Option<PathBuf>, Option<PathBuf>);

/// Counts per class and mode, and one example per signature.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub counts: BTreeMap<(Class, Mode), usize>,
    /// (class, signature) -> (count, first case dir, minimized file)
    pub signatures: BTreeMap<(Class, String), Finding>,
    pub mutants: usize,
    pub elapsed: Duration,
    pub slowest: Vec<(u128, usize, Mode, String)>,
}

impl Report {
    pub fn count(&self, class: Class) -> usize {
        self.counts.iter().filter(|((c, _), _)| *c == class).map(|(_, n)| n).sum()
    }

    pub fn runs(&self) -> usize {
        self.counts.values().sum()
    }

    /// Counts per class (rows) and mode (columns).
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = write!(s, "{:<10}", "class");
        for m in MODES {
            let _ = write!(s, "{:>10}", m.name());
        }
        let _ = writeln!(s, "{:>10}", "total");
        for c in CLASSES {
            let _ = write!(s, "{:<10}", c.name());
            for m in MODES {
                let _ = write!(s, "{:>10}", self.counts.get(&(c, m)).copied().unwrap_or(0));
            }
            let _ = writeln!(s, "{:>10}", self.count(c));
        }
        let _ = write!(s, "{:<10}", "runs");
        for m in MODES {
            let n: usize = self.counts.iter().filter(|((_, mm), _)| *mm == m).map(|(_, n)| n).sum();
            let _ = write!(s, "{n:>10}");
        }
        let _ = writeln!(s, "{:>10}", self.runs());
        let _ = writeln!(s, "{} mutants, {} runs in {:.1} s", self.mutants, self.runs(), self.elapsed.as_secs_f64());
        s
    }

    /// Crash, timeout, unlocated and usage signatures with a count and a case.
    pub fn findings(&self) -> String {
        let mut s = String::new();
        for ((class, sig), (n, case, min)) in &self.signatures {
            let _ = writeln!(s, "[{}] x{n}: {sig}", class.name());
            if let Some(c) = case {
                let _ = writeln!(s, "    case: {}", c.display());
            }
            if let Some(m) = min {
                let _ = writeln!(s, "    minimized: {}", m.display());
            }
        }
        s
    }
}

/// Runs the sweep: mutants `cfg.start .. cfg.start + cfg.count` on
/// `cfg.jobs` threads; writes `summary.txt` and `results.tsv` under `cfg.out`.
pub fn run(cfg: &Config) -> io::Result<Report> {
    let work = cfg.out.join("work");
    fs::create_dir_all(&work)?;
    let ctx = Ctx { cfg, artifacts: ArtifactCache { slots: (0..cfg.seeds.len()).map(|_| OnceLock::new()).collect() }, work };
    let start = Instant::now();
    let next = AtomicUsize::new(cfg.start);
    let end = cfg.start + cfg.count;
    let (tx, rx) = mpsc::channel::<Outcome>();
    let report = Mutex::new(Report::default());
    let tsv = Arc::new(Mutex::new(String::from("mutant\tprogram\tmode\tclass\tms\texit\tsignature\tmutations\n")));
    std::thread::scope(|scope| {
        for _ in 0..cfg.jobs.max(1) {
            let tx = tx.clone();
            let (ctx, next) = (&ctx, &next);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= end {
                        break;
                    }
                    let m = make_mutant(cfg, i);
                    for (mode, inputs, extra) in &m.runs {
                        if let Some(o) = run_one(ctx, &m, *mode, inputs, extra, true) {
                            let _ = tx.send(o);
                        }
                    }
                }
            });
        }
        drop(tx);
        let mut done_mutants = std::collections::BTreeSet::new();
        let mut last = Instant::now();
        for o in rx {
            let mut r = report.lock().unwrap_or_else(|e| e.into_inner());
            *r.counts.entry((o.class, o.mode)).or_default() += 1;
            done_mutants.insert(o.index);
            let _ = writeln!(
                tsv.lock().unwrap_or_else(|e| e.into_inner()),
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                o.index,
                o.seed,
                o.mode.name(),
                o.class.name(),
                o.millis,
                o.exit,
                o.signature,
                o.ops.replace(['\t', '\n'], " ")
            );
            r.slowest.push((o.millis, o.index, o.mode, o.seed.clone()));
            r.slowest.sort_by_key(|x| std::cmp::Reverse(x.0));
            r.slowest.truncate(10);
            if o.class.kept() {
                let e = r.signatures.entry((o.class, o.signature.clone())).or_insert((0, None, None));
                e.0 += 1;
                if e.1.is_none() {
                    e.1 = o.case.clone();
                }
                if cfg.progress && matches!(o.class, Class::Crash | Class::Timeout | Class::LongRun) {
                    eprintln!("  {} m{} {} ({}): {}", o.class.name(), o.index, o.mode.name(), o.seed, o.signature);
                }
            }
            if cfg.progress && last.elapsed() > Duration::from_secs(30) {
                last = Instant::now();
                eprintln!(
                    "[{:.0} s] {}/{} mutants, {} runs; crash {} timeout {} unlocated {}",
                    start.elapsed().as_secs_f64(),
                    done_mutants.len(),
                    cfg.count,
                    r.runs(),
                    r.count(Class::Crash),
                    r.count(Class::Timeout),
                    r.count(Class::Unlocated)
                );
                let _ = write_summary(cfg, &r);
            }
        }
    });
    let mut report = report.into_inner().unwrap_or_else(|e| e.into_inner());
    report.mutants = cfg.count;
    report.elapsed = start.elapsed();
    if cfg.minimize {
        let keys: Vec<(Class, String)> =
            report.signatures.keys().filter(|(c, _)| matches!(c, Class::Crash | Class::Unlocated)).cloned().collect();
        for key in keys {
            let case = report.signatures[&key].1.clone();
            if let Some(case) = case
                && let Some(min) = minimize(cfg, &ctx, &case, key.0, &key.1)
            {
                if cfg.progress {
                    eprintln!("minimized {} -> {}", case.display(), min.display());
                }
                if let Some(e) = report.signatures.get_mut(&key) {
                    e.2 = Some(min);
                }
            }
        }
    }
    let _ = fs::remove_dir_all(ctx.work.join("artifacts"));
    let _ = fs::remove_dir(&ctx.work);
    fs::write(cfg.out.join("results.tsv"), &*tsv.lock().unwrap_or_else(|e| e.into_inner()))?;
    write_summary(cfg, &report)?;
    Ok(report)
}

fn write_summary(cfg: &Config, r: &Report) -> io::Result<()> {
    let mut s = format!("floors mutation sweep: seed {}, mutants {}..{}\n\n", cfg.seed, cfg.start, cfg.start + cfg.count);
    s.push_str(&r.table());
    s.push_str("\nslowest runs:\n");
    for (ms, i, mode, seed) in &r.slowest {
        let _ = writeln!(s, "  {ms} ms  m{i} {} ({seed})", mode.name());
    }
    s.push_str("\nfindings (class, count, signature, first case):\n");
    s.push_str(&r.findings());
    fs::write(cfg.out.join("summary.txt"), s)
}

/// Line-wise delta debugging of a kept program case: the smallest program
/// (by deleting line ranges) with the same class and signature, as
/// `min.mlir` in the case dir. Input and artifact cases are not minimized.
fn minimize(cfg: &Config, ctx: &Ctx<'_>, case: &Path, class: Class, signature: &str) -> Option<PathBuf> {
    let info = fs::read_to_string(case.join("info.txt")).ok()?;
    if info.contains("inputs/artifact:") {
        return None;
    }
    let mode = if info.contains("(Llvm)") {
        Mode::Llvm
    } else if info.contains("(Fused)") {
        Mode::Fused
    } else if info.contains("(Run)") {
        Mode::Run
    } else {
        return None;
    };
    let program = fs::read_dir(case).ok()?.filter_map(|e| e.ok().map(|e| e.path())).find(|p| p.extension().is_some_and(|e| e == "mlir"))?;
    let stem = program.file_stem()?.to_string_lossy().into_owned();
    let index: usize = stem.rsplit_once("-m")?.1.parse().ok()?;
    let mut m = make_mutant(cfg, index);
    let mut lines = split_lines(&fs::read(&program).ok()?);
    let still = |lines: &[Vec<u8>], m: &mut Mutant| -> bool {
        m.text = join_lines(lines);
        run_one(ctx, m, mode, &None, &None, false).is_some_and(|o| o.class == class && o.signature == signature)
    };
    if !still(&lines, &mut m) {
        return None;
    }
    let mut budget = 400usize;
    let mut chunk = lines.len().div_ceil(2).max(1);
    while chunk >= 1 && budget > 0 {
        let mut start = 0;
        while start < lines.len() && budget > 0 {
            let end = (start + chunk).min(lines.len());
            let mut candidate = lines.clone();
            candidate.drain(start..end);
            budget -= 1;
            if !candidate.is_empty() && still(&candidate, &mut m) {
                lines = candidate;
            } else {
                start = end;
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    let out = case.join(format!("min-{stem}.mlir"));
    fs::write(&out, join_lines(&lines)).ok()?;
    Some(out)
}
