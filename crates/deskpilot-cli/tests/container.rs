//! deskpilot's image as a fleet runs it (built by `cargo xtask image --app mousepad`, which
//! `cargo xtask test` runs first): the Mousepad layer started with a token is ready on
//! `/readyz`, an agent's workflows over HTTP write and save a note, and the file inside the
//! container is the oracle. `podman stop` (SIGTERM) ends it with 0. Without a token it
//! refuses to start, saying why. deskpilot is in it as its Debian package (`cargo xtask deb`),
//! whose declared dependencies alone brought what it runs: dpkg and the binary say so.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use deskpilot_linux::headless::wait;
use serde_json::json;

#[path = "support/http.rs"]
mod http;
use http::{call, status, try_raw};

const IMAGE: &str = "localhost/deskpilot-mousepad:latest";
const TOKEN: &str = "container-token-0123456789";
const NOTE: &str = "Written in a container.";

/// `podman` with the repository's settings (deploy/containers.conf).
fn podman() -> Command {
    let conf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/containers.conf");
    let mut command = Command::new("podman");
    command.env("CONTAINERS_CONF", conf);
    command
}

fn output(command: &mut Command) -> Output {
    command.output().expect("podman runs")
}

fn text(out: &Output) -> String {
    let both = [&out.stdout, &out.stderr].map(|b| String::from_utf8_lossy(b).into_owned());
    both.join("\n")
}

/// A container of the test's, removed when dropped.
struct Container(String);

impl Container {
    /// The image started with `env`, its port 8931 on a free loopback port.
    fn start(name: &str, env: &[&str]) -> Container {
        let image = output(podman().args(["image", "exists", IMAGE]));
        assert!(
            image.status.success(),
            "no {IMAGE}: run `cargo xtask image --debug --app mousepad` (as root)"
        );
        let _ = output(podman().args(["rm", "-f", name]));
        let mut run = podman();
        run.args(["run", "-d", "--name", name, "-p", "127.0.0.1::8931"]);
        for pair in env {
            run.args(["-e", pair]);
        }
        let started = output(run.arg(IMAGE));
        assert!(started.status.success(), "{}", text(&started));
        Container(name.to_owned())
    }

    fn addr(&self) -> SocketAddr {
        let port = output(podman().args(["port", &self.0, "8931"]));
        let said = String::from_utf8_lossy(&port.stdout);
        said.lines()
            .next()
            .unwrap_or_default()
            .trim()
            .parse()
            .unwrap()
    }

    /// What `podman inspect` says of it (a Go template).
    fn inspect(&self, format: &str) -> String {
        let out = output(podman().args(["inspect", &self.0, "--format", format]));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }
}

impl Drop for Container {
    fn drop(&mut self) {
        let _ = output(podman().args(["rm", "-f", "-t", "5", &self.0]));
    }
}

/// `/readyz`'s answer; empty while nothing listens yet.
fn readyz(addr: SocketAddr) -> String {
    let request = format!("GET /readyz HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n");
    try_raw(addr, &request).unwrap_or_default()
}

#[test]
fn the_image_serves_its_app_and_stops_on_sigterm() {
    let name = format!("deskpilot-test-{}", std::process::id());
    let token = format!("DESKPILOT_TOKEN={TOKEN}");
    let container = Container::start(&name, &[&token]);
    let addr = container.addr();
    let ready = wait::until(Duration::from_secs(120), || {
        (status(&readyz(addr)) == "200").then_some(())
    });
    let logs = || text(&output(podman().args(["logs", &name])));
    assert!(ready.is_some(), "never ready: {}", logs());

    let bearer = format!("Bearer {TOKEN}");
    let auth = [("authorization", bearer.as_str())];
    let path = "/home/deskpilot/note.txt";
    for (workflow, inputs) in [
        ("write", json!({"text": NOTE})),
        ("save_as", json!({"path": path})),
    ] {
        let args = json!({"pack": "mousepad", "workflow": workflow, "inputs": inputs});
        let done = call(addr, &auth, "run_workflow", args);
        assert!(done.contains(r#""ok":true"#), "{workflow}: {done}");
    }
    let saved = output(podman().args(["exec", &name, "cat", path]));
    assert_eq!(String::from_utf8_lossy(&saved.stdout).trim_end(), NOTE);

    let stopped = output(podman().args(["stop", "-t", "30", &name]));
    assert!(stopped.status.success(), "{}", text(&stopped));
    assert_eq!(container.inspect("{{.State.ExitCode}}"), "0", "{}", logs());
}

#[test]
fn without_a_token_the_image_refuses_to_start_saying_why() {
    let name = format!("deskpilot-test-notoken-{}", std::process::id());
    let container = Container::start(&name, &[]);
    let ended = wait::until(Duration::from_secs(60), || {
        (container.inspect("{{.State.Status}}") == "exited").then_some(())
    });
    assert!(ended.is_some(), "it kept running");
    assert_ne!(container.inspect("{{.State.ExitCode}}"), "0");
    let logs = text(&output(podman().args(["logs", &name])));
    assert!(logs.contains("DESKPILOT_TOKEN"), "{logs}");
}

/// `deskpilot ARGS` in a new container of the image (its entry point replaced), with `stdin`.
fn in_image(program: &str, args: &[&str]) -> Command {
    let mut run = podman();
    run.args(["run", "--rm", "-i", "--entrypoint", program, IMAGE]);
    run.args(args);
    run
}

#[test]
fn the_debian_package_is_installed_and_its_binary_answers() {
    let version = env!("CARGO_PKG_VERSION");
    let status = output(&mut in_image(
        "dpkg-query",
        &["-W", "-f", "${Status} ${Version}", "deskpilot"],
    ));
    assert_eq!(
        text(&status).trim(),
        format!("install ok installed {version}-1")
    );
    let files = text(&output(&mut in_image("dpkg", &["-L", "deskpilot"])));
    for file in ["/usr/bin/deskpilot", "/usr/share/man/man1/deskpilot.1.gz"] {
        assert!(
            files.lines().any(|l| l == file),
            "the package lacks {file}: {files}"
        );
    }
    let said = output(&mut in_image("deskpilot", &["--version"]));
    assert_eq!(text(&said).trim(), format!("deskpilot {version}"));
    // `deskpilot mcp` on stdio answers `initialize` (no desktop in it: tools say so later).
    let mut mcp = in_image("deskpilot", &["mcp"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"}}});
    let mut stdin = mcp.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, format!("{request}\n").as_bytes()).unwrap();
    let stdout = mcp.stdout.take().unwrap();
    let (sent, answer) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line);
        let _ = sent.send(line);
    });
    let line = answer.recv_timeout(Duration::from_secs(120));
    // Its stdin closed, the server ends, and so does its container (`--rm`).
    drop(stdin);
    let ended = wait::until(Duration::from_secs(60), || mcp.try_wait().ok().flatten());
    if ended.is_none() {
        let _ = mcp.kill();
    }
    let reply: serde_json::Value = serde_json::from_str(&line.expect("no answer")).unwrap();
    assert_eq!(
        reply["result"]["serverInfo"]["name"], "deskpilot",
        "{reply}"
    );
    assert_eq!(reply["result"]["serverInfo"]["version"], version, "{reply}");
}
