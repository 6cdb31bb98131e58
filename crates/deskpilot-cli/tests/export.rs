//! `deskpilot export`, as a person runs it: a recording in, a test out (no desktop needed);
//! a log of a newer format refused with a message and a failing exit code.

use std::process::Command;

const LOG: &str = concat!(
    r#"{"kind":"header","version":1,"session":"s1","client":"claude-code","app":{"name":"mousepad","launched":["mousepad","--disable-server"]},"connect":{"app":"mousepad"}}"#,
    "\n",
    r#"{"kind":"call","seq":1,"tool":"type_text","args":{"target":"e9","text":"Dear diary"},"elements":[{"arg":"target","given":"e9","locator":"textbox","basis":"role"}],"ok":true,"effect":"confirmed","evidence":[{"value":{"value":"Dear diary"}}]}"#,
    "\n"
);

fn deskpilot() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_deskpilot"));
    // No desktop: export needs none.
    command
        .env_remove("DISPLAY")
        .env_remove("DBUS_SESSION_BUS_ADDRESS");
    command
}

#[test]
fn a_recording_becomes_a_test_file() {
    let dir = tempfile::tempdir().unwrap();
    let (log, out) = (dir.path().join("s1.jsonl"), dir.path().join("replay.rs"));
    std::fs::write(&log, LOG).unwrap();
    let run = deskpilot()
        .args(["export", log.to_str().unwrap(), "--as", "test", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let test = std::fs::read_to_string(&out).unwrap();
    assert!(
        test.contains(r#"desktop.launch(["mousepad", "--disable-server"])"#),
        "{test}"
    );
    assert!(
        test.contains(r#"app.locator("textbox").type_text("Dear diary")"#),
        "{test}"
    );
    assert!(test.contains(r#"to_have_value("Dear diary")"#), "{test}");

    std::fs::write(&log, LOG.replacen(r#""version":1"#, r#""version":9"#, 1)).unwrap();
    let refused = deskpilot()
        .args(["export", log.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("format version 9"), "{said}");
}
