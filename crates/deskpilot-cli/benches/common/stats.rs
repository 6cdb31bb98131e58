//! Percentiles, the texts of tool results and where reports go, shared by the server
//! benchmarks.

use serde_json::Value;

pub fn percentile(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() - 1) as f64 * p).round() as usize]
}

pub fn text_of(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {result}"))
        .to_owned()
}

pub fn ms(v: &[f64]) -> String {
    format!(
        "p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        percentile(v.to_vec(), 0.5),
        percentile(v.to_vec(), 0.95),
        percentile(v.to_vec(), 1.0)
    )
}

/// p50 and p95 as JSON, for the report.
pub fn p50_p95(v: &[f64]) -> Value {
    serde_json::json!({"p50": percentile(v.to_vec(), 0.5), "p95": percentile(v.to_vec(), 0.95)})
}

/// Where reports go: the workspace's `target/bench`, which `cargo xtask bench` reads
/// (`xtask/src/bench_record.rs`), whatever `CARGO_TARGET_DIR` says.
pub fn bench_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `report` as `target/bench/NAME.json`.
pub fn write_report(name: &str, report: &Value) {
    let json = serde_json::to_string_pretty(report).unwrap();
    std::fs::write(bench_dir().join(format!("{name}.json")), json).unwrap();
}
