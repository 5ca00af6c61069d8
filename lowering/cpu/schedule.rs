//! The CPU schedule of one linalg op, between the pass that chooses it
//! (`floors-cpu-select-schedule`) and the pass that applies it
//! (`floors-cpu-tile-and-vectorize`): the Rust form of the
//! `#floors.cpu_schedule` attribute (`floors.cpu_schedule` on the op).

use floors_ir::{capi, ir::raw};
use mlir_sys::{MlirAttribute, MlirContext, MlirOperation};

/// The attribute that carries an op's schedule.
pub const SCHEDULE_ATTR: &str = "floors.cpu_schedule";

/// What to do with one op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// `tile_using_for` by `cache`, then by `register`, vectorize the register
    /// tile; `k`: the loop tiled by K steps (the loops before it are
    /// the output's, any after it reductions inside the register tile).
    Matmul { cache: Vec<i64>, register: Vec<i64>, k: usize },
    /// `tile_using_for` by `tile` (all dims non-zero), vectorize the tile.
    /// `peel`: the innermost tile does not divide its dim; the innermost
    /// loop is peeled into full tiles and one static remainder tile, both
    /// vectorized (no scalar tail, no masks).
    Elementwise { tile: Vec<i64>, peel: bool },
    /// A reduction over the innermost dim: `tile_using_for` by `rows` (1 for
    /// every parallel dim), then `tile_reduction_using_for` by `split` (the
    /// vector width on the reduced dim): a vector of partial results is
    /// accumulated along the row and reduced once at its end.
    RowReduction { rows: Vec<i64>, split: Vec<i64> },
    /// A direct convolution: `tile_using_for` by `tile` (1 on every loop but
    /// the one or two vectorized), the unit loops folded away inside the
    /// tile (so the window sums in the input map become plain indices), the
    /// tile vectorized, its accumulator hoisted out of the window loops.
    /// `peel`: the loop (an index into `tile`) whose tile does not divide
    /// its extent (a column tile of 8 over 181 columns): peeled into full
    /// tiles and one static remainder tile, both vectorized.
    Conv { tile: Vec<i64>, peel: Option<usize> },
}

impl Schedule {
    /// The schedule's name in remarks.
    pub fn kind(&self) -> &'static str {
        match self {
            Schedule::Matmul { .. } => "matmul",
            Schedule::Elementwise { .. } => "elementwise",
            Schedule::RowReduction { .. } => "row-reduction",
            Schedule::Conv { .. } => "convolution",
        }
    }

    /// `#floors.cpu_schedule<...>` of this schedule; `rows`: the row tile of
    /// a row fusion rooted at the op (empty: none). None when it does not
    /// verify.
    pub fn to_attribute(&self, ctx: MlirContext, rows: &[i64]) -> Option<MlirAttribute> {
        let none: &[i64] = &[];
        let (kind, tile, inner, k, peel) = match self {
            Schedule::Matmul { cache, register, k } => ("matmul", &cache[..], &register[..], *k as u64, false),
            Schedule::Elementwise { tile, peel } => ("elementwise", &tile[..], none, 0, *peel),
            Schedule::RowReduction { rows, split } => ("row_reduction", &rows[..], &split[..], 0, false),
            // A peeled convolution names its peeled loop in `k`.
            Schedule::Conv { tile, peel } => ("conv", &tile[..], none, peel.unwrap_or(0) as u64, peel.is_some()),
        };
        // SAFETY: `ctx` is live; every size list is passed with its length
        // and copied; the getter returns null when the attribute does not
        // verify.
        let a = unsafe {
            capi::floorsCpuScheduleAttrGet(
                ctx,
                raw::sref(kind),
                tile.len() as isize,
                tile.as_ptr(),
                inner.len() as isize,
                inner.as_ptr(),
                k,
                peel,
                rows.len() as isize,
                rows.as_ptr(),
            )
        };
        (!a.ptr.is_null()).then_some(a)
    }

    /// The schedule and row tile a `#floors.cpu_schedule` holds; None when
    /// `attr` is not one.
    pub fn of_attribute(attr: MlirAttribute) -> Option<(Schedule, Vec<i64>)> {
        // SAFETY: `attr` is live and checked to be a #floors.cpu_schedule
        // before its getters read it into buffers of the sizes it gives.
        unsafe {
            if attr.ptr.is_null() || !capi::floorsAttributeIsACpuSchedule(attr) {
                return None;
            }
            let sizes = |which: i32| {
                let mut v = vec![0i64; capi::floorsCpuScheduleAttrGetNumSizes(attr, which) as usize];
                capi::floorsCpuScheduleAttrGetSizes(attr, which, v.as_mut_ptr());
                v
            };
            let (tile, inner, rows) = (sizes(0), sizes(1), sizes(2));
            let schedule = match raw::string(capi::floorsCpuScheduleAttrGetKind(attr)).as_str() {
                "matmul" => Schedule::Matmul { cache: tile, register: inner, k: capi::floorsCpuScheduleAttrGetK(attr) as usize },
                "elementwise" => Schedule::Elementwise { tile, peel: capi::floorsCpuScheduleAttrGetPeel(attr) },
                "row_reduction" => Schedule::RowReduction { rows: tile, split: inner },
                "conv" => {
                    let peel = capi::floorsCpuScheduleAttrGetPeel(attr).then(|| capi::floorsCpuScheduleAttrGetK(attr) as usize);
                    Schedule::Conv { tile, peel }
                }
                _ => return None,
            };
            Some((schedule, rows))
        }
    }

    /// The schedule on `op`, if it has one.
    pub fn of_op(op: MlirOperation) -> Option<Schedule> {
        Self::of_attribute(raw::attr(op, SCHEDULE_ATTR)?).map(|(s, _)| s)
    }

    /// How many loop sizes the schedule gives (one per loop of its op).
    pub fn loops(&self) -> usize {
        match self {
            Schedule::Matmul { cache, .. } => cache.len(),
            Schedule::Elementwise { tile, .. } | Schedule::Conv { tile, .. } => tile.len(),
            Schedule::RowReduction { rows, .. } => rows.len(),
        }
    }
}

/// An elementwise root whose producers include row reductions (softmax,
/// layernorm): tiled by one row (`tile`) with every producer fused into the
/// row loop, so intermediates are one row, not whole tensors.
pub struct RowFusion {
    /// The root's index among the scheduled ops.
    pub tag: usize,
    pub tile: Vec<i64>,
}
