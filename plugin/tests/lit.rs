//! Runs the lit suite (lit-tests/) against the freshly built plugin and CLI,
//! so `cargo test` covers the mlir-opt entry point too.

use std::{path::PathBuf, process::Command};

fn target_dir() -> PathBuf {
    // .../target/<profile>/deps/lit-<hash>
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent().and_then(|p| p.parent()).expect("target/<profile>").to_path_buf()
}

fn find_lit() -> PathBuf {
    if let Ok(l) = std::env::var("FLOORS_LIT") {
        return l.into();
    }
    for c in ["/usr/lib/llvm-22/bin/lit", "/usr/bin/lit-22"] {
        if std::path::Path::new(c).exists() {
            return c.into();
        }
    }
    panic!("lit not found: install llvm-22-tools (scripts/setup.sh does) or set FLOORS_LIT");
}

#[test]
fn lit_suite() {
    let profile = target_dir();
    let plugin = [profile.join("deps/libfloors_plugin.so"), profile.join("libfloors_plugin.so")]
        .into_iter()
        .find(|p| p.exists())
        .expect("libfloors_plugin.so was not built");
    let floors = profile.join("floors");
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let mut cmd = Command::new(find_lit());
    cmd.arg("-sv").arg(repo.join("lit-tests")).env("FLOORS_PLUGIN", &plugin);
    if floors.exists() {
        cmd.env("FLOORS_BIN", &floors);
    } else {
        panic!("{} not built: run the suite with `cargo test --workspace`", floors.display());
    }
    let status = cmd.status().expect("cannot run lit");
    assert!(status.success(), "lit suite failed (see output above)");
}
