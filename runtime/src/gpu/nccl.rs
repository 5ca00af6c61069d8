//! Collectives on the GPU floor as NCCL calls (XLA:GPU's NCCL thunks): each
//! `floors.<collective>` custom call of a GPU artifact becomes, per operand,
//! the NCCL call that computes it on flat device buffers — `ncclAllReduce`,
//! `ncclAllGather`, `ncclReduceScatter`, `ncclBroadcast`, and grouped
//! `ncclSend`/`ncclRecv` for all-to-all and collective-permute — over one
//! communicator per process group (rank = position in the group).
//!
//! A collective NCCL cannot compute on the buffers as laid out is refused
//! when the program is loaded, naming the rule: NCCL gathers and scatters
//! rank-major blocks of a flat buffer, so a gather, scatter or all-to-all
//! dimension must be the major one that is not 1 (on the GPU floor
//! `floors-hlo-collectives-to-calls` transposes such collectives into that
//! layout, as XLA:GPU does, so this holds for what the compiler writes);
//! NCCL reduces with sum, prod, min and max only (bool and/or are min/max
//! on bytes, complex sums are sums of their float parts; xor and integer
//! and/or are refused); it has no 16-bit integers.
//!
//! [`NcclCollective::run`] is the simulated device's implementation: a host
//! reference with NCCL's contract on flat byte buffers (counts, rank-major
//! offsets, the root of a broadcast, zeros where a permute receives
//! nothing), the members meeting through the SPMD run's communicator. It
//! does not reuse the CPU floor's collective code (only its elementwise
//! reductions), so the GPU floor's mapping to NCCL is checked against the
//! CPU floor's results.

use crate::buffer::BufferSlice;
use crate::collectives::{CollectiveOp, CollectiveThunk, DeviceRun, Meeting, Placement, Reduction};
use crate::error::RuntimeError;
use crate::npy::{ElementType, TensorSpec};
use crate::thunk::CustomCallInfo;

type Result<T, E = RuntimeError> = std::result::Result<T, E>;

/// NCCL's reduction operators (`ncclRedOp_t`) floors uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedOp {
    Sum,
    Prod,
    Min,
    Max,
}

/// NCCL's data types (`ncclDataType_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataType {
    Int8,
    Uint8,
    Int32,
    Uint32,
    Int64,
    Uint64,
    Float16,
    Float32,
    Float64,
    Bfloat16,
}

impl DataType {
    pub fn bytes(self) -> u64 {
        match self {
            DataType::Int8 | DataType::Uint8 => 1,
            DataType::Float16 | DataType::Bfloat16 => 2,
            DataType::Int32 | DataType::Uint32 | DataType::Float32 => 4,
            DataType::Int64 | DataType::Uint64 | DataType::Float64 => 8,
        }
    }
}

/// One NCCL call (one operand of a collective). Counts are in elements of
/// `dtype`; data movement uses bytes (`ncclUint8`) whatever the type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NcclCall {
    AllReduce {
        dtype: DataType,
        op: RedOp,
        count: u64,
    },
    /// Rank r's `count` elements land at `r * count` of every result.
    AllGather {
        dtype: DataType,
        count: u64,
    },
    /// Rank r receives the reduction of every rank's block `r` (`count` each).
    ReduceScatter {
        dtype: DataType,
        op: RedOp,
        count: u64,
    },
    /// Grouped send/receive: block m (`count`) to rank m, rank m's block
    /// into block m.
    AllToAll {
        dtype: DataType,
        count: u64,
    },
    /// Grouped send/receive along `pairs` (source rank, target rank); a rank
    /// no pair targets gets zeros (a memset).
    SendRecv {
        bytes: u64,
        pairs: Vec<(u32, u32)>,
    },
    /// `ncclBroadcast` from the group's first rank.
    Broadcast {
        dtype: DataType,
        count: u64,
    },
    /// `replica_id`/`partition_id`: a 4-byte host-to-device write, no NCCL.
    WriteId,
}

/// A collective custom call of a GPU artifact as NCCL calls.
pub struct NcclCollective {
    thunk: CollectiveThunk,
    calls: Vec<NcclCall>,
    inputs: Vec<BufferSlice>,
    outputs: Vec<BufferSlice>,
}

fn dtype(t: ElementType) -> Option<DataType> {
    use ElementType::*;
    Some(match t {
        Bool | U8 => DataType::Uint8,
        I8 => DataType::Int8,
        I32 => DataType::Int32,
        U32 => DataType::Uint32,
        I64 => DataType::Int64,
        U64 => DataType::Uint64,
        F16 => DataType::Float16,
        Bf16 => DataType::Bfloat16,
        F32 | C64 => DataType::Float32,
        F64 | C128 => DataType::Float64,
        I16 | U16 => return None,
    })
}

/// The NCCL form of reduction `r` over `t`: (type, operator, elements of
/// that type per element of `t`).
fn reduction(t: ElementType, r: Reduction) -> std::result::Result<(DataType, RedOp, u64), String> {
    let d = dtype(t).ok_or_else(|| format!("NCCL has no {t:?} reductions (no 16-bit integer type)"))?;
    let complex = matches!(t, ElementType::C64 | ElementType::C128);
    let op = match (r, t) {
        (Reduction::Add, _) => RedOp::Sum,
        (Reduction::Mul, _) if !complex => RedOp::Prod,
        (Reduction::Min, _) if !complex => RedOp::Min,
        (Reduction::Max, _) if !complex => RedOp::Max,
        (Reduction::And, ElementType::Bool) => RedOp::Min,
        (Reduction::Or, ElementType::Bool) => RedOp::Max,
        _ => return Err(format!("NCCL has no `{}` reduction of {t:?} (it reduces with sum, prod, min and max)", r.name())),
    };
    Ok((d, op, if complex { 2 } else { 1 }))
}

/// Elements of `shape` before dimension `d` (1: blocks along `d` are
/// contiguous, rank-major).
fn outer(shape: &[u64], d: usize) -> u64 {
    shape[..d].iter().product()
}

fn call_of(op: &CollectiveOp, a: &TensorSpec, r: &TensorSpec) -> std::result::Result<NcclCall, String> {
    let major = |what: &str, t: &TensorSpec, d: usize| -> std::result::Result<(), String> {
        if outer(&t.shape, d) == 1 {
            Ok(())
        } else {
            Err(format!(
                "NCCL {what} rank-major blocks of a flat buffer: dimension {d} of {} is not its major dimension (the dimensions before it are not all 1)",
                t.describe()
            ))
        }
    };
    Ok(match *op {
        CollectiveOp::AllReduce(red) => {
            let (dtype, op, per) = reduction(a.element_type, red)?;
            NcclCall::AllReduce { dtype, op, count: a.shape.iter().product::<u64>() * per }
        }
        CollectiveOp::AllGather { dimension } => {
            major("gathers", a, dimension)?;
            NcclCall::AllGather { dtype: DataType::Uint8, count: a.bytes() }
        }
        CollectiveOp::ReduceScatter { dimension, reduction: red } => {
            major("scatters", r, dimension)?;
            let (dtype, op, per) = reduction(a.element_type, red)?;
            NcclCall::ReduceScatter { dtype, op, count: r.shape.iter().product::<u64>() * per }
        }
        CollectiveOp::AllToAll { split_dimension, concat_dimension, split_count } => {
            major("sends", a, split_dimension)?;
            major("receives", r, concat_dimension)?;
            NcclCall::AllToAll { dtype: DataType::Uint8, count: a.bytes() / split_count.max(1) }
        }
        CollectiveOp::CollectivePermute { ref pairs } => NcclCall::SendRecv { bytes: a.bytes(), pairs: pairs.clone() },
        CollectiveOp::CollectiveBroadcast => NcclCall::Broadcast { dtype: DataType::Uint8, count: a.bytes() },
        CollectiveOp::ReplicaId | CollectiveOp::PartitionId => NcclCall::WriteId,
    })
}

impl NcclCollective {
    /// The NCCL calls of collective custom call `target`; a collective NCCL
    /// cannot compute as laid out is an error naming it, its location and
    /// the rule.
    pub fn new(target: &str, info: &CustomCallInfo, inputs: Vec<BufferSlice>, outputs: Vec<BufferSlice>) -> Result<Self, RuntimeError> {
        let thunk = CollectiveThunk::new(target, info, inputs.clone(), outputs.clone())?;
        let refuse = |reason: String| RuntimeError::InvalidThunk {
            kind: "collective",
            reason: format!("`{target}`{}: on the GPU floor: {reason}", crate::error::at(&info.location)),
        };
        let calls = if thunk.input_types().is_empty() {
            vec![call_of(thunk.op(), &info.output_types[0], &info.output_types[0]).map_err(refuse)?]
        } else {
            thunk
                .input_types()
                .iter()
                .zip(thunk.output_types())
                .map(|(a, r)| call_of(thunk.op(), a, r))
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(refuse)?
        };
        Ok(Self { thunk, calls, inputs, outputs })
    }

    pub fn calls(&self) -> &[NcclCall] {
        &self.calls
    }

    pub fn inputs(&self) -> &[BufferSlice] {
        &self.inputs
    }

    pub fn outputs(&self) -> &[BufferSlice] {
        &self.outputs
    }

    /// `ncclAllReduce(...); ...` as the thunk listing shows it.
    pub fn describe(&self) -> String {
        let calls: Vec<String> = self.calls.iter().map(|c| format!("{c:?}")).collect();
        format!("nccl {} [{}]", self.thunk.target(), calls.join("; "))
    }

    /// Runs the calls on device `device` (None: a one-device run) with
    /// NCCL's semantics on flat buffers: `sends` are this device's operand
    /// bytes, the results' bytes are returned (one per output).
    pub fn run(&self, device: Option<&DeviceRun>, sends: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, RuntimeError> {
        let at = device.map_or(Placement::SINGLE, DeviceRun::placement);
        let mut outs: Vec<Vec<u8>> = self.outputs.iter().map(|s| vec![0u8; s.size as usize]).collect();
        if self.calls == [NcclCall::WriteId] {
            let id = if matches!(self.thunk.op(), CollectiveOp::ReplicaId) { at.replica } else { at.partition };
            outs[0].copy_from_slice(&id.to_le_bytes());
            return Ok(outs);
        }
        let members = self.thunk.groups().members(at).map_err(|m| self.thunk.error(at, m))?;
        self.thunk.check_group(members.len()).map_err(|m| self.thunk.error(at, m))?;
        let rank = members.iter().position(|&m| m == at.flat_id()).unwrap_or(0);
        let inputs: Vec<&[u8]> = sends.iter().map(Vec::as_slice).collect();
        if members.len() == 1 {
            let peers = vec![inputs.clone()];
            self.reference(rank, &peers, &mut outs);
            return Ok(outs);
        }
        let Some(device) = device else {
            let message = format!("its group has {} devices, but this run has one", members.len());
            return Err(self.thunk.error(at, message));
        };
        let mut compute = |peers: &[Vec<&[u8]>]| {
            self.reference(rank, peers, &mut outs);
            Ok(())
        };
        let meeting = Meeting { thunk: self.thunk.id(), call: device.next_call(self.thunk.id()), members: &members };
        device.communicator().exchange(meeting, at.flat_id(), &inputs, &mut compute).map_err(|e| self.thunk.exchange_error(at, e))?;
        Ok(outs)
    }

    /// NCCL's result on rank `me` of a group whose rank m sent
    /// `peers[m][i]` for call i.
    fn reference(&self, me: usize, peers: &[Vec<&[u8]>], outs: &mut [Vec<u8>]) {
        let n = peers.len();
        for (i, (call, out)) in self.calls.iter().zip(outs.iter_mut()).enumerate() {
            let send = |m: usize| peers[m][i];
            match call {
                NcclCall::AllReduce { .. } => {
                    out.copy_from_slice(send(0));
                    (1..n).for_each(|m| self.thunk.reduce_into(i, out, send(m)));
                }
                &NcclCall::AllGather { dtype, count } => {
                    let len = (count * dtype.bytes()) as usize;
                    (0..n).for_each(|m| out[m * len..(m + 1) * len].copy_from_slice(send(m)));
                }
                &NcclCall::ReduceScatter { dtype, count, .. } => {
                    let len = (count * dtype.bytes()) as usize;
                    let block = |m: usize| &send(m)[me * len..(me + 1) * len];
                    out.copy_from_slice(block(0));
                    (1..n).for_each(|m| self.thunk.reduce_into(i, out, block(m)));
                }
                &NcclCall::AllToAll { dtype, count } => {
                    let len = (count * dtype.bytes()) as usize;
                    (0..n).for_each(|m| out[m * len..(m + 1) * len].copy_from_slice(&send(m)[me * len..(me + 1) * len]));
                }
                NcclCall::SendRecv { pairs, .. } => match pairs.iter().find(|p| p.1 as usize == me) {
                    Some(&(source, _)) => out.copy_from_slice(send(source as usize)),
                    None => out.fill(0),
                },
                NcclCall::Broadcast { .. } => out.copy_from_slice(send(0)),
                NcclCall::WriteId => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::{Attr, Attrs};

    fn spec(t: ElementType, shape: &[u64]) -> TensorSpec {
        TensorSpec { element_type: t, shape: shape.to_vec() }
    }

    fn collective(target: &str, a: TensorSpec, r: TensorSpec, attrs: Vec<(&str, Attr)>) -> Result<NcclCollective, RuntimeError> {
        let mut all = vec![
            ("mode".to_string(), Attr::string("cross_partition")),
            ("replica_groups".to_string(), Attr::array(&[] as &[i64])),
            ("group_size".to_string(), Attr::scalar(0i64)),
            ("channel_id".to_string(), Attr::scalar(1i64)),
        ];
        all.extend(attrs.into_iter().map(|(k, v)| (k.to_string(), v)));
        let info = CustomCallInfo {
            input_types: vec![a.clone()],
            output_types: vec![r.clone()],
            attributes: Attrs::new(all).unwrap(),
            location: "gpu.mlir:3:7".into(),
            ..Default::default()
        };
        NcclCollective::new(target, &info, vec![BufferSlice::new(0, 0, a.bytes())], vec![BufferSlice::new(1, 0, r.bytes())])
    }

    #[test]
    fn collectives_become_nccl_calls_on_flat_buffers() {
        let f32s = |s: &[u64]| spec(ElementType::F32, s);
        let c = collective("floors.all_reduce", f32s(&[4, 3]), f32s(&[4, 3]), vec![("reduction", Attr::string("add"))]).unwrap();
        assert_eq!(c.calls(), [NcclCall::AllReduce { dtype: DataType::Float32, op: RedOp::Sum, count: 12 }]);
        let c = collective("floors.all_gather", f32s(&[1, 2, 3]), f32s(&[1, 4, 3]), vec![("dimension", Attr::scalar(1i64))]).unwrap();
        assert_eq!(c.calls(), [NcclCall::AllGather { dtype: DataType::Uint8, count: 24 }]);
        let c = collective(
            "floors.all_reduce",
            spec(ElementType::Bool, &[5]),
            spec(ElementType::Bool, &[5]),
            vec![("reduction", Attr::string("and"))],
        )
        .unwrap();
        assert_eq!(c.calls(), [NcclCall::AllReduce { dtype: DataType::Uint8, op: RedOp::Min, count: 5 }]);
        let c = collective(
            "floors.all_reduce",
            spec(ElementType::C64, &[5]),
            spec(ElementType::C64, &[5]),
            vec![("reduction", Attr::string("add"))],
        )
        .unwrap();
        assert_eq!(c.calls(), [NcclCall::AllReduce { dtype: DataType::Float32, op: RedOp::Sum, count: 10 }]);
    }

    #[test]
    fn what_nccl_cannot_compute_is_refused_by_rule() {
        let f32s = |s: &[u64]| spec(ElementType::F32, s);
        let e = collective("floors.all_gather", f32s(&[3, 2]), f32s(&[3, 4]), vec![("dimension", Attr::scalar(1i64))])
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("gpu.mlir:3:7") && e.contains("dimension 1 of tensor<3x2xf32> is not its major dimension"), "{e}");
        let e = collective(
            "floors.all_reduce",
            spec(ElementType::I32, &[4]),
            spec(ElementType::I32, &[4]),
            vec![("reduction", Attr::string("xor"))],
        )
        .err()
        .unwrap()
        .to_string();
        assert!(e.contains("NCCL has no `xor` reduction"), "{e}");
        let e = collective(
            "floors.all_reduce",
            spec(ElementType::I16, &[4]),
            spec(ElementType::I16, &[4]),
            vec![("reduction", Attr::string("add"))],
        )
        .err()
        .unwrap()
        .to_string();
        assert!(e.contains("no 16-bit integer type"), "{e}");
    }

    #[test]
    fn the_reference_follows_nccl_offsets() {
        let f32s = |s: &[u64]| spec(ElementType::F32, s);
        let rs = collective(
            "floors.reduce_scatter",
            f32s(&[4]),
            f32s(&[2]),
            vec![("dimension", Attr::scalar(0i64)), ("reduction", Attr::string("add"))],
        )
        .unwrap();
        let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let (a, b) = (bytes(&[1.0, 2.0, 3.0, 4.0]), bytes(&[10.0, 20.0, 30.0, 40.0]));
        let peers = vec![vec![a.as_slice()], vec![b.as_slice()]];
        let mut out = vec![vec![0u8; 8]];
        rs.reference(1, &peers, &mut out);
        assert_eq!(out[0], bytes(&[33.0, 44.0]));
        let ag = collective("floors.all_gather", f32s(&[2]), f32s(&[4]), vec![("dimension", Attr::scalar(0i64))]).unwrap();
        let mut out = vec![vec![0u8; 16]];
        ag.reference(0, &[vec![&a[..8]], vec![&b[..8]]], &mut out);
        assert_eq!(out[0], bytes(&[1.0, 2.0, 10.0, 20.0]));
    }
}
