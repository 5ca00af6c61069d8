//! A partitioned program run whole: global arrays split into each device's
//! tile by the program's [`SpmdLayout`] (XLA's tile assignment, which the
//! partitioner recorded), the devices run as an SPMD launch, and each
//! result assembled from its tiles. What `floors run` / `floors-run` do with
//! a program lowered for several devices, given the global inputs JAX would
//! have been given.

use crate::buffer::AlignedBuffer;
use crate::collectives::Tiling;
use crate::error::{Error, Result};
use crate::npy::{HostArray, TensorSpec};

/// The global shape of a value whose per-device shard is `local`.
pub fn global_shape(local: &[u64], t: &Tiling) -> Vec<u64> {
    local.iter().enumerate().map(|(d, &n)| n * t.tiles.get(d).map_or(1, |&k| k.max(1) as u64)).collect()
}

/// Offsets of device `device`'s tile in the global array (zeros when
/// replicated); an error when the tiling does not place it.
fn tile_offsets(local: &[u64], t: &Tiling, device: usize) -> Result<Vec<u64>> {
    if t.is_replicated() {
        return Ok(vec![0; local.len()]);
    }
    let k = t
        .devices
        .iter()
        .position(|&d| d == device as i64)
        .ok_or_else(|| Error::Unsupported(format!("the program's tiling {:?} does not place device {device}", t.devices)))?;
    // Tile coordinates of position k, row-major over `tiles`.
    let mut coords = vec![0u64; t.tiles.len()];
    let mut rem = k as u64;
    for (c, &n) in coords.iter_mut().zip(&t.tiles).rev() {
        *c = rem % n.max(1) as u64;
        rem /= n.max(1) as u64;
    }
    Ok(local.iter().enumerate().map(|(d, &n)| coords.get(d).copied().unwrap_or(0) * n).collect())
}

/// Calls `row(outer_start, block_start, len)` (bytes) for each row of the
/// last dimension of the block of shape `block` at `offset` in an array of
/// shape `outer`, the block dense and row-major.
fn for_each_row(outer: &[u64], block: &[u64], offset: &[u64], elem: usize, mut row: impl FnMut(usize, usize, usize)) {
    let rank = block.len();
    if block.contains(&0) {
        return;
    }
    if rank == 0 {
        row(0, 0, elem);
        return;
    }
    let len = block[rank - 1] as usize * elem;
    let rows: u64 = block[..rank - 1].iter().product();
    let mut strides = vec![elem as u64; rank];
    for d in (0..rank - 1).rev() {
        strides[d] = strides[d + 1] * outer[d + 1];
    }
    let mut idx = vec![0u64; rank];
    for r in 0..rows as usize {
        let start: u64 = (0..rank).map(|d| (offset[d] + idx[d]) * strides[d]).sum();
        row(start as usize, r * len, len);
        for d in (0..rank - 1).rev() {
            idx[d] += 1;
            if idx[d] < block[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// Device `device`'s shard (of type `local`) of the global array `global`.
pub fn shard(global: &HostArray, local: &TensorSpec, t: &Tiling, device: usize) -> Result<HostArray> {
    let elem = local.element_type.bytes();
    let offset = tile_offsets(&local.shape, t, device)?;
    let n: u64 = local.shape.iter().product();
    let mut bytes = AlignedBuffer::zeros(n as usize * elem);
    let (src, dst) = (global.bytes.as_slice(), bytes.as_mut_slice());
    for_each_row(&global.shape, &local.shape, &offset, elem, |o, b, len| dst[b..b + len].copy_from_slice(&src[o..o + len]));
    Ok(HostArray { element_type: global.element_type, shape: local.shape.clone(), bytes })
}

/// The global array whose device tiles are `parts` (index: device).
/// Replicated values are taken from device 0 (every device holds them whole).
pub fn assemble(parts: &[HostArray], t: &Tiling) -> Result<HostArray> {
    let first = parts.first().ok_or_else(|| Error::Unsupported("no device results to assemble".into()))?;
    if t.is_replicated() {
        return Ok(first.clone());
    }
    let elem = first.element_type.bytes();
    let shape = global_shape(&first.shape, t);
    let n: u64 = shape.iter().product();
    let mut out = AlignedBuffer::zeros(n as usize * elem);
    // One tile per position; with replicas (`replicated_last`) the first copy.
    let copies = if t.replicated_last { t.tiles.last().copied().unwrap_or(1).max(1) as usize } else { 1 };
    for k in 0..t.devices.len() / copies {
        let device = t.devices[k * copies] as usize;
        let part = parts.get(device).ok_or_else(|| Error::Unsupported(format!("the tiling places device {device}, which did not run")))?;
        let offset = tile_offsets(&part.shape, t, device)?;
        let (src, dst) = (part.bytes.as_slice(), out.as_mut_slice());
        for_each_row(&shape, &part.shape, &offset, elem, |o, b, len| dst[o..o + len].copy_from_slice(&src[b..b + len]));
    }
    Ok(HostArray { element_type: first.element_type, shape, bytes: out })
}

/// Device `device`'s inputs of a partitioned program: each global input
/// checked against its global type and cut to the device's tile.
fn shard_inputs(
    program: &crate::program::HostProgram,
    layout: &crate::collectives::SpmdLayout,
    inputs: &[(std::path::PathBuf, HostArray)],
    device: usize,
) -> Result<Vec<(std::path::PathBuf, HostArray)>> {
    if inputs.len() != program.params.len() || layout.params.len() != program.params.len() {
        return Err(Error::Unsupported(format!("the program takes {} inputs, {} were given", program.params.len(), inputs.len())));
    }
    let mut out = Vec::with_capacity(inputs.len());
    for (i, (((path, arr), (local, _)), t)) in inputs.iter().zip(&program.params).zip(&layout.params).enumerate() {
        let global = TensorSpec { element_type: local.element_type, shape: global_shape(&local.shape, t) };
        global.check(i, path, arr)?;
        out.push((path.clone(), shard(arr, local, t, device)?));
    }
    Ok(out)
}

/// `mpirun -np N floors-run --mpi PROG.floors ...`: this process is device
/// `rank` of the partitioned program; every process reads the global
/// inputs and runs its tile; rank 0 gathers the results' tiles, assembles
/// them and writes `out0.npy`, ... to `output_dir`. A failure is printed and
/// ends the whole job (`MPI_Abort`), so no process waits for a dead one.
#[cfg(feature = "mpi")]
pub fn run_artifact_mpi(
    artifact: &std::path::Path,
    inputs: &[std::path::PathBuf],
    output_dir: &std::path::Path,
    custom_calls: std::sync::Arc<crate::CustomCallRegistry>,
) -> Result<()> {
    use crate::collectives::{Communicator, DeviceRun};
    let mpi = std::sync::Arc::new(crate::mpi_transport::Mpi::init().map_err(Error::Unsupported)?);
    let (rank, size) = (mpi.rank(), mpi.size());
    type Local = Vec<(std::path::PathBuf, HostArray)>;
    let run = || -> Result<(crate::program::Executable, Local)> {
        let arrays = inputs.iter().map(|p| crate::npy::read(p).map(|a| (p.clone(), a))).collect::<Result<Vec<_>>>()?;
        let exe = crate::Artifact::read(artifact)?.instantiate(&artifact.display().to_string(), custom_calls, Default::default())?;
        let layout =
            exe.program().spmd.clone().ok_or_else(|| {
                Error::Unsupported(format!("{}: the program is for one device; run it without --mpi", artifact.display()))
            })?;
        let (replicas, partitions) = (layout.num_replicas.max(1), layout.num_partitions.max(1));
        if (replicas * partitions) as usize != size || replicas != 1 {
            return Err(Error::Unsupported(format!(
                "{}: the program runs on {replicas} x {partitions} devices; this MPI job has {size} processes",
                artifact.display()
            )));
        }
        let local = shard_inputs(exe.program(), &layout, &arrays, rank)?;
        Ok((exe, local))
    };
    let fail = |mpi: &crate::mpi_transport::Mpi, e: Error| -> ! {
        eprintln!("floors-run (MPI rank {rank} of {size}): {e}");
        mpi.abort(1)
    };
    let (exe, local) = match run() {
        Ok(v) => v,
        Err(e) => fail(mpi.as_ref(), e),
    };
    let layout = exe.program().spmd.clone().unwrap_or_default();
    let communicator = std::sync::Arc::new(Communicator::mpi(1, layout.num_partitions.max(1), mpi.clone()));
    let device = DeviceRun::new(communicator.clone(), 0, rank as u32);
    let job = communicator.mpi_job().expect("an MPI communicator");
    let outputs = match exe.execute_on(&local, &device) {
        Ok(o) => o,
        Err(e) => fail(job, Error::Device { replica: 0, partition: rank as u32, source: Box::new(e) }),
    };
    let mut assembled = Vec::new();
    for (j, out) in outputs.iter().enumerate() {
        if let Some(all) = job.gather_to_root(out.bytes.as_slice()) {
            let parts: Vec<HostArray> = all
                .into_iter()
                .map(|b| HostArray { element_type: out.element_type, shape: out.shape.clone(), bytes: AlignedBuffer::copy_from(&b) })
                .collect();
            match assemble(&parts, &layout.results[j]) {
                Ok(a) => assembled.push(a),
                Err(e) => fail(job, e),
            }
        }
    }
    if rank == 0
        && let Err(e) = crate::write_outputs(output_dir, &assembled)
    {
        fail(job, e);
    }
    Ok(())
}

impl crate::program::Executable {
    /// Runs a partitioned program on global inputs (see the module docs):
    /// each input checked against its global type, split into the devices'
    /// tiles, the devices run in this process ([`Self::execute_spmd`]), each
    /// result assembled.
    pub fn execute_whole(
        &self,
        layout: &crate::collectives::SpmdLayout,
        inputs: &[(std::path::PathBuf, HostArray)],
    ) -> Result<Vec<HostArray>> {
        let program = self.program();
        let (replicas, partitions) = (layout.num_replicas.max(1), layout.num_partitions.max(1));
        if replicas != 1 {
            return Err(Error::Unsupported(format!("a program of {replicas} replicas runs on per-replica inputs (PJRT), not whole")));
        }
        if inputs.len() != program.params.len() || layout.params.len() != program.params.len() {
            return Err(Error::Input {
                origin: self.origin().to_string(),
                message: format!("the program takes {} inputs, {} were given", program.params.len(), inputs.len()),
            });
        }
        let per_device = (0..partitions as usize).map(|d| shard_inputs(program, layout, inputs, d)).collect::<Result<Vec<_>>>()?;
        let outputs = self.execute_spmd(per_device, 1, partitions)?;
        (0..program.results.len())
            .map(|j| {
                let parts: Vec<HostArray> = outputs.iter().map(|o| o[j].clone()).collect();
                assemble(&parts, &layout.results[j])
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::npy::ElementType;

    fn arr(shape: &[u64], values: impl Iterator<Item = f32>) -> HostArray {
        let bytes: Vec<u8> = values.flat_map(f32::to_le_bytes).collect();
        HostArray { element_type: ElementType::F32, shape: shape.to_vec(), bytes: AlignedBuffer::copy_from(&bytes) }
    }

    #[test]
    fn split_and_assemble_round_trip_on_a_2x2_mesh() {
        let global = arr(&[4, 6], (0..24).map(|v| v as f32));
        // Rows by x, columns by y: devices 0..4 in row-major tile order.
        let t = Tiling { tiles: vec![2, 2], devices: vec![0, 1, 2, 3], replicated_last: false };
        let local = TensorSpec { element_type: ElementType::F32, shape: vec![2, 3] };
        let parts: Vec<HostArray> = (0..4).map(|d| shard(&global, &local, &t, d).unwrap()).collect();
        assert_eq!(parts[1].bytes.as_slice(), arr(&[2, 3], [3.0, 4.0, 5.0, 9.0, 10.0, 11.0].into_iter()).bytes.as_slice());
        assert_eq!(assemble(&parts, &t).unwrap(), global);
        // Split by the second axis only, replicated over the first: tiles
        // [1, 2, 2], devices (y=0: x=0, x=1), (y=1: ...).
        let t = Tiling { tiles: vec![1, 2, 2], devices: vec![0, 2, 1, 3], replicated_last: true };
        let local = TensorSpec { element_type: ElementType::F32, shape: vec![4, 3] };
        let parts: Vec<HostArray> = (0..4).map(|d| shard(&global, &local, &t, d).unwrap()).collect();
        assert_eq!(parts[0], parts[2]);
        assert_eq!(assemble(&parts, &t).unwrap(), global);
        assert_eq!(global_shape(&[4, 3], &t), vec![4, 6]);
        assert!(shard(&global, &local, &Tiling { tiles: vec![2], devices: vec![0, 1], replicated_last: false }, 5).is_err());
    }

    #[test]
    fn layouts_read_from_an_artifact_are_checked() {
        use crate::collectives::SpmdLayout;
        let tile = |tiles: Vec<i64>, devices: Vec<i64>| Tiling { tiles, devices, replicated_last: false };
        let good =
            SpmdLayout { num_replicas: 1, num_partitions: 2, params: vec![tile(vec![2, 1], vec![0, 1])], results: vec![Tiling::default()] };
        assert!(good.validate(1, 1).is_ok());
        assert!(good.validate(2, 1).is_err());
        let outside = SpmdLayout { params: vec![tile(vec![2], vec![0, 5])], ..good.clone() };
        assert!(outside.validate(1, 1).unwrap_err().contains("does not place"));
        let short = SpmdLayout { params: vec![tile(vec![4], vec![0, 1])], ..good.clone() };
        assert!(short.validate(1, 1).is_err());
        let zero = SpmdLayout { params: vec![tile(vec![0], vec![])], ..good };
        assert!(zero.validate(1, 1).is_err());
    }
}
