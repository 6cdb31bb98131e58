//! The README's example, as it is there (`readme_is_the_example` in `src/lib.rs` holds them
//! together): Mousepad takes a note, and its File menu offers Save As.
//!
//! Run it with `cargo test -p deskpilot-test --features e2e --example readme`.

// Outside a test build the test is compiled out, and the README's imports are unused.
#![cfg_attr(not(test), allow(unused_imports))]

use deskpilot_test::{Desktop, Role, expect};

#[tokio::test]
async fn mousepad_takes_a_note() -> deskpilot_test::Result<()> {
    let desktop = Desktop::for_test().await?; // a private headless desktop
    let mousepad = desktop.launch(["mousepad"]).await?;
    mousepad.type_text("Dear diary").await?; // into the focused field, read back
    let file = mousepad.get_by_role(Role::Menu).name("File");
    file.click().await?;
    let save_as = mousepad.get_by_role(Role::MenuItem);
    expect(&save_as.name_contains("Save As"))
        .to_be_visible()
        .await?;
    Ok(())
}

fn main() {
    eprintln!("a test: run it with cargo test -p deskpilot-test --features e2e --example readme");
}
