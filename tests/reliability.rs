//! Regression inputs for the classes of failure a mutation sweep found
//! (issue "Reliability"): each runs the `floors` binary with a time limit and
//! expects a result or a located error, never a crash or a hang.

use crate::common;

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

/// Exit code, stderr, and how long it took; panics on a timeout or a signal.
fn floors(args: &[&str], limit: Duration) -> (i32, String, Duration) {
    let start = Instant::now();
    let mut child =
        Command::new(env!("CARGO_BIN_EXE_floors")).args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("floors runs");
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            let code = status.code().unwrap_or_else(|| panic!("floors {args:?} died by a signal: {status}\n{err}"));
            assert!(!err.contains("panicked") && !err.contains("Aborted"), "floors {args:?} crashed:\n{err}");
            return (code, err, start.elapsed());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("floors {args:?} ran past {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("floors-reliability-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// Every `error:` line starts with `file:line:col:` or names a file.
fn assert_located(err: &str, file: &str) {
    for line in err.lines().filter(|l| l.contains("error:")) {
        assert!(line.starts_with(file) && !line.contains("<unknown>"), "unlocated error line: {line}\nall:\n{err}");
    }
    assert!(err.contains("error:"), "no error:\n{err}");
}

const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn deep_nesting_is_refused_with_a_location() {
    let dir = scratch("deep");
    let n = 50_000;
    let cases = [
        (
            "attr.mlir",
            format!(
                "func.func @main() -> tensor<f32> {{\n  %0 = stablehlo.constant {{x = {}{}}} dense<1.0> : tensor<f32>\n  return %0 : tensor<f32>\n}}\n",
                "[".repeat(n),
                "]".repeat(n)
            ),
        ),
        (
            "dense.mlir",
            format!(
                "func.func @main() -> tensor<1xf32> {{\n  %0 = stablehlo.constant dense<{}1.0{}> : tensor<1xf32>\n  return %0 : tensor<1xf32>\n}}\n",
                "[".repeat(n),
                "]".repeat(n)
            ),
        ),
        ("tuple.mlir", format!("func.func @main(%a: {}f32{}) {{\n  return\n}}\n", "tuple<".repeat(n), ">".repeat(n))),
        ("case.mlir", {
            let mut t = String::from("func.func @main(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {\n  %r = ");
            for _ in 0..n / 2 {
                t.push_str("\"stablehlo.case\"(%i) ({\n \"stablehlo.return\"(");
            }
            t.push_str("%x");
            for _ in 0..n / 2 {
                t.push_str(") : (tensor<f32>) -> ()\n}) : (tensor<i32>) -> tensor<f32>");
            }
            t.push_str("\n  return %r : tensor<f32>\n}\n");
            t
        }),
    ];
    for (name, text) in cases {
        let path = write(&dir, name, &text);
        let (code, err, took) = floors(&["compile", &path, "--emit", "llvm"], LIMIT);
        assert_eq!(code, 1, "{name}: {err}");
        assert_located(&err, &path);
        assert!(err.contains("nesting deeper than"), "{name}: {err}");
        assert!(took < Duration::from_secs(10), "{name} took {took:?}");
    }
}

/// `n` nested `stablehlo.while` loops, each counting to 2, over a state of
/// `elems` f32s: the innermost adds 1.
fn nested_whiles(n: usize, elems: usize) -> String {
    let t = format!("tensor<{elems}xf32>");
    let mut s = format!("func.func public @main(%x: {t}) -> {t} {{\n");
    fn level(s: &mut String, depth: usize, n: usize, t: &str, state: &str) -> String {
        let out = format!("%r{depth}");
        s.push_str(&format!(
            "  {out}:2 = stablehlo.while(%i{depth} = %c0_{depth}, %s{depth} = {state}) : tensor<i32>, {t}\n   cond {{\n    %lim{depth} = stablehlo.constant dense<2> : tensor<i32>\n    %p{depth} = stablehlo.compare LT, %i{depth}, %lim{depth}, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n    stablehlo.return %p{depth} : tensor<i1>\n   }} do {{\n    %one{depth} = stablehlo.constant dense<1> : tensor<i32>\n    %j{depth} = stablehlo.add %i{depth}, %one{depth} : tensor<i32>\n"
        ));
        let inner = if depth + 1 < n {
            s.push_str(&format!("    %c0_{} = stablehlo.constant dense<0> : tensor<i32>\n", depth + 1));
            let r = level(s, depth + 1, n, t, &format!("%s{depth}"));
            format!("{r}#1")
        } else {
            s.push_str(&format!("    %f = stablehlo.constant dense<1.0> : {t}\n    %v = stablehlo.add %s{depth}, %f : {t}\n"));
            "%v".to_string()
        };
        s.push_str(&format!("    stablehlo.return %j{depth}, {inner} : tensor<i32>, {t}\n   }}\n"));
        out
    }
    s.push_str("  %c0_0 = stablehlo.constant dense<0> : tensor<i32>\n");
    let r = level(&mut s, 0, n, &t, "%x");
    s.push_str(&format!("  return {r}#1 : {t}\n}}\n"));
    s
}

#[test]
fn thousands_of_nested_loops_are_refused_with_a_location() {
    let dir = scratch("whiles");
    // The generator recurses per level: a thread with room for it.
    let text = std::thread::Builder::new().stack_size(256 << 20).spawn(|| nested_whiles(3000, 4)).unwrap().join().unwrap();
    let path = write(&dir, "whiles.mlir", &text);
    let (code, err, _) = floors(&["compile", &path, "--emit", "llvm"], LIMIT);
    assert_eq!(code, 1, "{err}");
    assert_located(&err, &path);
}

/// Nested loops share their state: 12 levels over 4 MB run in a few times
/// 4 MB, not a copy (or two) per level; and compute the right thing.
#[test]
fn nested_loops_reuse_their_state() {
    use floors::{CompileOptions, Compiler, npy, run::Program};
    let elems = 1 << 20;
    let text = nested_whiles(12, elems);
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let program = Program::compile(&compiler, "whiles.mlir", &text).unwrap();
    let m = program.executable().memory();
    assert!(m.peak_bytes < 6 * 4 * elems as u64, "{m:?}");
    let x = npy::HostArray { element_type: npy::ElementType::F32, shape: vec![elems as u64], bytes: vec![0; 4 * elems].into() };
    let out = program.executable().execute(&[("x".into(), x)], None).unwrap();
    // 2^12 innermost iterations, each adding 1.
    let first = f32::from_le_bytes(out[0].bytes[..4].try_into().unwrap());
    assert_eq!(first, 4096.0);
}

#[test]
fn long_chains_and_big_constants_compile_in_bounded_time() {
    let dir = scratch("big");
    // A 20,000-op chain whose ops reuse earlier values (no fusion can swallow it).
    let mut t =
        String::from("func.func public @main(%a: tensor<16xf32>) -> tensor<16xf32> {\n  %v0 = stablehlo.add %a, %a : tensor<16xf32>\n");
    for i in 1..20_000 {
        let j = i - 1 - ((i * 7) % 5).min(i - 1);
        let op = if i % 2 == 1 { "multiply" } else { "add" };
        t.push_str(&format!("  %v{i} = stablehlo.{op} %v{}, %v{j} : tensor<16xf32>\n", i - 1));
    }
    t.push_str("  return %v19999 : tensor<16xf32>\n}\n");
    let path = write(&dir, "chain.mlir", &t);
    let (code, err, took) = floors(&["compile", &path, "--emit", "fused"], LIMIT);
    assert_eq!(code, 0, "{err}");
    eprintln!("20,000-op chain, --emit fused: {took:?}");
    // A ~10 MB program: constants as dense hex literals.
    let mut t = String::from(
        "func.func public @main(%a: tensor<65536xf32>) -> tensor<65536xf32> {\n  %acc0 = stablehlo.add %a, %a : tensor<65536xf32>\n",
    );
    let hex: String = (0..65536u32).map(|i| format!("{:08X}", (i as f32 * 0.5).to_bits().swap_bytes())).collect();
    for i in 0..20 {
        t.push_str(&format!("  %c{i} = stablehlo.constant dense<\"0x{hex}\"> : tensor<65536xf32>\n"));
        t.push_str(&format!("  %acc{} = stablehlo.add %acc{i}, %c{i} : tensor<65536xf32>\n", i + 1));
    }
    t.push_str("  return %acc20 : tensor<65536xf32>\n}\n");
    assert!(t.len() > 10_000_000, "{}", t.len());
    let path = write(&dir, "constants.mlir", &t);
    let (code, err, took) = floors(&["compile", &path, "--emit", "llvm", "-o", dir.join("c.ll").to_str().unwrap()], LIMIT);
    assert_eq!(code, 0, "{err}");
    eprintln!("10 MB of constants, --emit llvm: {took:?}");
}

#[test]
fn zero_size_tensors_f64_to_bf16_and_located_type_errors() {
    let dir = scratch("small");
    let zero = write(
        &dir,
        "zero.mlir",
        "func.func public @main(%a: tensor<8x0xf32>) -> (tensor<8x0xf32>, tensor<0xf32>) {\n  %0 = stablehlo.add %a, %a : tensor<8x0xf32>\n  %1 = stablehlo.constant dense<> : tensor<0xf32>\n  return %0, %1 : tensor<8x0xf32>, tensor<0xf32>\n}\n",
    );
    let z = floors::npy::HostArray { element_type: floors::npy::ElementType::F32, shape: vec![8, 0], bytes: vec![].into() };
    floors::npy::write(&dir.join("z.npy"), &z).unwrap();
    let out = dir.join("out-zero");
    let (code, err, _) =
        floors(&["run", &zero, "--input", dir.join("z.npy").to_str().unwrap(), "--output-dir", out.to_str().unwrap()], LIMIT);
    assert_eq!(code, 0, "{err}");
    assert_eq!(floors::npy::read(&out.join("out0.npy")).unwrap().shape, vec![8, 0]);
    assert_eq!(floors::npy::read(&out.join("out1.npy")).unwrap().shape, vec![0]);

    // f64 → bf16 and f16: one correct rounding, no missing runtime symbol.
    let conv = write(
        &dir,
        "conv.mlir",
        "func.func public @main(%a: tensor<4xf64>) -> (tensor<4xbf16>, tensor<4xf16>) {\n  %0 = stablehlo.convert %a : (tensor<4xf64>) -> tensor<4xbf16>\n  %1 = stablehlo.convert %a : (tensor<4xf64>) -> tensor<4xf16>\n  return %0, %1 : tensor<4xbf16>, tensor<4xf16>\n}\n",
    );
    // 1 + 2^-8 is a tie for bf16 (→ 1.0); 1 + 2^-8 + 2^-40 is just above it (→ 1 + 2^-7).
    let xs: [f64; 4] = [1.0 + 1.0 / 256.0, 1.0 + 1.0 / 256.0 + 2f64.powi(-40), -3.5, 1.0e-3];
    let a = floors::npy::HostArray {
        element_type: floors::npy::ElementType::F64,
        shape: vec![4],
        bytes: xs.iter().flat_map(|x| x.to_le_bytes()).collect(),
    };
    floors::npy::write(&dir.join("d.npy"), &a).unwrap();
    let out = dir.join("out-conv");
    let (code, err, _) =
        floors(&["run", &conv, "--input", dir.join("d.npy").to_str().unwrap(), "--output-dir", out.to_str().unwrap()], LIMIT);
    assert_eq!(code, 0, "{err}");
    let bf = floors::npy::read(&out.join("out0.npy")).unwrap();
    let bits: Vec<u16> = bf.bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    // The reference rounds once, exactly (half::bf16::from_f64 rounds
    // through f32: twice). `bits` significant bits, smallest exponent `emin`.
    let round = |x: f64, bits: i32, emin: i32| {
        let e = x.abs().log2().floor().max(emin as f64) as i32;
        let scale = 2f64.powi(e - (bits - 1));
        (x / scale).round_ties_even() * scale
    };
    let want: Vec<u16> = xs.iter().map(|&x| half::bf16::from_f64(round(x, 8, -126)).to_bits()).collect();
    assert_eq!(bits, want);
    assert_eq!(bits[1], 0x3f81, "1 + 2^-8 + 2^-40 rounds up to 1 + 2^-7");
    let h = floors::npy::read(&out.join("out1.npy")).unwrap();
    let bits: Vec<u16> = h.bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    let want: Vec<u16> = xs.iter().map(|&x| half::f16::from_f64(round(x, 11, -14)).to_bits()).collect();
    assert_eq!(bits, want);

    // Two equal constants merged by cleanup keep a location for later errors.
    let ui = write(
        &dir,
        "ui32.mlir",
        "func.func public @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {\n  %c = stablehlo.constant dense<(1.0, 2.0)> : tensor<4xcomplex<f32>>\n  %d = stablehlo.constant dense<(1.0, 2.0)> : tensor<4xcomplex<f32>>\n  %0 = stablehlo.add %a, %c : tensor<4xcomplex<f32>>\n  %1 = stablehlo.atan2 %0, %d : tensor<4xcomplex<f32>>\n  return %1 : tensor<4xcomplex<f32>>\n}\n",
    );
    let (code, err, _) = floors(&["compile", &ui, "--emit", "llvm"], LIMIT);
    assert_eq!(code, 1, "{err}");
    assert_located(&err, &ui);
}

#[test]
fn bad_run_time_inputs_fail_fast() {
    let dir = scratch("inputs");
    let prog = common::corpus_dir().join("public/bias_add.stablehlo.mlir");
    let prog = prog.to_str().unwrap();
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    for bad in ["/dev/zero", "/dev/urandom"] {
        let (code, err, took) = floors(&["run", prog, "--input", bad, "--input", bad, "--output-dir", out], LIMIT);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(bad) && err.contains("not a regular file"), "{err}");
        assert!(took < Duration::from_secs(5), "{took:?}");
    }
    let text = write(&dir, "text.npy", "not an array at all");
    let (code, err, _) = floors(&["run", prog, "--input", &text, "--input", &text, "--output-dir", out], LIMIT);
    assert_eq!(code, 1);
    assert!(err.contains("text.npy") && err.contains("not a .npy file"), "{err}");
    for threads in ["4294967296", "100000", "0"] {
        let (code, err, _) = floors(&["run", prog, "--threads", threads, "--output-dir", out], LIMIT);
        assert_eq!(code, 2, "--threads {threads}: {err}");
    }
}

/// Big-endian and Fortran-order arrays, both valid npy files numpy writes,
/// read as numpy reads them.
#[test]
fn big_endian_and_fortran_order_arrays_are_read() {
    let dir = scratch("npy");
    let header = |descr: &str, fortran: bool| {
        let mut h = format!("{{'descr': '{descr}', 'fortran_order': {}, 'shape': (2, 3), }}", if fortran { "True" } else { "False" });
        while (10 + h.len() + 1) % 64 != 0 {
            h.push(' ');
        }
        h.push('\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend_from_slice(&(h.len() as u16).to_le_bytes());
        out.extend_from_slice(h.as_bytes());
        out
    };
    // [[0, 1, 2], [3, 4, 5]] as >f4 (C order) and <i4 (Fortran order).
    let mut be = header(">f4", false);
    for v in 0..6 {
        be.extend_from_slice(&(v as f32).to_be_bytes());
    }
    std::fs::write(dir.join("be.npy"), be).unwrap();
    let mut fo = header("<i4", true);
    for v in [0i32, 3, 1, 4, 2, 5] {
        fo.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(dir.join("fo.npy"), fo).unwrap();
    let a = floors::npy::read(&dir.join("be.npy")).unwrap();
    let f: Vec<f32> = a.bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(f, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let b = floors::npy::read(&dir.join("fo.npy")).unwrap();
    let i: Vec<i32> = b.bytes.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!((i, b.shape), (vec![0, 1, 2, 3, 4, 5], vec![2, 3]));
}

/// One compiled program, 64 threads × 100 runs: identical outputs. Several
/// programs compiled at once in separate contexts: the same IR as alone.
#[test]
fn concurrent_runs_and_compiles_are_identical() {
    use floors::{CompileOptions, Compiler, Stage, npy, run::Program};
    let dir = common::corpus_dir().join("public");
    let text = std::fs::read_to_string(dir.join("softmax.stablehlo.mlir")).unwrap();
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let program = Program::compile(&compiler, "softmax.mlir", &text).unwrap();
    let inputs = vec![(dir.join("softmax.in0.npy"), npy::read(&dir.join("softmax.in0.npy")).unwrap())];
    let first = program.executable().execute(&inputs, None).unwrap();
    std::thread::scope(|s| {
        for _ in 0..64 {
            s.spawn(|| {
                for _ in 0..100 {
                    assert_eq!(program.executable().execute(&inputs, None).unwrap(), first);
                }
            });
        }
    });
    let names = ["softmax", "mlp", "argmax", "fori_loop"];
    let alone: Vec<String> = names
        .iter()
        .map(|n| {
            let t = std::fs::read_to_string(dir.join(format!("{n}.stablehlo.mlir"))).unwrap();
            Compiler::new(common::pinned_options()).unwrap().compile_source(n, &t, Stage::Llvm).unwrap()
        })
        .collect();
    let dir = &dir;
    std::thread::scope(|s| {
        let handles: Vec<_> = names
            .iter()
            .map(|n| {
                s.spawn(move || {
                    let t = std::fs::read_to_string(dir.join(format!("{n}.stablehlo.mlir"))).unwrap();
                    Compiler::new(common::pinned_options()).unwrap().compile_source(n, &t, Stage::Llvm).unwrap()
                })
            })
            .collect();
        for (h, a) in handles.into_iter().zip(&alone) {
            assert_eq!(&h.join().unwrap(), a);
        }
    });
}
