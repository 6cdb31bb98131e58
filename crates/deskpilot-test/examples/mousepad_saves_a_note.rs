//! Mousepad (a GTK 3 editor) saves a note: type it, File > Save As, name the file in the file
//! chooser, Save; the test reads the file on disk.
//!
//! Run it with `cargo test -p deskpilot-test --features e2e --example mousepad_saves_a_note`.

#[tokio::test]
async fn mousepad_saves_a_note() -> deskpilot_test::Result<()> {
    use std::time::Duration;

    use deskpilot_test::{Desktop, Role};

    let desktop = Desktop::for_test().await?;
    let mousepad = desktop.launch(["mousepad"]).await?;
    mousepad
        .type_text("Dear diary: deskpilot was here.")
        .await?;

    mousepad
        .get_by_role(Role::Menu)
        .name("File")
        .click()
        .await?;
    let save_as = mousepad
        .get_by_role(Role::MenuItem)
        .name_contains("Save As");
    save_as.click().await?;

    let chooser = mousepad.get_by_role(Role::FileChooser);
    // The headless desktop's own directory (on your desktop, the system's temporary one).
    let dir = desktop
        .dir()
        .map_or_else(std::env::temp_dir, |d| d.to_owned());
    let path = dir.join(format!("diary-{}.txt", std::process::id()));
    chooser
        .get_by_role(Role::TextBox)
        .name("Name:")
        .fill(path.to_str().unwrap())
        .await?;
    // Save is enabled once the chooser has looked at the name: the click waits for it.
    chooser
        .get_by_role(Role::Button)
        .name("Save")
        .click()
        .await?;

    // The oracle is the file itself.
    let note = "Dear diary: deskpilot was here.";
    deskpilot_test::wait_until("the note on disk", Duration::from_secs(10), || {
        let text = std::fs::read_to_string(&path).ok()?;
        (text.trim_end() == note).then_some(())
    })
    .await
}

fn main() {
    eprintln!(
        "a test: run it with cargo test -p deskpilot-test --features e2e --example mousepad_saves_a_note"
    );
}
