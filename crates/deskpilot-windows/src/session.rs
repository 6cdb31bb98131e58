//! Whether deskpilot runs where a person's desktop is. OpenSSH's logins, services and
//! scheduled tasks run in session 0, the services' session. There UI Automation's root has
//! no children, `EnumWindows` finds nothing and `SendInput` sends nothing: an empty app list
//! would be a lie, so the desktop is missing. A locked or disconnected
//! session has no input desktop (`OpenInputDesktop` fails): missing too. A Remote Desktop
//! session is not the console's and has a desktop of its own: it is used.

/// Why this session's desktop cannot be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unavailable {
    /// No desktop here (see `missing_desktop`).
    #[error("{0}")]
    NoDesktop(String),
    /// UI Automation could not be started.
    #[error("UI Automation could not start: {0}")]
    Uia(#[from] crate::raw::UiaError),
}

/// What the system says of deskpilot's session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionFacts {
    /// This process's session (`ProcessIdToSessionId`), when it could be read.
    pub own: Option<u32>,
    /// Whether the input desktop could be opened (`OpenInputDesktop`): someone's desktop
    /// takes input in this session now.
    pub input_desktop: bool,
}

/// Session 0 runs services and never shows a desktop ("Session 0 Isolation").
const SERVICES: u32 = 0;

/// Why there is no desktop to work on here, if there is none.
pub fn missing_desktop(facts: SessionFacts) -> Option<String> {
    match facts {
        SessionFacts {
            own: Some(SERVICES),
            ..
        } => Some(
            "deskpilot runs in session 0 (a service, a scheduled task or an SSH login), which \
             has no desktop"
                .into(),
        ),
        SessionFacts {
            input_desktop: false,
            ..
        } => Some(
            "this session has no input desktop (it is locked, disconnected, or on the secure \
             desktop)"
                .into(),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An SSH login or a service (session 0) and a locked session have no desktop; the
    /// console's session and a Remote Desktop session have one.
    #[test]
    fn only_a_session_with_an_input_desktop_is_a_desktop() {
        let facts = |own, input_desktop| SessionFacts { own, input_desktop };
        let ssh = missing_desktop(facts(Some(0), false)).unwrap();
        assert!(ssh.contains("session 0"), "{ssh}");
        let locked = missing_desktop(facts(Some(1), false)).unwrap();
        assert!(locked.contains("locked"), "{locked}");
        assert_eq!(missing_desktop(facts(Some(1), true)), None);
        assert_eq!(
            missing_desktop(facts(Some(3), true)),
            None,
            "Remote Desktop"
        );
        assert_eq!(missing_desktop(facts(None, true)), None);
    }
}
