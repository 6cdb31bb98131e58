//! LibreOffice Writer saves a document: type a paragraph, Save As (ctrl+shift+s), name the
//! file in the file chooser, Save; the test reads the file on disk, an OpenDocument text.
//!
//! Run it with `cargo test -p deskpilot-test --features e2e --example writer_saves_a_document`.

#[tokio::test]
async fn writer_saves_a_document() -> deskpilot_test::Result<()> {
    use std::time::Duration;

    use deskpilot_test::{Desktop, Role, expect};

    let desktop = Desktop::headless()
        .await?
        .with_timeout(Duration::from_secs(30));
    let dir = desktop.dir().expect("a headless desktop").to_owned();
    // A fresh profile, and the GTK 3 plugin: the one that shows LibreOffice on AT-SPI.
    let profile = format!("-env:UserInstallation=file://{}/lo-profile", dir.display());
    let writer = desktop
        .launch([
            "env",
            "SAL_USE_VCLPLUGIN=gtk3",
            "soffice",
            "--writer",
            "--norestore",
            "--nologo",
            "--nofirststartwizard",
            &profile,
        ])
        .await?;
    let paragraph = writer.get_by_role(Role::Paragraph).first();
    paragraph
        .type_text("Minutes: deskpilot saved this.")
        .await?;
    expect(&paragraph)
        .to_contain_text("deskpilot saved this")
        .await?;
    writer.press("ctrl+shift+s").await?;
    let chooser = writer.get_by_role(Role::FileChooser);
    let path = dir.join("minutes.odt");
    chooser
        .get_by_role(Role::TextBox)
        .name("Name:")
        .fill(path.to_str().unwrap())
        .await?;
    chooser
        .get_by_role(Role::Button)
        .name("Save")
        .click()
        .await?;

    // The oracle is the file: a zip whose first entry names the OpenDocument text type.
    let mimetype = b"application/vnd.oasis.opendocument.text";
    deskpilot_test::wait_until(
        "an OpenDocument text on disk",
        Duration::from_secs(20),
        || {
            let bytes = std::fs::read(&path).ok()?;
            let odt =
                bytes.starts_with(b"PK") && bytes.windows(mimetype.len()).any(|w| w == mimetype);
            odt.then_some(())
        },
    )
    .await
}

fn main() {
    eprintln!(
        "a test: run it with cargo test -p deskpilot-test --features e2e --example writer_saves_a_document"
    );
}
