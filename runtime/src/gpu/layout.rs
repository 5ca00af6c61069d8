//! What the GPU runtime decides before it touches a device, as pure
//! functions (tested without a GPU): where every allocation of the host
//! program lives in the one device arena of a run, what each thunk spec
//! reads and writes, which stream each top-level thunk runs on, and whether
//! an artifact's PTX modules cover its kernel table.

use crate::artifact::{KernelInfo, PtxArg, PtxModule};
use crate::buffer::BufferUse;
use crate::buffer_assignment::{LogicalBuffer, assign_buffers};
use crate::gpu::streams::{StreamPlan, assign_streams};
use crate::program::{AllocationSpec, HostProgram, ThunkSpec};

/// Alignment of every allocation in the device arena (what `cuMemAlloc`
/// guarantees; enough for vector loads and cuBLAS).
pub const DEVICE_ALIGNMENT: u64 = 256;

/// The device arena of one run: every allocation of the program (parameters,
/// results, constants, temporaries) at an aligned offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaLayout {
    pub offsets: Vec<u64>,
    pub bytes: u64,
}

/// Lays out `allocations` in one arena with [`assign_buffers`]: each
/// allocation is a buffer live for the whole run, so none shares bytes.
pub fn arena_layout(allocations: &[AllocationSpec]) -> Result<ArenaLayout, String> {
    let buffers: Vec<LogicalBuffer> = allocations.iter().map(|a| LogicalBuffer::temp(a.size, DEVICE_ALIGNMENT, 0, 0)).collect();
    let assignment = assign_buffers(&buffers).map_err(|e| e.to_string())?;
    let bytes = assignment.temp_bytes.checked_next_multiple_of(DEVICE_ALIGNMENT).ok_or("the device arena's size overflows")?;
    Ok(ArenaLayout { offsets: assignment.slices.iter().map(|s| s.offset).collect(), bytes })
}

/// The buffer uses of a thunk spec and whether it has a side effect: what
/// the host thunk built from it declares (control flow: its bodies' uses
/// and its predicate or index; a custom call: its inputs read, its outputs
/// written).
pub fn spec_uses(spec: &ThunkSpec) -> (Vec<BufferUse>, bool) {
    let mut uses = Vec::new();
    let mut side_effect = false;
    collect_uses(spec, &mut uses, &mut side_effect);
    (uses, side_effect)
}

fn collect_uses(spec: &ThunkSpec, uses: &mut Vec<BufferUse>, side_effect: &mut bool) {
    let mut add = |u: BufferUse| {
        if !uses.contains(&u) {
            uses.push(u);
        }
    };
    match spec {
        ThunkSpec::Kernel { inputs, outputs, .. } => {
            inputs.iter().for_each(|&s| add(BufferUse::read(s)));
            outputs.iter().for_each(|&s| add(BufferUse::write(s)));
        }
        ThunkSpec::Copy { from, to } => {
            add(BufferUse::read(*from));
            add(BufferUse::write(*to));
        }
        ThunkSpec::Gemm(g) => {
            add(BufferUse::read(g.lhs));
            add(BufferUse::read(g.rhs));
            add(BufferUse::write(g.out));
        }
        ThunkSpec::Memset { dst, .. } => add(BufferUse::write(*dst)),
        ThunkSpec::CustomCall { inputs, outputs, info, .. } => {
            inputs.iter().for_each(|&s| add(BufferUse::read(s)));
            outputs.iter().for_each(|&s| add(BufferUse::write(s)));
            *side_effect |= info.has_side_effect;
        }
        ThunkSpec::While { cond, predicate, body, .. } => {
            add(BufferUse::read(*predicate));
            cond.iter().chain(body).for_each(|t| collect_uses(t, uses, side_effect));
        }
        ThunkSpec::Conditional { index, branches } => {
            add(BufferUse::read(*index));
            branches.iter().flatten().for_each(|t| collect_uses(t, uses, side_effect));
        }
    }
}

/// The streams of a thunk sequence: the executor's dependency edges over
/// the specs' uses, then [`assign_streams`].
pub fn plan_streams(body: &[ThunkSpec], max_streams: usize) -> StreamPlan {
    if max_streams <= 1 {
        return StreamPlan::single(body.len());
    }
    let uses: Vec<(Vec<BufferUse>, bool)> = body.iter().map(spec_uses).collect();
    let nodes: Vec<(&[BufferUse], bool)> = uses.iter().map(|(u, s)| (u.as_slice(), *s)).collect();
    assign_streams(body.len(), &crate::executor::dependency_edges(&nodes), max_streams)
}

/// Checks the PTX modules against the kernel table and the program: one
/// module per kernel the program calls, each launch's entry present in the
/// PTX, a non-empty grid and block within CUDA's limits, and every buffer
/// argument one of the kernel's.
pub fn check_ptx_modules(program: &HostProgram, table: &[KernelInfo], modules: &[PtxModule]) -> Result<(), String> {
    for name in program.kernel_names() {
        let n = modules.iter().filter(|m| m.kernel == name).count();
        if n != 1 {
            return Err(format!("kernel `{name}` has {n} PTX modules, expected one"));
        }
    }
    for m in modules {
        let bad = |what: String| Err(format!("PTX module of kernel `{}`: {what}", m.kernel));
        let Some(info) = table.iter().find(|k| k.name == m.kernel) else {
            return bad("not in the kernel table".into());
        };
        if m.ptx.contains('\0') {
            return bad("the PTX text contains a NUL byte".into());
        }
        if m.launches.is_empty() {
            return bad("no launches".into());
        }
        for l in &m.launches {
            if !declares_entry(&m.ptx, &l.function) {
                return bad(format!("no `.entry {}` in the PTX", l.function));
            }
            let threads: u64 = l.block.iter().map(|&b| b as u64).product();
            if l.grid.contains(&0) || l.block.contains(&0) {
                return bad(format!("launch of `{}`: an empty grid {:?} or block {:?}", l.function, l.grid, l.block));
            }
            if threads > 1024 || l.block[2] > 64 || l.grid[1] > 65535 || l.grid[2] > 65535 || l.grid[0] > i32::MAX as u32 {
                return bad(format!("launch of `{}`: grid {:?} block {:?} exceed CUDA's limits", l.function, l.grid, l.block));
            }
            for a in &l.args {
                if let PtxArg::Buffer(i) = a
                    && *i as usize >= info.args.len()
                {
                    return bad(format!("launch of `{}`: buffer argument {i} of {}", l.function, info.args.len()));
                }
                if let PtxArg::Temp(i) = a
                    && *i as usize >= m.temps.len()
                {
                    return bad(format!("launch of `{}`: temporary {i} of {}", l.function, m.temps.len()));
                }
            }
        }
    }
    Ok(())
}

/// Whether `ptx` declares `.entry NAME(` (whitespace allowed before the parenthesis).
fn declares_entry(ptx: &str, name: &str) -> bool {
    ptx.match_indices(".entry").any(|(i, _)| {
        let rest = ptx[i + ".entry".len()..].trim_start();
        rest.strip_prefix(name).is_some_and(|r| r.trim_start().starts_with('('))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifact::{KernelArgInfo, PtxLaunch};
    use crate::buffer::BufferSlice;
    use crate::gemm::GemmSpec;
    use crate::npy::ElementType;
    use crate::program::{AllocationRole, MemoryReport, MemsetValue};

    fn alloc(size: u64, role: AllocationRole) -> AllocationSpec {
        AllocationSpec { size, role }
    }

    #[test]
    fn the_arena_holds_every_allocation_aligned_and_apart() {
        let allocs = [
            alloc(100, AllocationRole::Parameter(0)),
            alloc(4096, AllocationRole::Temp),
            alloc(0, AllocationRole::Result),
            alloc(7, AllocationRole::Constant(vec![1; 7])),
            alloc(300, AllocationRole::Result),
        ];
        let l = arena_layout(&allocs).unwrap();
        assert_eq!(l.offsets.len(), 5);
        for (i, (a, &o)) in allocs.iter().zip(&l.offsets).enumerate() {
            assert_eq!(o % DEVICE_ALIGNMENT, 0, "allocation {i}");
            assert!(o + a.size <= l.bytes);
            for (j, (b, &p)) in allocs.iter().zip(&l.offsets).enumerate().skip(i + 1) {
                let apart = a.size == 0 || b.size == 0 || o + a.size <= p || p + b.size <= o;
                assert!(apart, "allocations {i} and {j} overlap");
            }
        }
        assert_eq!(l.bytes, 4096 + 512 + 256 + 256, "each allocation rounded up to 256 bytes");
        assert_eq!(arena_layout(&[]).unwrap(), ArenaLayout { offsets: vec![], bytes: 0 });
    }

    fn s(a: usize, o: u64, n: u64) -> BufferSlice {
        BufferSlice::new(a, o, n)
    }

    fn kernel(name: &str, inputs: Vec<BufferSlice>, outputs: Vec<BufferSlice>) -> ThunkSpec {
        ThunkSpec::Kernel { kernel: name.into(), inputs, outputs, grid: [1, 1, 1] }
    }

    #[test]
    fn independent_kernels_go_to_separate_streams() {
        // Two producers of disjoint temporaries from the parameter, a gemm of
        // both, a memset on its own: k0 ∥ k1 → gemm; memset independent.
        let body = vec![
            kernel("k0", vec![s(0, 0, 64)], vec![s(2, 0, 64)]),
            kernel("k1", vec![s(0, 0, 64)], vec![s(2, 256, 64)]),
            ThunkSpec::Gemm(GemmSpec::contiguous(ElementType::F32, [s(2, 0, 64), s(2, 256, 64), s(1, 0, 64)], 1, 4, 4, 4)),
            ThunkSpec::Memset { dst: s(3, 0, 16), value: MemsetValue::Word(0) },
        ];
        let plan = plan_streams(&body, 4);
        assert_eq!(plan.stream_of, [0, 1, 0, 2]);
        assert_eq!(plan.waits, [vec![], vec![], vec![1], vec![]]);
        assert_eq!(plan.final_waits, [3]);
        assert_eq!(plan_streams(&body, 1), StreamPlan::single(4));
    }

    #[test]
    fn control_flow_uses_cover_their_bodies() {
        let w = ThunkSpec::While {
            cond: vec![kernel("c", vec![s(1, 0, 4)], vec![s(2, 0, 1)])],
            predicate: s(2, 0, 1),
            body: vec![ThunkSpec::Copy { from: s(1, 0, 4), to: s(3, 0, 4) }],
            trip_count: None,
        };
        let (uses, side) = spec_uses(&w);
        assert!(!side);
        assert_eq!(
            uses,
            [BufferUse::read(s(2, 0, 1)), BufferUse::read(s(1, 0, 4)), BufferUse::write(s(2, 0, 1)), BufferUse::write(s(3, 0, 4))]
        );
        // A reader of the loop's output waits for the loop.
        let body = vec![w, kernel("after", vec![s(3, 0, 4)], vec![s(4, 0, 4)])];
        let plan = plan_streams(&body, 4);
        assert_eq!(plan.stream_of, [0, 0]);
    }

    fn module(kernel: &str, ptx: &str, launch: PtxLaunch) -> PtxModule {
        PtxModule { kernel: kernel.into(), ptx: ptx.into(), launches: vec![launch], temps: vec![] }
    }

    #[test]
    fn ptx_modules_must_cover_the_kernel_table() {
        let program = HostProgram {
            allocations: vec![alloc(16, AllocationRole::Result)],
            params: vec![],
            results: vec![],
            body: vec![kernel("fusion_0", vec![], vec![s(0, 0, 16)])],
            memory: MemoryReport::default(),
            spmd: None,
        };
        let table = vec![KernelInfo {
            name: "fusion_0".into(),
            grid: [1, 1, 1],
            args: vec![KernelArgInfo { dtype: "f32".into(), shape: vec![4], bytes: 16, output: true }],
        }];
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry fusion_0_kernel (\n.param .u64 p0\n)\n{ ret; }\n";
        let launch = PtxLaunch {
            function: "fusion_0_kernel".into(),
            grid: [1, 1, 1],
            block: [128, 1, 1],
            shared_memory_bytes: 0,
            args: vec![PtxArg::Buffer(0)],
        };
        check_ptx_modules(&program, &table, &[module("fusion_0", ptx, launch.clone())]).unwrap();
        let e = check_ptx_modules(&program, &table, &[]).unwrap_err();
        assert_eq!(e, "kernel `fusion_0` has 0 PTX modules, expected one");
        let mut l = launch.clone();
        l.function = "fusion_0".into();
        let e = check_ptx_modules(&program, &table, &[module("fusion_0", ptx, l)]).unwrap_err();
        assert!(e.contains("no `.entry fusion_0` in the PTX"), "{e}");
        let mut l = launch.clone();
        l.args = vec![PtxArg::Buffer(1)];
        let e = check_ptx_modules(&program, &table, &[module("fusion_0", ptx, l)]).unwrap_err();
        assert!(e.contains("buffer argument 1 of 1"), "{e}");
        let mut l = launch.clone();
        l.block = [2048, 1, 1];
        assert!(check_ptx_modules(&program, &table, &[module("fusion_0", ptx, l)]).unwrap_err().contains("limits"));
        let mut l = launch;
        l.grid = [0, 1, 1];
        assert!(check_ptx_modules(&program, &table, &[module("fusion_0", ptx, l)]).unwrap_err().contains("empty grid"));
    }
}
