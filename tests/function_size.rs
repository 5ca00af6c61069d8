//! No function over 150 lines, outside tests and generated code.
//!
//! Every `.rs` file of the repository's own code is lexed: `src/`, `ir/`,
//! `lowering/`, `runtime/src/`, `pjrt/src/`, `plugin/src/`, `fuzz/` and the
//! crates' `build.rs`. Left out: `target/` (bindgen's output is generated
//! there), files marked `@generated`, `tests/` folders, and `#[cfg(test)]`
//! modules, inline or in their own file. Comments and string, byte-string,
//! raw-string and char literals are blanked (newlines kept), then each `fn`
//! with a body has its braces matched; its length is the lines from the one
//! holding `fn` to the one holding the body's closing `}`, both counted (a
//! signature over several lines counts).

use std::path::{Path, PathBuf};

/// The most lines a function may span.
const LIMIT: usize = 150;

/// A function found in a source: where its `fn` keyword is and how many
/// lines it spans, signature and body.
#[derive(Debug, PartialEq)]
struct Function {
    line: usize,
    name: String,
    lines: usize,
}

/// The source with comments and string/char literals replaced by spaces;
/// newlines stay where they were, so line numbers still hold.
fn blank(src: &str) -> Vec<char> {
    let s: Vec<char> = src.chars().collect();
    let mut out = s.clone();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let wipe = |out: &mut [char], from: usize, to: usize| {
        for c in &mut out[from..to.min(s.len())] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        let prev_ident = i > 0 && is_ident(s[i - 1]);
        if c == '/' && next == Some('/') {
            let end = s[i..].iter().position(|&c| c == '\n').map_or(s.len(), |p| i + p);
            wipe(&mut out, i, end);
            i = end;
        } else if c == '/' && next == Some('*') {
            // Block comments nest.
            let (mut depth, mut j) = (1, i + 2);
            while j < s.len() && depth > 0 {
                if s[j] == '/' && s.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if s[j] == '*' && s.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            wipe(&mut out, i, j);
            i = j;
        } else if let Some(end) = (!prev_ident).then(|| raw_string(&s, i)).flatten() {
            wipe(&mut out, i, end);
            i = end;
        } else if c == '"' {
            let mut j = i + 1;
            while j < s.len() && s[j] != '"' {
                j += if s[j] == '\\' { 2 } else { 1 };
            }
            wipe(&mut out, i, j + 1);
            i = j + 1;
        } else if c == '\'' {
            // A char literal (`'x'`, `'\n'`, `'\u{7b}'`), else a lifetime
            // or a label, which stays.
            if next == Some('\\') {
                let mut j = i + 1;
                while j < s.len() && s[j] != '\'' {
                    j += if s[j] == '\\' { 2 } else { 1 };
                }
                wipe(&mut out, i, j + 1);
                i = j + 1;
            } else if s.get(i + 2) == Some(&'\'') {
                wipe(&mut out, i, i + 3);
                i += 3;
            } else {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The end (one past the closing quote or hashes) of a raw string starting at
/// `i` (`r"…"`, `r#"…"#`, `br##"…"##`, `cr"…"`), or `None` if none starts
/// there. A raw identifier (`r#type`) is not one.
fn raw_string(s: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(s[j], 'b' | 'c') {
        j += 1;
    }
    if s.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = s[j..].iter().take_while(|&&c| c == '#').count();
    j += hashes;
    if s.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < s.len() {
        if s[j] == '"' && s[j + 1..].iter().take(hashes).filter(|&&c| c == '#').count() == hashes {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(s.len())
}

/// A token of the blanked source: an identifier or keyword, or one
/// punctuation character, with its line.
#[derive(Debug)]
struct Token {
    text: String,
    line: usize,
}

fn tokens(code: &[char]) -> Vec<Token> {
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < code.len() {
        let c = code[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < code.len() && (code[i].is_alphanumeric() || code[i] == '_') {
                i += 1;
            }
            out.push(Token { text: code[start..i].iter().collect(), line });
        } else {
            out.push(Token { text: c.to_string(), line });
            i += 1;
        }
    }
    out
}

/// The index of the token closing the brace opened at `open`.
fn matching(toks: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.text.as_str() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len() - 1
}

/// The functions with a body in `src`, outside `#[cfg(test)]` modules, and
/// the names of the out-of-line modules declared `#[cfg(test)] mod name;`.
fn functions(src: &str) -> (Vec<Function>, Vec<String>) {
    let toks = tokens(&blank(src));
    let text = |k: usize| toks.get(k).map_or("", |t| t.text.as_str());
    let mut found = Vec::new();
    let mut test_mods = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        // `# [ cfg ( test ) ]`, then (after other attributes) `mod name`.
        if text(k) == "#"
            && text(k + 1) == "["
            && text(k + 2) == "cfg"
            && text(k + 3) == "("
            && text(k + 4) == "test"
            && text(k + 5) == ")"
            && text(k + 6) == "]"
        {
            let mut m = k + 7;
            while text(m) == "#" {
                let close = (m..toks.len()).find(|&j| text(j) == "]").unwrap_or(toks.len());
                m = close + 1;
            }
            if text(m) == "pub" {
                m += 1;
            }
            if text(m) == "mod" {
                if text(m + 2) == ";" {
                    test_mods.push(text(m + 1).to_string());
                    k = m + 3;
                } else if text(m + 2) == "{" {
                    k = matching(&toks, m + 2) + 1;
                }
                continue;
            }
        }
        if text(k) == "fn" && text(k + 1).starts_with(|c: char| c.is_alphabetic() || c == '_') {
            // The body is the first `{` outside parentheses and brackets; a
            // `;` there first means a declaration without one.
            let (mut paren, mut m) = (0i32, k + 2);
            while m < toks.len() {
                match text(m) {
                    "(" | "[" => paren += 1,
                    ")" | "]" => paren -= 1,
                    "{" | ";" if paren == 0 => break,
                    _ => {}
                }
                m += 1;
            }
            if text(m) == "{" {
                let close = matching(&toks, m);
                found.push(Function { line: toks[k].line, name: text(k + 1).to_string(), lines: toks[close].line - toks[k].line + 1 });
            }
        }
        k += 1;
    }
    (found, test_mods)
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.rs` files under `dir`, without `target/` and `tests/` folders.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy();
        if p.is_dir() {
            if name != "target" && name != "tests" && !name.starts_with('.') {
                rust_files(&p, out);
            }
        } else if name.ends_with(".rs") {
            out.push(p);
        }
    }
}

/// Where the file of `mod name;` declared in `file` lives.
fn module_files(file: &Path, name: &str) -> [PathBuf; 2] {
    let stem = file.file_stem().unwrap().to_string_lossy();
    let dir = file.parent().unwrap();
    let dir = if ["mod", "lib", "main"].contains(&stem.as_ref()) { dir.to_path_buf() } else { dir.join(&*stem) };
    [dir.join(format!("{name}.rs")), dir.join(name).join("mod.rs")]
}

/// `file:line name length` for every function over the limit.
fn too_long() -> Vec<String> {
    let root = repo();
    let mut files = Vec::new();
    for dir in ["src", "ir", "lowering", "runtime/src", "pjrt/src", "plugin/src", "fuzz"] {
        rust_files(&root.join(dir), &mut files);
    }
    for build in ["build.rs", "runtime/build.rs", "pjrt/build.rs", "plugin/build.rs"] {
        if root.join(build).is_file() {
            files.push(root.join(build));
        }
    }
    files.sort();
    assert!(files.len() > 100, "found only {} files under {}", files.len(), root.display());
    let mut parsed = Vec::new();
    let mut test_files = Vec::new();
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        if src.lines().take(5).any(|l| l.contains("@generated")) {
            continue;
        }
        let (fns, test_mods) = functions(&src);
        for m in test_mods {
            test_files.extend(module_files(&path, &m));
        }
        parsed.push((path, fns));
    }
    let mut bad = Vec::new();
    for (path, fns) in parsed {
        if !test_files.contains(&path) {
            bad.extend(report(&path.strip_prefix(&root).unwrap().display().to_string(), &fns));
        }
    }
    bad
}

/// `file:line name length` for each of `fns` (of file `rel`) over the limit.
fn report(rel: &str, fns: &[Function]) -> Vec<String> {
    fns.iter().filter(|f| f.lines > LIMIT).map(|f| format!("{rel}:{} {} {}", f.line, f.name, f.lines)).collect()
}

#[test]
fn no_function_over_150_lines() {
    let bad = too_long();
    assert!(bad.is_empty(), "functions over {LIMIT} lines (file:line name length):\n{}", bad.join("\n"));
}

/// A function spanning `lines` lines (its signature over two), with braces
/// hidden in strings, comments and char literals on its inner lines.
fn synthetic(name: &str, lines: usize) -> String {
    let tricks = [
        r#"    let _ = "}{ \" }";"#,
        "    // } } }",
        "    /* { /* nested } */ } */",
        "    let _ = '}';",
        "    let _ = '\\u{7b}';",
        r###"    let _ = r#"}" {"# ; let _ = br"{";"###,
        "    let _: &'static str = b\"{\".len().to_string().leak();",
        "    'outer: loop { break 'outer; }",
        r#"    let _ = '\''; let _ = '"'; let _ = "{\\";"#,
    ];
    let mut s = format!("fn {name}(\n) {{\n");
    for i in 0..lines - 3 {
        s.push_str(tricks[i % tricks.len()]);
        s.push('\n');
    }
    s.push_str("}\n");
    s
}

#[test]
fn the_lexer_counts_bodies_and_is_not_fooled_by_literals() {
    let src = format!(
        "// fn commented() {{\n{}{}trait T {{ fn declared(&self); }}\nconst S: &str = \"fn in_string() {{\";\ntype F = fn(u32) -> u32;\n",
        synthetic("long", 151),
        synthetic("fits", 150),
    );
    let (fns, _) = functions(&src);
    let summary: Vec<(&str, usize)> = fns.iter().map(|f| (f.name.as_str(), f.lines)).collect();
    assert_eq!(summary, [("long", 151), ("fits", 150)]);
    assert_eq!(fns[0].line, 2);
    assert_eq!(fns[1].line, 153);
    assert_eq!(report("x.rs", &fns), ["x.rs:2 long 151"]);
}

#[test]
fn test_modules_are_skipped() {
    let src = format!(
        "fn kept() {{}}\n#[cfg(test)]\nmod tests {{\n{}}}\n#[cfg(test)]\n#[allow(dead_code)]\nmod more;\nfn after() {{\n}}\n",
        synthetic("in_tests", 200)
    );
    let (fns, test_mods) = functions(&src);
    let names: Vec<&str> = fns.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["kept", "after"]);
    assert_eq!(fns[1].lines, 2);
    assert_eq!(test_mods, ["more"]);
    let file = Path::new("/r/runtime/src/tpu/mod.rs");
    assert_eq!(module_files(file, "tests")[0], Path::new("/r/runtime/src/tpu/tests.rs"));
    let file = Path::new("/r/src/target.rs");
    assert_eq!(module_files(file, "tests")[1], Path::new("/r/src/target/tests/mod.rs"));
}
