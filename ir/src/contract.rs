//! The contract between floors' passes, its driver and its runtime, declared
//! once: the attribute names passes write and read, and (re-exported from
//! the runtime crate, which owns them) the kernel ABI and artifact format.
//! Passes, the driver and the host-program builder import these names from
//! here; the runtime never sees an attribute (the compiler turns them into
//! the artifact's data).

/// Module attribute: the `#floors.cpu_target` the module is compiled for.
pub const TARGET_ATTR: &str = "floors.target";
/// Module attribute (host module): the most workgroups a kernel may be split into.
pub const MAX_WORKGROUPS_ATTR: &str = "floors.max_workgroups";
/// Module attribute (host module): the fewest iterations of a root worth
/// splitting (tests set 1 to split everything).
pub const MIN_ITERATIONS_ATTR: &str = "floors.min_workgroup_iterations";
/// Attribute on a kernel func and on its host fusion op: the grid's x size.
pub const GRID_ATTR: &str = "floors.grid";
/// Attribute on a kernel with a grid that could not be split: workgroup 0
/// runs all of it.
pub const SERIAL_ATTR: &str = "floors.workgroup_zero_only";
/// Attribute on the `scf.forall` whose iterations are the workgroups.
pub const FORALL_ATTR: &str = "floors.workgroups";
/// The symbol name of the nested kernel module.
pub const KERNEL_MODULE_NAME: &str = "floors_kernels";
/// Attribute on a fusion op (`floors-linalg-outline-kernels` writes it, the
/// host program must honor it): `array<i64: r0, k0, r1, k1, ...>`, result rI
/// is computed in place in operand kI's buffer (a dynamic_update_slice of a
/// buffer nothing reads afterwards, as XLA's in-place DUS fusions). The kernel
/// reads operand kI through output rI; the host passes the same slice for both.
pub const IN_PLACE_ATTR: &str = "floors.in_place";
/// Attribute on a fusion op: the name of its kernel function (a string).
pub const KERNEL_ATTR: &str = "floors.kernel";
/// Attribute on a kernel func: how many leading arguments are inputs.
pub const NUM_INPUTS_ATTR: &str = "floors.num_inputs";
/// Attribute on the kernel module: kernel names in walk order.
pub const MANIFEST_ATTR: &str = "floors.kernels";
/// Attribute on a `stablehlo.while` (`floors-hlo-annotate-trip-counts`),
/// carried to its `scf.while`: the loop runs exactly this many iterations
/// (an i64), so the host program may run its body that often without
/// evaluating the condition.
pub const KNOWN_TRIP_COUNT_ATTR: &str = "floors.known_trip_count";
/// Unit attribute on a `stablehlo.custom_call` (`floors-hlo-custom-call-layouts`):
/// its operand and result types are the physical order of `operand_layouts` /
/// `result_layouts` (transposes before and after it give the logical values);
/// the FFI call frame describes each buffer with its logical dims.
pub const PHYSICAL_LAYOUTS_ATTR: &str = "floors.physical_layouts";

/// On a contraction (`linalg.matmul`, `linalg.batch_matmul`, a contraction
/// `linalg.generic`) lowered from a `dot_general`/`convolution` whose
/// `precision_config` asks for more than `DEFAULT`: `"highest"` (an operand
/// `HIGHEST`) or `"high"`; absent for `DEFAULT`. The TPU floor turns it into
/// `tpu.matmul`'s `#tpu.contract_precision<fp32>`.
pub const PRECISION_ATTR: &str = "floors.precision";

/// Attribute on a fusion op (TPU floor): the plan `floors-tpu-select-blocks`
/// chose (strategy, grid, block sizes).
pub const TPU_PLAN_ATTR: &str = "floors.tpu_plan";
/// The symbol name of the module holding the TPU floor's kernel modules
/// (one nested `builtin.module @fusion_N` per kernel, as Pallas hands off).
pub const TPU_KERNEL_MODULE_NAME: &str = "floors_tpu_kernels";
/// Module attribute of a Mosaic kernel module: the serialization version.
pub const MOSAIC_VERSION_ATTR: &str = "stable_mosaic.version";
/// On a Mosaic kernel module: its `pallas_call`'s `input_output_aliases`,
/// `array<i64: operand, output, ...>` (operands counted with the scalar
/// prefetch ones). Set from a `tpu_custom_call`'s `output_operand_aliases`
/// when Pallas' kernels are imported, and by `floors-tpu-emit-kernels` for a
/// kernel that updates an input in place; the hand-off writes it back as
/// `output_operand_aliases`, the interpreter starts the output as the input.
pub const TPU_ALIASES_ATTR: &str = "floors.input_output_aliases";
/// On a Mosaic kernel module: the kernel's own VMEM limit in bytes (its
/// call's `scoped_memory_configs`).
pub const TPU_VMEM_LIMIT_ATTR: &str = "floors.vmem_limit_bytes";
/// The Mosaic version floors writes (what jax 0.10.2's Pallas writes).
pub const MOSAIC_VERSION: i64 = 11;

/// Attribute on a fusion op (GPU floor): the emitter `floors-gpu-select-emitter`
/// chose (`{kind, reason, block, grid}`).
pub const GPU_EMITTER_ATTR: &str = "floors.gpu_emitter";
/// Attribute on a gemm fusion (GPU floor): `library` (cuBLAS) or `emitter`,
/// stamped before emitter selection.
pub const GPU_GEMM_ATTR: &str = "floors.gpu_gemm";
/// Attribute on a gemm fusion (GPU floor): why `floors-gpu-rewrite-gemm`
/// chose the library or left the dot to floors' emitter (a string).
pub const GPU_GEMM_REASON_ATTR: &str = "floors.gpu_gemm_reason";
/// Module attribute (GPU floor): the `--gpu-gemm` mode (`auto`, `library`,
/// `emitter`) `floors-gpu-rewrite-gemm` applies when its `mode` option is
/// not given; absent means `auto`.
pub const GPU_GEMM_MODE_ATTR: &str = "floors.gpu_gemm_mode";
/// Attribute on a fusion op: the runtime library call that computes it, as
/// a dictionary (`{call = "gemm", batch, m, n, k, transpose_lhs,
/// transpose_rhs, lhs_batch_stride, rhs_batch_stride}`: a `GemmSpec` less
/// its buffers; operands are lhs, rhs, the result is the product). Such a
/// fusion keeps its StableHLO body (what the call computes), is neither
/// lowered to linalg nor outlined, and the host program makes it the
/// library's thunk (`ThunkSpec::Gemm`).
pub const LIBRARY_CALL_ATTR: &str = "floors.library_call";
/// Attribute on a GPU kernel function: which emitter generated each of its
/// launches, in order, separated by "; " (`row-reduction(warp)`,
/// `column-reduction(shared)`, `transpose(shared 32x33)`, `scatter(atomic)`,
/// `concatenate(largest operand 4x16, 3 operands)`, `input-slices(2 slices
/// of 8x16)`, `loop(grid-stride, 4 per thread, v4)` or `loop(grid-stride)
/// [scalar: why]`, with the reason an emitter was not applicable in
/// brackets, `loop(one thread)`), or one `single-block(...)` for the whole
/// function.
pub const GPU_CODEGEN_ATTR: &str = "floors.gpu_codegen";
/// Attribute on the kernel module (GPU floor): the launch manifest the
/// runtime reads (per fusion: launches with module, entry, grid, block and
/// buffer order; temporaries' sizes).
pub const GPU_KERNELS_ATTR: &str = "floors.gpu_kernels";

pub use floors_runtime::artifact::FORMAT_VERSION as ARTIFACT_FORMAT_VERSION;
pub use floors_runtime::kernel_abi::{ABI_VERSION_SYMBOL, ENTRY_SUFFIX, IMPORT_TABLE_SYMBOL, KERNEL_ABI_VERSION, RUNTIME_IMPORTS, layout};
