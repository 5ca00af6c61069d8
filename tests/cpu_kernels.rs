//! CPU floor end to end: corpus programs → `floors-lower-cpu` → kernels
//! linked into a shared object (`floors::codegen`) and loaded by the
//! runtime's loader → run through the host kernel ABI in the
//! fused @main's order → compared with the `.npy` outputs JAX computed.
//!
//! The host program is run by a tiny interpreter of the fused @main that only
//! knows straight-line code (func args → buffers, each tagged `floors.fusion`
//! → its kernel with (inputs, outputs; an output computed in place starts as
//! its operand), `func.return` → outputs); anything
//! else fails the test loudly. The real host side is the thunk runtime.

use crate::common;

use std::{
    collections::HashMap,
    ffi::CStr,
    path::{Path, PathBuf},
    time::Instant,
};

use floors::{
    CompileOptions, Compiler, Stage,
    contract::{IN_PLACE_ATTR, KERNEL_ATTR, MANIFEST_ATTR},
    ir::raw,
    npy::{ElementType, HostArray},
    run::Program,
    runtime::{
        KernelLibrary,
        cpu_library::CpuKernelLibrary,
        kernel_abi::{HostKernelFn, KernelArg, KernelCallFrame},
    },
    target::CpuTarget,
};
use floors_linalg::linalg_outline_kernels::{extract_kernels, kernel_manifest};
use melior::ir::Module;
use mlir_sys::*;

/// The kernels of a kernel module, linked and loaded as an artifact's are.
#[derive(Clone)]
struct CompiledKernels {
    library: std::sync::Arc<CpuKernelLibrary>,
    names: Vec<String>,
}

impl CompiledKernels {
    fn new(kernel_module: &Module<'_>) -> Result<Self, floors::Error> {
        let target = CpuTarget::resolve("host")?;
        let so = floors_cpu::codegen::shared_object(kernel_module, &target, "cc")?;
        let library = std::sync::Arc::new(CpuKernelLibrary::load(&so, "test kernels")?);
        let op = kernel_module.as_operation().to_raw();
        let names = raw::attr(op, MANIFEST_ATTR)
            // SAFETY: the attribute comes from the live kernel module and is a string (checked by the manifest builder).
            .map(|a| unsafe {
                (0..mlirArrayAttrGetNumElements(a)).map(|i| raw::string(mlirStringAttrGetValue(mlirArrayAttrGetElement(a, i)))).collect()
            })
            .unwrap_or_default();
        Ok(Self { library, names })
    }
    fn kernel(&self, name: &str) -> Option<HostKernelFn> {
        self.library.kernel(name)
    }
    fn names(&self) -> &[String] {
        &self.names
    }
}

/// A host buffer, 8-byte aligned (natural alignment for every element type).
#[derive(Clone, Debug)]
struct Buf {
    words: Vec<u64>,
    bytes: usize,
}

impl Buf {
    fn zeroed(bytes: usize) -> Self {
        Self { words: vec![0; bytes.div_ceil(8).max(1)], bytes }
    }
    fn from_bytes(b: &[u8]) -> Self {
        let mut buf = Self::zeroed(b.len());
        buf.as_bytes_mut().copy_from_slice(b);
        buf
    }
    fn as_bytes(&self) -> &[u8] {
        // SAFETY: `words` holds at least `bytes` bytes (allocated rounded up to whole words) and u8 has no alignment needs.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr() as *const u8, self.bytes) }
    }
    fn as_bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as above, borrowed mutably through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr() as *mut u8, self.bytes) }
    }
    fn arg(&mut self) -> KernelArg {
        KernelArg { ptr: self.words.as_mut_ptr().cast(), size: self.bytes as u64 }
    }
}

/// An .npy array (through `floors::npy`): numpy dtype string and raw bytes.
struct Npy {
    dtype: String,
    bytes: Vec<u8>,
}

fn read_npy(path: &Path) -> Npy {
    let a = floors::npy::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Npy { dtype: a.element_type.npy_descr().to_string(), bytes: a.bytes.into_vec() }
}

fn public(name: &str) -> PathBuf {
    common::corpus_dir().join("public").join(name)
}

/// Calls a kernel with grid 1x1x1; the kernel's error message on failure.
fn call(f: HostKernelFn, args: &mut [KernelArg], grid: [u64; 3]) -> Result<(), String> {
    let frame = KernelCallFrame { grid, workgroup: [0; 3], num_args: args.len() as u64, args: args.as_ptr() };
    // SAFETY: `f` is a kernel entry of the shared object loaded above, called with a frame the ABI describes; the buffers outlive the call.
    let err = unsafe { f(&frame) };
    // SAFETY: a non-null error points at the kernel's static error record with a NUL-terminated message.
    if err.is_null() { Ok(()) } else { Err(unsafe { CStr::from_ptr((*err).message) }.to_string_lossy().into_owned()) }
}

/// The straight-line interpreter of the host @main.
fn run_main(module: &Module<'_>, kernels: &CompiledKernels, inputs: Vec<Buf>) -> Vec<Buf> {
    let top = module.as_operation().to_raw();
    // SAFETY: `top` is the live compiled module; a builtin.module has one region with one block.
    let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(top, 0)) };
    let main = raw::block_ops(body)
        .into_iter()
        .find(|&o| {
            raw::name(o) == "func.func"
                // SAFETY: `a` is the live `sym_name` of a func.func: a string attribute.
                && raw::attr(o, "sym_name").map(|a| unsafe { raw::string(mlirStringAttrGetValue(a)) }).as_deref() == Some("main")
        })
        .expect("@main");
    let blocks = raw::region_blocks(main);
    assert_eq!(blocks.len(), 1, "@main must be one block");
    let entry = blocks[0];
    let mut env: HashMap<usize, Buf> = HashMap::new();
    // SAFETY: `entry` is the live entry block of @main.
    let nargs = unsafe { mlirBlockGetNumArguments(entry) } as usize;
    assert_eq!(nargs, inputs.len(), "number of inputs");
    for (i, b) in inputs.into_iter().enumerate() {
        // SAFETY: `i` is below the block's argument count read above.
        let v = unsafe { mlirBlockGetArgument(entry, i as isize) };
        assert_eq!(raw::value_bytes(v) as usize, b.bytes, "input {i} size");
        env.insert(v.ptr as usize, b);
    }
    for op in raw::block_ops(entry) {
        match raw::name(op).as_str() {
            "floors.fusion" => {
                let k = raw::attr(op, KERNEL_ATTR).expect("fusion without floors.kernel");
                // SAFETY: `k` is the live `floors.kernel` string attribute of a fusion.
                let name = unsafe { raw::string(mlirStringAttrGetValue(k)) };
                let f = kernels.kernel(&name).unwrap_or_else(|| panic!("no kernel {name}"));
                // Inputs are copied so one buffer may be passed twice.
                let mut ins: Vec<Buf> = raw::operands(op).iter().map(|v| env[&(v.ptr as usize)].clone()).collect();
                let mut outs: Vec<Buf> = raw::results(op).iter().map(|&v| Buf::zeroed(raw::value_bytes(v) as usize)).collect();
                // A result computed in place (`floors.in_place` = [result, operand, ...])
                // starts as its operand: the kernel reads the operand through it.
                if let Some(pairs) = raw::attr(op, IN_PLACE_ATTR).and_then(raw::i64s_of) {
                    for p in pairs.chunks(2) {
                        outs[p[0] as usize] = ins[p[1] as usize].clone();
                    }
                }
                let mut args: Vec<KernelArg> = ins.iter_mut().chain(outs.iter_mut()).map(|b| b.arg()).collect();
                call(f, &mut args, [1, 1, 1]).unwrap_or_else(|e| panic!("{name}: {e}"));
                for (v, b) in raw::results(op).into_iter().zip(outs) {
                    env.insert(v.ptr as usize, b);
                }
            }
            "func.return" => {
                return raw::operands(op).iter().map(|v| env[&(v.ptr as usize)].clone()).collect();
            }
            other => panic!("the test interpreter runs straight-line fusions only, not {other}"),
        }
    }
    panic!("@main without func.return")
}

fn compare(program: &str, k: usize, dtype: &str, got: &[u8], want: &[u8], tol: f64) {
    assert_eq!(got.len(), want.len(), "{program} out{k}: byte size");
    match dtype {
        "<f4" => {
            let g = got.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64);
            let w = want.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64);
            for (i, (g, w)) in g.zip(w).enumerate() {
                let ok = (g - w).abs() <= tol + tol * w.abs() || (g.is_nan() && w.is_nan()) || g == w;
                assert!(ok, "{program} out{k}[{i}]: got {g}, want {w} (tol {tol})");
            }
        }
        _ => assert_eq!(got, want, "{program} out{k} ({dtype}) differs"),
    }
}

/// Compiles, JITs and runs one public corpus program; returns (compile, jit) seconds.
fn check_program(compiler: &Compiler, program: &str, tol: f64) -> (f64, f64) {
    let path = public(&format!("{program}.stablehlo.mlir"));
    let text = std::fs::read_to_string(&path).unwrap();
    let t0 = Instant::now();
    let module = compiler.compile_module(&path.display().to_string(), &text, Stage::Llvm).unwrap_or_else(|e| panic!("{program}: {e}"));
    let t1 = Instant::now();
    let kmod = extract_kernels(&module).expect("kernel module");
    let kernels = CompiledKernels::new(&kmod).unwrap_or_else(|e| panic!("{program}: {e}"));
    drop(kmod);
    let manifest = kernel_manifest(&module);
    assert_eq!(kernels.names().len(), manifest.len(), "{program}: manifest");
    for e in &manifest {
        assert!(kernels.kernel(&e.kernel).is_some(), "{program}: no JIT symbol for {}", e.kernel);
    }
    let t2 = Instant::now();
    let mut inputs = Vec::new();
    for i in 0.. {
        let p = public(&format!("{program}.in{i}.npy"));
        if !p.exists() {
            break;
        }
        inputs.push(Buf::from_bytes(&read_npy(&p).bytes));
    }
    let outs = run_main(&module, &kernels, inputs);
    for (k, got) in outs.iter().enumerate() {
        let want = read_npy(&public(&format!("{program}.out{k}.npy")));
        compare(program, k, &want.dtype, got.as_bytes(), &want.bytes, tol);
    }
    assert!(!public(&format!("{program}.out{}.npy", outs.len())).exists(), "{program}: fewer results than outputs");
    ((t1 - t0).as_secs_f64(), (t2 - t1).as_secs_f64())
}

/// Straight-line public programs and their tolerance (1e-4 where
/// transcendentals are involved).
const PROGRAMS: &[(&str, f64)] = &[
    ("argmax", 1e-5),
    ("bias_add", 1e-5),
    ("col_max", 1e-5),
    ("dynamic_slice_update", 1e-5),
    ("elementwise_chain", 1e-5),
    ("gather_rows", 1e-5),
    ("gelu_erf", 1e-4),
    ("int_ops", 0.0),
    ("matmul", 1e-5),
    ("mlp", 1e-5),
    ("relu", 1e-5),
    ("row_sum", 1e-5),
    ("shape_ops", 1e-5),
    ("softmax", 1e-4),
    ("transpose2d", 1e-5),
    ("unary_math", 1e-4),
];

#[test]
fn corpus_programs_run_through_jit_kernels() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let mut report = String::new();
    for &(program, tol) in PROGRAMS {
        let (c, j) = check_program(&compiler, program, tol);
        report.push_str(&format!("{program:22} compile {:6.1} ms   jit {:6.1} ms\n", c * 1e3, j * 1e3));
    }
    eprintln!("{report}");
}

#[test]
fn fusions_inside_while_are_outlined() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let path = public("fori_loop.stablehlo.mlir");
    let text = std::fs::read_to_string(&path).unwrap();
    let module = compiler.compile_module("fori_loop", &text, Stage::Llvm).unwrap();
    let manifest = kernel_manifest(&module);
    assert!(!manifest.is_empty(), "fori_loop: fusions in the while body were not outlined");
    let kernels = CompiledKernels::new(&extract_kernels(&module).unwrap()).unwrap();
    for e in &manifest {
        assert!(kernels.kernel(&e.kernel).is_some(), "no JIT symbol for {}", e.kernel);
    }
}

fn softmax_kernel(compiler: &Compiler) -> CompiledKernels {
    let text = std::fs::read_to_string(public("softmax.stablehlo.mlir")).unwrap();
    let module = compiler.compile_module("softmax", &text, Stage::Llvm).unwrap();
    CompiledKernels::new(&extract_kernels(&module).unwrap()).unwrap()
}

#[test]
fn misuse_gives_the_kernels_error_not_a_crash() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let kernels = softmax_kernel(&compiler);
    let f = kernels.kernel("fusion_0").expect("fusion_0");
    assert!(kernels.kernel("fusion_1").is_none());
    let mut x = Buf::zeroed(8 * 16 * 4);
    let mut y = Buf::zeroed(8 * 16 * 4);
    let mut small = Buf::zeroed(4);

    let e = call(f, &mut [small.arg(), y.arg()], [1, 1, 1]).unwrap_err();
    assert_eq!(e, "fusion_0: argument 0 (input 0, memref<8x16xf32>) must be 512 bytes");
    let e = call(f, &mut [x.arg(), small.arg()], [1, 1, 1]).unwrap_err();
    assert_eq!(e, "fusion_0: argument 1 (output 0, memref<8x16xf32>) must be 512 bytes");
    let e = call(f, &mut [x.arg()], [1, 1, 1]).unwrap_err();
    assert_eq!(e, "fusion_0: expected 2 arguments (1 inputs, then 1 outputs)");
    let e = call(f, &mut [x.arg(), y.arg()], [2, 1, 1]).unwrap_err();
    assert!(e.contains("grid must be 1x1x1"), "{e}");
    let e = call(f, &mut [KernelArg { ptr: std::ptr::null_mut(), size: 512 }, y.arg()], [1, 1, 1]).unwrap_err();
    assert!(e.contains("argument 0") && e.contains("NULL"), "{e}");
    // And the good call: softmax of zeros is uniform.
    call(f, &mut [x.arg(), y.arg()], [1, 1, 1]).unwrap();
    let v = f32::from_le_bytes(y.as_bytes()[..4].try_into().unwrap());
    assert!((v - 1.0 / 16.0).abs() < 1e-6, "{v}");

    // Through the runtime's HostKernel the error keeps the kernel's message.
    // SAFETY: `f` is the kernel entry of the shared object, which stays loaded for the test.
    let hk = unsafe { floors::runtime::HostKernel::new("fusion_0", f) };
    // SAFETY: the arguments are buffers of the shapes the kernel was compiled for, alive for the call.
    let r = unsafe { hk.call_workgroups([1, 1, 1], 0..1, &[small.arg(), y.arg()]) };
    assert!(r.unwrap_err().to_string().contains("must be 512 bytes"));
}

#[test]
fn kernels_are_reentrant_across_threads() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let kernels = softmax_kernel(&compiler);
    std::thread::scope(|s| {
        for t in 0..4 {
            let kernels = kernels.clone();
            s.spawn(move || {
                let f = kernels.kernel("fusion_0").unwrap();
                let mut x = Buf::zeroed(512);
                let mut y = Buf::zeroed(512);
                x.as_bytes_mut()[..4].copy_from_slice(&(t as f32).to_le_bytes());
                for _ in 0..100 {
                    call(f, &mut [x.arg(), y.arg()], [1, 1, 1]).unwrap();
                }
                let row: f32 = y.as_bytes()[..64].chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).sum();
                assert!((row - 1.0).abs() < 1e-5);
            });
        }
    });
}

#[test]
fn llvm_ir_and_object_file() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let text = std::fs::read_to_string(public("mlp.stablehlo.mlir")).unwrap();
    let ir = compiler.compile_source("mlp", &text, Stage::LlvmIr).unwrap();
    for k in 0..3 {
        assert!(ir.contains(&format!("define noundef ptr @fusion_{k}_kernel(")) || ir.contains(&format!("@fusion_{k}_kernel(ptr")), "{ir}");
    }
    let obj = compiler.compile_output("mlp", &text, Stage::Obj).unwrap();
    assert_eq!(&obj[..4], b"\x7fELF");
    assert!(obj.windows(b"fusion_2_kernel".len()).any(|w| w == b"fusion_2_kernel"));
}

/// The kernels shared out over parts compiled on their own threads: each
/// part defines only its own entry points (and its weak copy of the import
/// table), the parts link into one library with every entry point, and that
/// library computes what the one-part library does.
#[test]
fn kernels_compiled_in_parts_link_into_one_library() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let text = std::fs::read_to_string(public("mlp.stablehlo.mlir")).unwrap();
    let module = compiler.compile_module("mlp", &text, Stage::Llvm).unwrap();
    let kmod = extract_kernels(&module).unwrap();
    let target = CpuTarget::resolve("host").unwrap();
    let parts = floors_cpu::codegen::object_files(&kmod, &target, 8).unwrap();
    assert_eq!(parts.len(), 3, "one part per kernel when there are more threads than kernels");
    let defines = |o: &[u8], sym: &str| o.windows(sym.len()).any(|w| w == sym.as_bytes());
    for k in 0..3 {
        let sym = format!("fusion_{k}_kernel");
        assert_eq!(parts.iter().filter(|o| defines(o, &sym)).count(), 1, "{sym} in exactly one part");
    }
    let one = floors_cpu::codegen::object_files(&kmod, &target, 1).unwrap();
    assert_eq!(one.len(), 1);
    for objects in [parts, one] {
        let so = floors_cpu::codegen::link_shared_object(&objects, "cc").unwrap();
        let library = CpuKernelLibrary::load(&so, "parts").unwrap();
        for k in 0..3 {
            assert!(library.kernel(&format!("fusion_{k}")).is_some(), "fusion_{k} missing from the linked library");
        }
    }
}

/// Every top-level op of a module's body, printed, by `sym_name` (ops
/// without one are left out).
fn symbols_printed(module: MlirOperation) -> HashMap<String, String> {
    // SAFETY: `module` is the live kernel module; a builtin.module has one region with one block.
    let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)) };
    raw::block_ops(body)
        .into_iter()
        .filter_map(|o| {
            // SAFETY: `a` is the live `sym_name` of a func.func: a string attribute.
            let name = raw::attr(o, "sym_name").map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) }))?;
            // SAFETY: `o` is a live op of `module`, which outlives the printed reference.
            Some((name, floors::ir::print_op(&unsafe { melior::ir::OperationRef::from_raw(o) })))
        })
        .collect()
}

/// The kernels lowered in parts on their own threads (what artifacts are
/// built from) are, symbol by symbol, the IR the whole-module pipeline (what
/// dumps and `--emit llvm` show) makes: every public and bench program, in
/// 1, 2 and 3 parts, kernels split into workgroups or not.
#[test]
fn kernels_lowered_in_parts_match_the_whole_module_pipeline() {
    let mut programs: Vec<PathBuf> = std::fs::read_dir(common::corpus_dir().join("public"))
        .unwrap()
        .chain(std::fs::read_dir(common::corpus_dir().join("bench")).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".stablehlo.mlir"))
        .collect();
    programs.sort();
    assert!(programs.len() >= 20, "{programs:?}");
    let outline = format!("builtin.module(floors-fuse,{})", floors::pipelines::CPU_KERNEL_OUTLINE);
    assert_eq!(
        floors::pipelines::FLOORS_LOWER_CPU.body,
        format!("{},builtin.module({})", floors::pipelines::CPU_KERNEL_OUTLINE, floors::pipelines::FLOORS_CPU_KERNELS_TO_LLVM.name),
        "the parts run the second half of floors-lower-cpu"
    );
    for workgroups in [1, 2] {
        let compiler = Compiler::new(CompileOptions { workgroups, ..CompileOptions::default() }).unwrap();
        for path in &programs {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(path).unwrap();
            let whole = compiler.compile_module(&name, &text, Stage::Llvm).unwrap();
            let whole = symbols_printed(extract_kernels(&whole).unwrap().as_operation().to_raw());
            let mut outlined = compiler.parse(&name, &text).unwrap();
            compiler.attach_target(&outlined).unwrap();
            compiler.run_quiet(&mut outlined, &outline).unwrap();
            for parts in [1, 2, 3] {
                let printed =
                    compiler.lower_kernels_in_parts(&outlined, parts, |m| Ok(symbols_printed(m.as_operation().to_raw()))).unwrap();
                let mut seen = HashMap::new();
                for part in &printed {
                    for (sym, ir) in part {
                        assert_eq!(Some(ir), whole.get(sym), "{name}, {parts} parts, {workgroups} workgroups: @{sym} differs");
                        seen.insert(sym.clone(), ());
                    }
                }
                for sym in whole.keys() {
                    assert!(seen.contains_key(sym), "{name}, {parts} parts: @{sym} is in no part");
                }
            }
        }
    }
}

/// A pass failing on one part's thread is the located error it reported,
/// and the other parts' work is dropped.
#[test]
fn a_kernel_part_that_fails_reports_where() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    // A kernel marked for streaming stores into an argument it does not
    // have: floors-cpu-nontemporal-stores rejects it.
    let text = r#"module {
  module @floors_kernels attributes {floors.kernels = ["fusion_0", "fusion_1"]} {
    func.func @fusion_0(%x: memref<16xf32>, %o: memref<16xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64} {
      memref.copy %x, %o : memref<16xf32> to memref<16xf32>
      return
    }
    func.func @fusion_1(%x: memref<16xf32>, %o: memref<16xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64, floors.nontemporal = array<i64: 7>} {
      memref.copy %x, %o : memref<16xf32> to memref<16xf32>
      return
    }
  }
}"#;
    let module = compiler.parse("bad_part.mlir", text).unwrap();
    compiler.attach_target(&module).unwrap();
    for parts in [1, 2] {
        let err = compiler.lower_kernels_in_parts(&module, parts, |_| Ok(())).unwrap_err().to_string();
        assert!(err.contains("floors.nontemporal: argument 7 out of range"), "{err}");
        assert!(err.contains("bad_part.mlir:7:"), "{err}");
    }
}

/// The bench programs' kernels stay compact: machine instructions per
/// program (x86-64-v4, two workgroups) under 1.5–2× what they are now.
/// LLVM unrolling a copy or fill nest inflates them 4× and more, and code
/// generation time with them (a matmul whose fused C fill was unrolled
/// into 512 stores: 330 → ~1400 instructions, compile 0.06 → 0.41 s).
#[test]
fn bench_kernels_stay_compact() {
    let target = CpuTarget::resolve("x86-64-v4").unwrap();
    let compiler =
        Compiler::new(CompileOptions { target: floors::floor::Target::Cpu(Some(target)), workgroups: 2, ..CompileOptions::default() })
            .unwrap();
    let work = std::env::temp_dir().join(format!("floors-compact-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let limits = [
        ("matmul", 480),
        ("mlp", 2500),
        ("softmax", 2000),
        ("layernorm", 1700),
        ("attention", 2500),
        ("elementwise_chain", 1200),
        ("row_sum", 500),
        ("conv2d_nhwc", 700),
    ];
    for (name, limit) in limits {
        let text = std::fs::read_to_string(common::corpus_dir().join(format!("bench/{name}.stablehlo.mlir"))).unwrap();
        let obj = compiler.compile_output(name, &text, Stage::Obj).unwrap();
        let path = work.join(format!("{name}.o"));
        std::fs::write(&path, &obj).unwrap();
        let out =
            std::process::Command::new("objdump").arg("-d").arg(&path).output().expect("objdump (binutils) is installed with the linker");
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        // Instruction lines: "  addr:\tbytes\tmnemonic ...".
        let instructions = text
            .lines()
            .filter(|l| {
                l.trim_start()
                    .split_once(':')
                    .is_some_and(|(a, rest)| !a.is_empty() && a.chars().all(|c| c.is_ascii_hexdigit()) && rest.starts_with('\t'))
            })
            .count();
        assert!(instructions > 0 && instructions <= limit, "{name}: {instructions} machine instructions (limit {limit})");
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// The libraries a shared object names (`DT_NEEDED`).
fn needed_libraries(so: &[u8]) -> Vec<String> {
    use object::read::elf::{Dyn, ElfFile64};
    let file = ElfFile64::<object::Endianness>::parse(so).unwrap();
    let (endian, data) = (file.endian(), file.data());
    let Some((dynamic, strings_index)) = file.elf_section_table().dynamic(endian, data).unwrap() else { return vec![] };
    let strings = file.elf_section_table().strings(endian, data, strings_index).unwrap();
    dynamic
        .iter()
        .filter(|d| d.tag32(endian) == Some(object::elf::DT_NEEDED as i32))
        .map(|d| String::from_utf8_lossy(d.string(endian, strings).unwrap()).into_owned())
        .collect()
}

/// Kernels that call only `memcpy`/`memset`/`memmove` (mlp: copies and
/// fills) link with no libraries, those resolving to the process's libc;
/// kernels that call libm (f64 `pow` and `fmod`) take the full link and
/// name libm. Both load and run.
#[test]
fn kernels_link_against_the_libraries_they_call() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let target = CpuTarget::resolve("host").unwrap();
    let libm_program = "func.func public @main(%a: tensor<16xf64>, %b: tensor<16xf64>) -> tensor<16xf64> {
  %0 = stablehlo.power %b, %a : tensor<16xf64>
  %1 = stablehlo.remainder %0, %b : tensor<16xf64>
  return %1 : tensor<16xf64>
}";
    let mlp = std::fs::read_to_string(public("mlp.stablehlo.mlir")).unwrap();
    for (name, text, needs_libm) in [("mlp", mlp.as_str(), false), ("libm", libm_program, true)] {
        let module = compiler.compile_module(name, text, Stage::Llvm).unwrap();
        let kmod = extract_kernels(&module).unwrap();
        let objects = floors_cpu::codegen::object_files(&kmod, &target, 2).unwrap();
        let so = floors_cpu::codegen::link_shared_object(&objects, "cc").unwrap();
        let needed = needed_libraries(&so);
        assert_eq!(needed.iter().any(|l| l.starts_with("libm.so")), needs_libm, "{name}: DT_NEEDED {needed:?}");
        if !needs_libm {
            assert!(needed.is_empty(), "{name}: DT_NEEDED {needed:?}");
        }
        CpuKernelLibrary::load(&so, name).unwrap();
    }
    let program = Program::compile(&compiler, "libm", libm_program).unwrap();
    let a: Vec<f64> = (0..16).map(|i| i as f64 - 7.5).collect();
    let b: Vec<f64> = (0..16).map(|i| 0.25 + i as f64 / 3.0).collect();
    let want: Vec<f64> = a.iter().zip(&b).map(|(x, y)| y.powf(*x) % y).collect();
    let bytes = |v: &[f64]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let arr = |v: &[f64]| HostArray { element_type: ElementType::F64, shape: vec![16], bytes: bytes(v).into() };
    let out = program.executable().execute(&[(PathBuf::from("a"), arr(&a)), (PathBuf::from("b"), arr(&b))], None).unwrap();
    assert_eq!(&out[0].bytes[..], bytes(&want).as_slice());
}

/// Timing of the two bench programs (/work/shared/corpus/bench) on one
/// thread: matmul 1024³ and elementwise_chain 4096², random inputs, one
/// warm-up call, the median of 7 calls; the results are checked against a
/// plain Rust reference (matmul: 64 sampled entries; elementwise: all). Use a
/// release build for numbers:
/// `cargo test --release --test integration cpu_kernels:: -- --ignored --nocapture`.
#[test]
#[ignore]
fn bench_timing() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let bench = common::corpus_dir().join("bench");
    // A small LCG: deterministic "random" inputs in [-1, 1).
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut random = |n: usize| -> Vec<f32> {
        (0..n)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
            })
            .collect()
    };
    let to_buf = |v: &[f32]| Buf::from_bytes(&v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
    let floats = |b: &Buf| b.as_bytes().chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect::<Vec<f32>>();

    for (name, n) in [("matmul", 1024usize), ("elementwise_chain", 4096)] {
        let text = std::fs::read_to_string(bench.join(format!("{name}.stablehlo.mlir"))).unwrap();
        let t0 = Instant::now();
        let module = compiler.compile_module(name, &text, Stage::Llvm).unwrap();
        let kernels = CompiledKernels::new(&extract_kernels(&module).unwrap()).unwrap();
        assert_eq!(kernels.names().len(), 1, "{name}: one kernel expected");
        let f = kernels.kernel(&kernels.names()[0]).unwrap();
        let compile = t0.elapsed().as_secs_f64();
        let (a, b) = (random(n * n), random(n * n));
        let (mut ab, mut bb, mut cb) = (to_buf(&a), to_buf(&b), Buf::zeroed(n * n * 4));
        let mut times = Vec::new();
        for _ in 0..8 {
            let t = Instant::now();
            call(f, &mut [ab.arg(), bb.arg(), cb.arg()], [1, 1, 1]).unwrap();
            times.push(t.elapsed().as_secs_f64());
        }
        let mut runs = times[1..].to_vec();
        runs.sort_by(f64::total_cmp);
        let median = runs[runs.len() / 2];
        let c = floats(&cb);
        if name == "matmul" {
            for s in 0..64 {
                let (i, j) = ((s * 337) % n, (s * 911 + 5) % n);
                let want: f64 = (0..n).map(|k| a[i * n + k] as f64 * b[k * n + j] as f64).sum();
                assert!((c[i * n + j] as f64 - want).abs() <= 1e-3 * (1.0 + want.abs()), "matmul [{i},{j}]: {} vs {want}", c[i * n + j]);
            }
            eprintln!(
                "matmul {n}^3: compile+jit {compile:.2} s, median {:.2} ms, {:.1} GFLOP/s",
                median * 1e3,
                2.0 * (n as f64).powi(3) / median / 1e9
            );
        } else {
            for i in 0..n * n {
                let (x, y) = (a[i] as f64, b[i] as f64);
                let want = (x * y + (-x).exp()).tanh();
                assert!((c[i] as f64 - want).abs() <= 1e-5 * (1.0 + want.abs()), "elementwise [{i}]: {} vs {want}", c[i]);
            }
            eprintln!(
                "elementwise_chain {n}^2: compile+jit {compile:.2} s, median {:.2} ms, {:.1} GB/s (12 bytes per element)",
                median * 1e3,
                12.0 * (n * n) as f64 / median / 1e9
            );
        }
    }
}
