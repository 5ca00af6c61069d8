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

/// The names of `op`'s attributes that start with `sdy.`.
fn sdy_attrs(op: MlirOperation) -> Vec<String> {
    // SAFETY: `op` is a live op; its attributes are read below their count.
    let n = unsafe { mlirOperationGetNumAttributes(op) };
    (0..n)
        .map(|i| {
            // SAFETY: `i` is below the count read above; the name is an identifier of the op's context.
            let name = unsafe { mlirIdentifierStr(mlirOperationGetAttribute(op, i).name) };
            raw::string(name)
        })
        .filter(|name| name.starts_with("sdy."))
        .collect()
}

/// `dict` without its `sdy.*` entries; None when it has none.
fn without_sdy(dict: MlirAttribute) -> Option<MlirAttribute> {
    // SAFETY: `dict` is a live attribute; its entries are read only once it is known to be a dictionary, below their
    // count; the new dictionary is built in its context from entries of it.
    unsafe {
        if !mlirAttributeIsADictionary(dict) {
            return None;
        }
        let n = mlirDictionaryAttrGetNumElements(dict);
        let entries: Vec<MlirNamedAttribute> = (0..n).map(|i| mlirDictionaryAttrGetElement(dict, i)).collect();
        let kept: Vec<MlirNamedAttribute> =
            entries.iter().copied().filter(|e| !raw::string(mlirIdentifierStr(e.name)).starts_with("sdy.")).collect();
        (kept.len() != entries.len()).then(|| mlirDictionaryAttrGet(mlirAttributeGetContext(dict), kept.len() as isize, kept.as_ptr()))
    }
}

/// `arg_attrs`/`res_attrs` of a function without `sdy.*` entries.
fn strip_function_attrs(func: MlirOperation, name: &str) {
    let Some(array) = raw::attr(func, name) else { return };
    // SAFETY: `array` is a live attribute of `func`; its elements are read only once it is known to be an array,
    // below their count; the new array is built in its context and set on the live `func`.
    unsafe {
        if !mlirAttributeIsAArray(array) {
            return;
        }
        let n = mlirArrayAttrGetNumElements(array);
        let mut changed = false;
        let elems: Vec<MlirAttribute> = (0..n)
            .map(|i| {
                let e = mlirArrayAttrGetElement(array, i);
                match without_sdy(e) {
                    Some(d) => {
                        changed = true;
                        d
                    }
                    None => e,
                }
            })
            .collect();
        if changed {
            let new = mlirArrayAttrGet(mlirAttributeGetContext(array), elems.len() as isize, elems.as_ptr());
            mlirOperationSetAttributeByName(func, raw::sref(name), new);
        }
    }
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
    Some(strip(module))
}

/// Removes every Shardy annotation of `module`: meshes, sharding constraints
/// (replaced by their operands) and `sdy.*` attributes on ops and on function
/// arguments and results. Returns how many ops and attributes went. (Called
/// once the module's values are whole on each device: a one-device module, or
/// a partitioned one.)
pub fn strip(module: MlirOperation) -> usize {
    // SAFETY: `module` is the live op the pass runs on, borrowed only for this walk.
    let ops = floors_ir::ir::collect_ops(&unsafe { OperationRef::from_raw(module) }, |_| true);
    let mut n = 0;
    let mut meshes = Vec::new();
    for &op in &ops {
        match raw::name(op).as_str() {
            "sdy.mesh" => {
                meshes.push(op);
                continue;
            }
            "sdy.sharding_constraint" => {
                // SAFETY: a live sharding_constraint has one operand and one result of the same type (its verifier);
                // its uses become the operand's, then it is erased and not visited again.
                unsafe {
                    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetOperand(op, 0));
                    mlirOperationDestroy(op);
                }
                n += 1;
                continue;
            }
            "func.func" => {
                strip_function_attrs(op, "arg_attrs");
                strip_function_attrs(op, "res_attrs");
            }
            _ => {}
        }
        for name in sdy_attrs(op) {
            // SAFETY: `op` is live; the name is one of its attributes.
            unsafe { mlirOperationRemoveAttributeByName(op, raw::sref(&name)) };
            n += 1;
        }
    }
    for name in sdy_attrs(module) {
        // SAFETY: `module` is the live op the pass runs on; the name is one of its attributes.
        unsafe { mlirOperationRemoveAttributeByName(module, raw::sref(&name)) };
        n += 1;
    }
    for mesh in meshes {
        // SAFETY: a live sdy.mesh: no results and no regions; nothing refers to it once the shardings are gone.
        unsafe { mlirOperationDestroy(mesh) };
        n += 1;
    }
    n
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
