//! The engine as `deskpilot mcp --allow-input` builds it, on a test desktop: AT-SPI with the
//! X11 window list, X11 input and capture. Shared by the action matrix, the real-app tests and
//! the benchmarks (included with `#[path]`).

use std::sync::Arc;

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::Engine;
use deskpilot_desktop::VirtualDesktop;
use deskpilot_x11::X11Input;

/// The engine on `desktop`, and its backend (for its counters).
pub async fn engine_on(desktop: &VirtualDesktop) -> (Arc<AtspiBackend>, Engine) {
    let input = X11Input::connect(desktop.display()).unwrap();
    engine_with_input(desktop, input).await
}

/// The same, with `input` (an X11 input device configured by the test).
pub async fn engine_with_input(
    desktop: &VirtualDesktop,
    input: X11Input,
) -> (Arc<AtspiBackend>, Engine) {
    let x11 = Arc::new(deskpilot_x11::X11Windows::connect(desktop.display()).unwrap());
    let backend = Arc::new(
        AtspiBackend::connect(ConnectOptions::new(desktop.session_bus_address()))
            .await
            .unwrap()
            .with_window_system(x11),
    );
    let input = Arc::new(input);
    let engine = Engine::new(backend.clone())
        .with_input(input.clone())
        .with_capture(input);
    (backend, engine)
}
