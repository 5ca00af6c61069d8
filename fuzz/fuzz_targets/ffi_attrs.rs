//! Custom-call attributes as an artifact carries them (postcard-encoded
//! `ffi::Attrs`), decoded from arbitrary bytes: the check must refuse what
//! cannot be encoded; what is encoded into the FFI's C structs must decode
//! back through the safe binding (`CallFrame::attrs`) to the same value
//! (scalars cut to their dtype's bytes), and
//! every typed getter must answer a value or an error.
#![no_main]

use floors_runtime::ffi::{
    Attr, Attrs, CallFrame, DataType, Dict,
    attrs::EncodedAttrs,
    c_api::{
        XLA_FFI_Args, XLA_FFI_Args_STRUCT_SIZE, XLA_FFI_CallFrame, XLA_FFI_CallFrame_STRUCT_SIZE, XLA_FFI_ExecutionStage_EXECUTE,
        XLA_FFI_Rets, XLA_FFI_Rets_STRUCT_SIZE,
    },
};
use libfuzzer_sys::fuzz_target;

/// `attrs` as the C encoding carries it: a scalar keeps only the bytes of
/// its dtype (`Attrs::check` lets higher bits through; they are never read).
fn canonical(attrs: &Attrs) -> Attrs {
    Attrs::new(attrs.iter().map(|(n, a)| {
        let a = match a {
            Attr::Scalar { dtype, bits } if dtype.bytes() < 8 => {
                Attr::Scalar { dtype: *dtype, bits: bits & ((1u64 << (8 * dtype.bytes())) - 1) }
            }
            Attr::Dict(d) => Attr::Dict(canonical(d)),
            a => a.clone(),
        };
        (n.to_string(), a)
    }))
    .expect("names were sorted and unique")
}

fn probe(d: &Dict<'_>, attrs: &Attrs, depth: usize) {
    for (name, a) in attrs.iter() {
        let _ = (d.get::<i8>(name), d.get::<i16>(name), d.get::<i32>(name), d.get::<i64>(name));
        let _ = (d.get::<u8>(name), d.get::<u16>(name), d.get::<u32>(name), d.get::<u64>(name));
        let _ = (d.get::<f32>(name), d.get::<f64>(name), d.get::<&str>(name), d.get::<String>(name), d.get::<Attr>(name));
        let _ = (d.get::<Vec<i64>>(name), d.get::<&[f32]>(name), d.get::<&[u8]>(name), d.get::<Vec<f64>>(name));
        // bool: only where the stored byte is a valid bool (see the README's
        // fuzzing section: a Pred byte other than 0/1 is not refused by
        // `Attrs::check`, and reading it as `bool` is undefined behaviour).
        let valid_bools = match a {
            Attr::Scalar { dtype: DataType::Pred, bits } => bits & 0xff <= 1,
            Attr::Array { dtype: DataType::Pred, bytes } => bytes.iter().all(|&b| b <= 1),
            _ => true,
        };
        if valid_bools {
            let _ = (d.get::<bool>(name), d.get::<Vec<bool>>(name));
        }
        if let (Ok(inner), Attr::Dict(a)) = (d.get::<Dict<'_>>(name), a)
            && depth < 64
        {
            probe(&inner, a, depth + 1);
        }
    }
    let _ = d.get::<i32>("no such attribute");
}

fuzz_target!(|data: &[u8]| {
    let Ok(attrs) = postcard::from_bytes::<Attrs>(data) else { return };
    let _ = attrs.to_string();
    let Ok(encoded) = EncodedAttrs::encode(&attrs) else { return };
    let args = XLA_FFI_Args {
        struct_size: XLA_FFI_Args_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        size: 0,
        types: std::ptr::null_mut(),
        args: std::ptr::null_mut(),
    };
    let rets = XLA_FFI_Rets {
        struct_size: XLA_FFI_Rets_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        size: 0,
        types: std::ptr::null_mut(),
        rets: std::ptr::null_mut(),
    };
    let frame = XLA_FFI_CallFrame {
        struct_size: XLA_FFI_CallFrame_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        api: std::ptr::null(),
        ctx: std::ptr::null_mut(),
        stage: XLA_FFI_ExecutionStage_EXECUTE,
        args,
        rets,
        attrs: encoded.raw(),
        future: std::ptr::null_mut(),
    };
    // SAFETY: the frame has no buffers; its attributes are `encoded`'s, alive here.
    let f = unsafe { CallFrame::from_raw(&frame) }.expect("a well-formed frame");
    let d = f.attrs();
    assert_eq!(d.to_attrs().expect("decode what was encoded"), canonical(&attrs));
    probe(&d, &attrs, 0);
});
