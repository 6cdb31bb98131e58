//! `cargo xtask tasks`: runs the real-app task suite (third-party apps driven through
//! `deskpilot mcp`, each judged by an oracle that is not deskpilot) and prints its table.

use anyhow::Context;

pub fn run() -> anyhow::Result<()> {
    crate::install::ensure_packages()?;
    let dir = crate::root().join("target/tasks");
    let _ = std::fs::remove_dir_all(&dir);
    let started = std::time::Instant::now();
    let result = crate::cargo::cargo(&[
        "test",
        "-p",
        "deskpilot-cli",
        "--features",
        "e2e",
        "--test",
        "tasks",
    ]);
    let mut rows: Vec<serde_json::Value> = std::fs::read_dir(&dir)
        .with_context(|| format!("no task rows in {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok())
        .collect();
    rows.sort_by_key(|r| r["task"].as_str().unwrap_or_default().to_owned());
    // What an agent pays: the catalog (instructions and tools/list) read once, then results.
    println!(
        "| task | app | covers | tool calls | output bytes | catalog bytes | paid | wall ms |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for row in &rows {
        let paid = row["bytes"].as_u64().unwrap_or(0) + row["catalog"].as_u64().unwrap_or(0);
        println!(
            "| {} | {} | {} | {} | {} | {} | {paid} | {} |",
            row["task"].as_str().unwrap_or_default(),
            row["apps"].as_str().unwrap_or_default(),
            row["covers"].as_str().unwrap_or_default(),
            row["calls"],
            row["bytes"],
            row["catalog"],
            row["wall_ms"]
        );
    }
    println!(
        "{} tasks passed (each judged by its oracle); suite wall time {:.0} s",
        rows.len(),
        started.elapsed().as_secs_f64()
    );
    result
}
