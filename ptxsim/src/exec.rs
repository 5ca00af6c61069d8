//! One kernel launch: the grid's blocks in parallel, each block's warps in
//! lockstep, every instruction from the PTX ISA (its section named next to
//! its code).

use rayon::prelude::*;

use crate::ir::*;
use crate::memory::{GlobalMemory, LOCAL_WINDOW, SHARED_WINDOW};
use crate::numeric::{F, float_to_int, fminmax, int_range, int_to_float, int_value, round_integral, sext, zext};
use crate::tensor;
use crate::{CheckKind, Checks, SimError, SimResult, Site};

/// Instructions one warp may issue before the launch is stopped as endless
/// (at 30–50 million thread-instructions per second, minutes of host time).
pub const MAX_WARP_INSTRUCTIONS: u64 = 1 << 31;

/// Threads one launch may have (a grid of 16 M blocks of 256).
pub const MAX_LAUNCH_THREADS: u64 = 1 << 32;

/// What a launch is given.
#[derive(Clone, Debug)]
pub struct LaunchParams<'a> {
    /// How errors name the kernel (`fusion_3_gpu/fusion_3_k0`).
    pub kernel: &'a str,
    /// The `.entry` to run.
    pub entry: &'a str,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared: u32,
    /// The parameter buffer, laid out as the entry declares its `.param`s.
    pub params: &'a [u8],
    /// The global ranges `(address, bytes)` this launch may touch (its
    /// buffers; the module's variables are added); empty: any allocation.
    pub allowed: &'a [(u64, u64)],
    /// The module's `.global`/`.const` variables as loaded
    /// ([`GlobalMemory::load_globals`]), in declaration order.
    pub globals: &'a [(u64, u64)],
    pub checks: Checks,
    /// Shared memory per block the device allows, bytes.
    pub max_shared: u64,
}

/// Instruction classes counted per launch.
pub const CLASSES: [&str; 9] = ["integer", "float", "conversion", "global", "shared", "local/param", "control", "sync", "tensor"];

/// What a launch did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaunchStats {
    /// Instructions executed, counted once per active thread.
    pub thread_instructions: u64,
    /// Instructions issued, counted once per warp.
    pub warp_instructions: u64,
    /// Warp instructions per class of [`CLASSES`].
    pub by_class: [u64; 9],
    /// Global memory read, in whole 32-byte sectors per warp instruction.
    pub global_load_bytes: u64,
    pub global_store_bytes: u64,
    /// Floating-point operations of the scalar units (an fma is 2).
    pub flops: u64,
    /// Floating-point operations of tensor-core instructions (2·M·N·K each).
    pub tensor_flops: u64,
    /// The most instructions one warp issued: a warp issues at most one
    /// per cycle, so the launch takes at least this many cycles.
    pub max_warp_instructions: u64,
}

impl LaunchStats {
    pub fn add(&mut self, o: &LaunchStats) {
        self.thread_instructions += o.thread_instructions;
        self.warp_instructions += o.warp_instructions;
        for (a, b) in self.by_class.iter_mut().zip(&o.by_class) {
            *a += b;
        }
        self.global_load_bytes += o.global_load_bytes;
        self.global_store_bytes += o.global_store_bytes;
        self.flops += o.flops;
        self.tensor_flops += o.tensor_flops;
        self.max_warp_instructions = self.max_warp_instructions.max(o.max_warp_instructions);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum St {
    Run,
    /// At a `.sync` warp instruction, waiting for lanes its mask names.
    Sync,
    /// At `bar.sync`.
    Bar,
    Exited,
    /// A lane past the block's last thread.
    Absent,
}

struct Warp {
    id: u32,
    regs: Vec<u64>,
    pc: [u32; 32],
    st: [St; 32],
    tid: [[u32; 3]; 32],
    /// Lanes that exist.
    present: u32,
    local: Vec<u8>,
    local_init: Vec<u8>,
    clock: u64,
}

#[derive(Clone, Copy, Default)]
struct RaceCell {
    w_epoch: u32,
    w_thread: u32,
    w_line: u32,
    r_epoch: u32,
    /// The reading thread, or u32::MAX for several.
    r_thread: u32,
    r_line: u32,
}

struct Block {
    ctaid: [u32; 3],
    shared: Vec<u8>,
    shared_init: Vec<u8>,
    race: Vec<RaceCell>,
    epoch: u32,
    stats: LaunchStats,
    sectors: Vec<u64>,
    /// `fence.proxy.async` executed per thread (synccheck).
    fences: Vec<u32>,
    /// Per shared byte: the generic-proxy writer (thread + 1) and its fence
    /// count when it wrote (synccheck: wgmma reads through the async proxy).
    proxy: Vec<(u32, u32)>,
}

struct Ctx<'a> {
    module: &'a Module,
    f: &'a Function,
    mem: &'a GlobalMemory,
    p: &'a LaunchParams<'a>,
    reg_mask: Vec<u64>,
    nthreads: u32,
    nwarps: u32,
    shared_bytes: u64,
}

type Failure = (Option<CheckKind>, String);

fn fault<T>(message: impl Into<String>) -> Result<T, Failure> {
    Err((None, message.into()))
}

fn check<T>(kind: CheckKind, message: impl Into<String>) -> Result<T, Failure> {
    Err((Some(kind), message.into()))
}

/// Runs one launch to completion.
pub fn launch(module: &Module, mem: &GlobalMemory, p: &LaunchParams) -> SimResult<LaunchStats> {
    let f = module.entry(p.entry).ok_or_else(|| SimError::Launch(format!("kernel `{}`: no `.entry {}` in its PTX", p.kernel, p.entry)))?;
    let bad = |m: String| Err(SimError::Launch(format!("kernel `{}` (`{}`): {m}", p.kernel, p.entry)));
    let nthreads = p.block.iter().map(|&d| d as u64).product::<u64>();
    if nthreads == 0 || nthreads > 1024 {
        return bad(format!("a block of {:?} threads (1 to 1024)", p.block));
    }
    if let Some(max) = f.max_ntid
        && nthreads > max.iter().map(|&d| d as u64).product::<u64>()
    {
        return bad(format!("a block of {:?} threads exceeds the kernel's .maxntid {:?}", p.block, max));
    }
    if p.grid.contains(&0) {
        return bad(format!("an empty grid {:?}", p.grid));
    }
    let threads = p.grid.iter().map(|&d| d as u64).product::<u64>() * nthreads;
    if threads > MAX_LAUNCH_THREADS {
        return bad(format!(
            "{threads} threads ({:?} blocks of {:?}): the simulator runs at most {MAX_LAUNCH_THREADS} per launch",
            p.grid, p.block
        ));
    }
    if (p.params.len() as u64) < f.param_bytes {
        return bad(format!("{} parameter bytes given, the entry declares {}", p.params.len(), f.param_bytes));
    }
    let shared_bytes = f.static_shared.div_ceil(16) * 16 + p.dynamic_shared as u64;
    if shared_bytes > p.max_shared {
        return bad(format!("{shared_bytes} bytes of shared memory per block; the device allows {}", p.max_shared));
    }
    let ctx = Ctx {
        module,
        f,
        mem,
        p,
        reg_mask: f.reg_types.iter().map(|t| t.mask()).collect(),
        nthreads: nthreads as u32,
        nwarps: (nthreads as u32).div_ceil(32),
        shared_bytes,
    };
    let blocks = p.grid.iter().map(|&d| d as u64).product::<u64>();
    (0..blocks).into_par_iter().map(|b| ctx.run_block(b)).try_reduce(LaunchStats::default, |mut a, b| {
        a.add(&b);
        Ok(a)
    })
}

fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}

impl Ctx<'_> {
    fn site(&self, b: &Block, w: &Warp, lane: usize, pc: usize) -> Site {
        let line = self.f.body.get(pc).map(|i| i.line).unwrap_or(self.f.line);
        Site {
            kernel: self.p.kernel.to_string(),
            entry: self.p.entry.to_string(),
            block: b.ctaid,
            thread: w.tid[lane],
            line,
            instruction: self.module.line_text(line).to_string(),
        }
    }

    fn run_block(&self, linear: u64) -> SimResult<LaunchStats> {
        let [gx, gy, _] = self.p.grid.map(|d| d as u64);
        let ctaid = [(linear % gx) as u32, ((linear / gx) % gy) as u32, (linear / (gx * gy)) as u32];
        let n = self.shared_bytes as usize;
        let mut b = Block {
            ctaid,
            shared: vec![0; n],
            shared_init: vec![0; n],
            race: if self.p.checks.racecheck { vec![RaceCell::default(); n] } else { Vec::new() },
            epoch: 1,
            stats: LaunchStats::default(),
            sectors: Vec::new(),
            fences: if self.p.checks.synccheck { vec![0; self.nthreads as usize] } else { Vec::new() },
            proxy: if self.p.checks.synccheck { vec![(0, 0); n] } else { Vec::new() },
        };
        let [bx, by, _] = self.p.block;
        let nregs = self.f.reg_types.len();
        let local = self.f.local_bytes as usize;
        let mut warps: Vec<Warp> = (0..self.nwarps)
            .map(|id| {
                let mut w = Warp {
                    id,
                    regs: vec![0; nregs * 32],
                    pc: [0; 32],
                    st: [St::Absent; 32],
                    tid: [[0; 3]; 32],
                    present: 0,
                    local: vec![0; local * 32],
                    local_init: vec![0; local * 32],
                    clock: 0,
                };
                for lane in 0..32 {
                    let t = id * 32 + lane as u32;
                    if t < self.nthreads {
                        w.st[lane] = St::Run;
                        w.present |= 1 << lane;
                        w.tid[lane] = [t % bx, (t / bx) % by, t / (bx * by)];
                    }
                }
                w
            })
            .collect();
        loop {
            for w in &mut warps {
                self.run_warp(&mut b, w)?;
            }
            let at_bar: usize = warps.iter().map(|w| w.st.iter().filter(|s| **s == St::Bar).count()).sum();
            if at_bar == 0 {
                break;
            }
            let exited: usize = warps.iter().map(|w| w.st.iter().filter(|s| **s == St::Exited).count()).sum();
            if exited > 0 && self.p.checks.synccheck {
                let (w, lane) =
                    warps.iter().find_map(|w| (0..32).find(|&l| w.st[l] == St::Bar).map(|l| (w, l))).expect("a thread at the barrier");
                return Err(SimError::Check {
                    kind: CheckKind::Synccheck,
                    site: Box::new(self.site(&b, w, lane, w.pc[lane] as usize)),
                    message: format!(
                        "a barrier reached by {at_bar} of the block's {} threads; {exited} exited without reaching it",
                        self.nthreads
                    ),
                });
            }
            for w in &mut warps {
                for lane in 0..32 {
                    if w.st[lane] == St::Bar {
                        w.st[lane] = St::Run;
                        w.pc[lane] += 1;
                    }
                }
            }
            b.epoch += 1;
        }
        b.stats.max_warp_instructions = warps.iter().map(|w| w.clock).max().unwrap_or(0);
        Ok(b.stats)
    }

    /// Runs a warp until every lane waits at a barrier or has exited.
    fn run_warp(&self, b: &mut Block, w: &mut Warp) -> SimResult<()> {
        // The lowest program counter among the lanes in state `st`, and those lanes.
        let lowest = |w: &Warp, st: St| {
            let (mut pc, mut mask) = (u32::MAX, 0u32);
            for lane in 0..32 {
                if w.st[lane] == st {
                    if w.pc[lane] < pc {
                        (pc, mask) = (w.pc[lane], 1 << lane);
                    } else if w.pc[lane] == pc {
                        mask |= 1 << lane;
                    }
                }
            }
            (pc, mask)
        };
        loop {
            let (mut pc, mut mask) = lowest(w, St::Run);
            let mut forced = false;
            if mask != 0 {
                // Lanes already waiting at this warp-synchronous instruction join the group.
                for lane in 0..32 {
                    if w.st[lane] == St::Sync && w.pc[lane] == pc {
                        mask |= 1 << lane;
                    }
                }
            } else {
                // Only lanes waiting at warp-synchronous instructions: run the lowest (its check reports who is missing).
                (pc, mask) = lowest(w, St::Sync);
                if mask == 0 {
                    return Ok(());
                }
                forced = true;
            }
            if w.clock >= MAX_WARP_INSTRUCTIONS {
                let lane = mask.trailing_zeros() as usize;
                return Err(SimError::Fault {
                    site: Box::new(self.site(b, w, lane, pc as usize)),
                    message: format!("a warp issued {MAX_WARP_INSTRUCTIONS} instructions without finishing (an endless loop?)"),
                });
            }
            if let Err((kind, message)) = self.step(b, w, pc as usize, mask, forced) {
                let lane = mask.trailing_zeros() as usize;
                let site = Box::new(self.site(b, w, lane, pc as usize));
                return Err(match kind {
                    Some(kind) => SimError::Check { kind, site, message },
                    None => SimError::Fault { site, message },
                });
            }
        }
    }

    // --- operands ------------------------------------------------------

    fn sreg(&self, b: &Block, w: &Warp, lane: usize, s: Sreg) -> u64 {
        let lt = (1u64 << lane) - 1;
        match s {
            Sreg::Tid(d) => w.tid[lane][d as usize] as u64,
            Sreg::Ntid(d) => self.p.block[d as usize] as u64,
            Sreg::Ctaid(d) => b.ctaid[d as usize] as u64,
            Sreg::Nctaid(d) => self.p.grid[d as usize] as u64,
            Sreg::LaneId => lane as u64,
            Sreg::WarpId => w.id as u64,
            Sreg::NWarpId => self.nwarps as u64,
            Sreg::SmId => 0,
            Sreg::NSmId => 1,
            Sreg::LaneMaskEq => 1 << lane,
            Sreg::LaneMaskLt => lt,
            Sreg::LaneMaskLe => lt | (1 << lane),
            Sreg::LaneMaskGt => !(lt | (1 << lane)) & 0xffff_ffff,
            Sreg::LaneMaskGe => !lt & 0xffff_ffff,
            Sreg::Clock => w.clock & 0xffff_ffff,
            Sreg::Clock64 | Sreg::GlobalTimer => w.clock,
            Sreg::DynamicSmemSize => self.p.dynamic_shared as u64,
            Sreg::TotalSmemSize => self.shared_bytes,
            Sreg::ClusterCtaRank => 0,
            Sreg::ClusterNctaRank => 1,
        }
    }

    /// A source operand's bits for `lane`, read as type `ty`.
    #[inline]
    fn rd(&self, b: &Block, w: &Warp, o: &Operand, lane: usize, ty: Ty) -> Result<u64, Failure> {
        Ok(match o {
            Operand::Reg(r) => w.regs[*r as usize * 32 + lane],
            Operand::Imm(v) => *v,
            Operand::FloatLit(x) => match F::of(ty) {
                Some(f) => f.round_f64(*x),
                None => return fault(format!("a floating-point literal {x} as a {ty:?} operand")),
            },
            Operand::Special(s) => self.sreg(b, w, lane, *s),
            Operand::Var { space: Space::Global | Space::Const, offset } => self.global_var(*offset as usize)?,
            Operand::Var { offset, .. } => *offset,
            Operand::NotPred(r) => (w.regs[*r as usize * 32 + lane] & 1) ^ 1,
            other => return fault(format!("{other:?} cannot be a source here")),
        })
    }

    #[inline]
    fn wr(&self, w: &mut Warp, o: &Operand, lane: usize, v: u64) -> Result<(), Failure> {
        match o {
            Operand::Reg(r) => {
                w.regs[*r as usize * 32 + lane] = v & self.reg_mask[*r as usize];
                Ok(())
            }
            Operand::Sink => Ok(()),
            other => fault(format!("{other:?} cannot be a destination")),
        }
    }

    fn global_var(&self, i: usize) -> Result<u64, Failure> {
        match self.p.globals.get(i) {
            Some(&(a, _)) => Ok(a),
            None => fault(format!("module variable {i} was not loaded (LaunchParams::globals)")),
        }
    }

    fn op<'i>(&self, ins: &'i Instr, k: usize) -> Result<&'i Operand, Failure> {
        ins.ops.get(k).ok_or_else(|| (None, format!("{:?} has {} operands; operand {} is missing", ins.op, ins.ops.len(), k + 1)))
    }

    /// The address an `[addr]` operand names for `lane`, and its state space.
    fn address(&self, b: &Block, w: &Warp, o: &Operand, lane: usize) -> Result<(u64, Option<Space>), Failure> {
        match o {
            Operand::Addr { base, offset } => Ok(match base {
                AddrBase::None => (*offset as u64, None),
                AddrBase::Reg(r) => (w.regs[*r as usize * 32 + lane].wrapping_add(*offset as u64), None),
                AddrBase::Var { space: Space::Global | Space::Const, offset: v } => {
                    (self.global_var(*v as usize)?.wrapping_add(*offset as u64), Some(Space::Global))
                }
                AddrBase::Var { space, offset: v } => (v.wrapping_add(*offset as u64), Some(*space)),
            }),
            Operand::Reg(_) | Operand::Var { .. } => Ok((self.rd(b, w, o, lane, Ty::U64)?, None)),
            other => fault(format!("{other:?} is not an address")),
        }
    }

    // --- memory ----------------------------------------------------------

    /// Resolves a generic address to its window.
    fn resolve(space: Space, addr: u64) -> (Space, u64) {
        match space {
            Space::Generic => {
                if (SHARED_WINDOW..SHARED_WINDOW + (1 << 32)).contains(&addr) {
                    (Space::Shared, addr - SHARED_WINDOW)
                } else if (LOCAL_WINDOW..LOCAL_WINDOW + (1 << 32)).contains(&addr) {
                    (Space::Local, addr - LOCAL_WINDOW)
                } else {
                    (Space::Global, addr)
                }
            }
            Space::SharedCluster => (Space::Shared, addr),
            Space::Const => (Space::Global, addr),
            s => (s, addr),
        }
    }

    fn global_ok(&self, addr: u64, size: u64) -> Result<(), Failure> {
        if !self.mem.contains(addr, size) {
            let kind = if self.p.checks.memcheck { Some(CheckKind::Memcheck) } else { None };
            return Err((kind, format!("an access of {size} bytes at {}: outside every allocation", self.mem.describe(addr))));
        }
        let within = |&(a, n): &(u64, u64)| addr >= a && addr + size <= a + n;
        if self.p.checks.memcheck && !self.p.allowed.is_empty() && !self.p.allowed.iter().any(within) && !self.p.globals.iter().any(within)
        {
            return check(
                CheckKind::Memcheck,
                format!("an access of {size} bytes at {} is outside every buffer the launch was given", self.mem.describe(addr)),
            );
        }
        Ok(())
    }

    fn shared_ok(&self, addr: u64, size: u64) -> Result<usize, Failure> {
        if addr.checked_add(size).is_none_or(|e| e > self.shared_bytes) {
            let kind = if self.p.checks.memcheck { Some(CheckKind::Memcheck) } else { None };
            return Err((kind, format!("a shared-memory access of {size} bytes at {addr:#x}; the block has {} bytes", self.shared_bytes)));
        }
        Ok(addr as usize)
    }

    fn race(&self, b: &mut Block, at: usize, size: usize, thread: u32, line: u32, write: bool) -> Result<(), Failure> {
        if !self.p.checks.racecheck {
            return Ok(());
        }
        for i in at..at + size {
            let c = &mut b.race[i];
            if c.w_epoch == b.epoch && c.w_thread != thread {
                let what = if write { "WAW" } else { "RAW" };
                return check(
                    CheckKind::Racecheck,
                    format!(
                        "{what} hazard on shared byte {i:#x}: thread {thread} {} it after thread {} wrote it at PTX line {} with no barrier between",
                        if write { "writes" } else { "reads" },
                        c.w_thread,
                        c.w_line
                    ),
                );
            }
            if write {
                if c.r_epoch == b.epoch && c.r_thread != thread {
                    let who = if c.r_thread == u32::MAX { "other threads".to_string() } else { format!("thread {}", c.r_thread) };
                    return check(
                        CheckKind::Racecheck,
                        format!(
                            "WAR hazard on shared byte {i:#x}: thread {thread} writes it after {who} read it at PTX line {} with no barrier between",
                            c.r_line
                        ),
                    );
                }
                c.w_epoch = b.epoch;
                c.w_thread = thread;
                c.w_line = line;
            } else {
                if c.r_epoch == b.epoch && c.r_thread != thread {
                    c.r_thread = u32::MAX;
                } else {
                    c.r_thread = thread;
                }
                c.r_epoch = b.epoch;
                c.r_line = line;
            }
        }
        Ok(())
    }

    fn thread_id(&self, w: &Warp, lane: usize) -> u32 {
        w.id * 32 + lane as u32
    }

    /// Loads `size` bytes (1, 2, 4, 8) for `lane`.
    #[allow(clippy::too_many_arguments)]
    fn load(&self, b: &mut Block, w: &mut Warp, lane: usize, space: Space, addr: u64, size: u32, line: u32) -> Result<u64, Failure> {
        let (space, a) = Self::resolve(space, addr);
        if a % size as u64 != 0 {
            return fault(format!("a misaligned {size}-byte load at {addr:#x}"));
        }
        match space {
            Space::Global => {
                self.global_ok(a, size as u64)?;
                if self.p.checks.initcheck && !self.mem.initialized(a, size as u64) {
                    return check(CheckKind::Initcheck, format!("a read of {size} bytes at {} never written", self.mem.describe(a)));
                }
                b.sectors.push(a / 32);
                Ok(self.mem.load(a, size).expect("checked"))
            }
            Space::Shared => {
                let at = self.shared_ok(a, size as u64)?;
                if self.p.checks.initcheck && b.shared_init[at..at + size as usize].contains(&0) {
                    return check(CheckKind::Initcheck, format!("a read of {size} shared bytes at {a:#x} never written"));
                }
                let t = self.thread_id(w, lane);
                self.race(b, at, size as usize, t, line, false)?;
                let mut v = [0u8; 8];
                v[..size as usize].copy_from_slice(&b.shared[at..at + size as usize]);
                Ok(u64::from_le_bytes(v))
            }
            Space::Local => {
                let n = self.f.local_bytes;
                if a + size as u64 > n {
                    return fault(format!("a local-memory access of {size} bytes at {a:#x}; each thread has {n} bytes"));
                }
                let at = lane * n as usize + a as usize;
                if self.p.checks.initcheck && w.local_init[at..at + size as usize].contains(&0) {
                    return check(CheckKind::Initcheck, format!("a read of {size} local bytes at {a:#x} never written"));
                }
                let mut v = [0u8; 8];
                v[..size as usize].copy_from_slice(&w.local[at..at + size as usize]);
                Ok(u64::from_le_bytes(v))
            }
            Space::Param => {
                let at = a as usize;
                if at + size as usize > self.p.params.len() {
                    return fault(format!("a parameter read of {size} bytes at {a}; the parameters are {} bytes", self.p.params.len()));
                }
                let mut v = [0u8; 8];
                v[..size as usize].copy_from_slice(&self.p.params[at..at + size as usize]);
                Ok(u64::from_le_bytes(v))
            }
            s => fault(format!("loads from the {s:?} space are not simulated")),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        b: &mut Block,
        w: &mut Warp,
        lane: usize,
        space: Space,
        addr: u64,
        size: u32,
        v: u64,
        line: u32,
    ) -> Result<(), Failure> {
        let (space, a) = Self::resolve(space, addr);
        if a % size as u64 != 0 {
            return fault(format!("a misaligned {size}-byte store at {addr:#x}"));
        }
        match space {
            Space::Global => {
                self.global_ok(a, size as u64)?;
                b.sectors.push(a / 32);
                self.mem.store(a, size, v);
                Ok(())
            }
            Space::Shared => {
                let at = self.shared_ok(a, size as u64)?;
                let t = self.thread_id(w, lane);
                self.race(b, at, size as usize, t, line, true)?;
                b.shared[at..at + size as usize].copy_from_slice(&v.to_le_bytes()[..size as usize]);
                b.shared_init[at..at + size as usize].fill(1);
                if self.p.checks.synccheck {
                    let f = b.fences[t as usize];
                    b.proxy[at..at + size as usize].fill((t + 1, f));
                }
                Ok(())
            }
            Space::Local => {
                let n = self.f.local_bytes;
                if a + size as u64 > n {
                    return fault(format!("a local-memory access of {size} bytes at {a:#x}; each thread has {n} bytes"));
                }
                let at = lane * n as usize + a as usize;
                w.local[at..at + size as usize].copy_from_slice(&v.to_le_bytes()[..size as usize]);
                w.local_init[at..at + size as usize].fill(1);
                Ok(())
            }
            s => fault(format!("stores to the {s:?} space are not simulated")),
        }
    }

    fn flush_sectors(&self, b: &mut Block, store: bool) {
        if b.sectors.is_empty() {
            return;
        }
        b.sectors.sort_unstable();
        b.sectors.dedup();
        let bytes = b.sectors.len() as u64 * 32;
        if store {
            b.stats.global_store_bytes += bytes;
        } else {
            b.stats.global_load_bytes += bytes;
        }
        b.sectors.clear();
    }

    // --- the instruction step ----------------------------------------------

    /// Executes the instruction at `pc` for the lanes of `mask` (all at `pc`).
    fn step(&self, b: &mut Block, w: &mut Warp, pc: usize, mask: u32, forced: bool) -> Result<(), Failure> {
        let Some(ins) = self.f.body.get(pc) else {
            // Falling off the end of the body returns.
            for l in lanes(mask) {
                w.st[l] = St::Exited;
            }
            return Ok(());
        };
        let mut exec = mask;
        if let Some((p, neg)) = ins.guard {
            exec = 0;
            for l in lanes(mask) {
                if (w.regs[p as usize * 32 + l] & 1 != 0) != neg {
                    exec |= 1 << l;
                }
            }
        }
        // Warp-synchronous instructions wait for every lane they name.
        let members = match ins.op {
            Op::Shfl | Op::Vote | Op::BarWarp => {
                let last = ins.ops.last().ok_or_else(|| (None, "a warp instruction without a member mask".to_string()))?;
                let first = exec.trailing_zeros() as usize;
                if exec == 0 { None } else { Some(self.rd(b, w, last, first.min(31), Ty::B32)? as u32 & w.present) }
            }
            Op::Ldmatrix | Op::Mma | Op::WgmmaMma | Op::WgmmaFence | Op::WgmmaCommit | Op::WgmmaWait => Some(w.present),
            _ => None,
        };
        if let Some(members) = members {
            let missing = members & !exec;
            if missing != 0 {
                let exited = lanes(missing).filter(|&l| w.st[l] == St::Exited).count();
                let elsewhere_running = lanes(missing).any(|l| w.st[l] == St::Run);
                if !forced && elsewhere_running && exited == 0 {
                    for l in lanes(mask) {
                        w.st[l] = St::Sync;
                    }
                    return Ok(());
                }
                if self.p.checks.synccheck || !forced || exited == 0 {
                    let where_ = lanes(missing)
                        .map(|l| match w.st[l] {
                            St::Exited => format!("lane {l} exited"),
                            St::Bar => format!("lane {l} waits at a barrier (line {})", self.line_of(w.pc[l])),
                            _ => format!("lane {l} is at line {}", self.line_of(w.pc[l])),
                        })
                        .take(4)
                        .collect::<Vec<_>>()
                        .join(", ");
                    return check(
                        CheckKind::Synccheck,
                        format!("a warp-synchronous instruction for lanes {members:#010x} reached by lanes {exec:#010x} only: {where_}"),
                    );
                }
            }
            for l in lanes(mask) {
                w.st[l] = St::Run;
            }
        }
        let n = exec.count_ones() as u64;
        b.stats.thread_instructions += n;
        b.stats.warp_instructions += 1;
        w.clock += 1;
        let class = self.exec(b, w, ins, exec, mask)?;
        b.stats.by_class[class] += 1;
        // Control flow: every lane of `mask` moves on unless `exec` said otherwise.
        match ins.op {
            Op::Bra => {
                let Operand::Label(target) = self.op(ins, 0)? else { return fault("a branch without a label") };
                for l in lanes(mask) {
                    w.pc[l] = if exec & (1 << l) != 0 { *target as u32 } else { w.pc[l] + 1 };
                }
            }
            Op::Ret | Op::Exit => {
                for l in lanes(mask) {
                    if exec & (1 << l) != 0 {
                        w.st[l] = St::Exited;
                    } else {
                        w.pc[l] += 1;
                    }
                }
            }
            Op::Bar => {
                for l in lanes(mask) {
                    if exec & (1 << l) != 0 {
                        w.st[l] = St::Bar;
                    } else {
                        w.pc[l] += 1;
                    }
                }
            }
            _ => {
                for l in lanes(mask) {
                    w.pc[l] += 1;
                }
            }
        }
        Ok(())
    }

    fn line_of(&self, pc: u32) -> u32 {
        self.f.body.get(pc as usize).map(|i| i.line).unwrap_or(0)
    }

    /// The instruction's effect on the lanes of `exec`; returns its class.
    fn exec(&self, b: &mut Block, w: &mut Warp, ins: &Instr, exec: u32, mask: u32) -> Result<usize, Failure> {
        const INT: usize = 0;
        const FLOAT: usize = 1;
        const CONV: usize = 2;
        const SHARED: usize = 4;
        const CONTROL: usize = 6;
        const SYNC: usize = 7;
        const TENSOR: usize = 8;
        let ty = ins.ty();
        let m = &ins.m;
        match ins.op {
            // §9.7.9.1 mov: a value, a special register, a variable's
            // address; a vector packs into (or unpacks from) one wide value.
            Op::Mov => {
                let (d, a) = (self.op(ins, 0)?, self.op(ins, 1)?);
                for l in lanes(exec) {
                    match (d, a) {
                        (Operand::Vec(parts), src) => {
                            let v = self.rd(b, w, src, l, ty)?;
                            let bits = ty.bits() / parts.len() as u32;
                            for (k, p) in parts.iter().enumerate() {
                                self.wr(w, p, l, zext(v >> (bits * k as u32), bits))?;
                            }
                        }
                        (d, Operand::Vec(parts)) => {
                            let bits = ty.bits() / parts.len() as u32;
                            let mut v = 0u64;
                            for (k, p) in parts.iter().enumerate() {
                                v |= zext(self.rd(b, w, p, l, ty)?, bits) << (bits * k as u32);
                            }
                            self.wr(w, d, l, v)?;
                        }
                        (d, a) => {
                            let v = self.rd(b, w, a, l, ty)?;
                            self.wr(w, d, l, v)?;
                        }
                    }
                }
                Ok(INT)
            }
            // §9.7.9.8 ld / §9.7.9.10 st: scalar or .v2/.v4 of the type's size, naturally aligned.
            Op::Ld | Op::St => {
                let space = m.space.unwrap_or(Space::Generic);
                let size = ty.bytes();
                if size > 8 {
                    return fault(format!("{}-byte elements are not simulated", size));
                }
                let (data, addr) =
                    if ins.op == Op::Ld { (self.op(ins, 0)?, self.op(ins, 1)?) } else { (self.op(ins, 1)?, self.op(ins, 0)?) };
                let vec = m.vec as u64;
                for l in lanes(exec) {
                    let (a, named) = self.address(b, w, addr, l)?;
                    let space = named.unwrap_or(space);
                    let space = if named == Some(Space::Shared) && space == Space::Generic { Space::Shared } else { space };
                    if a % (size as u64 * vec) != 0 {
                        return fault(format!("a misaligned {}-byte vector access at {a:#x}", size as u64 * vec));
                    }
                    let elems: Vec<&Operand> = match data {
                        Operand::Vec(v) => v.iter().collect(),
                        o => vec![o],
                    };
                    for (k, e) in elems.iter().enumerate() {
                        let at = a + k as u64 * size as u64;
                        if ins.op == Op::Ld {
                            let v = self.load(b, w, l, space, at, size, ins.line)?;
                            let v = if ty.is_signed() { sext(v, ty.bits()) as u64 } else { v };
                            self.wr(w, e, l, v)?;
                        } else {
                            let v = self.rd(b, w, e, l, ty)?;
                            self.store(b, w, l, space, at, size, zext(v, ty.bits()), ins.line)?;
                        }
                    }
                }
                let global = matches!(space, Space::Global | Space::Generic) && !b.sectors.is_empty();
                self.flush_sectors(b, ins.op == Op::St);
                Ok(match space {
                    _ if global => 3,
                    Space::Shared | Space::SharedCluster => SHARED,
                    Space::Global => 3,
                    _ => 5,
                })
            }
            // §9.7.9.16 cvta: between a space's addresses and generic ones.
            Op::Cvta => {
                let space = m.space.unwrap_or(Space::Global);
                let window = match space {
                    Space::Shared | Space::SharedCluster => SHARED_WINDOW,
                    Space::Local => LOCAL_WINDOW,
                    Space::Global => 0,
                    s => return fault(format!("cvta of the {s:?} space is not simulated")),
                };
                for l in lanes(exec) {
                    let a = self.rd(b, w, self.op(ins, 1)?, l, ty)?;
                    let v = if m.to { a.wrapping_sub(window) } else { a.wrapping_add(window) };
                    self.wr(w, self.op(ins, 0)?, l, v & ty.mask())?;
                }
                Ok(INT)
            }
            Op::Cvt => {
                let (dty, aty) = match ins.types.as_slice() {
                    [d, a] => (*d, *a),
                    _ => return fault("cvt needs a destination and a source type"),
                };
                if matches!(dty, Ty::F16x2 | Ty::Bf16x2) {
                    // cvt.rn.{f16x2,bf16x2}.f32 d, a, b: a into the upper half, b into the lower (§9.7.9.21).
                    let half = if dty == Ty::F16x2 { Ty::F16 } else { Ty::Bf16 };
                    if aty != Ty::F32 {
                        return fault(format!("cvt to {dty:?} from {aty:?} is not simulated"));
                    }
                    for l in lanes(exec) {
                        let a = self.rd(b, w, self.op(ins, 1)?, l, aty)?;
                        let c = self.rd(b, w, self.op(ins, 2)?, l, aty)?;
                        let v = (cvt(half, aty, a, m)? << 16) | cvt(half, aty, c, m)?;
                        self.wr(w, self.op(ins, 0)?, l, v)?;
                    }
                    return Ok(CONV);
                }
                if matches!(aty, Ty::F16x2 | Ty::Bf16x2 | Ty::Pred | Ty::B128) || matches!(dty, Ty::Pred | Ty::B128) {
                    return fault(format!("cvt to {dty:?} from {aty:?} is not simulated"));
                }
                for l in lanes(exec) {
                    let a = self.rd(b, w, self.op(ins, 1)?, l, aty)?;
                    let v = cvt(dty, aty, a, m)?;
                    self.wr(w, self.op(ins, 0)?, l, v)?;
                }
                Ok(CONV)
            }
            Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Div
            | Op::Rem
            | Op::Min
            | Op::Max
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::Shl
            | Op::Shr
            | Op::Copysign => {
                let is_float = F::of(ty).is_some() || matches!(ty, Ty::F16x2 | Ty::Bf16x2);
                let bty = if matches!(ins.op, Op::Shl | Op::Shr) { Ty::U32 } else { ty };
                for l in lanes(exec) {
                    let a = self.rd(b, w, self.op(ins, 1)?, l, ty)?;
                    let c = self.rd(b, w, self.op(ins, 2)?, l, bty)?;
                    let v = binary(ins.op, ty, m, a, c)?;
                    self.wr(w, self.op(ins, 0)?, l, v)?;
                }
                if is_float {
                    b.stats.flops += exec.count_ones() as u64 * lanes_per_value(ty);
                }
                Ok(if is_float { FLOAT } else { INT })
            }
            Op::Mad | Op::Fma => {
                let is_float = F::of(ty).is_some() || matches!(ty, Ty::F16x2 | Ty::Bf16x2);
                for l in lanes(exec) {
                    let a = self.rd(b, w, self.op(ins, 1)?, l, ty)?;
                    let c = self.rd(b, w, self.op(ins, 2)?, l, ty)?;
                    let cty = if m.wide { double_width(ty)? } else { ty };
                    let d = self.rd(b, w, self.op(ins, 3)?, l, cty)?;
                    let v = fma(ty, m, a, c, d)?;
                    self.wr(w, self.op(ins, 0)?, l, v)?;
                }
                if is_float {
                    b.stats.flops += 2 * exec.count_ones() as u64 * lanes_per_value(ty);
                }
                Ok(if is_float { FLOAT } else { INT })
            }
            Op::Abs
            | Op::Neg
            | Op::Not
            | Op::Cnot
            | Op::Rcp
            | Op::Sqrt
            | Op::Rsqrt
            | Op::Ex2
            | Op::Lg2
            | Op::Sin
            | Op::Cos
            | Op::Tanh
            | Op::Popc
            | Op::Clz
            | Op::Brev => {
                let is_float = F::of(ty).is_some() || matches!(ty, Ty::F16x2 | Ty::Bf16x2);
                for l in lanes(exec) {
                    let a = self.rd(b, w, self.op(ins, 1)?, l, ty)?;
                    let v = unary(ins.op, ty, m, a)?;
                    self.wr(w, self.op(ins, 0)?, l, v)?;
                }
                if is_float {
                    b.stats.flops += exec.count_ones() as u64 * lanes_per_value(ty);
                }
                Ok(if is_float { FLOAT } else { INT })
            }
            // §9.7.7.1 setp: p[|q] = cmp(a, b) [op c].
            Op::Setp => {
                let (p, q) = match self.op(ins, 0)? {
                    Operand::Vec(v) if v.len() == 2 => (&v[0], Some(&v[1])),
                    o => (o, None),
                };
                for l in lanes(exec) {
                    let a = self.rd(b, w, self.op(ins, 1)?, l, ty)?;
                    let c = self.rd(b, w, self.op(ins, 2)?, l, ty)?;
                    let t = compare(ty, m, a, c)?;
                    let (pv, qv) = match m.bool_op {
                        Some(op) => {
                            let x = self.rd(b, w, self.op(ins, 3)?, l, Ty::Pred)? & 1 != 0;
                            let f = |v: bool| match op {
                                BoolOp::And => v && x,
                                BoolOp::Or => v || x,
                                BoolOp::Xor => v ^ x,
                            };
                            (f(t), f(!t))
                        }
                        None => (t, !t),
                    };
                    self.wr(w, p, l, pv as u64)?;
                    if let Some(q) = q {
                        self.wr(w, q, l, qv as u64)?;
                    }
                }
                Ok(if F::of(ty).is_some() { FLOAT } else { INT })
            }
            // §9.7.7.3 selp: d = c ? a : b.
            Op::Selp => {
                for l in lanes(exec) {
                    let c = self.rd(b, w, self.op(ins, 3)?, l, Ty::Pred)? & 1;
                    let v = if c != 0 { self.rd(b, w, self.op(ins, 1)?, l, ty)? } else { self.rd(b, w, self.op(ins, 2)?, l, ty)? };
                    self.wr(w, self.op(ins, 0)?, l, v)?;
                }
                Ok(INT)
            }
            // §9.7.8.x bfe/bfi/prmt.
            Op::Bfe => {
                for l in lanes(exec) {
                    let a = self.rd(b, w, self.op(ins, 1)?, l, ty)?;
                    let pos = self.rd(b, w, self.op(ins, 2)?, l, Ty::U32)? & 0xff;
                    let len = self.rd(b, w, self.op(ins, 3)?, l, Ty::U32)? & 0xff;
                    let bits = ty.bits() as u64;
                    let msb = bits - 1;
                    let sbit = if !ty.is_signed() || len == 0 { 0 } else { (a >> (pos + len - 1).min(msb)) & 1 };
                    let mut d = 0u64;
                    for i in 0..bits {
                        let bit = if i < len && pos + i <= msb { (a >> (pos + i)) & 1 } else { sbit };
                        d |= bit << i;
                    }
                    self.wr(w, self.op(ins, 0)?, l, d)?;
                }
                Ok(INT)
            }
            Op::Bfi => {
                for l in lanes(exec) {
                    let a = self.rd(b, w, self.op(ins, 1)?, l, ty)?;
                    let bb = self.rd(b, w, self.op(ins, 2)?, l, ty)?;
                    let pos = self.rd(b, w, self.op(ins, 3)?, l, Ty::U32)? & 0xff;
                    let len = self.rd(b, w, self.op(ins, 4)?, l, Ty::U32)? & 0xff;
                    let bits = ty.bits() as u64;
                    let mut d = bb;
                    for i in 0..len {
                        if pos + i < bits {
                            d = (d & !(1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
                        }
                    }
                    self.wr(w, self.op(ins, 0)?, l, d & ty.mask())?;
                }
                Ok(INT)
            }
            Op::Prmt => {
                for l in lanes(exec) {
                    let a = self.rd(b, w, self.op(ins, 1)?, l, Ty::B32)? as u32;
                    let bb = self.rd(b, w, self.op(ins, 2)?, l, Ty::B32)? as u32;
                    let c = self.rd(b, w, self.op(ins, 3)?, l, Ty::B32)? as u32;
                    let bytes = ((bb as u64) << 32 | a as u64).to_le_bytes();
                    let mut d = 0u32;
                    for k in 0..4 {
                        let sel = (c >> (4 * k)) & 0xf;
                        let byte = bytes[(sel & 7) as usize];
                        let byte = if sel & 8 != 0 { if byte & 0x80 != 0 { 0xff } else { 0 } } else { byte };
                        d |= (byte as u32) << (8 * k);
                    }
                    self.wr(w, self.op(ins, 0)?, l, d as u64)?;
                }
                Ok(INT)
            }
            Op::Bra | Op::Ret | Op::Exit => Ok(CONTROL),
            // §9.7.13.1 bar.sync: every thread of the block; a thread count is not simulated.
            Op::Bar => {
                if m.arrive || ins.ops.len() > 1 {
                    return fault("bar.arrive and barriers with a thread count are not simulated");
                }
                if self.rd(b, w, self.op(ins, 0)?, 0, Ty::U32)? != 0 {
                    return fault("named barriers other than 0 are not simulated");
                }
                Ok(SYNC)
            }
            // §9.7.13.4 fence.proxy.async: this thread's generic-proxy
            // writes become visible to the async proxy (wgmma's reads).
            Op::Fence if m.proxy_async => {
                if self.p.checks.synccheck {
                    for l in lanes(exec) {
                        b.fences[self.thread_id(w, l) as usize] += 1;
                    }
                }
                Ok(SYNC)
            }
            Op::BarWarp | Op::Membar | Op::Fence | Op::Prefetch | Op::Nanosleep => Ok(SYNC),
            // §9.7.8.6 shfl.sync.
            Op::Shfl => {
                let (d, p) = match self.op(ins, 0)? {
                    Operand::Vec(v) if v.len() == 2 => (&v[0], Some(&v[1])),
                    o => (o, None),
                };
                let mut vals = [0u64; 32];
                for l in lanes(exec) {
                    vals[l] = self.rd(b, w, self.op(ins, 1)?, l, Ty::B32)?;
                }
                for l in lanes(exec) {
                    let bval = self.rd(b, w, self.op(ins, 2)?, l, Ty::U32)? as u32 & 31;
                    let c = self.rd(b, w, self.op(ins, 3)?, l, Ty::U32)? as u32;
                    let cval = c & 31;
                    let segmask = (c >> 8) & 31;
                    let lane = l as u32;
                    let max_lane = (lane & segmask) | (cval & !segmask);
                    let min_lane = lane & segmask;
                    let (j, pval) = match m.shfl {
                        ShflMode::Up => {
                            let j = lane as i32 - bval as i32;
                            (j, j >= max_lane as i32)
                        }
                        ShflMode::Down => {
                            let j = (lane + bval) as i32;
                            (j, j <= max_lane as i32)
                        }
                        ShflMode::Bfly => {
                            let j = (lane ^ bval) as i32;
                            (j, j <= max_lane as i32)
                        }
                        ShflMode::Idx => {
                            let j = (min_lane | (bval & !segmask)) as i32;
                            (j, j <= max_lane as i32)
                        }
                    };
                    let src = if pval { j as usize } else { l };
                    if exec & (1 << src) == 0 {
                        if self.p.checks.synccheck {
                            return check(CheckKind::Synccheck, format!("shfl.sync: lane {l} reads lane {src}, which is not executing it"));
                        }
                        return fault(format!("shfl.sync: lane {l} reads lane {src}, which is not executing it (undefined)"));
                    }
                    self.wr(w, d, l, vals[src])?;
                    if let Some(p) = p {
                        self.wr(w, p, l, pval as u64)?;
                    }
                }
                Ok(SYNC)
            }
            // §9.7.13.9 vote.sync.
            Op::Vote => {
                let mut ballot = 0u32;
                for l in lanes(exec) {
                    let v = self.rd(b, w, self.op(ins, 1)?, l, Ty::Pred)? & 1;
                    ballot |= (v as u32) << l;
                }
                let all = ballot == exec;
                let any = ballot != 0;
                let uni = ballot == 0 || ballot == exec;
                for l in lanes(exec) {
                    let v = match m.vote {
                        VoteMode::All => all as u64,
                        VoteMode::Any => any as u64,
                        VoteMode::Uni => uni as u64,
                        VoteMode::Ballot => ballot as u64,
                    };
                    self.wr(w, self.op(ins, 0)?, l, v)?;
                }
                Ok(SYNC)
            }
            Op::Activemask => {
                for l in lanes(exec) {
                    self.wr(w, self.op(ins, 0)?, l, mask as u64)?;
                }
                Ok(SYNC)
            }
            // §9.7.12.5 atom / §9.7.12.6 red.
            Op::Atom | Op::Red => {
                let space = m.space.unwrap_or(Space::Generic);
                let (addr_k, val_k) = if ins.op == Op::Atom { (1, 2) } else { (0, 1) };
                let size = ty.bytes();
                for l in lanes(exec) {
                    let (a, named) = self.address(b, w, self.op(ins, addr_k)?, l)?;
                    let (space, a) = Self::resolve(named.unwrap_or(space), a);
                    if a % size as u64 != 0 {
                        return fault(format!("a misaligned {size}-byte atomic at {a:#x}"));
                    }
                    let v = self.rd(b, w, self.op(ins, val_k)?, l, ty)?;
                    let c = if m.atom == AtomOp::Cas { self.rd(b, w, self.op(ins, val_k + 1)?, l, ty)? } else { 0 };
                    let f = |old: u64| atomic_apply(m.atom, ty, old, v, c);
                    let old = match space {
                        Space::Global => {
                            self.global_ok(a, size as u64)?;
                            b.sectors.push(a / 32);
                            if size < 2 {
                                return fault("byte atomics are not simulated");
                            }
                            self.mem.rmw(a, size, |o| f(o).unwrap_or(o)).expect("checked")
                        }
                        Space::Shared => {
                            let at = self.shared_ok(a, size as u64)?;
                            let mut o = [0u8; 8];
                            o[..size as usize].copy_from_slice(&b.shared[at..at + size as usize]);
                            let old = u64::from_le_bytes(o);
                            let new = f(old)?;
                            b.shared[at..at + size as usize].copy_from_slice(&new.to_le_bytes()[..size as usize]);
                            b.shared_init[at..at + size as usize].fill(1);
                            old
                        }
                        s => return fault(format!("atomics on the {s:?} space are not simulated")),
                    };
                    // Checks the operation once more for a clear error (the rmw closure cannot return one).
                    f(old)?;
                    if ins.op == Op::Atom {
                        let old = if ty.is_signed() { sext(old, ty.bits()) as u64 } else { old };
                        self.wr(w, self.op(ins, 0)?, l, old)?;
                    }
                }
                self.flush_sectors(b, true);
                Ok(3)
            }
            Op::Testp => fault("testp is not simulated"),
            Op::Trap => fault("the kernel executed `trap`"),
            Op::Ldmatrix => {
                let d = self.op(ins, 0)?;
                let addr = self.op(ins, 1)?;
                let num = m.num.max(1) as usize;
                let mut rows = [0u64; 32];
                for l in lanes(exec) {
                    rows[l] = self.address(b, w, addr, l)?.0;
                }
                // Each of the 8·num threads supplying a row address reads its 16-byte row.
                let mut data = [[0u16; 8]; 32];
                for t in 0..8 * num {
                    if exec & (1 << t) == 0 {
                        return fault(format!("ldmatrix: lane {t} supplies a row address and is not executing"));
                    }
                    let a = rows[t];
                    if a % 16 != 0 {
                        return fault(format!("ldmatrix: row address {a:#x} of lane {t} is not 16-byte aligned"));
                    }
                    for k in 0..8u64 {
                        data[t][k as usize] = self.load(b, w, t, Space::Shared, a + 2 * k, 2, ins.line)? as u16;
                    }
                }
                let regs = tensor::ldmatrix(num, m.trans, &data);
                for l in lanes(exec) {
                    let parts: Vec<&Operand> = match d {
                        Operand::Vec(v) => v.iter().collect(),
                        o => vec![o],
                    };
                    if parts.len() != num {
                        return fault(format!("ldmatrix .x{num} with {} destination registers", parts.len()));
                    }
                    for (k, p) in parts.iter().enumerate() {
                        self.wr(w, p, l, regs[l][k] as u64)?;
                    }
                }
                Ok(TENSOR)
            }
            Op::Mma => {
                let vec_of = |o: &Operand| -> Vec<Operand> {
                    match o {
                        Operand::Vec(v) => v.clone(),
                        o => vec![o.clone()],
                    }
                };
                let ops: Vec<Vec<Operand>> = (0..4).map(|k| self.op(ins, k).map(vec_of)).collect::<Result<_, _>>()?;
                let frag = |k: usize| -> Result<Vec<Vec<u32>>, Failure> {
                    (0..32).map(|l| ops[k].iter().map(|o| self.rd(b, w, o, l, Ty::B32).map(|v| v as u32)).collect()).collect()
                };
                let (a, bb, c) = (frag(1)?, frag(2)?, frag(3)?);
                let d = tensor::mma_sync(m.shape, m.layouts, &ins.types, &a, &bb, &c).map_err(|e| (None, e))?;
                for l in lanes(exec) {
                    for (k, o) in ops[0].iter().enumerate() {
                        self.wr(w, o, l, d[l][k] as u64)?;
                    }
                }
                let (mm, nn, kk) = m.shape;
                b.stats.tensor_flops += 2 * (mm * nn * kk) as u64;
                Ok(TENSOR)
            }
            Op::WgmmaFence | Op::WgmmaCommit | Op::WgmmaWait => Ok(SYNC),
            Op::WgmmaMma => {
                if !self.nthreads.is_multiple_of(128) {
                    return fault("wgmma in a block that is not whole warpgroups");
                }
                let dregs: Vec<Operand> = match self.op(ins, 0)? {
                    Operand::Vec(v) => v.clone(),
                    _ => return fault("wgmma: the accumulator is not a register vector"),
                };
                let first = exec.trailing_zeros() as usize;
                let desc_a = self.rd(b, w, self.op(ins, 1)?, first, Ty::B64)?;
                let desc_b = self.rd(b, w, self.op(ins, 2)?, first, Ty::B64)?;
                let scale_d = self.rd(b, w, self.op(ins, 3)?, first, Ty::Pred)? & 1 != 0;
                let imm = |k: usize| -> Result<i64, Failure> { Ok(sext(self.rd(b, w, self.op(ins, k)?, first, Ty::S32)?, 32)) };
                let (scale_a, scale_b, tnsp_a, tnsp_b) = (imm(4)?, imm(5)?, imm(6)?, imm(7)?);
                let warp_in_group = (w.id % 4) as usize;
                let mut acc: Vec<Vec<u32>> = Vec::with_capacity(32);
                for l in 0..32 {
                    acc.push(dregs.iter().map(|o| self.rd(b, w, o, l, Ty::B32).map(|v| v as u32)).collect::<Result<_, _>>()?);
                }
                let shared = &b.shared;
                let init = &b.shared_init;
                let (proxy, fences) = (&b.proxy, &b.fences);
                let checks = self.p.checks;
                let read = |addr: u64| -> Result<u16, String> {
                    let at = addr as usize;
                    if at + 2 > shared.len() || !addr.is_multiple_of(2) {
                        return Err(format!("wgmma reads shared memory at {addr:#x}; the block has {} bytes", shared.len()));
                    }
                    if checks.initcheck && (init[at] == 0 || init[at + 1] == 0) {
                        return Err(format!("initcheck: wgmma reads shared bytes at {addr:#x} never written"));
                    }
                    if checks.synccheck {
                        for &(writer, count) in &proxy[at..at + 2] {
                            if writer != 0 && fences[writer as usize - 1] <= count {
                                return Err(format!(
                                    "synccheck: wgmma reads shared bytes at {addr:#x} that thread {} wrote with no fence.proxy.async after",
                                    writer - 1
                                ));
                            }
                        }
                    }
                    Ok(u16::from_le_bytes([shared[at], shared[at + 1]]))
                };
                let spec = tensor::Wgmma {
                    shape: m.shape,
                    types: ins.types.clone(),
                    desc_a,
                    desc_b,
                    scale_d,
                    scale_a,
                    scale_b,
                    tnsp_a: tnsp_a != 0,
                    tnsp_b: tnsp_b != 0,
                };
                let d = tensor::wgmma(&spec, warp_in_group, &acc, &read).map_err(|e| match e.split_once(": ") {
                    Some(("initcheck", m)) => (Some(CheckKind::Initcheck), m.to_string()),
                    Some(("synccheck", m)) => (Some(CheckKind::Synccheck), m.to_string()),
                    _ => (None, e),
                })?;
                for l in lanes(exec) {
                    for (k, o) in dregs.iter().enumerate() {
                        self.wr(w, o, l, d[l][k] as u64)?;
                    }
                }
                let (mm, nn, kk) = m.shape;
                // Each of the four warps computes its 16 rows.
                b.stats.tensor_flops += 2 * (mm / 4 * nn * kk) as u64;
                Ok(TENSOR)
            }
            Op::CpAsync | Op::CpAsyncCommit | Op::CpAsyncWait => fault("cp.async is not simulated"),
        }
    }
}

fn lanes_per_value(ty: Ty) -> u64 {
    if matches!(ty, Ty::F16x2 | Ty::Bf16x2) { 2 } else { 1 }
}

fn double_width(ty: Ty) -> Result<Ty, Failure> {
    Ok(match ty {
        Ty::U16 => Ty::U32,
        Ty::S16 => Ty::S32,
        Ty::U32 => Ty::U64,
        Ty::S32 => Ty::S64,
        t => return fault(format!(".wide of {t:?}")),
    })
}

/// §9.7.9.21 cvt.
fn cvt(dty: Ty, aty: Ty, a: u64, m: &Mods) -> Result<u64, Failure> {
    match (F::of(dty), F::of(aty)) {
        (None, None) => {
            // Integer to integer: extend by the source's signedness, then
            // truncate (or clamp with .sat) to the destination.
            let v = int_value(aty, a);
            let v = if m.sat {
                let (lo, hi) = int_range(dty);
                v.clamp(lo, hi)
            } else {
                v
            };
            let v = v as u64 & dty.mask();
            Ok(if dty.is_signed() { sext(v, dty.bits()) as u64 } else { v })
        }
        (Some(fd), None) => {
            let v = int_value(aty, a);
            let rnd = if m.rnd == Rnd::None { Rnd::Rn } else { m.rnd };
            Ok(fd.ftz(int_to_float(fd, v, rnd), m.ftz))
        }
        (None, Some(fa)) => {
            let x = fa.to_f64(fa.ftz(a, m.ftz));
            let v = float_to_int(x, m.rnd, dty);
            Ok(if dty.is_signed() { sext(v, dty.bits()) as u64 } else { v })
        }
        (Some(fd), Some(fa)) => {
            let x = fa.to_f64(fa.ftz(a, m.ftz));
            if dty == Ty::Tf32 {
                // cvt.rna.tf32.f32: 10 mantissa bits, ties away from zero (§9.7.9.21).
                if x.is_nan() {
                    return Ok(0x7fff_ffff);
                }
                let bits = a as u32;
                let r = if m.rnd == Rnd::Rna || m.rnd == Rnd::None { (bits.wrapping_add(0x1000)) & !0x1fff } else { bits & !0x1fff };
                return Ok(r as u64);
            }
            let v = match m.rnd {
                Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi => fd.round_f64(round_integral(x, m.rnd)),
                Rnd::None | Rnd::Rn => fd.round_f64(x),
                r => fd.round(x, std::cmp::Ordering::Equal, r),
            };
            let v = if m.sat {
                let y = fd.to_f64(v);
                if y.is_nan() { 0 } else { fd.round_f64(y.clamp(0.0, 1.0)) }
            } else {
                v
            };
            Ok(fd.ftz(v, m.ftz))
        }
    }
}

fn float_binary(f: F, op: Op, m: &Mods, a: u64, b: u64) -> Result<u64, Failure> {
    if !matches!(m.rnd, Rnd::None | Rnd::Rn) && !matches!(op, Op::Min | Op::Max) {
        return fault(format!("{:?} with rounding {:?} is not simulated", op, m.rnd));
    }
    let (a, b) = (f.ftz(a, m.ftz), f.ftz(b, m.ftz));
    let (x, y) = (f.to_f64(a), f.to_f64(b));
    let r = match op {
        Op::Add => f.round_f64(x + y),
        Op::Sub => f.round_f64(x - y),
        Op::Mul => f.round_f64(x * y),
        // div.approx: a · (1/b) (§9.7.3.8); .rn and .full correctly rounded.
        Op::Div if m.approx => f.round_f64(x * (1.0 / y)),
        Op::Div => f.round_f64(x / y),
        Op::Min => fminmax(f, a, b, false, m.nan),
        Op::Max => fminmax(f, a, b, true, m.nan),
        // §9.7.3.13 copysign: |b| with a's sign.
        Op::Copysign => {
            let sign = match f {
                F::H | F::B => 0x8000,
                F::S => 0x8000_0000,
                F::D => 1 << 63,
            };
            return Ok((b & !sign) | (a & sign));
        }
        _ => return fault(format!("{op:?} of floats is not simulated")),
    };
    let r = if m.sat {
        let v = f.to_f64(r);
        if v.is_nan() { 0 } else { f.round_f64(v.clamp(0.0, 1.0)) }
    } else {
        r
    };
    Ok(f.ftz(r, m.ftz))
}

/// Applies a per-half operation to a packed pair.
fn packed(ty: Ty, a: u64, b: u64, c: u64, g: impl Fn(F, u64, u64, u64) -> Result<u64, Failure>) -> Result<u64, Failure> {
    let f = if ty == Ty::F16x2 { F::H } else { F::B };
    let lo = g(f, a & 0xffff, b & 0xffff, c & 0xffff)?;
    let hi = g(f, (a >> 16) & 0xffff, (b >> 16) & 0xffff, (c >> 16) & 0xffff)?;
    Ok((hi << 16) | lo)
}

fn binary(op: Op, ty: Ty, m: &Mods, a: u64, b: u64) -> Result<u64, Failure> {
    if matches!(ty, Ty::F16x2 | Ty::Bf16x2) {
        return packed(ty, a, b, 0, |f, x, y, _| float_binary(f, op, m, x, y));
    }
    if matches!(ty, Ty::S16x2 | Ty::U16x2) {
        // §9.7.1.x min/max/add/sub of .s16x2/.u16x2: each half on its own.
        if !matches!(op, Op::Min | Op::Max | Op::Add | Op::Sub) {
            return fault(format!("{op:?} of {ty:?} is not simulated"));
        }
        let half = if ty == Ty::S16x2 { Ty::S16 } else { Ty::U16 };
        let lo = binary(op, half, m, a & 0xffff, b & 0xffff)?;
        let hi = binary(op, half, m, (a >> 16) & 0xffff, (b >> 16) & 0xffff)?;
        return Ok(((hi & 0xffff) << 16) | (lo & 0xffff));
    }
    if let Some(f) = F::of(ty) {
        return float_binary(f, op, m, a, b);
    }
    let bits = ty.bits();
    let signed = ty.is_signed();
    let (ua, ub) = (zext(a, bits), zext(b, bits));
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let mask = ty.mask();
    Ok(match op {
        Op::Add | Op::Sub => {
            if m.sat && ty == Ty::S32 {
                let r = if op == Op::Add { sa + sb } else { sa - sb };
                (r.clamp(i32::MIN as i64, i32::MAX as i64) as u64) & mask
            } else if op == Op::Add {
                ua.wrapping_add(ub) & mask
            } else {
                ua.wrapping_sub(ub) & mask
            }
        }
        // §9.7.1.3 mul: .lo, .hi or .wide (the double-width product).
        Op::Mul => {
            let p: i128 = if signed { sa as i128 * sb as i128 } else { ua as i128 * ub as i128 };
            if m.wide {
                (p as u64) & if bits >= 32 { u64::MAX } else { (1u64 << (2 * bits)) - 1 }
            } else if m.hi {
                ((p >> bits) as u64) & mask
            } else {
                (p as u64) & mask
            }
        }
        Op::Div => {
            if ub == 0 {
                // Division by zero is unspecified (§9.7.1.6); all ones, as hardware returns.
                mask
            } else if signed {
                (sa.wrapping_div(sb) as u64) & mask
            } else {
                (ua / ub) & mask
            }
        }
        Op::Rem => {
            if ub == 0 {
                ua & mask
            } else if signed {
                (sa.wrapping_rem(sb) as u64) & mask
            } else {
                (ua % ub) & mask
            }
        }
        Op::Min => (if signed { sa.min(sb) as u64 } else { ua.min(ub) }) & mask,
        Op::Max => (if signed { sa.max(sb) as u64 } else { ua.max(ub) }) & mask,
        Op::And => ua & ub,
        Op::Or => ua | ub,
        Op::Xor => ua ^ ub,
        // §9.7.8.8 shl / §9.7.8.9 shr: amounts above the width clamp to it.
        Op::Shl => {
            let s = (b as u32).min(bits);
            if s >= 64 { 0 } else { (ua << s) & mask }
        }
        Op::Shr => {
            let s = (b as u32).min(bits);
            if signed {
                ((sa >> s.min(63)) as u64) & mask
            } else if s >= 64 {
                0
            } else {
                (ua >> s) & mask
            }
        }
        _ => return fault(format!("{op:?} of integers is not simulated")),
    })
}

fn float_fma(f: F, m: &Mods, a: u64, b: u64, c: u64) -> Result<u64, Failure> {
    if !matches!(m.rnd, Rnd::None | Rnd::Rn) {
        return fault(format!("fma with rounding {:?} is not simulated", m.rnd));
    }
    let (a, b, c) = (f.ftz(a, m.ftz), f.ftz(b, m.ftz), f.ftz(c, m.ftz));
    let r = match f {
        F::S => {
            let v = f32::from_bits(a as u32).mul_add(f32::from_bits(b as u32), f32::from_bits(c as u32));
            if v.is_nan() { F::S.canonical_nan() } else { v.to_bits() as u64 }
        }
        F::D => {
            let v = f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c));
            if v.is_nan() { F::D.canonical_nan() } else { v.to_bits() }
        }
        _ => f.round_f64(f.to_f64(a).mul_add(f.to_f64(b), f.to_f64(c))),
    };
    let r = if m.sat {
        let v = f.to_f64(r);
        if v.is_nan() { 0 } else { f.round_f64(v.clamp(0.0, 1.0)) }
    } else {
        r
    };
    Ok(f.ftz(r, m.ftz))
}

/// §9.7.1.4 mad / §9.7.3.6 fma.
fn fma(ty: Ty, m: &Mods, a: u64, b: u64, c: u64) -> Result<u64, Failure> {
    if matches!(ty, Ty::S16x2 | Ty::U16x2) {
        return fault(format!("mad of {ty:?} is not simulated"));
    }
    if matches!(ty, Ty::F16x2 | Ty::Bf16x2) {
        return packed(ty, a, b, c, |f, x, y, z| float_fma(f, m, x, y, z));
    }
    if let Some(f) = F::of(ty) {
        return float_fma(f, m, a, b, c);
    }
    let bits = ty.bits();
    let signed = ty.is_signed();
    let p: i128 = if signed { sext(a, bits) as i128 * sext(b, bits) as i128 } else { zext(a, bits) as i128 * zext(b, bits) as i128 };
    Ok(if m.wide {
        let w = 2 * bits;
        let c = if signed { sext(c, w) as i128 } else { zext(c, w) as i128 };
        ((p + c) as u64) & if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
    } else if m.hi {
        let c = if signed { sext(c, bits) as i128 } else { zext(c, bits) as i128 };
        (((p >> bits) + c) as u64) & ty.mask()
    } else {
        let c = zext(c, bits) as i128;
        if m.sat && ty == Ty::S32 {
            let r = (p >> 32) as i64; // .sat applies to .hi only in PTX
            let _ = r;
            return fault("mad.lo.sat is not simulated");
        }
        ((p + c) as u64) & ty.mask()
    })
}

fn float_unary(f: F, op: Op, m: &Mods, a: u64) -> Result<u64, Failure> {
    let sign = match f {
        F::H | F::B => 0x8000u64,
        F::S => 0x8000_0000,
        F::D => 1 << 63,
    };
    let a = f.ftz(a, m.ftz);
    let x = f.to_f64(a);
    let r = match op {
        // §9.7.3.9 abs / §9.7.3.10 neg: the sign bit only (NaN canonical for f32).
        Op::Abs => {
            if x.is_nan() && f == F::S {
                f.canonical_nan()
            } else {
                a & !sign
            }
        }
        Op::Neg => {
            if x.is_nan() && f == F::S {
                f.canonical_nan()
            } else {
                a ^ sign
            }
        }
        // §9.7.3.14 rcp, §9.7.3.15 sqrt, §9.7.3.16 rsqrt: .rn correctly
        // rounded; .approx within the ISA's stated error (here exact).
        Op::Rcp => {
            if !m.approx && !matches!(m.rnd, Rnd::None | Rnd::Rn) {
                return fault(format!("rcp with rounding {:?} is not simulated", m.rnd));
            }
            f.round_f64(1.0 / x)
        }
        Op::Sqrt => {
            if !m.approx && !matches!(m.rnd, Rnd::None | Rnd::Rn) {
                return fault(format!("sqrt with rounding {:?} is not simulated", m.rnd));
            }
            f.round_f64(x.sqrt())
        }
        Op::Rsqrt => f.round_f64(1.0 / x.sqrt()),
        // §9.7.3.20 ex2.approx, §9.7.3.19 lg2.approx, §9.7.3.17–18 sin/cos.approx, §9.7.3.21 tanh.approx.
        Op::Ex2 => f.round_f64(x.exp2()),
        Op::Lg2 => f.round_f64(x.log2()),
        Op::Sin => f.round_f64(x.sin()),
        Op::Cos => f.round_f64(x.cos()),
        Op::Tanh => f.round_f64(x.tanh()),
        _ => return fault(format!("{op:?} of floats is not simulated")),
    };
    Ok(f.ftz(r, m.ftz))
}

fn unary(op: Op, ty: Ty, m: &Mods, a: u64) -> Result<u64, Failure> {
    if matches!(ty, Ty::F16x2 | Ty::Bf16x2) {
        return packed(ty, a, 0, 0, |f, x, _, _| float_unary(f, op, m, x));
    }
    if matches!(ty, Ty::S16x2 | Ty::U16x2) {
        return fault(format!("{op:?} of {ty:?} is not simulated"));
    }
    if let Some(f) = F::of(ty) {
        return float_unary(f, op, m, a);
    }
    let bits = ty.bits();
    let mask = ty.mask();
    Ok(match op {
        Op::Abs => (sext(a, bits).wrapping_abs() as u64) & mask,
        Op::Neg => (sext(a, bits).wrapping_neg() as u64) & mask,
        Op::Not => {
            if ty == Ty::Pred {
                (a & 1) ^ 1
            } else {
                !a & mask
            }
        }
        Op::Cnot => (zext(a, bits) == 0) as u64,
        Op::Popc => zext(a, bits).count_ones() as u64,
        Op::Clz => (zext(a, bits).leading_zeros() - (64 - bits)) as u64,
        Op::Brev => (zext(a, bits).reverse_bits() >> (64 - bits)) & mask,
        _ => return fault(format!("{op:?} of integers is not simulated")),
    })
}

/// §9.7.7.1 setp comparisons (tables 21–22).
fn compare(ty: Ty, m: &Mods, a: u64, b: u64) -> Result<bool, Failure> {
    if matches!(ty, Ty::F16x2 | Ty::Bf16x2 | Ty::S16x2 | Ty::U16x2 | Ty::Pred | Ty::B128) {
        return fault(format!("setp of {ty:?} is not simulated"));
    }
    if let Some(f) = F::of(ty) {
        let (x, y) = (f.to_f64(f.ftz(a, m.ftz)), f.to_f64(f.ftz(b, m.ftz)));
        let unordered = x.is_nan() || y.is_nan();
        return Ok(match m.cmp {
            Cmp::Eq => !unordered && x == y,
            Cmp::Ne => !unordered && x != y,
            Cmp::Lt => !unordered && x < y,
            Cmp::Le => !unordered && x <= y,
            Cmp::Gt => !unordered && x > y,
            Cmp::Ge => !unordered && x >= y,
            Cmp::Equ => unordered || x == y,
            Cmp::Neu => unordered || x != y,
            Cmp::Ltu => unordered || x < y,
            Cmp::Leu => unordered || x <= y,
            Cmp::Gtu => unordered || x > y,
            Cmp::Geu => unordered || x >= y,
            Cmp::Num => !unordered,
            Cmp::Nan => unordered,
            c => return fault(format!("setp.{c:?} of floats")),
        });
    }
    let bits = ty.bits();
    let signed = ty.is_signed();
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let (ua, ub) = (zext(a, bits), zext(b, bits));
    let lt = if signed { sa < sb } else { ua < ub };
    let eq = ua == ub;
    Ok(match m.cmp {
        Cmp::Eq => eq,
        Cmp::Ne => !eq,
        Cmp::Lt => lt,
        Cmp::Le => lt || eq,
        Cmp::Gt => !lt && !eq,
        Cmp::Ge => !lt,
        Cmp::Lo => ua < ub,
        Cmp::Ls => ua <= ub,
        Cmp::Hi => ua > ub,
        Cmp::Hs => ua >= ub,
        c => return fault(format!("setp.{c:?} of integers")),
    })
}

/// §9.7.12.5 atom operations: the new value from the old one.
fn atomic_apply(op: AtomOp, ty: Ty, old: u64, v: u64, c: u64) -> Result<u64, Failure> {
    if matches!(ty, Ty::F16x2 | Ty::Bf16x2 | Ty::S16x2 | Ty::U16x2 | Ty::Pred | Ty::B128) {
        return fault(format!("atomics of {ty:?} are not simulated"));
    }
    let bits = ty.bits();
    let mask = ty.mask();
    if let Some(f) = F::of(ty) {
        return match op {
            AtomOp::Add => Ok(f.round_f64(f.to_f64(old) + f.to_f64(v))),
            AtomOp::Min => Ok(fminmax(f, old, v, false, false)),
            AtomOp::Max => Ok(fminmax(f, old, v, true, false)),
            AtomOp::Exch => Ok(v),
            o => fault(format!("atom.{o:?} of floats")),
        };
    }
    let signed = ty.is_signed();
    Ok(match op {
        AtomOp::Add => old.wrapping_add(v) & mask,
        AtomOp::And => old & v,
        AtomOp::Or => old | v,
        AtomOp::Xor => old ^ v,
        AtomOp::Exch => v & mask,
        // §9.7.12.5: cas compares with b and stores c.
        AtomOp::Cas => {
            if zext(old, bits) == zext(v, bits) {
                c & mask
            } else {
                old
            }
        }
        AtomOp::Inc => {
            if zext(old, bits) >= zext(v, bits) {
                0
            } else {
                (old + 1) & mask
            }
        }
        AtomOp::Dec => {
            if zext(old, bits) == 0 || zext(old, bits) > zext(v, bits) {
                v & mask
            } else {
                (old - 1) & mask
            }
        }
        AtomOp::Min => {
            if signed {
                (sext(old, bits).min(sext(v, bits)) as u64) & mask
            } else {
                zext(old, bits).min(zext(v, bits))
            }
        }
        AtomOp::Max => {
            if signed {
                (sext(old, bits).max(sext(v, bits)) as u64) & mask
            } else {
                zext(old, bits).max(zext(v, bits))
            }
        }
    })
}
