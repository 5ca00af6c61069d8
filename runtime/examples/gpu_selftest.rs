//! Writes the GPU runtime's self-test artifacts (hand-written PTX, gemms,
//! streams, control flow), their inputs and expected outputs into a folder:
//! `cargo run --release -p floors-runtime --example gpu_selftest -- DIR`
//! (what `scripts/gpu_prepare.sh` runs). `--ptx DIR` writes the PTX texts
//! alone, for `ptxas`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [flag, dir] if flag == "--ptx" => {
            let dir = std::path::Path::new(dir);
            std::fs::create_dir_all(dir)
                .and_then(|_| {
                    floors_runtime::gpu::selftest::ptx_texts()
                        .iter()
                        .try_for_each(|(name, text)| std::fs::write(dir.join(format!("{name}.ptx")), text))
                })
                .map_err(|e| e.to_string())
        }
        [dir] => floors_runtime::gpu::selftest::write_self_tests(std::path::Path::new(dir))
            .map(|names| println!("{}", names.join(" ")))
            .map_err(|e| e.to_string()),
        _ => Err("usage: gpu_selftest DIR | gpu_selftest --ptx DIR".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
