//! Windows: UI Automation on this session's desktop (one per session: nothing to choose, and
//! no private headless desktop).

use deskpilot_core::{Engine, Wiring};

use crate::Missing;

pub use crate::none::Private;

/// What a host does when no desktop was found.
pub const NO_DESKTOP_HINT: &str =
    "run deskpilot in the signed-in user's session (not as a service or over SSH)";

/// The variables that say which session this is (`deskpilot doctor`).
pub const SESSION_VARS: &[&str] = &["SESSIONNAME", "USERNAME"];

/// Nothing to pass: deskpilot runs in the user's session.
pub const PASS_ENV: &[&str] = &[];

/// Nothing to say of a Windows session yet.
pub fn session_notes() -> Vec<String> {
    Vec::new()
}

/// Windows has one desktop per session: nothing to choose.
#[derive(Debug, Clone, Default)]
pub struct Reach {}

/// The engine on this session's desktop: UI Automation, the window list, SendInput, GDI's
/// pixels and a launcher.
pub async fn this_desktop(_reach: Reach) -> Result<Engine, Missing> {
    let desktop = deskpilot_windows::session_desktop().map_err(|e| Missing::new(e.to_string()))?;
    let wiring = Wiring {
        windows: Some(desktop.windows),
        input: Some(desktop.input),
        capture: Some(desktop.capture),
        launcher: Some(desktop.launcher),
        name: Some("Windows, this session's desktop".to_owned()),
        ..Wiring::default()
    };
    Ok(Engine::wired(desktop.backend, wiring))
}

pub use crate::none::{private, private_on};
