//! Debian's own apps driven with the test library, as a person testing them would (moved here
//! from the engine-level app-session tests): FeatherPad (Qt 5) takes keys in its editor, its
//! closed menu's items are there but not visible, and Mousepad's Save As dialog resolves the
//! visible one of two fields named alike.

use std::time::Duration;

use deskpilot_test::{Desktop, Role, State, TestError, expect};

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
