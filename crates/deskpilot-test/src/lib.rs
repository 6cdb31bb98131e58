//! Playwright-style tests for desktop apps, in Rust.
//!
//! A test starts a private headless desktop (or uses yours), launches or attaches to an app,
//! finds elements with strict locators that are searched afresh at every use, acts on them
//! through the engine's verified ladder (semantic action first, then keys, then a real
//! pointer at live bounds; every effect read back), and expects states that are waited for.
//!
//! ```no_run
//! use deskpilot_test::{Desktop, Role, expect};
//!
//! #[tokio::test]
//! async fn counts_clicks() -> deskpilot_test::Result<()> {
//!     let desktop = Desktop::headless().await?;
//!     let app = desktop.launch(["gnome-calculator"]).await?;
//!     app.get_by_role(Role::Button).name("7").click().await?;
//!     app.get_by_role(Role::Button).name("×").click().await?;
//!     app.get_by_role(Role::Button).name("6").click().await?;
//!     app.get_by_role(Role::Button).name("=").click().await?;
//!     expect(&app.get_by_text("42")).to_be_visible().await?;
//!     Ok(())
//! }
//! ```
//!
//! # A first test in five minutes
//!
//! 1. A Debian (or close) machine with Xvfb, D-Bus, the AT-SPI bus, openbox and the app to
//!    test: `apt-get install xvfb dbus-daemon at-spi2-core openbox mousepad` (this workspace's
//!    `cargo xtask install` installs all it uses).
//! 2. In your crate's `Cargo.toml`: `deskpilot-test` and `tokio` (features `macros`, `rt`)
//!    as dev-dependencies.
//! 3. A test as above in `tests/`; `cargo test`. Each test gets its own desktop, so tests run
//!    in parallel and never touch yours.
//! 4. To watch one drive your own desktop instead: `DESKPILOT_HEADED=1 cargo test` with
//!    [`Desktop::for_test`]. To see what a failing test saw: `DESKPILOT_TRACE=retain-on-failure`
//!    and open `target/deskpilot-traces/<test>/trace.html`.
//!
//! Runs under tokio (`#[tokio::test]`, either flavour), with `cargo test` or `cargo nextest`
//! alike: at most two headless desktops run at once for your user on the machine
//! (`DESKPILOT_TEST_DESKTOPS`), across test processes (a lock file per slot), so nextest's
//! process per test is bounded too; a test waits for a free slot. Waits wake on the app's
//! events where its toolkit sends them, with a 100 ms poll behind them. The desktop, its apps
//! and their processes are stopped when the `Desktop` is dropped, also when the test panics.
//!
//! App packs (`docs/app-packs.md`) name an app's controls once: [`Desktop::launch_pack`]
//! starts a pack's app, and a locator may name a control, `app.locator("@mousepad/textbox")`,
//! found at every use by the pack's selectors in order ([`Acted::controls`] says which).
//!
//! Strict by default: an action or an expectation on an element fails at once when several
//! visible elements match, listing them. An action waits (up to the timeout, 5 s by default)
//! until exactly one visible element matches and is enabled (and editable, for text), then
//! returns the engine's report; `expect_confirmed()` (or `Locator::confirmed_only`) turns an
//! effect that could not be read back into a failure.

#![warn(missing_docs)]
// A test's output is the harness's: the library reports through results and traces.
#![deny(clippy::print_stdout)]

mod actions;
mod app;
mod desktop;
mod error;
mod expect;
mod locator;
mod packs;
mod secrets;
mod selector_text;
mod session;
mod slots;
mod trace;
mod tree;

pub use app::App;
pub use deskpilot_core::model::{Role, State};
pub use deskpilot_core::{ActionReport, Effect};
pub use deskpilot_desktop::PrivateDisplay;
pub use deskpilot_packs::Resolved;
pub use desktop::{AppRef, Desktop};
pub use error::{Result, TestError};
pub use expect::{Expect, expect, wait_until};
pub use locator::{Acted, Locator};
pub use trace::TraceMode;
pub use tree::TreeMatch;

#[cfg(test)]
mod readme {
    /// The README's example is `examples/readme.rs` word for word, which the desktop tier runs.
    #[test]
    fn readme_is_the_example() {
        let readme = include_str!("../../../README.md");
        let example = include_str!("../examples/readme.rs");
        let start = readme
            .find("```rust\n")
            .expect("the README has a rust block")
            + 8;
        let block = &readme[start..start + readme[start..].find("```").unwrap()];
        assert!(
            example.contains(block),
            "README's example differs from examples/readme.rs"
        );
    }
}
