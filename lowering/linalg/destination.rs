//! Writing a kernel's results straight into its output buffers: the rewrite
//! that moves a reshape from the value to the destination, shared by the
//! outlining (`floors-linalg-outline-kernels`) and the floors' passes that
//! re-form a kernel's root (`floors-cpu-pack-matmul`).

use mlir_sys::*;

use floors_ir::{
    ir::{raw, raw::type_text},
    pass::{PassFailure, fail_at as fail},
};

/// The static shape of a memref type with the identity layout in the default
/// memory space; None for any other type.
fn plain_memref_shape(t: MlirType) -> Option<Vec<i64>> {
    // SAFETY: `t` is a live type; the memref and shaped getters run only after `mlirTypeIsAMemRef`
    // (a ranked memref), with `d` below the rank; the layout is read as an affine map only after
    // `mlirAttributeIsAAffineMap`.
    unsafe {
        if !mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) || !mlirMemRefTypeGetMemorySpace(t).ptr.is_null() {
            return None;
        }
        let layout = mlirMemRefTypeGetLayout(t);
        let identity =
            layout.ptr.is_null() || (mlirAttributeIsAAffineMap(layout) && mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(layout)));
        identity.then(|| (0..mlirShapedTypeGetRank(t)).map(|d| mlirShapedTypeGetDimSize(t, d as isize)).collect())
    }
}

/// `materialize_in_destination (tensor.expand_shape|collapse_shape %x) in %out`
/// → `materialize_in_destination %x in (memref.collapse_shape|expand_shape %out)`
/// when the reshape has no other use: the value is then written straight into
/// the output (`eliminate-empty-tensors` does not look through reshapes, so
/// bufferization would otherwise compute it into a temporary and copy), and
/// the op producing `%x` is the kernel's root for workgroup splitting.
/// Repeats while the source is another reshape. Errors only if the rewritten
/// IR does not parse (an internal error).
pub fn write_reshapes_into_destination(materialize: MlirOperation) -> Result<(), PassFailure> {
    let mut m = materialize;
    loop {
        let ops = raw::operands(m);
        let (src, dest) = (ops[0], ops[1]);
        let Some(reshape) = raw::producer(src) else { return Ok(()) };
        let memref_op = match raw::name(reshape).as_str() {
            "tensor.expand_shape" => "memref.collapse_shape",
            "tensor.collapse_shape" => "memref.expand_shape",
            _ => return Ok(()),
        };
        let x = raw::operands(reshape)[0];
        let (Some(xs), Some(reassoc)) = (raw::shape(x), raw::attr(reshape, "reassociation")) else { return Ok(()) };
        if raw::uses(src).len() != 1 {
            return Ok(());
        }
        // SAFETY: `x`, `src` and `dest` are operands of the live reshape and materialize ops.
        let (x_type, src_type, dest_type) = unsafe { (mlirValueGetType(x), mlirValueGetType(src), mlirValueGetType(dest)) };
        // Identity-layout static destinations only (any reshape of those is
        // valid), of the reshaped value's shape and element type.
        // SAFETY: `x` has a static ranked tensor type (`raw::shape` gave its shape).
        let elem = unsafe { mlirShapedTypeGetElementType(x_type) };
        let fits = plain_memref_shape(dest_type).is_some_and(|d| {
            // SAFETY: `dest_type` is a memref (`plain_memref_shape` accepted it).
            raw::type_shape(src_type).is_some_and(|s| s == d) && unsafe { mlirTypeEqual(mlirShapedTypeGetElementType(dest_type), elem) }
        });
        if !fits {
            return Ok(());
        }
        // The template: the types and the reassociation printed into IR text
        // that is parsed back as IR.
        // SAFETY: `elem` is a live tensor element type (valid for a memref); `xs` lives for the
        // call, which copies it; a null memory space is the default one.
        let x_memref = unsafe { mlirMemRefTypeContiguousGet(elem, xs.len() as isize, xs.as_ptr(), mlirAttributeGetNull()) };
        let (xt, xm, dest_ty) = (type_text(x_type), type_text(x_memref), type_text(dest_type));
        let r = raw::attr_text(reassoc);
        let view = if memref_op == "memref.expand_shape" {
            let dims: Vec<String> = xs.iter().map(|d| d.to_string()).collect();
            format!("memref.expand_shape %out {r} output_shape [{}] : {dest_ty} into {xm}", dims.join(", "))
        } else {
            format!("memref.collapse_shape %out {r} : {dest_ty} into {xm}")
        };
        let text = format!(
            "func.func @floors_reshape_into_destination(%x: {xt}, %out: {dest_ty}) {{\n  %v = {view}\n  \
             bufferization.materialize_in_destination %x in restrict writable %v : ({xt}, {xm}) -> ()\n  func.return\n}}\n"
        );
        // SAFETY: `m` is a live materialize_in_destination, `x` and `dest`
        // dominate it; `m` is replaced by the last spliced op below.
        let moved = unsafe { raw::parse_and_splice(m, &text, &[x, dest], "floors-linalg-reshape-into-destination") }
            .map_err(|text| fail(m, format!("internal error: writing a reshaped output in place does not parse:\n{text}")))?;
        // SAFETY: the reshape's result had one use, the materialize the splice destroyed, so
        // nothing uses it now; it lies outside `m` and is not used again (the loop goes on from the
        // new materialize).
        unsafe { mlirOperationDestroy(reshape) };
        m = *moved.last().expect("the template has two ops");
    }
}
