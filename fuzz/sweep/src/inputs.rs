//! Mutations of a program's `.npy` inputs and of compiled artifacts.

use std::{fs, path::PathBuf};

use super::*;

/// One input of a `floors run`: a corpus file, a generated file, or a path
/// that is not a file.
#[derive(Clone, Debug)]
pub enum Input {
    File(PathBuf),
    Bytes(Vec<u8>),
    Path(String),
    /// The program file itself.
    Program,
}

/// Mutated inputs for the unmutated program.
pub(super) fn mutate_inputs(rng: &mut Rng, inputs: &[PathBuf]) -> (Vec<Input>, String) {
    let mut out: Vec<Input> = inputs.iter().cloned().map(Input::File).collect();
    let what = match rng.below(6) {
        0 if !out.is_empty() => {
            let i = rng.below(out.len());
            out.remove(i);
            format!("dropped input {i}")
        }
        1 if !out.is_empty() => {
            let i = rng.below(out.len());
            out.push(out[i].clone());
            format!("input {i} given again at the end")
        }
        2 if out.len() > 1 => {
            let (a, b) = (rng.below(out.len()), rng.below(out.len()));
            out.swap(a, b);
            format!("swapped inputs {a} and {b}")
        }
        3 if !out.is_empty() => {
            let i = rng.below(out.len());
            let p = *rng.pick(&["/dev/null", "/nonexistent/in.npy", "/tmp", "/dev/zero"]);
            out[i] = if rng.chance(1, 4) { Input::Program } else { Input::Path(p.to_string()) };
            format!("input {i} -> {:?}", out[i])
        }
        _ if !out.is_empty() => {
            let i = rng.below(out.len());
            let bytes = fs::read(&inputs[i]).unwrap_or_default();
            let (b, what) = mutate_npy(rng, bytes);
            out[i] = Input::Bytes(b);
            format!("input {i}: {what}")
        }
        _ => "no inputs".into(),
    };
    (out, what)
}

/// `.npy` bytes mutated in the header (dtype, shape, order, lengths) or the data.
fn mutate_npy(rng: &mut Rng, mut b: Vec<u8>) -> (Vec<u8>, String) {
    let header_end = b.iter().position(|&c| c == b'\n').map_or(b.len(), |p| p + 1);
    let replace_in_header = |b: &mut Vec<u8>, from: &str, to: &str| -> bool {
        let Some(&i) = find_all(&b[..header_end.min(b.len())], from.as_bytes()).first() else { return false };
        splice(b, i, i + from.len(), to.as_bytes());
        true
    };
    match rng.below(9) {
        0 => {
            let descr = ["'>f4'", "'<f8'", "'|b1'", "'<c8'", "'|O'", "'<U3'", "'<f2'", "'>i8'", "'<V4'", "'x'", "'<u2'", "'|u1'"];
            let new = *rng.pick(&descr);
            let old = ["'<f4'", "'<i4'", "'<i8'", "'|b1'", "'<f8'", "'<u2'"].into_iter().find(|d| !find_all(&b, d.as_bytes()).is_empty());
            if let Some(old) = old {
                replace_in_header(&mut b, old, new);
            }
            (b, format!("descr -> {new}"))
        }
        1 => {
            let shapes = [
                "()",
                "(0,)",
                "(1,)",
                "(16, 8)",
                "(8, 16, 1)",
                "(-1,)",
                "(99999999999, 99999999)",
                "(18446744073709551615,)",
                "('a',)",
                "(8,",
            ];
            let new = *rng.pick(&shapes);
            if let (Some(s), Some(e)) = (find_all(&b[..header_end.min(b.len())], b"'shape': (").first(), find_all(&b, b"), ").first()) {
                let s = s + 9;
                if e + 1 > s {
                    splice(&mut b, s, e + 1, new.as_bytes());
                }
            }
            (b, format!("shape -> {new}"))
        }
        2 => {
            replace_in_header(&mut b, "False", "True");
            (b, "fortran_order -> True".into())
        }
        3 => {
            let at = rng.below(b.len());
            b.truncate(at);
            (b, format!("truncated to {at} bytes"))
        }
        4 => {
            let n = 1 + rng.below(64);
            b.extend((0..n).map(|_| rng.next_u64() as u8));
            (b, format!("{n} bytes appended"))
        }
        5 => {
            // Header length field (bytes 8..10 in version 1).
            if b.len() > 10 {
                let v = *rng.pick(&[0u16, 1, 0xffff, 0x8000, 118, 200]);
                b[8..10].copy_from_slice(&v.to_le_bytes());
                (b, format!("header length -> {v}"))
            } else {
                (b, "short file".into())
            }
        }
        6 => {
            if b.len() > 7 {
                let v = *rng.pick(&[0u8, 2, 3, 9, 255]);
                b[6] = v;
                (b, format!("version -> {v}"))
            } else {
                (b, "short file".into())
            }
        }
        7 => {
            let at = rng.below(header_end.max(1));
            if at < b.len() {
                b[at] = *rng.pick(FLIP_CHARS);
            }
            (b, format!("header byte {at} flipped"))
        }
        _ => (Vec::new(), "empty file".into()),
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The artifact header's length and checksum made right again (bytes 16..32).
pub fn fix_artifact_header(b: &mut [u8]) {
    if b.len() >= 32 {
        let len = (b.len() - 32) as u64;
        let sum = fnv1a(&b[32..]);
        b[16..24].copy_from_slice(&len.to_le_bytes());
        b[24..32].copy_from_slice(&sum.to_le_bytes());
    }
}

/// A compiled artifact mutated: its header, its bytes (caught by the
/// checksum), or the program data before the kernel code with the checksum
/// fixed (so the decoder and the program checks see it).
pub(super) fn mutate_artifact(rng: &mut Rng, mut b: Vec<u8>) -> (Vec<u8>, String) {
    let code = find_all(&b, b"\x7fELF").first().copied().unwrap_or(b.len());
    match rng.below(6) {
        0 => {
            let at = rng.below(b.len());
            b.truncate(at);
            (b, format!("truncated to {at} bytes"))
        }
        1 => {
            let at = rng.below(32.min(b.len()));
            b[at] ^= 1 << rng.below(8);
            (b, format!("header byte {at} flipped"))
        }
        2 => {
            let at = rng.below(b.len());
            b[at] = b[at].wrapping_add(1);
            (b, format!("byte {at} changed, checksum not fixed"))
        }
        3 => {
            b.extend_from_slice(b"trailing");
            (b, "bytes appended".into())
        }
        _ => {
            // Payload before the code: 1-3 bytes set to interesting values.
            let n = 1 + rng.below(3);
            let mut what = Vec::new();
            for _ in 0..n {
                if code > 32 {
                    let at = 32 + rng.below(code - 32);
                    let v = *rng.pick(&[0u8, 1, 0x7f, 0x80, 0xff, 0x10, 0x40]);
                    b[at] = if rng.chance(1, 2) { v } else { b[at].wrapping_add(1) };
                    what.push(at.to_string());
                }
            }
            if rng.chance(1, 4) && code > 40 {
                let at = 32 + rng.below(code - 32);
                b.remove(at);
                what.push(format!("removed {at}"));
            }
            fix_artifact_header(&mut b);
            (b, format!("payload bytes {} changed, checksum fixed", what.join(", ")))
        }
    }
}
