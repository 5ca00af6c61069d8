//! Hand-built GPU artifacts with hand-written PTX, their inputs and expected
//! outputs: what `tests/gpu_runtime.rs` round-trips (and runs, where a
//! driver is present) and what `scripts/gpu_prepare.sh` writes into the
//! GPU check folder (`examples/gpu_selftest.rs`), so the GPU runtime is
//! checked on a device independently of the compiler's GPU lowering.
//!
//! - `gpu_add`: one kernel, c = a + b (f32[1000], 4 blocks of 256 threads).
//! - `gpu_gemm`: cuBLAS, batched f32 with a transposed, shared rhs, and a
//!   bf16 product with a transposed lhs.
//! - `gpu_streams`: two independent kernels into temporaries, a gemm of
//!   both, an independent memset and copy: four streams, events between.
//! - `gpu_loop`: a while loop (condition kernel writes the predicate the
//!   host reads back; body kernel, copies), then a conditional on the final
//!   predicate choosing a memset.

use std::path::Path;

use crate::artifact::{Artifact, KernelArgInfo, KernelCode, KernelInfo, PtxArg, PtxLaunch, PtxModule, Target};
use crate::buffer::BufferSlice;
use crate::error::Result;
use crate::gemm::{GemmSpec, row_major_gemm_f64};
use crate::npy::{ElementType, HostArray, TensorSpec};
use crate::program::{AllocationRole, AllocationSpec, HostProgram, MemoryReport, MemsetValue, ThunkSpec};

const HEADER: &str = ".version 7.0\n.target sm_80\n.address_size 64\n\n";

/// c[i] = a[i] + b[i] for i < n.
const ADD_F32: &str = r#"
.visible .entry add_f32(
	.param .u64 a,
	.param .u64 b,
	.param .u64 c,
	.param .u32 n
)
{
	.reg .pred p;
	.reg .b32 r<5>;
	.reg .f32 f<4>;
	.reg .b64 rd<8>;

	ld.param.u64 rd1, [a];
	ld.param.u64 rd2, [b];
	ld.param.u64 rd3, [c];
	ld.param.u32 r1, [n];
	mov.u32 r2, %ctaid.x;
	mov.u32 r3, %ntid.x;
	mov.u32 r4, %tid.x;
	mad.lo.s32 r2, r2, r3, r4;
	setp.ge.u32 p, r2, r1;
	@p bra DONE;
	cvta.to.global.u64 rd1, rd1;
	cvta.to.global.u64 rd2, rd2;
	cvta.to.global.u64 rd3, rd3;
	mul.wide.u32 rd4, r2, 4;
	add.s64 rd5, rd1, rd4;
	add.s64 rd6, rd2, rd4;
	add.s64 rd7, rd3, rd4;
	ld.global.f32 f1, [rd5];
	ld.global.f32 f2, [rd6];
	add.f32 f3, f1, f2;
	st.global.f32 [rd7], f3;
DONE:
	ret;
}
"#;

/// *pred = (*counter < limit) as one byte.
const COND_LT: &str = r#"
.visible .entry cond_lt(
	.param .u64 counter,
	.param .u64 pred,
	.param .u32 limit
)
{
	.reg .pred p;
	.reg .b32 r<4>;
	.reg .b64 rd<3>;

	ld.param.u64 rd1, [counter];
	ld.param.u64 rd2, [pred];
	ld.param.u32 r1, [limit];
	cvta.to.global.u64 rd1, rd1;
	cvta.to.global.u64 rd2, rd2;
	ld.global.u32 r2, [rd1];
	setp.lt.s32 p, r2, r1;
	selp.b32 r3, 1, 0, p;
	st.global.u8 [rd2], r3;
	ret;
}
"#;

/// *counter_out = *counter_in + 1 (thread 0); x_out[i] = 2 · x_in[i].
const BODY_STEP: &str = r#"
.visible .entry body_step(
	.param .u64 cin,
	.param .u64 xin,
	.param .u64 cout,
	.param .u64 xout,
	.param .u32 n
)
{
	.reg .pred p, q;
	.reg .b32 r<6>;
	.reg .f32 f<3>;
	.reg .b64 rd<8>;

	ld.param.u64 rd1, [cin];
	ld.param.u64 rd2, [xin];
	ld.param.u64 rd3, [cout];
	ld.param.u64 rd4, [xout];
	ld.param.u32 r1, [n];
	cvta.to.global.u64 rd1, rd1;
	cvta.to.global.u64 rd2, rd2;
	cvta.to.global.u64 rd3, rd3;
	cvta.to.global.u64 rd4, rd4;
	mov.u32 r2, %ctaid.x;
	mov.u32 r3, %ntid.x;
	mov.u32 r4, %tid.x;
	mad.lo.s32 r2, r2, r3, r4;
	setp.ne.u32 q, r2, 0;
	@q bra SKIP;
	ld.global.u32 r5, [rd1];
	add.s32 r5, r5, 1;
	st.global.u32 [rd3], r5;
SKIP:
	setp.ge.u32 p, r2, r1;
	@p bra DONE;
	mul.wide.u32 rd5, r2, 4;
	add.s64 rd6, rd2, rd5;
	add.s64 rd7, rd4, rd5;
	ld.global.f32 f1, [rd6];
	add.f32 f2, f1, f1;
	st.global.f32 [rd7], f2;
DONE:
	ret;
}
"#;

/// Every PTX text of the self-test (for `ptxas` in tests that have it).
pub fn ptx_texts() -> Vec<(&'static str, String)> {
    vec![
        ("add_f32", format!("{HEADER}{ADD_F32}")),
        ("cond_lt", format!("{HEADER}{COND_LT}")),
        ("body_step", format!("{HEADER}{BODY_STEP}")),
    ]
}

/// One self-test program: the artifact, its inputs and the outputs it must give.
pub struct SelfTest {
    pub name: &'static str,
    pub artifact: Artifact,
    pub inputs: Vec<HostArray>,
    pub expected: Vec<HostArray>,
}

fn f32_array(shape: &[u64], values: &[f64]) -> HostArray {
    HostArray {
        element_type: ElementType::F32,
        shape: shape.to_vec(),
        bytes: values.iter().flat_map(|&v| (v as f32).to_le_bytes()).collect(),
    }
}

fn bf16_array(shape: &[u64], values: &[f64]) -> HostArray {
    HostArray {
        element_type: ElementType::Bf16,
        shape: shape.to_vec(),
        bytes: values.iter().flat_map(|&v| half::bf16::from_f64(v).to_le_bytes()).collect(),
    }
}

fn i32_array(shape: &[u64], values: &[i32]) -> HostArray {
    HostArray { element_type: ElementType::I32, shape: shape.to_vec(), bytes: values.iter().flat_map(|v| v.to_le_bytes()).collect() }
}

/// Small integers: every sum of products is exact in f32 and bf16.
fn ints(n: u64, seed: u64) -> Vec<f64> {
    (0..n).map(|i| ((i * 5 + seed * 3) % 7) as f64 - 3.0).collect()
}

/// Builds a host program: allocations in order, parameters and results by allocation.
struct ProgramBuilder {
    allocations: Vec<AllocationSpec>,
    params: Vec<(TensorSpec, usize)>,
    results: Vec<(TensorSpec, BufferSlice)>,
}

impl ProgramBuilder {
    fn new() -> Self {
        Self { allocations: Vec::new(), params: Vec::new(), results: Vec::new() }
    }
    fn spec(t: ElementType, shape: &[u64]) -> TensorSpec {
        TensorSpec { element_type: t, shape: shape.to_vec() }
    }
    fn param(&mut self, t: ElementType, shape: &[u64]) -> BufferSlice {
        let spec = Self::spec(t, shape);
        let a = self.allocations.len();
        self.allocations.push(AllocationSpec { size: spec.bytes(), role: AllocationRole::Parameter(self.params.len()) });
        self.params.push((spec.clone(), a));
        BufferSlice::new(a, 0, spec.bytes())
    }
    fn result(&mut self, t: ElementType, shape: &[u64]) -> BufferSlice {
        let spec = Self::spec(t, shape);
        let a = self.allocations.len();
        self.allocations.push(AllocationSpec { size: spec.bytes(), role: AllocationRole::Result });
        let s = BufferSlice::new(a, 0, spec.bytes());
        self.results.push((spec, s));
        s
    }
    fn temp(&mut self, size: u64) -> usize {
        self.allocations.push(AllocationSpec { size, role: AllocationRole::Temp });
        self.allocations.len() - 1
    }
    fn build(self, body: Vec<ThunkSpec>) -> HostProgram {
        let peak_bytes = self.allocations.iter().map(|a| a.size).sum();
        HostProgram {
            allocations: self.allocations,
            params: self.params,
            results: self.results,
            body,
            memory: MemoryReport { peak_bytes, ..Default::default() },
            spmd: None,
        }
    }
}

fn arg(t: ElementType, shape: &[u64], output: bool) -> KernelArgInfo {
    let spec = TensorSpec { element_type: t, shape: shape.to_vec() };
    KernelArgInfo { dtype: t.mlir_name().into(), shape: shape.to_vec(), bytes: spec.bytes(), output }
}

fn artifact(name: &str, program: HostProgram, kernels: Vec<KernelInfo>, modules: Vec<PtxModule>) -> Artifact {
    Artifact {
        producer: format!("floors-runtime {} (GPU self-test)", env!("CARGO_PKG_VERSION")),
        name: name.into(),
        target: Target::Gpu { chip: "sm_80".into(), device: crate::gpu::device::A100 },
        program,
        custom_call_targets: Vec::new(),
        kernels,
        code: KernelCode::Ptx(modules),
    }
}

fn kernel(name: &str, inputs: Vec<BufferSlice>, outputs: Vec<BufferSlice>) -> ThunkSpec {
    ThunkSpec::Kernel { kernel: name.into(), inputs, outputs, grid: [1, 1, 1] }
}

fn add_kernel(name: &str, n: u64) -> (KernelInfo, PtxModule) {
    let info = KernelInfo {
        name: name.into(),
        grid: [1, 1, 1],
        args: vec![arg(ElementType::F32, &[n], false), arg(ElementType::F32, &[n], false), arg(ElementType::F32, &[n], true)],
    };
    let launch = PtxLaunch {
        function: "add_f32".into(),
        grid: [n.div_ceil(256) as u32, 1, 1],
        block: [256, 1, 1],
        shared_memory_bytes: 0,
        args: vec![PtxArg::Buffer(0), PtxArg::Buffer(1), PtxArg::Buffer(2), PtxArg::I32(n as i32)],
    };
    (info, PtxModule { kernel: name.into(), ptx: format!("{HEADER}{ADD_F32}"), launches: vec![launch], temps: vec![] })
}

fn gpu_add() -> SelfTest {
    let n = 1000;
    let mut p = ProgramBuilder::new();
    let a = p.param(ElementType::F32, &[n]);
    let b = p.param(ElementType::F32, &[n]);
    let c = p.result(ElementType::F32, &[n]);
    let (info, module) = add_kernel("fusion_add", n);
    let program = p.build(vec![kernel("fusion_add", vec![a, b], vec![c])]);
    let (x, y) = (ints(n, 1), ints(n, 2));
    let sum: Vec<f64> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
    SelfTest {
        name: "gpu_add",
        artifact: artifact("gpu_add", program, vec![info], vec![module]),
        inputs: vec![f32_array(&[n], &x), f32_array(&[n], &y)],
        expected: vec![f32_array(&[n], &sum)],
    }
}

fn gpu_gemm() -> SelfTest {
    let mut p = ProgramBuilder::new();
    // out0[2,3,5] = lhs[2,3,4] · rhs[5,4]ᵀ (rhs shared by both batches).
    let lhs = p.param(ElementType::F32, &[2, 3, 4]);
    let rhs = p.param(ElementType::F32, &[5, 4]);
    // out1[4,4] = l2[8,4]ᵀ · r2[8,4], bf16.
    let l2 = p.param(ElementType::Bf16, &[8, 4]);
    let r2 = p.param(ElementType::Bf16, &[8, 4]);
    let out0 = p.result(ElementType::F32, &[2, 3, 5]);
    let out1 = p.result(ElementType::Bf16, &[4, 4]);
    let mut g0 = GemmSpec::contiguous(ElementType::F32, [lhs, rhs, out0], 2, 3, 5, 4);
    g0.shape.transpose_rhs = true;
    g0.shape.rhs_batch_stride = 0;
    let mut g1 = GemmSpec::contiguous(ElementType::Bf16, [l2, r2, out1], 1, 4, 4, 8);
    g1.shape.transpose_lhs = true;
    let (a, b, c, d) = (ints(24, 1), ints(20, 2), ints(32, 3), ints(32, 4));
    let e0 = row_major_gemm_f64(&g0, &a, &b);
    let e1 = row_major_gemm_f64(&g1, &c, &d);
    let program = p.build(vec![ThunkSpec::Gemm(g0), ThunkSpec::Gemm(g1)]);
    SelfTest {
        name: "gpu_gemm",
        artifact: artifact("gpu_gemm", program, vec![], vec![]),
        inputs: vec![f32_array(&[2, 3, 4], &a), f32_array(&[5, 4], &b), bf16_array(&[8, 4], &c), bf16_array(&[8, 4], &d)],
        expected: vec![f32_array(&[2, 3, 5], &e0), bf16_array(&[4, 4], &e1)],
    }
}

fn gpu_streams() -> SelfTest {
    let n = 64;
    let mut p = ProgramBuilder::new();
    let a = p.param(ElementType::F32, &[n]);
    let b = p.param(ElementType::F32, &[n]);
    let out0 = p.result(ElementType::F32, &[8, 8]);
    let out1 = p.result(ElementType::F32, &[16]);
    let out2 = p.result(ElementType::F32, &[16]);
    let t = p.temp(512);
    let (t0, t1) = (BufferSlice::new(t, 0, 256), BufferSlice::new(t, 256, 256));
    let (info, module) = add_kernel("fusion_add", n);
    let body = vec![
        kernel("fusion_add", vec![a, b], vec![t0]),
        kernel("fusion_add", vec![b, b], vec![t1]),
        ThunkSpec::Gemm(GemmSpec::contiguous(ElementType::F32, [t0, t1, out0], 1, 8, 8, 8)),
        ThunkSpec::Memset { dst: out1, value: MemsetValue::Word(1.5f32.to_bits()) },
        ThunkSpec::Copy { from: BufferSlice::new(a.allocation, 0, 64), to: out2 },
    ];
    let program = p.build(body);
    let (x, y) = (ints(n, 5), ints(n, 6));
    let s0: Vec<f64> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
    let s1: Vec<f64> = y.iter().map(|b| b + b).collect();
    let g = GemmSpec::contiguous(ElementType::F32, [t0, t1, out0], 1, 8, 8, 8);
    SelfTest {
        name: "gpu_streams",
        artifact: artifact("gpu_streams", program, vec![info], vec![module]),
        inputs: vec![f32_array(&[n], &x), f32_array(&[n], &y)],
        expected: vec![f32_array(&[8, 8], &row_major_gemm_f64(&g, &s0, &s1)), f32_array(&[16], &[1.5; 16]), f32_array(&[16], &x[..16])],
    }
}

fn gpu_loop() -> SelfTest {
    let n = 300u64;
    let limit = 5;
    let mut p = ProgramBuilder::new();
    let x = p.param(ElementType::F32, &[n]);
    let out0 = p.result(ElementType::F32, &[n]);
    let out1 = p.result(ElementType::I32, &[4]);
    let out2 = p.result(ElementType::I32, &[]);
    let t = p.temp(4096);
    let counter = BufferSlice::new(t, 0, 4);
    let counter2 = BufferSlice::new(t, 256, 4);
    let pred = BufferSlice::new(t, 512, 1);
    let xs = BufferSlice::new(t, 1024, n * 4);
    let xs2 = BufferSlice::new(t, 2560, n * 4);
    let cond_info = KernelInfo {
        name: "fusion_cond".into(),
        grid: [1, 1, 1],
        args: vec![arg(ElementType::I32, &[], false), arg(ElementType::Bool, &[], true)],
    };
    let cond_module = PtxModule {
        kernel: "fusion_cond".into(),
        ptx: format!("{HEADER}{COND_LT}"),
        launches: vec![PtxLaunch {
            function: "cond_lt".into(),
            grid: [1, 1, 1],
            block: [1, 1, 1],
            shared_memory_bytes: 0,
            args: vec![PtxArg::Buffer(0), PtxArg::Buffer(1), PtxArg::I32(limit)],
        }],
        temps: vec![],
    };
    let body_info = KernelInfo {
        name: "fusion_body".into(),
        grid: [1, 1, 1],
        args: vec![
            arg(ElementType::I32, &[], false),
            arg(ElementType::F32, &[n], false),
            arg(ElementType::I32, &[], true),
            arg(ElementType::F32, &[n], true),
        ],
    };
    let body_module = PtxModule {
        kernel: "fusion_body".into(),
        ptx: format!("{HEADER}{BODY_STEP}"),
        launches: vec![PtxLaunch {
            function: "body_step".into(),
            grid: [n.div_ceil(128) as u32, 1, 1],
            block: [128, 1, 1],
            shared_memory_bytes: 0,
            args: vec![PtxArg::Buffer(0), PtxArg::Buffer(1), PtxArg::Buffer(2), PtxArg::Buffer(3), PtxArg::I32(n as i32)],
        }],
        temps: vec![],
    };
    let body = vec![
        ThunkSpec::Memset { dst: counter, value: MemsetValue::Word(0) },
        ThunkSpec::Copy { from: x, to: xs },
        ThunkSpec::While {
            cond: vec![kernel("fusion_cond", vec![counter], vec![pred])],
            predicate: pred,
            body: vec![
                kernel("fusion_body", vec![counter, xs], vec![counter2, xs2]),
                ThunkSpec::Copy { from: counter2, to: counter },
                ThunkSpec::Copy { from: xs2, to: xs },
            ],
            trip_count: None,
        },
        ThunkSpec::Copy { from: xs, to: out0 },
        ThunkSpec::Copy { from: counter, to: out2 },
        // The final predicate is false: branch 1.
        ThunkSpec::Conditional {
            index: pred,
            branches: vec![
                vec![ThunkSpec::Memset { dst: out1, value: MemsetValue::Word(9) }],
                vec![ThunkSpec::Memset { dst: out1, value: MemsetValue::Word(7) }],
            ],
        },
    ];
    let program = p.build(body);
    let v = ints(n, 7);
    let scaled: Vec<f64> = v.iter().map(|x| x * (1u64 << limit) as f64).collect();
    SelfTest {
        name: "gpu_loop",
        artifact: artifact("gpu_loop", program, vec![cond_info, body_info], vec![cond_module, body_module]),
        inputs: vec![f32_array(&[n], &v)],
        expected: vec![f32_array(&[n], &scaled), i32_array(&[4], &[7; 4]), i32_array(&[], &[limit])],
    }
}

/// Every self-test program.
pub fn self_tests() -> Vec<SelfTest> {
    vec![gpu_add(), gpu_gemm(), gpu_streams(), gpu_loop()]
}

/// Writes `NAME.floors`, `NAME.inK.npy` and `NAME.outK.npy` (expected) of
/// every self-test into `dir`; returns the names.
pub fn write_self_tests(dir: &Path) -> Result<Vec<&'static str>> {
    std::fs::create_dir_all(dir).map_err(|source| crate::error::Error::Io { path: dir.into(), source })?;
    let mut names = Vec::new();
    for t in self_tests() {
        t.artifact.write(&dir.join(format!("{}.floors", t.name)))?;
        for (k, a) in t.inputs.iter().enumerate() {
            crate::npy::write(&dir.join(format!("{}.in{k}.npy", t.name)), a)?;
        }
        for (k, a) in t.expected.iter().enumerate() {
            crate::npy::write(&dir.join(format!("{}.out{k}.npy", t.name)), a)?;
        }
        names.push(t.name);
    }
    Ok(names)
}
