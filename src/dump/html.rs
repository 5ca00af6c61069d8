//! `--dump-html`: a browsable dump. Plain static HTML (no script, no
//! server), well-formed XML as well, so a browser opens it from disk and a
//! test can parse it:
//! - `DIR/index.html` lists every module dumped into `DIR`;
//! - `DIR/<module>/index.html` lists the pipeline's passes in the order they
//!   finished (the order of the `NNNN.` files), nested passes indented under
//!   the pass manager that ran them: time (the pass alone, dump printing
//!   excluded), whether it changed the IR (`+added −removed` lines, or
//!   `unchanged`), and links to the dumped IR file and to the pass's page;
//! - `DIR/<module>/NNNN.<pass>.html` (for every dumped pass): the diff
//!   against the IR before the pass (the previous pass's, dumped or not),
//!   then the whole IR after it.

use std::{path::Path, time::Duration};

use similar::{ChangeTag, DiffTag, TextDiff};

use super::{Change, PassRecord};
use crate::error::{Error, Result};

/// `s` with `&`, `<`, `>` and `"` escaped (text and attribute values).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 16);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "
body { font-family: sans-serif; margin: 1.5em; }
table { border-collapse: collapse; }
th, td { padding: 0.15em 0.7em; text-align: left; border-bottom: 1px solid #ddd; font-size: 0.9em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.changed { background: #fff6d5; }
tr.unchanged { color: #888; }
tr.failed { background: #f8d0d0; }
tr.input { background: #e8f0fe; }
pre { background: #f7f7f7; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
pre.diff span.add { background: #d4f8d4; }
pre.diff span.del { background: #f8d4d4; }
pre.diff span.hunk { color: #66c; }
code { font-size: 0.9em; }
";

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|source| Error::Io { path: path.into(), source })
}

/// Milliseconds with three decimals.
pub fn millis(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

fn line_diff<'a>(old: &'a str, new: &'a str) -> TextDiff<'a, 'a, 'a, str> {
    // Patience is fast on IR (many unique lines); the deadline bounds huge inputs.
    TextDiff::configure().algorithm(similar::Algorithm::Patience).timeout(Duration::from_millis(100)).diff_lines(old, new)
}

/// Lines added and removed from `old` to `new`.
pub fn change_of(old: &str, new: &str) -> Change {
    if old == new {
        return Change::Unchanged;
    }
    change_in(&line_diff(old, new))
}

fn change_in(diff: &TextDiff<'_, '_, '_, str>) -> Change {
    let (mut added, mut removed) = (0, 0);
    for op in diff.ops() {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        match tag {
            DiffTag::Equal => {}
            DiffTag::Delete => removed += old_range.len(),
            DiffTag::Insert => added += new_range.len(),
            DiffTag::Replace => {
                removed += old_range.len();
                added += new_range.len();
            }
        }
    }
    Change::Changed { added, removed }
}

/// A unified diff (3 lines of context) as HTML: `<pre class="diff">` with one
/// span per added, removed and hunk-header line.
pub fn diff_html(old: &str, new: &str) -> String {
    render_diff(&line_diff(old, new))
}

/// What `old` → `new` changed and, when `html`, the diff as HTML.
pub fn diff(old: &str, new: &str, html: bool) -> (Change, Option<String>) {
    if old == new {
        return (Change::Unchanged, None);
    }
    let d = line_diff(old, new);
    (change_in(&d), html.then(|| render_diff(&d)))
}

fn render_diff(diff: &TextDiff<'_, '_, '_, str>) -> String {
    let mut out = String::from("<pre class=\"diff\">");
    for (i, group) in diff.grouped_ops(3).iter().enumerate() {
        let (Some(first), Some(last)) = (group.first(), group.last()) else { continue };
        let (o0, n0) = (first.old_range().start, first.new_range().start);
        let (o1, n1) = (last.old_range().end, last.new_range().end);
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("<span class=\"hunk\">@@ -{},{} +{},{} @@</span>\n", o0 + 1, o1 - o0, n0 + 1, n1 - n0));
        for op in group {
            for change in diff.iter_changes(op) {
                let line = escape(change.value().trim_end_matches('\n'));
                match change.tag() {
                    ChangeTag::Equal => out.push_str(&format!(" {line}\n")),
                    ChangeTag::Insert => out.push_str(&format!("<span class=\"add\">+{line}</span>\n")),
                    ChangeTag::Delete => out.push_str(&format!("<span class=\"del\">-{line}</span>\n")),
                }
            }
        }
    }
    out.push_str("</pre>\n");
    out
}

/// The page of one dumped pass: its diff (`diff`, from [`diff`]), then the IR `after` it.
pub fn write_pass_page(dir: &Path, record: &PassRecord, diff: Option<&str>, after: &str) -> Result<()> {
    let Some(page_name) = &record.page else { return Ok(()) };
    let title = format!("{:04} {}", record.ordinal, record.pass);
    let mut body = format!("<h1>{}</h1>\n<p><a href=\"index.html\">all passes</a>", escape(&title));
    if let Some(file) = &record.file {
        body.push_str(&format!(" · IR file <a href=\"{0}\">{0}</a>", escape(file)));
    }
    body.push_str(&format!(" · {} </p>\n", millis(record.duration)));
    match record.change {
        Change::Unchanged => body.push_str("<h2>Diff against the IR before this pass</h2>\n<p>unchanged: this pass changed nothing.</p>\n"),
        _ => {
            body.push_str(&format!("<h2>Diff against the IR before this pass ({})</h2>\n", change_text(record.change)));
            body.push_str(diff.unwrap_or_default());
        }
    }
    body.push_str(&format!("<h2>IR after this pass</h2>\n<pre>{}</pre>\n", escape(after)));
    write(&dir.join(page_name), &page(&title, &body))
}

fn change_text(change: Change) -> String {
    match change {
        Change::Changed { added, removed } => format!("+{added} \u{2212}{removed}"),
        Change::Unchanged => "unchanged".into(),
        Change::Failed => "failed".into(),
        Change::NotCompared => String::new(),
    }
}

/// `DIR/<module>/index.html`: the passes of one pipeline run.
pub fn write_module_index(dir: &Path, module: &str, pipeline: &str, input_file: &str, records: &[PassRecord]) -> Result<()> {
    let total: Duration = records.iter().filter(|r| r.depth == 0).map(|r| r.duration).sum();
    let changed = records.iter().filter(|r| matches!(r.change, Change::Changed { .. })).count();
    let failed = records.iter().any(|r| r.change == Change::Failed);
    let mut body = format!(
        "<h1>{}</h1>\n<p><a href=\"../index.html\">all modules</a></p>\n<p>pipeline <code>{}</code></p>\n<p>{} passes, {} changed the IR, {} in passes{}.</p>\n",
        escape(module),
        escape(pipeline),
        records.len(),
        changed,
        millis(total),
        if failed { "; the pipeline failed" } else { "" }
    );
    body.push_str(
        "<table>\n<thead><tr><th>#</th><th>pass</th><th>time</th><th>change</th><th>IR</th><th>page</th></tr></thead>\n<tbody>\n",
    );
    body.push_str(&format!(
        "<tr class=\"input\"><td class=\"num\">0</td><td>input</td><td></td><td></td><td><a href=\"{0}\">{0}</a></td><td></td></tr>\n",
        escape(input_file)
    ));
    for r in records {
        let class = match r.change {
            Change::Changed { .. } => "changed",
            Change::Unchanged => "unchanged",
            Change::Failed => "failed",
            Change::NotCompared => "other",
        };
        let indent = format!("padding-left: {:.1}em", 0.7 + 1.5 * r.depth as f64);
        let file = match &r.file {
            Some(f) => format!("<a href=\"{0}\">{0}</a>", escape(f)),
            None if r.change == Change::Failed => String::new(),
            None => "not dumped".into(),
        };
        // A pass manager on nested ops (functions, the kernel module) is a pass too.
        let what =
            if r.pass.ends_with("OpToOpPassAdaptor") { " <small>(nested pass manager: the indented passes above)</small>" } else { "" };
        let page = match &r.page {
            Some(p) => format!("<a href=\"{}\">diff</a>", escape(p)),
            None => String::new(),
        };
        body.push_str(&format!(
            "<tr class=\"{class}\"><td class=\"num\">{}</td><td style=\"{indent}\">{}{what}</td><td class=\"num\">{}</td><td>{}</td><td>{file}</td><td>{page}</td></tr>\n",
            r.ordinal,
            escape(&r.pass),
            millis(r.duration),
            escape(&change_text(r.change)),
        ));
    }
    body.push_str(
        "</tbody>\n</table>\n<p>Rows are in the order passes finished (the order of the dump files); a pass manager \
                   that runs passes on nested ops (functions, the kernel module) comes after its passes, which are indented \
                   under it. Times exclude writing the dump.</p>\n",
    );
    write(&dir.join("index.html"), &page(&format!("floors dump: {module}"), &body))?;
    if let Some(root) = dir.parent() {
        write_root_index(root)?;
    }
    Ok(())
}

/// `DIR/index.html`: every module folder of `DIR` that has an index.
pub fn write_root_index(root: &Path) -> Result<()> {
    let mut modules: Vec<String> = std::fs::read_dir(root)
        .map_err(|source| Error::Io { path: root.into(), source })?
        .flatten()
        .filter(|e| e.path().join("index.html").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    modules.sort();
    let mut body = String::from("<h1>floors dump</h1>\n<ul>\n");
    for m in &modules {
        body.push_str(&format!("<li><a href=\"{0}/index.html\">{0}</a></li>\n", escape(m)));
    }
    body.push_str("</ul>\n");
    write(&root.join("index.html"), &page("floors dump", &body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_count_lines() {
        assert_eq!(change_of("a\nb\n", "a\nb\n"), Change::Unchanged);
        assert_eq!(change_of("a\nb\nc\n", "a\nB\nc\nd\n"), Change::Changed { added: 2, removed: 1 });
        let html = diff_html("a\n<b>\nc\n", "a\nc\n");
        assert!(html.contains("<span class=\"del\">-&lt;b&gt;</span>"), "{html}");
        assert!(html.contains("@@ -1,3 +1,2 @@"), "{html}");
    }
}
