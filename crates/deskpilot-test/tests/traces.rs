//! Traces: a test with a failed step leaves one self-contained HTML file (and a JSON lines
//! log) with every step, the tree and a screenshot before and after; a password typed during
//! the test appears in neither, nor do its keystrokes; a passing test kept only on failure
//! leaves nothing.

use std::time::Duration;

use deskpilot_test::{Desktop, Role, TraceMode, expect};
use serde_json::json;

const PASSWORD: &str = "Tr0ub4dor&3-hunter2";
const TOKEN: &str = "api-token-Q7vX9";

mod support;
use support::gtk3_fixture as fixture;

#[tokio::test]
async fn a_failed_step_leaves_a_trace_without_the_password() {
    let desktop = Desktop::headless()
        .await
        .unwrap()
        .with_trace(TraceMode::RetainOnFailure);
    let dir = desktop.trace_dir().unwrap().to_owned();
    let (app, oracle) = fixture(&desktop).await;
    let password = app.get_by_role(Role::Password);
    password.fill_secret(PASSWORD).await.unwrap();
    password.type_secret("xyzzy-more").await.unwrap();
    // The fixture's oracle saw the whole secret: it was typed.
    oracle
        .wait_value(
            "password",
            "length",
            json!(PASSWORD.len() + "xyzzy-more".len()),
            Duration::from_secs(5),
        )
        .unwrap();
    app.get_by_role(Role::TextBox)
        .name("Name")
        .fill("Ada")
        .await
        .unwrap();
    // A secret in a field that shows its text: kept out of the trees, and no screenshot is
    // taken from then on (the screen shows it).
    app.get_by_role(Role::TextBox)
        .name("Notes")
        .fill_secret(TOKEN)
        .await
        .unwrap();
    let failed = expect(&app.get_by_name("Launch the rockets"))
        .timeout(Duration::from_millis(200))
        .to_be_visible()
        .await;
    assert!(failed.is_err());
    drop(app);
    drop(desktop);

    let html = std::fs::read_to_string(dir.join("trace.html")).expect("a trace was written");
    let jsonl = std::fs::read_to_string(dir.join("trace.jsonl")).unwrap();
    assert!(html.contains("failed, 5 steps"), "{}", &html[..300]);
    assert!(
        html.contains("data:image/png;base64,"),
        "screenshots are inline"
    );
    let steps: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let titles: Vec<&str> = steps.iter().map(|s| s["title"].as_str().unwrap()).collect();
    assert_eq!(
        titles,
        [
            "fill a secret of 19 characters password",
            "type a secret of 10 characters password",
            "fill \"Ada\" textbox[name=\"Name\"]",
            "fill a secret of 15 characters textbox[name=\"Notes\"]",
            "expect *[name=\"Launch the rockets\"] to be visible",
        ]
    );
    assert_eq!(steps[4]["ok"], false);
    assert!(steps[3]["before"]["screenshot"].as_str().is_some());
    assert!(
        steps[3]["after"]["screenshot"].is_null(),
        "no picture once it shows"
    );
    assert!(steps[4]["before"]["screenshot"].is_null());
    // The engine shows the text of a field given secret text as a length (the trace's own
    // redaction has nothing left to replace there).
    assert!(
        steps[3]["after"]["tree"]
            .as_str()
            .unwrap()
            .contains("textbox \"Notes\": [redacted 15 chars]"),
        "{}",
        steps[3]["after"]["tree"]
    );
    assert!(
        steps[0]["before"]["tree"]
            .as_str()
            .unwrap()
            .contains("password")
    );
    assert!(steps[2]["after"]["screenshot"].as_str().is_some());
    for text in [&html, &jsonl] {
        for secret in [PASSWORD, "xyzzy-more", "hunter2", "xyzzy", TOKEN, "Q7vX9"] {
            assert!(!text.contains(secret), "{secret} leaked into the trace");
        }
        // Keystrokes would show as keys sent, one by one.
        assert!(!text.contains("key x"), "a keystroke leaked");
    }
}

#[tokio::test]
async fn a_passing_test_keeps_no_trace_when_only_failures_are_kept() {
    let desktop = Desktop::headless()
        .await
        .unwrap()
        .with_trace(TraceMode::RetainOnFailure);
    let dir = desktop.trace_dir().unwrap().to_owned();
    let (app, _oracle) = fixture(&desktop).await;
    expect(&app.get_by_role(Role::Button).name("Count"))
        .to_be_visible()
        .await
        .unwrap();
    drop(app);
    drop(desktop);
    assert!(!dir.exists(), "{} was kept", dir.display());
}
