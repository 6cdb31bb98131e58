//! `deskpilot doctor`: which session this is and how deskpilot reached its desktop. Each way
//! of acting there is served (by what) or missing (why). It lists the apps it sees (blind ones
//! with their fix) and what a host must pass for deskpilot to find the desktop.

use deskpilot_core::Engine;
use deskpilot_core::ListedApp;
use serde::Serialize;

use crate::platform::{self, Reach};

/// What `deskpilot doctor` found.
#[derive(Debug, Serialize)]
pub struct Doctor {
    /// The variables that say which session this is, as this process sees them.
    pub session: Vec<SessionVar>,
    /// The desktop reached ("Linux, X display :0"); `None` when none was.
    pub desktop: Option<String>,
    /// How it was found, when it was not given.
    pub found: Option<String>,
    /// Why no desktop was reached, and what to do.
    pub missing: Option<String>,
    pub rungs: Vec<Rung>,
    pub apps: Vec<ListedApp>,
    /// What a host must pass in deskpilot's environment (an MCP host's `env` block).
    pub pass: &'static [&'static str],
    /// What the session means for deskpilot, in sentences.
    pub notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct SessionVar {
    pub name: &'static str,
    pub value: Option<String>,
}

/// A way of acting, from the app's own semantics down to real input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RungKind {
    /// The accessibility tree's own actions, values and selections.
    Semantic,
    /// Keys and pointer sent as a person would.
    Input,
    Screenshots,
    /// The window list, activation, moves.
    Windows,
    /// Starting programs on the desktop.
    Launch,
}

#[derive(Debug, Serialize)]
pub struct Rung {
    pub rung: RungKind,
    pub served: bool,
    /// What serves it, or why it is missing.
    pub detail: String,
}

impl Doctor {
    /// Reached, and every rung served.
    pub fn healthy(&self) -> bool {
        self.desktop.is_some() && self.rungs.iter().all(|r| r.served)
    }
}

/// Looks at this desktop as `reach` says to reach it.
pub async fn doctor(reach: Reach) -> Doctor {
    let session = platform::SESSION_VARS.iter().map(|&name| SessionVar {
        name,
        value: std::env::var(name).ok(),
    });
    let mut doctor = Doctor {
        session: session.collect(),
        desktop: None,
        found: None,
        missing: None,
        rungs: Vec::new(),
        apps: Vec::new(),
        pass: platform::PASS_ENV,
        notes: platform::session_notes(),
    };
    match crate::this_desktop(reach).await {
        Ok(engine) => {
            doctor.rungs = rungs(&engine);
            let wiring = engine.wiring();
            (doctor.desktop, doctor.found) = (wiring.name.clone(), wiring.note.clone());
            match engine.list_apps().await {
                Ok(apps) => doctor.apps = apps,
                Err(e) => doctor
                    .notes
                    .push(format!("the apps could not be listed: {e}")),
            }
        }
        Err(missing) => doctor.missing = Some(format!("{missing} ({})", platform::NO_DESKTOP_HINT)),
    }
    doctor
}

/// Each rung of `engine`'s desktop.
fn rungs(engine: &Engine) -> Vec<Rung> {
    let wiring = engine.wiring();
    let by = wiring.name.clone().unwrap_or_else(|| "this desktop".into());
    let rung = |rung, served: bool, why: &str| Rung {
        rung,
        served,
        detail: if served { by.clone() } else { why.to_owned() },
    };
    let no_device = format!("{}; {}", wiring.missing.why, wiring.missing.hint);
    let no_windows = format!(
        "{}: window ids, activation and moves are unknown",
        wiring.missing.why
    );
    vec![
        Rung {
            rung: RungKind::Semantic,
            served: true,
            detail: "the apps' accessibility trees".into(),
        },
        rung(RungKind::Input, wiring.input.is_some(), &no_device),
        rung(RungKind::Screenshots, wiring.capture.is_some(), &no_device),
        rung(RungKind::Windows, wiring.windows.is_some(), &no_windows),
        rung(
            RungKind::Launch,
            wiring.launcher.is_some(),
            "this deskpilot cannot start programs: start them yourself",
        ),
    ]
}
