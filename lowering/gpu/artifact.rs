//! The GPU floor's compiler-side helpers: the PTX of a compiled module
//! (from its `gpu.binary` ops), NVIDIA's `ptxas` when one is installed
//! (registers, shared memory, spills per kernel), and the GPU fusion report.
//!
//! `ptxas` is found through `FLOORS_PTXAS`, else `$CUDA_ROOT/bin/ptxas`,
//! else `ptxas` on `PATH`; the compiler never needs it (PTX comes from
//! MLIR's NVPTX backend), the report and the tests use it when present.

use std::path::PathBuf;

use melior::ir::Module;
use mlir_sys::*;

use floors_ir::{
    contract::{GPU_CODEGEN_ATTR, GPU_EMITTER_ATTR, GPU_KERNELS_ATTR, KERNEL_ATTR, LIBRARY_CALL_ATTR},
    error::{Error, Result},
    ir::raw,
    target::GpuTarget,
};

use floors_runtime::{Artifact, KernelCode, Target};

use crate::plan::EmitterPlan;

fn walk(op: MlirOperation, f: &mut dyn FnMut(MlirOperation)) {
    for b in raw::region_blocks(op) {
        for o in raw::block_ops(b) {
            f(o);
            walk(o, f);
        }
    }
}

/// (gpu.module name, PTX text) for every `gpu.binary` in the module; none
/// when the floor produced no kernel (every fusion a library call).
pub fn ptx_of_module(module: &Module<'_>) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut lowered = false;
    walk(module.as_operation().to_raw(), &mut |o| {
        lowered |= raw::attr(o, GPU_KERNELS_ATTR).is_some();
        if raw::name(o) != "gpu.binary" {
            return;
        }
        let name = raw::str_attr(o, "sym_name").unwrap_or_default();
        if let Some(objects) = raw::attr(o, "objects") {
            // SAFETY: `objects` is the non-null `objects` attribute of the live `gpu.binary` `o`, an array of
            // #gpu.object as the op's verifier requires.
            for i in 0..unsafe { mlirArrayAttrGetNumElements(objects) } {
                // SAFETY: `i` is below the element count of `objects` read just above.
                let obj = unsafe { mlirArrayAttrGetElement(objects, i) };
                // SAFETY: `obj` is an element of `objects`, a #gpu.object (see above); its string is copied at once.
                let text = raw::string(unsafe { mlirGPUObjectAttrGetObject(obj) });
                out.push((name.clone(), text));
            }
        }
    });
    if out.is_empty() && !lowered {
        return Err(Error::Unsupported("the module has no gpu.binary (compile with --target gpu --emit ptx)".into()));
    }
    Ok(out)
}

pub use crate::manifest::{LaunchArg, ManifestEntry, ManifestLaunch};

/// The manifest `floors.gpu_kernels` of a compiled module.
pub fn manifest_of_module(module: &Module<'_>) -> Result<Vec<ManifestEntry>> {
    let mut manifest = None;
    walk(module.as_operation().to_raw(), &mut |o| {
        if let Some(a) = raw::attr(o, GPU_KERNELS_ATTR) {
            manifest = Some(a);
        }
    });
    let m = manifest.ok_or_else(|| Error::Unsupported(format!("the module has no {GPU_KERNELS_ATTR} (compile with --target gpu)")))?;
    crate::manifest::of_attribute(m)
        .ok_or_else(|| Error::Unsupported(format!("{GPU_KERNELS_ATTR} is not an array of #floors.gpu_kernel (internal)")))
}

/// The `ptxas` to use, if any.
pub fn find_ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FLOORS_PTXAS").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    if let Some(root) = std::env::var_os("CUDA_ROOT") {
        let p = PathBuf::from(root).join("bin/ptxas");
        if p.exists() {
            return Some(p);
        }
    }
    std::env::var_os("PATH")?.to_str()?.split(':').map(|d| PathBuf::from(d).join("ptxas")).find(|p| p.exists())
}

/// What `ptxas -v` says about one kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PtxasInfo {
    pub entry: String,
    pub registers: u32,
    pub shared_bytes: u64,
    pub spill_bytes: u64,
}

/// Assembles `ptx` for `chip` with `ptxas -O3 -v --warn-on-spills -Werror`;
/// Err with ptxas' messages when it fails.
pub fn run_ptxas(ptxas: &std::path::Path, ptx: &str, chip: &str) -> Result<Vec<PtxasInfo>> {
    let dir = std::env::temp_dir().join(format!("floors-ptxas-{}-{:?}", std::process::id(), std::thread::current().id()));
    std::fs::create_dir_all(&dir).map_err(|source| Error::Io { path: dir.clone(), source })?;
    let input = dir.join("kernel.ptx");
    std::fs::write(&input, ptx).map_err(|source| Error::Io { path: input.clone(), source })?;
    let out = std::process::Command::new(ptxas)
        .args(["--gpu-name", chip, "-O3", "-v", "--warn-on-spills", "-Werror", "-o"])
        .arg(dir.join("kernel.cubin"))
        .arg(&input)
        .output()
        .map_err(|source| Error::Io { path: ptxas.to_path_buf(), source })?;
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(Error::Unsupported(format!("ptxas --gpu-name {chip} failed:\n{text}")));
    }
    Ok(parse_ptxas(&text))
}

/// Parses `ptxas -v` output into one record per entry function.
pub fn parse_ptxas(text: &str) -> Vec<PtxasInfo> {
    let mut out: Vec<PtxasInfo> = Vec::new();
    let num_before = |s: &str, word: &str| -> Option<u64> {
        let i = s.find(word)?;
        s[..i].split_whitespace().last()?.parse().ok()
    };
    for line in text.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            out.push(PtxasInfo { entry: rest.split('\'').next().unwrap_or_default().to_string(), ..Default::default() });
        } else if let Some(cur) = out.last_mut() {
            if line.contains("Used") && line.contains("registers") {
                cur.registers = num_before(line, "registers").unwrap_or(0) as u32;
                cur.shared_bytes = num_before(line, "bytes smem").unwrap_or(0);
            }
            if line.contains("spill stores") {
                cur.spill_bytes = num_before(line, "bytes spill stores").unwrap_or(0) + num_before(line, "bytes spill loads").unwrap_or(0);
            }
        }
    }
    out
}

/// The GPU fusion report: per fusion, the emitter, why, its launches
/// (grid, block) and each kernel's registers and shared memory (from
/// `ptxas -v` when found, else the static shared memory of the PTX and
/// "registers: unknown (no ptxas)").
pub fn fusion_report(module: &Module<'_>, chip: &str) -> Result<String> {
    let root = module.as_operation().to_raw();
    let ptx = ptx_of_module(module)?;
    let ptxas = find_ptxas();
    let mut infos: Vec<(String, PtxasInfo)> = Vec::new();
    if let Some(p) = &ptxas {
        for (name, text) in &ptx {
            for i in run_ptxas(p, text, chip)? {
                infos.push((name.clone(), i));
            }
        }
    }
    // The manifest and codegen strategy per kernel function.
    let manifest = manifest_of_module(module).unwrap_or_default();
    let mut codegen = std::collections::HashMap::new();
    walk(root, &mut |o| {
        if raw::name(o) == "func.func"
            && let Some(c) = raw::attr(o, GPU_CODEGEN_ATTR)
        {
            let name = raw::str_attr(o, "sym_name").unwrap_or_default();
            // SAFETY: `c` is the non-null `floors.gpu_codegen` of the live `o`; floors-gpu-emit-gemm and
            // floors-gpu-emit-kernels only write it as a StringAttr (its kind is not checked here).
            codegen.insert(name, raw::string(unsafe { mlirStringAttrGetValue(c) }));
        }
    });
    let mut out = String::new();
    for (i, f) in crate::collect_fusions(root).into_iter().enumerate() {
        let kernel = raw::str_attr(f, KERNEL_ATTR).unwrap_or_default();
        let Some(e) = EmitterPlan::of_fusion(f) else {
            return Err(Error::Unsupported(format!("fusion {i} has no {GPU_EMITTER_ATTR}")));
        };
        if let Some(call) = raw::attr(f, LIBRARY_CALL_ATTR) {
            let (name, shape) = floors_ir::library_call::of_attribute(call)
                .ok_or_else(|| Error::Unsupported(format!("fusion {i}: {LIBRARY_CALL_ATTR} is not a #floors.library_call")))?;
            out.push_str(&format!("fusion {i} (library call): emitter {} — {}\n", e.kind, e.reason));
            out.push_str(&format!("  library call {name}: {}\n", library_call_text(f, &shape)));
            continue;
        }
        out.push_str(&format!(
            "fusion {i} ({kernel}): emitter {} — {}; codegen {}\n",
            e.kind,
            e.reason,
            codegen.get(&kernel).map(String::as_str).unwrap_or("none")
        ));
        for entry in manifest.iter().filter(|m| m.fusion == kernel) {
            for launch in &entry.launches {
                let (module_name, entry_name) = (&launch.module, &launch.entry);
                let (g, b) = (launch.grid, launch.block);
                let resources = match infos.iter().find(|(m, i)| m == module_name && i.entry == *entry_name) {
                    Some((_, i)) => format!("registers {}, shared memory {} B, spills {} B", i.registers, i.shared_bytes, i.spill_bytes),
                    None => {
                        let shared = ptx.iter().find(|(m, _)| m == module_name).map(|(_, t)| static_shared_bytes(t)).unwrap_or(0);
                        format!("registers: unknown (no ptxas), static shared memory {shared} B")
                    }
                };
                let how = launch_codegen(codegen.get(&kernel).map(String::as_str).unwrap_or(""), entry_name);
                out.push_str(&format!("  launch {entry_name}: {how}grid {g:?} block {b:?}; {resources}\n"));
            }
        }
    }
    Ok(out)
}

/// A library call's spec as `GemmSpec::describe` writes it (`F32 1x64x64x64 lhsT`).
fn library_call_text(f: MlirOperation, s: &floors_runtime::gemm::GemmShape) -> String {
    let ty = raw::results(f)
        .first()
        // SAFETY: `v` is a live result of the fusion `f`.
        .and_then(|&v| floors_host::tensor_spec(unsafe { mlirValueGetType(v) }))
        .map(|s| format!("{:?}", s.element_type))
        .unwrap_or_else(|| "?".into());
    let compute = match (ty.as_str(), floors_ir::library_call::gemm_compute(f)) {
        ("F32", floors_runtime::gemm::GemmCompute::Tf32) => "; TF32 tensor cores (precision DEFAULT)",
        ("F32", _) => "; FP32 (precision HIGH or HIGHEST)",
        _ => "",
    };
    format!(
        "{ty} {}x{}x{}x{}{}{} (batch strides {}, {}{compute})",
        s.batch,
        s.m,
        s.n,
        s.k,
        if s.transpose_lhs { " lhsT" } else { "" },
        if s.transpose_rhs { " rhsT" } else { "" },
        s.lhs_batch_stride,
        s.rhs_batch_stride
    )
}

/// The codegen of launch `entry` (`F_kK`): entry K of the kernel function's
/// `floors.gpu_codegen` list ("a; b [why]; c"), followed by "; ".
/// `floors-gpu-emit-gemm`'s record, when there is one, comes first
/// ("gemm(...) + a; b"); its launches are `F_gemmN`.
fn launch_codegen(codegen: &str, entry: &str) -> String {
    let (gemm, codegen) = match codegen.split_once(" + ") {
        Some((g, rest)) if g.starts_with("gemm") => (Some(g), rest),
        _ if codegen.starts_with("gemm") => (Some(codegen), ""),
        _ => (None, codegen),
    };
    if entry.rsplit('_').next().is_some_and(|last| last.starts_with("gemm")) {
        return gemm.map(|g| format!("{g}; ")).unwrap_or_default();
    }
    let Some(k) = entry.rsplit("_k").next().and_then(|k| k.parse::<usize>().ok()) else { return String::new() };
    let parts: Vec<&str> = codegen.split("; ").collect();
    // single-block: one launch for the whole function.
    let part = if parts.len() == 1 { parts[0] } else { parts.get(k).copied().unwrap_or("") };
    if part.is_empty() { String::new() } else { format!("{part}; ") }
}

/// Bytes of `.shared` arrays a PTX text declares.
pub fn static_shared_bytes(ptx: &str) -> u64 {
    ptx.lines()
        .filter(|l| l.contains(".shared") && l.contains('['))
        .filter_map(|l| {
            let bits: u64 = if l.contains(".b64") || l.contains(".f64") || l.contains(".u64") {
                8
            } else if l.contains(".b16") || l.contains(".f16") {
                2
            } else if l.contains(".b8") || l.contains(".u8") {
                1
            } else {
                4
            };
            let n: u64 = l.split('[').nth(1)?.split(']').next()?.parse().ok()?;
            Some(n * bits)
        })
        .sum()
}

/// `--emit thunks` for the GPU floor: the artifact's host program, one line
/// per thunk (kernels with their PTX launches, gemms as
/// `GemmSpec::describe` writes them, copies, control flow indented); no
/// device needed.
pub fn describe_program(artifact: &floors_runtime::Artifact) -> String {
    use floors_runtime::{BufferSlice, ThunkSpec};
    let p = &artifact.program;
    let s = |b: &BufferSlice| format!("a{}[{}+{}]", b.allocation, b.offset, b.size);
    let list = |v: &[BufferSlice]| v.iter().map(s).collect::<Vec<_>>().join(", ");
    let mut out = format!(
        "// {} allocations; peak {} bytes; temporaries packed into {} bytes\n",
        p.allocations.len(),
        p.memory.peak_bytes,
        p.memory.temp_bytes
    );
    for (i, (spec, alloc)) in p.params.iter().enumerate() {
        out.push_str(&format!("// parameter {i}: {} in a{alloc}\n", spec.describe()));
    }
    for (i, (spec, slice)) in p.results.iter().enumerate() {
        out.push_str(&format!("// result {i}: {} in {}\n", spec.describe(), s(slice)));
    }
    fn walk(
        thunks: &[ThunkSpec],
        depth: usize,
        out: &mut String,
        s: &dyn Fn(&BufferSlice) -> String,
        list: &dyn Fn(&[BufferSlice]) -> String,
    ) {
        let pad = "  ".repeat(depth);
        for t in thunks {
            match t {
                ThunkSpec::Kernel { kernel, inputs, outputs, grid } => {
                    out.push_str(&format!("{pad}kernel {kernel} grid {grid:?} ({}) -> ({})\n", list(inputs), list(outputs)))
                }
                ThunkSpec::Gemm(g) => out.push_str(&format!(
                    "{pad}gemm {} (batch strides {}, {}) ({}, {}) -> ({})\n",
                    g.describe(),
                    g.shape.lhs_batch_stride,
                    g.shape.rhs_batch_stride,
                    s(&g.lhs),
                    s(&g.rhs),
                    s(&g.out)
                )),
                ThunkSpec::Copy { from, to } => out.push_str(&format!("{pad}copy {} -> {}\n", s(from), s(to))),
                ThunkSpec::Memset { dst, value } => out.push_str(&format!("{pad}memset {} = {value:?}\n", s(dst))),
                ThunkSpec::CustomCall { target, inputs, outputs, .. } => {
                    out.push_str(&format!("{pad}custom-call {target} ({}) -> ({})\n", list(inputs), list(outputs)))
                }
                ThunkSpec::While { cond, predicate, body, .. } => {
                    out.push_str(&format!("{pad}while (predicate {}) cond:\n", s(predicate)));
                    walk(cond, depth + 1, out, s, list);
                    out.push_str(&format!("{pad}body:\n"));
                    walk(body, depth + 1, out, s, list);
                }
                ThunkSpec::Conditional { index, branches } => {
                    for (i, b) in branches.iter().enumerate() {
                        out.push_str(&format!("{pad}conditional (index {}) branch {i}:\n", s(index)));
                        walk(b, depth + 1, out, s, list);
                    }
                }
            }
        }
    }
    walk(&p.body, 0, &mut out, &s, &list);
    out
}
/// The artifact of a module the GPU floor has lowered (`floors-lower-gpu`):
/// the host program, and per kernel of the kernel table its PTX (one
/// `gpu.module` per fusion, one entry per launch) with the launches from the
/// manifest `floors.gpu_kernels`; temporaries between a kernel's launches
/// (`tmpK` in the manifest) become the module's `temps`.
pub fn artifact_of_module(module: &melior::ir::Module<'_>, name: &str) -> Result<Artifact> {
    use floors_runtime::artifact::{PtxArg, PtxLaunch, PtxModule};
    let top = module.as_operation().to_raw();
    let target = GpuTarget::of_operation(top)
        .ok_or_else(|| Error::Unsupported(format!("{name}: the compiled module has no GPU target (internal)")))?;
    let (program, kernels) = floors_host::export(module, name)?;
    let ptx = ptx_of_module(module)?;
    let manifest = manifest_of_module(module)?;
    let mut code = Vec::new();
    for k in &kernels {
        let entry = manifest
            .iter()
            .find(|m| m.fusion == k.name)
            .ok_or_else(|| Error::Unsupported(format!("{name}: kernel {} has no GPU manifest entry (internal)", k.name)))?;
        let mut launches = Vec::new();
        let mut text = None;
        for l in &entry.launches {
            let mut args = Vec::new();
            for &a in &l.args {
                let inputs = k.args.iter().filter(|a| !a.output).count() as u64;
                let buffer =
                    |i: u64| u32::try_from(i).map_err(|_| Error::Unsupported(format!("{name}: kernel {} has {a:?} (internal)", k.name)));
                args.push(match a {
                    LaunchArg::In(i) if i < inputs => PtxArg::Buffer(buffer(i)?),
                    LaunchArg::Out(i) if inputs + i < k.args.len() as u64 => PtxArg::Buffer(buffer(inputs + i)?),
                    LaunchArg::Tmp(i) if (i as usize) < entry.temps.len() => PtxArg::Temp(buffer(i)?),
                    // A launch argument the kernel table lacks is an
                    // internal error, never some other buffer.
                    _ => {
                        return Err(Error::Unsupported(format!(
                            "{name}: kernel {} has a launch argument {a:?} it lacks (internal)",
                            k.name
                        )));
                    }
                });
            }
            text = ptx.iter().find(|(m, _)| *m == l.module).map(|(_, t)| t.clone());
            launches.push(PtxLaunch {
                function: l.entry.clone(),
                grid: l.grid.map(|v| v as u32),
                block: l.block.map(|v| v as u32),
                shared_memory_bytes: 0,
                args,
            });
        }
        let ptx = text.ok_or_else(|| Error::Unsupported(format!("{name}: kernel {} has no PTX (internal)", k.name)))?;
        let temps = entry.temps.iter().map(|&b| b.max(0) as u64).collect();
        code.push(PtxModule { kernel: k.name.clone(), ptx, launches, temps });
    }
    let custom_call_targets = program.custom_call_targets().into_iter().map(String::from).collect();
    Ok(Artifact {
        producer: floors_host::producer(),
        name: floors_host::module_name(module, name),
        target: Target::Gpu { chip: target.chip(), device: target.device.clone() },
        program,
        custom_call_targets,
        kernels,
        code: KernelCode::Ptx(code),
    })
}
