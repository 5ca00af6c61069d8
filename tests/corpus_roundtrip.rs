//! Every program JAX printed parses, prints back exactly as JAX wrote it
//! (ignoring whitespace), and printing is a fixed point; the generic form of
//! each program prints the same as its pretty form. The test walks the corpus
//! folders, so a new file is covered automatically.

use crate::common;

use floors::{CompileOptions, Compiler, ir::print_op};

fn strip(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn corpus_prints_back_as_jax_wrote_it() {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    // The parser alone: `Compiler::parse` also records the compile options
    // (`floors.target`) on the module, which JAX's text does not have.
    let parse = |name: &str, text: &str| floors::source::parse_module(compiler.context(), name, text);
    let mut checked = 0;
    for split in ["public", "bench"] {
        let dir = common::corpus_dir().join(split);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
            .collect();
        files.sort();
        for path in files {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let module = parse(&name, &text).unwrap_or_else(|e| panic!("{name} does not parse:\n{e}"));
            let printed = print_op(&module.as_operation());
            if name.ends_with(".stablehlo.mlir") {
                assert_eq!(strip(&printed), strip(&text), "{name} does not print back as JAX wrote it:\n{printed}");
            }
            let again = parse(&name, &printed).unwrap_or_else(|e| panic!("{name}: printed IR does not parse:\n{e}"));
            assert_eq!(print_op(&again.as_operation()), printed, "{name}: printing is not a fixed point");
            if let Some(stem) = name.strip_suffix(".generic.mlir") {
                let pretty_path = format!("{stem}.stablehlo.mlir");
                if let Ok(pretty) = std::fs::read_to_string(&pretty_path) {
                    let p = parse(&pretty_path, &pretty).unwrap();
                    assert_eq!(printed, print_op(&p.as_operation()), "{name} and its pretty form differ");
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} corpus files found");
}
