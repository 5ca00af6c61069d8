//! The thunk executor: a dependency graph from conflicting buffer uses, run
//! straight-line on the caller's thread when that is cheaper, else as
//! dataflow on a rayon pool.

use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use super::buffer::{Access, BufferAllocations, BufferUse};
use super::error::RuntimeError;
use super::thunk::{ExecuteContext, Thunk, ThunkKind};
use super::trace::{Trace, TraceArg, TraceArgs};

/// When to skip the pool (XLA's defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExecutorOptions {
    /// Sequential when there are at most this many thunks.
    pub max_sequential_thunks: usize,
    /// Sequential when no slice is larger than this.
    pub max_sequential_slice_bytes: u64,
    /// The GPU runtime: CUDA streams independent thunks may run on (1: one
    /// stream, program order, no events).
    pub gpu_streams: usize,
    /// Where a GPU artifact runs: the CUDA device or the simulator.
    pub gpu_device: GpuDevice,
    /// The CUDA runtime synchronizes after every top-level thunk, so an
    /// asynchronous fault is reported with the thunk (and kernel) that
    /// raised it (`floors-run --gpu-sync`).
    pub gpu_sync: bool,
    /// TPU kernels: the order of steps on `parallel` grid axes.
    pub tpu_grid: crate::tpu::GridOrder,
}

/// Where a GPU artifact runs (`--device`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GpuDevice {
    /// CUDA device 0 through the driver.
    #[default]
    Cuda,
    /// The PTX simulator, with these checks.
    Sim(floors_ptx_sim::Checks),
}

impl Default for ExecutorOptions {
    fn default() -> Self {
        Self {
            max_sequential_thunks: 8,
            max_sequential_slice_bytes: 512,
            gpu_streams: 4,
            gpu_device: GpuDevice::Cuda,
            gpu_sync: false,
            tpu_grid: Default::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SequentialReason {
    FewThunks,
    SmallSlices,
    Chain,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecutionMode {
    Sequential(SequentialReason),
    Dataflow,
}

/// A compiled thunk sequence. Immutable after `new`, so one executor can run
/// many executions at once; all per-run state lives in `execute`.
pub struct ThunkExecutor {
    thunks: Vec<Box<dyn Thunk>>,
    /// Transitively reduced edges `(from, to)`, `from < to`, sorted.
    edges: Vec<(usize, usize)>,
    /// Successors of node `i` are `succ[succ_start[i]..succ_start[i + 1]]`.
    succ_start: Vec<usize>,
    succ: Vec<usize>,
    in_degree: Vec<u32>,
    sources: Vec<usize>,
    is_chain: bool,
    mode: ExecutionMode,
    max_sequential_thunks: usize,
    /// Some thunk can use the thread pool, or the sequence runs as dataflow.
    uses_pool: bool,
}

impl ThunkExecutor {
    pub fn new(thunks: Vec<Box<dyn Thunk>>, options: ExecutorOptions) -> Self {
        let n = thunks.len();
        let edges = transitive_reduction(n, &conflict_edges(&thunks));
        let is_chain = edges.len() + 1 >= n && edges.iter().enumerate().all(|(i, &e)| e == (i, i + 1));

        let mut succ_start = vec![0; n + 1];
        let mut in_degree = vec![0u32; n];
        for &(a, b) in &edges {
            succ_start[a + 1] += 1;
            in_degree[b] += 1;
        }
        for i in 0..n {
            succ_start[i + 1] += succ_start[i];
        }
        // Edges are sorted by source, so targets land in CSR order directly.
        let succ = edges.iter().map(|&(_, b)| b).collect();
        let sources = (0..n).filter(|&i| in_degree[i] == 0).collect();

        let small = thunks.iter().flat_map(|t| t.buffer_uses()).all(|u| u.slice.size <= options.max_sequential_slice_bytes);
        let mode = if n <= options.max_sequential_thunks {
            ExecutionMode::Sequential(SequentialReason::FewThunks)
        } else if small {
            ExecutionMode::Sequential(SequentialReason::SmallSlices)
        } else if is_chain {
            ExecutionMode::Sequential(SequentialReason::Chain)
        } else {
            ExecutionMode::Dataflow
        };
        let uses_pool = mode == ExecutionMode::Dataflow || thunks.iter().any(|t| t.uses_pool());
        Self {
            thunks,
            edges,
            succ_start,
            succ,
            in_degree,
            sources,
            is_chain,
            mode,
            max_sequential_thunks: options.max_sequential_thunks,
            uses_pool,
        }
    }

    /// Whether running this sequence can use the thread pool.
    pub fn uses_pool(&self) -> bool {
        self.uses_pool
    }

    pub fn thunks(&self) -> &[Box<dyn Thunk>] {
        &self.thunks
    }

    /// The dependency edges after transitive reduction, sorted.
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }

    pub fn is_chain(&self) -> bool {
        self.is_chain
    }

    pub fn mode(&self) -> ExecutionMode {
        self.mode
    }

    pub fn is_sequential(&self) -> bool {
        matches!(self.mode, ExecutionMode::Sequential(_))
    }

    /// Every use of every thunk (deduplicated): what a thunk that runs this
    /// sequence as its body touches.
    pub fn buffer_uses(&self) -> Vec<BufferUse> {
        let mut uses: Vec<BufferUse> = Vec::new();
        for u in self.thunks.iter().flat_map(|t| t.buffer_uses()) {
            if !uses.contains(u) {
                uses.push(*u);
            }
        }
        uses
    }

    /// Runs every thunk once. `pool: None` runs all on this thread.
    pub fn execute(&self, allocations: &BufferAllocations, pool: Option<&rayon::ThreadPool>) -> Result<(), RuntimeError> {
        self.execute_in(&ExecuteContext::new(allocations, pool))
    }

    /// As `execute`, recording what runs where into `trace` (see [`crate::trace`]).
    pub fn execute_traced(
        &self,
        allocations: &BufferAllocations,
        pool: Option<&rayon::ThreadPool>,
        trace: Option<&Trace>,
    ) -> Result<(), RuntimeError> {
        self.execute_in(&ExecuteContext { allocations, pool, trace, device: None })
    }

    /// As `execute`, with a context (how control-flow thunks run their bodies).
    pub fn execute_in(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        let sequential = || self.thunks.iter().try_for_each(|t| run_thunk(&**t, ctx));
        match ctx.pool {
            // Nothing here can use the pool (small kernels, copies, loops of
            // them): the caller's thread runs it all, no worker is woken, and
            // none spins beside it (on a 2-core machine a spinning worker
            // halved a small loop's speed).
            Some(_) if !self.uses_pool => {
                let alone = ExecuteContext { pool: None, ..*ctx };
                self.thunks.iter().try_for_each(|t| run_thunk(&**t, &alone))
            }
            Some(pool) if !self.is_sequential() => self.execute_dataflow(ctx, pool),
            // A sequence run from outside the pool moves onto it once, so
            // its multi-workgroup kernels split there directly: a kernel
            // installed from the caller's thread costs a hand-off to a worker
            // and back (two wake-ups) per kernel, ~15 % of attention's run.
            Some(pool) if pool.current_thread_index().is_none() => pool.install(sequential),
            _ => sequential(),
        }
    }

    /// How this sequence runs with `pool` (sequential whenever there is no
    /// pool), in words: `dataflow` or `sequential (why)`.
    pub fn mode_description(&self, pool: Option<&rayon::ThreadPool>) -> String {
        match (self.mode, pool) {
            (ExecutionMode::Dataflow, Some(_)) => "dataflow".into(),
            (ExecutionMode::Dataflow, None) => "sequential (no thread pool)".into(),
            (ExecutionMode::Sequential(SequentialReason::FewThunks), _) => {
                format!("sequential (few thunks: {} <= {})", self.thunks.len(), self.max_sequential_thunks)
            }
            (ExecutionMode::Sequential(SequentialReason::SmallSlices), _) => "sequential (small slices)".into(),
            (ExecutionMode::Sequential(SequentialReason::Chain), _) => "sequential (a chain)".into(),
        }
    }

    fn execute_dataflow(&self, ctx: &ExecuteContext, pool: &rayon::ThreadPool) -> Result<(), RuntimeError> {
        let run = Run {
            exec: self,
            ctx,
            // The one allocation per execution: this run's dependency counters.
            pending: self.in_degree.iter().map(|&d| AtomicU32::new(d)).collect(),
            aborted: AtomicBool::new(false),
            error: Mutex::new(None),
        };
        let run = &run;
        // The scope returns only when every spawned thunk has finished, so an
        // error never leaves thunks running behind the caller's back.
        pool.scope(|s| {
            for &src in &self.sources {
                s.spawn(move |s| run.from(s, src));
            }
        });
        match run.error.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// State of one dataflow execution.
struct Run<'a> {
    exec: &'a ThunkExecutor,
    ctx: &'a ExecuteContext<'a>,
    pending: Vec<AtomicU32>,
    aborted: AtomicBool,
    error: Mutex<Option<RuntimeError>>,
}

impl<'a> Run<'a> {
    /// Runs `node`, then whatever it makes ready: the first ready successor on
    /// this thread (no spawn on a chain), the others spawned.
    fn from<'s>(&'s self, scope: &rayon::Scope<'s>, mut node: usize) {
        loop {
            if self.aborted.load(Ordering::Acquire) {
                return;
            }
            if let Err(e) = run_thunk(&*self.exec.thunks[node], self.ctx) {
                // First error wins; later thunks are not started.
                let mut slot = self.error.lock().unwrap_or_else(|e| e.into_inner());
                slot.get_or_insert(e);
                self.aborted.store(true, Ordering::Release);
                return;
            }
            let succ = &self.exec.succ[self.exec.succ_start[node]..self.exec.succ_start[node + 1]];
            let mut next = None;
            for &s in succ {
                // AcqRel: the last predecessor to finish sees all others' writes.
                if self.pending[s].fetch_sub(1, Ordering::AcqRel) == 1 {
                    if next.is_none() {
                        next = Some(s);
                    } else {
                        scope.spawn(move |sc| self.from(sc, s));
                    }
                }
            }
            match next {
                Some(s) => node = s,
                None => return,
            }
        }
    }
}

/// Runs one thunk. Traced, thunks other than kernels (which record their
/// own calls, per workgroup) get a slice on this thread: copies and custom
/// calls as leaves, control flow around the work its bodies ran here.
fn run_thunk(thunk: &dyn Thunk, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
    let Some(trace) = ctx.trace else { return thunk.execute(ctx) };
    let kind = thunk.kind();
    let cat = match kind {
        ThunkKind::Kernel => return thunk.execute(ctx),
        ThunkKind::Copy => "copy",
        ThunkKind::Gemm => "gemm",
        ThunkKind::Memset => "memset",
        ThunkKind::CustomCall => "custom_call",
        ThunkKind::Collective => "collective",
        ThunkKind::While | ThunkKind::Conditional => "control",
    };
    let start = std::time::Instant::now();
    let r = thunk.execute(ctx);
    let end = std::time::Instant::now();
    let mut args: TraceArgs = Vec::new();
    if cat != "control" {
        let bytes = |a: Access| thunk.buffer_uses().iter().filter(|u| u.access == a).map(|u| u.slice.size).sum::<u64>();
        args.push(("bytes_read", TraceArg::Int(bytes(Access::Read))));
        args.push(("bytes_written", TraceArg::Int(bytes(Access::Write))));
    }
    if let Err(e) = &r {
        args.push(("error", TraceArg::Str(e.to_string())));
    }
    trace.slice(cat, thunk.describe(), start, end, args);
    r
}

/// `(i, j)` for `i < j` when some use of `i` conflicts with some use of `j`.
fn conflict_edges(thunks: &[Box<dyn Thunk>]) -> Vec<(usize, usize)> {
    let nodes: Vec<(&[BufferUse], bool)> = thunks.iter().map(|t| (t.buffer_uses(), t.has_side_effect())).collect();
    conflict_edges_of(&nodes)
}

fn conflict_edges_of(nodes: &[(&[BufferUse], bool)]) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for (i, (ua, sa)) in nodes.iter().enumerate() {
        for (j, (ub, sb)) in nodes.iter().enumerate().skip(i + 1) {
            // Side effects (custom calls that have them) stay in program order.
            let conflict = (*sa && *sb) || ua.iter().any(|x| ub.iter().any(|y| x.conflicts(y)));
            if conflict {
                edges.push((i, j));
            }
        }
    }
    edges
}

/// The executor's dependency edges for nodes given as (buffer uses, has a
/// side effect), in program order: conflicts, transitively reduced, sorted.
/// What the GPU runtime assigns streams from.
pub fn dependency_edges(nodes: &[(&[BufferUse], bool)]) -> Vec<(usize, usize)> {
    transitive_reduction(nodes.len(), &conflict_edges_of(nodes))
}

/// Drops every edge `i → j` implied by a path `i → k → … → j`. Edges go
/// forward in program order, so walking nodes backwards the reachability of
/// every successor is already known; a successor is redundant if a smaller
/// successor reaches it. Uses n² bits.
fn transitive_reduction(n: usize, edges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let words = n.div_ceil(64);
    let mut reach = vec![0u64; n * words];
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        succ[a].push(b);
    }
    let mut kept = Vec::with_capacity(edges.len());
    for i in (0..n).rev() {
        succ[i].sort_unstable();
        let (row_i, after) = reach[i * words..].split_at_mut(words);
        for &j in &succ[i] {
            if row_i[j / 64] & (1 << (j % 64)) != 0 {
                continue;
            }
            kept.push((i, j));
            row_i[j / 64] |= 1 << (j % 64);
            // j > i, so its row is in `after`.
            let row_j = &after[(j - i - 1) * words..(j - i) * words];
            for (w, r) in row_i.iter_mut().zip(row_j) {
                *w |= r;
            }
        }
    }
    kept.sort_unstable();
    kept
}

impl fmt::Display for ThunkExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "// {} thunks, {:?}", self.thunks.len(), self.mode)?;
        for (i, t) in self.thunks.iter().enumerate() {
            write!(f, "#{i} {}", t.describe())?;
            for u in t.buffer_uses() {
                let s = u.slice;
                write!(f, " {:?}(a{}[{}+{}])", u.access, s.allocation, s.offset, s.size)?;
            }
            let succ = &self.succ[self.succ_start[i]..self.succ_start[i + 1]];
            if !succ.is_empty() {
                write!(f, " -> {succ:?}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_drops_implied_edges_only() {
        // 0→1→2 plus 0→2 (implied), 0→3 (not implied).
        let kept = transitive_reduction(4, &[(0, 1), (0, 2), (0, 3), (1, 2)]);
        assert_eq!(kept, vec![(0, 1), (0, 3), (1, 2)]);
        // A diamond keeps all four edges; the long edge 0→3 goes.
        let kept = transitive_reduction(4, &[(0, 1), (0, 2), (0, 3), (1, 3), (2, 3)]);
        assert_eq!(kept, vec![(0, 1), (0, 2), (1, 3), (2, 3)]);
    }

    #[test]
    fn reduction_works_across_bitset_words() {
        // A chain of 130 with every forward edge: only the chain survives.
        let n = 130;
        let all: Vec<_> = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect();
        let kept = transitive_reduction(n, &all);
        assert_eq!(kept, (0..n - 1).map(|i| (i, i + 1)).collect::<Vec<_>>());
    }
}
