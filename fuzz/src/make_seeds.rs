//! Seed corpora for the fuzz targets: `make_seeds OUT FILE...` writes, for
//! every `.floors` artifact given, the file itself and its payload with the
//! kernel code cut to 16 bytes into OUT/artifact/, the custom-call attribute
//! dictionaries of its programs into OUT/ffi_attrs/, and copies every `.npy`
//! given into OUT/npy_read/.

use std::path::Path;

use floors_runtime::{
    Artifact, KernelCode, ThunkSpec,
    artifact::HEADER_BYTES,
    ffi::{Attr, Attrs},
};

/// Dictionaries like the ones JAX programs pass (`mhlo.backend_config`).
fn synthetic_attrs() -> Vec<Attrs> {
    let all = Attrs::new([
        ("b".to_string(), Attr::scalar(true)),
        ("eps".to_string(), Attr::scalar(1e-5f32)),
        ("f64".to_string(), Attr::scalar(2.5f64)),
        ("i8".to_string(), Attr::scalar(-3i8)),
        ("i16".to_string(), Attr::scalar(300i16)),
        ("i32".to_string(), Attr::scalar(-7i32)),
        ("i64".to_string(), Attr::scalar(1i64 << 40)),
        ("u8".to_string(), Attr::scalar(200u8)),
        ("u32".to_string(), Attr::scalar(4_000_000_000u32)),
        ("u64".to_string(), Attr::scalar(u64::MAX)),
        ("dims".to_string(), Attr::array(&[1i64, 2, 3])),
        ("scale".to_string(), Attr::array(&[0.5f32, 2.0])),
        ("mask".to_string(), Attr::array(&[true, false])),
        ("name".to_string(), Attr::string("rms_norm")),
        ("nested".to_string(), Attr::Dict(Attrs::new([("k".to_string(), Attr::scalar(1i32))]).expect("attrs"))),
    ])
    .expect("attrs");
    vec![Attrs::default(), Attrs::new([("eps".to_string(), Attr::scalar(1e-6f32))]).expect("attrs"), all]
}

fn attrs(body: &[ThunkSpec], out: &mut Vec<Vec<u8>>) {
    for t in body {
        match t {
            ThunkSpec::CustomCall { info, .. } => out.push(postcard::to_stdvec(&info.attributes).expect("encode")),
            ThunkSpec::While { cond, body, .. } => {
                attrs(cond, out);
                attrs(body, out);
            }
            ThunkSpec::Conditional { branches, .. } => branches.iter().for_each(|b| attrs(b, out)),
            _ => {}
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().expect("usage: make_seeds OUT FILE...");
    let out = Path::new(&out);
    for sub in ["artifact", "ffi_attrs", "npy_read"] {
        std::fs::create_dir_all(out.join(sub)).expect("mkdir");
    }
    for (i, a) in synthetic_attrs().iter().enumerate() {
        std::fs::write(out.join("ffi_attrs").join(format!("synthetic.{i}")), postcard::to_stdvec(a).expect("encode")).expect("write");
    }
    for f in args {
        let p = Path::new(&f);
        let name = p.file_name().expect("file name").to_string_lossy().into_owned();
        let bytes = std::fs::read(p).expect("read");
        if name.ends_with(".npy") {
            std::fs::write(out.join("npy_read").join(&name), &bytes).expect("write");
            continue;
        }
        let mut a = Artifact::from_bytes(&bytes, &f).expect("an artifact");
        std::fs::write(out.join("artifact").join(&name), &bytes).expect("write");
        // A CPU artifact's code shrunk to keep the seed small (other floors' code is data already).
        if let KernelCode::CpuSharedObject(code) = &mut a.code {
            code.truncate(16);
        }
        let small = a.to_bytes().expect("encode");
        std::fs::write(out.join("artifact").join(format!("{name}.payload")), &small[HEADER_BYTES..]).expect("write");
        let mut dicts = Vec::new();
        attrs(&a.program.body, &mut dicts);
        for (i, d) in dicts.iter().enumerate() {
            std::fs::write(out.join("ffi_attrs").join(format!("{name}.{i}")), d).expect("write");
        }
    }
}
