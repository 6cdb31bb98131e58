//! The platform under a `Desktop`, chosen with `cfg(target_os)`: on Linux a private headless
//! desktop or the one this process runs on; on Windows the session's desktop, read through
//! UI Automation (Windows has no private headless desktop); elsewhere the null platform,
//! whose every call answers `unsupported`, until a backend exists.

#[cfg(target_os = "linux")]
pub(crate) use linux::{Private, current, private};
#[cfg(not(any(target_os = "linux", windows)))]
pub(crate) use none::current;
#[cfg(not(target_os = "linux"))]
pub(crate) use none::{Private, private};
#[cfg(windows)]
pub(crate) use windows::current;

#[cfg(target_os = "linux")]
mod linux {
    use deskpilot_core::Engine;
    pub(crate) use deskpilot_linux::headless::HeadlessDesktop as Private;
    use deskpilot_linux::{LinuxOptions, linux_engine};

    use crate::error::{Result, TestError};

    /// A private headless desktop and the engine on it.
    pub(crate) async fn private() -> Result<(Engine, Private)> {
        let headless = tokio::task::spawn_blocking(Private::start)
            .await
            .map_err(|e| TestError::Desktop(e.to_string()))?
            .map_err(|e| TestError::Desktop(e.to_string()))?;
        let mut options = LinuxOptions::new(
            headless.session_bus_address(),
            Some(headless.display().to_owned()),
        );
        options.launch_environment = Some(headless.env_strings());
        Ok((engine(options).await?, headless))
    }

    /// The engine on the desktop this process runs on (`DBUS_SESSION_BUS_ADDRESS`, `DISPLAY`).
    pub(crate) async fn current() -> Result<Engine> {
        let bus = std::env::var("DBUS_SESSION_BUS_ADDRESS")
            .map_err(|_| TestError::Desktop("DBUS_SESSION_BUS_ADDRESS is not set".into()))?;
        engine(LinuxOptions::new(bus, std::env::var("DISPLAY").ok())).await
    }

    async fn engine(options: LinuxOptions) -> Result<Engine> {
        Ok(linux_engine(options)
            .await
            .map_err(|e| TestError::Desktop(e.to_string()))?
            .engine)
    }
}

#[cfg(not(target_os = "linux"))]
mod none {
    use deskpilot_core::Engine;

    use crate::error::{Result, TestError};

    /// No private desktop exists here: this type has no value.
    pub(crate) enum Private {}

    impl Private {
        pub(crate) fn command(
            &self,
            _program: impl AsRef<std::ffi::OsStr>,
        ) -> std::process::Command {
            match *self {}
        }

        pub(crate) fn display(&self) -> &str {
            match *self {}
        }

        pub(crate) fn dir(&self) -> &std::path::Path {
            match *self {}
        }
    }

    pub(crate) async fn private() -> Result<(Engine, Private)> {
        Err(TestError::Desktop(format!(
            "no private headless desktop on {} yet: use Desktop::current",
            std::env::consts::OS
        )))
    }

    #[cfg(not(windows))]
    pub(crate) async fn current() -> Result<Engine> {
        use deskpilot_core::NoDesktop;
        use std::sync::Arc;
        Ok(Engine::new(Arc::new(NoDesktop::unsupported_platform(
            std::env::consts::OS,
        ))))
    }
}

#[cfg(windows)]
mod windows {
    use deskpilot_core::{Engine, Wiring};

    use crate::error::{Result, TestError};

    /// The engine on this session's desktop, reading through UI Automation.
    pub(crate) async fn current() -> Result<Engine> {
        let desktop =
            deskpilot_windows::session_desktop().map_err(|e| TestError::Desktop(e.to_string()))?;
        let wiring = Wiring {
            windows: Some(desktop.windows),
            input: Some(desktop.input),
            capture: Some(desktop.capture),
            launcher: Some(desktop.launcher),
            ..Wiring::default()
        };
        Ok(Engine::wired(desktop.backend, wiring))
    }
}
