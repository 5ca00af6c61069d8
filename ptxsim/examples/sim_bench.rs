//! How fast the simulator runs: thread-instructions per second on an
//! elementwise kernel (a grid-stride saxpy over 4M elements) and a
//! shared-memory kernel (the exchange test kernel on 4096 blocks), with every
//! check on and with none. `cargo run --release -p floors-ptx-sim --example sim_bench`.

use std::time::Instant;

use floors_ptx_sim::{Checks, GlobalMemory, LaunchParams};

#[allow(clippy::too_many_arguments)]
fn run(name: &str, ptx: &str, entry: &str, grid: u32, block: u32, bufs: &[u64], extra: &[u32], checks: Checks) {
    let module = floors_ptx_sim::parse(ptx).unwrap();
    let mut mem = GlobalMemory::new();
    let globals = mem.load_globals(&module, entry).unwrap();
    let addrs: Vec<u64> = bufs.iter().enumerate().map(|(i, &n)| mem.alloc(n, format!("buffer {i}")).unwrap()).collect();
    for (&a, &n) in addrs.iter().zip(bufs) {
        mem.fill(a, n, &[0, 0, 128, 63]).unwrap();
    }
    let mut params: Vec<u8> = addrs.iter().flat_map(|a| a.to_le_bytes()).collect();
    for &x in extra {
        params.extend_from_slice(&x.to_le_bytes());
    }
    let allowed: Vec<(u64, u64)> = addrs.iter().zip(bufs).map(|(&a, &n)| (a, n)).collect();
    let p = LaunchParams {
        kernel: entry,
        entry,
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        dynamic_shared: 0,
        params: &params,
        allowed: &allowed,
        globals: &globals,
        checks,
        max_shared: 48 * 1024,
    };
    let t = Instant::now();
    let s = floors_ptx_sim::launch(&module, &mem, &p).unwrap();
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{name:<28} checks {:<4} {:>11} thread-instructions in {:>6.3} s: {:>6.1} M/s ({} threads)",
        if checks == Checks::ALL { "all" } else { "none" },
        s.thread_instructions,
        secs,
        s.thread_instructions as f64 / secs / 1e6,
        rayon::current_num_threads()
    );
}

fn main() {
    let n: u32 = 1 << 22;
    for checks in [Checks::ALL, Checks::NONE] {
        let bytes = 4 * n as u64;
        run(
            "saxpy 4M (grid-stride)",
            include_str!("../tests/ptx/saxpy.ptx"),
            "saxpy",
            1024,
            256,
            &[bytes, bytes],
            &[n, 2.0f32.to_bits()],
            checks,
        );
        run("shared exchange 4096x128", include_str!("../tests/ptx/exchange.ptx"), "exchange", 4096, 128, &[512], &[], checks);
    }
}
