//! The Mosaic `tpu` dialect against the corpus of real Pallas kernels
//! (`../shared/corpus/mosaic/`, written by jax/jaxlib 0.10.2): floors parses
//! and prints every kernel exactly as jaxlib printed it, writes the same wire
//! form, and decodes the hand-off body of each lowered module.

use crate::common;

use std::path::PathBuf;

use floors::{context::create_context, source::parse_module};
use floors_tpu::handoff as tpu_handoff;
use melior::{
    Context,
    ir::{Module, operation::OperationLike},
};

fn mosaic_dir() -> PathBuf {
    common::corpus_dir().join("mosaic")
}

/// Every `NAME` with a `NAME.mosaic.mlir` in the corpus, sorted.
fn kernels() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(mosaic_dir())
        .expect("the Mosaic corpus (../shared/corpus/mosaic)")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".mosaic.mlir").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "expected the five corpus kernels, found {names:?}");
    names
}

fn read(name: &str) -> String {
    std::fs::read_to_string(mosaic_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// jaxlib's files end with one newline; MLIR's printer ends the module with
/// none. Everything else (the trailing space after `tpu.vector_store`'s last
/// type included) must be identical.
fn text_of(module: &Module) -> String {
    let mut s = module.as_operation().to_string();
    while s.ends_with('\n') {
        s.pop();
    }
    s.push('\n');
    s
}

/// The module printed in generic form.
fn generic(module: &Module) -> String {
    let op = module.as_operation();
    let flags = melior::ir::operation::OperationPrintingFlags::new();
    let mut s = op.to_string_with_flags(flags.print_generic_operation_form()).expect("printable");
    while s.ends_with('\n') {
        s.pop();
    }
    s
}

fn with_unregistered<T>(ctx: &Context, f: impl FnOnce() -> T) -> T {
    ctx.set_allow_unregistered_dialects(true);
    let out = f();
    ctx.set_allow_unregistered_dialects(false);
    out
}

#[test]
fn normal_form_prints_as_jaxlib() {
    let ctx = create_context();
    for k in kernels() {
        let file = format!("{k}.mosaic.mlir");
        let text = read(&file);
        let module = parse_module(&ctx, &file, &text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(module.as_operation().verify(), "{file} does not verify");
        let printed = text_of(&module);
        assert_eq!(printed, text, "{file}: floors prints it differently");
        // print | parse | print is stable.
        let again = parse_module(&ctx, &file, &printed).unwrap();
        assert_eq!(text_of(&again), printed, "{file}: not stable");
    }
}

#[test]
fn wire_form_is_jaxlibs() {
    let ctx = create_context();
    for k in kernels() {
        let normal_file = format!("{k}.mosaic.mlir");
        let wire_file = format!("{k}.mosaic.serialized.mlir");
        let module = parse_module(&ctx, &normal_file, &read(&normal_file)).unwrap();
        let (ours, theirs) = with_unregistered(&ctx, || {
            // SAFETY: the module is live and owned by this test; the serde pass rewrites it in place.
            let ok = unsafe { floors::capi::floorsTpuSerde(module.as_operation().to_raw(), true) };
            assert!(ok, "{normal_file}: serialization failed");
            let ours = generic(&module);
            let reference = Module::parse(&ctx, &read(&wire_file)).expect("wire form parses");
            (ours, generic(&reference))
        });
        assert_eq!(ours, theirs, "{k}: floors' wire form differs from jaxlib's");
        // And back: wire -> normal is the normal form again.
        let back = with_unregistered(&ctx, || {
            // SAFETY: as above.
            let ok = unsafe { floors::capi::floorsTpuSerde(module.as_operation().to_raw(), false) };
            assert!(ok, "{wire_file}: deserialization failed");
            text_of(&module)
        });
        assert!(module.as_operation().verify());
        assert_eq!(back, read(&normal_file), "{k}: normal -> wire -> normal changed the kernel");
    }
}

/// `backend_config = "{...}"` of the `tpu_custom_call` in a lowered module:
/// the JSON, unescaped from the MLIR string.
fn backend_config(stablehlo: &str) -> serde_json::Value {
    let start = stablehlo.find("backend_config = \"").expect("a backend_config") + "backend_config = \"".len();
    let mut json = String::new();
    let mut chars = stablehlo[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => match chars.next() {
                Some('"') => json.push('"'),
                Some('\\') => json.push('\\'),
                Some('n') => json.push('\n'),
                Some(other) => {
                    // \XX hex escapes of MLIR strings.
                    let hi = other;
                    let lo = chars.next().expect("two hex digits");
                    let byte = u8::from_str_radix(&format!("{hi}{lo}"), 16).expect("hex escape");
                    json.push(byte as char);
                }
                None => break,
            },
            c => json.push(c),
        }
    }
    serde_json::from_str(&json).expect("backend_config is JSON")
}

#[test]
fn handoff_body_decodes_to_the_normal_form() {
    let ctx = create_context();
    for k in kernels() {
        let config = backend_config(&read(&format!("{k}.stablehlo.mlir")));
        let body = config["custom_call_config"]["body"].as_str().expect("a base64 body");
        let bytes = tpu_handoff::from_base64(body).unwrap();
        assert_eq!(&bytes[..4], b"ML\xefR", "{k}: body is MLIR bytecode");
        let module = tpu_handoff::decode_handoff_body(&ctx, &bytes).unwrap_or_else(|e| panic!("{k}: {e}"));
        assert_eq!(text_of(&module), read(&format!("{k}.mosaic.mlir")), "{k}: decoded body differs");
        assert!(!ctx.allow_unregistered_dialects(), "decoding restores the context's setting");
    }
}

#[test]
fn handoff_body_round_trips() {
    let ctx = create_context();
    for k in kernels() {
        let file = format!("{k}.mosaic.mlir");
        let text = read(&file);
        let module = parse_module(&ctx, &file, &text).unwrap();
        let bytes = tpu_handoff::encode_handoff_body(&module).unwrap();
        assert_eq!(&bytes[..4], b"ML\xefR");
        assert_eq!(text_of(&module), text, "encoding leaves the module alone");
        let b64 = tpu_handoff::to_base64(&bytes);
        let back = tpu_handoff::decode_handoff_body(&ctx, &tpu_handoff::from_base64(&b64).unwrap()).unwrap();
        assert_eq!(text_of(&back), text, "{k}: encode -> decode changed the kernel");
    }
}
