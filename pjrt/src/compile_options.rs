//! The three fields of XLA's `CompileOptionsProto` the plugin needs, read
//! from its wire form: `executable_build_options` (field 3) →
//! `num_replicas` (4), `num_partitions` (5), `device_assignment` (9:
//! `DeviceAssignmentProto { replica_count = 1; computation_count = 2;
//! repeated ComputationDevice computation_devices = 3 { repeated int64
//! replica_device_ids = 1; } }`). Field numbers from
//! `xla/pjrt/proto/compile_options.proto` and `xla/xla_data.proto`, checked
//! against what jaxlib 0.10.2 serializes. Every other field is skipped by its
//! wire type; a malformed message is an error, never a guess.

use crate::error::{Error, Result};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompileOptions {
    pub num_replicas: Option<i64>,
    pub num_partitions: Option<i64>,
    /// `assignment[p][r]`: the device of replica r of partition (computation) p.
    pub device_assignment: Option<Vec<Vec<i64>>>,
}

struct Wire<'a> {
    bytes: &'a [u8],
    at: usize,
}

enum Field<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    Other,
}

impl<'a> Wire<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, at: 0 }
    }

    fn varint(&mut self) -> Result<u64> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = *self.bytes.get(self.at).ok_or_else(|| bad("a varint runs past the end"))?;
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(bad("a varint longer than 10 bytes"))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| bad("a field runs past the end"))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    /// The next (field number, value); None at the end.
    fn next(&mut self) -> Result<Option<(u64, Field<'a>)>> {
        if self.at == self.bytes.len() {
            return Ok(None);
        }
        let key = self.varint()?;
        let field = match key & 7 {
            0 => Field::Varint(self.varint()?),
            1 => {
                self.take(8)?;
                Field::Other
            }
            2 => {
                let n = self.varint()? as usize;
                Field::Bytes(self.take(n)?)
            }
            5 => {
                self.take(4)?;
                Field::Other
            }
            w => return Err(bad(&format!("wire type {w} (groups are not used by these messages)"))),
        };
        Ok(Some((key >> 3, field)))
    }
}

fn bad(why: &str) -> Error {
    Error::invalid(format!("the compile options (CompileOptionsProto) cannot be read: {why}"))
}

/// `repeated int64` in packed or unpacked form, appended to `out`.
fn int64s(field: Field, out: &mut Vec<i64>) -> Result<()> {
    match field {
        Field::Varint(v) => out.push(v as i64),
        Field::Bytes(b) => {
            let mut w = Wire::new(b);
            while w.at < b.len() {
                out.push(w.varint()? as i64);
            }
        }
        Field::Other => return Err(bad("replica_device_ids of an unexpected wire type")),
    }
    Ok(())
}

fn device_assignment(bytes: &[u8]) -> Result<Vec<Vec<i64>>> {
    let mut w = Wire::new(bytes);
    let mut computations = Vec::new();
    while let Some((n, f)) = w.next()? {
        if let (3, Field::Bytes(b)) = (n, f) {
            let mut ids = Vec::new();
            let mut c = Wire::new(b);
            while let Some((m, g)) = c.next()? {
                if m == 1 {
                    int64s(g, &mut ids)?;
                }
            }
            computations.push(ids);
        }
    }
    Ok(computations)
}

/// Reads the options; empty bytes are the defaults.
pub fn parse(bytes: &[u8]) -> Result<CompileOptions> {
    let mut out = CompileOptions::default();
    let mut w = Wire::new(bytes);
    while let Some((n, f)) = w.next()? {
        let (3, Field::Bytes(build)) = (n, f) else { continue };
        let mut b = Wire::new(build);
        while let Some((m, g)) = b.next()? {
            match (m, g) {
                (4, Field::Varint(v)) => out.num_replicas = Some(v as i64),
                (5, Field::Varint(v)) => out.num_partitions = Some(v as i64),
                (9, Field::Bytes(d)) => out.device_assignment = Some(device_assignment(d)?),
                _ => {}
            }
        }
    }
    Ok(out)
}

/// `DeviceAssignmentProto` for `assignment[p][r]`, serialized.
pub fn device_assignment_proto(assignment: &[Vec<i64>]) -> Vec<u8> {
    fn varint(out: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            out.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
    let mut out = Vec::new();
    let replicas = assignment.first().map_or(0, Vec::len);
    varint(&mut out, 1 << 3);
    varint(&mut out, replicas as u64);
    varint(&mut out, 2 << 3);
    varint(&mut out, assignment.len() as u64);
    for ids in assignment {
        let mut packed = Vec::new();
        for &id in ids {
            varint(&mut packed, id as u64);
        }
        let mut comp = Vec::new();
        varint(&mut comp, (1 << 3) | 2);
        varint(&mut comp, packed.len() as u64);
        comp.extend(packed);
        varint(&mut out, (3 << 3) | 2);
        varint(&mut out, comp.len() as u64);
        out.extend(comp);
    }
    out
}

/// `xla.OpSharding` of a tiling, serialized: REPLICATED (the empty message)
/// when untiled, else `type: OTHER`, `tile_assignment_dimensions`,
/// `tile_assignment_devices` (packed) and `replicate_on_last_tile_dim`
/// (fields 1, 3, 4 and 6 of xla_data.proto's OpSharding).
pub fn op_sharding(t: &floors_runtime::collectives::Tiling) -> Vec<u8> {
    fn varint(out: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            out.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
    fn packed(out: &mut Vec<u8>, field: u64, values: &[i64]) {
        let mut body = Vec::new();
        for &v in values {
            varint(&mut body, v as u64);
        }
        varint(out, (field << 3) | 2);
        varint(out, body.len() as u64);
        out.extend(body);
    }
    let mut out = Vec::new();
    if t.is_replicated() {
        return out;
    }
    varint(&mut out, 1 << 3);
    varint(&mut out, 3);
    packed(&mut out, 3, &t.tiles);
    packed(&mut out, 4, &t.devices);
    if t.replicated_last {
        varint(&mut out, 6 << 3);
        varint(&mut out, 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes_and_the_one_device_assignment() {
        let da = device_assignment_proto(&[vec![3], vec![1], vec![2], vec![0]]);
        assert_eq!(device_assignment(&da).unwrap(), vec![vec![3], vec![1], vec![2], vec![0]]);
        assert_eq!(device_assignment_proto(&[vec![0]]), crate::executable::DEVICE_ASSIGNMENT_1X1.to_vec());
        // executable_build_options { num_replicas: 1, num_partitions: 4, device_assignment }
        let mut build = vec![4 << 3, 1, 5 << 3, 4, (9 << 3) | 2, da.len() as u8];
        build.extend(&da);
        let mut opts = vec![(3 << 3) | 2, build.len() as u8];
        opts.extend(build);
        let o = parse(&opts).unwrap();
        assert_eq!((o.num_replicas, o.num_partitions), (Some(1), Some(4)));
        assert_eq!(o.device_assignment.unwrap().len(), 4);
        assert_eq!(parse(&[]).unwrap(), CompileOptions::default());
        assert!(parse(&[(3 << 3) | 2, 50, 1]).is_err());
        assert!(parse(&[0x80]).is_err());
    }

    #[test]
    fn op_shardings() {
        use floors_runtime::collectives::Tiling;
        assert!(op_sharding(&Tiling::default()).is_empty());
        let t = Tiling { tiles: vec![2, 1, 2], devices: vec![0, 2, 1, 3], replicated_last: true };
        assert_eq!(op_sharding(&t), vec![8, 3, 26, 3, 2, 1, 2, 34, 4, 0, 2, 1, 3, 48, 1]);
    }
}
