//! What a Mosaic kernel costs, read off the kernel (not a pass): Pallas'
//! `CostEstimate` fields — flops, transcendentals, bytes accessed in HBM —
//! which the hand-off carries in its `backend_config` as Pallas writes
//! them, and the per-kernel report of `floors compile --target tpu
//! --fusion-report` ([`fusion_report`]): VMEM per buffer, the estimate, and
//! the MXU and HBM time it implies on the generation.
//!
//! Counting: the kernel body once per grid step (the product of
//! `iteration_bounds`), an `scf.for` with constant bounds its trip count
//! times (other loops once: a lower bound), both branches of an `scf.if`
//! (an upper bound) except a branch guarded by `grid index == c` (the
//! emitter's first-step and last-step regions: once per that axis's sweep);
//! `tpu.matmul` 2·M·N·K flops; float vector arithmetic
//! and reductions one flop per element; `math` transcendentals one per
//! element; every windowed operand's block once per grid step (Pallas
//! re-fetches it unless the block index repeats: an upper bound) and every
//! DMA to or from HBM (`any`) its slice's bytes.

use mlir_sys::*;

use floors_ir::ir::raw;

/// Pallas' `CostEstimate` of one kernel invocation, plus the share of the
/// flops that runs on the MXU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelCost {
    pub flops: u64,
    pub transcendentals: u64,
    pub bytes_accessed: u64,
    pub mxu_flops: u64,
}

impl KernelCost {
    /// The `cost_estimate` object of a `tpu_custom_call`'s config, as
    /// jax's `CostEstimate.to_json` writes it.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"flops\": {}, \"transcendentals\": {}, \"bytes_accessed\": {}, \"remote_bytes_transferred\": 0}}",
            self.flops, self.transcendentals, self.bytes_accessed
        )
    }
}

const FLOAT_ARITH: &[&str] = &[
    "arith.addf",
    "arith.subf",
    "arith.mulf",
    "arith.divf",
    "arith.remf",
    "arith.maximumf",
    "arith.minimumf",
    "arith.maxnumf",
    "arith.minnumf",
    "arith.negf",
    "arith.cmpf",
    "math.absf",
];

const TRANSCENDENTAL: &[&str] = &[
    "math.exp",
    "math.exp2",
    "math.expm1",
    "math.log",
    "math.log1p",
    "math.log2",
    "math.log10",
    "math.tanh",
    "math.sinh",
    "math.cosh",
    "math.sin",
    "math.cos",
    "math.tan",
    "math.asin",
    "math.acos",
    "math.atan",
    "math.atan2",
    "math.asinh",
    "math.acosh",
    "math.atanh",
    "math.erf",
    "math.erfc",
    "math.rsqrt",
    "math.sqrt",
    "math.cbrt",
    "math.powf",
];

/// The grid steps of kernel function `func` (1 without a grid).
pub fn grid_steps(func: MlirOperation) -> u64 {
    raw::i64_array(func, "iteration_bounds").map_or(1, |b| b.iter().map(|&n| n.max(0) as u64).product())
}

/// The memory space of a memref type (`vmem`, `smem`, `any`, `semaphore_mem`; "" for others).
pub fn memory_space(t: MlirType) -> String {
    // SAFETY: `t` is a live type; the memory space is read only of a memref, and the C side returns "" for anything but
    // a #tpu.memory_space.
    unsafe {
        if !mlirTypeIsAMemRef(t) {
            return String::new();
        }
        raw::string(floors_ir::capi::floorsTpuMemorySpaceName(mlirMemRefTypeGetMemorySpace(t)))
    }
}

/// The static shape of a memref, vector or tensor type.
pub fn shape_of(t: MlirType) -> Option<Vec<i64>> {
    // SAFETY: `t` is a live type; the rank and sizes are read only of a ranked shaped type, every index below its rank.
    unsafe {
        if !mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t) {
            return None;
        }
        let dims: Vec<i64> = (0..mlirShapedTypeGetRank(t)).map(|i| mlirShapedTypeGetDimSize(t, i as isize)).collect();
        dims.iter().all(|&d| d >= 0).then_some(dims)
    }
}

/// Bytes of a statically shaped memref or vector type (0 when unknown).
pub fn type_bytes(t: MlirType) -> u64 {
    shape_of(t).map_or(0, |s| s.iter().product::<i64>().max(0) as u64 * raw::element_bytes(t))
}

/// The operands of kernel function `func` that are windows (in VMEM or
/// SMEM, fetched per grid step): not the grid indices, not the scratch
/// (`scratch_operands`, the last ones), not arrays left in HBM, not semaphores.
pub fn windowed_args(func: MlirOperation) -> Vec<MlirValue> {
    let Some(&entry) = raw::region_blocks(func).first() else { return vec![] };
    // SAFETY: `entry` is the live entry block of `func`; `i` stays below its argument count.
    let args: Vec<MlirValue> = unsafe { (0..mlirBlockGetNumArguments(entry)).map(|i| mlirBlockGetArgument(entry, i)).collect() };
    let scratch = raw::int_attr(func, "scratch_operands").unwrap_or(0).max(0) as usize;
    let end = args.len().saturating_sub(scratch);
    args[..end]
        .iter()
        .copied()
        // SAFETY: each `a` is a live argument of `func`; only its type is read.
        .filter(|&a| matches!(memory_space(unsafe { mlirValueGetType(a) }).as_str(), "vmem" | "smem"))
        .collect()
}

/// The cost of one invocation of kernel function `func`.
pub fn kernel_cost(func: MlirOperation) -> KernelCost {
    let steps = grid_steps(func);
    let mut cost = KernelCost::default();
    for a in windowed_args(func) {
        // SAFETY: `a` is a live argument of `func`; only its type is read.
        cost.bytes_accessed += steps * type_bytes(unsafe { mlirValueGetType(a) });
    }
    let grid = Grid::of(func);
    for b in raw::region_blocks(func) {
        for o in raw::block_ops(b) {
            walk(o, steps, &grid, &mut cost);
        }
    }
    cost
}

fn numel(v: MlirValue) -> u64 {
    // SAFETY: `v` is a live value; only its type is read.
    shape_of(unsafe { mlirValueGetType(v) }).map_or(1, |s| s.iter().product::<i64>().max(0) as u64)
}

fn is_float_vector(v: MlirValue) -> bool {
    // SAFETY: `v` is a live value; its type and (for a vector) element type are read.
    unsafe {
        let t = mlirValueGetType(v);
        mlirTypeIsAVector(t) && mlirTypeIsAFloat(mlirShapedTypeGetElementType(t))
    }
}

/// The trip count of an `scf.for` with constant bounds.
fn trip_count(op: MlirOperation) -> Option<u64> {
    let c = |v: MlirValue| raw::producer(v).filter(|&p| raw::name(p) == "arith.constant").and_then(|p| raw::int_attr(p, "value"));
    let ops = raw::operands(op);
    let (lb, ub, step) = (c(*ops.first()?)?, c(*ops.get(1)?)?, c(*ops.get(2)?)?);
    (step > 0).then(|| ((ub - lb).max(0) as u64).div_ceil(step as u64))
}

/// The grid indices of a kernel (its first arguments) with their bounds.
struct Grid(Vec<(MlirValue, u64)>);

impl Grid {
    fn of(func: MlirOperation) -> Grid {
        let bounds = raw::i64_array(func, "iteration_bounds").unwrap_or_default();
        let Some(&entry) = raw::region_blocks(func).first() else { return Grid(vec![]) };
        // SAFETY: `entry` is the live entry block of `func`; the grid indices are its first arguments, one per bound,
        // and `i` stays below the argument count.
        let args: Vec<MlirValue> = unsafe {
            let n = mlirBlockGetNumArguments(entry).min(bounds.len() as isize);
            (0..n).map(|i| mlirBlockGetArgument(entry, i)).collect()
        };
        Grid(args.into_iter().zip(bounds).map(|(a, b)| (a, b.max(1) as u64)).collect())
    }

    /// The bound of the grid axis `cond` tests for one value (`index == c`,
    /// how the emitter guards a first-step or last-step region), if it does.
    fn axis_tested(&self, cond: MlirValue) -> Option<u64> {
        let p = raw::producer(cond).filter(|&p| raw::name(p) == "arith.cmpi" && raw::int_attr(p, "predicate") == Some(0))?;
        let ops = raw::operands(p);
        self.0.iter().find(|(g, _)| ops.iter().any(|v| v.ptr == g.ptr)).map(|&(_, b)| b)
    }
}

fn walk(op: MlirOperation, mult: u64, grid: &Grid, cost: &mut KernelCost) {
    let name = raw::name(op);
    let operands = raw::operands(op);
    let result = raw::results(op).first().copied();
    match name.as_str() {
        "tpu.matmul" => {
            if let (Some(r), Some(&lhs)) = (result, operands.first()) {
                // SAFETY: `r` is the live result of the matmul; only its type is read.
                let out = shape_of(unsafe { mlirValueGetType(r) }).unwrap_or_default();
                // Rows of the result (× batch): K is what the lhs has beyond them.
                let rows: u64 = out[..out.len().saturating_sub(1)].iter().product::<i64>().max(1) as u64;
                let k = numel(lhs) / rows.max(1);
                let f = 2 * numel(r) * k * mult;
                cost.flops += f;
                cost.mxu_flops += f;
            }
        }
        "vector.multi_reduction" => {
            if let Some(&src) = operands.first().filter(|&&v| is_float_vector(v)) {
                cost.flops += numel(src) * mult;
            }
        }
        "tpu.enqueue_dma" => {
            if let (Some(&src), Some(&dst)) = (operands.first(), operands.get(1)) {
                // SAFETY: `src` and `dst` are live operands of the DMA; only their types are read.
                let (st, dt) = unsafe { (mlirValueGetType(src), mlirValueGetType(dst)) };
                if memory_space(st) == "any" || memory_space(dt) == "any" {
                    cost.bytes_accessed += type_bytes(st) * mult;
                }
            }
        }
        n if FLOAT_ARITH.contains(&n) && operands.first().is_some_and(|&v| is_float_vector(v)) => {
            cost.flops += result.map_or(0, numel) * mult;
        }
        "math.fma" if result.is_some_and(is_float_vector) => {
            cost.flops += 2 * result.map_or(0, numel) * mult;
        }
        n if TRANSCENDENTAL.contains(&n) && result.is_some_and(is_float_vector) => {
            cost.transcendentals += result.map_or(0, numel) * mult;
        }
        _ => {}
    }
    let inner = match name.as_str() {
        "scf.for" => mult * trip_count(op).unwrap_or(1),
        // A region run at one step of a grid axis (the first k, the last k).
        "scf.if" => operands.first().and_then(|&c| grid.axis_tested(c)).map_or(mult, |b| (mult / b).max(1)),
        _ => mult,
    };
    for b in raw::region_blocks(op) {
        for o in raw::block_ops(b) {
            walk(o, inner, grid, cost);
        }
    }
}

/// `floors compile --target tpu --fusion-report`: per fusion, its kernel's
/// plan, the VMEM of every buffer (windows twice when the grid pipelines
/// them), the `cost_estimate` the hand-off carries, the MXU and HBM time it
/// implies on `target`'s generation at peak, and how much larger a rows
/// plan's blocks could be within the scoped VMEM limit. `top` is the
/// program through `floors-lower-tpu`.
pub fn fusion_report(top: MlirOperation, target: &floors_ir::target::TpuTarget) -> String {
    let info = floors_runtime::tpu::TpuGeneration::parse(&target.chip).map(|g| g.info());
    let kernels: Vec<MlirOperation> = raw::region_blocks(top)
        .into_iter()
        .flat_map(raw::block_ops)
        .filter(|&o| super::is_kernel_container(o))
        .flat_map(|c| raw::region_blocks(c).into_iter().flat_map(raw::block_ops).collect::<Vec<_>>())
        .collect();
    let func_of = |name: &str| {
        kernels
            .iter()
            .find(|&&m| raw::str_attr(m, "sym_name").as_deref() == Some(name))
            .and_then(|&m| raw::region_blocks(m).into_iter().flat_map(raw::block_ops).find(|&o| raw::name(o) == "func.func"))
    };
    let mut out = String::new();
    let mut total = KernelCost::default();
    for (i, f) in super::collect_fusions(top).into_iter().enumerate() {
        let kname = raw::str_attr(f, floors_ir::contract::KERNEL_ATTR).unwrap_or_default();
        let Some(func) = func_of(&kname) else {
            out.push_str(&format!("fusion {i}: no TPU kernel\n"));
            continue;
        };
        let plan = super::blocks::Plan::of(f);
        let plan_text = plan.as_ref().map_or("none".into(), |p| format!("{}, grid {:?}, block {:?}", p.strategy.name(), p.grid, p.block));
        out.push_str(&format!("fusion {i} ({kname}): plan {plan_text}\n"));
        let vmem = vmem_lines(f, func);
        out.push_str(&format!(
            "  VMEM: {} = {} of the {} scoped limit ({})\n",
            vmem.buffers.join(", "),
            mib(vmem.bytes),
            mib(target.vmem_limit_bytes),
            target.chip
        ));
        let c = kernel_cost(func);
        total.flops += c.flops;
        total.transcendentals += c.transcendentals;
        total.bytes_accessed += c.bytes_accessed;
        total.mxu_flops += c.mxu_flops;
        out.push_str(&format!(
            "  cost_estimate: flops={} transcendentals={} bytes_accessed={} (MXU flops {})\n",
            c.flops, c.transcendentals, c.bytes_accessed, c.mxu_flops
        ));
        if let Some(g) = info {
            out.push_str(&format!("  {}: {}\n", g.name, times(&c, g)));
        }
        if let Some(p) = plan.filter(|p| p.strategy == super::blocks::Strategy::Rows && p.grid.first().is_some_and(|&n| n > 1)) {
            let (steps, block) = (p.grid[0], p.block[0]);
            let grow = (2..=steps).filter(|k| steps % k == 0 && vmem.bytes * (*k as u64) <= target.vmem_limit_bytes).max();
            out.push_str(&match grow {
                Some(k) => format!(
                    "  blocks: {} rows ({} steps) would also fit ({} of VMEM): fewer, larger steps\n",
                    block * k,
                    steps / k,
                    mib(vmem.bytes * k as u64)
                ),
                None => format!("  blocks: {block} rows is the largest block of a whole number of steps that fits\n"),
            });
        }
    }
    if let Some(g) = info {
        out.push_str(&format!(
            "totals: flops={} transcendentals={} bytes_accessed={}; {}: {}\n",
            total.flops,
            total.transcendentals,
            total.bytes_accessed,
            g.name,
            times(&total, g)
        ));
    }
    out
}

struct Vmem {
    buffers: Vec<String>,
    bytes: u64,
}

/// The VMEM buffers of kernel `func` of fusion `f`: its operands in VMEM
/// (named by the fusion operand or result they window; ×2 when the grid
/// double-buffers them) and its scratch.
fn vmem_lines(f: MlirOperation, func: MlirOperation) -> Vmem {
    let Some(&entry) = raw::region_blocks(func).first() else { return Vmem { buffers: vec![], bytes: 0 } };
    // SAFETY: `entry` is the live entry block of `func`; `i` stays below its argument count.
    let args: Vec<MlirValue> = unsafe { (0..mlirBlockGetNumArguments(entry)).map(|i| mlirBlockGetArgument(entry, i)).collect() };
    let ng = raw::i64_array(func, "iteration_bounds").map_or(0, |b| b.len());
    let (ni, no) = (raw::operands(f).len(), raw::results(f).len());
    let pipelined = grid_steps(func) > 1;
    let (mut buffers, mut bytes) = (Vec::new(), 0);
    for (k, &a) in args.iter().enumerate().skip(ng) {
        // SAFETY: `a` is a live argument of `func`; only its type is read.
        let t = unsafe { mlirValueGetType(a) };
        if memory_space(t) != "vmem" {
            continue;
        }
        let j = k - ng;
        let (name, window) = if j < ni {
            (format!("in{j}"), true)
        } else if j < ni + no {
            (format!("out{}", j - ni), true)
        } else {
            (format!("scratch{}", j - ni - no), false)
        };
        let copies = if window && pipelined { 2 } else { 1 };
        let shape = shape_of(t).unwrap_or_default().iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x");
        // SAFETY: `t` is a memref type (its memory space was read); its element type is read.
        let elem = raw::type_text(unsafe { mlirShapedTypeGetElementType(t) });
        let b = type_bytes(t) * copies;
        bytes += b;
        buffers.push(format!("{name} {elem}[{shape}] {}{}", mib(b), if copies == 2 { " (2 buffers)" } else { "" }));
    }
    if buffers.is_empty() {
        buffers.push("none".into());
    }
    Vmem { buffers, bytes }
}

/// Bytes as MiB (KiB below one MiB).
fn mib(b: u64) -> String {
    if b < 1 << 20 { format!("{:.1} KiB", b as f64 / 1024.0) } else { format!("{:.2} MiB", b as f64 / (1u64 << 20) as f64) }
}

/// The MXU and HBM time of `c` at `g`'s peaks, and which bounds it.
fn times(c: &KernelCost, g: &floors_runtime::tpu::GenerationInfo) -> String {
    let (peak, bw) = (g.peak_bf16_flops as f64, g.hbm_bytes_per_s as f64);
    let mxu = c.mxu_flops as f64 / peak * 1e6;
    let hbm = c.bytes_accessed as f64 / bw * 1e6;
    format!(
        "MXU {mxu:.2} µs at {:.0} TFLOP/s bf16 (f32 operands take several passes), HBM {hbm:.2} µs at {:.0} GB/s → {}-bound, ≥ {:.2} µs",
        peak / 1e12,
        bw / 1e9,
        if mxu >= hbm { "MXU" } else { "HBM" },
        mxu.max(hbm)
    )
}
