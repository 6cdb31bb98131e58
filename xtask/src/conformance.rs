//! `cargo xtask conformance`: the official MCP conformance suite, pinned, against `deskpilot
//! mcp --http`, once per protocol era (the scenarios each revision requires), for two builds:
//! the product, and the test-only server of `deskpilot-conformance`, which serves the suite's
//! own fixtures (tools, resources and prompts named `test_*`) beside deskpilot's. Each run's known failures are in
//! `conformance/<build>-<era>.yml`, each with its reason; any other failure, and any listed
//! failure that passes, fails the run.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use anyhow::{Context, bail};

/// The suite, and the Node.js it needs (22 or later; the machine's may be older).
const SUITE: &str = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
const NODE_VERSION: &str = "22.23.5";
/// The protocol revisions whose required scenarios run.
const ERAS: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// Runs the suite against the binaries of `build_of` (`Built`: the test run's own).
pub fn run(build_of: crate::image::Build) -> anyhow::Result<()> {
    let node_package = format!("node-linux-{}@{NODE_VERSION}", node_arch()?);
    let dir = crate::node::ensure_in("target/mcp-conformance", &[SUITE, &node_package])?;
    let node = dir.join(format!("node_modules/node-linux-{}/bin/node", node_arch()?));
    let suite = dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    let out = crate::root().join("target/conformance");
    std::fs::create_dir_all(&out)?;
    if build_of != crate::image::Build::Built {
        crate::cargo::cargo(&[
            "build",
            "-p",
            "deskpilot-cli",
            "-p",
            "deskpilot-conformance",
        ])?;
    }
    let product = (
        crate::root().join("target/debug/deskpilot"),
        &["mcp", "--http", "127.0.0.1:0", "--no-token"][..],
    );
    let fixtures = (
        crate::root().join("target/debug/deskpilot-conformance"),
        &["--http", "127.0.0.1:0"][..],
    );
    let mut failed = Vec::new();
    for (build, (binary, args)) in [("product", product), ("fixtures", fixtures)] {
        let server = Server::start(&binary, args, &out.join(format!("{build}-server.log")))?;
        for era in ERAS {
            eprintln!("xtask: conformance, {build} build, {era}");
            let baseline = crate::root().join(format!("conformance/{build}-{era}.yml"));
            let status = Command::new(&node)
                .arg(&suite)
                .args(["server", "--url", &server.url, "--requirements", era])
                .arg("--expected-failures")
                .arg(&baseline)
                .arg("-o")
                .arg(out.join(format!("results/{build}-{era}")))
                .status()
                .context("running the conformance suite")?;
            if !status.success() {
                failed.push(format!("{build} build, {era}"));
            }
        }
    }
    if !failed.is_empty() {
        bail!(
            "the conformance suite failed: {} (results in target/conformance/results)",
            failed.join("; ")
        );
    }
    Ok(())
}

/// The npm name of this machine's architecture for Node.js's binary packages.
fn node_arch() -> anyhow::Result<&'static str> {
    match std::env::consts::ARCH {
        "x86_64" => Ok("x64"),
        "aarch64" => Ok("arm64"),
        other => bail!("no Node.js package for {other}"),
    }
}

/// An MCP server over HTTP on a free loopback port, without a desktop, stopped when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(binary: &Path, args: &[&str], log: &Path) -> anyhow::Result<Self> {
        let mut child = Command::new(binary)
            .args(args)
            .env_remove("DISPLAY")
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            .env_remove("DESKPILOT_TOKEN")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        let stderr = child.stderr.take().expect("piped");
        let mut lines = BufReader::new(stderr).lines();
        let mut url = None;
        for line in lines.by_ref() {
            let line = line?;
            if let Some(at) = line.strip_prefix("deskpilot: serving MCP at ") {
                url = Some(at.trim().to_owned());
                break;
            }
        }
        let Some(url) = url else {
            let _ = child.kill();
            bail!("{} ended before it served", binary.display());
        };
        // The rest of its log, kept (and its pipe drained).
        let mut file = std::fs::File::create(log)?;
        std::thread::spawn(move || {
            use std::io::Write;
            for line in lines.map_while(Result::ok) {
                let _ = writeln!(file, "{line}");
            }
        });
        Ok(Server { child, url })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
