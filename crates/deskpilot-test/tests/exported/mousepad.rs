//! What mcp did in mousepad, recorded by `deskpilot mcp --record` and
//! exported by `deskpilot export --as test`.

#[allow(unused_imports)]
use deskpilot_test::{Desktop, State, expect};

#[tokio::test]
async fn mousepad_replays() -> deskpilot_test::Result<()> {
    let desktop = Desktop::for_test().await?;
    let app = desktop.launch(["mousepad"]).await?;
    app.locator("textbox")
        .type_text("Dear diary: recorded.")
        .await?;
    expect(&app.locator("textbox"))
        .to_have_value("Dear diary: recorded.")
        .await?;
    Ok(())
}
