//! Mutations of program text: the mutators `mutate_once` picks from by
//! weight, and deep nesting.

use std::fmt::Write as _;

use super::*;

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

pub(super) const FLIP_CHARS: &[u8] = b"{}()[]<>,:;%@#^\"=x0123456789-+.!?\\/ \nabzAZ_$'`*";

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
pub(super) fn find_all(hay: &[u8], needle: &[u8]) -> Vec<usize> {
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

pub(super) fn splice(text: &mut Vec<u8>, start: usize, end: usize, with: &[u8]) {
    text.splice(start..end, with.iter().copied());
}

pub(super) fn split_lines(text: &[u8]) -> Vec<Vec<u8>> {
    text.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

pub(super) fn join_lines(lines: &[Vec<u8>]) -> Vec<u8> {
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
fn mutate_flip_byte(rng: &mut Rng, text: &mut [u8]) -> String {
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
