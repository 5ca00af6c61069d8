//! .npy I/O and the argument checks made before anything runs.

use floors_runtime::npy::{self, ElementType, HostArray, TensorSpec};

/// `../shared/corpus` next to the repository (where CI puts it).
fn corpus_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("floors-npy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn reads_corpus_arrays() {
    let a = npy::read(&corpus_dir().join("public/argmax.in0.npy")).unwrap();
    assert_eq!((a.element_type, a.shape.clone()), (ElementType::F32, vec![8, 16]));
    assert_eq!(a.bytes.len(), 8 * 16 * 4);
    let dir = corpus_dir().join("public");
    // Every corpus array reads, whatever its dtype (f32, i32, bool).
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "npy") {
            let arr = npy::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert_eq!(arr.bytes.len() as u64, arr.num_elements() * arr.element_type.bytes() as u64);
        }
    }
}

#[test]
fn round_trips_every_dtype() {
    let types = [
        ElementType::Bool,
        ElementType::I8,
        ElementType::I16,
        ElementType::I32,
        ElementType::I64,
        ElementType::U8,
        ElementType::U16,
        ElementType::U32,
        ElementType::U64,
        ElementType::F32,
        ElementType::F64,
        ElementType::F16,
        ElementType::C64,
        ElementType::C128,
    ];
    for t in types {
        let n = 6usize;
        let bytes: Vec<u8> = (0..n * t.bytes()).map(|i| if t == ElementType::Bool { (i % 2) as u8 } else { (i * 7 % 251) as u8 }).collect();
        let arr = HostArray { element_type: t, shape: vec![2, 3], bytes: bytes.into() };
        let path = tmp(&format!("rt_{}.npy", t.npy_descr().replace(['<', '|'], "")));
        npy::write(&path, &arr).unwrap();
        assert_eq!(npy::read(&path).unwrap(), arr, "{t:?}");
    }
    // A big-endian complex64 array: each part byte-swapped on its own.
    let mut be = b"\x93NUMPY\x01\x00".to_vec();
    let mut header = "{'descr': '>c8', 'fortran_order': False, 'shape': (2,), }".to_string();
    while !(10 + header.len() + 1).is_multiple_of(64) {
        header.push(' ');
    }
    header.push('\n');
    be.extend_from_slice(&(header.len() as u16).to_le_bytes());
    be.extend_from_slice(header.as_bytes());
    for v in [1.0f32, 2.0, -3.5, 0.25] {
        be.extend_from_slice(&v.to_be_bytes());
    }
    let path = tmp("be_c8.npy");
    std::fs::write(&path, be).unwrap();
    let a = npy::read(&path).unwrap();
    let parts: Vec<f32> = a.bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!((a.element_type, parts), (ElementType::C64, vec![1.0, 2.0, -3.5, 0.25]));
    // A scalar (shape []) too.
    let s = HostArray { element_type: ElementType::F32, shape: vec![], bytes: 1.5f32.to_le_bytes().to_vec().into() };
    let path = tmp("scalar.npy");
    npy::write(&path, &s).unwrap();
    assert_eq!(npy::read(&path).unwrap(), s);
}

#[test]
fn bad_files_are_errors() {
    let text = tmp("text.npy");
    std::fs::write(&text, b"hello").unwrap();
    let e = npy::read(&text).unwrap_err().to_string();
    assert!(e.contains("text.npy") && e.contains("not a .npy file"), "{e}");

    let good = HostArray { element_type: ElementType::F32, shape: vec![4], bytes: vec![0; 16].into() };
    let full = tmp("full.npy");
    npy::write(&full, &good).unwrap();
    let bytes = std::fs::read(&full).unwrap();
    let short = tmp("short.npy");
    std::fs::write(&short, &bytes[..bytes.len() - 3]).unwrap();
    assert!(npy::read(&short).is_err());

    let missing = npy::read(&tmp("missing.npy")).unwrap_err().to_string();
    assert!(missing.contains("missing.npy"), "{missing}");
}

#[test]
fn argument_checks_name_what_is_wrong() {
    let spec = TensorSpec { element_type: ElementType::F32, shape: vec![8, 16] };
    assert_eq!(spec.describe(), "tensor<8x16xf32>");
    let p = std::path::Path::new("a.npy");
    let ok = HostArray { element_type: ElementType::F32, shape: vec![8, 16], bytes: vec![0; 512].into() };
    spec.check(0, p, &ok).unwrap();
    let wrong_type = HostArray { element_type: ElementType::I32, ..ok.clone() };
    let e = spec.check(0, p, &wrong_type).unwrap_err().to_string();
    assert!(e.contains("input 0 (a.npy)") && e.contains("<f4") && e.contains("<i4"), "{e}");
    let wrong_shape = HostArray { shape: vec![16, 8], ..ok.clone() };
    assert!(spec.check(1, p, &wrong_shape).unwrap_err().to_string().contains("input 1"));
    // bf16 arguments take uint16 bit patterns.
    let bf = TensorSpec { element_type: ElementType::Bf16, shape: vec![2] };
    bf.check(0, p, &HostArray { element_type: ElementType::U16, shape: vec![2], bytes: vec![0; 4].into() }).unwrap();
}
