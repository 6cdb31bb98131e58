//! gnome-calculator (a GTK 4 app) multiplies 6 by 7: four button presses, then the display is
//! expected to show 42.
//!
//! Run it with `cargo test -p deskpilot-test --features e2e --example calculator_multiplies`.

#[tokio::test]
async fn calculator_multiplies() -> deskpilot_test::Result<()> {
    use deskpilot_test::{Desktop, expect};

    let desktop = Desktop::for_test().await?;
    let calculator = desktop.launch(["gnome-calculator"]).await?;
    // GTK 4.8 names a button after its label twice over ("7 7"): a regex takes either.
    for label in ["6", "×", "7", "="] {
        let button = calculator.locator(&format!("button[name~=/^{label}( {label})?$/]"));
        button.click().await?;
    }
    expect(&calculator.get_by_text("42"))
        .to_be_visible()
        .await?;
    Ok(())
}

fn main() {
    eprintln!(
        "a test: run it with cargo test -p deskpilot-test --features e2e --example calculator_multiplies"
    );
}
