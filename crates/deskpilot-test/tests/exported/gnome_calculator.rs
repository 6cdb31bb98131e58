//! What mcp did in gnome-calculator, recorded by `deskpilot mcp --record` and
//! exported by `deskpilot export --as test`.

#[allow(unused_imports)]
use deskpilot_test::{Desktop, State, expect};

#[tokio::test]
async fn gnome_calculator_replays() -> deskpilot_test::Result<()> {
    let desktop = Desktop::for_test().await?;
    let app = desktop.launch(["gnome-calculator"]).await?;
    app.locator(r#"button[name="6"]"#).click().await?;
    // The session's click on `button[name="*"]` failed here (not_found) and was not tried again: not replayed.
    app.locator(r#"button[name="×"]"#).click().await?;
    app.locator(r#"button[name="7"]"#).click().await?;
    app.locator(r#"button[name="="]"#).click().await?;
    Ok(())
}
