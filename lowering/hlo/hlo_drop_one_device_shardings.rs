//! `floors-hlo-drop-one-device-shardings`: Shardy's annotations in a program
//! for one device say nothing floors needs: every value is whole on the one
//! device. JAX 0.10.2 writes them for a jit with a host callback (a maximal
//! mesh `<[], device_ids=[0]>`), with `NamedSharding`s over a one-device mesh,
//! or with `with_sharding_constraint`. When every `sdy.mesh` of the module
//! has one device, the meshes are erased, `sdy.sharding_constraint %x` is
//! `%x`, and every `sdy.*` attribute (on ops, and on function arguments and
//! results) is removed. A module with a mesh of several devices is left as
//! it is: its `sdy.mesh` is then refused by name (sharded programs need
//! several devices).

use melior::ir::OperationRef;
use mlir_sys::*;

use floors_ir::{
    ir::raw,
    pass::{FloorsPass, PassFailure},
};

#[derive(Clone, Default)]
pub struct HloDropOneDeviceShardings;

/// The device count of a mesh written as Shardy prints it: the product of
/// its axis sizes (`<["x"=2, "y"=4]>`), or the number of its `device_ids`
/// when it lists them (`<[], device_ids=[0]>`). None when the text is not
/// of that form.
pub fn mesh_devices(mesh: &str) -> Option<u64> {
    let body = mesh.trim().strip_prefix('<')?.strip_suffix('>')?.trim();
    let axes_end = body.find(']')?;
    let axes = body.strip_prefix('[')?.get(..axes_end - 1)?;
    let mut product: u64 = 1;
    for axis in axes.split(',').map(str::trim).filter(|a| !a.is_empty()) {
        let (_, size) = axis.rsplit_once('=')?;
        product = product.checked_mul(size.trim().parse().ok()?)?;
    }
    let rest = body[axes_end + 1..].trim();
    if rest.is_empty() {
        return Some(product);
    }
    let ids = rest.strip_prefix(',')?.trim().strip_prefix("device_ids")?.trim().strip_prefix('=')?.trim();
    let ids = ids.strip_prefix('[')?.strip_suffix(']')?;
    Some(ids.split(',').filter(|i| !i.trim().is_empty()).count() as u64)
}

/// Drops the shardings of `module` when all its meshes have one device;
/// returns how many ops and attributes went, or None when it has a mesh of
/// several devices (or one floors cannot read), which stays.
pub fn run(module: MlirOperation) -> Option<usize> {
    // SAFETY: `module` is the live op the pass runs on, borrowed only for this walk.
    let ops = floors_ir::ir::collect_ops(&unsafe { OperationRef::from_raw(module) }, |o| raw::name(o.to_raw()) == "sdy.mesh");
    for &op in &ops {
        let text = raw::str_attr(op, "mesh")?;
        if mesh_devices(&text) != Some(1) {
            return None;
        }
    }
    Some(super::sharding::strip(module))
}

impl FloorsPass for HloDropOneDeviceShardings {
    const ARGUMENT: &'static str = "floors-hlo-drop-one-device-shardings";
    const NAME: &'static str = "FloorsHloDropOneDeviceShardings";
    const DESCRIPTION: &'static str =
        "When every sdy.mesh has one device: erase the meshes, sharding constraints (their operands) and sdy.* attributes";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        match run(op.to_raw()) {
            Some(n) => tracing::debug!("floors-hlo-drop-one-device-shardings: {n} ops and attributes"),
            None => tracing::debug!("floors-hlo-drop-one-device-shardings: a mesh of several devices; shardings kept"),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::mesh_devices;

    #[test]
    fn device_counts_of_meshes() {
        assert_eq!(mesh_devices("<[\"x\"=1]>"), Some(1));
        assert_eq!(mesh_devices("<[\"x\"=2, \"y\"=4]>"), Some(8));
        assert_eq!(mesh_devices("<[]>"), Some(1));
        assert_eq!(mesh_devices("<[], device_ids=[0]>"), Some(1));
        assert_eq!(mesh_devices("<[], device_ids=[3]>"), Some(1));
        assert_eq!(mesh_devices("<[\"x\"=2], device_ids=[1, 0]>"), Some(2));
        assert_eq!(mesh_devices("<[\"x\"=99999999999, \"y\"=99999999999]>"), None);
        assert_eq!(mesh_devices("garbage"), None);
    }
}
