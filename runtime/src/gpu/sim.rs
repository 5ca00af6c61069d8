//! The GPU program on the simulated device (`--device sim`): the thunks of
//! a GPU artifact over the PTX simulator's global memory
//! ([`floors_ptx_sim`]), no CUDA driver involved.
//!
//! - Every allocation of the host program and every module temporary is an
//!   allocation of its own on the simulated device (unmapped gaps between
//!   them), so an access past a buffer faults; a kernel launch may touch only
//!   the buffers its thunk passes and its module's temporaries (`memcheck`).
//! - Kernel thunks run their launches in order through the simulator; the
//!   parameter buffer is laid out from the entry's `.param` declarations.
//! - Gemm thunks run a host reference with cuBLAS's contract: column-major,
//!   `op(A)`, leading dimensions, strided batches ([`crate::gemm`]'s
//!   mapping, [`column_major_gemm`]); every element either operand reads
//!   must lie in its buffer, and `lda`/`ldb`/`ldc` must satisfy cuBLAS's
//!   bounds — so a wrong leading dimension or transpose is an error or a
//!   wrong answer, as on a GPU.
//! - Copies and memsets carry the bytes' initialization; `while` and
//!   `conditional` read their predicate from device memory.
//! - Counters per run: launches, library calls, global bytes (32-byte
//!   sectors), flops and tensor flops, and a modeled time for the described
//!   device: max(bytes / bandwidth, flops / peak, tensor flops / tensor
//!   peak, warp instructions / issue rate, the busiest warp's instructions /
//!   clock) + 3 µs per launch or library call.
//!
//! - Collectives (`floors.<collective>` calls) are NCCL calls
//!   ([`super::nccl`]): each device of an SPMD run is a simulated device of
//!   its own (its own global memory), running on its own thread; the calls
//!   meet through the run's communicator and compute NCCL's results on the
//!   flat buffers. A collective NCCL cannot compute as laid out is refused
//!   when the program is loaded.
//!
//! Other custom calls are refused when the program is loaded: a GPU handler
//! is written for a CUDA stream and device pointers, which the simulator has
//! not.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use floors_ptx_sim::{Checks, GlobalMemory, LaunchParams, LaunchStats, Module};

use super::device::DeviceDescription;
use super::nccl::NcclCollective;
use crate::artifact::{Artifact, PtxArg, PtxLaunch, PtxModule};
use crate::buffer::BufferSlice;
use crate::collectives::DeviceRun;
use crate::error::{Error, Result};
use crate::gemm::{ColumnMajorGemm, GemmCompute, GemmSpec, Operand, column_major_gemm};
use crate::npy::{ElementType, HostArray};
use crate::program::{AllocationRole, DeviceCounters, DeviceProgram, HostProgram, KernelCounters, MemsetValue, ThunkSpec, visit};

impl KernelCounters {
    fn add(&mut self, s: &LaunchStats, us: f64) {
        self.launches += 1;
        self.thread_instructions += s.thread_instructions;
        if self.by_class.len() < s.by_class.len() {
            self.by_class.resize(s.by_class.len(), 0);
        }
        for (a, b) in self.by_class.iter_mut().zip(&s.by_class) {
            *a += b;
        }
        self.global_bytes += s.global_load_bytes + s.global_store_bytes;
        self.flops += s.flops;
        self.tensor_flops += s.tensor_flops;
        self.modeled_us += us;
    }
}

/// A module's temporaries and its `.global` variables: `(address, bytes)` each.
type ModuleVars = (Vec<(u64, u64)>, Vec<(u64, u64)>);

fn gpu(message: String) -> Error {
    Error::Gpu(message)
}

/// One kernel of the kernel table: its parsed module, launches and temporaries.
struct SimKernel {
    name: String,
    module: Arc<Module>,
    launches: Vec<PtxLaunch>,
    /// Device addresses and sizes of the module's temporaries.
    temps: Vec<(u64, u64)>,
    /// The module's `.global`/`.const` variables as loaded.
    globals: Vec<(u64, u64)>,
}

struct SimState {
    mem: GlobalMemory,
    /// Device address of each allocation.
    addrs: Vec<u64>,
    kernels: Vec<SimKernel>,
    counters: DeviceCounters,
}

/// A kernel module as parsed once, shared by every device's state.
struct ParsedKernel {
    name: String,
    module: Arc<Module>,
    launches: Vec<PtxLaunch>,
    temp_bytes: Vec<u64>,
}

pub(crate) struct SimProgram {
    program: HostProgram,
    device: DeviceDescription,
    chip: String,
    checks: Checks,
    origin: String,
    kernels: Vec<ParsedKernel>,
    /// The NCCL form of each collective call, keyed by the address of its
    /// `ThunkSpec` in `program` (which is never changed after loading; the
    /// thunks' heap storage does not move with the program): every device
    /// runs the same call objects, so their rendezvous keys agree.
    collectives: HashMap<usize, NcclCollective>,
    /// The device of one-device runs.
    state: Mutex<SimState>,
    /// The devices of SPMD runs, by flat id, each with its own memory.
    spmd_states: Mutex<HashMap<usize, Arc<Mutex<SimState>>>>,
    /// Whether the last run was an SPMD run (whose counters are the devices').
    last_spmd: std::sync::atomic::AtomicBool,
}

fn spec_key(t: &ThunkSpec) -> usize {
    t as *const ThunkSpec as usize
}

/// Peak rates of the cost model, from the device description: FP32 lanes
/// per SM (64 on sm_80, 128 on sm_90: the architecture whitepapers) and
/// dense f16/bf16 tensor-core flops per SM per clock (2048 on sm_80, 4096
/// on sm_90) — H100 SXM: 66.9 TFLOP/s FP32, 989 TFLOP/s bf16 at 1.83 GHz.
fn peaks(d: &DeviceDescription) -> (f64, f64, f64) {
    let clock = d.clock_rate_khz as f64 * 1e3;
    let sms = d.sm_count as f64;
    let (lanes, tensor) = if d.cc_major >= 9 { (128.0, 4096.0) } else { (64.0, 2048.0) };
    (d.memory_bandwidth_bytes_per_s as f64, 2.0 * lanes * sms * clock, tensor * sms * clock)
}

/// Modeled microseconds of one launch or library call: 3 µs of launch
/// latency plus the largest of its memory, FP32 and tensor-core times and
/// its instruction-issue times (all warp instructions over 4 schedulers per
/// SM; the busiest warp's instructions, one per cycle).
fn modeled_us(d: &DeviceDescription, bytes: u64, flops: u64, tensor_flops: u64, issue: (u64, u64)) -> f64 {
    let (bw, fp32, tensor) = peaks(d);
    let clock = d.clock_rate_khz as f64 * 1e3;
    let t = |work: u64, rate: f64| if rate > 0.0 { work as f64 / rate } else { 0.0 };
    let issue_all = t(issue.0, 4.0 * d.sm_count as f64 * clock);
    let issue_serial = t(issue.1, clock);
    3.0 + 1e6 * t(bytes, bw).max(t(flops, fp32)).max(t(tensor_flops, tensor)).max(issue_all).max(issue_serial)
}

impl SimProgram {
    pub(crate) fn new(
        artifact: &Artifact,
        chip: &str,
        device: &DeviceDescription,
        modules: &[PtxModule],
        origin: &str,
        checks: Checks,
    ) -> Result<Self> {
        let program = artifact.program.clone();
        let mut collectives = HashMap::new();
        let mut refused: Option<Error> = None;
        visit(&program.body, &mut |t| {
            if let ThunkSpec::CustomCall { target, inputs, outputs, info } = t
                && refused.is_none()
            {
                if !crate::collectives::is_collective(target) {
                    refused = Some(gpu(format!(
                        "custom call `{target}`: the simulated device runs no custom-call handlers (a GPU handler takes a CUDA stream and device pointers)"
                    )));
                    return;
                }
                match NcclCollective::new(target, info, inputs.clone(), outputs.clone()) {
                    Ok(c) => {
                        collectives.insert(spec_key(t), c);
                    }
                    Err(e) => refused = Some(Error::Run(e)),
                }
            }
        });
        if let Some(e) = refused {
            return Err(e);
        }
        let mut kernels = Vec::new();
        for m in modules {
            let module = floors_ptx_sim::parse(&m.ptx).map_err(|e| Error::KernelLoad {
                origin: origin.into(),
                message: format!("kernel `{}`: the simulator cannot read its PTX: {e}", m.kernel),
            })?;
            for l in &m.launches {
                let f = module.entry(&l.function).ok_or_else(|| Error::KernelLoad {
                    origin: origin.into(),
                    message: format!("kernel `{}`: no entry `{}` in its PTX", m.kernel, l.function),
                })?;
                if f.params.len() != l.args.len() {
                    return Err(Error::KernelLoad {
                        origin: origin.into(),
                        message: format!(
                            "kernel `{}`: entry `{}` declares {} parameters, its launch passes {}",
                            m.kernel,
                            l.function,
                            f.params.len(),
                            l.args.len()
                        ),
                    });
                }
            }
            kernels.push(ParsedKernel {
                name: m.kernel.clone(),
                module: Arc::new(module),
                launches: m.launches.clone(),
                temp_bytes: m.temps.clone(),
            });
        }
        let state = Self::fresh_state(&program, &kernels, origin)?;
        Ok(Self {
            program,
            device: device.clone(),
            chip: chip.to_string(),
            checks,
            origin: origin.to_string(),
            kernels,
            collectives,
            state: Mutex::new(state),
            spmd_states: Mutex::new(HashMap::new()),
            last_spmd: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// A device's memory: every allocation and every module's temporaries
    /// and variables, allocated and loaded.
    fn fresh_state(program: &HostProgram, parsed: &[ParsedKernel], origin: &str) -> Result<SimState> {
        let mut mem = GlobalMemory::new();
        let memory = |e: floors_ptx_sim::SimError| Error::Artifact { origin: origin.into(), message: e.to_string() };
        let addrs = program
            .allocations
            .iter()
            .enumerate()
            .map(|(i, a)| mem.alloc(a.size.max(1), format!("allocation {i}")).map_err(memory))
            .collect::<Result<Vec<_>>>()?;
        let mut kernels = Vec::new();
        for k in parsed {
            let temps = k
                .temp_bytes
                .iter()
                .enumerate()
                .map(|(i, &bytes)| Ok((mem.alloc(bytes.max(1), format!("{} temporary {i}", k.name)).map_err(memory)?, bytes)))
                .collect::<Result<Vec<_>>>()?;
            let globals =
                mem.load_globals(&k.module, &k.name).map_err(|e| Error::KernelLoad { origin: origin.into(), message: e.to_string() })?;
            kernels.push(SimKernel { name: k.name.clone(), module: k.module.clone(), launches: k.launches.clone(), temps, globals });
        }
        Ok(SimState { mem, addrs, kernels, counters: DeviceCounters::default() })
    }

    /// The state of SPMD device `flat_id` (made on its first run).
    fn spmd_state(&self, flat_id: usize) -> Result<Arc<Mutex<SimState>>> {
        let mut states = self.spmd_states.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = states.get(&flat_id) {
            return Ok(s.clone());
        }
        let s = Arc::new(Mutex::new(Self::fresh_state(&self.program, &self.kernels, &self.origin)?));
        states.insert(flat_id, s.clone());
        Ok(s)
    }
}

/// One run's view of the device (`device`: its place in an SPMD run).
struct Run<'a> {
    p: &'a SimProgram,
    st: &'a mut SimState,
    device: Option<&'a DeviceRun>,
}

impl Run<'_> {
    fn addr(&self, s: &BufferSlice) -> u64 {
        self.st.addrs[s.allocation] + s.offset
    }

    fn seq(&mut self, seq: &[ThunkSpec]) -> Result<()> {
        seq.iter().try_for_each(|t| self.thunk(t))
    }

    fn read_predicate(&self, s: &BufferSlice, what: &str) -> Result<[u8; 4]> {
        let a = self.addr(s);
        let n = s.size.min(4);
        if self.p.checks.initcheck
            && let Some(b) = self.st.mem.first_uninitialized(a, n)
        {
            return Err(gpu(format!("initcheck: the {what} at {} was never written", self.st.mem.describe(b))));
        }
        let bytes = self.st.mem.read(a, n).map_err(|e| gpu(e.to_string()))?;
        let mut out = [0u8; 4];
        out[..bytes.len()].copy_from_slice(&bytes);
        Ok(out)
    }

    fn thunk(&mut self, t: &ThunkSpec) -> Result<()> {
        match t {
            ThunkSpec::Kernel { kernel, inputs, outputs, .. } => {
                let args: Vec<BufferSlice> = inputs.iter().chain(outputs).copied().collect();
                let k = self
                    .st
                    .kernels
                    .iter()
                    .position(|k| &k.name == kernel)
                    .ok_or_else(|| Error::Program(format!("kernel `{kernel}` has no PTX module")))?;
                let (module, launches, temps) = {
                    let k = &self.st.kernels[k];
                    (k.module.clone(), k.launches.clone(), (k.temps.clone(), k.globals.clone()))
                };
                for l in &launches {
                    self.launch(kernel, &module, l, &args, &temps)?;
                }
                Ok(())
            }
            ThunkSpec::Copy { from, to } => {
                if from.size != to.size {
                    return Err(Error::Program(format!("copy: source is {} bytes, destination {}", from.size, to.size)));
                }
                if from.size > 0 {
                    self.st.mem.copy(self.addr(from), self.addr(to), from.size).map_err(|e| gpu(format!("memcpy: {e}")))?;
                }
                Ok(())
            }
            ThunkSpec::Memset { dst, value } => {
                if dst.size == 0 {
                    return Ok(());
                }
                let pattern = match value {
                    MemsetValue::Byte(b) => vec![*b],
                    MemsetValue::Word(w) => w.to_le_bytes().to_vec(),
                };
                self.st.mem.fill(self.addr(dst), dst.size, &pattern).map_err(|e| gpu(format!("memset: {e}")))
            }
            ThunkSpec::Gemm(g) => self.gemm(g),
            ThunkSpec::While { cond, predicate, body, trip_count } => {
                if let Some(n) = trip_count {
                    for _ in 0..*n {
                        self.seq(body)?;
                    }
                    return Ok(());
                }
                loop {
                    self.seq(cond)?;
                    match self.read_predicate(predicate, "while predicate")?[0] {
                        0 => return Ok(()),
                        1 => self.seq(body)?,
                        b => return Err(gpu(format!("while: the predicate byte is {b}, neither 0 nor 1"))),
                    }
                }
            }
            ThunkSpec::Conditional { index, branches } => {
                let bytes = self.read_predicate(index, "conditional index")?;
                let last = branches.len().checked_sub(1).ok_or_else(|| Error::Program("a conditional without branches".into()))?;
                let branch = if index.size == 1 {
                    match bytes[0] {
                        0 => 1.min(last),
                        1 => 0,
                        b => return Err(gpu(format!("conditional: the bool index byte is {b}"))),
                    }
                } else {
                    usize::try_from(i32::from_le_bytes(bytes)).ok().filter(|&i| i < last).unwrap_or(last)
                };
                self.seq(&branches[branch])
            }
            ThunkSpec::CustomCall { target, .. } => match self.p.collectives.get(&spec_key(t)) {
                Some(c) => self.collective(c),
                None => Err(gpu(format!("custom call `{target}` on the simulated device"))),
            },
        }
    }

    /// A collective as NCCL calls: the operands read from device memory
    /// (initcheck), NCCL's results written back; one library call each.
    fn collective(&mut self, c: &NcclCollective) -> Result<()> {
        let mut sends = Vec::with_capacity(c.inputs().len());
        for s in c.inputs() {
            let a = self.addr(s);
            if self.p.checks.initcheck
                && s.size > 0
                && let Some(b) = self.st.mem.first_uninitialized(a, s.size)
            {
                return Err(gpu(format!("initcheck: {}: reads {} never written", c.describe(), self.st.mem.describe(b))));
            }
            sends.push(if s.size == 0 { Vec::new() } else { self.st.mem.read(a, s.size).map_err(|e| gpu(e.to_string()))? });
        }
        let outs = c.run(self.device, &sends)?;
        let mut bytes = 0;
        for (s, out) in c.outputs().iter().zip(&outs) {
            if s.size > 0 {
                self.st.mem.write(self.addr(s), out).map_err(|e| gpu(e.to_string()))?;
            }
            bytes += s.size;
        }
        bytes += c.inputs().iter().map(|s| s.size).sum::<u64>();
        let us = modeled_us(&self.p.device, bytes, 0, 0, (0, 0));
        let counters = &mut self.st.counters;
        counters.library_calls += 1;
        counters.global_bytes += bytes;
        counters.modeled_us += us;
        let name = c.describe();
        match counters.kernels.iter_mut().find(|k| k.name == name) {
            Some(k) => {
                k.launches += 1;
                k.global_bytes += bytes;
                k.modeled_us += us;
            }
            None => counters.kernels.push(KernelCounters { name, launches: 1, global_bytes: bytes, modeled_us: us, ..Default::default() }),
        }
        Ok(())
    }

    /// `vars`: the module's temporaries, then its `.global` variables.
    fn launch(&mut self, kernel: &str, module: &Module, l: &PtxLaunch, args: &[BufferSlice], vars: &ModuleVars) -> Result<()> {
        let (temps, globals) = vars;
        let f = module.entry(&l.function).expect("checked at load");
        let mut params = vec![0u8; f.param_bytes as usize];
        let mut allowed = Vec::new();
        for (arg, p) in l.args.iter().zip(&f.params) {
            let (bytes, len): (u64, usize) = match *arg {
                PtxArg::Buffer(i) => {
                    let s =
                        args.get(i as usize).ok_or_else(|| Error::Program(format!("kernel `{kernel}`: argument {i} of {}", args.len())))?;
                    allowed.push((self.addr(s), s.size));
                    (self.addr(s), 8)
                }
                PtxArg::Temp(i) => {
                    let &(a, n) = temps.get(i as usize).ok_or_else(|| Error::Program(format!("kernel `{kernel}`: temporary {i}")))?;
                    allowed.push((a, n));
                    (a, 8)
                }
                PtxArg::I32(v) => (v as u32 as u64, 4),
                PtxArg::I64(v) => (v as u64, 8),
            };
            if p.size as usize != len {
                return Err(Error::Program(format!(
                    "kernel `{kernel}`: parameter `{}` of `{}` is {} bytes, the launch passes {len}",
                    p.name, l.function, p.size
                )));
            }
            params[p.offset as usize..p.offset as usize + len].copy_from_slice(&bytes.to_le_bytes()[..len]);
        }
        let lp = LaunchParams {
            kernel,
            entry: &l.function,
            grid: l.grid,
            block: l.block,
            dynamic_shared: l.shared_memory_bytes,
            params: &params,
            allowed: &allowed,
            globals,
            checks: self.p.checks,
            max_shared: self.p.device.shared_memory_per_block_optin.max(self.p.device.shared_memory_per_block),
        };
        let stats = floors_ptx_sim::launch(module, &self.st.mem, &lp).map_err(|e| gpu(e.to_string()))?;
        self.count_launch(kernel, &l.function, &stats);
        Ok(())
    }

    fn count_launch(&mut self, kernel: &str, entry: &str, s: &LaunchStats) {
        let bytes = s.global_load_bytes + s.global_store_bytes;
        let us = modeled_us(&self.p.device, bytes, s.flops, s.tensor_flops, (s.warp_instructions, s.max_warp_instructions));
        let c = &mut self.st.counters;
        c.launches += 1;
        c.global_bytes += bytes;
        c.flops += s.flops + s.tensor_flops;
        c.modeled_us += us;
        let name = format!("{kernel}/{entry}");
        match c.kernels.iter_mut().find(|k| k.name == name) {
            Some(k) => k.add(s, us),
            None => {
                let mut k = KernelCounters { name, ..Default::default() };
                k.add(s, us);
                c.kernels.push(k);
            }
        }
    }

    /// cuBLAS `gemmStridedBatchedEx` with `alpha = 1`, `beta = 0`, on the
    /// host: the parameter checks cuBLAS makes (`CUBLAS_STATUS_INVALID_VALUE`),
    /// every element read inside its operand's buffer, then the product.
    fn gemm(&mut self, spec: &GemmSpec) -> Result<()> {
        if spec.out.size == 0 {
            return Ok(());
        }
        let g: ColumnMajorGemm = spec.column_major();
        let what = || format!("gemm (cuBLAS) {}", spec.describe());
        let invalid = |m: String| Err(gpu(format!("{}: CUBLAS_STATUS_INVALID_VALUE: {m}", what())));
        if g.lda < (if g.trans_a { g.k } else { g.m }).max(1) {
            return invalid(format!("lda {} < {} rows of A", g.lda, if g.trans_a { g.k } else { g.m }));
        }
        if g.ldb < (if g.trans_b { g.n } else { g.k }).max(1) {
            return invalid(format!("ldb {} < {} rows of B", g.ldb, if g.trans_b { g.n } else { g.k }));
        }
        if g.ldc < g.m.max(1) {
            return invalid(format!("ldc {} < m = {}", g.ldc, g.m));
        }
        let esize = spec.element_type.bytes() as u64;
        let slice = |o: Operand| if o == Operand::Lhs { spec.lhs } else { spec.rhs };
        // The last element each operand reads (column-major, per batch).
        let last = |rows: u64, cols: u64, ld: u64, stride: u64| {
            if rows == 0 || cols == 0 { 0 } else { (g.batch - 1) * stride + (cols - 1) * ld + rows }
        };
        let (ra, ca) = if g.trans_a { (g.k, g.m) } else { (g.m, g.k) };
        let (rb, cb) = if g.trans_b { (g.n, g.k) } else { (g.k, g.n) };
        let need = [
            ("A", slice(g.a), last(ra, ca, g.lda, g.stride_a)),
            ("B", slice(g.b), last(rb, cb, g.ldb, g.stride_b)),
            ("C", spec.out, last(g.m, g.n, g.ldc, g.stride_c)),
        ];
        for (name, s, elems) in need {
            if elems * esize > s.size {
                return Err(gpu(format!(
                    "memcheck: {}: operand {name} spans {} bytes, its buffer (allocation {}) has {}",
                    what(),
                    elems * esize,
                    s.allocation,
                    s.size
                )));
            }
        }
        let read = |s: BufferSlice| -> Result<Vec<u8>> {
            let a = self.addr(&s);
            if self.p.checks.initcheck
                && let Some(b) = self.st.mem.first_uninitialized(a, s.size)
            {
                return Err(gpu(format!("initcheck: {}: reads {} never written", what(), self.st.mem.describe(b))));
            }
            self.st.mem.read(a, s.size).map_err(|e| gpu(e.to_string()))
        };
        let (a, b) = (read(slice(g.a))?, read(slice(g.b))?);
        let out_elems = (spec.out.size / esize) as usize;
        let mut out = vec![0u8; spec.out.size as usize];
        if g.k == 0 {
            // cuBLAS with k = 0 scales C by beta = 0.
        } else {
            match spec.element_type {
                ElementType::F32 => {
                    // TF32 tensor cores read each element rounded to 10
                    // mantissa bits; products are exact, sums in f32.
                    let read: fn(f32) -> f32 = if spec.compute == GemmCompute::Tf32 { crate::gemm::tf32 } else { |x| x };
                    let (a, b) = (
                        words::<4>(&a).map(|w| read(f32::from_le_bytes(w)) as f64),
                        words::<4>(&b).map(|w| read(f32::from_le_bytes(w)) as f64),
                    );
                    let (a, b): (Vec<f64>, Vec<f64>) = (a.collect(), b.collect());
                    let mut c = vec![0f64; out_elems];
                    column_major_gemm(&g, &a, &b, &mut c, |x| x, |x| x as f32 as f64);
                    for (k, v) in c.iter().enumerate() {
                        out[4 * k..4 * k + 4].copy_from_slice(&(*v as f32).to_le_bytes());
                    }
                }
                ElementType::F64 => {
                    let (a, b): (Vec<f64>, Vec<f64>) =
                        (words::<8>(&a).map(f64::from_le_bytes).collect(), words::<8>(&b).map(f64::from_le_bytes).collect());
                    let mut c = vec![0f64; out_elems];
                    column_major_gemm(&g, &a, &b, &mut c, |x| x, |x| x);
                    for (k, v) in c.iter().enumerate() {
                        out[8 * k..8 * k + 8].copy_from_slice(&v.to_le_bytes());
                    }
                }
                ElementType::F16 | ElementType::Bf16 => {
                    let bf = spec.element_type == ElementType::Bf16;
                    let to = |w: [u8; 2]| {
                        let bits = u16::from_le_bytes(w);
                        if bf { half::bf16::from_bits(bits).to_f64() } else { half::f16::from_bits(bits).to_f64() }
                    };
                    let (a, b): (Vec<f64>, Vec<f64>) = (words::<2>(&a).map(to).collect(), words::<2>(&b).map(to).collect());
                    let mut c = vec![0f64; out_elems];
                    // Accumulated in f32 (CUBLAS_COMPUTE_32F), rounded to the output type.
                    column_major_gemm(&g, &a, &b, &mut c, |x| x, |x| x as f32 as f64);
                    for (k, v) in c.iter().enumerate() {
                        let bits = if bf { half::bf16::from_f64(*v).to_bits() } else { half::f16::from_f64(*v).to_bits() };
                        out[2 * k..2 * k + 2].copy_from_slice(&bits.to_le_bytes());
                    }
                }
                t => return Err(gpu(format!("{}: cuBLAS has no gemm of {t:?}", what()))),
            }
        }
        self.st.mem.write(self.addr(&spec.out), &out).map_err(|e| gpu(e.to_string()))?;
        let flops = 2 * g.batch * g.m * g.n * g.k;
        let bytes = spec.lhs.size + spec.rhs.size + spec.out.size;
        let tf32 = spec.element_type == ElementType::F32 && spec.compute == GemmCompute::Tf32;
        let (fp, tensor) = if matches!(spec.element_type, ElementType::F16 | ElementType::Bf16) || tf32 { (0, flops) } else { (flops, 0) };
        // Dense TF32 runs at half the f16/bf16 tensor rate (A100, H100).
        let us = modeled_us(&self.p.device, bytes, fp, if tf32 { 2 * tensor } else { tensor }, (0, 0));
        let c = &mut self.st.counters;
        c.library_calls += 1;
        c.global_bytes += bytes;
        c.flops += flops;
        c.modeled_us += us;
        let name = format!("{} (library)", what());
        let row = match c.kernels.iter().position(|k| k.name == name) {
            Some(i) => &mut c.kernels[i],
            None => {
                c.kernels.push(KernelCounters { name, ..Default::default() });
                c.kernels.last_mut().expect("just pushed")
            }
        };
        row.launches += 1;
        row.global_bytes += bytes;
        row.flops += fp;
        row.tensor_flops += tensor;
        row.modeled_us += us;
        Ok(())
    }
}

fn words<const N: usize>(bytes: &[u8]) -> impl Iterator<Item = [u8; N]> + '_ {
    bytes.chunks_exact(N).map(|c| c.try_into().expect("N bytes"))
}

impl SimProgram {
    fn run(&self, inputs: &[&HostArray]) -> Result<Vec<HostArray>> {
        self.last_spmd.store(false, std::sync::atomic::Ordering::Relaxed);
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.run_in(&mut guard, inputs, None)
    }

    /// One run in `st` (a device's memory), as device `device` of an SPMD run.
    fn run_in(&self, st: &mut SimState, inputs: &[&HostArray], device: Option<&DeviceRun>) -> Result<Vec<HostArray>> {
        st.counters = DeviceCounters::default();
        for (i, spec) in self.program.allocations.iter().enumerate() {
            if let AllocationRole::Constant(init) = &spec.role
                && !init.is_empty()
            {
                st.mem.write(st.addrs[i], init).map_err(|e| gpu(e.to_string()))?;
            }
        }
        for (i, (_, alloc)) in self.program.params.iter().enumerate() {
            if !inputs[i].bytes.is_empty() {
                st.mem.write(st.addrs[*alloc], &inputs[i].bytes).map_err(|e| gpu(e.to_string()))?;
            }
        }
        let mut run = Run { p: self, st, device };
        for (i, t) in self.program.body.iter().enumerate() {
            run.thunk(t).map_err(|e| match e {
                Error::Gpu(m) => gpu(format!("thunk #{i}: {m}")),
                e => e,
            })?;
        }
        let mut outs = Vec::with_capacity(self.program.results.len());
        for (k, (spec, slice)) in self.program.results.iter().enumerate() {
            let a = run.addr(slice);
            if self.checks.initcheck
                && slice.size > 0
                && let Some(b) = run.st.mem.first_uninitialized(a, slice.size)
            {
                return Err(gpu(format!("initcheck: result {k}: byte {} of it was never written", b - a)));
            }
            let bytes = if slice.size == 0 { Vec::new() } else { run.st.mem.read(a, slice.size).map_err(|e| gpu(e.to_string()))? };
            let mut buf = crate::AlignedBuffer::zeros(bytes.len());
            buf.copy_from_slice(&bytes);
            outs.push(HostArray { element_type: spec.element_type, shape: spec.shape.clone(), bytes: buf });
        }
        Ok(outs)
    }
}

impl DeviceProgram for SimProgram {
    fn execute(&self, inputs: &[&HostArray]) -> Result<Vec<HostArray>> {
        self.run(inputs)
    }

    /// Device `device` of an SPMD run: a simulated device of its own.
    fn execute_on(&self, inputs: &[&HostArray], device: &DeviceRun) -> Result<Vec<HostArray>> {
        self.last_spmd.store(true, std::sync::atomic::Ordering::Relaxed);
        let state = self.spmd_state(device.flat_id())?;
        let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
        self.run_in(&mut guard, inputs, Some(device))
    }

    /// The modeled time of each run (the simulator's wall time says nothing about a GPU's).
    fn bench(&self, inputs: &[&HostArray], warmup: usize, reps: usize) -> Result<Vec<f64>> {
        for _ in 0..warmup.min(1) {
            self.run(inputs)?;
        }
        let mut times = Vec::with_capacity(reps);
        for _ in 0..reps.min(3) {
            self.run(inputs)?;
            times.push(self.counters().map(|c| c.modeled_us / 1e3).unwrap_or(0.0));
        }
        Ok(times)
    }

    fn describe(&self) -> String {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut s =
            format!("// GPU: simulated {} ({}); {} allocations; checks {:?}\n", self.device.name, self.chip, st.addrs.len(), self.checks);
        for k in &st.kernels {
            for l in &k.launches {
                s += &format!(
                    "kernel {} entry {} grid {:?} block {:?} smem {}\n",
                    k.name, l.function, l.grid, l.block, l.shared_memory_bytes
                );
            }
        }
        s
    }

    /// The last run's counters; of an SPMD run, every device's together:
    /// launches, calls, bytes and flops summed, the modeled time the
    /// slowest device's (they run at once).
    fn counters(&self) -> Option<DeviceCounters> {
        if !self.last_spmd.load(std::sync::atomic::Ordering::Relaxed) {
            return Some(self.state.lock().unwrap_or_else(|e| e.into_inner()).counters.clone());
        }
        let states = self.spmd_states.lock().unwrap_or_else(|e| e.into_inner());
        let mut ids: Vec<&usize> = states.keys().collect();
        ids.sort();
        let mut all = DeviceCounters::default();
        for id in ids {
            let c = states[id].lock().unwrap_or_else(|e| e.into_inner()).counters.clone();
            all.launches += c.launches;
            all.library_calls += c.library_calls;
            all.global_bytes += c.global_bytes;
            all.flops += c.flops;
            all.modeled_us = all.modeled_us.max(c.modeled_us);
            for k in c.kernels {
                match all.kernels.iter_mut().find(|a| a.name == k.name) {
                    Some(a) => {
                        a.launches += k.launches;
                        a.thread_instructions += k.thread_instructions;
                        a.global_bytes += k.global_bytes;
                        a.flops += k.flops;
                        a.tensor_flops += k.tensor_flops;
                        a.modeled_us = a.modeled_us.max(k.modeled_us);
                        if a.by_class.len() < k.by_class.len() {
                            a.by_class.resize(k.by_class.len(), 0);
                        }
                        a.by_class.iter_mut().zip(&k.by_class).for_each(|(x, y)| *x += y);
                    }
                    None => all.kernels.push(k),
                }
            }
        }
        Some(all)
    }
}
