//! `cargo xtask matrix`: runs the action-support matrix (toolkit x widget x action, judged by
//! the fixtures' oracles) and prints its tables.

use anyhow::Context;

pub fn run() -> anyhow::Result<()> {
    crate::install::ensure_packages()?;
    let dir = crate::root().join("target/matrix");
    let _ = std::fs::remove_dir_all(&dir);
    let result = crate::cargo::cargo(&[
        "test",
        "-p",
        "deskpilot-cli",
        "--features",
        "e2e",
        "--test",
        "matrix",
    ]);
    let mut tables: Vec<_> = std::fs::read_dir(&dir)
        .with_context(|| format!("no tables in {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    tables.sort();
    for table in tables {
        println!("{}", std::fs::read_to_string(&table)?);
    }
    result
}
