//! Traces of the thunk runtime on its own: a kernel split into workgroups
//! shows one slice per workgroup on the worker that ran it, copies and
//! control flow get their slices, and slices on one thread never overlap
//! (control flow encloses what ran inside it). Kernels are Rust
//! `extern "C"` functions implementing the host kernel ABI.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use floors_runtime::trace::Slice;
use floors_runtime::*;

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap()
}

/// Sleeps a millisecond (long enough for the other worker to steal half
/// of the grid), then counts its workgroup in the u32 array of arg 0.
unsafe extern "C" fn slow_count(frame: *const KernelCallFrame) -> *const KernelError {
    let f = unsafe { &*frame };
    std::thread::sleep(Duration::from_millis(1));
    let counts = unsafe { f.args() }[0].ptr as *const AtomicU32;
    unsafe { (*counts.add(f.workgroup[0] as usize)).fetch_add(1, Ordering::Relaxed) };
    std::ptr::null()
}

/// Leaf slices (kernels, copies, custom calls) on one track never overlap;
/// any two slices on one track are disjoint or nested.
fn check_tracks(slices: &[Slice]) {
    let mut tids: Vec<u32> = slices.iter().map(|s| s.tid).collect();
    tids.sort();
    tids.dedup();
    for tid in tids {
        let on: Vec<&Slice> = slices.iter().filter(|s| s.tid == tid).collect();
        for (i, a) in on.iter().enumerate() {
            for b in &on[i + 1..] {
                let (a_end, b_end) = (a.start + a.dur, b.start + b.dur);
                let disjoint = a_end <= b.start || b_end <= a.start;
                let nested = (a.start <= b.start && b_end <= a_end) || (b.start <= a.start && a_end <= b_end);
                assert!(disjoint || nested, "track {}: {a:?} and {b:?} overlap without nesting", a.track);
                let leaf = |s: &Slice| !matches!(s.cat, "control" | "execute");
                assert!(disjoint || !(leaf(a) && leaf(b)), "track {}: leaf slices {a:?} and {b:?} overlap", a.track);
            }
        }
    }
}

#[test]
fn split_kernels_show_workgroups_on_both_workers() {
    let counts = BufferSlice::new(0, 0, 4 * 8);
    let k = unsafe { HostKernel::new("slow_count", slow_count) };
    let thunk = KernelThunk::new(k, vec![], vec![counts], [8, 1, 1]).unwrap();
    let exec = ThunkExecutor::new(vec![Box::new(thunk)], ExecutorOptions::default());
    let mut buf = vec![0u8; 32];
    let pool = pool(2);
    let mut both = false;
    // Work stealing decides who runs what; with 8 workgroups of 1 ms each the
    // second worker gets some almost always, so a few tries are plenty.
    for _ in 0..10 {
        let trace = Trace::new("test");
        let allocations = BufferAllocations::new([buf.as_mut_slice()]);
        exec.execute_traced(&allocations, Some(&pool), Some(&trace)).unwrap();
        let slices = trace.slices();
        check_tracks(&slices);
        let kernels: Vec<&Slice> = slices.iter().filter(|s| s.cat == "kernel").collect();
        assert_eq!(kernels.len(), 8, "one slice per workgroup: {kernels:#?}");
        assert!(kernels.iter().all(|s| s.name == "slow_count" && s.track.starts_with("worker ")), "{kernels:#?}");
        assert!(kernels.iter().all(|s| s.args.iter().any(|(k, v)| *k == "grid" && *v == TraceArg::Ints(vec![8, 1, 1]))));
        let mut workers: Vec<&str> = kernels.iter().map(|s| s.track.as_str()).collect();
        workers.sort();
        workers.dedup();
        if workers.len() == 2 {
            both = true;
            break;
        }
    }
    assert!(both, "no run split the grid across both workers");
}

#[test]
fn copies_and_control_flow_are_traced_and_nest() {
    // while (pred) { copy } with the predicate cleared by a second copy.
    let pred = BufferSlice::new(0, 0, 1);
    let zero = BufferSlice::new(1, 0, 1);
    let body = ThunkExecutor::new(
        vec![
            Box::new(CopyThunk::new(BufferSlice::new(1, 4, 4), BufferSlice::new(2, 0, 4)).unwrap()),
            Box::new(CopyThunk::new(zero, pred).unwrap()),
        ],
        ExecutorOptions::default(),
    );
    let cond = ThunkExecutor::new(vec![], ExecutorOptions::default());
    let w = WhileThunk::new(cond, pred, body).unwrap();
    let exec = ThunkExecutor::new(vec![Box::new(w)], ExecutorOptions::default());
    let (mut a, mut b, mut c) = (vec![1u8], vec![0u8, 0, 0, 0, 7, 7, 7, 7], vec![0u8; 4]);
    let trace = Trace::new("test");
    let allocations = BufferAllocations::new([a.as_mut_slice(), b.as_mut_slice(), c.as_mut_slice()]);
    exec.execute_traced(&allocations, None, Some(&trace)).unwrap();
    let slices = trace.slices();
    check_tracks(&slices);
    let names: Vec<(&str, &str)> = slices.iter().map(|s| (s.cat, s.name.as_str())).collect();
    assert_eq!(names, [("control", "while"), ("copy", "copy"), ("copy", "copy")], "{slices:#?}");
    assert!(slices.iter().all(|s| s.track == "caller"));
    let copy = &slices[1];
    assert!(copy.args.contains(&("bytes_read", TraceArg::Int(4))) && copy.args.contains(&("bytes_written", TraceArg::Int(4))));
    // Untraced runs record nothing and still work.
    let trace2 = Trace::new("unused");
    a[0] = 1;
    let allocations = BufferAllocations::new([a.as_mut_slice(), b.as_mut_slice(), c.as_mut_slice()]);
    exec.execute(&allocations, None).unwrap();
    assert!(trace2.is_empty());
    assert_eq!(c, [7, 7, 7, 7]);
}
