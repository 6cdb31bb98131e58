//! `cargo xtask demo`: a headless desktop with the GTK3 fixture, and deskpilot at work on it,
//! narrated on the terminal. The desktop and its engine come from `deskpilot_desktop`, as
//! for every face. It grows with each capability.

use std::process::Command;

use anyhow::{Context, anyhow, bail};
use deskpilot_core::Engine;
use deskpilot_testkit::{Fixture, VirtualDesktop};

pub fn run() -> anyhow::Result<()> {
    crate::install::ensure(crate::install::DESKTOP_PACKAGES)?;
    crate::cargo::cargo(&["build", "--package", "deskpilot-cli"])?;
    let deskpilot = crate::root().join("target/debug/deskpilot");

    say("Starting a private headless desktop (Xvfb, D-Bus session, AT-SPI bus, openbox)");
    let (runtime, engine, desktop) = start_desktop()?;
    println!(
        "    DISPLAY={}  session bus={}",
        desktop.display(),
        desktop.session_bus_address()
    );
    say("Launching the GTK3 fixture app and waiting until it registers on the AT-SPI bus");
    let fixture = desktop
        .launch_fixture(Fixture::Gtk3)
        .context("launching the GTK3 fixture")?;
    println!("    pid {}", fixture.pid());

    let run = |args: &[&str]| -> anyhow::Result<()> {
        println!("\n$ deskpilot {}", args.join(" "));
        let started = std::time::Instant::now();
        let output = Command::new(&deskpilot)
            .args(args)
            .arg("--bus")
            .arg(desktop.session_bus_address())
            .output()
            .context("running deskpilot")?;
        print!("{}", String::from_utf8_lossy(&output.stdout));
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
        println!(
            "    ({} ms, {})",
            started.elapsed().as_millis(),
            output.status
        );
        if !output.status.success() {
            bail!("deskpilot {} failed", args.join(" "));
        }
        Ok(())
    };
    say("What applications are on this desktop? In process, as deskpilot-test asks");
    let apps = runtime
        .block_on(engine.list_apps())
        .context("listing apps")?;
    print!("{}", deskpilot_core::present::apps(&apps));
    say("The same through the command line");
    run(&["apps"])?;
    say("The fixture's window as an agent reads it (interactive filter)");
    run(&["snapshot", Fixture::Gtk3.window_title()])?;

    say(
        "An agent's view: the same through `deskpilot mcp --allow-input` (the MCP server), as an MCP host speaks it",
    );
    mcp_session(&deskpilot, &desktop)?;

    say("What the fixture itself saw (its oracle: one JSON line per state change)");
    show_oracle(&fixture)?;
    let shot = desktop.dir().join("demo-screenshot.png");
    if shot.exists() {
        let keep = crate::root().join("target/demo-screenshot.png");
        std::fs::copy(&shot, &keep).context("keeping the screenshot")?;
        println!("    screenshot with ref labels: {}", keep.display());
    }

    say("Stopping the desktop and every process it started");
    drop(fixture);
    drop(engine);
    if let Err(left) = desktop.stop() {
        bail!("processes survived teardown: {left:?}");
    }
    println!("    done: no process left behind");
    Ok(())
}

/// The one desktop wiring every face uses: a private desktop and the engine on it.
fn start_desktop() -> anyhow::Result<(tokio::runtime::Runtime, Engine, VirtualDesktop)> {
    let runtime = tokio::runtime::Runtime::new().context("starting tokio")?;
    let (engine, headless) = runtime
        .block_on(deskpilot_desktop::private())
        .map_err(|missing| anyhow!("starting the desktop: {missing} ({})", missing.hint))?;
    Ok((runtime, engine, VirtualDesktop::wrap(headless)))
}

/// The last value of each property the fixture reported (typing reports every keystroke);
/// the fixture's password text is its own test aid and is not shown here either.
fn show_oracle(fixture: &deskpilot_testkit::FixtureApp) -> anyhow::Result<()> {
    let mut last: Vec<(String, serde_json::Value)> = Vec::new();
    for event in fixture.oracle.events().context("reading the oracle")? {
        let key = format!("{}.{}", event.widget, event.prop);
        if ["app.ready", "fruits.order", "tabs.page", "password.text"].contains(&key.as_str()) {
            continue;
        }
        last.retain(|(k, _)| *k != key);
        last.push((key, event.value));
    }
    for (key, value) in last {
        println!("    {key} = {value}");
    }
    Ok(())
}

fn say(what: &str) {
    println!("\n== {what}");
}

/// Drives the fixture through `deskpilot mcp` with a line-by-line MCP client, printing each
/// call and what the model would read.
fn mcp_session(deskpilot: &std::path::Path, desktop: &VirtualDesktop) -> anyhow::Result<()> {
    use serde_json::json;
    let mut cmd = Command::new(deskpilot);
    cmd.args([
        "mcp",
        "--allow-input",
        "--bus",
        desktop.session_bus_address(),
        "--display",
        desktop.display(),
    ]);
    let mut client = deskpilot_testkit::McpClient::spawn(cmd).context("starting deskpilot mcp")?;
    let init = client.initialize();
    println!(
        "    initialize -> {} {}",
        init["result"]["serverInfo"]["name"], init["result"]["protocolVersion"]
    );
    let tools = client.request("tools/list", json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    println!("    tools/list -> {}", names.join(", "));
    let mut call = |tool: &str, args: serde_json::Value| -> anyhow::Result<serde_json::Value> {
        println!("\n  > {tool} {args}");
        let result = client.call(tool, args);
        let text = result["content"][0]["text"].as_str().unwrap_or("");
        for line in text.lines().take(30) {
            println!("    {line}");
        }
        if text.lines().count() > 30 {
            println!("    ... ({} lines in all)", text.lines().count());
        }
        if result["isError"] == true {
            bail!("{tool} failed: {text}");
        }
        Ok(result)
    };
    call("list_apps", json!({}))?;
    let connected = call("connect", json!({"window": Fixture::Gtk3.window_title()}))?;
    let session = connected["structuredContent"]["session"]
        .as_str()
        .context("connect returned a session")?
        .to_owned();
    call("snapshot", json!({"session": session}))?;
    call(
        "find",
        json!({"session": session, "selector": "checkbox[name*=notif]"}),
    )?;
    call(
        "read_table",
        json!({"session": session, "target": "table[name=Inventory]", "first_row": 10, "rows": 5}),
    )?;
    // Acting, each effect read back: the app's own semantics first, keys and the pointer when
    // they do nothing.
    call(
        "act",
        json!({"session": session, "target": "checkbox[name*=notif]", "verb": "check"}),
    )?;
    call(
        "click",
        json!({"session": session, "target": "button[name=Count]"}),
    )?;
    call(
        "set_value",
        json!({"session": session, "target": "textbox[name=Name]", "value": "Ada"}),
    )?;
    call(
        "type_text",
        json!({"session": session, "target": "textbox[name=Name]", "text": " Lovelace ✓"}),
    )?;
    call(
        "type_text",
        json!({"session": session, "target": "password", "text": "not shown anywhere"}),
    )?;
    call(
        "set_value",
        json!({"session": session, "target": "spinbutton[name=Quantity]", "value": 250}),
    )
    .ok(); // refused with value_clamped: shown, not fatal
    call(
        "act",
        json!({"session": session, "target": "listitem[name=Cherry]", "verb": "select"}),
    )?;
    call(
        "click",
        json!({"session": session, "target": "menu[name=File]"}),
    )?;
    call(
        "click",
        json!({"session": session, "target": "menuitem[name=Open]"}),
    )?;
    call("snapshot", json!({"session": session}))?;
    let shot = desktop.dir().join("demo-screenshot.png");
    call(
        "screenshot",
        json!({"session": session, "path": shot.to_str().context("path")?}),
    )?;
    let status = client.close(std::time::Duration::from_secs(5));
    println!(
        "\n    stdin closed -> deskpilot mcp exited ({})",
        status.map_or("still running".into(), |s| s.to_string())
    );
    Ok(())
}
