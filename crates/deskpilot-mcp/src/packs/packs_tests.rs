//! Packs on disk, good and bad: each bad one is refused with its file, JSON path and code,
//! and the set active before stays active.

use std::path::Path;

use serde_json::{Value, json};

use super::report::{Finding, Report};
use super::set::{Registry, Sources};
use crate::catalog::Catalog;
use crate::grants::{FilesDir, Grants};

/// Every tool, as a pack's workflows are checked against.
fn tools() -> Catalog {
    let every = Grants {
        input: true,
        launch: true,
        files: Some(FilesDir::Anywhere),
        apps: None,
    };
    Catalog::new(crate::tools::SPECS, &every)
}

/// A pack a user would write for an editor: two controls, a contract, a workflow.
fn good() -> Vec<(&'static str, Value)> {
    vec![
        ("manifest.json", json!({"id": "editor", "version": "1.0.0"})),
        (
            "profile.json",
            json!({"launch": {"programs": ["mousepad"]}, "main_window": {"app": "mousepad"}}),
        ),
        (
            "controls.json",
            json!({"controls": {
                "main": {"selectors": ["window"]},
                "text": {"selectors": ["textbox"], "within": "main"}
            }}),
        ),
        (
            "actions.json",
            json!({"contracts": [{"control": "text", "tool": "type_text", "safe_to_repeat": false}]}),
        ),
        (
            "workflows.json",
            json!({"workflows": [{
                "id": "write",
                "inputs": {"type": "object", "properties": {"words": {"type": "string"}}},
                "steps": [{"id": "typed", "tool": "type_text",
                    "args": {"session": "${session}", "target": "textbox", "text": "${inputs.words}"}}]
            }]}),
        ),
    ]
}

fn write(dir: &Path, files: &[(&str, Value)]) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, value) in files {
        std::fs::write(dir.join(name), serde_json::to_string_pretty(value).unwrap()).unwrap();
    }
}

/// `good()` with `file` replaced by `value`.
fn with(file: &str, value: Value) -> Vec<(&'static str, Value)> {
    let mut files = good();
    for (name, v) in &mut files {
        if *name == file {
            *v = value.clone();
        }
    }
    files
}

fn sources(root: &Path) -> Sources {
    Sources {
        roots: vec![root.to_owned()],
        user: None,
        shipped: Vec::new(),
    }
}

/// A registry over a root holding the good pack, then `spoil` applied and a reload tried:
/// its errors, and whether the set active before is still the active one (the same `Arc`).
fn reload_after(spoil: impl FnOnce(&Path)) -> (Vec<Finding>, bool) {
    let root = tempfile::tempdir().unwrap();
    write(&root.path().join("editor"), &good());
    let (registry, report) = Registry::new(sources(root.path()), tools());
    assert!(report.valid(), "{report:?}");
    let before = registry.current();
    assert!(before.get("editor").is_some());
    spoil(root.path());
    let errors = registry
        .reload()
        .map(|_| Vec::new())
        .unwrap_or_else(|r: Report| r.errors);
    (errors, std::sync::Arc::ptr_eq(&before, &registry.current()))
}

/// The one error of a reload after `spoil`, as (file, path, code); the set before stays.
fn refused(spoil: impl FnOnce(&Path)) -> (String, String, String) {
    let (errors, kept) = reload_after(spoil);
    assert!(kept, "the previous pack set is no longer active");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = &errors[0];
    (e.file.clone(), e.path.clone(), e.code.clone())
}

fn triple(file: &str, path: &str, code: &str) -> (String, String, String) {
    (file.into(), path.into(), code.into())
}

#[test]
fn a_good_pack_loads_with_no_finding_and_replaces_the_set() {
    let (errors, kept) = reload_after(|_| {});
    assert_eq!(errors, []);
    assert!(!kept, "a reload with no error replaces the set");
}

#[test]
fn a_schema_error_names_its_file_and_path() {
    let spoil = |root: &Path| {
        write(
            &root.join("editor"),
            &with("manifest.json", json!({"id": "Ed.itor", "version": "1"})),
        )
    };
    assert_eq!(refused(spoil), triple("manifest.json", "/id", "schema"));
}

#[test]
fn a_control_within_an_unknown_control_is_refused() {
    let controls = json!({"controls": {"text": {"selectors": ["textbox"], "within": "nowhere"}},});
    let mut files = with("controls.json", controls);
    files.retain(|(name, _)| *name != "actions.json");
    let spoil = |root: &Path| write(&root.join("editor"), &files);
    assert_eq!(
        refused(spoil),
        triple("controls.json", "/controls/text/within", "unknown_control")
    );
}

#[test]
fn a_cycle_of_within_is_refused() {
    let controls = json!({"controls": {
        "main": {"selectors": ["window"], "within": "text"},
        "text": {"selectors": ["textbox"], "within": "main"}
    }});
    let (errors, kept) =
        reload_after(|root| write(&root.join("editor"), &with("controls.json", controls)));
    assert!(kept);
    let codes: Vec<&str> = errors.iter().map(|e| e.code.as_str()).collect();
    assert_eq!(codes, ["within_cycle", "within_cycle"], "{errors:#?}");
}

#[test]
fn a_workflow_naming_an_unknown_tool_is_refused() {
    let workflows = json!({"workflows": [{"id": "w", "steps": [{"id": "a", "tool": "teleport"}]}]});
    let spoil = |root: &Path| write(&root.join("editor"), &with("workflows.json", workflows));
    let (errors, kept) = reload_after(spoil);
    assert!(kept);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = &errors[0];
    let found = (e.file.as_str(), e.path.as_str(), e.code.as_str());
    assert_eq!(found, ("workflows.json", "/workflows/0/steps/0", "step"));
    assert!(e.message.contains("unknown_tool"), "{}", e.message);
}

#[test]
fn a_reserved_step_id_is_refused() {
    let workflows = json!({"workflows": [{"id": "w", "steps": [
        {"id": "inputs", "tool": "snapshot", "args": {"session": "${session}"}}
    ]}]});
    let spoil = |root: &Path| write(&root.join("editor"), &with("workflows.json", workflows));
    assert_eq!(
        refused(spoil),
        triple("workflows.json", "/workflows/0/steps/0/id", "reserved_id")
    );
}

#[test]
fn a_reference_to_an_undeclared_input_is_refused() {
    let workflows = json!({"workflows": [{"id": "w", "steps": [
        {"id": "a", "tool": "find", "args": {"session": "${session}", "selector": "${inputs.nope}"}}
    ]}]});
    let spoil = |root: &Path| write(&root.join("editor"), &with("workflows.json", workflows));
    assert_eq!(
        refused(spoil),
        triple(
            "workflows.json",
            "/workflows/0/steps/0",
            "dangling_reference"
        )
    );
}

/// A workflow stays in its pack's app: every step works in `${session}`, and names only
/// its own pack's controls; a control it names exists; a contract's expect may name one.
#[test]
fn a_workflow_stays_in_its_app() {
    let cases = [
        (
            json!({"id": "a", "tool": "connect", "args": {"app": "Other"}}),
            "outside_app",
        ),
        (
            json!({"id": "a", "tool": "snapshot", "args": {"session": "s1"}}),
            "outside_app",
        ),
        (
            json!({"id": "a", "tool": "click", "args": {"session": "${session}", "target": "@other/ok"}}),
            "outside_app",
        ),
        (
            json!({"id": "a", "tool": "click", "args": {"session": "${session}", "target": "@nothing"}}),
            "unknown_control",
        ),
        (
            json!({"id": "a", "tool": "click", "args": {"session": "${session}", "target": "button[name=${inputs.words}]"}}),
            "unquoted_input",
        ),
        (
            json!({"id": "a", "tool": "type_text", "args": {"session": "${session}", "text": "${env.HOME}"}}),
            "undeclared_env",
        ),
    ];
    for (step, code) in cases {
        let inputs = json!({"type": "object", "properties": {"words": {"type": "string"}}});
        let workflows = json!({"workflows": [{"id": "w", "inputs": inputs, "steps": [step]}]});
        let spoil = |root: &Path| write(&root.join("editor"), &with("workflows.json", workflows));
        assert_eq!(
            refused(spoil),
            triple("workflows.json", "/workflows/0/steps/0", code)
        );
    }
    let named = json!({"contracts": [{"control": "text", "tool": "type_text",
        "expect": {"selector": "@main >> @text", "value": "x"}}]});
    let spoil = |root: &Path| write(&root.join("editor"), &with("actions.json", named));
    assert_eq!(reload_after(spoil).0, []);
}

#[test]
fn a_contract_cannot_widen_the_retry_rule() {
    let actions =
        json!({"contracts": [{"control": "text", "tool": "type_text", "safe_to_repeat": true}]});
    let spoil = |root: &Path| write(&root.join("editor"), &with("actions.json", actions));
    assert_eq!(
        refused(spoil),
        triple(
            "actions.json",
            "/contracts/0/safe_to_repeat",
            "unsafe_retry"
        )
    );
}

#[test]
fn an_absolute_program_path_is_refused() {
    let profile =
        json!({"launch": {"programs": ["/usr/bin/mousepad"]}, "main_window": {"app": "mousepad"}});
    let spoil = |root: &Path| write(&root.join("editor"), &with("profile.json", profile));
    assert_eq!(
        refused(spoil),
        triple("profile.json", "/launch/programs/0", "literal")
    );
}

#[cfg(unix)]
#[test]
fn a_pack_directory_linked_out_of_its_root_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    let mut other = good();
    other[0].1 = json!({"id": "other", "version": "1"});
    write(&outside.path().join("other"), &other);
    let spoil = |root: &Path| {
        std::os::unix::fs::symlink(outside.path().join("other"), root.join("other")).unwrap()
    };
    let (file, path, code) = refused(spoil);
    assert_eq!(
        (file.as_str(), path.as_str(), code.as_str()),
        ("", "", "escape")
    );
}

#[test]
fn a_file_over_a_mebibyte_is_refused() {
    let spoil = |root: &Path| {
        let big = format!(
            "{{\"controls\": {{}}, \"pad\": \"{}\"}}",
            "x".repeat(2 << 20)
        );
        std::fs::write(root.join("editor/controls.json"), big).unwrap();
    };
    assert_eq!(refused(spoil), triple("controls.json", "", "too_large"));
}

#[test]
fn two_packs_of_one_id_are_refused_naming_both() {
    let spoil = |root: &Path| write(&root.join("zz-copy"), &good());
    let (errors, kept) = reload_after(spoil);
    assert!(kept);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].code, "duplicate_id");
    assert!(errors[0].pack.ends_with("zz-copy"), "{:?}", errors[0]);
    assert!(
        errors[0].message.contains("/editor"),
        "{}",
        errors[0].message
    );
}

#[test]
fn a_credential_in_a_workflow_is_a_warning() {
    let workflows = json!({"workflows": [{"id": "login", "steps": [
        {"id": "a", "tool": "set_value", "args": {"session": "${session}", "target": "password",
            "value": "hunter2", "secret": true}}
    ]}]});
    let root = tempfile::tempdir().unwrap();
    write(
        &root.path().join("editor"),
        &with("workflows.json", workflows),
    );
    let (_, report) = Registry::new(sources(root.path()), tools());
    assert!(report.valid(), "{report:#?}");
    let codes: Vec<&str> = report.warnings.iter().map(|w| w.code.as_str()).collect();
    assert_eq!(codes, ["secret"], "{report:#?}");
}

/// Each pack file's JSON Schema, as committed in `schemas/pack/` for editors and people, is
/// the one the validator uses (`DESKPILOT_UPDATE_SCHEMAS=1` writes them anew).
#[test]
fn the_committed_schemas_are_the_validators() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/pack");
    let update = std::env::var_os("DESKPILOT_UPDATE_SCHEMAS").is_some();
    for file in super::format::FILES {
        let path = dir.join(file.name.replace(".json", ".schema.json"));
        let text = serde_json::to_string_pretty(&(file.schema)()).unwrap() + "\n";
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "{} is not the validator's schema: DESKPILOT_UPDATE_SCHEMAS=1 cargo test -p deskpilot-mcp packs",
            path.display()
        );
    }
}

/// A user's pack of a shipped pack's id replaces it, with a warning naming the shipped one.
#[test]
fn a_user_pack_overrides_a_shipped_one_and_says_so() {
    let root = tempfile::tempdir().unwrap();
    write(&root.path().join("editor"), &good());
    let files = good()
        .into_iter()
        .map(|(name, value)| (name, value.to_string()))
        .collect();
    let shipped = super::read::RawPack {
        place: "shipped:editor".into(),
        files,
    };
    let sources = Sources {
        roots: vec![root.path().to_owned()],
        user: None,
        shipped: vec![shipped],
    };
    let (registry, report) = Registry::new(sources, tools());
    let warnings: Vec<(&str, &str)> = report
        .warnings
        .iter()
        .map(|w| (w.code.as_str(), w.message.as_str()))
        .collect();
    assert_eq!(
        warnings,
        [(
            "overrides",
            "overrides the shipped pack \"editor\" (shipped:editor)"
        )]
    );
    let loaded = registry.current().get("editor").unwrap().clone();
    assert_eq!(
        (loaded.shipped, loaded.overrides.as_deref()),
        (false, Some("shipped:editor"))
    );
}

/// The example pack of docs/app-packs.md: each block after `<!-- pack file: NAME -->`.
fn docs_example() -> super::read::RawPack {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/app-packs.md");
    let text = std::fs::read_to_string(docs).unwrap();
    let mut files = std::collections::BTreeMap::new();
    for part in text.split("<!-- pack file: ").skip(1) {
        let (name, rest) = part.split_once(" -->").unwrap();
        let block = rest
            .split("```json")
            .nth(1)
            .unwrap()
            .split("```")
            .next()
            .unwrap();
        let name = super::format::FILES
            .iter()
            .find(|f| f.name == name)
            .unwrap()
            .name;
        files.insert(name, block.to_owned());
    }
    super::read::RawPack {
        place: "docs/app-packs.md".into(),
        files,
    }
}

/// The docs' example pack validates with no finding, every file of it there.
#[test]
fn docs_example_validates() {
    let raw = docs_example();
    assert_eq!(raw.files.len(), 5, "{:?}", raw.files.keys());
    let mut report = Report::default();
    let pack = super::set::parsed(&raw, &tools(), &mut report);
    assert!(pack.is_some(), "{report:#?}");
    assert_eq!(report, Report::default());
}

/// A selector that does not parse is refused where it is written.
#[test]
fn a_selector_that_does_not_parse_is_refused() {
    let controls = json!({"controls": {"main": {"selectors": ["window"]}, "text": {"selectors": ["textbox[nmae=x"]}}});
    let spoil = |root: &Path| write(&root.join("editor"), &with("controls.json", controls));
    assert_eq!(
        refused(spoil),
        triple(
            "controls.json",
            "/controls/text/selectors/0",
            "bad_selector"
        )
    );
}

/// A root kept in version control holds other directories: `.git` is passed over, one
/// without a manifest is a warning, and the packs load.
#[test]
fn directories_that_are_not_packs_are_passed_over() {
    let root = tempfile::tempdir().unwrap();
    write(&root.path().join("editor"), &good());
    std::fs::create_dir_all(root.path().join(".git/objects")).unwrap();
    std::fs::create_dir_all(root.path().join("docs")).unwrap();
    let (registry, report) = Registry::new(sources(root.path()), tools());
    assert!(report.valid(), "{report:#?}");
    let codes: Vec<&str> = report.warnings.iter().map(|w| w.code.as_str()).collect();
    assert_eq!(codes, ["not_a_pack"]);
    assert!(registry.current().get("editor").is_some());
}

/// Every broken pack says what is wrong with it, not only the first.
#[test]
fn every_broken_pack_is_reported() {
    let root = tempfile::tempdir().unwrap();
    let broken = with("manifest.json", json!({"id": "Bad", "version": "1"}));
    write(&root.path().join("a"), &broken);
    write(&root.path().join("b"), &broken);
    let (_, report) = Registry::new(sources(root.path()), tools());
    let packs: Vec<&str> = report
        .errors
        .iter()
        .map(|e| e.pack.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(packs, ["a", "b"], "{report:#?}");
}

/// A pack file that is a link out of its pack is refused.
#[cfg(unix)]
#[test]
fn a_file_linked_out_of_its_pack_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    let controls = outside.path().join("controls.json");
    std::fs::write(&controls, good()[2].1.to_string()).unwrap();
    let spoil = |root: &Path| {
        let inside = root.join("editor/controls.json");
        std::fs::remove_file(&inside).unwrap();
        std::os::unix::fs::symlink(&controls, inside).unwrap();
    };
    assert_eq!(refused(spoil), triple("controls.json", "", "escape"));
}

/// Keys, typed text and one-part paths are the user's words, not places on a machine; a
/// number in an input's schema is no pid.
#[test]
fn words_that_look_like_paths_are_not_refused() {
    let workflows = json!({"workflows": [{"id": "w",
    "inputs": {"type": "object", "properties": {"x": {"type": "integer", "default": 3}}},
    "steps": [
        {"id": "slash", "tool": "press_key", "args": {"session": "${session}", "key": "/"}},
        {"id": "help", "tool": "type_text", "args": {"session": "${session}", "text": "/usr/share/doc"}}
    ]}]});
    let root = tempfile::tempdir().unwrap();
    write(
        &root.path().join("editor"),
        &with("workflows.json", workflows),
    );
    let (_, report) = Registry::new(sources(root.path()), tools());
    assert_eq!(report, Report::default());
}

/// Every shipped pack loads with no error.
#[test]
fn the_shipped_packs_load() {
    let (registry, report) = Registry::new(Sources::shipped_only(), tools());
    assert_eq!(report.errors, [], "{report:#?}");
    let names: Vec<String> = registry.current().packs.keys().cloned().collect();
    assert_eq!(
        names,
        [
            "gnome-calculator",
            "gtk3-fixture",
            "libreoffice-writer",
            "mousepad"
        ]
    );
}
