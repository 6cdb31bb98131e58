//! `deskpilot mcp` spawned as hosts built on the official TypeScript SDK spawn it: with their
//! stdio transport's default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER only), v1 and
//! v2 clients. It then exited with code 2 before `initialize` ("no --bus given and
//! DBUS_SESSION_BUS_ADDRESS is not set"), and the client saw "Connection closed". Each run is
//! in a private mount namespace laid out as a user's session: the test desktop's runtime
//! directory at /run/user/<uid> and its X server the only socket in /tmp/.X11-unix. With no
//! session there, the server still answers and each tool fails `no_desktop`.

use std::path::PathBuf;
use std::process::Command;

use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::Value;

/// Where `cargo xtask install` puts the SDKs.
fn sdks() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("target/mcp-node");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").is_dir(),
        "the TypeScript SDKs are missing: run `cargo xtask install`"
    );
    // Node resolves an ES module's imports from where the script is: it runs from there.
    std::fs::copy(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/node/default_spawn.mjs"),
        dir.join("default_spawn.mjs"),
    )
    .unwrap();
    dir
}

/// The mounts that lay out a user's session in a private namespace: `runtime` (if any) as
/// /run/user/<uid>, and display `:N` as the only X server socket.
fn session_layout(runtime: Option<&str>, display: &str) -> String {
    let uid = nix::unistd::getuid().as_raw();
    let n = display.trim_start_matches(':');
    let mut script = format!(
        "set -e; mount -t tmpfs none /run; mkdir -p /run/user/{uid} /run/x11; \
         mount --bind /tmp/.X11-unix /run/x11; mount -t tmpfs none /tmp/.X11-unix; \
         touch /tmp/.X11-unix/X{n}; mount --bind /run/x11/X{n} /tmp/.X11-unix/X{n}; "
    );
    if let Some(runtime) = runtime {
        script.push_str(&format!("mount --bind '{runtime}' /run/user/{uid}; "));
    }
    script
}

/// list_apps through a TypeScript SDK client of `era` whose server is spawned with the SDK's
/// default environment, in a namespace laid out by `layout`.
fn list_apps_from(era: &str, layout: &str) -> Value {
    let dir = sdks();
    let script = format!(
        "{layout}exec node default_spawn.mjs {era} '{}' mcp --allow-input",
        env!("CARGO_BIN_EXE_deskpilot")
    );
    let out = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", &script])
        .current_dir(&dir)
        .output()
        .expect("unshare runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{era}: {stdout}\n{stderr}");
    serde_json::from_str(stdout.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{era}: {e}: {stdout}\n{stderr}"))
}

#[test]
fn typescript_hosts_default_spawn_finds_the_session() {
    let desktop = VirtualDesktop::start().unwrap();
    let _app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let runtime = desktop
        .session_bus_address()
        .strip_prefix("unix:path=")
        .and_then(|p| p.split(',').next())
        .and_then(|bus| bus.strip_suffix("/bus"))
        .expect("the desktop's bus is a socket in its runtime directory")
        .to_owned();
    for era in ["v1", "v2"] {
        let listed = list_apps_from(era, &session_layout(Some(&runtime), desktop.display()));
        let text = listed["content"][0]["text"].as_str().unwrap_or_default();
        assert_eq!(listed["isError"], false, "{era}: {listed}");
        assert!(text.contains("deskpilot-gtk3-fixture"), "{era}: {text}");
        assert!(
            text.contains("/run/user/<uid>/bus") && text.contains("the only X server socket"),
            "{era}: {text}"
        );
    }
    // No session there: initialize is answered, and the tool says what is missing.
    for era in ["v1", "v2"] {
        let listed = list_apps_from(era, &session_layout(None, desktop.display()));
        assert_eq!(listed["isError"], true, "{era}: {listed}");
        assert_eq!(
            listed["structuredContent"]["code"], "no_desktop",
            "{listed}"
        );
        let text = listed["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.contains("--bus") && text.contains("env"), "{text}");
    }
    desktop.stop().unwrap();
}
