//! An action that ends its app: after input was sent, an app that stops answering and then
//! leaves within `EXIT_WAIT` exited, as a dialog's OK ends zenity. That is reported as such,
//! never as a retryable `app_not_responding` an agent would answer by acting again on
//! whatever is there next. An app still there after the wait is not responding, as before.

use super::action::Action;
use super::report::{ActionReport, Effect, Route, Rung, Skipped};

/// What the ladder knows when the app stopped answering after a rung was sent.
pub(crate) struct Sent<'a> {
    pub action: &'a Action,
    pub reference: String,
    pub rung: Rung,
    pub how: String,
    pub skipped: Vec<Skipped>,
}

/// The report of an action after which its app exited: confirmed for what ends an app (a
/// click, a key, an action of its own); for the rest, the exit is no evidence.
pub(crate) fn exited(sent: Sent<'_>) -> ActionReport {
    let ends_apps = matches!(
        sent.action,
        Action::Click { .. } | Action::PressKey(_) | Action::Activate(_)
    );
    let (effect, note) = if ends_apps {
        (Effect::Confirmed, None)
    } else {
        (Effect::Unverified, Some("its effect cannot be read back"))
    };
    ActionReport {
        verb: sent.action.verb(),
        reference: sent.reference,
        route: Some(Route {
            rung: sent.rung,
            how: sent.how,
        }),
        skipped: sent.skipped,
        effect,
        changes: vec!["the app exited".to_owned()],
        foreground_changed: None,
        note: note.map(str::to_owned),
        tree: None,
        observed: Vec::new(),
        interaction: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(action: &Action) -> Sent<'_> {
        Sent {
            action,
            reference: "e1".into(),
            rung: Rung::Semantic,
            how: "action \"click\"".into(),
            skipped: Vec::new(),
        }
    }

    #[test]
    fn an_exit_confirms_a_click_and_never_typed_text() {
        let click = Action::Click {
            button: super::super::MouseButton::Left,
            double: false,
        };
        assert_eq!(exited(sent(&click)).effect, Effect::Confirmed);
        let typed = Action::TypeText("hello".into());
        let report = exited(sent(&typed));
        assert_eq!(report.effect, Effect::Unverified);
        assert_eq!(report.changes, ["the app exited"]);
    }
}
