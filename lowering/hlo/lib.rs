//! The HLO floor: cleanup before fusion, fusion, and the fusion analysis
//! every other floor reads.

mod builder;
pub mod fusion_analysis;
pub mod fusion_graph;
pub mod hlo_annotate_trip_counts;
pub mod hlo_collectives_to_calls;
pub mod hlo_custom_call_layouts;
pub mod hlo_drop_one_device_shardings;
pub mod hlo_eliminate_zero_sized;
pub mod hlo_expand_rng_bit_generator;
pub mod hlo_fft_to_call;
pub mod hlo_fuse;
pub mod hlo_inline;
pub mod hlo_legalize_chlo;
pub mod hlo_restore_locations;
pub mod hlo_simplify;
pub mod hlo_single_device_collectives;
pub mod hlo_spmd_partition;
pub mod hlo_tokens_to_zero_sized;
pub mod sharding;

pub use hlo_fuse::HloFuse;
pub use hlo_inline::HloInline;

pub fn register_passes() {
    floors_ir::pass::register::<HloInline>();
    floors_ir::pass::register::<HloFuse>();
    floors_ir::pass::register::<hlo_fuse::HloFuseSingletons>();
    floors_ir::pass::register::<hlo_simplify::HloSimplify>();
    floors_ir::pass::register::<hlo_eliminate_zero_sized::HloEliminateZeroSized>();
    floors_ir::pass::register::<hlo_legalize_chlo::HloLegalizeChlo>();
    floors_ir::pass::register::<hlo_expand_rng_bit_generator::HloExpandRngBitGenerator>();
    floors_ir::pass::register::<hlo_restore_locations::HloRestoreLocations>();
    floors_ir::pass::register::<hlo_annotate_trip_counts::HloAnnotateTripCounts>();
    floors_ir::pass::register::<hlo_custom_call_layouts::HloCustomCallLayouts>();
    floors_ir::pass::register::<hlo_tokens_to_zero_sized::HloTokensToZeroSized>();
    floors_ir::pass::register::<hlo_single_device_collectives::HloSingleDeviceCollectives>();
    floors_ir::pass::register::<hlo_drop_one_device_shardings::HloDropOneDeviceShardings>();
    floors_ir::pass::register::<hlo_spmd_partition::HloSpmdPartition>();
    floors_ir::pass::register::<hlo_collectives_to_calls::HloCollectivesToCalls>();
    floors_ir::pass::register::<hlo_fft_to_call::HloFftToCall>();
}
