//! After a benchmark: its numbers, with the date and the commit, into `docs/benchmarks.md`
//! (the section between `<!-- bench:NAME -->` markers, replaced at each run).

use std::path::Path;
use std::process::Command;

use anyhow::Context;
use serde_json::Value;

/// Writes the run of benchmark `which` (its `target/bench/WHICH.json`) into the document.
pub fn record(root: &Path, which: &str) -> anyhow::Result<()> {
    let json = root.join(format!("target/bench/{which}.json"));
    let text = std::fs::read_to_string(&json).with_context(|| format!("reading {json:?}"))?;
    let results: Value = serde_json::from_str(&text)?;
    let stamp = format!("{}, commit {}", today()?, commit(root)?);
    let doc = root.join("docs/benchmarks.md");
    let before = std::fs::read_to_string(&doc)?;
    let after = with_section(&before, which, &section(which, &stamp, &results));
    std::fs::write(&doc, after)?;
    eprintln!("xtask: {which}'s numbers written to docs/benchmarks.md ({stamp})");
    Ok(())
}

fn today() -> anyhow::Result<String> {
    let out = Command::new("date").args(["-u", "+%Y-%m-%d"]).output()?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The commit measured, `-dirty` when the work tree had changes (this document's own aside).
fn commit(root: &Path) -> anyhow::Result<String> {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let head = git(&["rev-parse", "--short", "HEAD"])?;
    let status = [
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ".",
        ":!docs/benchmarks.md",
    ];
    let dirty = !git(&status)?.is_empty();
    Ok(if dirty { format!("{head}-dirty") } else { head })
}

fn section(which: &str, stamp: &str, results: &Value) -> String {
    let mut lines = vec![
        format!("### `cargo xtask bench {which}`: {stamp}"),
        String::new(),
    ];
    let mut numbers = Vec::new();
    flatten("", results, &mut numbers);
    lines.extend(
        numbers
            .into_iter()
            .map(|(key, value)| format!("- {key}: {value}")),
    );
    format!(
        "<!-- bench:{which} -->\n{}\n<!-- /bench:{which} -->",
        lines.join("\n")
    )
}

/// Numeric leaves as `path: value`. An array's objects are named by their first text field;
/// arrays of bare numbers (the runs behind a median) are left out.
fn flatten(path: &str, value: &Value, out: &mut Vec<(String, String)>) {
    let join = |key: &str| {
        if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path} / {key}")
        }
    };
    match value {
        Value::Number(n) => {
            let shown = n
                .as_f64()
                .map_or_else(|| n.to_string(), |f| format!("{f:.1}"));
            out.push((path.to_owned(), shown.trim_end_matches(".0").to_owned()));
        }
        Value::Object(map) => {
            for (key, inner) in map {
                flatten(&join(key), inner, out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let name = item
                    .as_object()
                    .and_then(|o| o.values().find_map(Value::as_str))
                    .map_or_else(|| i.to_string(), str::to_owned);
                if item.is_object() {
                    flatten(&join(&name), item, out);
                }
            }
        }
        _ => {}
    }
}

/// `doc` with the section of `which` replaced, or added at the end.
fn with_section(doc: &str, which: &str, section: &str) -> String {
    let (open, close) = (
        format!("<!-- bench:{which} -->"),
        format!("<!-- /bench:{which} -->"),
    );
    if let (Some(start), Some(end)) = (doc.find(&open), doc.find(&close)) {
        return format!("{}{section}{}", &doc[..start], &doc[end + close.len()..]);
    }
    let mut out = doc.trim_end().to_owned();
    if !out.contains("\n## Last runs") {
        out.push_str("\n\n## Last runs\n\nWritten by `cargo xtask bench` after each run.");
    }
    format!("{out}\n\n{section}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_added_then_replaced() {
        let act = serde_json::json!({"runs": 10, "actions": [
            {"action": "plain click", "median_ms": 631.36, "runs_ms": [584.6, 592.5]},
            {"action": "toggle", "median_ms": 212.0}
        ]});
        let doc = "# Benchmarks\n\nProse.\n";
        let first = with_section(doc, "act", &section("act", "2026-12-02, commit abc", &act));
        assert!(first.contains("## Last runs"), "{first}");
        assert!(
            first.contains("- actions / plain click / median_ms: 631.4"),
            "{first}"
        );
        assert!(
            first.contains("- actions / toggle / median_ms: 212\n"),
            "{first}"
        );
        assert!(first.contains("- runs: 10"), "{first}");
        assert!(!first.contains("584.6"), "{first}");
        let again = section("act", "2026-12-03, commit def", &act);
        let second = with_section(&first, "act", &again);
        assert_eq!(second.matches("<!-- bench:act -->").count(), 1, "{second}");
        assert!(second.contains("commit def") && !second.contains("commit abc"));
        assert!(second.starts_with("# Benchmarks\n\nProse.\n"));
    }
}
