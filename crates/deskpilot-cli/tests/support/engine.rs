//! The engine as `deskpilot mcp --allow input` builds it, on a test desktop (deskpilot-linux's
//! `linux_engine`: AT-SPI with the display server's window list, input and capture). Shared by the
//! action matrix, the real-app tests and the benchmarks (included with `#[path]`).

use std::sync::Arc;

use deskpilot_atspi::AtspiBackend;
use deskpilot_core::Engine;
use deskpilot_linux::{LinuxOptions, linux_engine};
use deskpilot_testkit::VirtualDesktop;
use deskpilot_x11::X11Input;

/// The engine on `desktop`, and its backend (for its counters).
pub async fn engine_on(desktop: &VirtualDesktop) -> (Arc<AtspiBackend>, Engine) {
    if let Some(wayland) = desktop.wayland() {
        let mut options = LinuxOptions::new(desktop.session_bus_address(), None);
        options.wayland = Some(wayland);
        let linux = linux_engine(options).await.unwrap();
        return (linux.backend, linux.engine);
    }
    let input = X11Input::connect(desktop.display()).unwrap();
    engine_with_input(desktop, input).await
}

/// The same, with `input` (an X11 input device configured by the test).
pub async fn engine_with_input(
    desktop: &VirtualDesktop,
    input: X11Input,
) -> (Arc<AtspiBackend>, Engine) {
    let mut options = LinuxOptions::new(
        desktop.session_bus_address(),
        Some(desktop.display().to_owned()),
    );
    options.input = Some(input);
    let linux = linux_engine(options).await.unwrap();
    (linux.backend, linux.engine)
}

/// A session on the browser `app`, once its page's element `selector` appeared (the page's
/// document arrives after the window).
#[allow(dead_code)]
pub async fn session_on_page(engine: &Engine, app: &str, selector: &str) -> String {
    let session = engine
        .connect(&deskpilot_core::ConnectTarget::AppName(app.into()))
        .await
        .unwrap()
        .id;
    engine
        .session(&session)
        .unwrap()
        .wait_for(
            &deskpilot_core::Selector::parse(selector).unwrap(),
            None,
            &deskpilot_core::Condition::Appears,
            std::time::Duration::from_secs(60),
        )
        .await
        .unwrap();
    session
}
