//! App packs over MCP: `packs` lists and describes them, `validate_pack` checks one without
//! installing it, `reload_packs` replaces the set only when the new one has no error.

use std::path::Path;
use std::sync::Arc;

use deskpilot_mcp::packs::set::Sources;
use deskpilot_mcp::{DeskpilotServer, Grants};
use serde_json::{Value, json};

mod support;
use support::call;

const APP: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Main" bounds=0,0,800,600
    textbox "Text" id=text bounds=10,10,300,30
"#;

fn write_pack(dir: &Path, controls: Value) {
    std::fs::create_dir_all(dir).unwrap();
    let files = [
        ("manifest.json", json!({"id": "editor", "version": "1.0.0"})),
        ("profile.json", json!({"main_window": {"app": "Editor"}})),
        ("controls.json", controls),
    ];
    for (name, value) in files {
        std::fs::write(dir.join(name), value.to_string()).unwrap();
    }
}

fn good_controls() -> Value {
    json!({"controls": {"main": {"selectors": ["window"]}, "text": {"selectors": ["textbox"], "within": "main"}}})
}

async fn server(root: &Path) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    let (_, _, engine) = support::fake_desktop(APP);
    let files = root.parent().unwrap();
    let grants = Grants::parse(&["files".to_owned()], Some(files)).unwrap();
    let packs = Sources {
        roots: vec![root.to_owned()],
        user: None,
        shipped: Vec::new(),
    };
    support::client_for(DeskpilotServer::with_packs(Arc::new(engine), grants, packs)).await
}

fn structured(result: &rmcp::model::CallToolResult) -> Value {
    result.structured_content.clone().unwrap_or_default()
}

#[tokio::test]
async fn packs_are_listed_described_and_checked() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("packs");
    write_pack(&root.join("editor"), good_controls());
    let client = server(&root).await;
    let listed = structured(&call(&client, "packs", json!({})).await);
    assert_eq!(listed["packs"][0]["id"], "editor", "{listed}");
    let described = structured(&call(&client, "packs", json!({"pack": "editor"})).await);
    assert_eq!(
        described["pack"]["controls"]["text"]["within"], "main",
        "{described}"
    );
    let checked = call(
        &client,
        "validate_pack",
        json!({"dir": root.join("editor")}),
    )
    .await;
    assert_eq!(structured(&checked)["valid"], true, "{checked:?}");
    let elsewhere = call(&client, "validate_pack", json!({"dir": "/etc/ssh"})).await;
    let code = &structured(&elsewhere)["code"];
    assert_eq!(code, "invalid_arguments", "{elsewhere:?}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_reload_with_an_error_keeps_the_packs_before() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("packs");
    write_pack(&root.join("editor"), good_controls());
    let client = server(&root).await;
    let broken = json!({"controls": {"text": {"selectors": ["textbox"], "within": "gone"}}});
    write_pack(&root.join("editor"), broken);
    let reload = structured(&call(&client, "reload_packs", json!({})).await);
    assert_eq!(reload["reloaded"], false, "{reload}");
    assert_eq!(reload["errors"][0]["code"], "unknown_control", "{reload}");
    assert_eq!(
        reload["errors"][0]["path"], "/controls/text/within",
        "{reload}"
    );
    let described = structured(&call(&client, "packs", json!({"pack": "editor"})).await);
    assert_eq!(
        described["pack"]["controls"]["main"]["selector"], "window",
        "{described}"
    );
    write_pack(&root.join("editor"), good_controls());
    let reload = structured(&call(&client, "reload_packs", json!({})).await);
    assert_eq!(reload["reloaded"], true, "{reload}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_probe_drafts_a_pack_that_validates() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("packs");
    std::fs::create_dir_all(&root).unwrap();
    let client = server(&root).await;
    let connected = structured(&call(&client, "connect", json!({"app": "Editor"})).await);
    let session = connected["session"].as_str().unwrap().to_owned();
    let draft_dir = home.path().join("draft");
    let probe = json!({"session": session, "dir": draft_dir});
    let drafted = structured(&call(&client, "probe_app", probe).await);
    let controls = &drafted["files"]["controls.json"]["controls"];
    assert_eq!(
        controls["textbox_text"]["selectors"][0], r#"textbox[id="text"]"#,
        "{drafted}"
    );
    assert_eq!(
        drafted["files"]["manifest.json"]["id"], "editor",
        "{drafted}"
    );
    let checked = call(&client, "validate_pack", json!({"dir": draft_dir})).await;
    assert_eq!(structured(&checked)["valid"], true, "{checked:?}");
    // As probe_app takes it: relative to the files directory.
    let relative = call(&client, "validate_pack", json!({"dir": "draft"})).await;
    assert_eq!(structured(&relative)["valid"], true, "{relative:?}");
    client.cancel().await.unwrap();
}
