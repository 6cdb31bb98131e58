//! Reach on real apps: tasks an agent could not do at all, driven through `deskpilot mcp` as
//! an agent would, each judged by an oracle that is not deskpilot (the file system, a second
//! AT-SPI client).

#[path = "support/agent.rs"]
mod agent;

use std::time::Duration;

use agent::{Agent, eventually};
use deskpilot_testkit::VirtualDesktop;
use serde_json::json;

/// Thunar's context menu on its empty view: "Create Folder..." lies in a popup the window
/// system does not manage, and the click was refused `window_not_foreground` (the semantic
/// rung is skipped for GTK 3 menu items, no key reaches it, and the pointer rung tried to
/// raise the popup). An item of an open popup is clicked where it is, hit-tested from the
/// popup. Its dialog shows what it asks ("Enter the name:", a label no field is named by).
/// Oracle: the folder on disk.
#[test]
fn a_folder_is_created_from_thunars_context_menu() {
    let desktop = VirtualDesktop::start().unwrap();
    let folder = desktop.dir().join("files");
    std::fs::create_dir_all(&folder).unwrap();
    let mut cmd = desktop.command("thunar");
    cmd.arg(&folder);
    let _thunar = desktop.launch(cmd).unwrap();
    let mut agent = Agent::start(&desktop);
    agent.connect("thunar");
    agent.wait_for("[name=\"Icon view\"]", json!({}));
    agent.ok(
        "click",
        json!({"target": "[name=\"Icon view\"]", "button": "right"}),
    );
    agent.wait_for("menuitem[name=\"Create Folder...\"]", json!({}));
    let clicked = agent.ok(
        "click",
        json!({"target": "menuitem[name=\"Create Folder...\"]"}),
    );
    assert_ne!(
        clicked["structuredContent"]["effect"],
        "noop",
        "{}",
        agent.transcript()
    );
    agent.wait_for("dialog[name=\"Create New Folder\"] >> textbox", json!({}));
    // The dialog says what it asks.
    let shown = agent.ok("snapshot", json!({}));
    let text = shown["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("label \"Enter the name:\""), "{text}");
    agent.ok(
        "set_value",
        json!({"target": "dialog >> textbox", "value": "Reports"}),
    );
    agent.ok("click", json!({"target": "dialog >> button[name=Create]"}));
    assert!(
        eventually(Duration::from_secs(10), || folder.join("Reports").is_dir()),
        "no folder on disk:\n{}",
        agent.transcript()
    );
    desktop.stop().unwrap();
}
