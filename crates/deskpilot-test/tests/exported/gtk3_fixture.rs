//! What mcp did in deskpilot-gtk3-fixture, recorded by `deskpilot mcp --record` and
//! exported by `deskpilot export --as test`.

#[allow(unused_imports)]
use deskpilot_test::{Desktop, State, expect};

#[tokio::test]
async fn deskpilot_gtk3_fixture_replays() -> deskpilot_test::Result<()> {
    let desktop = Desktop::for_test().await?;
    let app = desktop
        .launch(["/usr/bin/python3", "../../fixtures/gtk3/fixture.py"])
        .await?;
    app.locator(r#"textbox[name="Name"]"#)
        .fill("Ada Lovelace")
        .await?;
    expect(&app.locator(r#"textbox[name="Name"]"#))
        .to_have_value("Ada Lovelace")
        .await?;
    app.locator(r#"checkbox[name="Enable notifications"]"#)
        .check()
        .await?;
    expect(&app.locator(r#"checkbox[name="Enable notifications"]"#))
        .to_be_checked()
        .await?;
    app.locator(r#"button[name="Count"]"#).click().await?;
    Ok(())
}
