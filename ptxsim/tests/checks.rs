//! The checks catch what they are for: each test runs a correct kernel
//! (clean, right answer) and its mutant (a dropped barrier, an off-by-one
//! bound, an early return before a barrier, a read of unwritten memory).

mod common;

use common::*;
use floors_ptx_sim::{CheckKind, Checks, SimError};

const EXCHANGE: &str = include_str!("ptx/exchange.ptx");
const FILL: &str = include_str!("ptx/fill.ptx");
const COPY: &str = include_str!("ptx/copy.ptx");

fn kind(e: &SimError) -> Option<CheckKind> {
    match e {
        SimError::Check { kind, .. } => Some(*kind),
        _ => None,
    }
}

#[test]
fn a_shared_exchange_with_its_barrier_is_clean_and_right() {
    let (out, stats) = launch(EXCHANGE, "exchange", [2, 1, 1], [128, 1, 1], &[output(512)], &[], Checks::ALL).unwrap();
    let want: Vec<u32> = (0..128).map(|t| (t + 1) % 128).collect();
    assert_eq!(to_u32(&out[0]), want);
    // 2 blocks × 128 threads × 17 instructions; stores of 128 × 4 bytes = 16 sectors per block.
    assert_eq!(stats.thread_instructions, 2 * 128 * 17);
    assert_eq!(stats.global_store_bytes, 2 * 16 * 32);
}

#[test]
fn dropping_the_barrier_is_a_racecheck_error() {
    let mutant = EXCHANGE.replace("\tbar.sync \t0;\n", "");
    assert_ne!(mutant, EXCHANGE);
    let e = launch(&mutant, "exchange", [1, 1, 1], [128, 1, 1], &[output(512)], &[], Checks::ALL).unwrap_err();
    assert_eq!(kind(&e), Some(CheckKind::Racecheck), "{e}");
    let text = e.to_string();
    assert!(text.contains("RAW hazard") && text.contains("ld.shared.u32"), "{text}");
    assert!(text.contains("kernel `exchange` block (0,0,0) thread (0,0,0)"), "{text}");
    // Without racecheck the thread that reads a word nobody wrote yet is caught by initcheck.
    let e =
        launch(&mutant, "exchange", [1, 1, 1], [128, 1, 1], &[output(512)], &[], Checks { racecheck: false, ..Checks::ALL }).unwrap_err();
    assert_eq!(kind(&e), Some(CheckKind::Initcheck), "{e}");
}

#[test]
fn an_off_by_one_bound_is_a_memcheck_error_naming_the_store() {
    let (out, _) = launch(FILL, "fill", [1, 1, 1], [1, 1, 1], &[output(64)], &[16], Checks::ALL).unwrap();
    assert_eq!(to_u32(&out[0]), (0..16).collect::<Vec<u32>>());
    let mutant = FILL.replace("setp.lt.u32", "setp.le.u32");
    let e = launch(&mutant, "fill", [1, 1, 1], [1, 1, 1], &[output(64)], &[16], Checks::ALL).unwrap_err();
    assert_eq!(kind(&e), Some(CheckKind::Memcheck), "{e}");
    let text = e.to_string();
    assert!(text.contains("st.global.u32") && text.contains("past the end of buffer 0"), "{text}");
    // Even with every check off, an access outside every allocation faults: no silent wrong answer.
    let e = launch(&mutant, "fill", [1, 1, 1], [1, 1, 1], &[output(64)], &[16], Checks::NONE).unwrap_err();
    assert!(matches!(e, SimError::Fault { .. }), "{e}");
}

#[test]
fn reading_memory_nobody_wrote_is_an_initcheck_error() {
    let input_ok = input(u32s(&(0..64).collect::<Vec<u32>>()));
    let (out, _) = launch(COPY, "copy", [1, 1, 1], [64, 1, 1], &[input_ok, output(256)], &[64], Checks::ALL).unwrap();
    assert_eq!(to_u32(&out[1]), (0..64).collect::<Vec<u32>>());
    let e = launch(COPY, "copy", [1, 1, 1], [64, 1, 1], &[output(256), output(256)], &[64], Checks::ALL).unwrap_err();
    assert_eq!(kind(&e), Some(CheckKind::Initcheck), "{e}");
    assert!(e.to_string().contains("never written"), "{e}");
}

#[test]
fn a_barrier_some_threads_skip_is_a_synccheck_error() {
    let data = || input(u32s(&(0..64).collect::<Vec<u32>>()));
    // 48 of 64 threads copy and wait at the barrier; 16 return before it.
    let e = launch(COPY, "copy", [1, 1, 1], [64, 1, 1], &[data(), output(256)], &[48], Checks::ALL).unwrap_err();
    assert_eq!(kind(&e), Some(CheckKind::Synccheck), "{e}");
    assert!(e.to_string().contains("reached by 48 of the block's 64 threads"), "{e}");
    // Without synccheck the barrier releases the threads that reached it.
    let (out, _) =
        launch(COPY, "copy", [1, 1, 1], [64, 1, 1], &[data(), output(256)], &[48], Checks { synccheck: false, ..Checks::ALL }).unwrap();
    assert_eq!(to_u32(&out[1])[..48], (0..48).collect::<Vec<u32>>()[..]);
}

#[test]
fn malformed_ptx_is_an_error_with_its_line() {
    let bad = EXCHANGE.replace("add.s32 \t%r4", "frobnicate.s32 \t%r4");
    let e = floors_ptx_sim::parse(&bad).unwrap_err();
    assert!(e.to_string().starts_with("PTX line 19: the instruction `frobnicate`"), "{e}");
    let e = floors_ptx_sim::parse(&EXCHANGE.replace("%r6, %r3, %r5", "%r6, %r3, %r99")).unwrap_err();
    assert!(e.to_string().contains("unknown register `%r99`"), "{e}");
}

#[test]
fn oversized_programs_are_errors_not_aborts() {
    let many = EXCHANGE.replace(".reg .b32 \t%r<8>;", ".reg .b32 \t%r<8>;\n\t.reg .b32 \t%q<2000000>;");
    let e = floors_ptx_sim::parse(&many).unwrap_err();
    assert!(e.to_string().contains("registers in one function"), "{e}");
    let local = EXCHANGE.replace(".shared .align 4 .b8 buf[512];", ".shared .align 4 .b8 buf[512];\n\t.local .align 4 .b8 big[1000000];");
    let e = floors_ptx_sim::parse(&local).unwrap_err();
    assert!(e.to_string().contains("bytes of local memory per thread"), "{e}");
    let nested = EXCHANGE.replace("st.shared.u32 \t[%r4], %r1;", "mov.b32 \t%r4, {{{{%r1}}}};");
    assert!(floors_ptx_sim::parse(&nested).is_err());
    let mut mem = floors_ptx_sim::GlobalMemory::new();
    let e = mem.alloc(1 << 40, "a terabyte").unwrap_err();
    assert!(e.to_string().contains("the simulated device holds"), "{e}");
    let e = launch(EXCHANGE, "exchange", [65535, 65535, 2], [128, 1, 1], &[output(512)], &[], Checks::ALL).unwrap_err();
    assert!(e.to_string().contains("at most"), "{e}");
}

/// Damaged PTX (truncated, bytes flipped, lines dropped or repeated) parses
/// or is an error with a line, never a panic; what parses launches to an
/// answer or an error.
#[test]
fn damaged_ptx_is_an_error_never_a_panic() {
    let sources = [EXCHANGE, FILL, COPY, include_str!("ptx/shfl.ptx"), include_str!("ptx/mma_bf16.ptx"), include_str!("ptx/ldmatrix.ptx")];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut parsed = 0;
    for k in 0..1500 {
        let src = sources[k % sources.len()];
        let mut bytes = src.as_bytes().to_vec();
        match next() % 4 {
            0 => bytes.truncate((next() % bytes.len() as u64) as usize),
            1 => {
                for _ in 0..1 + next() % 4 {
                    let i = (next() % bytes.len() as u64) as usize;
                    bytes[i] = b"{}[]();,.%@!-+0123456789abcxyz \n"[(next() % 32) as usize];
                }
            }
            2 => {
                let lines: Vec<&[u8]> = bytes.split(|&c| c == b'\n').collect();
                let drop = (next() % lines.len() as u64) as usize;
                bytes = lines.iter().enumerate().filter(|(i, _)| *i != drop).map(|(_, l)| *l).collect::<Vec<_>>().join(&b'\n');
            }
            _ => {
                let lines: Vec<&[u8]> = bytes.split(|&c| c == b'\n').collect();
                let dup = (next() % lines.len() as u64) as usize;
                let mut out = lines.clone();
                out.insert(dup, lines[dup]);
                bytes = out.join(&b'\n');
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(m) = floors_ptx_sim::parse(&text) {
            parsed += 1;
            // One small launch of the first entry: an answer or an error.
            if let Some(f) = m.functions.iter().find(|f| f.is_entry) {
                let bufs: Vec<Buf> = f.params.iter().filter(|p| p.size == 8).map(|_| input(vec![1; 4096])).collect();
                if bufs.len() == f.params.len() {
                    let _ = launch(&text, &f.name, [1, 1, 1], [32, 1, 1], &bufs, &[], Checks::ALL);
                }
            }
        }
    }
    assert!(parsed > 100, "only {parsed} mutants parsed: the mutations are too coarse to reach the executor");
}
