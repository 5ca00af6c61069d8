//! A mutation sweep over the StableHLO corpus: deterministic, seeded
//! mutations of the corpus programs (and of their `.npy` inputs and compiled
//! artifacts) run through the `floors` CLI and `floors-run`, each outcome
//! classified as ok, a located diagnostic, a usage error, an unlocated error,
//! a crash or a timeout. Crashers, unlocated errors and timeouts are kept as
//! files with a script that reproduces them.
//!
//! Std only: the same file is the library of `fuzz/sweep` (the
//! `floors-sweep` binary behind `scripts/fuzz.sh`) and a module of the
//! `tests/fuzz_sweep.rs` integration test.
#![allow(dead_code)]

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    fs,
    io::{self, Read},
    os::unix::process::{CommandExt, ExitStatusExt},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicUsize, Ordering},
        mpsc,
    },
    time::{Duration, Instant},
};

// ---------------------------------------------------------------------------
// Corpus

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

// ---------------------------------------------------------------------------
// Deterministic randomness

/// SplitMix64: tiny, fast, and the same sequence on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The generator of mutant `index` of sweep `seed` (independent of the others).
    pub fn for_mutant(seed: u64, index: usize, stream: u64) -> Self {
        let mut r = Rng(seed ^ 0x5eed_f100_u64.wrapping_mul(stream + 1));
        r.0 ^= r.next_u64().wrapping_add(index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }

    /// True with probability `num/den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    /// Index by weight.
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        let mut x = self.next_u64() % total.max(1);
        for (i, &w) in weights.iter().enumerate() {
            if x < u64::from(w) {
                return i;
            }
            x -= u64::from(w);
        }
        weights.len() - 1
    }
}

// ---------------------------------------------------------------------------
// Mutations of program text

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "8",
    "16",
    "127",
    "128",
    "255",
    "256",
    "1023",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "1.5",
    "-0.0",
    "1e308",
    "1e309",
    "1.0e-320",
    "0x7FC00000",
    "0x",
    "",
];

const DIMS: &[&str] = &["0", "1", "2", "3", "5", "7", "8", "16", "17", "1024", "65536", "2147483648", "9223372036854775807", "?", "-1"];

const ELEMENT_TYPES: &[&str] = &[
    "i1",
    "i2",
    "i4",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "ui1",
    "ui4",
    "ui8",
    "ui16",
    "ui32",
    "ui64",
    "si32",
    "f16",
    "bf16",
    "f32",
    "f64",
    "f80",
    "f128",
    "tf32",
    "f8E4M3FN",
    "f8E5M2",
    "f8E4M3FNUZ",
    "f8E5M2FNUZ",
    "f8E4M3B11FNUZ",
    "f8E3M4",
    "f8E4M3",
    "f8E8M0FNU",
    "f4E2M1FN",
    "f6E2M3FN",
    "f6E3M2FN",
    "index",
    "complex<f32>",
    "complex<f64>",
    "none",
    "i0",
];

/// Element types as they appear in the corpus (what `retype` looks for).
const CORPUS_TYPES: &[&str] = &["f32", "f16", "bf16", "f64", "i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64"];

const BINARY_OPS: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "power",
    "remainder",
    "atan2",
    "and",
    "or",
    "xor",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
];

const UNARY_OPS: &[&str] = &[
    "abs",
    "negate",
    "exponential",
    "exponential_minus_one",
    "log",
    "log_plus_one",
    "logistic",
    "sqrt",
    "rsqrt",
    "cbrt",
    "tanh",
    "sine",
    "cosine",
    "tan",
    "floor",
    "ceil",
    "round_nearest_afz",
    "round_nearest_even",
    "sign",
    "not",
    "popcnt",
    "count_leading_zeros",
    "is_finite",
    "convert",
    "bitcast_convert",
    "reshape",
    "transpose",
    "reverse",
];

const OTHER_OPS: &[&str] = &[
    "stablehlo.broadcast_in_dim",
    "stablehlo.broadcast",
    "stablehlo.reduce",
    "stablehlo.reduce_window",
    "stablehlo.dot_general",
    "stablehlo.dot",
    "stablehlo.convolution",
    "stablehlo.concatenate",
    "stablehlo.slice",
    "stablehlo.dynamic_slice",
    "stablehlo.dynamic_update_slice",
    "stablehlo.gather",
    "stablehlo.scatter",
    "stablehlo.select",
    "stablehlo.clamp",
    "stablehlo.compare",
    "stablehlo.constant",
    "stablehlo.iota",
    "stablehlo.pad",
    "stablehlo.sort",
    "stablehlo.while",
    "stablehlo.case",
    "stablehlo.if",
    "stablehlo.tuple",
    "stablehlo.get_tuple_element",
    "stablehlo.custom_call",
    "stablehlo.composite",
    "stablehlo.optimization_barrier",
    "stablehlo.rng_bit_generator",
    "stablehlo.reduce_precision",
    "stablehlo.batch_norm_inference",
    "stablehlo.select_and_scatter",
    "stablehlo.return",
    "stablehlo.get_dimension_size",
    "stablehlo.fft",
    "stablehlo.all_reduce",
    "stablehlo.nonexistent",
    "chlo.erf",
    "chlo.erf_inv",
    "chlo.lgamma",
    "chlo.digamma",
    "chlo.top_k",
    "chlo.broadcast_add",
    "chlo.constant_like",
    "chlo.bessel_i1e",
    "chlo.nonexistent",
    "func.call",
    "func.return",
    "arith.addf",
    "arith.constant",
    "tensor.empty",
    "linalg.generic",
    "floors.fusion",
    "floors.yield",
    "builtin.module",
    "scf.for",
    "mhlo.add",
];

const ENUMS: &[&[&str]] = &[
    &["EQ", "NE", "GE", "GT", "LE", "LT"],
    &["FLOAT", "SIGNED", "UNSIGNED", "TOTALORDER", "NOTYPE"],
    &["DEFAULT", "HIGH", "HIGHEST"],
    &["true", "false"],
    &["public", "private", "nested"],
];

const ATTR_NAMES: &[&str] = &[
    "dims",
    "dimensions",
    "contracting_dims",
    "batching_dims",
    "start_indices",
    "limit_indices",
    "strides",
    "sizes",
    "permutation",
    "broadcast_dimensions",
    "iota_dimension",
    "edge_padding_low",
    "edge_padding_high",
    "interior_padding",
    "slice_sizes",
    "offset_dims",
    "collapsed_slice_dims",
    "start_index_map",
    "index_vector_dim",
    "indices_are_sorted",
    "dimension",
    "is_stable",
    "comparison_direction",
    "window_dimensions",
    "window_strides",
    "padding",
    "mhlo.num_partitions",
    "jax.result_info",
    "call_target_name",
    "backend_config",
];

const DENSE: &[&str] = &[
    "0",
    "1",
    "-1",
    "true",
    "false",
    "0.5",
    "1.0e+40",
    "-3.4e+38",
    "0x7FC00000",
    "0xFF800000",
    "0xFFFFFFFFFFFFFFFF",
    "\"0xDEADBEEF\"",
    "\"0x\"",
    "\"abc\"",
    "[]",
    "[1, 2, 3]",
    "[[1, 2], [3, 4]]",
    "[1.0, 2.0]",
    "(1.0, 2.0)",
    "",
    "255",
    "-129",
    "65504.0",
    "nan",
];

const BAD_BYTES: &[&[u8]] = &[
    b"\0",
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b"\xf4\x90\x80\x80",
    b"\xe2\x80\xae",
    b"\xef\xbb\xbf",
    b"\r",
    b"\t",
    b"\x1b[31m",
    b"\x7f",
];

const FLIP_CHARS: &[u8] = b"{}()[]<>,:;%@#^\"=x0123456789-+.!?\\/ \nabzAZ_$'`*";

const LOCATIONS: &[&str] = &[
    "loc(\"prog.py\":12:5)",
    "loc(fused[\"a.py\":1:2, \"b.py\":3:4])",
    "loc(callsite(\"f\"(\"a.py\":1:2) at \"b.py\":3:4))",
    "loc(\"jit(f)/add\"(\"c.py\":7:1))",
    "loc(fused<\"meta\">[\"d.py\":2:2])",
];

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Start offsets of `needle` in `hay`.
fn find_all(hay: &[u8], needle: &[u8]) -> Vec<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return Vec::new();
    }
    (0..=hay.len() - needle.len()).filter(|&i| &hay[i..i + needle.len()] == needle).collect()
}

/// Occurrences of the word `w` (not inside a longer identifier).
fn find_words(hay: &[u8], w: &str) -> Vec<usize> {
    find_all(hay, w.as_bytes())
        .into_iter()
        .filter(|&i| (i == 0 || !is_word(hay[i - 1])) && hay.get(i + w.len()).is_none_or(|&b| !is_word(b)))
        .collect()
}

/// Element-type occurrences of `t`: after `x`, `<`, `:`, space, `(` or `,`
/// and not followed by an identifier character.
fn find_type(hay: &[u8], t: &str) -> Vec<usize> {
    find_all(hay, t.as_bytes())
        .into_iter()
        .filter(|&i| {
            i > 0
                && matches!(hay[i - 1], b'x' | b'<' | b':' | b' ' | b'(' | b',')
                && (hay[i - 1] != b'x' || i >= 2 && (hay[i - 2].is_ascii_digit() || hay[i - 2] == b'?'))
                && hay.get(i + t.len()).is_none_or(|&b| !is_word(b))
        })
        .collect()
}

/// The index just after the `>` matching the `<` at `open` (nested `<>` counted).
fn match_angle(hay: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in hay.iter().enumerate().skip(open) {
        match b {
            b'<' => depth += 1,
            b'>' if i > 0 && hay[i - 1] == b'-' => {}
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'\n' => return None,
            _ => {}
        }
    }
    None
}

fn splice(text: &mut Vec<u8>, start: usize, end: usize, with: &[u8]) {
    text.splice(start..end, with.iter().copied());
}

fn split_lines(text: &[u8]) -> Vec<Vec<u8>> {
    text.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

fn join_lines(lines: &[Vec<u8>]) -> Vec<u8> {
    lines.join(&b'\n')
}

fn nested(open: &str, inner: &str, close: &str, depth: usize) -> String {
    let mut s = String::with_capacity((open.len() + close.len()) * depth + inner.len());
    for _ in 0..depth {
        s.push_str(open);
    }
    s.push_str(inner);
    for _ in 0..depth {
        s.push_str(close);
    }
    s
}

/// Number tokens: digit runs not inside identifiers, with a sign,
/// decimals and exponent.
fn number_tokens(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_digit() && (i == 0 || !(is_word(text[i - 1]) || text[i - 1] == b'%' || text[i - 1] == b'#')) {
            let start = if i > 0 && text[i - 1] == b'-' { i - 1 } else { i };
            let mut j = i;
            while j < text.len() {
                let b = text[j];
                let exp_sign = (b == b'+' || b == b'-') && matches!(text[j - 1], b'e' | b'E');
                if b.is_ascii_hexdigit() || b == b'.' || b == b'x' && j == i + 1 || exp_sign {
                    j += 1;
                } else {
                    break;
                }
            }
            out.push((start, j));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// `[1, 2]` and `array<i64: 1, 2>` integer lists: (start, end) of the items.
fn int_lists(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let item = |b: u8| b.is_ascii_digit() || matches!(b, b',' | b' ' | b'-');
    for (i, &b) in text.iter().enumerate() {
        let start = if b == b'[' {
            i + 1
        } else if text[i..].starts_with(b"array<i64:") || text[i..].starts_with(b"array<i32:") {
            i + 10
        } else {
            continue;
        };
        let mut j = start;
        while j < text.len() && item(text[j]) {
            j += 1;
        }
        if j < text.len() && (text[j] == b']' || text[j] == b'>') {
            out.push((start, j));
        }
    }
    out
}

/// `%name` tokens.
fn ssa_tokens(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, &b) in text.iter().enumerate() {
        if b == b'%' {
            let mut j = i + 1;
            while j < text.len() && (is_word(text[j]) || text[j] == b'#') {
                j += 1;
            }
            if j > i + 1 {
                out.push((i, j));
            }
        }
    }
    out
}

/// Op-name tokens `stablehlo.x`, `chlo.x`, `func.x`: (start, end).
fn op_tokens(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for prefix in ["stablehlo.", "chlo.", "func."] {
        for i in find_all(text, prefix.as_bytes()) {
            if i > 0 && (is_word(text[i - 1]) || text[i - 1] == b'.') {
                continue;
            }
            let mut j = i + prefix.len();
            while j < text.len() && is_word(text[j]) {
                j += 1;
            }
            if j > i + prefix.len() {
                out.push((i, j));
            }
        }
    }
    out.sort_unstable();
    out
}

/// What a mutator may do; the sweep picks depths from `depths`.
#[derive(Clone, Debug)]
pub struct MutateOptions {
    pub depths: Vec<usize>,
}

impl Default for MutateOptions {
    fn default() -> Self {
        MutateOptions { depths: vec![4, 32, 200, 500, 1000, 1025, 1500, 3000] }
    }
}

const MUTATORS: &[(&str, u32)] = &[
    ("delete-lines", 8),
    ("duplicate-line", 5),
    ("swap-lines", 5),
    ("move-line", 3),
    ("flip-byte", 8),
    ("insert-delete-byte", 4),
    ("number", 10),
    ("shape", 10),
    ("type", 6),
    ("retype-all", 6),
    ("op-name", 10),
    ("enum", 5),
    ("attr-name", 3),
    ("int-list", 6),
    ("dense", 5),
    ("truncate", 4),
    ("deep", 4),
    ("splice", 6),
    ("bad-bytes", 3),
    ("ssa-name", 6),
    ("symbol", 2),
    ("location", 3),
    ("bracket", 3),
];

/// Applies one random mutation to `text`; returns what it did.
pub fn mutate_once(rng: &mut Rng, text: &mut Vec<u8>, seeds: &[Seed], opts: &MutateOptions) -> String {
    let weights: Vec<u32> = MUTATORS.iter().map(|m| m.1).collect();
    let kind = MUTATORS[rng.weighted(&weights)].0;
    let what = match kind {
        "delete-lines" => Some(mutate_delete_lines(rng, text)),
        "duplicate-line" => Some(mutate_duplicate_line(rng, text)),
        "swap-lines" => Some(mutate_swap_lines(rng, text)),
        "move-line" => Some(mutate_move_line(rng, text)),
        "flip-byte" => Some(mutate_flip_byte(rng, text)),
        "insert-delete-byte" => Some(mutate_insert_delete_byte(rng, text)),
        "number" => mutate_number(rng, text),
        "shape" => mutate_shape(rng, text),
        "type" | "retype-all" => mutate_retype(kind, rng, text),
        "op-name" => mutate_op_name(rng, text),
        "enum" => mutate_enum_value(rng, text),
        "attr-name" => mutate_attr_name(rng, text),
        "int-list" => mutate_int_list(rng, text),
        "dense" => mutate_dense(rng, text),
        "truncate" => Some(mutate_truncate(rng, text)),
        "deep" => Some(deep(rng, text, opts)),
        "splice" => Some(mutate_splice_lines(rng, text, seeds)),
        "bad-bytes" => Some(mutate_bad_bytes(rng, text)),
        "ssa-name" => mutate_ssa_name(rng, text),
        "symbol" => mutate_symbol(rng, text),
        "location" => mutate_location(rng, text),
        // "bracket"
        _ => mutate_bracket(rng, text),
    };
    match what {
        Some(what) => format!("{kind}: {what}"),
        // Nothing of the kind in the text: another mutation.
        None => mutate_once(rng, text, seeds, opts),
    }
}

/// Deletes one to three lines.
fn mutate_delete_lines(rng: &mut Rng, text: &mut Vec<u8>) -> String {
    let mut lines = split_lines(text);
    let at = rng.below(lines.len());
    let n = (1 + rng.below(3)).min(lines.len() - at);
    lines.drain(at..at + n);
    *text = join_lines(&lines);
    format!("deleted lines {}..{}", at + 1, at + n)
}

/// Repeats a line one to three times.
fn mutate_duplicate_line(rng: &mut Rng, text: &mut Vec<u8>) -> String {
    let mut lines = split_lines(text);
    let at = rng.below(lines.len());
    let times = 1 + rng.below(3);
    for _ in 0..times {
        lines.insert(at, lines[at].clone());
    }
    *text = join_lines(&lines);
    format!("duplicated line {} x{times}", at + 1)
}

/// Swaps two lines.
fn mutate_swap_lines(rng: &mut Rng, text: &mut Vec<u8>) -> String {
    let mut lines = split_lines(text);
    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
    lines.swap(a, b);
    *text = join_lines(&lines);
    format!("swapped lines {} and {}", a + 1, b + 1)
}

/// Moves a line elsewhere.
fn mutate_move_line(rng: &mut Rng, text: &mut Vec<u8>) -> String {
    let mut lines = split_lines(text);
    let a = rng.below(lines.len());
    let l = lines.remove(a);
    let b = rng.below(lines.len() + 1);
    lines.insert(b, l);
    *text = join_lines(&lines);
    format!("moved line {} to {}", a + 1, b + 1)
}

/// Overwrites a byte with a syntax character.
fn mutate_flip_byte(rng: &mut Rng, text: &mut Vec<u8>) -> String {
    let at = rng.below(text.len());
    let c = *rng.pick(FLIP_CHARS);
    if let Some(b) = text.get_mut(at) {
        *b = c;
    }
    format!("byte {at} := {:?}", c as char)
}

/// Deletes a byte or inserts a syntax character.
fn mutate_insert_delete_byte(rng: &mut Rng, text: &mut Vec<u8>) -> String {
    let at = rng.below(text.len());
    if rng.chance(1, 2) && !text.is_empty() {
        let b = text.remove(at);
        format!("deleted byte {at} {:?}", b as char)
    } else {
        let c = *rng.pick(FLIP_CHARS);
        text.insert(at, c);
        format!("inserted {:?} at {at}", c as char)
    }
}

/// Replaces a number with an interesting one.
/// `None` when the text has nothing to mutate.
fn mutate_number(rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let toks = number_tokens(text);
    if toks.is_empty() {
        return None;
    }
    let (s, e) = *rng.pick(&toks);
    let new = if rng.chance(1, 4) { rng.below(100).to_string() } else { rng.pick(NUMBERS).to_string() };
    let old = String::from_utf8_lossy(&text[s..e]).into_owned();
    splice(text, s, e, new.as_bytes());
    Some(format!("number {old} -> {new}"))
}

/// Changes, drops, inserts or swaps a dim of a `tensor<...>`.
/// `None` when the text has nothing to mutate.
fn mutate_shape(rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let opens = find_all(text, b"tensor<");
    if opens.is_empty() {
        return None;
    }
    let open = *rng.pick(&opens) + 6;
    let Some(close) = match_angle(text, open) else { return Some("unmatched".into()) };
    let inner = String::from_utf8_lossy(&text[open + 1..close - 1]).into_owned();
    // Leading `NxMx` dims, then the element type.
    let mut dims: Vec<String> = Vec::new();
    let mut rest = inner.as_str();
    loop {
        let n = rest.find('x').unwrap_or(0);
        let tok = &rest[..n];
        if n > 0 && (tok.chars().all(|c| c.is_ascii_digit()) || tok == "?") {
            dims.push(tok.to_string());
            rest = &rest[n + 1..];
        } else {
            break;
        }
    }
    let elem = rest.to_string();
    let how = rng.below(5);
    match how {
        0 if !dims.is_empty() => {
            let i = rng.below(dims.len());
            dims[i] = rng.pick(DIMS).to_string();
        }
        1 if !dims.is_empty() => {
            dims.remove(rng.below(dims.len()));
        }
        2 => {
            let at = rng.below(dims.len() + 1);
            dims.insert(at, rng.pick(DIMS).to_string());
        }
        3 if dims.len() > 1 => {
            let (a, b) = (rng.below(dims.len()), rng.below(dims.len()));
            dims.swap(a, b);
        }
        _ => {
            if dims.is_empty() {
                dims.push(rng.pick(DIMS).to_string());
            } else {
                let i = rng.below(dims.len());
                dims[i] = rng.pick(DIMS).to_string();
            }
        }
    }
    let mut new = String::new();
    for d in &dims {
        new.push_str(d);
        new.push('x');
    }
    new.push_str(&elem);
    splice(text, open + 1, close - 1, new.as_bytes());
    Some(format!("tensor<{inner}> -> tensor<{new}>"))
}

/// Replaces an element type by another, in one place (`type`) or all (`retype-all`).
/// `None` when the text has nothing to mutate.
fn mutate_retype(kind: &str, rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let present: Vec<&str> = CORPUS_TYPES.iter().copied().filter(|t| !find_type(text, t).is_empty()).collect();
    if present.is_empty() {
        return None;
    }
    let from = *rng.pick(&present);
    let to = *rng.pick(ELEMENT_TYPES);
    let mut at = find_type(text, from);
    if kind == "type" {
        at = vec![*rng.pick(&at)];
    }
    for &i in at.iter().rev() {
        splice(text, i, i + from.len(), to.as_bytes());
    }
    Some(format!("{kind} {from} -> {to} ({} places)", at.len()))
}

/// Renames an op (binary to binary, unary to unary, mostly).
/// `None` when the text has nothing to mutate.
fn mutate_op_name(rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let toks = op_tokens(text);
    if toks.is_empty() {
        return None;
    }
    let (s, e) = *rng.pick(&toks);
    let old = String::from_utf8_lossy(&text[s..e]).into_owned();
    let name = old.split_once('.').map_or("", |x| x.1);
    let new = if BINARY_OPS.contains(&name) && rng.chance(2, 3) {
        format!("stablehlo.{}", rng.pick(BINARY_OPS))
    } else if UNARY_OPS.contains(&name) && rng.chance(2, 3) {
        format!("stablehlo.{}", rng.pick(UNARY_OPS))
    } else if rng.chance(1, 3) {
        let ops = if rng.chance(1, 2) { BINARY_OPS } else { UNARY_OPS };
        format!("stablehlo.{}", rng.pick(ops))
    } else {
        rng.pick(OTHER_OPS).to_string()
    };
    splice(text, s, e, new.as_bytes());
    Some(format!("op {old} -> {new}"))
}

/// Replaces an enum value by another of its group.
/// `None` when the text has nothing to mutate.
fn mutate_enum_value(rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let mut found = Vec::new();
    for (g, group) in ENUMS.iter().enumerate() {
        for w in group.iter() {
            for i in find_words(text, w) {
                found.push((g, i, w.len()));
            }
        }
    }
    if found.is_empty() {
        return None;
    }
    let (g, i, n) = *rng.pick(&found);
    let new = *rng.pick(ENUMS[g]);
    let old = String::from_utf8_lossy(&text[i..i + n]).into_owned();
    splice(text, i, i + n, new.as_bytes());
    Some(format!("enum {old} -> {new}"))
}

/// Renames an attribute.
/// `None` when the text has nothing to mutate.
fn mutate_attr_name(rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let mut found = Vec::new();
    for w in ATTR_NAMES {
        for i in find_words(text, w) {
            found.push((i, w.len()));
        }
    }
    if found.is_empty() {
        return None;
    }
    let (i, n) = *rng.pick(&found);
    let new = *rng.pick(ATTR_NAMES);
    let old = String::from_utf8_lossy(&text[i..i + n]).into_owned();
    splice(text, i, i + n, new.as_bytes());
    Some(format!("attribute name {old} -> {new}"))
}

/// Empties, reorders, shortens, extends or changes an integer list.
/// `None` when the text has nothing to mutate.
fn mutate_int_list(rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let lists = int_lists(text);
    if lists.is_empty() {
        return None;
    }
    let (s, e) = *rng.pick(&lists);
    let old = String::from_utf8_lossy(&text[s..e]).into_owned();
    let mut items: Vec<String> = old.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect();
    match rng.below(6) {
        0 => items.clear(),
        1 if items.len() > 1 => {
            let (a, b) = (rng.below(items.len()), rng.below(items.len()));
            items.swap(a, b);
        }
        2 if !items.is_empty() => {
            items.remove(rng.below(items.len()));
        }
        3 => {
            let at = rng.below(items.len() + 1);
            items.insert(at, rng.pick(&["0", "1", "2", "3", "4", "7", "-1", "64", "4294967296"]).to_string());
        }
        4 if !items.is_empty() => {
            let i = rng.below(items.len());
            items[i] = rng.pick(&["-1", "-5", "9223372036854775807", "100", "2", "0"]).to_string();
        }
        _ => {
            if let Some(x) = items.first().cloned() {
                items.push(x);
            }
        }
    }
    let new = items.join(", ");
    splice(text, s, e, new.as_bytes());
    Some(format!("list [{old}] -> [{new}]"))
}

/// Replaces the inside of a `dense<...>`.
/// `None` when the text has nothing to mutate.
fn mutate_dense(rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let opens = find_all(text, b"dense<");
    if opens.is_empty() {
        return None;
    }
    let open = *rng.pick(&opens) + 5;
    let Some(close) = match_angle(text, open) else { return Some("unmatched".into()) };
    let old = String::from_utf8_lossy(&text[open + 1..close - 1]).into_owned();
    let new = *rng.pick(DENSE);
    splice(text, open + 1, close - 1, new.as_bytes());
    Some(format!("dense<{old}> -> dense<{new}>"))
}

/// Cuts the text short.
fn mutate_truncate(rng: &mut Rng, text: &mut Vec<u8>) -> String {
    let at = rng.below(text.len());
    text.truncate(at);
    format!("truncated to {at} bytes")
}

/// Copies one to eight lines of another corpus program in (maybe over a line).
fn mutate_splice_lines(rng: &mut Rng, text: &mut Vec<u8>, seeds: &[Seed]) -> String {
    let other = &rng.pick(seeds).text;
    let olines: Vec<&str> = other.lines().collect();
    let from = rng.below(olines.len());
    let n = (1 + rng.below(8)).min(olines.len() - from);
    let mut lines = split_lines(text);
    let at = rng.below(lines.len() + 1);
    let replace = rng.chance(1, 3) && at < lines.len();
    if replace {
        lines.remove(at);
    }
    for (k, l) in olines[from..from + n].iter().enumerate() {
        lines.insert(at + k, l.as_bytes().to_vec());
    }
    *text = join_lines(&lines);
    format!("spliced {n} lines from another program at line {}{}", at + 1, if replace { " (replacing it)" } else { "" })
}

/// Inserts bytes that are not text (or not UTF-8).
fn mutate_bad_bytes(rng: &mut Rng, text: &mut Vec<u8>) -> String {
    let bytes = *rng.pick(BAD_BYTES);
    let at = if rng.chance(1, 4) { 0 } else { rng.below(text.len() + 1) };
    splice(text, at, at, bytes);
    format!("inserted bytes {bytes:?} at {at}")
}

/// Renames a use of a value: to a name that is not defined, or another value.
/// `None` when the text has nothing to mutate.
fn mutate_ssa_name(rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let toks = ssa_tokens(text);
    if toks.is_empty() {
        return None;
    }
    let (s, e) = *rng.pick(&toks);
    let old = String::from_utf8_lossy(&text[s..e]).into_owned();
    let new = if rng.chance(1, 3) {
        rng.pick(&["%undefined", "%999", "%arg99", "%0#7", "%iterArg_9", "%", "%0#-1"]).to_string()
    } else {
        let (a, b) = *rng.pick(&toks);
        String::from_utf8_lossy(&text[a..b]).into_owned()
    };
    splice(text, s, e, new.as_bytes());
    Some(format!("value {old} -> {new}"))
}

/// Renames a symbol reference.
/// `None` when the text has nothing to mutate.
fn mutate_symbol(rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let at = find_all(text, b"@");
    if at.is_empty() {
        return None;
    }
    let s = *rng.pick(&at);
    let mut e = s + 1;
    while e < text.len() && is_word(text[e]) {
        e += 1;
    }
    let old = String::from_utf8_lossy(&text[s..e]).into_owned();
    let new = *rng.pick(&["@main", "@missing", "@", "@main2", "@\"quoted name\"", "@closed_call"]);
    splice(text, s, e, new.as_bytes());
    Some(format!("symbol {old} -> {new}"))
}

/// Gives an op a (maybe malformed) location.
/// `None` when the text has nothing to mutate.
fn mutate_location(rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let lines = split_lines(text);
    let candidates: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let l = String::from_utf8_lossy(&lines[i]);
            l.contains("stablehlo.") && !l.trim_end().ends_with('{') && !l.trim_end().ends_with('(')
        })
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let mut lines = lines;
    let i = *rng.pick(&candidates);
    let loc = *rng.pick(LOCATIONS);
    lines[i].extend_from_slice(format!(" {loc}").as_bytes());
    *text = join_lines(&lines);
    Some(format!("line {} gets {loc}", i + 1))
}

/// Drops one bracket.
/// `None` when the text has nothing to mutate.
fn mutate_bracket(rng: &mut Rng, text: &mut Vec<u8>) -> Option<String> {
    let at: Vec<usize> = (0..text.len()).filter(|&i| b"{}()[]<>".contains(&text[i])).collect();
    if at.is_empty() {
        return None;
    }
    let i = *rng.pick(&at);
    let b = text.remove(i);
    Some(format!("deleted bracket {:?} at {i}", b as char))
}

/// Deep nesting: lists, dense literals, tuple types, dictionaries, parens,
/// or a generated program of nested case/while regions or a call chain.
fn deep(rng: &mut Rng, text: &mut Vec<u8>, opts: &MutateOptions) -> String {
    let depth = *rng.pick(&opts.depths);
    match rng.below(8) {
        0 => {
            let attr = format!("floors.deep = {}, ", nested("[", "1", "]", depth));
            match find_all(text, b"attributes {").first() {
                Some(&i) => splice(text, i + 12, i + 12, attr.as_bytes()),
                None => splice(text, 0, 0, format!("// {attr}\n").as_bytes()),
            }
            format!("list attribute {depth} deep")
        }
        1 => {
            let opens = find_all(text, b"dense<");
            let Some(&open) = (!opens.is_empty()).then(|| rng.pick(&opens)) else { return "no dense literal".into() };
            let Some(close) = match_angle(text, open + 5) else { return "dense: unmatched".into() };
            splice(text, open + 6, close - 1, nested("[", "1", "]", depth).as_bytes());
            format!("dense literal {depth} deep")
        }
        2 => {
            let opens = find_all(text, b"tensor<");
            let Some(&open) = (!opens.is_empty()).then(|| rng.pick(&opens)) else { return "no tensor type".into() };
            let Some(close) = match_angle(text, open + 6) else { return "tensor: unmatched".into() };
            let t = String::from_utf8_lossy(&text[open..close]).into_owned();
            splice(text, open, close, nested("tuple<", &t, ">", depth).as_bytes());
            format!("tuple type {depth} deep")
        }
        3 => {
            let attr = format!("floors.deep = {}, ", nested("{a = ", "1", "}", depth));
            match find_all(text, b"attributes {").first() {
                Some(&i) => splice(text, i + 12, i + 12, attr.as_bytes()),
                None => splice(text, 0, 0, attr.as_bytes()),
            }
            format!("dictionary attribute {depth} deep")
        }
        4 => {
            let at = rng.below(text.len() + 1);
            let open = *rng.pick(&["(", "{", "[", "<", "tensor<"]);
            splice(text, at, at, open.repeat(depth).as_bytes());
            format!("{depth} x {open:?} at {at}")
        }
        5 => {
            *text = deep_case_program(depth).into_bytes();
            format!("generated: case regions {depth} deep")
        }
        6 => {
            *text = deep_while_program(depth).into_bytes();
            format!("generated: while regions {depth} deep")
        }
        _ => {
            *text = call_chain_program(depth).into_bytes();
            format!("generated: call chain {depth} long")
        }
    }
}

/// `@main` with `depth` nested `stablehlo.case` regions (generic form).
pub fn deep_case_program(depth: usize) -> String {
    let mut s =
        String::from("module @jit_deep_case {\n  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<f32>) -> tensor<f32> {\n");
    for k in 0..depth {
        let _ = writeln!(s, "%r{k} = \"stablehlo.case\"(%arg0) ({{");
    }
    s.push_str("\"stablehlo.return\"(%arg1) : (tensor<f32>) -> ()\n");
    for k in (0..depth).rev() {
        let _ = writeln!(s, "}}) : (tensor<i32>) -> tensor<f32>");
        if k > 0 {
            let _ = writeln!(s, "\"stablehlo.return\"(%r{k}) : (tensor<f32>) -> ()");
        }
    }
    s.push_str("    return %r0 : tensor<f32>\n  }\n}\n");
    s
}

/// `@main` with `depth` nested `stablehlo.while` loops (generic form); the
/// conditions are false, so it also runs.
pub fn deep_while_program(depth: usize) -> String {
    let mut s = String::from("module @jit_deep_while {\n  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {\n");
    let mut input = "%arg0".to_string();
    for k in 0..depth {
        let _ = writeln!(
            s,
            "%w{k} = \"stablehlo.while\"({input}) ({{\n^bb0(%c{k}: tensor<8x16xf32>):\n  %z{k} = stablehlo.constant dense<false> : tensor<i1>\n  \"stablehlo.return\"(%z{k}) : (tensor<i1>) -> ()\n}}, {{\n^bb0(%b{k}: tensor<8x16xf32>):"
        );
        input = format!("%b{k}");
    }
    let _ = writeln!(s, "\"stablehlo.return\"({input}) : (tensor<8x16xf32>) -> ()");
    for k in (0..depth).rev() {
        let _ = writeln!(s, "}}) : (tensor<8x16xf32>) -> tensor<8x16xf32>");
        if k > 0 {
            let _ = writeln!(s, "\"stablehlo.return\"(%w{k}) : (tensor<8x16xf32>) -> ()");
        }
    }
    s.push_str("    return %w0 : tensor<8x16xf32>\n  }\n}\n");
    s
}

/// `@main` calling `@f1`, which calls `@f2`, ... `depth` private functions.
pub fn call_chain_program(depth: usize) -> String {
    let mut s = String::from(
        "module @jit_call_chain {\n  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {\n    %0 = call @f1(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>\n    return %0 : tensor<8x16xf32>\n  }\n",
    );
    for k in 1..=depth {
        let body = if k == depth {
            "%0 = stablehlo.add %arg0, %arg0 : tensor<8x16xf32>".to_string()
        } else {
            format!("%0 = call @f{}(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>", k + 1)
        };
        let _ = writeln!(
            s,
            "  func.func private @f{k}(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {{\n    {body}\n    return %0 : tensor<8x16xf32>\n  }}"
        );
    }
    s.push_str("}\n");
    s
}

// ---------------------------------------------------------------------------
// Mutations of inputs and artifacts

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
fn mutate_inputs(rng: &mut Rng, inputs: &[PathBuf]) -> (Vec<Input>, String) {
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
fn mutate_artifact(rng: &mut Rng, mut b: Vec<u8>) -> (Vec<u8>, String) {
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

// ---------------------------------------------------------------------------
// Running and classifying

/// What ran on a mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    /// `floors compile P --emit llvm`
    Llvm,
    /// `floors compile P --emit fused`
    Fused,
    /// `floors run P --input ...`
    Run,
    /// `floors-run A.floors --input ...` on a mutated artifact
    Artifact,
}

pub const MODES: [Mode; 4] = [Mode::Llvm, Mode::Fused, Mode::Run, Mode::Artifact];

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Llvm => "llvm",
            Mode::Fused => "fused",
            Mode::Run => "run",
            Mode::Artifact => "artifact",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Ok,
    Located,
    Usage,
    Unlocated,
    Crash,
    Timeout,
    /// Past the timeout while executing (kernels loaded, CPU busy): a
    /// mutated program whose loop runs long, not a hang of floors.
    LongRun,
}

pub const CLASSES: [Class; 7] = [Class::Ok, Class::Located, Class::Usage, Class::Unlocated, Class::Crash, Class::Timeout, Class::LongRun];

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Ok => "ok",
            Class::Located => "located",
            Class::Usage => "usage",
            Class::Unlocated => "unlocated",
            Class::Crash => "crash",
            Class::Timeout => "timeout",
            Class::LongRun => "long-run",
        }
    }

    /// Outcomes worth keeping as files.
    pub fn kept(self) -> bool {
        matches!(self, Class::Usage | Class::Unlocated | Class::Crash | Class::Timeout | Class::LongRun)
    }
}

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
    /// Killed at the timeout; whether the kernels were loaded (executing)
    /// and whether it was using CPU then.
    Timeout {
        executing: bool,
        busy: bool,
    },
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exit::Code(c) => write!(f, "exit {c}"),
            Exit::Signal(s) => write!(f, "signal {s}"),
            Exit::Timeout { executing, busy } => write!(
                f,
                "timeout ({}, {})",
                if *executing { "executing" } else { "compiling or loading" },
                if *busy { "busy" } else { "idle" }
            ),
        }
    }
}

/// What a crash prints: panics, stack overflows, aborts in MLIR/LLVM,
/// sanitizer reports, allocation failures.
const CRASH_MARKERS: &[&str] = &[
    "panicked",
    "has overflowed its stack",
    "LLVM ERROR",
    "Assertion `",
    "Assertion failed",
    "UNREACHABLE executed",
    "Stack dump:",
    "PLEASE submit a bug report",
    "AddressSanitizer",
    "LeakSanitizer",
    "fatal runtime error",
    "memory allocation of",
    "Segmentation fault",
    "terminate called",
    "double free",
    "free(): invalid",
    "corrupted size",
];

/// Replaces digit runs by `N` and known paths by `<file>`; cut to 200 chars.
pub fn normalize(line: &str, paths: &[String]) -> String {
    let mut l = line.to_string();
    for p in paths {
        if !p.is_empty() {
            l = l.replace(p.as_str(), "<file>");
        }
    }
    let mut out = String::new();
    let mut prev_digit = false;
    for c in l.chars() {
        if c.is_ascii_digit() {
            if !prev_digit {
                out.push('N');
            }
            prev_digit = true;
        } else {
            out.push(c);
            prev_digit = false;
        }
    }
    out.chars().take(200).collect()
}

/// The part of an error line before `error:` when the line is a diagnostic
/// (`error:` at its start or after `: `), else None.
fn error_prefix(line: &str) -> Option<&str> {
    let i = line.find("error:")?;
    let prefix = &line[..i];
    if prefix.is_empty() {
        return Some("");
    }
    prefix.strip_suffix(": ")
}

/// `file:line:col` with a real file.
fn is_file_line_col(loc: &str) -> bool {
    let mut parts = loc.rsplitn(3, ':');
    let (Some(col), Some(line), Some(file)) = (parts.next(), parts.next(), parts.next()) else { return false };
    let num = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    num(col) && num(line) && !file.is_empty() && !file.contains("<unknown>") && !file.contains("loc(")
}

/// Classifies one run from its exit and stderr. `paths` are the files the
/// run was given (program, inputs, artifact): an error line that names one
/// of them is located, as is one that starts with `file:line:col:`.
pub fn classify(exit: Exit, stderr: &str, paths: &[String]) -> (Class, String) {
    // A killed run's stderr is cut short: it is a timeout whatever it says.
    if !matches!(exit, Exit::Timeout { .. })
        && let Some(line) = stderr.lines().find(|l| CRASH_MARKERS.iter().any(|m| l.contains(m)))
    {
        return (Class::Crash, format!("{exit}: {}", normalize(line.trim(), paths)));
    }
    match exit {
        Exit::Signal(s) => {
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
            (Class::Crash, format!("signal {s}: {}", normalize(last.trim(), paths)))
        }
        Exit::Code(0) => (Class::Ok, String::new()),
        Exit::Code(2) => {
            let first = stderr.lines().next().unwrap_or("");
            (Class::Usage, normalize(first, paths))
        }
        Exit::Code(1) => {
            let mut any = false;
            for line in stderr.lines() {
                let Some(prefix) = error_prefix(line) else { continue };
                any = true;
                let names_file = paths.iter().any(|p| !p.is_empty() && line.contains(p.as_str()));
                if !(is_file_line_col(prefix) || names_file) {
                    return (Class::Unlocated, normalize(line, paths));
                }
            }
            if any {
                (Class::Located, String::new())
            } else {
                let first = stderr.lines().next().unwrap_or("");
                (Class::Unlocated, format!("exit 1 without an error line: {}", normalize(first, paths)))
            }
        }
        Exit::Code(c) => {
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
            (Class::Crash, format!("exit {c}: {}", normalize(last.trim(), paths)))
        }
        Exit::Timeout { executing, busy } => {
            if executing && busy {
                (Class::LongRun, exit.to_string())
            } else {
                (Class::Timeout, exit.to_string())
            }
        }
    }
}

/// Runs `argv` with a timeout and an address-space limit, stdin closed,
/// stdout discarded, stderr (first 1 MiB) returned; on timeout the whole
/// process group is killed.
pub fn run_limited(argv: &[String], timeout: Duration, mem_limit_mb: u64, stderr_file: &Path) -> (Exit, String, Duration) {
    let mut cmd = if mem_limit_mb > 0 {
        let mut c = Command::new("/bin/sh");
        c.arg("-c").arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", mem_limit_mb * 1024)).args(argv);
        c
    } else {
        let mut c = Command::new(&argv[0]);
        c.args(&argv[1..]);
        c
    };
    cmd.env_remove("FLOORS_FLAGS").env_remove("RUST_LOG").env("RUST_BACKTRACE", "1");
    cmd.process_group(0);
    let err = match fs::File::create(stderr_file) {
        Ok(f) => f,
        Err(e) => return (Exit::Code(-1), format!("cannot create {}: {e}", stderr_file.display()), Duration::ZERO),
    };
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(err);
    let start = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return (Exit::Code(-1), format!("cannot start {}: {e}", argv[0]), Duration::ZERO),
    };
    let exit = loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                break match (status.code(), status.signal()) {
                    (Some(c), _) => Exit::Code(c),
                    (None, Some(s)) => Exit::Signal(s),
                    _ => Exit::Code(-1),
                };
            }
            Ok(None) if start.elapsed() > timeout => {
                let (executing, busy) = probe(child.id());
                let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).status();
                let _ = child.kill();
                let _ = child.wait();
                break Exit::Timeout { executing, busy };
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(if start.elapsed() < Duration::from_secs(1) { 5 } else { 50 })),
            Err(_) => break Exit::Code(-1),
        }
    };
    let elapsed = start.elapsed();
    let mut stderr = String::new();
    if let Ok(f) = fs::File::open(stderr_file) {
        let mut buf = Vec::new();
        let _ = f.take(1 << 20).read_to_end(&mut buf);
        stderr = String::from_utf8_lossy(&buf).into_owned();
    }
    (exit, stderr, elapsed)
}

/// Whether process `pid` has floors' kernel library mapped (the program
/// is compiled and loaded: it is executing) and whether it uses CPU.
fn probe(pid: u32) -> (bool, bool) {
    let executing = fs::read_to_string(format!("/proc/{pid}/maps")).is_ok_and(|m| m.contains("memfd:floors-kernels"));
    let cpu = || -> u64 {
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // Fields after the `(comm)`: state is the 1st, utime the 12th, stime the 13th.
        let rest = stat.rsplit_once(')').map_or("", |x| x.1);
        let f: Vec<&str> = rest.split_whitespace().collect();
        f.get(11).and_then(|x| x.parse().ok()).unwrap_or(0u64) + f.get(12).and_then(|x| x.parse().ok()).unwrap_or(0u64)
    };
    let before = cpu();
    std::thread::sleep(Duration::from_millis(300));
    (executing, cpu() > before)
}

// ---------------------------------------------------------------------------
// The sweep

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
