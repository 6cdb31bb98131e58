//! Debian's own apps driven with the test library, as a person testing them would (moved here
//! from the engine-level app-session tests): FeatherPad (Qt 5) takes keys in its editor, its
//! closed menu's items are there but not visible, and Mousepad's Save As dialog resolves the
//! visible one of two fields named alike.

use std::time::Duration;

use deskpilot_test::{Desktop, Effect, Role, State, TestError, expect};
use deskpilot_testkit::{SYSTEM_PYTHON, pyatspi_nodes};

#[tokio::test]
async fn featherpad_takes_keys_and_keeps_its_closed_menu_hidden() -> deskpilot_test::Result<()> {
    let desktop = Desktop::headless().await?;
    let featherpad = desktop.launch(["featherpad"]).await?;
    featherpad.type_text("qt text").await?;
    // Two text boxes are visible (the editor and a hidden-away search field): the one meant
    // is the one with the focus, which the keys went to.
    let editor = featherpad
        .get_by_role(Role::TextBox)
        .with_state(State::Focused);
    expect(&editor).to_contain_text("qt text").await?;

    // The File menu is closed: its Save items are attached but not visible.
    let save = featherpad.get_by_role(Role::MenuItem).name_contains("Save");
    expect(&save).to_be_hidden().await?;
    assert!(save.count().await? >= 1, "attached, though hidden");
    // An action waits for it to be visible, then says what it saw.
    let save_as = featherpad
        .get_by_role(Role::MenuItem)
        .name("Save As")
        .timeout(Duration::from_millis(500));
    match save_as.click().await {
        Err(TestError::NotActionable { seen, .. }) => {
            assert!(seen.contains("[hidden]"), "{seen}")
        }
        other => panic!("expected not actionable, got {other:?}"),
    }
    // Opened, the menu shows it.
    featherpad
        .locator("menubar >> *[name=File]")
        .click()
        .await?;
    expect(&save_as).to_be_visible().await?;
    Ok(())
}

/// Mousepad's Save As dialog holds a hidden textbox named "Name" beside the visible "Name:":
/// a locator matching both means the visible one (strictness counts what can be seen); the
/// hidden one is never filled.
#[tokio::test]
async fn a_locator_means_the_visible_one_of_two_fields() -> deskpilot_test::Result<()> {
    let desktop = Desktop::headless().await?;
    let mousepad = desktop.launch(["mousepad"]).await?;
    mousepad.press("ctrl+shift+s").await?;
    let chooser = mousepad.get_by_role(Role::FileChooser);
    let name = chooser.get_by_role(Role::TextBox).name_contains("Name");
    name.fill("notes.txt").await?.expect_confirmed()?;
    expect(&chooser.get_by_role(Role::TextBox).name("Name:"))
        .to_have_value("notes.txt")
        .await?;
    let hidden = chooser
        .get_by_role(Role::TextBox)
        .name("Name")
        .timeout(Duration::from_millis(300));
    assert!(
        matches!(
            hidden.fill("x.txt").await,
            Err(TestError::NotActionable { .. })
        ),
        "the hidden field was filled"
    );
    Ok(())
}

/// gtk4-widget-factory (GTK 4): a secret typed into its password field, which brings its
/// window forward first. Oracle: pyatspi, a second accessibility client, counts the characters.
#[tokio::test]
async fn a_gtk4_password_field_takes_a_secret() -> deskpilot_test::Result<()> {
    let desktop = Desktop::headless().await?;
    let factory = desktop.launch(["gtk4-widget-factory"]).await?;
    let typed = factory
        .get_by_role(Role::Password)
        .first()
        .type_secret("sesame")
        .await?;
    assert_eq!(typed.effect, Effect::Confirmed, "{:?}", typed.report);
    let counted = pyatspi_nodes(desktop.command(SYSTEM_PYTHON), "gtk4-widget-factory")
        .into_iter()
        .any(|n| n["role"] == "password text" && n["chars"] == 6);
    assert!(counted, "pyatspi saw no 6-character password");
    Ok(())
}

/// LibreOffice Calc: a number typed into the sheet once it is there. Oracle: pyatspi reads the
/// cell.
#[tokio::test]
async fn calc_takes_a_number_into_its_sheet() -> deskpilot_test::Result<()> {
    let desktop = Desktop::headless()
        .await?
        .with_timeout(Duration::from_secs(60));
    let profile = format!(
        "-env:UserInstallation=file://{}/lo-profile",
        desktop.dir().unwrap().display()
    );
    let calc = desktop
        .launch([
            "env",
            "SAL_USE_VCLPLUGIN=gtk3",
            "soffice",
            "--calc",
            "--norestore",
            "--nologo",
            "--nofirststartwizard",
            &profile,
        ])
        .await?;
    // As a person would: wait for the sheet before typing into it.
    expect(&calc.get_by_role(Role::Table))
        .to_be_visible()
        .await?;
    // Enter moves the cursor on: the text cannot be read back in one place, so the typing
    // is never reported confirmed (the keys' window or cell changing is no evidence).
    let typed = calc.type_text("4217\n").await?;
    assert_ne!(typed.effect, Effect::Confirmed, "{typed:?}");
    deskpilot_test::wait_until(
        "4217 in a cell, read by pyatspi",
        Duration::from_secs(15),
        || {
            pyatspi_nodes(desktop.command(SYSTEM_PYTHON), "soffice")
                .iter()
                .any(|n| n["role"] == "table cell" && n["text"] == "4217")
                .then_some(())
        },
    )
    .await
}
