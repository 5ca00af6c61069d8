//! Hand-built Mosaic kernels through the interpreter and the grid.

use super::{kernel::*, *};
use crate::npy::{ElementType, HostArray, TensorSpec};

const F32: ScalarType = ScalarType::F32;
const I32: ScalarType = ScalarType::I32;
const IDX: ScalarType = ScalarType::Index;

fn vmem(shape: &[i64], e: ScalarType) -> Type {
    Type::MemRef { shape: shape.to_vec(), element: MemElement::Scalar(e), memory_space: MemorySpace::Vmem }
}
fn any(shape: &[i64], e: ScalarType) -> Type {
    Type::MemRef { shape: shape.to_vec(), element: MemElement::Scalar(e), memory_space: MemorySpace::Any }
}
fn vec_t(shape: &[i64], e: ScalarType) -> Type {
    Type::Vector { shape: shape.to_vec(), element: e }
}
fn s(e: ScalarType) -> Type {
    Type::Scalar(e)
}

/// Builds one function: value ids in order, ops at `test.mlir:<n>:3`.
struct F {
    name: String,
    next: u32,
    args: Vec<(ValueId, Type)>,
    ops: Vec<Op>,
}

impl F {
    fn new(name: &str, args: &[Type]) -> (F, Vec<ValueId>) {
        let ids: Vec<ValueId> = (0..args.len() as u32).collect();
        let f =
            F { name: name.into(), next: args.len() as u32, args: ids.iter().copied().zip(args.iter().cloned()).collect(), ops: vec![] };
        (f, ids)
    }
    fn op(&mut self, name: &str, kind: OpKind, results: &[Type]) -> Vec<ValueId> {
        let ids: Vec<ValueId> = results
            .iter()
            .map(|_| {
                self.next += 1;
                self.next - 1
            })
            .collect();
        let line = self.ops.len() + 2;
        self.ops.push(Op {
            name: name.into(),
            location: format!("test.mlir:{line}:3"),
            kind,
            results: ids.iter().copied().zip(results.iter().cloned()).collect(),
        });
        ids
    }
    fn one(&mut self, name: &str, kind: OpKind, t: Type) -> ValueId {
        self.op(name, kind, &[t])[0]
    }
    fn cint(&mut self, ty: ScalarType, v: i64) -> ValueId {
        self.one("arith.constant", OpKind::Constant(Constant::Int(v)), s(ty))
    }
    fn load(&mut self, base: ValueId, idx: &[ValueId], t: Type) -> ValueId {
        self.one("vector.load", OpKind::VectorLoad { base, indices: idx.to_vec(), mask: None, strides: vec![] }, t)
    }
    fn store(&mut self, value: ValueId, base: ValueId, idx: &[ValueId]) {
        self.op(
            "tpu.vector_store",
            OpKind::VectorStore { value, base, indices: idx.to_vec(), mask: None, strides: vec![], add: false },
            &[],
        );
    }
    fn ret(&mut self, values: &[ValueId]) {
        self.op("func.return", OpKind::Return { values: values.to_vec() }, &[]);
    }
    /// A nested block built by `body` with fresh ids continuing this function's.
    fn block(&mut self, args: &[Type], body: impl FnOnce(&mut F, &[ValueId])) -> Block {
        let ids: Vec<ValueId> = args
            .iter()
            .map(|_| {
                self.next += 1;
                self.next - 1
            })
            .collect();
        let saved = std::mem::take(&mut self.ops);
        body(self, &ids);
        let ops = std::mem::replace(&mut self.ops, saved);
        Block { args: ids.into_iter().zip(args.iter().cloned()).collect(), ops }
    }
    fn done(self, results: Vec<Type>) -> Function {
        Function {
            name: self.name,
            location: "test.mlir:1:1".into(),
            results,
            body: Block { args: self.args, ops: self.ops },
            num_values: self.next,
        }
    }
}

/// `(i, j, ...) -> (grid[a], grid[b], ...)` (a constant 0 for `None`).
fn index_map(name: &str, ngrid: usize, pick: &[Option<usize>]) -> Function {
    let (mut f, g) = F::new(name, &vec![s(I32); ngrid]);
    let zero = f.cint(I32, 0);
    let vals: Vec<ValueId> = pick.iter().map(|p| p.map_or(zero, |i| g[i])).collect();
    f.ret(&vals);
    f.done(vec![s(I32); pick.len()])
}

fn f32_array(shape: &[u64], f: impl Fn(usize) -> f32) -> HostArray {
    let n: u64 = shape.iter().product();
    HostArray { element_type: ElementType::F32, shape: shape.to_vec(), bytes: (0..n as usize).flat_map(|i| f(i).to_le_bytes()).collect() }
}

fn f32s(a: &HostArray) -> Vec<f32> {
    a.bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn parallel(n: usize) -> Vec<DimensionSemantics> {
    vec![DimensionSemantics::Parallel; n]
}

/// out = x + y over a 2-D grid of 8×128 blocks.
fn add_kernel() -> TpuKernel {
    let b = [8, 128];
    let (mut f, a) = F::new("add_kernel", &[s(I32), s(I32), vmem(&b, F32), vmem(&b, F32), vmem(&b, F32)]);
    let c0 = f.cint(IDX, 0);
    let x = f.load(a[2], &[c0, c0], vec_t(&b, F32));
    let y = f.load(a[3], &[c0, c0], vec_t(&b, F32));
    let z = f.one("arith.addf", OpKind::Binary { op: BinaryOp::AddF, lhs: x, rhs: y }, vec_t(&b, F32));
    f.store(z, a[4], &[c0, c0]);
    f.ret(&[]);
    let wp = |m| WindowParam { transform_indices: Some(m), window_bounds: Some(b.to_vec()), single_buffered: false, element_window: None };
    TpuKernel {
        functions: vec![f.done(vec![]), index_map("transform_0", 2, &[Some(0), Some(1)])],
        entry: 0,
        iteration_bounds: vec![2, 2],
        dimension_semantics: parallel(2),
        window_params: vec![wp(1), wp(1), wp(1)],
        scalar_prefetch: 0,
        scratch_operands: 0,
        input_output_aliases: vec![],
        vmem_limit_bytes: None,
    }
}

#[test]
fn grid_elementwise_add() {
    let k = add_kernel();
    let x = f32_array(&[16, 256], |i| i as f32);
    let y = f32_array(&[16, 256], |i| 0.5 * i as f32);
    for seed in [None, Some(7)] {
        let outs = run_kernel(&k, &[x.clone(), y.clone()], &TpuRunOptions { grid_seed: seed, ..Default::default() }).unwrap();
        assert_eq!(outs.len(), 1);
        assert_eq!(outs[0].shape, vec![16, 256]);
        assert!(f32s(&outs[0]).iter().enumerate().all(|(i, &v)| v == 1.5 * i as f32));
    }
}

#[test]
fn arrays_are_padded_to_whole_blocks() {
    // 12×200 arrays: the last blocks read padding (NaN), the output comes
    // back unpadded and exact.
    let k = add_kernel();
    let x = f32_array(&[12, 200], |i| i as f32);
    let y = f32_array(&[12, 200], |_| 1.0);
    let spec = TensorSpec { element_type: ElementType::F32, shape: vec![12, 200] };
    let outs = run_kernel(&k, &[x, y], &TpuRunOptions { outputs: Some(vec![spec]), ..Default::default() }).unwrap();
    assert_eq!(outs[0].shape, vec![12, 200]);
    assert!(f32s(&outs[0]).iter().enumerate().all(|(i, &v)| v == i as f32 + 1.0));
}

/// C = A·B with (i, j, k) grid, K innermost and `arbitrary`, an f32 VMEM
/// accumulator in scratch, as the corpus matmul does.
fn matmul_kernel(n: i64, blk: i64) -> TpuKernel {
    let b = [blk, blk];
    let g = n / blk;
    let (mut f, a) = F::new("matmul_kernel", &[s(I32), s(I32), s(I32), vmem(&b, F32), vmem(&b, F32), vmem(&b, F32), vmem(&b, F32)]);
    let (x_ref, y_ref, o_ref, acc_ref) = (a[3], a[4], a[5], a[6]);
    let c0 = f.cint(I32, 0);
    let first = f.one("arith.cmpi", OpKind::CmpI { predicate: CmpIPredicate::Eq, lhs: a[2], rhs: c0 }, s(ScalarType::I1));
    let then_block = f.block(&[], |f, _| {
        let z = f.one("arith.constant", OpKind::Constant(Constant::Float(0.0)), vec_t(&b, F32));
        let i0 = f.cint(IDX, 0);
        f.store(z, acc_ref, &[i0, i0]);
        f.op("scf.yield", OpKind::Yield { values: vec![] }, &[]);
    });
    f.op("scf.if", OpKind::If { condition: first, then_block, else_block: None }, &[]);
    let i0 = f.cint(IDX, 0);
    let acc = f.load(acc_ref, &[i0, i0], vec_t(&b, F32));
    let x = f.load(x_ref, &[i0, i0], vec_t(&b, F32));
    let y = f.load(y_ref, &[i0, i0], vec_t(&b, F32));
    let zero = f.one("arith.constant", OpKind::Constant(Constant::Float(0.0)), vec_t(&b, F32));
    let dn = DotDimensionNumbers {
        lhs_contracting_dims: vec![1],
        rhs_contracting_dims: vec![0],
        lhs_non_contracting_dims: vec![0],
        rhs_non_contracting_dims: vec![1],
        output_dim_order: vec![(0, 0), (1, 1)],
        lhs_batch_dims: vec![],
        rhs_batch_dims: vec![],
    };
    let p = f.one(
        "tpu.matmul",
        OpKind::Matmul { lhs: x, rhs: y, acc: zero, dimension_numbers: Some(dn), transpose_lhs: false, transpose_rhs: false },
        vec_t(&b, F32),
    );
    let sum = f.one("arith.addf", OpKind::Binary { op: BinaryOp::AddF, lhs: acc, rhs: p }, vec_t(&b, F32));
    f.store(sum, acc_ref, &[i0, i0]);
    let last_k = f.cint(I32, g - 1);
    let last = f.one("arith.cmpi", OpKind::CmpI { predicate: CmpIPredicate::Eq, lhs: a[2], rhs: last_k }, s(ScalarType::I1));
    let then_block = f.block(&[], |f, _| {
        let i0 = f.cint(IDX, 0);
        let v = f.load(acc_ref, &[i0, i0], vec_t(&b, F32));
        f.store(v, o_ref, &[i0, i0]);
    });
    f.op("scf.if", OpKind::If { condition: last, then_block, else_block: Some(Block::default()) }, &[]);
    f.ret(&[]);
    let wp = |m| WindowParam { transform_indices: Some(m), window_bounds: Some(b.to_vec()), single_buffered: false, element_window: None };
    TpuKernel {
        functions: vec![
            f.done(vec![]),
            index_map("transform_0", 3, &[Some(0), Some(2)]),
            index_map("transform_1", 3, &[Some(2), Some(1)]),
            index_map("transform_2", 3, &[Some(0), Some(1)]),
        ],
        entry: 0,
        iteration_bounds: vec![g, g, g],
        dimension_semantics: vec![DimensionSemantics::Parallel, DimensionSemantics::Parallel, DimensionSemantics::Arbitrary],
        window_params: vec![wp(1), wp(2), wp(3)],
        scalar_prefetch: 0,
        scratch_operands: 1,
        input_output_aliases: vec![],
        vmem_limit_bytes: None,
    }
}

#[test]
fn matmul_accumulates_across_k() {
    let n = 32usize;
    let k = matmul_kernel(n as i64, 8);
    let a = f32_array(&[n as u64, n as u64], |i| ((i * 7) % 13) as f32 - 6.0);
    let b = f32_array(&[n as u64, n as u64], |i| ((i * 5) % 11) as f32 * 0.25);
    let (av, bv) = (f32s(&a), f32s(&b));
    for seed in [None, Some(3)] {
        let outs = run_kernel(&k, &[a.clone(), b.clone()], &TpuRunOptions { grid_seed: seed, ..Default::default() }).unwrap();
        let c = f32s(&outs[0]);
        for i in 0..n {
            for j in 0..n {
                let want: f64 = (0..n).map(|p| av[i * n + p] as f64 * bv[p * n + j] as f64).sum();
                // Small integers and quarters: every partial sum is exact in f32.
                assert_eq!(c[i * n + j] as f64, want, "C[{i}][{j}]");
            }
        }
    }
}

#[test]
fn vmem_budget_is_enforced() {
    // Three 8×128 f32 windows double-buffered = 24 KiB: refused under a 16 KiB limit.
    let k = add_kernel();
    let x = f32_array(&[16, 256], |_| 0.0);
    let e = run_kernel(&k, &[x.clone(), x.clone()], &TpuRunOptions { vmem_limit_bytes: Some(16 << 10), ..Default::default() }).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("needs 0.02 MiB of VMEM") && msg.contains("input 0 window [8, 128] f32 ×2"), "{msg}");
    let e = run_kernel(&k, &[x.clone(), x], &TpuRunOptions { vmem_limit_bytes: Some(1 << 40), ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("exceeds v5e's 128 MiB of VMEM"), "{e}");
}

#[test]
fn output_block_revisit_is_an_error() {
    // Grid (2, 2), output block (j, 0): (0,0)→0, (0,1)→1, (1,0)→0 again.
    let mut k = add_kernel();
    k.functions.push(index_map("transform_out", 2, &[Some(1), None]));
    k.window_params[2].transform_indices = Some(2);
    let x = f32_array(&[16, 256], |_| 1.0);
    let spec = TensorSpec { element_type: ElementType::F32, shape: vec![16, 128] };
    let e = run_kernel(&k, &[x.clone(), x], &TpuRunOptions { outputs: Some(vec![spec]), grid_in_order: true, ..Default::default() })
        .unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("output 0 block (0, 0) is revisited at grid point (1, 0)")
            && msg.contains("visited at grid points (0, 0) through (0, 0)"),
        "{msg}"
    );
}

#[test]
fn block_index_out_of_range_is_an_error() {
    let mut k = add_kernel();
    // Input 0's block index is (i + 5, j): past the array.
    let (mut m, g) = F::new("transform_bad", &[s(I32), s(I32)]);
    let five = m.cint(I32, 5);
    let r = m.one("arith.addi", OpKind::Binary { op: BinaryOp::AddI, lhs: g[0], rhs: five }, s(I32));
    m.ret(&[r, g[1]]);
    k.functions.push(m.done(vec![s(I32), s(I32)]));
    k.window_params[0].transform_indices = Some(2);
    let x = f32_array(&[16, 256], |_| 1.0);
    let spec = TensorSpec { element_type: ElementType::F32, shape: vec![16, 256] };
    let e = run_kernel(&k, &[x.clone(), x], &TpuRunOptions { outputs: Some(vec![spec]), grid_in_order: true, ..Default::default() })
        .unwrap_err();
    assert!(e.to_string().contains("block index (5, 0) of input 0 at grid point (0, 0) is out of range: dim 0"), "{e}");
}

#[test]
fn out_of_bounds_vector_load_names_the_op() {
    let b = [8, 128];
    let (mut f, a) = F::new("oob_kernel", &[s(I32), vmem(&b, F32), vmem(&b, F32)]);
    let c0 = f.cint(IDX, 0);
    let c4 = f.cint(IDX, 4);
    let x = f.load(a[1], &[c4, c0], vec_t(&b, F32));
    f.store(x, a[2], &[c0, c0]);
    f.ret(&[]);
    let wp = WindowParam { transform_indices: Some(1), window_bounds: Some(b.to_vec()), single_buffered: false, element_window: None };
    let k = TpuKernel {
        functions: vec![f.done(vec![]), index_map("transform_0", 1, &[Some(0), None])],
        entry: 0,
        iteration_bounds: vec![2],
        dimension_semantics: parallel(1),
        window_params: vec![wp.clone(), wp],
        scalar_prefetch: 0,
        scratch_operands: 0,
        input_output_aliases: vec![],
        vmem_limit_bytes: None,
    };
    let e = run_kernel(&k, &[f32_array(&[16, 128], |_| 0.0)], &TpuRunOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "test.mlir:4:3: error: `vector.load` in Mosaic kernel `oob_kernel` at grid point (0): out-of-bounds read: dim 0 [4, 12) of \
         `memref<8x128xf32, #tpu.memory_space<vmem>>` (shape [8, 128], view of buffer `input 0 window`)"
    );
}

fn sem_ref() -> Type {
    Type::MemRef { shape: vec![], element: MemElement::DmaSemaphore, memory_space: MemorySpace::SemaphoreMem }
}

#[test]
fn semaphore_nonzero_at_exit_is_an_error() {
    let (mut f, a) =
        F::new("sem_kernel", &[Type::MemRef { shape: vec![], element: MemElement::Semaphore, memory_space: MemorySpace::SemaphoreMem }]);
    let one = f.cint(I32, 1);
    f.op("tpu.sem_signal", OpKind::SemSignal { semaphore: a[0], amount: one }, &[]);
    f.ret(&[]);
    let k = TpuKernel {
        functions: vec![f.done(vec![])],
        entry: 0,
        iteration_bounds: vec![],
        dimension_semantics: vec![],
        window_params: vec![],
        scalar_prefetch: 0,
        scratch_operands: 1,
        input_output_aliases: vec![],
        vmem_limit_bytes: None,
    };
    let e = run_kernel(&k, &[], &TpuRunOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "error: Mosaic kernel `sem_kernel`: semaphore 0 of `scratch 0` is 1 at kernel exit (every signal must be waited for)"
    );
}

/// Copies a 16×128 `any` array to the output through a VMEM buffer with two
/// DMAs; `wait` chooses whether the second DMA is waited for.
fn dma_kernel(wait: bool) -> TpuKernel {
    let (mut f, a) = F::new("dma_kernel", &[any(&[16, 128], F32), any(&[16, 128], F32), vmem(&[16, 128], F32), sem_ref()]);
    f.op("tpu.enqueue_dma", OpKind::EnqueueDma { source: a[0], target: a[2], source_semaphore: None, target_semaphore: a[3] }, &[]);
    f.op("tpu.wait_dma2", OpKind::WaitDma { semaphore: a[3], src: a[0], dst: a[2] }, &[]);
    f.op("tpu.enqueue_dma", OpKind::EnqueueDma { source: a[2], target: a[1], source_semaphore: None, target_semaphore: a[3] }, &[]);
    if wait {
        f.op("tpu.wait_dma2", OpKind::WaitDma { semaphore: a[3], src: a[2], dst: a[1] }, &[]);
    }
    f.ret(&[]);
    TpuKernel {
        functions: vec![f.done(vec![])],
        entry: 0,
        iteration_bounds: vec![],
        dimension_semantics: vec![],
        window_params: vec![],
        scalar_prefetch: 0,
        scratch_operands: 2,
        input_output_aliases: vec![],
        vmem_limit_bytes: None,
    }
}

#[test]
fn dmas_complete_at_wait() {
    let x = f32_array(&[16, 128], |i| i as f32);
    let outs = run_kernel(&dma_kernel(true), std::slice::from_ref(&x), &TpuRunOptions::default()).unwrap();
    assert_eq!(outs[0], x);
    let e = run_kernel(&dma_kernel(false), &[x], &TpuRunOptions::default()).unwrap_err();
    assert!(e.to_string().contains("the DMA started at test.mlir:4:3 into output 0 never waited for"), "{e}");
}

#[test]
fn scalar_prefetch_drives_the_index_map() {
    // out block i = 2 * x block idx[i] (8×128 blocks of a 32×128 array).
    let b = [8, 128];
    let smem = Type::MemRef { shape: vec![4], element: MemElement::Scalar(I32), memory_space: MemorySpace::Smem };
    let (mut f, a) = F::new("gather_kernel", &[s(I32), smem.clone(), vmem(&b, F32), vmem(&b, F32)]);
    let c0 = f.cint(IDX, 0);
    let x = f.load(a[2], &[c0, c0], vec_t(&b, F32));
    let y = f.one("arith.addf", OpKind::Binary { op: BinaryOp::AddF, lhs: x, rhs: x }, vec_t(&b, F32));
    f.store(y, a[3], &[c0, c0]);
    f.ret(&[]);
    let (mut m, g) = F::new("transform_0", &[s(I32), smem]);
    let i = m.one("arith.index_cast", OpKind::Cast { op: CastOp::IndexCast, operand: g[0] }, s(IDX));
    let r = m.one("memref.load", OpKind::MemRefLoad { base: g[1], indices: vec![i] }, s(I32));
    let z = m.cint(I32, 0);
    m.ret(&[r, z]);
    let wp = |m| WindowParam { transform_indices: Some(m), window_bounds: Some(b.to_vec()), single_buffered: false, element_window: None };
    let mut out_map = index_map("transform_1", 1, &[Some(0), None]);
    out_map
        .body
        .args
        .push((out_map.num_values, Type::MemRef { shape: vec![4], element: MemElement::Scalar(I32), memory_space: MemorySpace::Smem }));
    out_map.num_values += 1;
    let k = TpuKernel {
        functions: vec![f.done(vec![]), m.done(vec![s(I32), s(I32)]), out_map],
        entry: 0,
        iteration_bounds: vec![4],
        dimension_semantics: vec![DimensionSemantics::Arbitrary],
        window_params: vec![wp(1), wp(2)],
        scalar_prefetch: 1,
        scratch_operands: 0,
        input_output_aliases: vec![],
        vmem_limit_bytes: None,
    };
    let idx =
        HostArray { element_type: ElementType::I32, shape: vec![4], bytes: [3i32, 0, 3, 1].iter().flat_map(|v| v.to_le_bytes()).collect() };
    let x = f32_array(&[32, 128], |i| (i / 128) as f32);
    let outs = run_kernel(&k, &[idx, x], &TpuRunOptions::default()).unwrap();
    assert_eq!(outs[0].shape, vec![32, 128]);
    let o = f32s(&outs[0]);
    for (blk, src) in [3, 0, 3, 1].iter().enumerate() {
        for r in 0..8 {
            assert_eq!(o[(blk * 8 + r) * 128], 2.0 * (src * 8 + r) as f32);
        }
    }
}

#[test]
fn bad_value_ids_are_errors_not_panics() {
    let mut k = add_kernel();
    if let OpKind::Binary { rhs, .. } = &mut k.functions[0].body.ops[3].kind {
        *rhs = 999;
    }
    let x = f32_array(&[16, 256], |_| 1.0);
    let e = run_kernel(&k, &[x.clone(), x], &TpuRunOptions::default()).unwrap_err();
    assert!(e.to_string().contains("`arith.addf`: value id %999 out of range"), "{e}");
    let mut k = add_kernel();
    k.entry = 7;
    assert!(run_kernel(&k, &[], &TpuRunOptions::default()).is_err());
}

#[test]
fn serialized_kernels_round_trip_and_deep_nesting_is_refused() {
    let k = matmul_kernel(16, 8);
    let bytes = postcard::to_allocvec(&k).unwrap();
    assert_eq!(postcard::from_bytes::<TpuKernel>(&bytes).unwrap(), k);
    // 100 nested scf.if regions: refused by the decoder, not a stack overflow.
    let mut b = Block::default();
    for _ in 0..100 {
        let op = Op {
            name: "scf.if".into(),
            location: String::new(),
            kind: OpKind::If { condition: 0, then_block: b, else_block: None },
            results: vec![],
        };
        b = Block { args: vec![], ops: vec![op] };
    }
    let mut deep = k.clone();
    deep.functions[0].body.ops.push(b.ops.pop().unwrap());
    let bytes = postcard::to_allocvec(&deep).unwrap();
    assert!(postcard::from_bytes::<TpuKernel>(&bytes).is_err());
    // The interpreter refuses it too.
    let x = f32_array(&[16, 16], |_| 0.0);
    let e = run_kernel(&deep, &[x.clone(), x], &TpuRunOptions::default()).unwrap_err();
    assert!(e.to_string().contains("nests regions deeper than 64 levels"), "{e}");
}

/// The uninitialized pattern of 64-bit types is i64::MAX (it once shifted a
/// 1 into the sign bit and overflowed: every f64 kernel panicked).
#[test]
fn uninitialized_64_bit_values_do_not_overflow() {
    for t in [ScalarType::F64, ScalarType::I64, ScalarType::Index] {
        assert_eq!(super::interp::uninitialized_value(t).1, i64::MAX, "{t:?}");
    }
    assert_eq!(super::interp::uninitialized_value(ScalarType::I32).1, i32::MAX as i64);
    assert_eq!(super::interp::uninitialized_value(ScalarType::I1).1, -1);
}
