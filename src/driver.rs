//! The driver the CLI, the Rust API and the tests share: parse, run a named
//! pipeline with verification after every pass, dump on demand, print.

use std::ffi::c_void;

use floors_runtime::Trace;
use melior::{
    Context, StringRef,
    ir::{Module, operation::OperationLike},
    pass::PassManager,
    utility::parse_pass_pipeline,
};

use crate::{
    diagnostics::{Capture, Diag, Severity},
    dump::{AfterPass, DumpOptions, Dumper, PipelineObserver, Step, after_pass_trampoline, before_pass_trampoline},
    error::{Error, Result},
    floor::{Floor, FloorKind, Target},
    ir::print_op,
    pipelines,
};

/// How far `compile` takes a program. Only stages that exist are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Stage {
    /// The module after HLO cleanup (`floors-hlo-cleanup`).
    Hlo,
    /// The fused module (`floors-fuse`): floors.fusion ops, control flow, calls.
    Fused,
    /// CPU floor: the fused module with every stablehlo op lowered to
    /// linalg/tensor/arith/math/scf on tensors (`floors-linalg-lower-stablehlo`).
    Linalg,
    /// CPU floor (`floors-lower-cpu`): the host program (fusions tagged with
    /// `floors.kernel`) and the nested kernel module `@floors_kernels` in the
    /// LLVM dialect, one `@fusion_N_kernel(frame) -> error` entry per fusion.
    Llvm,
    /// CPU floor: the kernel module as LLVM IR, optimized at -O3 for the host CPU.
    LlvmIr,
    /// CPU floor: the kernel module as an ELF object file (PIC, -O3, host CPU).
    Obj,
    /// CPU floor: the thunk sequence of `@main` (kernels JIT-compiled), with
    /// each thunk's buffer uses and the executor's mode.
    Thunks,
    /// TPU floor (`floors-lower-tpu`): the host program (fusions tagged with
    /// `floors.kernel` and their `floors.tpu_plan`) and the Mosaic kernel
    /// modules (`tpu` dialect, grid, windows, index maps) in `@floors_tpu_kernels`.
    Tpu,
    /// TPU floor: the hand-off Pallas writes — the fused StableHLO program
    /// with every kernel as `stablehlo.custom_call @tpu_custom_call`
    /// (`backend_config`: the kernel in Mosaic's wire form, bytecode, base64).
    TpuHandoff,
    /// GPU floor (`floors-gpu-kernels-to-gpu`): the host program (fusions
    /// tagged with `floors.kernel` and `floors.gpu_emitter`) and the kernel
    /// module in the gpu dialect: host functions of `gpu.launch_func` ops,
    /// one `gpu.module` per kernel, the manifest `floors.gpu_kernels`.
    Gpu,
    /// GPU floor (`floors-lower-gpu`): the PTX of every kernel, one
    /// `// kernel MODULE` header per `gpu.module`.
    Ptx,
    /// The fusion graph as Graphviz text: fusions (kind, hero, shapes,
    /// bytes, the floor's kernel), unfused ops, parameters and results;
    /// edges labelled with bytes; control-flow bodies as clusters.
    Dot,
    /// The fusion graph rendered to SVG by Graphviz's `dot` (package `graphviz`).
    Svg,
}

impl Stage {
    /// Whether the stage is below fusion (and so needs a target): the
    /// shared `linalg` level, a floor's stage, or `thunks`.
    pub fn below_fusion(self) -> bool {
        !matches!(self, Stage::Hlo | Stage::Fused | Stage::Dot | Stage::Svg)
    }

    /// The floor whose stage this is; None for the levels every floor
    /// shares (`hlo`, `fused`, `linalg`), the fusion graph (`dot`, `svg`)
    /// and `thunks` (every floor's host program).
    pub fn floor(self) -> Option<FloorKind> {
        match self {
            Stage::Llvm | Stage::LlvmIr | Stage::Obj => Some(FloorKind::Cpu),
            Stage::Gpu | Stage::Ptx => Some(FloorKind::Gpu),
            Stage::Tpu | Stage::TpuHandoff => Some(FloorKind::Tpu),
            Stage::Hlo | Stage::Fused | Stage::Linalg | Stage::Thunks | Stage::Dot | Stage::Svg => None,
        }
    }

    /// The textual pipeline that produces this stage from a parsed module:
    /// the levels' own, a floor stage's from its floor (`linalg` and
    /// `thunks` as the CPU floor makes them).
    pub fn pipeline(self) -> String {
        match self {
            Stage::Hlo => format!("builtin.module({})", pipelines::FLOORS_HLO_CLEANUP.name),
            Stage::Fused | Stage::Dot | Stage::Svg => format!("builtin.module({})", pipelines::FLOORS_FUSE.name),
            _ => match self.floor() {
                Some(FloorKind::Gpu) => crate::floor::GpuFloor.pipeline(self),
                Some(FloorKind::Tpu) => crate::floor::TpuFloor.pipeline(self),
                _ => crate::floor::CpuFloor.pipeline(self),
            },
        }
    }

    /// The stage's name as `--emit` spells it.
    pub fn name(self) -> String {
        use clap::ValueEnum;
        self.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default()
    }
}

/// Options shared by every compile.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    pub dump: Option<DumpOptions>,
    /// CPU floor: the most workgroups a kernel may be split into, so the
    /// runtime can run it on that many threads (0 or 1: no split). Recorded
    /// as the module attribute `floors.max_workgroups`; `floors run` and
    /// `floors bench` set it to their thread count.
    pub workgroups: usize,
    /// CPU floor: split only kernels with at least this many iterations
    /// (None: the default, 65536). Recorded as `floors.min_workgroup_iterations`.
    pub workgroup_min_iterations: Option<i64>,
    /// The floor and its target (CPU, the host, by default), recorded as
    /// the module attribute `floors.target` when a stage below fusion is
    /// compiled.
    pub target: Target,
    /// CPU floor: the C compiler driver that links kernel objects into the
    /// artifact's shared object (None: `cc`).
    pub linker: Option<String>,
    /// Print MLIR's pass timing report (wall time per pass, nested as the
    /// pipeline is) to stderr after each pipeline run (`--pass-timing`).
    pub pass_timing: bool,
}

impl CompileOptions {
    /// The linker to use (`cc` unless set).
    pub fn linker(&self) -> &str {
        self.linker.as_deref().unwrap_or("cc")
    }

    /// Options from the `FLOORS_FLAGS` environment variable (the library
    /// users' `XLA_FLAGS`): `--dump-to=DIR --dump-pass-re=REGEX`.
    pub fn from_env() -> Result<Self> {
        match std::env::var("FLOORS_FLAGS") {
            Ok(flags) => Ok(Self { dump: DumpOptions::from_flags(&flags)?, ..Self::default() }),
            Err(_) => Ok(Self::default()),
        }
    }
}

/// A compiler instance: one MLIR context and the options.
pub struct Compiler {
    context: Context,
    options: CompileOptions,
}

impl Compiler {
    pub fn new(options: CompileOptions) -> Result<Self> {
        crate::pipelines::register_all();
        Ok(Self { context: crate::context::create_context(), options })
    }

    pub fn context(&self) -> &Context {
        &self.context
    }

    pub fn options(&self) -> &CompileOptions {
        &self.options
    }

    /// Parses and verifies a module; `name` is the file name diagnostics show.
    /// The options that shape compilation travel as module attributes
    /// (`floors.max_workgroups`, `floors.min_workgroup_iterations`,
    /// `floors.target`), so any pipeline run on the module sees them.
    pub fn parse(&self, name: &str, text: &str) -> Result<Module<'_>> {
        let module = crate::source::parse_module(&self.context, name, text)?;
        use crate::contract::MAX_WORKGROUPS_ATTR;
        use crate::contract::MIN_ITERATIONS_ATTR;
        let op = module.as_operation().to_raw();
        // SAFETY: `op` is the live module just parsed and the context is its own; `key` outlives the call and MLIR
        // copies it into an identifier.
        let set = |key: &str, v: i64| unsafe {
            let ctx = mlir_sys::mlirOperationGetContext(op);
            let a = mlir_sys::mlirIntegerAttrGet(mlir_sys::mlirIntegerTypeGet(ctx, 64), v);
            mlir_sys::mlirOperationSetAttributeByName(op, StringRef::new(key).to_raw(), a);
        };
        if self.options.workgroups > 1 {
            set(MAX_WORKGROUPS_ATTR, self.options.workgroups as i64);
        }
        if let Some(n) = self.options.workgroup_min_iterations {
            set(MIN_ITERATIONS_ATTR, n);
        }
        if let Target::Cpu(Some(_)) = self.options.target {
            self.attach_target(&module)?;
        }
        Ok(module)
    }

    /// Records the target on the module (`floors.target` and the floor's
    /// module options), as the target's floor does it. Stages below fusion
    /// need it; the fused module itself is target-neutral.
    pub fn attach_target(&self, module: &Module<'_>) -> Result<()> {
        self.options.target.floor().attach_target(self, module)
    }

    /// Runs a textual pipeline (e.g. `builtin.module(floors-fuse)`), verifying
    /// after every pass and dumping if asked.
    pub fn run_pipeline(&self, module: &mut Module<'_>, pipeline: &str, module_name: &str) -> Result<()> {
        self.run_pipeline_traced(module, pipeline, module_name, None)
    }

    /// [`Compiler::run_pipeline`], also putting every pass (timed, nested
    /// pass managers enclosing their passes) on the trace's `compile passes`
    /// track. With `--dump-html` the dump gets its index even when a pass
    /// fails (the failed pass marked).
    pub fn run_pipeline_traced(&self, module: &mut Module<'_>, pipeline: &str, module_name: &str, trace: Option<&Trace>) -> Result<()> {
        if self.options.dump.is_none() && trace.is_none() {
            return self.run_observed(module, pipeline, None);
        }
        let dumper = self.options.dump.as_ref().map(|opts| Dumper::create(opts, module_name)).transpose()?;
        let mut observer = PipelineObserver::new(dumper.as_ref(), trace, module.as_operation())?;
        let ran = self.run_observed(module, pipeline, Some(&mut observer));
        let (_, failure) = observer.finish(pipeline, module_name);
        if let Some(d) = &dumper {
            tracing::info!("dumped {} to {}", module_name, d.dir().display());
        }
        ran?;
        failure.map_or(Ok(()), Err)
    }

    /// Runs a pipeline and returns the IR after every pass (for snapshots).
    pub fn run_traced(&self, module: &mut Module<'_>, pipeline: &str) -> Result<Vec<Step>> {
        let mut steps = Vec::new();
        let mut observer = |pass: &str, root: melior::ir::OperationRef<'_, '_>| {
            steps.push(Step { ordinal: steps.len() + 1, pass: pass.to_string(), ir: print_op(&root) });
        };
        self.run_observed(module, pipeline, Some(&mut observer))?;
        Ok(steps)
    }

    /// Runs a pipeline with neither dumps nor observers (what the driver
    /// runs besides the compile it was asked for, e.g. for the fusion graph).
    pub fn run_quiet(&self, module: &mut Module<'_>, pipeline: &str) -> Result<()> {
        self.run_observed(module, pipeline, None)
    }

    fn run_observed(&self, module: &mut Module<'_>, pipeline: &str, observer: Option<&mut AfterPass<'_>>) -> Result<()> {
        let capture = Capture::new(&self.context);
        let pm = verified_pass_manager(&self.context, pipeline, self.options.pass_timing)?;
        // Observers print the whole module after each pass; nested passes must
        // not be mutating a sibling function on another thread meanwhile.
        let observed = observer.is_some();
        let mut slot: Option<&mut AfterPass<'_>> = observer;
        if let Some(obs) = slot.as_mut() {
            self.context.enable_multi_threading(false);
            let user = obs as *mut &mut AfterPass<'_> as *mut c_void;
            // SAFETY: `pm` is live and owns the two instrumentations, and it is dropped (`drop(pm)` below) before
            // `slot`, the `&mut AfterPass` that `user` points at; the trampolines cast `user` back to that type, and
            // with multithreading off they run on this thread while `obs` is not otherwise used.
            unsafe {
                crate::capi::floorsPassManagerAddBeforePassCallback(pm.to_raw(), Some(before_pass_trampoline), user);
                crate::capi::floorsPassManagerAddAfterPassCallback(pm.to_raw(), Some(after_pass_trampoline), user);
            }
        }
        // Passes, the verifier and printers recurse per nesting level.
        let result = crate::source::with_big_stack(|| pm.run(module));
        drop(pm);
        if observed {
            self.context.enable_multi_threading(true);
        }
        let diags = capture.take();
        match result {
            Ok(()) if !diags.has_errors() => Ok(()),
            _ => Err(pipeline_failure(diags, module, pipeline)),
        }
    }

    /// Parse, run the pipeline for `stage`, and print the result (LLVM IR
    /// text for [`Stage::LlvmIr`]; [`Stage::Obj`] is binary: use
    /// [`Compiler::compile_output`]).
    pub fn compile_source(&self, name: &str, text: &str, stage: Stage) -> Result<String> {
        if stage == Stage::Obj {
            return Err(Error::Unsupported("an object file is binary; use compile_output".into()));
        }
        let bytes = self.compile_output(name, text, stage)?;
        Ok(String::from_utf8(bytes).expect("IR text is UTF-8"))
    }

    /// Parse, run the pipeline for `stage`, and give what `--emit` writes:
    /// printed IR, LLVM IR text, or the object file's bytes.
    pub fn compile_output(&self, name: &str, text: &str, stage: Stage) -> Result<Vec<u8>> {
        crate::floor::check_stage(&self.options.target, stage)?;
        let floor = self.options.target.floor();
        if let Some(out) = floor.output(self, name, text, stage)? {
            return Ok(out);
        }
        if matches!(stage, Stage::Dot | Stage::Svg) {
            let dot = crate::graph::fusion_graph(self, name, text)?.to_dot();
            return if stage == Stage::Svg { crate::graph::render_svg(&dot) } else { Ok(dot.into_bytes()) };
        }
        let module = self.compile_module(name, text, stage)?;
        floor.translate(&module, stage)
    }

    /// Parse and run the pipeline for `stage`; the module for further work.
    pub fn compile_module(&self, name: &str, text: &str, stage: Stage) -> Result<Module<'_>> {
        self.compile_module_traced(name, text, stage, None)
    }

    /// [`Compiler::compile_module`], recording the phases (`parse`, the
    /// pipeline) on the trace's `compile` track and every pass on its
    /// `compile passes` track.
    pub fn compile_module_traced(&self, name: &str, text: &str, stage: Stage, trace: Option<&Trace>) -> Result<Module<'_>> {
        crate::floor::check_stage(&self.options.target, stage)?;
        let floor = self.options.target.floor();
        let mut module = floors_runtime::trace::phase(trace, "parse", || self.parse(name, text))?;
        let below = stage.below_fusion();
        if below {
            floor.attach_target(self, &module)?;
        }
        let module_name = floors_host::module_name(&module, name);
        let pipeline = if below { floor.pipeline(stage) } else { stage.pipeline() };
        floors_runtime::trace::phase(trace, &format!("passes {pipeline}"), || {
            self.run_pipeline_traced(&mut module, &pipeline, &module_name, trace)
        })?;
        if below {
            floor.after_pipeline(self, &module, stage)?;
        }
        Ok(module)
    }

    /// The fusion report of a fused module (`floors compile --fusion-report`).
    pub fn fusion_report(module: &Module<'_>) -> floors_hlo::fusion_analysis::FusionReport {
        floors_hlo::fusion_analysis::report(module.as_operation().to_raw())
    }
}

/// A pass manager for the textual `pipeline`, verifying after every pass.
fn verified_pass_manager<'c>(context: &'c Context, pipeline: &str, timing: bool) -> Result<PassManager<'c>> {
    crate::pipelines::register_all();
    let pm = PassManager::new(context);
    pm.enable_verifier(true);
    if timing {
        // SAFETY: `pm` is the live pass manager just created; MLIR prints the report when it is destroyed.
        unsafe { mlir_sys::mlirPassManagerEnableTiming(pm.to_raw()) };
    }
    parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline)
        .map_err(|e| Error::Pipeline { pipeline: pipeline.into(), message: e.to_string() })?;
    Ok(pm)
}

/// The error of a failed `pipeline` run: its diagnostics, or, when the
/// failing pass reported none, one at the module's location saying so.
fn pipeline_failure(mut diags: crate::diagnostics::Diagnostics, module: &Module<'_>, pipeline: &str) -> Error {
    if !diags.has_errors() {
        diags.0.push(Diag {
            severity: Severity::Error,
            pos: crate::diagnostics::source_pos(module.as_operation().location()),
            message: format!("pipeline `{pipeline}` failed"),
            notes: vec![],
        });
    }
    Error::Diagnostics(diags)
}

/// Raw MLIR handles handed to the threads of [`Compiler::lower_kernels_in_parts`].
struct Shared<T>(T);
// SAFETY: an MLIR context with multithreading enabled may be used from any
// thread (its uniquing is locked), and each part module is owned and touched
// by exactly one thread.
unsafe impl<T> Send for Shared<T> {}
// SAFETY: as for `Send` above: the only `Shared` value is the context handle, used by the part threads through MLIR's
// thread-safe (multithreaded) context API.
unsafe impl<T> Sync for Shared<T> {}

/// A part module on its way to its thread: destroyed here if no thread
/// takes it (one that failed to start).
struct PartModule(Option<mlir_sys::MlirModule>);
// SAFETY: as for `Shared`: the module is used by one thread at a time.
unsafe impl Send for PartModule {}

impl Drop for PartModule {
    fn drop(&mut self) {
        if let Some(m) = self.0.take() {
            // SAFETY: `m` is a part module this value still owns (no thread took it), destroyed once: `take` leaves
            // `None` behind.
            unsafe { mlir_sys::mlirModuleDestroy(m) };
        }
    }
}

/// The kernels of a kernel module (`func.func` ops with `floors.kernel`),
/// by name, each with a rough cost for balancing parts: its op count, and a
/// contraction (a linalg op with a reduction over 3+ loops: matmul,
/// convolution) weighing what its packed, register-tiled code does in LLVM.
fn kernel_costs(kernel_module: mlir_sys::MlirOperation) -> Vec<(String, usize)> {
    use crate::ir::raw;
    const CONTRACTION_COST: usize = 500;
    fn cost(op: mlir_sys::MlirOperation) -> usize {
        let iterators: Vec<String> = raw::attr(op, "iterator_types")
            // SAFETY: `a` is a non-null attribute (from `raw::attr`) of the live op `op`.
            .filter(|&a| unsafe { mlir_sys::mlirAttributeIsAArray(a) })
            // SAFETY: `a` is an array attribute (checked by the filter); every index is below its element count.
            .map(|a| unsafe {
                (0..mlir_sys::mlirArrayAttrGetNumElements(a)).map(|i| raw::attr_text(mlir_sys::mlirArrayAttrGetElement(a, i))).collect()
            })
            .unwrap_or_default();
        let name = raw::name(op);
        let contraction = name.starts_with("linalg.")
            && (name.contains("matmul")
                || name.contains("conv")
                || (iterators.len() >= 3 && iterators.iter().any(|t| t.contains("reduction"))));
        let own = 1 + if contraction { CONTRACTION_COST } else { 0 };
        own + raw::region_blocks(op).into_iter().flat_map(raw::block_ops).map(cost).sum::<usize>()
    }
    // SAFETY: `kernel_module` is the live kernel module (`kernel_module_op`), a `builtin.module` with one region.
    let body = unsafe { mlir_sys::mlirRegionGetFirstBlock(mlir_sys::mlirOperationGetRegion(kernel_module, 0)) };
    raw::block_ops(body)
        .into_iter()
        .filter(|&o| raw::name(o) == "func.func" && raw::attr(o, crate::contract::KERNEL_ATTR).is_some())
        .filter_map(|o| symbol_name(o).map(|n| (n, cost(o))))
        .collect()
}

/// The `sym_name` of `op`, if it has one.
fn symbol_name(op: mlir_sys::MlirOperation) -> Option<String> {
    crate::ir::raw::attr(op, "sym_name")
        // SAFETY: `a` is a non-null attribute (from `raw::attr`) of the live op `op`.
        .filter(|&a| unsafe { mlir_sys::mlirAttributeIsAString(a) })
        // SAFETY: `a` is a string attribute (checked by the filter), as the getter assumes; the text is copied at
        // once.
        .map(|a| crate::ir::raw::string(unsafe { mlir_sys::mlirStringAttrGetValue(a) }))
}

/// Kernel names shared out over at most `parts` parts, longest first onto
/// the lightest part (at least one part, possibly with no kernels).
fn share_out(costs: &[(String, usize)], parts: usize) -> Vec<Vec<String>> {
    let parts = parts.clamp(1, costs.len().max(1));
    let mut order: Vec<&(String, usize)> = costs.iter().collect();
    order.sort_by_key(|(_, c)| std::cmp::Reverse(*c));
    let mut out = vec![(0usize, Vec::new()); parts];
    for (name, c) in order {
        if let Some(p) = out.iter_mut().min_by_key(|(load, _)| *load) {
            p.0 += c;
            p.1.push(name.clone());
        }
    }
    out.into_iter().map(|(_, names)| names).collect()
}

impl Compiler {
    /// The CPU floor's kernel lowering in parallel: the kernel module of
    /// `module` (outlined, `floors-linalg-outline-kernels`, not yet lowered)
    /// is copied into up to `parts` part modules, each keeping a share of the
    /// kernels (balanced by [`kernel_costs`]) and the module's
    /// `floors.target`; on one thread per part, `floors-cpu-kernels-to-llvm`
    /// lowers it (verified after every pass) and `each` takes the result
    /// (code generation, so MLIR and LLVM work overlap across parts). Every
    /// pass of that pipeline works kernel by kernel, so a kernel lowers to
    /// the same IR in a part as in the whole module (tests/cpu_kernels.rs
    /// checks); the serial whole-module pipeline stays what dumps, traces
    /// and `--emit` run. Diagnostics of all parts are reported together.
    pub fn lower_kernels_in_parts<T: Send>(
        &self,
        module: &Module<'_>,
        parts: usize,
        each: impl Fn(&Module<'_>) -> Result<T> + Sync,
    ) -> Result<Vec<T>> {
        use crate::ir::raw;
        use floors_linalg::linalg_outline_kernels::extract_kernels;
        let no_kernels = || Error::Unsupported("the module has no kernel module (run floors-linalg-outline-kernels first)".into());
        let costs = kernel_costs(floors_linalg::linalg_outline_kernels::kernel_module_op(module).ok_or_else(no_kernels)?);
        let target = raw::attr(module.as_operation().to_raw(), crate::contract::TARGET_ATTR)
            .ok_or_else(|| Error::Unsupported("the module has no floors.target (internal)".into()))?;
        let mut part_modules = Vec::new();
        for names in share_out(&costs, parts) {
            let part = extract_kernels(module).ok_or_else(no_kernels)?;
            let op = part.as_operation().to_raw();
            // SAFETY: `op` is the live part module just extracted, a `builtin.module` with one region.
            let body = unsafe { mlir_sys::mlirRegionGetFirstBlock(mlir_sys::mlirOperationGetRegion(op, 0)) };
            for f in raw::block_ops(body) {
                if raw::attr(f, crate::contract::KERNEL_ATTR).is_some() && symbol_name(f).is_some_and(|n| !names.contains(&n)) {
                    // SAFETY: `f` is a live kernel function of the part, listed above and visited once; it is
                    // destroyed here (unlinked from the part) and not used afterwards.
                    unsafe { mlir_sys::mlirOperationDestroy(f) };
                }
            }
            // SAFETY: `op` is the live part module and `target` the `floors.target` of `module`, an attribute of the
            // same context (the part is extracted into it); the name is a static string that MLIR copies.
            unsafe { mlir_sys::mlirOperationSetAttributeByName(op, StringRef::new(crate::contract::TARGET_ATTR).to_raw(), target) };
            part_modules.push(PartModule(Some(part.to_raw())));
            // Owned by `PartModule`, then by its thread (Module::from_raw there).
            std::mem::forget(part);
        }
        tracing::debug!("kernel parts (kernel, cost): {costs:?}");
        let pipeline = format!("builtin.module({})", pipelines::FLOORS_CPU_KERNELS_TO_LLVM.name);
        let capture = Capture::new(&self.context);
        let context = Shared(self.context.to_raw());
        let (context, each, pipeline) = (&context, &each, &pipeline);
        let timing = self.options.pass_timing;
        let results: Vec<Option<Result<T>>> = std::thread::scope(|s| {
            let handles: Vec<_> = part_modules
                .into_iter()
                .enumerate()
                .map(|(i, part)| {
                    std::thread::Builder::new().name(format!("floors-kernels-{i}")).spawn_scoped(s, move || {
                        let mut part = part;
                        let Some(raw) = part.0.take() else {
                            return Err(Error::Unsupported("a kernel part was handed out twice (internal)".into()));
                        };
                        // SAFETY: the context outlives the scope; the part
                        // module is this thread's alone and dropped here.
                        let mut part = unsafe { Module::from_raw(raw) };
                        // SAFETY: `context.0` is the compiler's context, which outlives the thread scope; it is
                        // multithreaded (MLIR's default; only observed runs turn that off, and they turn it back on),
                        // so threads may share it.
                        let context = unsafe { melior::ContextRef::from_raw(context.0) };
                        let start = std::time::Instant::now();
                        let lowered = crate::source::with_big_stack(|| -> Result<()> {
                            // SAFETY: the `&Context` is used only inside this thread, within the scope that the
                            // compiler's context outlives.
                            let pm = verified_pass_manager(unsafe { context.to_ref() }, pipeline, timing)?;
                            pm.run(&mut part).map_err(|_| Error::Diagnostics(crate::diagnostics::Diagnostics(Vec::new())))
                        });
                        let lowered_at = start.elapsed();
                        let out = lowered.and_then(|()| each(&part));
                        tracing::debug!("kernel part {i}: lowered in {lowered_at:?}, done in {:?}", start.elapsed());
                        out
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.ok().map(|h| {
                        h.join().unwrap_or_else(|_| Err(Error::Unsupported("a kernel lowering thread panicked (internal)".into())))
                    })
                })
                .collect()
        });
        let diags = capture.take();
        let mut out = Vec::new();
        for r in results {
            match r {
                None => return Err(Error::Unsupported("cannot start a kernel lowering thread".into())),
                Some(Ok(v)) => out.push(v),
                // The pass failures' diagnostics are in the capture.
                Some(Err(Error::Diagnostics(d))) if d.0.is_empty() => return Err(pipeline_failure(diags, module, pipeline)),
                Some(Err(e)) => return Err(e),
            }
        }
        if diags.has_errors() {
            return Err(Error::Diagnostics(diags));
        }
        Ok(out)
    }
}
