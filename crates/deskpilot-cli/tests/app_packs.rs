//! The shipped app packs on the apps they describe, through `deskpilot mcp --allow
//! input,launch` driven by the official MCP Python SDK (tests/python/sdk_packs.py). The
//! server starts Mousepad, gnome-calculator and LibreOffice Writer from their packs'
//! profiles. Every workflow is judged by an oracle that is not deskpilot: the files Mousepad
//! and Writer write, pyatspi reading Mousepad and the calculator, the GTK 3 fixture's events.

#[path = "support/agent.rs"]
mod agent;

use agent::file_text;
use deskpilot_testkit::{Fixture, SYSTEM_PYTHON, VirtualDesktop, pyatspi_nodes};
use serde_json::{Value, json};

/// A user's pack for the fixture whose `open_dialog` lists an older name first: the second
/// selector finds it, and the result says the pack has drifted.
fn drifted_pack(root: &std::path::Path) {
    let dir = root.join("fixture-drifted");
    std::fs::create_dir_all(&dir).unwrap();
    let files = [
        (
            "manifest.json",
            json!({"id": "fixture-drifted", "version": "1.0.0", "visibility": "hidden"}),
        ),
        (
            "profile.json",
            json!({"main_window": {"app": "deskpilot-gtk3-fixture"}}),
        ),
        (
            "controls.json",
            json!({"controls": {"open_dialog": {"selectors": [
                "button[name=\"Open the dialog\"]", "button[name*=\"Open dialog\"]"
            ]}}}),
        ),
    ];
    for (name, value) in files {
        std::fs::write(dir.join(name), value.to_string()).unwrap();
    }
}

/// The member `name` of the zip file at `path` (a Word or ODF document), read by Python's
/// zipfile once the file is whole.
fn zipped(desktop: &VirtualDesktop, path: &std::path::Path, name: &str) -> String {
    let read = || {
        let output = desktop
            .command(SYSTEM_PYTHON)
            .args(["-c", "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())"])
            .arg(path)
            .arg(name)
            .output()
            .unwrap();
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let mut text = None;
    let whole = agent::eventually(std::time::Duration::from_secs(20), || {
        text = read();
        text.is_some()
    });
    assert!(whole, "{} never became a document", path.display());
    text.unwrap_or_default()
}

#[test]
fn shipped_packs_run_their_workflows_judged_by_their_apps() {
    let python = deskpilot_testkit::sdk_python();
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let diary = desktop.dir().join("diary.txt");
    let minutes = desktop.dir().join("minutes.docx");
    let user_packs = desktop.dir().join("user-packs");
    drifted_pack(&user_packs);
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/sdk_packs.py");
    let output = desktop
        .command(python)
        .arg(script)
        .args([
            env!("CARGO_BIN_EXE_deskpilot"),
            diary.to_str().unwrap(),
            user_packs.to_str().unwrap(),
            minutes.to_str().unwrap(),
        ])
        // LibreOffice shows itself on AT-SPI with its GTK 3 toolkit only; no desktop
        // environment here tells it which to pick. The server passes this on to it.
        .env("SAL_USE_VCLPLUGIN", "gtk3")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    println!("{report}");

    // Prompts: the listed packs' workflows, none of a hidden pack; arguments converted and
    // checked by the input schema.
    let prompts: Vec<&str> = report["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for name in [
        "mousepad.save_as",
        "mousepad.new_document",
        "gnome-calculator.compute",
    ] {
        assert!(prompts.contains(&name), "{prompts:?}");
    }
    assert!(
        !prompts.iter().any(|p| p.starts_with("gtk3-fixture.")),
        "{prompts:?}"
    );
    assert_eq!(report["save_as_arguments"], json!([["path", true]]));
    let asked = r#"run_workflow with {"inputs":{"path":"/tmp/x.txt"},"pack":"mousepad","workflow":"save_as"}"#;
    assert!(
        report["prompt_text"].as_str().unwrap().contains(asked),
        "{report}"
    );
    assert!(
        report["prompt_refused"].as_str().unwrap().contains("/path"),
        "{report}"
    );

    // Mousepad, started by the server: the text typed once, saved where asked (the file is
    // the oracle); a relative path refused by the schema before any step; a new document
    // pyatspi sees.
    assert_eq!(report["write"], json!([false, true, ["passed"]]));
    let refused = &report["save_as_refused"];
    assert_eq!(
        (&refused[0], &refused[1]),
        (&json!(true), &json!("workflow_input_invalid"))
    );
    assert!(refused[2].as_str().unwrap().contains("/path"), "{refused}");
    assert_eq!(
        report["save_as"],
        json!([false, ["passed", "passed", "passed", "passed"]])
    );
    assert_eq!(file_text(&diary).trim_end(), "Dear diary");
    assert_eq!(report["new_document"], json!([false, ["passed", "passed"]]));
    let mousepad = pyatspi_nodes(desktop.command(SYSTEM_PYTHON), "mousepad");
    assert!(
        mousepad
            .iter()
            .any(|n| n["role"] == "page tab" && n["name"].as_str().unwrap().contains("Untitled")),
        "pyatspi sees no new document: {mousepad:?}"
    );
    assert_eq!(report["mismatch"], json!([true, "pack_mismatch"]));

    // gnome-calculator, started by the server: pyatspi reads the product.
    assert_eq!(
        report["compute"],
        json!([false, true, ["passed", "passed", "passed"], "42"])
    );
    assert!(desktop.pyatspi_shows("gnome-calculator", "42"));
    assert_eq!(report["clear"], json!([false, ["passed"]]));

    // LibreOffice Writer, started by the server: a format it does not offer is refused by
    // the schema; the paragraph typed is in the Word file it wrote (read by Python's zipfile).
    assert_eq!(
        report["type_paragraph"],
        json!([false, true, ["passed", "passed"]])
    );
    assert_eq!(
        report["writer_refused"],
        json!([true, "workflow_input_invalid"])
    );
    assert_eq!(
        report["writer_save_as"],
        json!([false, ["passed", "passed", "passed", "passed", "passed"]])
    );
    let document = zipped(&desktop, &minutes, "word/document.xml");
    assert!(document.contains("Minutes of the meeting."), "{document}");

    // The fixture (already running): the form filled; the failed run continued once the
    // dialog was open, which the drifted user pack's second selector found.
    assert_eq!(
        report["fill_form"],
        json!([false, true, ["passed", "passed"]])
    );
    assert_eq!(report["apply_failed"], json!([true, "not_found", "ok"]));
    assert_eq!(report["drifted"], json!([false, 2, true, true]));
    assert_eq!(report["continued"], json!([false, ["passed"]]));
    let events = fixture.oracle.events().unwrap();
    let last = |widget: &str, prop: &str| {
        events
            .iter()
            .rev()
            .find(|e| e.is(widget, prop))
            .map(|e| e.value.clone())
    };
    assert_eq!(last("name", "text"), Some(json!("Ada")));
    assert_eq!(last("check", "checked"), Some(json!(true)));
    assert_eq!(last("dialog", "response"), Some(json!("ok")));
    assert_eq!(
        last("counter", "clicks"),
        None,
        "the refused click never reached it"
    );
    desktop.stop().unwrap();
}
