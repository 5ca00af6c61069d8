//! The CMake package works: install into a temporary prefix, then configure
//! and ctest the consumer in tests/cmake-consumer.

use std::{path::PathBuf, process::Command};

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed:\n{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}

#[test]
fn find_package_floors_and_ctest() {
    if Command::new("cmake").arg("--version").output().is_err() {
        panic!("cmake is not installed: scripts/setup.sh installs it");
    }
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(|p| p.parent()).unwrap().to_path_buf();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let work = std::env::temp_dir().join(format!("floors-cmake-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    let prefix = work.join("prefix");
    run(Command::new(repo.join("scripts/install.sh")).arg(&prefix).env("FLOORS_ARTIFACTS", &profile));
    let build = work.join("build");
    run(Command::new("cmake")
        .arg("-S")
        .arg(repo.join("tests/cmake-consumer"))
        .arg("-B")
        .arg(&build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display())));
    run(Command::new("ctest").arg("--test-dir").arg(&build).arg("--output-on-failure"));
    let _ = std::fs::remove_dir_all(&work);
}
