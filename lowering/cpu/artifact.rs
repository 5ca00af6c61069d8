//! The CPU floor's artifact: the host program, the kernel table, and the
//! kernels' shared object with the x86 features its code needs.

use floors_ir::{
    error::{Error, Result},
    target::CpuTarget,
};
use floors_runtime::{Artifact, KernelCode, Target, Trace, trace};

/// The CPU artifact of `module` (outlined: its host program final) with the
/// kernel objects `objects` makes for the module's target, linked by
/// `linker` (a C compiler driver, `--linker`).
pub fn artifact(
    module: &melior::ir::Module<'_>,
    name: &str,
    linker: &str,
    trace: Option<&Trace>,
    objects: impl FnOnce(&CpuTarget) -> Result<Vec<Vec<u8>>>,
) -> Result<Artifact> {
    let top = module.as_operation().to_raw();
    let target = CpuTarget::of_operation(top)
        .ok_or_else(|| Error::Unsupported(format!("{name}: the compiled module has no CPU target (internal)")))?;
    let (program, kernels) = trace::phase(trace, "host program", || floors_host::export(module, name))?;
    let objects = objects(&target)?;
    let so = trace::phase(trace, "link", || crate::codegen::link_shared_object(&objects, linker))?;
    let required_features = required_features(&target);
    let custom_call_targets = program.custom_call_targets().into_iter().map(String::from).collect();
    Ok(Artifact {
        producer: floors_host::producer(),
        name: floors_host::module_name(module, name),
        target: Target::Cpu {
            triple: target.triple.clone(),
            cpu: target.cpu.clone(),
            features: target.features.clone(),
            vector_bits: target.vector_bits,
            required_features,
        },
        program,
        custom_call_targets,
        kernels,
        code: KernelCode::CpuSharedObject(so),
    })
}

/// x86 features the loader checks before running the code: those of the
/// target (its feature string, else its CPU's table) the runtime can probe,
/// and the vector extension the schedules were written for.
fn required_features(target: &CpuTarget) -> Vec<String> {
    // avx512bf16: bf16 dots are `vdpbf16ps` where the target has it. Asked
    // of LLVM's CPU table too, so a named CPU (`--cpu znver4`, no feature
    // string) records what its code may use.
    const PROBED: [&str; 9] = ["avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512bf16"];
    let mut out: Vec<String> = PROBED.iter().filter(|f| target.has_feature(f)).map(|f| f.to_string()).collect();
    if target.triple.starts_with("x86_64") {
        let implied = match target.vector_bits {
            512 => Some("avx512f"),
            256 => Some("avx"),
            _ => None,
        };
        out.extend(implied.filter(|f| !out.iter().any(|o| o == f)).map(String::from));
    }
    out.sort();
    out
}
