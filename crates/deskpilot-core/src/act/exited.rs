//! An action that ends its app: after input was sent, an app that stops answering and then
//! leaves within `EXIT_WAIT` exited, as a dialog's OK ends zenity. That is reported as such,
//! never as a retryable `app_not_responding` an agent would answer by acting again on
//! whatever is there next. An app still there after the wait is not responding, as before.

use std::time::Duration;

use tokio::time::Instant;

use super::action::Action;
use super::report::{ActionReport, Effect, Route, Rung, Skipped};
use crate::engine::Engine;
use crate::error::{Code, Error};
use crate::model::ElementId;

/// How long an app that stopped answering after an action gets to leave before it is taken
/// for not responding: the read-back's own wait (docs/failures.md). Test
/// `an_ok_that_ends_its_program_is_confirmed_and_one_that_freezes_it_is_not`.
pub(super) const EXIT_WAIT: Duration = Duration::from_millis(1500);
const EXIT_POLL: Duration = Duration::from_millis(50);

/// What the ladder knows when the app stopped answering after a rung was sent.
pub(super) struct Sent<'a> {
    pub action: &'a Action,
    pub reference: String,
    pub rung: Rung,
    pub how: String,
    pub skipped: Vec<Skipped>,
}

impl Engine {
    /// `error` from reading back (or sending) a rung: when the app stopped answering and
    /// then left, the report of an action that ended its app; else `error`.
    pub(super) async fn unless_exited(
        &self,
        app: &ElementId,
        sent: Sent<'_>,
        error: Error,
    ) -> Result<ActionReport, Error> {
        let silent = matches!(error.code, Code::AppNotResponding | Code::AppGone);
        if !silent || !self.left_within(app, EXIT_WAIT).await {
            return Err(error);
        }
        Ok(exited(sent))
    }

    /// Whether `app` leaves within `wait`, asked of the system (never of the app).
    async fn left_within(&self, app: &ElementId, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        loop {
            match self.backend().app_running(app).await {
                Some(false) => return true,
                None => return false,
                Some(true) if Instant::now() >= deadline => return false,
                Some(true) => tokio::time::sleep(EXIT_POLL).await,
            }
        }
    }
}

/// The report of an action after which its app exited: confirmed for what ends an app (a
/// click, a key, an action of its own); for the rest, the exit is no evidence.
fn exited(sent: Sent<'_>) -> ActionReport {
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
