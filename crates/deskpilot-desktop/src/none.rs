//! Where deskpilot has no backend yet: the null platform, and no private desktop (the
//! latter shared with Windows, which has none either).

use deskpilot_core::Engine;

use crate::Missing;

/// What a host does when no desktop was found.
#[cfg(not(windows))]
pub const NO_DESKTOP_HINT: &str = "deskpilot drives desktops on Linux and Windows";

/// No session to describe (`deskpilot doctor`).
#[cfg(not(windows))]
pub const SESSION_VARS: &[&str] = &[];

#[cfg(not(windows))]
pub const PASS_ENV: &[&str] = &[];

#[cfg(not(windows))]
pub fn session_notes() -> Vec<String> {
    vec![format!(
        "deskpilot has no backend on {} yet",
        std::env::consts::OS
    )]
}

/// No platform to reach.
#[cfg(not(windows))]
#[derive(Debug, Clone, Default)]
pub struct Reach {}

/// The null platform: the engine answers, and every call fails `unsupported`.
#[cfg(not(windows))]
pub async fn this_desktop(_reach: Reach) -> Result<Engine, Missing> {
    Ok(crate::null())
}

/// No private desktop exists here: this type has no value.
pub enum Private {}

impl Private {
    pub fn command(&self, _program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
        match *self {}
    }

    pub fn display(&self) -> &str {
        match *self {}
    }

    pub fn dir(&self) -> &std::path::Path {
        match *self {}
    }

    pub fn id(&self) -> &str {
        match *self {}
    }

    pub fn stop(self) -> Result<(), Vec<u32>> {
        match self {}
    }
}

/// Always `Err`: no private headless desktop on this system yet.
pub async fn private_on(display: crate::PrivateDisplay) -> Result<(Engine, Private), Missing> {
    let _ = display;
    private().await
}

/// Always `Err`: no private headless desktop on this system yet.
pub async fn private() -> Result<(Engine, Private), Missing> {
    Err(Missing::new(format!(
        "no private headless desktop on {} yet: use the current desktop",
        std::env::consts::OS
    )))
}
