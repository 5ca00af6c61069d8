//! The thunk runtime on its own: dependency edges, the sequential rules, the
//! dataflow path on a real pool, concurrent executions, workgroup splitting,
//! control flow, custom calls and errors. Kernels are Rust `extern "C"`
//! functions implementing the host kernel ABI.

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use floors_runtime::*;
use std::result::Result;

// --- buffers ---------------------------------------------------------------

/// Host buffers backed by u64s, so every allocation is 8-byte aligned.
struct Buffers(Vec<Vec<u64>>);

impl Buffers {
    fn new(sizes: &[usize]) -> Self {
        Buffers(sizes.iter().map(|&b| vec![0u64; b.div_ceil(8)]).collect())
    }
    fn bytes(&self, i: usize) -> &[u8] {
        let v = &self.0[i];
        unsafe { std::slice::from_raw_parts(v.as_ptr().cast(), v.len() * 8) }
    }
    fn bytes_mut(&mut self, i: usize) -> &mut [u8] {
        let v = &mut self.0[i];
        unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast(), v.len() * 8) }
    }
    fn f32s(&self, i: usize, n: usize) -> Vec<f32> {
        self.bytes(i).chunks(4).take(n).map(|c| f32::from_ne_bytes(c.try_into().unwrap())).collect()
    }
    fn set_f32s(&mut self, i: usize, vals: &[f32]) {
        for (c, v) in self.bytes_mut(i).chunks_mut(4).zip(vals) {
            c.copy_from_slice(&v.to_ne_bytes());
        }
    }
    fn i32_at(&self, i: usize) -> i32 {
        i32::from_ne_bytes(self.bytes(i)[..4].try_into().unwrap())
    }
    fn set_i32(&mut self, i: usize, v: i32) {
        self.bytes_mut(i)[..4].copy_from_slice(&v.to_ne_bytes());
    }
    fn allocations(&mut self) -> BufferAllocations<'_> {
        BufferAllocations::new(
            self.0.iter_mut().map(|v| unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), v.len() * 8) }),
        )
    }
}

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap()
}

fn f32_slice(alloc: usize, first: usize, n: usize) -> BufferSlice {
    BufferSlice::new(alloc, 4 * first as u64, 4 * n as u64)
}

// --- kernels ---------------------------------------------------------------

/// The part of `n` elements that this workgroup owns: grid x splits the array.
fn chunk(f: &KernelCallFrame, n: usize) -> Range<usize> {
    let per = n.div_ceil(f.grid[0].max(1) as usize);
    let start = (f.workgroup[0] as usize * per).min(n);
    start..(start + per).min(n)
}

/// This workgroup's elements of f32 argument `i`.
unsafe fn f32_chunk<'a>(f: &KernelCallFrame, i: usize, r: Range<usize>) -> &'a mut [f32] {
    let a = unsafe { f.args() }[i];
    unsafe { std::slice::from_raw_parts_mut((a.ptr as *mut f32).add(r.start), r.len()) }
}

fn n_f32(f: &KernelCallFrame, i: usize) -> usize {
    (unsafe { f.args() }[i].size / 4) as usize
}

/// out = a + b
unsafe extern "C" fn add_f32(frame: *const KernelCallFrame) -> *const KernelError {
    let f = unsafe { &*frame };
    let r = chunk(f, n_f32(f, 2));
    let (a, b, out) = unsafe { (f32_chunk(f, 0, r.clone()), f32_chunk(f, 1, r.clone()), f32_chunk(f, 2, r)) };
    for i in 0..out.len() {
        out[i] = a[i] + b[i];
    }
    std::ptr::null()
}

/// out = 2 * a + 1
unsafe extern "C" fn affine_f32(frame: *const KernelCallFrame) -> *const KernelError {
    let f = unsafe { &*frame };
    let r = chunk(f, n_f32(f, 1));
    let (a, out) = unsafe { (f32_chunk(f, 0, r.clone()), f32_chunk(f, 1, r)) };
    for i in 0..out.len() {
        out[i] = 2.0 * a[i] + 1.0;
    }
    std::ptr::null()
}

static BOOM: KernelError = KernelError { message: c"boom".as_ptr() };

unsafe extern "C" fn fail(_: *const KernelCallFrame) -> *const KernelError {
    &BOOM
}

/// Adds 1 to the u32 counter of this workgroup (linear index) in arg 0.
unsafe extern "C" fn count_workgroup(frame: *const KernelCallFrame) -> *const KernelError {
    let f = unsafe { &*frame };
    let [x, y, z] = f.workgroup;
    let linear = x + f.grid[0] * (y + f.grid[1] * z);
    let counts = unsafe { f.args() }[0].ptr as *const AtomicU32;
    unsafe { (*counts.add(linear as usize)).fetch_add(1, Ordering::Relaxed) };
    std::ptr::null()
}

fn kernel(name: &str, f: HostKernelFn) -> HostKernel {
    unsafe { HostKernel::new(name, f) }
}

fn kernel_thunk(f: HostKernelFn, ins: &[BufferSlice], outs: &[BufferSlice], gx: u64) -> Box<dyn Thunk> {
    Box::new(KernelThunk::new(kernel("k", f), ins.to_vec(), outs.to_vec(), [gx, 1, 1]).unwrap())
}

// --- graph -----------------------------------------------------------------

/// A thunk that only declares uses: for graph tests.
struct Uses(Vec<BufferUse>);

impl Thunk for Uses {
    fn kind(&self) -> ThunkKind {
        ThunkKind::Copy
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.0
    }
    fn execute(&self, _: &ExecuteContext) -> Result<(), RuntimeError> {
        Ok(())
    }
}

fn graph(thunks: Vec<Vec<BufferUse>>, options: ExecutorOptions) -> ThunkExecutor {
    ThunkExecutor::new(thunks.into_iter().map(|u| Box::new(Uses(u)) as Box<dyn Thunk>).collect(), options)
}

fn edges(thunks: Vec<Vec<BufferUse>>) -> Vec<(usize, usize)> {
    graph(thunks, ExecutorOptions::default()).edges().to_vec()
}

fn r(alloc: usize, off: u64, size: u64) -> BufferUse {
    BufferUse::read(BufferSlice::new(alloc, off, size))
}
fn w(alloc: usize, off: u64, size: u64) -> BufferUse {
    BufferUse::write(BufferSlice::new(alloc, off, size))
}

#[test]
fn edges_come_from_read_write_conflicts() {
    assert_eq!(edges(vec![vec![w(0, 0, 64)], vec![r(0, 0, 64)]]), [(0, 1)], "RAW");
    assert_eq!(edges(vec![vec![r(0, 0, 64)], vec![w(0, 0, 64)]]), [(0, 1)], "WAR");
    assert_eq!(edges(vec![vec![w(0, 0, 64)], vec![w(0, 0, 64)]]), [(0, 1)], "WAW");
    assert_eq!(edges(vec![vec![w(0, 0, 33)], vec![r(0, 32, 32)]]), [(0, 1)], "one shared byte");
    assert!(edges(vec![vec![r(0, 0, 64)], vec![r(0, 0, 64)]]).is_empty(), "read-read");
    assert!(edges(vec![vec![w(0, 0, 32)], vec![w(0, 32, 32)]]).is_empty(), "disjoint slices");
    assert!(edges(vec![vec![w(0, 0, 64)], vec![w(1, 0, 64)]]).is_empty(), "other allocation");
}

#[test]
fn implied_edges_are_dropped() {
    // t0 writes A; t1 reads A, writes B; t2 reads A and B.
    // Conflicts 0→1, 0→2, 1→2; 0→2 is implied by 0→1→2.
    let e = graph(vec![vec![w(0, 0, 64)], vec![r(0, 0, 64), w(1, 0, 64)], vec![r(0, 0, 64), r(1, 0, 64)]], ExecutorOptions::default());
    assert_eq!(e.edges(), [(0, 1), (1, 2)]);
    assert!(e.is_chain());
    // A diamond keeps its four edges and is no chain.
    let e = graph(
        vec![
            vec![w(0, 0, 64)],
            vec![r(0, 0, 64), w(1, 0, 64)],
            vec![r(0, 0, 64), w(2, 0, 64)],
            vec![r(1, 0, 64), r(2, 0, 64), r(0, 0, 64)],
        ],
        ExecutorOptions::default(),
    );
    assert_eq!(e.edges(), [(0, 1), (0, 2), (1, 3), (2, 3)]);
    assert!(!e.is_chain());
}

/// `n` independent thunks, each writing its own allocation of `bytes`.
fn independent(n: usize, bytes: u64) -> Vec<Vec<BufferUse>> {
    (0..n).map(|i| vec![w(i, 0, bytes)]).collect()
}

#[test]
fn sequential_when_few_thunks() {
    let d = ExecutorOptions::default();
    assert_eq!((d.max_sequential_thunks, d.max_sequential_slice_bytes), (8, 512));
    let few = SequentialReason::FewThunks;
    assert_eq!(graph(independent(8, 4096), d).mode(), ExecutionMode::Sequential(few));
    assert_eq!(graph(independent(9, 4096), d).mode(), ExecutionMode::Dataflow);
    let two = ExecutorOptions { max_sequential_thunks: 2, ..d };
    assert_eq!(graph(independent(2, 4096), two).mode(), ExecutionMode::Sequential(few));
    assert_eq!(graph(independent(3, 4096), two).mode(), ExecutionMode::Dataflow);
}

#[test]
fn sequential_when_all_slices_are_small() {
    let d = ExecutorOptions::default();
    let small = ExecutionMode::Sequential(SequentialReason::SmallSlices);
    assert_eq!(graph(independent(20, 512), d).mode(), small);
    let mut one_big = independent(20, 512);
    one_big[7].push(r(100, 0, 513));
    assert_eq!(graph(one_big.clone(), d).mode(), ExecutionMode::Dataflow);
    let bigger = ExecutorOptions { max_sequential_slice_bytes: 1024, ..d };
    assert_eq!(graph(one_big, bigger).mode(), small);
    assert!(!graph(independent(20, 512), ExecutorOptions { max_sequential_slice_bytes: 256, ..d }).is_sequential());
}

#[test]
fn sequential_when_a_chain() {
    // Each thunk reads the previous one's output: 0→1→…→19.
    let chain: Vec<_> = (0..20).map(|i| vec![r(i, 0, 4096), w(i + 1, 0, 4096)]).collect();
    let none = ExecutorOptions { max_sequential_thunks: 0, max_sequential_slice_bytes: 0, ..ExecutorOptions::default() };
    let e = graph(chain.clone(), none);
    assert_eq!(e.mode(), ExecutionMode::Sequential(SequentialReason::Chain));
    assert_eq!(e.edges().len(), 19);
    // Break the chain: thunk 10 reads an unrelated buffer instead.
    let mut broken = chain;
    broken[10][0] = r(99, 0, 4096);
    assert_eq!(graph(broken, none).mode(), ExecutionMode::Dataflow);
}

// --- dataflow --------------------------------------------------------------

static ARRIVED: AtomicUsize = AtomicUsize::new(0);
static THREADS: Mutex<Vec<std::thread::ThreadId>> = Mutex::new(Vec::new());
static TIMED_OUT: KernelError = KernelError { message: c"the other kernel never arrived".as_ptr() };

/// Waits (up to 10 s) for a second kernel to be running at the same time.
unsafe extern "C" fn rendezvous(_: *const KernelCallFrame) -> *const KernelError {
    THREADS.lock().unwrap().push(std::thread::current().id());
    ARRIVED.fetch_add(1, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(10);
    while ARRIVED.load(Ordering::SeqCst) < 2 {
        if Instant::now() > deadline {
            return &TIMED_OUT;
        }
        std::hint::spin_loop();
    }
    std::ptr::null()
}

#[test]
fn dataflow_runs_independent_thunks_in_parallel() {
    let mut bufs = Buffers::new(&[4096, 4096]);
    let thunks = vec![
        kernel_thunk(rendezvous, &[], &[BufferSlice::new(0, 0, 4096)], 1),
        kernel_thunk(rendezvous, &[], &[BufferSlice::new(1, 0, 4096)], 1),
    ];
    let none = ExecutorOptions { max_sequential_thunks: 0, max_sequential_slice_bytes: 0, ..ExecutorOptions::default() };
    let exec = ThunkExecutor::new(thunks, none);
    assert_eq!(exec.mode(), ExecutionMode::Dataflow);
    assert!(exec.edges().is_empty());
    exec.execute(&bufs.allocations(), Some(&pool(4))).expect("both kernels met");
    let threads = THREADS.lock().unwrap();
    assert_eq!(threads.len(), 2);
    assert_ne!(threads[0], threads[1]);
    assert!(!threads.contains(&std::thread::current().id()));
}

const N: usize = 1000;

/// Ten kernels, default options, so it runs as dataflow: two independent
/// chains of four affine kernels over 4 KB buffers (split in 4 workgroups),
/// joined by an add, then copied to the output.
///
/// Allocations: 0 = input a, 1 = input b, 2 = temps (8 slots), 3 = output.
fn diamond_program() -> ThunkExecutor {
    let tmp = |k: usize| f32_slice(2, k * N, N);
    let (a, b, out) = (f32_slice(0, 0, N), f32_slice(1, 0, N), f32_slice(3, 0, N));
    let mut t = Vec::new();
    for (input, base) in [(a, 0), (b, 4)] {
        t.push(kernel_thunk(affine_f32, &[input], &[tmp(base)], 4));
        for k in 1..4 {
            t.push(kernel_thunk(affine_f32, &[tmp(base + k - 1)], &[tmp(base + k)], 4));
        }
    }
    t.push(kernel_thunk(add_f32, &[tmp(3), tmp(7)], &[tmp(0)], 4));
    t.push(Box::new(CopyThunk::new(tmp(0), out).unwrap()));
    ThunkExecutor::new(t, ExecutorOptions::default())
}

fn diamond_inputs(seed: usize) -> Buffers {
    let mut bufs = Buffers::new(&[4 * N, 4 * N, 8 * 4 * N, 4 * N]);
    bufs.set_f32s(0, &(0..N).map(|i| (i + seed) as f32 * 0.25).collect::<Vec<_>>());
    bufs.set_f32s(1, &(0..N).map(|i| (i * seed) as f32 - 3.0).collect::<Vec<_>>());
    bufs
}

fn diamond_expected(seed: usize) -> Vec<f32> {
    let chain = |mut x: f32| {
        for _ in 0..4 {
            x = 2.0 * x + 1.0;
        }
        x
    };
    (0..N).map(|i| chain((i + seed) as f32 * 0.25) + chain((i * seed) as f32 - 3.0)).collect()
}

#[test]
fn dataflow_program_gives_the_sequential_answer() {
    let exec = diamond_program();
    assert_eq!(exec.mode(), ExecutionMode::Dataflow);
    // Two chains into the add, then the copy; the add's WAR on tmp(0) is implied.
    assert_eq!(exec.edges().len(), 9, "{exec}");
    let mut seq = diamond_inputs(3);
    exec.execute(&seq.allocations(), None).unwrap();
    assert_eq!(seq.f32s(3, N), diamond_expected(3));
    let mut par = diamond_inputs(3);
    exec.execute(&par.allocations(), Some(&pool(4))).unwrap();
    assert_eq!(par.bytes(3), seq.bytes(3));
}

#[test]
fn concurrent_executions_of_one_executor_agree() {
    let exec = diamond_program();
    let pool = pool(4);
    std::thread::scope(|s| {
        for thread in 0..16 {
            let (exec, pool) = (&exec, &pool);
            s.spawn(move || {
                let want = diamond_expected(thread);
                for run in 0..50 {
                    let mut bufs = diamond_inputs(thread);
                    exec.execute(&bufs.allocations(), Some(pool)).unwrap();
                    assert_eq!(bufs.f32s(3, N), want, "thread {thread} run {run}");
                }
            });
        }
    });
}

#[test]
fn kernel_workgroups_each_run_exactly_once() {
    let grid = [7, 3, 2];
    let n = 42;
    let counts = BufferSlice::new(0, 0, 4 * n);
    let thunk = KernelThunk::new(kernel("count", count_workgroup), vec![], vec![counts], grid).unwrap();
    let exec = ThunkExecutor::new(vec![Box::new(thunk)], ExecutorOptions::default());
    let pool = pool(3);
    for p in [None, Some(&pool)] {
        let mut bufs = Buffers::new(&[4 * n as usize]);
        exec.execute(&bufs.allocations(), p).unwrap();
        let c: Vec<u32> = bufs.bytes(0).chunks(4).map(|b| u32::from_ne_bytes(b.try_into().unwrap())).collect();
        assert_eq!(c, vec![1; n as usize], "pool: {}", p.is_some());
    }
}

// --- control flow ----------------------------------------------------------

/// pred = (i < 10), i an i32.
unsafe extern "C" fn less_than_10(frame: *const KernelCallFrame) -> *const KernelError {
    let args = unsafe { (*frame).args() };
    unsafe { *(args[1].ptr as *mut u8) = (*(args[0].ptr as *const i32) < 10) as u8 };
    std::ptr::null()
}

/// i += 1; acc += i (both read-write, so both are outputs).
unsafe extern "C" fn step(frame: *const KernelCallFrame) -> *const KernelError {
    let args = unsafe { (*frame).args() };
    let (i, acc) = (args[0].ptr as *mut i32, args[1].ptr as *mut i32);
    unsafe {
        *i += 1;
        *acc += *i;
    }
    std::ptr::null()
}

#[test]
fn while_loops_until_the_predicate_is_false() {
    // Allocations: 0 = i, 1 = acc, 2 = predicate byte.
    let (i, acc, pred) = (BufferSlice::new(0, 0, 4), BufferSlice::new(1, 0, 4), BufferSlice::new(2, 0, 1));
    let seq = |t: Box<dyn Thunk>| ThunkExecutor::new(vec![t], ExecutorOptions::default());
    let cond = seq(kernel_thunk(less_than_10, &[i], &[pred], 1));
    let body = seq(kernel_thunk(step, &[], &[i, acc], 1));
    let w = WhileThunk::new(cond, pred, body).unwrap();
    assert!(w.buffer_uses().contains(&BufferUse::write(acc)));
    let exec = ThunkExecutor::new(vec![Box::new(w)], ExecutorOptions::default());
    let pool = pool(2);
    for p in [None, Some(&pool)] {
        let mut bufs = Buffers::new(&[4, 4, 1]);
        exec.execute(&bufs.allocations(), p).unwrap();
        assert_eq!((bufs.i32_at(0), bufs.i32_at(1)), (10, 55));
    }
    let two_bytes = BufferSlice::new(2, 0, 2);
    let e = WhileThunk::new(seq(kernel_thunk(less_than_10, &[i], &[pred], 1)), two_bytes, seq(kernel_thunk(step, &[], &[i, acc], 1)));
    assert!(matches!(e, Err(RuntimeError::WhileConditionNotBool { .. })));
}

#[test]
fn conditional_picks_a_branch_and_clamps_to_the_last() {
    // Allocations: 0 = index, 1 = constants [10, 11, 12] as i32, 2 = output.
    let branch = |k: u64| {
        let copy = CopyThunk::new(BufferSlice::new(1, 4 * k, 4), BufferSlice::new(2, 0, 4)).unwrap();
        ThunkExecutor::new(vec![Box::new(copy)], ExecutorOptions::default())
    };
    let case = ConditionalThunk::new(BufferSlice::new(0, 0, 4), (0..3).map(branch).collect()).unwrap();
    let exec = ThunkExecutor::new(vec![Box::new(case)], ExecutorOptions::default());
    for (index, want) in [(0, 10), (1, 11), (2, 12), (3, 12), (77, 12), (-1, 12)] {
        let mut bufs = Buffers::new(&[4, 12, 4]);
        bufs.set_i32(0, index);
        bufs.bytes_mut(1)[..12].copy_from_slice(&[10i32, 11, 12].map(i32::to_ne_bytes).concat());
        exec.execute(&bufs.allocations(), None).unwrap();
        assert_eq!(bufs.i32_at(2), want, "index {index}");
    }
    // A bool index: true → branch 0, false → branch 1.
    let pred = ConditionalThunk::new(BufferSlice::new(0, 0, 1), (0..2).map(branch).collect()).unwrap();
    let exec = ThunkExecutor::new(vec![Box::new(pred)], ExecutorOptions::default());
    for (b, want) in [(1u8, 10), (0, 11)] {
        let mut bufs = Buffers::new(&[4, 12, 4]);
        bufs.bytes_mut(0)[0] = b;
        bufs.bytes_mut(1)[..12].copy_from_slice(&[10i32, 11, 12].map(i32::to_ne_bytes).concat());
        exec.execute(&bufs.allocations(), None).unwrap();
        assert_eq!(bufs.i32_at(2), want, "pred {b}");
    }
    assert!(ConditionalThunk::new(BufferSlice::new(0, 0, 1), (0..3).map(branch).collect()).is_err());
    assert!(ConditionalThunk::new(BufferSlice::new(0, 0, 8), (0..3).map(branch).collect()).is_err());
}

// --- custom calls ----------------------------------------------------------

fn registry() -> CustomCallRegistry {
    let mut reg = CustomCallRegistry::new();
    reg.register("reverse", |ins, outs| {
        outs[0].copy_from_slice(ins[0]);
        outs[0].reverse();
        Ok(())
    });
    reg.register("refuse", |_, _| Err("not today".into()));
    reg
}

fn run_custom_call(target: &str) -> (Result<(), RuntimeError>, Vec<u8>) {
    let call = match CustomCallThunk::untyped(target, &registry(), vec![BufferSlice::new(0, 0, 4)], vec![BufferSlice::new(1, 0, 4)]) {
        Ok(c) => c,
        Err(e) => return (Err(e), vec![]),
    };
    let exec = ThunkExecutor::new(vec![Box::new(call)], ExecutorOptions::default());
    let mut bufs = Buffers::new(&[8, 8]);
    bufs.bytes_mut(0)[..4].copy_from_slice(&[1, 2, 3, 4]);
    let r = exec.execute(&bufs.allocations(), None);
    (r, bufs.bytes(1)[..4].to_vec())
}

#[test]
fn custom_calls_are_looked_up_by_name() {
    let (r, out) = run_custom_call("reverse");
    r.unwrap();
    assert_eq!(out, [4, 3, 2, 1]);
    let (r, _) = run_custom_call("nope");
    assert_eq!(r.unwrap_err().to_string(), "unknown custom call target `nope`");
    let (r, _) = run_custom_call("refuse");
    assert_eq!(r.unwrap_err().to_string(), "custom call `refuse` failed: not today");
}

// --- errors ----------------------------------------------------------------

static STARTED: AtomicUsize = AtomicUsize::new(0);
static FINISHED: AtomicUsize = AtomicUsize::new(0);
static AFTER_FAILURE: AtomicUsize = AtomicUsize::new(0);

/// Busy for a while, counting starts and finishes.
unsafe extern "C" fn busy(_: *const KernelCallFrame) -> *const KernelError {
    STARTED.fetch_add(1, Ordering::SeqCst);
    let mut x = 0u64;
    for i in 0..200_000u64 {
        x = std::hint::black_box(x.wrapping_add(i));
    }
    FINISHED.fetch_add(1, Ordering::SeqCst);
    std::ptr::null()
}

unsafe extern "C" fn must_not_run(_: *const KernelCallFrame) -> *const KernelError {
    AFTER_FAILURE.fetch_add(1, Ordering::SeqCst);
    std::ptr::null()
}

#[test]
fn a_failing_kernel_fails_the_execution_and_nothing_is_left_running() {
    // Allocation i is thunk i's output; the failing thunk 0 feeds thunk 1.
    let s = |i: usize| BufferSlice::new(i, 0, 1024);
    let mut thunks = vec![kernel_thunk(fail, &[], &[s(0)], 1), kernel_thunk(must_not_run, &[s(0)], &[s(1)], 1)];
    for i in 2..12 {
        thunks.push(kernel_thunk(busy, &[], &[s(i)], 4));
    }
    let exec = ThunkExecutor::new(thunks, ExecutorOptions::default());
    assert_eq!(exec.mode(), ExecutionMode::Dataflow);
    let pool = pool(4);
    for p in [None, Some(&pool)] {
        let mut bufs = Buffers::new(&[1024; 12]);
        let err = exec.execute(&bufs.allocations(), p).unwrap_err();
        assert_eq!(err, RuntimeError::KernelFailed { kernel: "k".into(), message: "boom".into() });
        assert_eq!(STARTED.load(Ordering::SeqCst), FINISHED.load(Ordering::SeqCst), "a thunk outlived execute");
        assert_eq!(AFTER_FAILURE.load(Ordering::SeqCst), 0, "a successor of the failed thunk ran");
    }
}

#[test]
fn a_slice_outside_its_allocation_is_an_error() {
    let exec =
        ThunkExecutor::new(vec![kernel_thunk(affine_f32, &[f32_slice(0, 0, 4)], &[f32_slice(1, 0, 64)], 1)], ExecutorOptions::default());
    let mut bufs = Buffers::new(&[16, 16]);
    let err = exec.execute(&bufs.allocations(), None).unwrap_err();
    assert!(matches!(err, RuntimeError::BadBuffer { allocation: 1, .. }), "{err}");
    let mut short = Buffers::new(&[16]);
    let err = exec.execute(&short.allocations(), None).unwrap_err();
    assert!(err.to_string().contains("no such allocation"), "{err}");
}
