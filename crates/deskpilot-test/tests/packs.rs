//! App packs in the test library, on Debian's Mousepad: the shipped pack starts the app and
//! names its controls (`@mousepad/...`), a note saved through them is judged by the file on
//! disk; a pack whose first selector has drifted says which one served; a control of another
//! app's pack, or one a pack does not have, is refused.

use std::path::Path;
use std::time::Duration;

use deskpilot_core::Code;
use deskpilot_test::{Desktop, TestError};

/// The shipped Mousepad pack under another id, its document's first selector drifted.
fn drifted_pack(root: &Path) {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deskpilot-packs/packs/mousepad");
    let dir = root.join("drifted");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["profile.json", "controls.json"] {
        std::fs::copy(shipped.join(file), dir.join(file)).unwrap();
    }
    let manifest = r#"{"id": "drifted", "version": "1.0.0"}"#;
    std::fs::write(dir.join("manifest.json"), manifest).unwrap();
    let controls = std::fs::read_to_string(dir.join("controls.json")).unwrap();
    let drifted = controls.replacen(
        r#""tab[selected] >> textbox""#,
        r#""textbox[name=\"Gone since 2.0\"]", "tab[selected] >> textbox""#,
        1,
    );
    assert_ne!(
        drifted, controls,
        "the document control is in the shipped pack"
    );
    std::fs::write(dir.join("controls.json"), drifted).unwrap();
}

fn code(result: deskpilot_test::Result<impl std::fmt::Debug>) -> Code {
    match result {
        Err(TestError::Engine { error, .. }) => error.code,
        other => panic!("expected the engine's refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn a_pack_starts_its_app_and_names_its_controls() -> deskpilot_test::Result<()> {
    let packs = tempfile::tempdir().unwrap();
    drifted_pack(packs.path());
    let desktop = Desktop::headless().await?.with_packs(packs.path())?;
    let mousepad = desktop.launch_pack("mousepad").await?;

    // The drifted pack's first selector finds nothing: its second served, and it says so.
    let note = "Dear diary: packs name controls.";
    let typed = mousepad
        .locator("@drifted/document")
        .type_text(note)
        .await?;
    let served: Vec<(&str, usize, bool)> = typed
        .controls
        .iter()
        .map(|c| (c.control.as_str(), c.candidate, c.found))
        .collect();
    assert_eq!(served, [("@drifted/document", 2, true)]);

    // The shipped pack's names, through File > Save As and its dialog.
    mousepad.locator("@mousepad/menu_file").click().await?;
    mousepad
        .locator("@mousepad/menuitem_save_as")
        .click()
        .await?;
    let path = desktop.dir().expect("a headless desktop").join("note.txt");
    let named = mousepad
        .locator("@mousepad/file_name")
        .fill(path.to_str().unwrap())
        .await?;
    assert_eq!(named.controls[0].candidate, 1, "{:?}", named.controls);
    mousepad
        .locator("@mousepad/save_dialog_save")
        .click()
        .await?;
    // The oracle is the file itself.
    deskpilot_test::wait_until("the note on disk", Duration::from_secs(10), || {
        let text = std::fs::read_to_string(&path).ok()?;
        (text.trim_end() == note).then_some(())
    })
    .await?;

    // Another app's pack, and a control no pack has, are refused before anything is done.
    let other = mousepad.locator("@gnome-calculator/display").click().await;
    assert_eq!(code(other), Code::PackMismatch);
    let unknown = mousepad.locator("@mousepad/no_such_control").click().await;
    assert_eq!(code(unknown), Code::UnknownPack);
    Ok(())
}
